/**
 * A persistent contact between two shapes whose fat AABBs overlap. It lives from the
 * broadphase pair's creation until the fat AABBs separate (or a shape leaves). Its numbers
 * (manifold, accumulated impulses, mixed material) live in the space's ContactStore at slot
 * `index`; this object is the handle that names the shapes and bodies.
 * Points are matched between steps by their narrowphase feature id (ContactStore.update).
 */
import { Manifold } from '../collision/manifold.js';
import type { Body } from '../body/body.js';
import type { Shape } from '../shape/shape.js';
import { DOOMED, SENSOR, TOUCHING, type ContactStore } from './contact-store.js';

export class Contact {
  /** Slot in the store and index in the space's contact list (kept up to date on removal); −1 once destroyed. */
  index: number;
  /** The `manifold` getter's copy, made on first use. */
  private _manifold: Manifold | null = null;

  /**
   * Mixes friction and restitution once: any material or filter change destroys the shape's
   * contacts (Space._shapeChanged), so they never go stale and the narrowphase loop stays lean.
   */
  constructor(
    readonly shapeA: Shape,
    readonly shapeB: Shape,
    readonly bodyA: Body,
    readonly bodyB: Body,
    readonly key: number,
    private readonly _store: ContactStore,
  ) {
    this.index = _store.add(
      Math.sqrt(shapeA.friction * shapeB.friction),
      Math.max(shapeA.restitution, shapeB.restitution),
      shapeA.sensor || shapeB.sensor,
    );
  }

  /** True while the manifold has points (Box2D semantics: includes speculative points). */
  get touching(): boolean {
    // A doomed contact (its boxes parted in this step's narrowphase) is on its way out.
    return this.index >= 0 && (this._store.flags[this.index]! & (TOUCHING | DOOMED)) === TOUCHING;
  }
  get isSensor(): boolean {
    return this.index >= 0 && (this._store.flags[this.index]! & SENSOR) !== 0;
  }
  get friction(): number {
    return this._store.friction[this.index]!;
  }
  get restitution(): number {
    return this._store.restitution[this.index]!;
  }

  /** A copy of the current manifold (refreshed on every read; the same object each time). */
  get manifold(): Manifold {
    const m = (this._manifold ??= new Manifold());
    if (this.index < 0) {
      m.pointCount = 0;
      return m;
    }
    return this._store.readManifold(this.index, m);
  }

  /** Accumulated normal impulse of manifold point i (N·s), as used to warm start the next step. */
  normalImpulse(i: number): number {
    return i < this._store.pointCount[this.index]! ? this._store.normalImpulse[2 * this.index + i]! : 0;
  }
  /** Accumulated friction impulse of manifold point i (N·s). */
  tangentImpulse(i: number): number {
    return i < this._store.pointCount[this.index]! ? this._store.tangentImpulse[2 * this.index + i]! : 0;
  }
}

/** Deterministic key of an unordered shape pair (ids below 2^26). */
export function pairKey(idA: number, idB: number): number {
  return idA < idB ? idA * 67108864 + idB : idB * 67108864 + idA;
}
