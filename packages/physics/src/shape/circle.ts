/**
 * Circle: a disc of `radius` centred at the shape's offset. Why its own class (not a
 * 0-vertex rounded polygon): circle pairs have a closed-form narrowphase and the cheapest
 * world cache (just the centre wx, wy).
 */
import { checkPositive, fail, optionKeys } from '../util/validate.js';
import { Shape, type MassData, type RayCastOutput, type ShapeOptions, SHAPE_OPTION_KEYS } from './shape.js';

export interface CircleOptions extends ShapeOptions {
  /** Radius in metres, > 0. */
  radius: number;
}

/** Every key of CircleOptions (a misspelt one is an error). */
const CIRCLE_OPTION_KEYS = optionKeys<CircleOptions>()([...SHAPE_OPTION_KEYS, 'radius']);

/** Numbers in a circle's geometry block (Shape._geo). */
const CIRCLE_BLOCK_LENGTH = 4;

export class Circle extends Shape {
  override readonly kind = 'circle' as const;
  private _radius: number;
  /** Body-local centre (= the shape's offset). Read-only. */
  localX = 0;
  localY = 0;
  /** World centre, refreshed by `updateWorld`. Read-only. */
  wx = 0;
  wy = 0;

  constructor(opts: CircleOptions) {
    super();
    if (opts === null || typeof opts !== 'object') fail('Circle', 'options', opts, 'must be an object {radius, ...}');
    const radius = checkPositive('Circle', 'radius', opts.radius);
    this.applyCommonOptions(opts);
    this._radius = radius;
    this.bindGeometry(new Float64Array(CIRCLE_BLOCK_LENGTH), 0);
    this.rebuildLocal();
  }

  /** @internal [0 (no vertices), radius, world centre x, y]. */
  override geometryLength(): number {
    return CIRCLE_BLOCK_LENGTH;
  }

  /** @internal The block takes the shape's count, radius and centre. */
  override bindGeometry(g: Float64Array, at: number): void {
    this._geo = g;
    this._geoAt = at;
    g[at] = 0;
    g[at + 1] = this._radius;
    g[at + 2] = this.wx;
    g[at + 3] = this.wy;
  }

  protected override get typeName(): string {
    return 'Circle';
  }
  protected override get optionKeys(): readonly string[] {
    return CIRCLE_OPTION_KEYS;
  }

  get radius(): number {
    return this._radius;
  }
  set radius(v: number) {
    this.beforeChange('radius');
    this._radius = checkPositive('Circle', 'radius', v);
    this.geometryChanged();
  }

  protected override rebuildLocal(): void {
    this.localX = this.offsetX;
    this.localY = this.offsetY;
  }

  override computeMass(): MassData {
    const r2 = this._radius * this._radius;
    const mass = this.density * Math.PI * r2;
    const cx = this.localX;
    const cy = this.localY;
    return { mass, cx, cy, inertia: mass * (0.5 * r2 + cx * cx + cy * cy) };
  }

  override updateWorld(x: number, y: number, c: number, s: number): void {
    const wx = x + c * this.localX - s * this.localY;
    const wy = y + s * this.localX + c * this.localY;
    const r = this._radius;
    this.wx = wx;
    this.wy = wy;
    const g = this._geo;
    const at = this._geoAt;
    g[at + 1] = r;
    g[at + 2] = wx;
    g[at + 3] = wy;
    this.aabbMinX = wx - r;
    this.aabbMinY = wy - r;
    this.aabbMaxX = wx + r;
    this.aabbMaxY = wy + r;
  }

  override containsPoint(x: number, y: number): boolean {
    const dx = x - this.wx;
    const dy = y - this.wy;
    return dx * dx + dy * dy <= this._radius * this._radius;
  }

  override rayCast(p1x: number, p1y: number, p2x: number, p2y: number, maxFraction: number, out: RayCastOutput): boolean {
    const r = this._radius;
    const sx = p1x - this.wx;
    const sy = p1y - this.wy;
    const c = sx * sx + sy * sy - r * r;
    if (c <= 0) return false; // starts inside
    const dx = p2x - p1x;
    const dy = p2y - p1y;
    const dd = dx * dx + dy * dy;
    const b = sx * dx + sy * dy;
    const disc = b * b - dd * c;
    if (dd === 0 || disc < 0) return false;
    const t = (-b - Math.sqrt(disc)) / dd;
    if (!(t >= 0 && t <= maxFraction)) return false;
    out.fraction = t;
    out.normalX = (sx + t * dx) / r;
    out.normalY = (sy + t * dy) / r;
    return true;
  }

  override maxExtent(localCenterX: number, localCenterY: number): number {
    return Math.hypot(this.localX - localCenterX, this.localY - localCenterY) + this._radius;
  }

  override minExtent(): number {
    return this._radius;
  }
}
