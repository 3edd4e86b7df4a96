/**
 * Segment: a two-sided line segment p1–p2 with no thickness (radius 0). Why it exists: cheap
 * static terrain and walls. It has zero area, so it adds NO mass: use segments on static
 * bodies, or alongside other shapes on a dynamic body. It has no inside (containsPoint is
 * always false); ray casts hit either side with the normal facing the ray's origin.
 */
import { fail, optionKeys } from '../util/validate.js';
import type { Vec2, Vec2Like } from '../math/vec2.js';
import { parseCorePoints } from './capsule.js';
import { PolyShape } from './poly-shape.js';
import { type ShapeOptions, SHAPE_OPTION_KEYS } from './shape.js';

export interface SegmentOptions extends ShapeOptions {
  p1: Vec2Like;
  p2: Vec2Like;
}

/** Every key of SegmentOptions (a misspelt one is an error). */
const SEGMENT_OPTION_KEYS = optionKeys<SegmentOptions>()([...SHAPE_OPTION_KEYS, 'p1', 'p2']);

export class Segment extends PolyShape {
  override readonly kind = 'segment' as const;
  /** End points in the shape's own frame (before offset/angle): x1, y1, x2, y2. */
  private _points: Float64Array;

  constructor(opts: SegmentOptions) {
    super();
    if (opts === null || typeof opts !== 'object') fail('Segment', 'options', opts, 'must be an object {p1, p2, ...}');
    const pts = parseCorePoints('Segment', opts.p1, opts.p2);
    this.applyCommonOptions(opts);
    this._points = pts;
    this.rebuildLocal();
  }

  protected override get typeName(): string {
    return 'Segment';
  }
  protected override get optionKeys(): readonly string[] {
    return SEGMENT_OPTION_KEYS;
  }

  protected override checkRadius(v: unknown): number {
    if (v !== 0) fail('Segment', 'radius', v, 'is always 0 (use a Capsule for a thick segment)');
    return 0;
  }

  get p1(): Vec2 {
    return { x: this._points[0]!, y: this._points[1]! };
  }
  set p1(v: Vec2Like) {
    this.setPoints(v, this.p2);
  }
  get p2(): Vec2 {
    return { x: this._points[2]!, y: this._points[3]! };
  }
  set p2(v: Vec2Like) {
    this.setPoints(this.p1, v);
  }
  /** Replace both end points at once. */
  setPoints(p1: Vec2Like, p2: Vec2Like): void {
    this.beforeChange('points');
    this._points = parseCorePoints('Segment', p1, p2);
    this.geometryChanged();
  }

  protected override rebuildLocal(): void {
    this.setCore(this._points, 2);
  }
}
