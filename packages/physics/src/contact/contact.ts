/**
 * A persistent contact between two shapes whose fat AABBs overlap. It lives from the
 * broadphase pair's creation until the fat AABBs separate (or a shape leaves), and carries
 * the accumulated impulses of each manifold point across steps so the solver can warm start.
 * Points are matched between steps by their narrowphase feature id.
 */
import { Manifold } from '../collision/manifold.js';
import type { Body } from '../body/body.js';
import type { Shape } from '../shape/shape.js';

export class Contact {
  readonly manifold = new Manifold();
  /** Accumulated impulses per manifold point, aligned with manifold points. */
  readonly normalImpulse = new Float64Array(2);
  readonly tangentImpulse = new Float64Array(2);
  /** Previous step's ids and impulses, used to match points after the narrowphase. */
  private readonly oldId = new Int32Array(2);
  private readonly oldNormal = new Float64Array(2);
  private readonly oldTangent = new Float64Array(2);
  /** True while the manifold has points (Box2D semantics: includes speculative points). */
  touching = false;
  /** Index in the space's contact array (kept up to date on swap-removal). */
  index = -1;
  /**
   * Mixed once at creation: any material or filter change destroys the shape's contacts
   * (Space._shapeChanged), so these never go stale and the narrowphase loop stays lean.
   */
  readonly friction: number;
  readonly restitution: number;
  readonly isSensor: boolean;

  constructor(
    readonly shapeA: Shape,
    readonly shapeB: Shape,
    readonly bodyA: Body,
    readonly bodyB: Body,
    readonly key: number,
  ) {
    this.friction = Math.sqrt(shapeA.friction * shapeB.friction);
    this.restitution = Math.max(shapeA.restitution, shapeB.restitution);
    this.isSensor = shapeA.sensor || shapeB.sensor;
  }

  /** Save ids/impulses before the narrowphase rewrites the manifold. */
  beginUpdate(): number {
    const m = this.manifold;
    const n = m.pointCount;
    for (let i = 0; i < n; i++) {
      this.oldId[i] = m.id[i]!;
      this.oldNormal[i] = this.normalImpulse[i]!;
      this.oldTangent[i] = this.tangentImpulse[i]!;
    }
    return n;
  }

  /** Carry impulses over to new points that have the same feature id. */
  endUpdate(oldCount: number): void {
    const m = this.manifold;
    for (let i = 0; i < m.pointCount; i++) {
      let ni = 0;
      let ti = 0;
      const id = m.id[i]!;
      for (let j = 0; j < oldCount; j++) {
        if (this.oldId[j] === id) {
          ni = this.oldNormal[j]!;
          ti = this.oldTangent[j]!;
          break;
        }
      }
      this.normalImpulse[i] = ni;
      this.tangentImpulse[i] = ti;
    }
  }
}

/** Deterministic key of an unordered shape pair (ids below 2^26). */
export function pairKey(idA: number, idB: number): number {
  return idA < idB ? idA * 67108864 + idB : idB * 67108864 + idA;
}
