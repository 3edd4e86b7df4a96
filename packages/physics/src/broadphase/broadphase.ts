/**
 * Broadphase: the dynamic tree plus a move buffer, turning "these proxies were created or
 * re-inserted" into "these (userDataA, userDataB) pairs have overlapping fat AABBs".
 * Why a move buffer: a proxy whose fat box still holds its shape needs no re-pairing, so
 * only the few re-inserted proxies query the tree each step, not all of them.
 *
 * Determinism: updatePairs sorts the move buffer and each query's hits by proxy id, so the
 * order of reported pairs depends only on the proxy ids, not on call or traversal order.
 * Steady state allocates nothing: every buffer is a typed array that grows by doubling.
 */
import { resized } from '../util/typed-arrays.js';
import { DynamicTree, type AABBOut, type TreeQueryCallback, type TreeRayCastCallback } from './dynamic-tree.js';
import { sortInt32 } from './sort-int.js';

export type PairCallback = (userDataA: number, userDataB: number) => void;

export class BroadPhase {
  readonly tree: DynamicTree;

  /** Proxy ids to re-pair; -1 marks an entry removed by destroyProxy. */
  private moveBuffer = new Int32Array(64);
  private moveCount = 0;
  /** moveFlags[proxyId] = 1 while the proxy is in the move buffer (dedup + pair rule). */
  private moveFlags = new Uint8Array(64);

  /**
   * inert[proxyId] = 1 for a proxy that pairs with nothing (its shape's filter has mask 0 or
   * category 0): it is never queued or queried, and never reported as a partner. Joint-only
   * bodies (chains, grids, ragdoll parts set not to collide) then cost the broadphase nothing
   * when they move, beyond keeping their AABBs in the tree for queries.
   */
  private inert = new Uint8Array(64);

  /** Hits of the current query (proxy ids). */
  private hits = new Int32Array(64);
  private hitCount = 0;
  private queryProxy = -1;

  /** The proxies the last updatePairs re-paired (requeueLastUpdate puts them back). */
  private lastMoved = new Int32Array(64);
  private lastMovedCount = 0;

  /** Pairs found this update, as userData (a, b) with a < b; reported after the buffer is cleared. */
  private pairs = new Float64Array(128);
  private pairCount = 0;
  private updating = false;

  /** Created once so that queries do not allocate a closure. */
  private readonly collectHit: TreeQueryCallback = (proxyId: number): boolean => {
    const self = this.queryProxy;
    if (proxyId === self) return true;
    // Both moved: the pair is reported from the lower id's query only.
    if (proxyId < self && this.moveFlags[proxyId] === 1) return true;
    if (proxyId < this.inert.length && this.inert[proxyId] === 1) return true;
    if (this.hitCount === this.hits.length) this.hits = resized(this.hits, this.hitCount * 2);
    this.hits[this.hitCount++] = proxyId;
    return true;
  };

  constructor(tree: DynamicTree = new DynamicTree()) {
    this.tree = tree;
  }

  createProxy(minX: number, minY: number, maxX: number, maxY: number, userData: number): number {
    const id = this.tree.createProxy(minX, minY, maxX, maxY, userData);
    this.bufferMove(id);
    return id;
  }

  /** Mark a proxy inert (pairs with nothing) or not; a proxy that stops being inert is re-paired. */
  setInert(proxyId: number, inert: boolean): void {
    if (!this.tree.isProxy(proxyId)) throw new RangeError(`BroadPhase: ${String(proxyId)} is not a live proxy id`);
    if (proxyId >= this.inert.length) {
      let cap = this.inert.length * 2;
      while (cap <= proxyId) cap *= 2;
      const f = new Uint8Array(cap);
      f.set(this.inert);
      this.inert = f;
    }
    const was = this.inert[proxyId] === 1;
    this.inert[proxyId] = inert ? 1 : 0;
    if (inert) this.unbufferMove(proxyId);
    else if (was) this.bufferMove(proxyId);
  }

  destroyProxy(proxyId: number): void {
    this.tree.destroyProxy(proxyId); // validates the id first
    if (proxyId < this.inert.length) this.inert[proxyId] = 0;
    this.unbufferMove(proxyId);
  }

  private unbufferMove(proxyId: number): void {
    if (this.moveFlags[proxyId] === 1) {
      this.moveFlags[proxyId] = 0;
      const buf = this.moveBuffer;
      // From the end: the usual case is a proxy just created and queued.
      for (let i = this.moveCount - 1; i >= 0; i--) {
        if (buf[i] === proxyId) {
          buf[i] = -1;
          break;
        }
      }
    }
  }

  /** See DynamicTree.moveProxy. A re-inserted proxy is queued for re-pairing; returns whether it was. */
  moveProxy(proxyId: number, minX: number, minY: number, maxX: number, maxY: number, dx = 0, dy = 0): boolean {
    const inert = proxyId < this.inert.length && this.inert[proxyId] === 1;
    if (!this.tree.moveProxy(proxyId, minX, minY, maxX, maxY, dx, dy, inert)) return false;
    this.bufferMove(proxyId);
    return true;
  }

  /** moveProxy with its numbers in `box` = [minX, minY, maxX, maxY, dx, dy] (see DynamicTree.moveProxyBox). */
  moveProxyBox(proxyId: number, box: Float64Array): boolean {
    const inert = proxyId < this.inert.length && this.inert[proxyId] === 1;
    if (!this.tree.moveProxyBox(proxyId, box, inert)) return false;
    this.bufferMove(proxyId);
    return true;
  }

  /** Queues a proxy for re-pairing without moving it (e.g. its filter changed). */
  touchProxy(proxyId: number): void {
    if (!this.tree.isProxy(proxyId)) throw new RangeError(`BroadPhase: ${String(proxyId)} is not a live proxy id`);
    this.bufferMove(proxyId);
  }

  getMoveCount(): number {
    let n = 0;
    for (let i = 0; i < this.moveCount; i++) if (this.moveBuffer[i] !== -1) n++;
    return n;
  }

  /**
   * Reports every pair of proxies with overlapping fat AABBs where at least one of the two is
   * in the move buffer, exactly once, as (userDataA, userDataB) with userDataA < userDataB
   * (equal userData is reported as-is). Order: moved proxies by ascending proxy id, and for
   * each, its partners by ascending proxy id. The callback runs after the move buffer is
   * cleared, so it may create/move/destroy/touch proxies (queued for the next update); it must
   * not call updatePairs.
   */
  updatePairs(callback: PairCallback): void {
    if (this.updating) throw new Error('BroadPhase.updatePairs: not re-entrant');
    this.collectPairs();
    const n = this.pairCount;
    this.pairCount = 0; // nothing the callback may call touches `pairs`
    this.updating = true;
    try {
      this.reportPairs(callback, n);
    } finally {
      this.updating = false;
    }
  }

  /**
   * The callback loop, in its own function: inside updatePairs's try block, its optimised code
   * bailed out at the finally block on nearly every step of a box pyramid (a deopt loop).
   */
  private reportPairs(callback: PairCallback, n: number): void {
    const pairs = this.pairs;
    for (let i = 0; i < n; i += 2) callback(pairs[i], pairs[i + 1]);
  }

  /**
   * Queue again the proxies the last updatePairs took from the move buffer, for a step that failed
   * after it: the contacts it created are gone again, and the next update must report the same
   * pairs (in the same order: the buffer is sorted by proxy id).
   */
  requeueLastUpdate(): void {
    const ids = this.lastMoved;
    for (let i = 0, n = this.lastMovedCount; i < n; i++) if (this.tree.isProxy(ids[i]!)) this.bufferMove(ids[i]!);
    this.lastMovedCount = 0;
  }

  /** Whether the fat AABBs of two proxies overlap (touching counts). */
  testOverlap(proxyA: number, proxyB: number): boolean {
    const t = this.tree;
    if (!t.isProxy(proxyA) || !t.isProxy(proxyB)) throw new RangeError('BroadPhase.testOverlap: not a live proxy id');
    return this.fatBoxesOverlap(proxyA, proxyB);
  }

  /** testOverlap for two proxies known to be live (the narrowphase's, from the contact store). */
  fatBoxesOverlap(proxyA: number, proxyB: number): boolean {
    const t = this.tree;
    const minX = t.minX;
    const minY = t.minY;
    const maxX = t.maxX;
    const maxY = t.maxY;
    return !(
      minX[proxyB]! > maxX[proxyA]! ||
      minY[proxyB]! > maxY[proxyA]! ||
      minX[proxyA]! > maxX[proxyB]! ||
      minY[proxyA]! > maxY[proxyB]!
    );
  }

  getUserData(proxyId: number): number {
    return this.tree.getUserData(proxyId);
  }

  getFatAABB(proxyId: number, out: AABBOut): AABBOut {
    return this.tree.getFatAABB(proxyId, out);
  }

  getProxyCount(): number {
    return this.tree.getProxyCount();
  }

  getTreeHeight(): number {
    return this.tree.getHeight();
  }

  query(minX: number, minY: number, maxX: number, maxY: number, callback: TreeQueryCallback): void {
    this.tree.query(minX, minY, maxX, maxY, callback);
  }

  rayCast(p1x: number, p1y: number, p2x: number, p2y: number, maxFraction: number, callback: TreeRayCastCallback): void {
    this.tree.rayCast(p1x, p1y, p2x, p2y, maxFraction, callback);
  }

  // ---- internals

  private bufferMove(proxyId: number): void {
    if (proxyId < this.inert.length && this.inert[proxyId] === 1) return;
    if (proxyId >= this.moveFlags.length) {
      let cap = this.moveFlags.length * 2;
      while (cap <= proxyId) cap *= 2;
      const f = new Uint8Array(cap);
      f.set(this.moveFlags);
      this.moveFlags = f;
    }
    if (this.moveFlags[proxyId] === 1) return;
    this.moveFlags[proxyId] = 1;
    if (this.moveCount === this.moveBuffer.length) this.moveBuffer = resized(this.moveBuffer, this.moveCount * 2);
    this.moveBuffer[this.moveCount++] = proxyId;
  }

  /** Fills `pairs` from the move buffer, then clears the buffer and its flags. */
  private collectPairs(): void {
    // Compact out destroyed entries, then sort by proxy id.
    const buf = this.moveBuffer;
    let count = 0;
    for (let i = 0; i < this.moveCount; i++) {
      const id = buf[i];
      if (id !== -1) buf[count++] = id;
    }
    sortInt32(buf, count);

    const t = this.tree;
    this.pairCount = 0;
    for (let i = 0; i < count; i++) {
      const id = buf[i];
      this.queryProxy = id;
      this.hitCount = 0;
      // Arrays are re-read per query: nothing here changes the tree, but keep it obvious.
      t.query(t.minX[id], t.minY[id], t.maxX[id], t.maxY[id], this.collectHit);
      const hits = this.hits;
      const hitCount = this.hitCount;
      sortInt32(hits, hitCount);
      const needed = this.pairCount + 2 * hitCount;
      if (needed > this.pairs.length) {
        let cap = this.pairs.length * 2;
        while (cap < needed) cap *= 2;
        const p = new Float64Array(cap);
        p.set(this.pairs.subarray(0, this.pairCount));
        this.pairs = p;
      }
      const pairs = this.pairs;
      const userA = t.getUserData(id);
      for (let k = 0; k < hitCount; k++) {
        const userB = t.getUserData(hits[k]);
        const j = this.pairCount;
        if (userA <= userB) {
          pairs[j] = userA;
          pairs[j + 1] = userB;
        } else {
          pairs[j] = userB;
          pairs[j + 1] = userA;
        }
        this.pairCount = j + 2;
      }
    }

    for (let i = 0; i < count; i++) this.moveFlags[buf[i]] = 0;
    if (count > this.lastMoved.length) this.lastMoved = new Int32Array(buf.length);
    const last = this.lastMoved;
    for (let i = 0; i < count; i++) last[i] = buf[i]!;
    this.lastMovedCount = count;
    this.moveCount = 0;
    this.queryProxy = -1;
  }
}

