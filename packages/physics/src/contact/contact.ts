/**
 * A persistent contact between two shapes whose fat AABBs overlap. It lives from the
 * broadphase pair's creation until the fat AABBs separate (or a shape leaves). Its numbers
 * (manifold, accumulated impulses, mixed material) live in the space's ContactStore at slot
 * `index`; this object is the handle that names the shapes and bodies.
 * Points are matched between steps by their narrowphase feature id (ContactStore.update).
 */
import { Manifold } from '../collision/manifold.js';
import type { Body } from '../body/body.js';
import type { Vec2 } from '../math/vec2.js';
import type { Circle } from '../shape/circle.js';
import type { PolyShape } from '../shape/poly-shape.js';
import type { Shape } from '../shape/shape.js';
import { DOOMED, SENSOR, TOUCHING, type ContactStore } from './contact-store.js';
import { checkFinite, checkNonNegative, FulcrumInputError } from '../util/validate.js';

/** One point of a contact, as the last step it was solved in left it. */
export interface ContactPoint {
  /** World position, midway between the two surfaces. */
  x: number;
  y: number;
  /** Signed distance between the surfaces along the normal (negative: overlap), m. */
  separation: number;
  /** The normal impulse the point applied over the whole step (every substep and the bounce), N·s. */
  normalImpulse: number;
  /** The friction impulse over the step along the tangent (normal.y, −normal.x), N·s. */
  tangentImpulse: number;
}

/**
 * A side's rounding radius: its surface is its core (a circle's centre, a capsule's segment, a
 * polygon's outline) pushed out by it. The contact point's anchors turn with the bodies within a
 * step, but the part of an anchor that is the radius along the normal does not: a ball's lowest
 * point stays its lowest point however it spins. Turned with the ball, that part lifted the point
 * by r(1 − cos θ), a gap the speculative rule then let the ball close: a 5 cm ball rolling at
 * 10 m/s sank 1.8 cm into the ground. The solver takes r(1 − cos θ) back out (pass).
 */
export function roundingRadius(shape: Shape): number {
  return shape.kind === 'circle' ? (shape as Circle).radius : (shape as PolyShape).radius;
}

export class Contact {
  /** Slot in the store and index in the space's contact list (kept up to date on removal); −1 once destroyed. */
  index: number;
  /** @internal The narrowphase kernel that collides its shapes (PAIR of collision/collide-kernels.ts), or −1 (contact-manager.ts's firstPass). */
  _kernelPair = -1;
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
      bodyA._slot,
      bodyB._slot,
      roundingRadius(shapeA),
      roundingRadius(shapeB),
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
  /**
   * The contact's friction coefficient: the shapes' mixed (√(μ1·μ2)) when it began. Settable, for
   * this contact while it lasts (a shape's own material change re-creates it): between steps, or
   * inside the space's preSolve callback, which takes effect in the same step.
   */
  get friction(): number {
    return this.index >= 0 ? this._store.friction[this.index]! : 0;
  }
  set friction(v: number) {
    this.setMaterial('friction', checkNonNegative('Contact', 'friction', v), this._store.friction);
  }
  /** The contact's restitution: the larger of the shapes' when it began. Settable as friction is. */
  get restitution(): number {
    return this.index >= 0 ? this._store.restitution[this.index]! : 0;
  }
  set restitution(v: number) {
    this.setMaterial('restitution', checkNonNegative('Contact', 'restitution', v), this._store.restitution);
  }
  /**
   * The speed (m/s) at which friction drives shape2's surface relative to shape1's along the
   * tangent (normal.y, −normal.x): a conveyor belt. 0 by default. Settable as friction is. Swapping
   * the shapes flips the normal, the tangent and the relative velocity together, so it means the
   * same whichever shape is shape1: for a box on a horizontal belt, a positive speed carries it to +x.
   */
  get tangentSpeed(): number {
    return this.index >= 0 ? this._store.tangentSpeed[this.index]! : 0;
  }
  set tangentSpeed(v: number) {
    this.setMaterial('tangentSpeed', checkFinite('Contact', 'tangentSpeed', v), this._store.tangentSpeed);
  }

  private setMaterial(prop: string, v: number, into: Float64Array): void {
    this.bodyA._space?._assertContactMutable(`Contact.${prop}`);
    if (this.index < 0) throw new FulcrumInputError(`Contact.${prop}: the contact has ended`, { owner: 'Contact', prop });
    into[this.index] = v;
  }

  /** The first shape (Nape's shape1): the one with the lower id; the normal points away from it. */
  get shape1(): Shape {
    return this.shapeA;
  }
  /** The second shape (Nape's shape2). */
  get shape2(): Shape {
    return this.shapeB;
  }
  /** shape1's body. */
  get body1(): Body {
    return this.bodyA;
  }
  /** shape2's body. */
  get body2(): Body {
    return this.bodyB;
  }

  /** The world unit normal, from shape1 towards shape2 ({0, 0} while not touching). A fresh object. */
  get normal(): Vec2 {
    if (this.index < 0 || this._store.pointCount[this.index] === 0) return { x: 0, y: 0 };
    return { x: this._store.nx[this.index]!, y: this._store.ny[this.index]! };
  }

  /**
   * The contact's points (none while not touching), each with what it applied over the last step
   * it was solved in (a sleeping contact: the step before it fell asleep; a sensor's: 0). Fresh
   * objects on every read.
   */
  get points(): ContactPoint[] {
    const k = this.index;
    if (k < 0) return [];
    const st = this._store;
    const out: ContactPoint[] = [];
    for (let j = 0, n = st.pointCount[k]!; j < n; j++) {
      const q = 2 * k + j;
      out.push({ x: st.px[q]!, y: st.py[q]!, separation: st.separation[q]!, normalImpulse: st.totalNormalImpulse[q]!, tangentImpulse: st.totalTangentImpulse[q]! });
    }
    return out;
  }

  /** The points' normal impulses over the last step, summed (N·s): divide by dt for the mean force. */
  get normalImpulse(): number {
    const k = this.index;
    if (k < 0) return 0;
    const st = this._store;
    let sum = 0;
    for (let j = 0, n = st.pointCount[k]!; j < n; j++) sum += st.totalNormalImpulse[2 * k + j]!;
    return sum;
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

  /**
   * Point i's accumulated normal impulse at the end of the last substep (N·s): what warm-starts the
   * next step, a substep's worth. The contact data is `points`.
   */
  substepNormalImpulse(i: number): number {
    return this.index >= 0 && i < this._store.pointCount[this.index]! ? this._store.normalImpulse[2 * this.index + i]! : 0;
  }
  /** Point i's accumulated friction impulse at the end of the last substep (N·s). */
  substepTangentImpulse(i: number): number {
    return this.index >= 0 && i < this._store.pointCount[this.index]! ? this._store.tangentImpulse[2 * this.index + i]! : 0;
  }
}

/** Deterministic key of an unordered shape pair (ids below 2^26). */
export function pairKey(idA: number, idB: number): number {
  return idA < idB ? idA * 67108864 + idB : idB * 67108864 + idA;
}
