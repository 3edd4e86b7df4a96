/**
 * Shared plumbing for joints between body1 and body2 (all but the pulley): validated body
 * and anchor properties. Anchors are local to their body's origin and stored by value.
 */
import type { Body } from '../../body/body.js';
import type { Vec2, Vec2Like } from '../../math/vec2.js';
import { checkVec2, fail } from '../../util/validate.js';
import type { ConstraintOptions } from '../constraint.js';
import { Joint } from '../joint.js';

export interface TwoBodyOptions extends ConstraintOptions {
  /** The first body (null: not set yet; the constraint cannot step until it is). */
  body1?: Body | null;
  /** The second body; must differ from body1. */
  body2?: Body | null;
}

export interface AnchoredOptions extends TwoBodyOptions {
  /** Anchor on body1, in body1's local frame. Default (0, 0). */
  anchor1?: Vec2Like;
  /** Anchor on body2, in body2's local frame. Default (0, 0). */
  anchor2?: Vec2Like;
}

export abstract class TwoBodyJoint extends Joint {
  protected constructor(slotNames: string[] = ['body1', 'body2']) {
    super(slotNames);
  }

  /**
   * Validate base options, bodies and the subclass's own options (through `validateOwn`,
   * which returns a function that applies them), then apply everything: nothing is
   * half-applied when any option is bad.
   */
  protected init(o: TwoBodyOptions, validateOwn: () => () => void): void {
    if (o === null || typeof o !== 'object') fail(this.typeName, 'options', o, 'must be an object');
    const base = this.validateBaseOptions(o);
    const b1 = this.checkBody('body1', o.body1);
    const b2 = this.checkBody('body2', o.body2);
    if (b1 !== null && b1 === b2) fail(this.typeName, 'body2', `Body#${b2.id}`, 'must differ from body1');
    const applyOwn = validateOwn();
    Object.assign(this, base);
    this.userData = o.userData;
    this.assignBodies([
      [0, b1],
      [1, b2],
    ]);
    applyOwn();
  }

  get body1(): Body | null {
    return this.getBody(0);
  }
  set body1(b: Body | null) {
    const v = this.checkBody('body1', b);
    if (v !== null && v === this.getBody(1)) fail(this.typeName, 'body1', `Body#${v.id}`, 'must differ from body2');
    this.assignBodies([[0, v]]);
  }

  get body2(): Body | null {
    return this.getBody(1);
  }
  set body2(b: Body | null) {
    const v = this.checkBody('body2', b);
    if (v !== null && v === this.getBody(0)) fail(this.typeName, 'body2', `Body#${v.id}`, 'must differ from body1');
    this.assignBodies([[1, v]]);
  }
}

/** Joints with anchor1/anchor2 (Pivot, Weld, Distance, Line). */
export abstract class AnchoredJoint extends TwoBodyJoint {
  /** Validates and returns the anchors so subclasses can fold them into `init`. */
  protected validateAnchors(o: AnchoredOptions): () => void {
    const a1 = o.anchor1 !== undefined ? checkVec2(this.typeName, 'anchor1', o.anchor1) : { x: 0, y: 0 };
    const a2 = o.anchor2 !== undefined ? checkVec2(this.typeName, 'anchor2', o.anchor2) : { x: 0, y: 0 };
    return () => {
      this._slots[0]!.ax = a1.x;
      this._slots[0]!.ay = a1.y;
      this._slots[1]!.ax = a2.x;
      this._slots[1]!.ay = a2.y;
    };
  }

  get anchor1(): Vec2 {
    return { x: this._slots[0]!.ax, y: this._slots[0]!.ay };
  }
  set anchor1(v: Vec2Like) {
    const a = checkVec2(this.typeName, 'anchor1', v);
    this.setAnchor(0, a.x, a.y);
  }
  get anchor2(): Vec2 {
    return { x: this._slots[1]!.ax, y: this._slots[1]!.ay };
  }
  set anchor2(v: Vec2Like) {
    const a = checkVec2(this.typeName, 'anchor2', v);
    this.setAnchor(1, a.x, a.y);
  }
}

export { checkLimits } from '../limits.js';
