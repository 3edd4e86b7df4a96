/**
 * Capsule: a segment core (two centres) swept by `radius` > 0 — a stadium. Why it is a
 * PolyShape: as a 2-vertex rounded polygon it reuses the polygon narrowphase, mass and
 * queries, so capsule pairs need no special cases.
 */
import { checkPositive, checkVec2, fail, optionKeys } from '../util/validate.js';
import type { Vec2, Vec2Like } from '../math/vec2.js';
import { PolyShape } from './poly-shape.js';
import { type ShapeOptions, SHAPE_OPTION_KEYS } from './shape.js';
import { WELD_DISTANCE } from './vertices.js';

/** Either `length` (a capsule along the shape's x axis, centred) or the two centres `p1`, `p2`. */
export type CapsuleOptions = ShapeOptions &
  (
    | { length: number; radius: number; p1?: never; p2?: never }
    | { p1: Vec2Like; p2: Vec2Like; radius: number; length?: never }
  );

/**
 * Validate two core points (shape frame) that must be at least WELD_DISTANCE apart.
 * Returns [x1, y1, x2, y2]. Shared by Capsule and Segment.
 */
export function parseCorePoints(owner: string, p1: unknown, p2: unknown): Float64Array {
  const a = checkVec2(owner, 'p1', p1);
  const b = checkVec2(owner, 'p2', p2);
  if (Math.hypot(b.x - a.x, b.y - a.y) < WELD_DISTANCE) {
    fail(owner, 'p2', p2, `must be at least ${WELD_DISTANCE} m from p1`);
  }
  return Float64Array.of(a.x, a.y, b.x, b.y);
}

function lengthPoints(length: unknown): Float64Array {
  const l = checkPositive('Capsule', 'length', length);
  if (l < WELD_DISTANCE) fail('Capsule', 'length', length, `must be at least ${WELD_DISTANCE} m (use a Circle for a zero-length capsule)`);
  return Float64Array.of(-0.5 * l, 0, 0.5 * l, 0);
}

/** Every key of CapsuleOptions (a misspelt one is an error). */
const CAPSULE_OPTION_KEYS = optionKeys<CapsuleOptions>()([...SHAPE_OPTION_KEYS, 'length', 'radius', 'p1', 'p2']);

export class Capsule extends PolyShape {
  override readonly kind = 'capsule' as const;
  /** Core centres in the shape's own frame (before offset/angle): x1, y1, x2, y2. */
  private _points: Float64Array;

  constructor(opts: CapsuleOptions) {
    super();
    if (opts === null || typeof opts !== 'object') fail('Capsule', 'options', opts, 'must be an object {length, radius} or {p1, p2, radius}');
    const o = opts as { length?: unknown; p1?: unknown; p2?: unknown; radius?: unknown };
    let pts: Float64Array;
    if (o.length !== undefined) {
      if (o.p1 !== undefined || o.p2 !== undefined) fail('Capsule', 'length', o.length, 'must not be given together with p1/p2');
      pts = lengthPoints(o.length);
    } else {
      pts = parseCorePoints('Capsule', o.p1, o.p2);
    }
    const radius = checkPositive('Capsule', 'radius', o.radius);
    this.applyCommonOptions(opts);
    this._points = pts;
    this._radius = radius;
    this.rebuildLocal();
  }

  protected override get typeName(): string {
    return 'Capsule';
  }
  protected override get optionKeys(): readonly string[] {
    return CAPSULE_OPTION_KEYS;
  }

  protected override checkRadius(v: unknown): number {
    return checkPositive('Capsule', 'radius', v);
  }

  /** First core centre, shape frame. */
  get p1(): Vec2 {
    return { x: this._points[0]!, y: this._points[1]! };
  }
  set p1(v: Vec2Like) {
    this.setPoints(v, this.p2);
  }
  /** Second core centre, shape frame. */
  get p2(): Vec2 {
    return { x: this._points[2]!, y: this._points[3]! };
  }
  set p2(v: Vec2Like) {
    this.setPoints(this.p1, v);
  }
  /** Replace both core centres at once (so an intermediate state cannot be rejected). */
  setPoints(p1: Vec2Like, p2: Vec2Like): void {
    this.beforeChange('points');
    this._points = parseCorePoints('Capsule', p1, p2);
    this.geometryChanged();
  }

  /** Distance between the core centres. Setting it keeps the midpoint and direction. */
  get length(): number {
    const p = this._points;
    return Math.hypot(p[2]! - p[0]!, p[3]! - p[1]!);
  }
  set length(v: number) {
    this.beforeChange('length');
    const base = lengthPoints(v);
    const p = this._points;
    const mx = 0.5 * (p[0]! + p[2]!);
    const my = 0.5 * (p[1]! + p[3]!);
    const len = this.length;
    const ux = (p[2]! - p[0]!) / len;
    const uy = (p[3]! - p[1]!) / len;
    const h = base[2]!;
    this._points = Float64Array.of(mx - h * ux, my - h * uy, mx + h * ux, my + h * uy);
    this.geometryChanged();
  }

  protected override rebuildLocal(): void {
    this.setCore(this._points, 2);
  }
}
