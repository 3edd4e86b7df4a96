/**
 * Every contact's manifold, accumulated impulses and mixed material in struct-of-arrays typed
 * arrays, indexed by the contact's slot (its index in the space's contact list, Contact.index).
 *
 * Why: the narrowphase, the solver's gather and the impulse store-back run over every contact
 * every step. With a Manifold object and eight two-element typed arrays per contact they chased
 * about ten small heap objects per contact; here they stream through a few long arrays.
 *
 * Slots stay dense, in the same order as the space's list: a contact is appended with `add`,
 * and removal moves another slot's data in with `moveSlot` (as the list moves its Contact) and
 * shortens the store with `truncate`. Point j of slot k is at index 2k + j.
 */
import { resized, shareArray, type GrowableArray } from '../util/typed-arrays.js';
import type { StageViews } from '../parallel/thread-runtime.js';
import type { Manifold } from '../collision/manifold.js';

/** flags: the manifold has points (a sensor's: some overlap). Box2D's "touching". */
export const TOUCHING = 1;
/** flags: one of the shapes is a sensor (reports contacts, is never solved). */
export const SENSOR = 2;
/** flags: marked for destruction by the space's narrowphase pass (its fat AABBs separated). */
export const DOOMED = 4;
/** flags: the pre-solve callback said 'ignore': not solved, not asked again, while it touches. */
export const PRE_IGNORE = 8;
/** flags: the pre-solve callback said 'accept': solved, not asked again, while it touches. */
export const PRE_ACCEPT = 16;
/** flags: the pre-solve callback said 'ignoreOnce': not solved in this step. */
export const SKIP = 32;
/** Every pre-solve decision (cleared when the contact stops touching, or the callback changes). */
export const PRE_SOLVE_FLAGS = PRE_IGNORE | PRE_ACCEPT | SKIP;

/** Whether a contact with these flags is solved: touching, solid, not doomed, not ignored by pre-solve. */
export function isSolved(flags: number): boolean {
  return (flags & (TOUCHING | SENSOR | DOOMED | PRE_IGNORE | SKIP)) === TOUCHING;
}

/** The store's arrays that a manifold is written to (writeManifold): a ContactStore, or a worker's views of one. */
export interface ManifoldSlots {
  pointCount: Uint8Array;
  nx: Float64Array;
  ny: Float64Array;
  px: Float64Array;
  py: Float64Array;
  separation: Float64Array;
  id: Int32Array;
  normalImpulse: Float64Array;
  tangentImpulse: Float64Array;
}

/**
 * ContactStore.update's work: slot k of `st` takes manifold m (its normal only with points), and a new point whose feature id
 * matches an old point's takes over that point's impulses (the first match, as a manifold's ids
 * are distinct); the others start from zero. It refers to nothing outside its parameters, so that
 * the narrowphase kernels (collision/collide-kernels.ts) take it as a part, on every thread.
 */
export function writeManifold(st: ManifoldSlots, k: number, m: Pick<Manifold, 'pointCount' | 'nx' | 'ny' | 'px' | 'py' | 'separation' | 'id'>): void {
  const p = 2 * k;
  const id = st.id;
  const ni = st.normalImpulse;
  const ti = st.tangentImpulse;
  const oldCount = st.pointCount[k]!;
  const oid0 = id[p]!;
  const oid1 = id[p + 1]!;
  const on0 = ni[p]!;
  const on1 = ni[p + 1]!;
  const ot0 = ti[p]!;
  const ot1 = ti[p + 1]!;
  const n = m.pointCount;
  st.pointCount[k] = n;
  // A manifold without points leaves its normal as the routine found it, which may be a previous
  // pair's: the slot keeps its own last one, so that it never depends on what was collided before.
  if (n > 0) {
    st.nx[k] = m.nx;
    st.ny[k] = m.ny;
  }
  for (let j = 0; j < n; j++) {
    const q = p + j;
    const mid = m.id[j]!;
    st.px[q] = m.px[j]!;
    st.py[q] = m.py[j]!;
    st.separation[q] = m.separation[j]!;
    id[q] = mid;
    let nImp = 0;
    let tImp = 0;
    if (oldCount > 0 && oid0 === mid) {
      nImp = on0;
      tImp = ot0;
    } else if (oldCount > 1 && oid1 === mid) {
      nImp = on1;
      tImp = ot1;
    }
    ni[q] = nImp;
    ti[q] = tImp;
  }
}

export class ContactStore {
  /** Slots in use. */
  count = 0;
  private capacity = 0;
  /** What snapshot kept (a store of its own, made at the first snapshot). */
  private saved: ContactStore | null = null;
  // per slot
  flags = new Uint8Array(0);
  pointCount = new Uint8Array(0);
  /** Unit normal from shape A to shape B (meaningful while pointCount > 0). */
  nx = new Float64Array(0);
  ny = new Float64Array(0);
  /** Mixed at creation (a shape's material change re-creates the contact); the contact's setters change them. */
  friction = new Float64Array(0);
  restitution = new Float64Array(0);
  /** The speed (m/s) at which friction drives shape B's surface along the tangent relative to A's (a conveyor). */
  tangentSpeed = new Float64Array(0);
  /**
   * The contact's bodies by their slots in the space (Body._slot) and its shapes' rounding radii:
   * what the contact solver's preparation needs of the Contact, Body and Shape objects, in arrays
   * it reads in the space's order without visiting those objects. Written when the slot is added;
   * a radius again when its shape's geometry changes (ContactManager.bodyMoved).
   */
  bodyA = new Int32Array(0);
  bodyB = new Int32Array(0);
  radiusA = new Float64Array(0);
  radiusB = new Float64Array(0);
  /**
   * What the narrowphase's first pass with workers needs of the shapes (ContactManager's
   * firstPass): their broadphase proxies, the kernel that collides them (PAIR of
   * collision/collide-kernels.ts, or −1), and their geometry blocks' offsets in the space's pool
   * (−1 for a shape outside it). Written by the contact manager when the contact is made; the
   * offsets again when the shapes join the pool or a shape's block moves (a vertex count change).
   */
  proxyA = new Int32Array(0);
  proxyB = new Int32Array(0);
  kernel = new Int32Array(0);
  geoA = new Int32Array(0);
  geoB = new Int32Array(0);
  /**
   * Whether snapshot keeps the materials too: only while a pre-solve callback, which may change
   * them inside a step, is set (Space.preSolve). Otherwise they change only between steps.
   */
  snapshotMaterials = false;
  // per point (2k + j), as in Manifold
  px = new Float64Array(0);
  py = new Float64Array(0);
  separation = new Float64Array(0);
  id = new Int32Array(0);
  /** Accumulated impulses, carried across steps by feature id (warm starting). */
  normalImpulse = new Float64Array(0);
  tangentImpulse = new Float64Array(0);
  /**
   * What each point applied over the last step it was solved in, every substep and the bounce:
   * the contact data of Contact.points. Written only by ContactSolver.store, after every stage
   * that can fail, so a failed step never needs them put back; every contact the narrowphase
   * updates is solved (or is a sensor, or not touching), so they are never a step stale, and a
   * sleeping contact keeps its last step's.
   */
  totalNormalImpulse = new Float64Array(0);
  totalTangentImpulse = new Float64Array(0);

  /** Keep the arrays a worker reads (what the contact rows are prepared from) in SharedArrayBuffers from now on. */
  share(): void {
    this.pointCount = shareArray(this.pointCount);
    this.nx = shareArray(this.nx);
    this.ny = shareArray(this.ny);
    this.friction = shareArray(this.friction);
    this.restitution = shareArray(this.restitution);
    this.tangentSpeed = shareArray(this.tangentSpeed);
    this.px = shareArray(this.px);
    this.py = shareArray(this.py);
    this.separation = shareArray(this.separation);
    this.normalImpulse = shareArray(this.normalImpulse);
    this.tangentImpulse = shareArray(this.tangentImpulse);
    this.id = shareArray(this.id);
    this.totalNormalImpulse = shareArray(this.totalNormalImpulse);
    this.totalTangentImpulse = shareArray(this.totalTangentImpulse);
    this.radiusA = shareArray(this.radiusA);
    this.radiusB = shareArray(this.radiusB);
  }

  /** The arrays of `v` that are this store's (their current ones: an array that grew is new). */
  writeViews(v: StageViews): void {
    v.spointCount = this.pointCount;
    v.snx = this.nx;
    v.sny = this.ny;
    v.sfriction = this.friction;
    v.srestitution = this.restitution;
    v.stangentSpeed = this.tangentSpeed;
    v.spx = this.px;
    v.spy = this.py;
    v.sseparation = this.separation;
    v.snormalImpulse = this.normalImpulse;
    v.stangentImpulse = this.tangentImpulse;
    v.sid = this.id;
    v.stotalNormalImpulse = this.totalNormalImpulse;
    v.stotalTangentImpulse = this.totalTangentImpulse;
    v.sradiusA = this.radiusA;
    v.sradiusB = this.radiusB;
  }

  /** Append a slot with no points and no impulses, for bodies in slots a and b with rounding radii rA and rB; returns its index. */
  add(friction: number, restitution: number, sensor: boolean, a: number, b: number, rA: number, rB: number): number {
    const k = this.count;
    if (k === this.capacity) this.grow(k + 1);
    this.count = k + 1;
    this.bodyA[k] = a;
    this.bodyB[k] = b;
    this.radiusA[k] = rA;
    this.radiusB[k] = rB;
    this.flags[k] = sensor ? SENSOR : 0;
    this.pointCount[k] = 0;
    this.nx[k] = 0;
    this.ny[k] = 0;
    this.friction[k] = friction;
    this.restitution[k] = restitution;
    this.tangentSpeed[k] = 0;
    for (let q = 2 * k; q < 2 * k + 2; q++) {
      this.px[q] = 0;
      this.py[q] = 0;
      this.separation[q] = 0;
      this.id[q] = 0;
      this.normalImpulse[q] = 0;
      this.tangentImpulse[q] = 0;
      this.totalNormalImpulse[q] = 0;
      this.totalTangentImpulse[q] = 0;
    }
    return k;
  }

  /** Copy slot `from` over slot `to` (the list moved the contact at `from` to `to`). */
  moveSlot(from: number, to: number): void {
    this.bodyA[to] = this.bodyA[from]!;
    this.bodyB[to] = this.bodyB[from]!;
    this.radiusA[to] = this.radiusA[from]!;
    this.radiusB[to] = this.radiusB[from]!;
    this.proxyA[to] = this.proxyA[from]!;
    this.proxyB[to] = this.proxyB[from]!;
    this.kernel[to] = this.kernel[from]!;
    this.geoA[to] = this.geoA[from]!;
    this.geoB[to] = this.geoB[from]!;
    this.flags[to] = this.flags[from]!;
    this.pointCount[to] = this.pointCount[from]!;
    this.nx[to] = this.nx[from]!;
    this.ny[to] = this.ny[from]!;
    this.friction[to] = this.friction[from]!;
    this.restitution[to] = this.restitution[from]!;
    this.tangentSpeed[to] = this.tangentSpeed[from]!;
    for (let j = 0; j < 2; j++) {
      const f = 2 * from + j;
      const t = 2 * to + j;
      this.px[t] = this.px[f]!;
      this.py[t] = this.py[f]!;
      this.separation[t] = this.separation[f]!;
      this.id[t] = this.id[f]!;
      this.normalImpulse[t] = this.normalImpulse[f]!;
      this.tangentImpulse[t] = this.tangentImpulse[f]!;
      this.totalNormalImpulse[t] = this.totalNormalImpulse[f]!;
      this.totalTangentImpulse[t] = this.totalTangentImpulse[f]!;
    }
  }

  /** Drop every slot from `count` on. */
  truncate(count: number): void {
    this.count = count;
  }

  /**
   * Write slot k's new manifold. A new point whose feature id matches an old point's takes over
   * that point's impulses (the first match, as points are ids distinct within a manifold); the
   * others start from zero.
   */
  update(k: number, m: Manifold): void {
    writeManifold(this, k, m);
  }

  /**
   * Keep a copy of the slots and the count: a step that fails after the narrowphase (restore)
   * puts every contact's manifold, flags and impulses back. Whole arrays are copied (no views to
   * allocate), 0.04 ms per step for the 15,000 contacts of the 5050-box pyramid. (The materials
   * are left out unless a pre-solve callback may change them in the step: otherwise a slot's are
   * written when it is added or between steps, and slots move only between steps.)
   */
  snapshot(): void {
    const b = this.saved ?? (this.saved = new ContactStore());
    if (b.capacity < this.capacity) b.grow(this.capacity);
    b.count = this.count;
    copyChanging(this, b);
    if (this.snapshotMaterials) copyMaterials(this, b);
    b.snapshotMaterials = this.snapshotMaterials;
  }

  /** Put back what snapshot kept (the slots after it are dropped). */
  restore(): void {
    const b = this.saved;
    if (b === null) return;
    this.count = b.count;
    // This store has at least the copy's capacity: it grew to it before the copy was taken.
    copyChanging(b, this);
    if (b.snapshotMaterials) copyMaterials(b, this);
  }

  /** Copy slot k's manifold into `out` (for debug drawing and tests). */
  readManifold(k: number, out: Manifold): Manifold {
    const n = this.pointCount[k]!;
    out.pointCount = n;
    out.nx = this.nx[k]!;
    out.ny = this.ny[k]!;
    for (let j = 0; j < n; j++) {
      out.px[j] = this.px[2 * k + j]!;
      out.py[j] = this.py[2 * k + j]!;
      out.separation[j] = this.separation[2 * k + j]!;
      out.id[j] = this.id[2 * k + j]!;
    }
    return out;
  }

  private grow(n: number): void {
    let cap = Math.max(64, this.capacity);
    while (cap < n) cap *= 2;
    const g = <T extends GrowableArray>(a: T, per: number): T => resized(a, cap * per);
    this.bodyA = g(this.bodyA, 1);
    this.bodyB = g(this.bodyB, 1);
    this.radiusA = g(this.radiusA, 1);
    this.radiusB = g(this.radiusB, 1);
    this.proxyA = g(this.proxyA, 1);
    this.proxyB = g(this.proxyB, 1);
    this.kernel = g(this.kernel, 1);
    this.geoA = g(this.geoA, 1);
    this.geoB = g(this.geoB, 1);
    this.flags = g(this.flags, 1);
    this.pointCount = g(this.pointCount, 1);
    this.nx = g(this.nx, 1);
    this.ny = g(this.ny, 1);
    this.friction = g(this.friction, 1);
    this.restitution = g(this.restitution, 1);
    this.tangentSpeed = g(this.tangentSpeed, 1);
    this.px = g(this.px, 2);
    this.py = g(this.py, 2);
    this.separation = g(this.separation, 2);
    this.id = g(this.id, 2);
    this.normalImpulse = g(this.normalImpulse, 2);
    this.tangentImpulse = g(this.tangentImpulse, 2);
    this.totalNormalImpulse = g(this.totalNormalImpulse, 2);
    this.totalTangentImpulse = g(this.totalTangentImpulse, 2);
    this.capacity = cap;
  }
}

/** The arrays a step changes, from one store into another of at least its capacity. */
function copyChanging(from: ContactStore, to: ContactStore): void {
  to.flags.set(from.flags);
  to.pointCount.set(from.pointCount);
  to.nx.set(from.nx);
  to.ny.set(from.ny);
  to.px.set(from.px);
  to.py.set(from.py);
  to.separation.set(from.separation);
  to.id.set(from.id);
  to.normalImpulse.set(from.normalImpulse);
  to.tangentImpulse.set(from.tangentImpulse);
}

/** The materials, which only a pre-solve callback changes inside a step. */
function copyMaterials(from: ContactStore, to: ContactStore): void {
  to.friction.set(from.friction);
  to.restitution.set(from.restitution);
  to.tangentSpeed.set(from.tangentSpeed);
}
