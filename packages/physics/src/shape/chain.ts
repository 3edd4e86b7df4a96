/**
 * Chain: terrain as a polyline of one-sided, smooth segments (Box2D v3's chain shape). Why it
 * exists: a body sliding or rolling along terrain built from separate Segments catches on the
 * vertices between them ("ghost collisions": at a shared vertex the next segment's end looks like
 * a corner sticking up), because each segment collides as if it were alone. A chain segment knows
 * its neighbours — the previous and next chain points, its *ghost vertices* — and the narrowphase
 * (collision/collide.ts, collideChainSegment) uses them to give only contact normals that the
 * neighbouring segment would agree with, so bodies cross internal vertices smoothly.
 *
 * `new Chain({ vertices, loop, ...shapeOptions }).segments` are ChainSegments, one per pair of
 * consecutive points (and the closing pair for a loop), for a body to take:
 *
 *     const ground = new Body({ type: 'static', shapes: new Chain({ vertices }).segments });
 *     // or: for (const s of chain.segments) body.addShape(s);
 *
 * **Which side is solid.** A chain collides only on the RIGHT side of each segment p1 → p2 (the
 * side its normal, the right-hand perpendicular of p2 − p1, points to); the left side is the
 * solid's inside. A shape whose centre is behind (left of) a segment passes through it. So:
 *  - a counter-clockwise (CCW) loop is solid inside: bodies collide with it from outside;
 *    a clockwise loop is a hollow container: bodies stay inside it;
 *  - for ground that bodies stand on (y up), list the points from RIGHT to LEFT (x decreasing).
 *    Listed left to right, the same points make a ceiling, collided from below.
 *
 * The ends of an open chain behave as if the chain went on straight (their ghost vertices are the
 * end segments extended): nothing rounds the end corners, and a body whose centre has passed an
 * end is no longer held by it. Put the ends where bodies cannot reach them, or use a loop.
 *
 * Every ChainSegment is a Segment (kind 'segment'): it adds no mass (a chain on a dynamic body
 * needs other shapes to give the body its mass). Ray casts are one-sided like its collisions (a
 * ray from behind passes); AABBs, point queries and debug drawing treat it as a plain segment.
 * Continuous collision (space/continuous.ts) knows it is
 * one-sided: a fast body passes a chain segment from behind, and sliding along a chain is not
 * stopped at each segment's end. Two chain segments never collide
 * with each other. Shape options (friction, restitution, filter, offset, angle, sensor, userData,
 * ...) apply to every segment alike; changing one segment's offset or angle afterwards leaves its
 * neighbours' ghost vertices where they were, so move the body rather than its segments.
 * Non-consecutive points may coincide and the polyline may cross itself (nothing checks that),
 * but where it does, which side is solid is up to you.
 */
import { checkBoolean, checkOptionKeys, checkVec2, fail, optionKeys } from '../util/validate.js';
import type { Vec2, Vec2Like } from '../math/vec2.js';
import { parseCorePoints } from './capsule.js';
import { Segment, type SegmentOptions } from './segment.js';
import { SHAPE_OPTION_KEYS, type RayCastOutput, type ShapeOptions } from './shape.js';
import { WELD_DISTANCE } from './vertices.js';

export interface ChainOptions extends ShapeOptions {
  /**
   * The chain's points, {x, y} or [x, y], in the body's frame (before `offset`/`angle`): at least 2
   * for an open chain, 3 for a loop. Consecutive points (and, for a loop, the last and the first)
   * must be at least WELD_DISTANCE (0.0025 m) apart. See Chain for which side is solid.
   */
  vertices: readonly Vec2Like[];
  /** true: a closed loop (a segment from the last point back to the first). Default false. */
  loop?: boolean;
}

export interface ChainSegmentOptions extends SegmentOptions {
  /** The previous chain point (before p1). Omitted: the segment extended straight back. */
  ghost1?: Vec2Like;
  /** The next chain point (after p2). Omitted: the segment extended straight on. */
  ghost2?: Vec2Like;
}

/** Every key of ChainSegmentOptions and of ChainOptions (a misspelt one is an error). */
const CHAIN_SEGMENT_OPTION_KEYS = optionKeys<ChainSegmentOptions>()([...SHAPE_OPTION_KEYS, 'p1', 'p2', 'ghost1', 'ghost2']);
const CHAIN_OPTION_KEYS = optionKeys<ChainOptions>()([...SHAPE_OPTION_KEYS, 'vertices', 'loop']);

/** True while a Chain builds its segments: their option errors then name the Chain. */
let buildingChain = false;

/**
 * One segment of a Chain: a one-sided Segment p1 → p2 that collides only on its right side, with
 * the previous and next chain points (ghost vertices) that make its vertices smooth. Usually made
 * by `new Chain(...)`; `new ChainSegment({ p1, p2, ghost1, ghost2 })` makes one on its own.
 *
 * At a convex vertex (the chain turning left, as a CCW loop does), the contact normals fan out
 * from one segment's face normal to the next's; each of the two segments takes the half of that
 * fan nearer its own normal. A segment made on its own therefore holds a body only over its own
 * half of each corner; give it its neighbours.
 *
 * Its end points cannot be changed (p1, p2 and setPoints throw): build a new Chain.
 */
export class ChainSegment extends Segment {
  /** @internal Ghost points in the shape's frame: g1x, g1y, g2x, g2y (a straight end's reflected point). */
  _ghosts!: Float64Array;
  /** @internal An end with no ghost vertex: the chain extends straight, its corner is flat. */
  _straight1 = false;
  /** @internal */ _straight2 = false;
  /** @internal Body-local unit normals of the previous edge (ghost1 → p1) and the next (p2 → ghost2). */
  _ln0x = 0;
  /** @internal */ _ln0y = 0;
  /** @internal */ _ln2x = 0;
  /** @internal */ _ln2y = 0;
  /**
   * @internal Sine of the chain's turn at p1 (cross(n0, n1)) and at p2 (cross(n1, n2)): > 0 at a
   * convex corner (turning left), < 0 at a concave one, 0 where the chain runs straight on.
   */
  _turn1 = 0;
  /** @internal */ _turn2 = 0;
  /** @internal World unit normals of the previous and next edges, refreshed by updateWorld. */
  _n0x = 0;
  /** @internal */ _n0y = 0;
  /** @internal */ _n2x = 0;
  /** @internal */ _n2y = 0;
  /** @internal */ _chain: Chain | null = null;
  /** @internal */ _index = -1;

  constructor(opts: ChainSegmentOptions) {
    // Everything is validated before the Segment is built, so nothing is half-applied.
    if (opts === null || typeof opts !== 'object') fail('ChainSegment', 'options', opts, 'must be an object {p1, p2, ghost1?, ghost2?, ...}');
    const owner = buildingChain ? 'Chain' : 'ChainSegment';
    const pts = parseCorePoints(owner, opts.p1, opts.p2);
    const ghosts = new Float64Array(4);
    const straight1 = opts.ghost1 === undefined;
    const straight2 = opts.ghost2 === undefined;
    ghostPoint(owner, 'ghost1', opts.ghost1, pts[0]!, pts[1]!, pts[2]!, pts[3]!, ghosts, 0);
    ghostPoint(owner, 'ghost2', opts.ghost2, pts[2]!, pts[3]!, pts[0]!, pts[1]!, ghosts, 2);
    super(opts);
    this._ghosts = ghosts;
    this._straight1 = straight1;
    this._straight2 = straight2;
    this.rebuildGhosts();
  }

  protected override get typeName(): string {
    return buildingChain ? 'Chain' : 'ChainSegment';
  }
  protected override get optionKeys(): readonly string[] {
    return CHAIN_SEGMENT_OPTION_KEYS;
  }

  /** The Chain this segment belongs to (null for a segment made on its own). */
  get chain(): Chain | null {
    return this._chain;
  }
  /** Its place in `chain.segments` (it runs from chain point `index` to the next), or −1. */
  get index(): number {
    return this._index;
  }

  /** The previous chain point, shape frame (an open chain's first segment: p1 + (p1 − p2)). */
  get ghost1(): Vec2 {
    return { x: this._ghosts[0]!, y: this._ghosts[1]! };
  }
  /** The next chain point, shape frame (an open chain's last segment: p2 + (p2 − p1)). */
  get ghost2(): Vec2 {
    return { x: this._ghosts[2]!, y: this._ghosts[3]! };
  }

  /** Always throws: a chain segment's points are its chain's (its neighbours' ghosts would go stale). */
  override setPoints(p1: Vec2Like, p2: Vec2Like): void {
    fail('ChainSegment', 'points', [p1, p2], 'cannot be changed (they are shared with the neighbouring segments): build a new Chain');
  }

  protected override rebuildLocal(): void {
    super.rebuildLocal();
    // Also runs inside Segment's constructor, before the ghosts are set: the constructor then
    // calls rebuildGhosts itself.
    if (this._ghosts !== undefined) this.rebuildGhosts();
  }

  /**
   * Body-local neighbour normals and turns. The arithmetic is exactly PolyShape.setCore's, on the
   * same numbers, so a segment's ghost normal is bit for bit its neighbour's own normal: the two
   * sides of a shared vertex then agree exactly on who owns which contact normal there.
   */
  private rebuildGhosts(): void {
    const ln = this.localNormals;
    const n1x = ln[0]!;
    const n1y = ln[1]!;
    const lv = this.localVerts;
    const c = Math.cos(this.angle);
    const s = Math.sin(this.angle);
    const ox = this.offsetX;
    const oy = this.offsetY;
    const g = this._ghosts;
    if (this._straight1) {
      this._ln0x = n1x;
      this._ln0y = n1y;
      this._turn1 = 0;
    } else {
      const gx = ox + c * g[0]! - s * g[1]!;
      const gy = oy + s * g[0]! + c * g[1]!;
      const ex = lv[0]! - gx;
      const ey = lv[1]! - gy;
      const len = Math.sqrt(ex * ex + ey * ey);
      this._ln0x = ey / len + 0;
      this._ln0y = -ex / len + 0;
      this._turn1 = this._ln0x * n1y - this._ln0y * n1x;
    }
    if (this._straight2) {
      this._ln2x = n1x;
      this._ln2y = n1y;
      this._turn2 = 0;
    } else {
      const gx = ox + c * g[2]! - s * g[3]!;
      const gy = oy + s * g[2]! + c * g[3]!;
      const ex = gx - lv[2]!;
      const ey = gy - lv[3]!;
      const len = Math.sqrt(ex * ex + ey * ey);
      this._ln2x = ey / len + 0;
      this._ln2y = -ex / len + 0;
      this._turn2 = n1x * this._ln2y - n1y * this._ln2x;
    }
  }

  override updateWorld(x: number, y: number, c: number, s: number): void {
    super.updateWorld(x, y, c, s);
    // As PolyShape.updateWorld rotates its normals.
    this._n0x = c * this._ln0x - s * this._ln0y;
    this._n0y = s * this._ln0x + c * this._ln0y;
    this._n2x = c * this._ln2x - s * this._ln2y;
    this._n2y = s * this._ln2x + c * this._ln2y;
  }

  /**
   * One-sided, as its collisions are (Box2D v3's chain segments): a ray that comes from behind,
   * or runs along the segment, passes through it. Why: a ray cast from inside the terrain (a
   * ground check from a body sunk into it, a line of sight out of a cave) would otherwise stop
   * at the back of the first segment.
   */
  override rayCast(p1x: number, p1y: number, p2x: number, p2y: number, maxFraction: number, out: RayCastOutput): boolean {
    const n = this.worldNormals;
    if ((p2x - p1x) * n[0]! + (p2y - p1y) * n[1]! >= 0) return false;
    return super.rayCast(p1x, p1y, p2x, p2y, maxFraction, out);
  }
}

/** Validate a ghost point (or reflect the segment for a straight end) into out[at], out[at + 1]. */
function ghostPoint(owner: string, prop: string, value: unknown, px: number, py: number, qx: number, qy: number, out: Float64Array, at: number): void {
  if (value === undefined) {
    out[at] = px + (px - qx);
    out[at + 1] = py + (py - qy);
    return;
  }
  const g = checkVec2(owner, prop, value);
  if (Math.hypot(g.x - px, g.y - py) < WELD_DISTANCE) {
    fail(owner, prop, value, `must be at least ${WELD_DISTANCE} m from ${prop === 'ghost1' ? 'p1' : 'p2'}`);
  }
  out[at] = g.x;
  out[at + 1] = g.y;
}

/**
 * A chain of one-sided smooth segments for terrain (Box2D v3's chain shape); see the file's
 * opening comment for the solid side and the ends. Not a Shape itself: it makes the ChainSegments
 * a body takes (`shapes: chain.segments`), all with the same shape options.
 *
 * @throws FulcrumInputError (owner 'Chain') naming the property and, for a point, its index:
 * `vertices` (not an array, too few points), `vertices[i]` (not a finite vector, or closer than
 * WELD_DISTANCE to the point before it; for a loop, `vertices[n−1]` against `vertices[0]`),
 * `loop`, or any shape option. Nothing is built if anything is wrong.
 */
export class Chain {
  /** The segments, in order: segment i runs from vertices[i] to vertices[i + 1] (the last of a loop back to vertices[0]). */
  readonly segments: readonly ChainSegment[];
  /** Whether the chain is a closed loop. */
  readonly loop: boolean;
  /** The validated points, shape frame: x, y interleaved. */
  private readonly _points: Float64Array;

  constructor(opts: ChainOptions) {
    if (opts === null || typeof opts !== 'object') fail('Chain', 'options', opts, 'must be an object {vertices, loop?, ...}');
    checkOptionKeys('Chain', opts, CHAIN_OPTION_KEYS);
    const { vertices, loop: loopOption, ...shapeOptions } = opts;
    const loop = loopOption !== undefined ? checkBoolean('Chain', 'loop', loopOption) : false;
    const pts = parseChainVertices(vertices, loop);
    const n = pts.length / 2;
    const count = loop ? n : n - 1;
    const point = (i: number): [number, number] => [pts[2 * i]!, pts[2 * i + 1]!];
    const segments: ChainSegment[] = [];
    buildingChain = true;
    try {
      for (let i = 0; i < count; i++) {
        const j = i + 1 < n ? i + 1 : 0;
        const h = i > 0 ? i - 1 : loop ? n - 1 : -1;
        const k = j + 1 < n ? j + 1 : loop ? 0 : -1;
        // An open chain's two ends have no neighbour: they go straight on (ghost undefined).
        segments.push(new ChainSegment({ ...shapeOptions, p1: point(i), p2: point(j), ghost1: h >= 0 ? point(h) : undefined, ghost2: k >= 0 ? point(k) : undefined }));
      }
    } finally {
      buildingChain = false;
    }
    for (let i = 0; i < segments.length; i++) {
      segments[i]!._chain = this;
      segments[i]!._index = i;
    }
    this.segments = segments;
    this.loop = loop;
    this._points = pts;
  }

  /** The chain's points, shape frame (a fresh copy). */
  get vertices(): Vec2[] {
    const out: Vec2[] = [];
    const p = this._points;
    for (let i = 0; i < p.length; i += 2) out.push({ x: p[i]!, y: p[i + 1]! });
    return out;
  }
}

/** Validate a chain's points: x, y interleaved. */
function parseChainVertices(value: unknown, loop: boolean): Float64Array {
  const min = loop ? 3 : 2;
  if (!Array.isArray(value)) fail('Chain', 'vertices', value, `must be an array of at least ${min} points {x, y} or [x, y]`);
  const n = value.length;
  if (n < min) {
    fail('Chain', 'vertices', value, `must have at least ${min} points${loop ? ' for a loop' : ' (3 for a loop)'} (has ${n})`);
  }
  const out = new Float64Array(2 * n);
  for (let i = 0; i < n; i++) {
    const p = checkVec2('Chain', `vertices[${i}]`, value[i]);
    out[2 * i] = p.x;
    out[2 * i + 1] = p.y;
  }
  for (let i = 1; i < n; i++) {
    if (Math.hypot(out[2 * i]! - out[2 * i - 2]!, out[2 * i + 1]! - out[2 * i - 1]!) < WELD_DISTANCE) {
      fail('Chain', `vertices[${i}]`, value[i], `must be at least ${WELD_DISTANCE} m from vertices[${i - 1}] (consecutive points may not coincide)`);
    }
  }
  if (loop && Math.hypot(out[0]! - out[2 * n - 2]!, out[1]! - out[2 * n - 1]!) < WELD_DISTANCE) {
    fail('Chain', `vertices[${n - 1}]`, value[n - 1], `must be at least ${WELD_DISTANCE} m from vertices[0] (the loop closes back to it; do not repeat the first point)`);
  }
  return out;
}
