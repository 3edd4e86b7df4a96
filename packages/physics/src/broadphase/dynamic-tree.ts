/**
 * Dynamic AABB tree: a binary bounding-volume hierarchy over "fat" AABBs (tight box enlarged
 * by AABB_MARGIN), so that slowly moving shapes rarely need a tree update and queries are
 * O(log n). Why struct-of-arrays in typed arrays: no per-node objects for the GC, contiguous
 * Float64 bounds, and node ids that are plain ints (they double as proxy ids).
 *
 * Insertion picks a sibling by a perimeter (2D surface-area) cost descent, then walks back
 * to the root applying AVL-style rotations, which keeps the height O(log n) even for sorted
 * input. Every choice is a pure function of the operation sequence (no randomness, no object
 * identity), so the same calls give the same tree.
 *
 * Not re-entrant for structural changes: do not create/move/destroy proxies from inside a
 * query or rayCast callback. Nested *queries* from a callback are fine.
 */
import { resized } from '../util/typed-arrays.js';
import { AABB_MARGIN } from '../collision/manifold.js';

/** Marks "no node" in parent/child links. */
export const NULL_NODE = -1;

/** Output slot for `getFatAABB` (an existing object is filled in; nothing is allocated). */
export interface AABBOut {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

/** Return false to stop the query. */
export type TreeQueryCallback = (proxyId: number) => boolean;

/**
 * Called for each proxy whose fat AABB the (clipped) segment p1→p1+maxFraction·(p2−p1) crosses.
 * Return 0 to terminate, a negative value (e.g. -1) to ignore this proxy, or a positive value
 * that becomes the new maxFraction (clips the ray; return the current maxFraction to continue).
 */
export type TreeRayCastCallback = (
  proxyId: number,
  p1x: number,
  p1y: number,
  p2x: number,
  p2y: number,
  maxFraction: number,
) => number;

/** See DynamicTree.refitsLeft. */
const REFITS_BEFORE_REINSERT = 16;

export class DynamicTree {
  /** Fat-AABB enlargement applied on createProxy / re-insertion. */
  readonly margin: number;

  private _minX: Float64Array;
  private _minY: Float64Array;
  private _maxX: Float64Array;
  private _maxY: Float64Array;
  /** Parent link; for a free node it is the next free node instead. */
  private _parent: Int32Array;
  private _child1: Int32Array;
  private _child2: Int32Array;
  /** Leaf = 0, internal ≥ 1, free = -1. */
  private _height: Int32Array;
  private readonly _userData: number[] = [];

  private capacity: number;
  /** High-water mark: nodes [0, used) have been handed out at least once. */
  private used = 0;
  private freeList = NULL_NODE;
  private root = NULL_NODE;
  private proxyCount = 0;

  /** Traversal stack shared by query/rayCast; `stackTop` lets nested queries stack above. */
  private stack = new Int32Array(64);
  private stackTop = 0;

  constructor(initialCapacity = 16, margin = AABB_MARGIN) {
    const cap = Math.max(2, initialCapacity | 0);
    this.capacity = cap;
    this.margin = margin;
    this._minX = new Float64Array(cap);
    this._minY = new Float64Array(cap);
    this._maxX = new Float64Array(cap);
    this._maxY = new Float64Array(cap);
    this._parent = new Int32Array(cap);
    this._child1 = new Int32Array(cap);
    this._child2 = new Int32Array(cap);
    this._height = new Int32Array(cap);
  }

  // ---- read access (arrays are replaced when the tree grows: re-read after structural changes)

  get minX(): Float64Array { return this._minX; }
  get minY(): Float64Array { return this._minY; }
  get maxX(): Float64Array { return this._maxX; }
  get maxY(): Float64Array { return this._maxY; }

  getUserData(proxyId: number): number {
    this.checkProxy(proxyId);
    return this._userData[proxyId];
  }

  getFatAABB(proxyId: number, out: AABBOut): AABBOut {
    this.checkProxy(proxyId);
    out.minX = this._minX[proxyId];
    out.minY = this._minY[proxyId];
    out.maxX = this._maxX[proxyId];
    out.maxY = this._maxY[proxyId];
    return out;
  }

  /** True when `proxyId` names a live proxy (leaf) of this tree. */
  isProxy(proxyId: number): boolean {
    return proxyId >= 0 && proxyId < this.used && this._height[proxyId] === 0;
  }

  getProxyCount(): number { return this.proxyCount; }

  /** Height of the root (a single leaf has height 0; an empty tree 0). */
  getHeight(): number { return this.root === NULL_NODE ? 0 : this._height[this.root]; }

  getRoot(): number { return this.root; }

  // ---- proxies

  createProxy(minX: number, minY: number, maxX: number, maxY: number, userData: number): number {
    checkAABB(minX, minY, maxX, maxY);
    const id = this.allocateNode();
    const m = this.margin;
    this._minX[id] = minX - m;
    this._minY[id] = minY - m;
    this._maxX[id] = maxX + m;
    this._maxY[id] = maxY + m;
    this._userData[id] = userData;
    this.insertLeaf(id);
    this.proxyCount++;
    return id;
  }

  destroyProxy(proxyId: number): void {
    this.checkProxy(proxyId);
    this.removeLeaf(proxyId);
    this.freeNode(proxyId);
    this.proxyCount--;
  }

  /**
   * Updates a proxy for a new tight AABB. Returns false (tree untouched) while the tight box is
   * still inside the stored fat box; otherwise re-inserts with a fresh fat box and returns true.
   * Optional `dx, dy`: predicted displacement; the fat box is stretched along it so fast bodies
   * re-insert less often. A fat box far larger than needed (a body that stopped) is shrunk.
   * `refitInPlace` (for proxies that never pair, whose tree position only matters to queries):
   * a box that still overlaps its old one is updated where it is and its ancestors refitted,
   * which is far cheaper than removing and re-inserting it (see refitsLeft).
   */
  moveProxy(proxyId: number, minX: number, minY: number, maxX: number, maxY: number, dx = 0, dy = 0, refitInPlace = false): boolean {
    const box = this.moveScratch;
    box[0] = minX;
    box[1] = minY;
    box[2] = maxX;
    box[3] = maxY;
    box[4] = dx;
    box[5] = dy;
    return this.moveProxyBox(proxyId, box, refitInPlace);
  }

  /**
   * moveProxy with its numbers in `box` = [minX, minY, maxX, maxY, dx, dy]. Why: a call that is
   * not inlined boxes every double argument, and the space moves thousands of proxies per step.
   */
  moveProxyBox(proxyId: number, box: Float64Array, refitInPlace = false): boolean {
    this.checkProxy(proxyId);
    const minX = box[0]!;
    const minY = box[1]!;
    const maxX = box[2]!;
    const maxY = box[3]!;
    const dx = box[4]!;
    const dy = box[5]!;
    checkAABB(minX, minY, maxX, maxY);
    const m = this.margin;
    let fMinX = minX - m;
    let fMinY = minY - m;
    let fMaxX = maxX + m;
    let fMaxY = maxY + m;
    if (dx < 0) fMinX += dx;
    else fMaxX += dx;
    if (dy < 0) fMinY += dy;
    else fMaxY += dy;

    const oMinX = this._minX[proxyId];
    const oMinY = this._minY[proxyId];
    const oMaxX = this._maxX[proxyId];
    const oMaxY = this._maxY[proxyId];
    if (oMinX <= minX && oMinY <= minY && maxX <= oMaxX && maxY <= oMaxY) {
      // Still enclosed. Keep it unless the stored box exceeds the new fat box by > 4 margins.
      const slack = 4 * m;
      if (oMinX >= fMinX - slack && oMinY >= fMinY - slack && oMaxX <= fMaxX + slack && oMaxY <= fMaxY + slack) {
        return false;
      }
    }

    if (refitInPlace && this.refitsLeft(proxyId) && fMinX <= oMaxX && oMinX <= fMaxX && fMinY <= oMaxY && oMinY <= fMaxY) {
      // Continuous motion: keep the leaf where it is and refit its ancestors.
      this._minX[proxyId] = fMinX;
      this._minY[proxyId] = fMinY;
      this._maxX[proxyId] = fMaxX;
      this._maxY[proxyId] = fMaxY;
      for (let n = this._parent[proxyId]; n !== NULL_NODE; n = this._parent[n]) this.refit(n);
      return true;
    }
    this.removeLeaf(proxyId);
    this._minX[proxyId] = fMinX;
    this._minY[proxyId] = fMinY;
    this._maxX[proxyId] = fMaxX;
    this._maxY[proxyId] = fMaxY;
    this.insertLeaf(proxyId);
    return true;
  }

  /**
   * In-place refits left before a proxy is re-inserted properly: refitting keeps the tree valid
   * but not well shaped, so every REFITS_BEFORE_REINSERT moves a full re-insertion restores it.
   */
  private refits = new Uint8Array(0);
  /** moveProxy's numbers, handed to moveProxyBox. */
  private readonly moveScratch = new Float64Array(6);
  private refitsLeft(proxyId: number): boolean {
    if (proxyId >= this.refits.length) {
      const r = new Uint8Array(Math.max(64, this._minX.length));
      r.set(this.refits);
      this.refits = r;
    }
    const n = this.refits[proxyId]! + 1;
    if (n >= REFITS_BEFORE_REINSERT) {
      this.refits[proxyId] = 0;
      return false;
    }
    this.refits[proxyId] = n;
    return true;
  }

  // ---- queries

  /** Calls `callback` for every proxy whose fat AABB overlaps the box (touching counts). */
  query(minX: number, minY: number, maxX: number, maxY: number, callback: TreeQueryCallback): void {
    if (this.root === NULL_NODE) return;
    const nMinX = this._minX;
    const nMinY = this._minY;
    const nMaxX = this._maxX;
    const nMaxY = this._maxY;
    const child1 = this._child1;
    const child2 = this._child2;
    const base = this.stackTop;
    let stack = this.stack;
    if (base + 1 > stack.length) stack = this.growStack(base + 1);
    let sp = base;
    stack[sp++] = this.root;
    try {
      while (sp > base) {
        const node = stack[--sp];
        if (nMinX[node] > maxX || nMinY[node] > maxY || nMaxX[node] < minX || nMaxY[node] < minY) continue;
        const c1 = child1[node];
        if (c1 === NULL_NODE) {
          this.stackTop = sp;
          const proceed = callback(node);
          stack = this.stack; // a nested query may have grown it
          if (!proceed) return;
        } else {
          if (sp + 2 > stack.length) stack = this.growStack(sp + 2);
          stack[sp++] = child2[node];
          stack[sp++] = c1;
        }
      }
    } finally {
      this.stackTop = base;
    }
  }

  /**
   * Segment cast against the fat AABBs (Box2D semantics, see TreeRayCastCallback). A node is
   * visited when the box overlaps the clipped segment's bounding box (the x/y slabs) and the
   * segment's normal axis does not separate them: |v·(p1−c)| ≤ |v|·h. With those three axes
   * the test is exact for a segment against a box in 2D.
   */
  rayCast(p1x: number, p1y: number, p2x: number, p2y: number, maxFraction: number, callback: TreeRayCastCallback): void {
    if (this.root === NULL_NODE) return;
    const rx = p2x - p1x;
    const ry = p2y - p1y;
    const len = Math.sqrt(rx * rx + ry * ry);
    // v = unit normal of the segment (zero for a degenerate segment: only the box test remains)
    const vx = len > 0 ? -ry / len : 0;
    const vy = len > 0 ? rx / len : 0;
    const avx = Math.abs(vx);
    const avy = Math.abs(vy);

    let ex = p1x + maxFraction * rx;
    let ey = p1y + maxFraction * ry;
    let sMinX = Math.min(p1x, ex);
    let sMinY = Math.min(p1y, ey);
    let sMaxX = Math.max(p1x, ex);
    let sMaxY = Math.max(p1y, ey);

    const nMinX = this._minX;
    const nMinY = this._minY;
    const nMaxX = this._maxX;
    const nMaxY = this._maxY;
    const child1 = this._child1;
    const child2 = this._child2;
    const base = this.stackTop;
    let stack = this.stack;
    if (base + 1 > stack.length) stack = this.growStack(base + 1);
    let sp = base;
    stack[sp++] = this.root;
    try {
      while (sp > base) {
        const node = stack[--sp];
        const bMinX = nMinX[node];
        const bMinY = nMinY[node];
        const bMaxX = nMaxX[node];
        const bMaxY = nMaxY[node];
        if (bMinX > sMaxX || bMinY > sMaxY || bMaxX < sMinX || bMaxY < sMinY) continue;
        const hx = 0.5 * (bMaxX - bMinX);
        const hy = 0.5 * (bMaxY - bMinY);
        const cx = bMinX + hx;
        const cy = bMinY + hy;
        if (Math.abs(vx * (p1x - cx) + vy * (p1y - cy)) - (avx * hx + avy * hy) > 0) continue;

        const c1 = child1[node];
        if (c1 === NULL_NODE) {
          this.stackTop = sp;
          const value = callback(node, p1x, p1y, p2x, p2y, maxFraction);
          stack = this.stack;
          if (value === 0) return;
          if (value > 0) {
            maxFraction = value;
            ex = p1x + maxFraction * rx;
            ey = p1y + maxFraction * ry;
            sMinX = Math.min(p1x, ex);
            sMinY = Math.min(p1y, ey);
            sMaxX = Math.max(p1x, ex);
            sMaxY = Math.max(p1y, ey);
          }
        } else {
          if (sp + 2 > stack.length) stack = this.growStack(sp + 2);
          stack[sp++] = child2[node];
          stack[sp++] = c1;
        }
      }
    } finally {
      this.stackTop = base;
    }
  }

  // ---- validation (tests / debugging; allocates)

  /** Throws if any structural invariant is broken: links, heights, exact AABB unions, counts. */
  validate(): void {
    const parent = this._parent;
    const child1 = this._child1;
    const child2 = this._child2;
    const height = this._height;
    let freeCount = 0;
    for (let i = this.freeList; i !== NULL_NODE; i = parent[i]) {
      if (i < 0 || i >= this.used || height[i] !== -1) throw new Error(`DynamicTree.validate: bad free node ${i}`);
      if (++freeCount > this.used) throw new Error('DynamicTree.validate: free list has a cycle');
    }
    let reached = 0;
    let leaves = 0;
    if (this.root !== NULL_NODE) {
      if (parent[this.root] !== NULL_NODE) throw new Error('DynamicTree.validate: root has a parent');
      const todo = [this.root];
      while (todo.length > 0) {
        const n = todo.pop() as number;
        reached++;
        if (reached > this.used) throw new Error('DynamicTree.validate: cycle in tree');
        const c1 = child1[n];
        const c2 = child2[n];
        if (c1 === NULL_NODE) {
          if (c2 !== NULL_NODE || height[n] !== 0) throw new Error(`DynamicTree.validate: bad leaf ${n}`);
          if (!(this._minX[n] <= this._maxX[n] && this._minY[n] <= this._maxY[n])) {
            throw new Error(`DynamicTree.validate: inverted AABB at leaf ${n}`);
          }
          leaves++;
          continue;
        }
        if (c2 === NULL_NODE) throw new Error(`DynamicTree.validate: node ${n} has one child`);
        if (parent[c1] !== n || parent[c2] !== n) throw new Error(`DynamicTree.validate: bad parent link under ${n}`);
        if (height[n] !== 1 + Math.max(height[c1], height[c2])) throw new Error(`DynamicTree.validate: bad height at ${n}`);
        if (
          this._minX[n] !== Math.min(this._minX[c1], this._minX[c2]) ||
          this._minY[n] !== Math.min(this._minY[c1], this._minY[c2]) ||
          this._maxX[n] !== Math.max(this._maxX[c1], this._maxX[c2]) ||
          this._maxY[n] !== Math.max(this._maxY[c1], this._maxY[c2])
        ) {
          throw new Error(`DynamicTree.validate: AABB of ${n} is not the union of its children`);
        }
        todo.push(c1, c2);
      }
    }
    if (leaves !== this.proxyCount) throw new Error(`DynamicTree.validate: ${leaves} leaves but ${this.proxyCount} proxies`);
    if (reached + freeCount !== this.used) {
      throw new Error(`DynamicTree.validate: ${reached} reachable + ${freeCount} free != ${this.used} allocated`);
    }
  }

  /** Largest |height(child1) − height(child2)| over internal nodes (diagnostics). */
  getMaxBalance(): number {
    let best = 0;
    for (let i = 0; i < this.used; i++) {
      if (this._height[i] <= 1) continue;
      const b = Math.abs(this._height[this._child2[i]] - this._height[this._child1[i]]);
      if (b > best) best = b;
    }
    return best;
  }

  // ---- internals

  private checkProxy(proxyId: number): void {
    if (!this.isProxy(proxyId)) throw new RangeError(`DynamicTree: ${String(proxyId)} is not a live proxy id`);
  }

  private allocateNode(): number {
    let id: number;
    if (this.freeList !== NULL_NODE) {
      id = this.freeList;
      this.freeList = this._parent[id];
    } else {
      if (this.used === this.capacity) this.grow();
      id = this.used++;
    }
    this._parent[id] = NULL_NODE;
    this._child1[id] = NULL_NODE;
    this._child2[id] = NULL_NODE;
    this._height[id] = 0;
    this._userData[id] = -1;
    return id;
  }

  private freeNode(id: number): void {
    this._parent[id] = this.freeList;
    this._child1[id] = NULL_NODE;
    this._child2[id] = NULL_NODE;
    this._height[id] = -1;
    this.freeList = id;
  }

  private grow(): void {
    const cap = this.capacity * 2;
    this._minX = resized(this._minX, cap);
    this._minY = resized(this._minY, cap);
    this._maxX = resized(this._maxX, cap);
    this._maxY = resized(this._maxY, cap);
    this._parent = resized(this._parent, cap);
    this._child1 = resized(this._child1, cap);
    this._child2 = resized(this._child2, cap);
    this._height = resized(this._height, cap);
    this.capacity = cap;
  }

  private growStack(min: number): Int32Array<ArrayBuffer> {
    let cap = this.stack.length * 2;
    while (cap < min) cap *= 2;
    this.stack = resized(this.stack, cap);
    return this.stack;
  }

  private perimeter(n: number): number {
    return 2 * (this._maxX[n] - this._minX[n] + this._maxY[n] - this._minY[n]);
  }

  /** Perimeter of the union of node n's box and the given box. */
  private unionPerimeter(n: number, minX: number, minY: number, maxX: number, maxY: number): number {
    const w = Math.max(this._maxX[n], maxX) - Math.min(this._minX[n], minX);
    const h = Math.max(this._maxY[n], maxY) - Math.min(this._minY[n], minY);
    return 2 * (w + h);
  }

  /** Sets node n's box to the union of its children's and its height from theirs. */
  private refit(n: number): void {
    const a = this._child1[n];
    const b = this._child2[n];
    this._minX[n] = Math.min(this._minX[a], this._minX[b]);
    this._minY[n] = Math.min(this._minY[a], this._minY[b]);
    this._maxX[n] = Math.max(this._maxX[a], this._maxX[b]);
    this._maxY[n] = Math.max(this._maxY[a], this._maxY[b]);
    this._height[n] = 1 + Math.max(this._height[a], this._height[b]);
  }

  private insertLeaf(leaf: number): void {
    if (this.root === NULL_NODE) {
      this.root = leaf;
      this._parent[leaf] = NULL_NODE;
      return;
    }
    // May grow the arrays, so it comes before any array is cached.
    const newParent = this.allocateNode();
    const child1 = this._child1;
    const child2 = this._child2;
    const parent = this._parent;
    const lMinX = this._minX[leaf];
    const lMinY = this._minY[leaf];
    const lMaxX = this._maxX[leaf];
    const lMaxY = this._maxY[leaf];

    // Descend towards the cheapest sibling. Pairing the leaf with node n creates a parent of
    // perimeter P(n ∪ leaf) and grows every ancestor of n by at most P(n ∪ leaf) − P(n).
    // Going down into child c instead grows n itself by that amount (inherited by both
    // options), plus the cost at c: a new parent P(c ∪ leaf) if c is a leaf, or at least the
    // growth P(c ∪ leaf) − P(c) if c is internal. Stop when staying here is strictly cheaper.
    let index = this.root;
    while (child1[index] !== NULL_NODE) {
      const c1 = child1[index];
      const c2 = child2[index];
      const combined = this.unionPerimeter(index, lMinX, lMinY, lMaxX, lMaxY);
      const cost = 2 * combined;
      const inherited = 2 * (combined - this.perimeter(index));
      let cost1 = this.unionPerimeter(c1, lMinX, lMinY, lMaxX, lMaxY) + inherited;
      if (child1[c1] !== NULL_NODE) cost1 -= this.perimeter(c1);
      let cost2 = this.unionPerimeter(c2, lMinX, lMinY, lMaxX, lMaxY) + inherited;
      if (child1[c2] !== NULL_NODE) cost2 -= this.perimeter(c2);
      if (cost < cost1 && cost < cost2) break;
      index = cost1 <= cost2 ? c1 : c2;
    }

    // Splice newParent in place of the sibling, with children (sibling, leaf).
    const sibling = index;
    const oldParent = parent[sibling];
    parent[newParent] = oldParent;
    child1[newParent] = sibling;
    child2[newParent] = leaf;
    parent[sibling] = newParent;
    parent[leaf] = newParent;
    if (oldParent === NULL_NODE) this.root = newParent;
    else if (child1[oldParent] === sibling) child1[oldParent] = newParent;
    else child2[oldParent] = newParent;

    this.fixUpwards(newParent);
  }

  private removeLeaf(leaf: number): void {
    if (leaf === this.root) {
      this.root = NULL_NODE;
      return;
    }
    const parent = this._parent;
    const p = parent[leaf];
    const grand = parent[p];
    const sibling = this._child1[p] === leaf ? this._child2[p] : this._child1[p];
    if (grand === NULL_NODE) {
      this.root = sibling;
      parent[sibling] = NULL_NODE;
    } else {
      if (this._child1[grand] === p) this._child1[grand] = sibling;
      else this._child2[grand] = sibling;
      parent[sibling] = grand;
    }
    this.freeNode(p);
    parent[leaf] = NULL_NODE;
    if (grand !== NULL_NODE) this.fixUpwards(grand);
  }

  /** Rebalances and refits every node from n up to the root. */
  private fixUpwards(n: number): void {
    let i = n;
    while (i !== NULL_NODE) {
      i = this.balance(i);
      this.refit(i);
      i = this._parent[i];
    }
  }

  /**
   * If the children of `a` differ in height by more than one, rotates the taller child up
   * into a's place; of its two children, the taller one stays with it and the shorter one
   * moves down under `a`. Returns the node now at a's position.
   */
  private balance(a: number): number {
    const h = this._height;
    const b = this._child1[a];
    if (b === NULL_NODE) return a;
    const c = this._child2[a];
    // Children's heights are current (fixUpwards goes bottom-up); a's own may be stale.
    const diff = h[c] - h[b];
    if (diff > 1) return this.rotateUp(a, c, false);
    if (diff < -1) return this.rotateUp(a, b, true);
    return a;
  }

  /**
   * Promotes `up` (a child of `a`) to a's position; `a` becomes up's child. `upIsChild1`
   * says which slot of `a` `up` occupied: that slot receives up's shorter child.
   */
  private rotateUp(a: number, up: number, upIsChild1: boolean): number {
    const parent = this._parent;
    const child1 = this._child1;
    const child2 = this._child2;
    const h = this._height;
    const f = child1[up];
    const g = child2[up];

    // up takes a's place under a's parent.
    const ap = parent[a];
    parent[up] = ap;
    parent[a] = up;
    if (ap === NULL_NODE) this.root = up;
    else if (child1[ap] === a) child1[ap] = up;
    else child2[ap] = up;

    // up's taller child stays (ties: keep g, move f), the other goes under a.
    const keep = h[f] > h[g] ? f : g;
    const move = keep === f ? g : f;
    child1[up] = a;
    child2[up] = keep;
    if (upIsChild1) child1[a] = move;
    else child2[a] = move;
    parent[move] = a;

    this.refit(a);
    this.refit(up);
    return up;
  }
}

function checkAABB(minX: number, minY: number, maxX: number, maxY: number): void {
  // Written so that NaN fails every comparison; min ≤ max plus the outer bounds exclude ±Infinity.
  if (!(minX <= maxX && minY <= maxY && minX > -Infinity && minY > -Infinity && maxX < Infinity && maxY < Infinity)) {
    throw new RangeError(`DynamicTree: invalid AABB [${minX}, ${minY}] – [${maxX}, ${maxY}]`);
  }
}


