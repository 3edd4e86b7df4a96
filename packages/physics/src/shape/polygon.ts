/**
 * Polygon: a convex polygon of 3..64 vertices, optionally rounded by `radius`. Why the input
 * is so strictly validated: the narrowphase relies on a CCW, strictly convex core with unit
 * edge normals; accepting anything else would surface as jitter far from the bad input.
 */
import { checkInteger, checkNonNegative, checkPositive, fail, optionKeys } from '../util/validate.js';
import type { Vec2, Vec2Like } from '../math/vec2.js';
import { PolyShape } from './poly-shape.js';
import { type ShapeOptions, SHAPE_OPTION_KEYS } from './shape.js';
import { decomposeOutline } from './decompose.js';
import { parseConvexVertices } from './vertices.js';

/** Options shared by the Polygon constructor and its factories. */
export interface PolygonShapeOptions extends ShapeOptions {
  /** Rounding radius (metres, ≥ 0). Default 0. */
  radius?: number;
}

export interface PolygonOptions extends PolygonShapeOptions {
  /** Convex outline, any winding, 3..64 points given as {x, y} or [x, y]. */
  vertices: readonly Vec2Like[];
}

/** Every key of PolygonOptions (a misspelt one is an error). */
const POLYGON_OPTION_KEYS = optionKeys<PolygonOptions>()([...SHAPE_OPTION_KEYS, 'radius', 'vertices']);

export class Polygon extends PolyShape {
  override readonly kind = 'polygon' as const;
  /** The validated outline in the shape's own frame (before offset/angle), CCW. */
  private _shapeVerts: Float64Array;

  constructor(opts: PolygonOptions) {
    super();
    if (opts === null || typeof opts !== 'object') fail('Polygon', 'options', opts, 'must be an object {vertices, ...}');
    const verts = parseConvexVertices('Polygon', 'vertices', opts.vertices);
    const radius = opts.radius !== undefined ? checkNonNegative('Polygon', 'radius', opts.radius) : 0;
    this.applyCommonOptions(opts);
    this._shapeVerts = verts;
    this._radius = radius;
    this.rebuildLocal();
  }

  /**
   * An axis-aligned box of full `width` × `height`, centred on the shape's origin (use
   * `offset`/`angle` in `opts` to place it on the body). Vertex 0 is the bottom-left corner.
   */
  static box(width: number, height: number, opts: PolygonShapeOptions = {}): Polygon {
    const hw = 0.5 * checkPositive('Polygon.box', 'width', width);
    const hh = 0.5 * checkPositive('Polygon.box', 'height', height);
    return new Polygon({ ...opts, vertices: [[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]] });
  }

  /**
   * A regular polygon of `sides` (3..64) with circumradius `radius`, centred on the shape's
   * origin, oriented so that its bottom edge is horizontal (a square comes out axis-aligned).
   * The rounding radius, if any, goes in `opts.radius`.
   */
  static regular(radius: number, sides: number, opts: PolygonShapeOptions = {}): Polygon {
    const r = checkPositive('Polygon.regular', 'radius', radius);
    const n = checkInteger('Polygon.regular', 'sides', sides, 3, 64);
    const verts: [number, number][] = [];
    for (let k = 0; k < n; k++) {
      const a = -0.5 * Math.PI + Math.PI / n + (2 * Math.PI * k) / n;
      verts.push([r * Math.cos(a), r * Math.sin(a)]);
    }
    return new Polygon({ ...opts, vertices: verts });
  }

  /**
   * Split a simple, possibly concave outline into convex Polygons whose union is the outline,
   * for a body to take as its shapes (Nape's `GeomPoly.convexDecomposition`).
   *
   * `vertices`: at least 3 points {x, y} or [x, y], either winding, not self-intersecting, no two
   * points closer than 0.5 × LINEAR_SLOP; collinear points are allowed (they are dropped). Every
   * piece is built with `new Polygon({ ...opts, vertices: piece })`, so density, friction, filter,
   * offset, angle etc. apply to each piece alike (a `radius` rounds each piece, so neighbouring
   * pieces then overlap by it).
   *
   * Ear-clipping triangulation then Hertel–Mehlhorn merging: at most 2r + 1 pieces for r reflex
   * vertices (at most 4× the fewest possible; more only where the 64-vertex cap splits a large
   * convex region), each strictly convex, CCW, of 3 to 64 vertices taken from the outline (no new
   * points). A convex outline of up to 64 vertices comes back as one piece, vertex 0 first.
   * Deterministic: the same outline always gives the same pieces in the same order. O(n²) for n
   * vertices (a few ms for hundreds of vertices, seconds for tens of thousands).
   *
   * @throws FulcrumInputError (owner `'Polygon.decompose'`, prop `'vertices'` or `'vertices[i]'`)
   * naming the offending index, edges or value, for any input that is not such an outline.
   */
  static decompose(vertices: readonly Vec2Like[], opts: PolygonShapeOptions = {}): Polygon[] {
    if (opts === null || typeof opts !== 'object') fail('Polygon.decompose', 'options', opts, 'must be an object');
    const pieces = decomposeOutline('Polygon.decompose', 'vertices', vertices);
    return pieces.map((piece) => new Polygon({ ...opts, vertices: piece }));
  }

  protected override get typeName(): string {
    return 'Polygon';
  }
  protected override get optionKeys(): readonly string[] {
    return POLYGON_OPTION_KEYS;
  }

  protected override checkRadius(v: unknown): number {
    return checkNonNegative('Polygon', 'radius', v);
  }

  /** The outline in the shape's own frame (before offset/angle), CCW. A fresh copy. */
  get vertices(): Vec2[] {
    const out: Vec2[] = [];
    const v = this._shapeVerts;
    for (let i = 0; i < v.length; i += 2) out.push({ x: v[i]!, y: v[i + 1]! });
    return out;
  }
  set vertices(value: readonly Vec2Like[]) {
    this.beforeChange('vertices');
    this._shapeVerts = parseConvexVertices('Polygon', 'vertices', value);
    this.geometryChanged();
  }

  protected override rebuildLocal(): void {
    this.setCore(this._shapeVerts, this._shapeVerts.length / 2);
  }
}
