/**
 * PolyShape: the shared base of Polygon, Capsule and Segment. Why: all three are "rounded
 * convex polygons" — a convex core of `count` vertices swept by `radius` — so one world cache,
 * one mass routine, one set of queries and one narrowphase path (collision/collide.ts) serve
 * them all. Capsule and Segment have 2-vertex cores whose two "faces" are the same edge with
 * opposite normals (edge 0: v0 → v1, edge 1: v1 → v0).
 *
 * Arrays hold x, y interleaved. Edge i runs from vertex i to vertex i+1 (mod count); normal i
 * is its outward unit normal (the right-hand perpendicular, since cores are CCW).
 */
import { closestPointOnSegment, closestPointResult } from '../collision/distance.js';
import { roundedPolygonMass } from './mass.js';
import { Shape, type MassData, type RayCastOutput } from './shape.js';

/**
 * Numbers in a polygon's geometry block (PolyShape._geo): [count, radius, world vertices (2·count),
 * world normals (2·count), local vertices (2·count), local normals (2·count), local centroid x, y].
 * The narrowphase reads the first four parts; updateWorld reads the local parts from the same
 * block. Why local data here rather than in arrays of their own: the update then reads and writes
 * one contiguous block, not three objects apart. It took 0.48 ms a step of the 5,050-box
 * pyramid, on the calling thread whatever the workers; from one block, about half that.
 */
export function geometryBlockLength(count: number): number {
  return 4 + 8 * count;
}

const EMPTY = new Float64Array(0);

export abstract class PolyShape extends Shape {
  /** Number of core vertices: 3..64 for a Polygon, 2 for a Capsule or Segment. Read-only. */
  count = 0;
  /** Body-local core vertices (after the shape's offset/angle), CCW. Read-only, and read afresh (a view of the geometry block, as worldVerts). */
  localVerts: Float64Array = EMPTY;
  /** Body-local outward unit normals, normal i belongs to edge i → i+1. Read-only, and read afresh (as localVerts). */
  localNormals: Float64Array = EMPTY;
  /** Body-local centroid of the core (area centroid; the midpoint for 2-vertex cores). */
  localCentroidX = 0;
  localCentroidY = 0;

  /**
   * World core vertices, refreshed by `updateWorld`. Read-only, and read it afresh: it is a view of
   * the geometry block, which moves into a space's shared pool while the space has workers.
   */
  worldVerts: Float64Array = EMPTY;
  /** World outward unit normals, refreshed by `updateWorld`. Read-only, and read afresh (as worldVerts). */
  worldNormals: Float64Array = EMPTY;
  /** World centroid of the core. */
  wcx = 0;
  wcy = 0;

  /** Rounding radius; written only through subclasses' validated setters. */
  protected _radius = 0;

  /** Rounding radius (metres): 0 for a sharp polygon or a segment. */
  get radius(): number {
    return this._radius;
  }
  set radius(v: number) {
    this.beforeChange('radius');
    this._radius = this.checkRadius(v);
    this.geometryChanged();
  }

  /** Validate a new radius for this kind of shape (throws FulcrumInputError). */
  protected abstract checkRadius(v: unknown): number;

  /**
   * Install a core given in the shape's own frame (CCW, validated by the caller): apply the
   * shape's offset and angle, compute normals and the centroid. `src` holds 2·count numbers.
   */
  protected setCore(src: ArrayLike<number>, count: number): void {
    if (this.count !== count || this.localVerts.length !== 2 * count) {
      const pool = this._geoPool;
      pool?.release(this);
      this.count = count;
      this.bindGeometry(new Float64Array(geometryBlockLength(count)), 0);
      pool?.adopt(this);
    }
    this._geo[this._geoAt + 1] = this._radius;
    const c = Math.cos(this.angle);
    const s = Math.sin(this.angle);
    const ox = this.offsetX;
    const oy = this.offsetY;
    const lv = this.localVerts;
    const ln = this.localNormals;
    for (let i = 0; i < count; i++) {
      const x = src[2 * i]!;
      const y = src[2 * i + 1]!;
      lv[2 * i] = ox + c * x - s * y;
      lv[2 * i + 1] = oy + s * x + c * y;
    }
    for (let i = 0; i < count; i++) {
      const j = i + 1 < count ? i + 1 : 0;
      const ex = lv[2 * j]! - lv[2 * i]!;
      const ey = lv[2 * j + 1]! - lv[2 * i + 1]!;
      const len = Math.sqrt(ex * ex + ey * ey);
      ln[2 * i] = ey / len + 0; // + 0 turns −0 into +0
      ln[2 * i + 1] = -ex / len + 0;
    }
    if (count >= 3) {
      const rx = lv[0]!;
      const ry = lv[1]!;
      let area = 0;
      let cx = 0;
      let cy = 0;
      for (let i = 1; i < count - 1; i++) {
        const e1x = lv[2 * i]! - rx;
        const e1y = lv[2 * i + 1]! - ry;
        const e2x = lv[2 * i + 2]! - rx;
        const e2y = lv[2 * i + 3]! - ry;
        const a = 0.5 * (e1x * e2y - e1y * e2x);
        area += a;
        cx += (a * (e1x + e2x)) / 3;
        cy += (a * (e1y + e2y)) / 3;
      }
      this.localCentroidX = rx + cx / area;
      this.localCentroidY = ry + cy / area;
    } else {
      this.localCentroidX = 0.5 * (lv[0]! + lv[2]!);
      this.localCentroidY = 0.5 * (lv[1]! + lv[3]!);
    }
    const centroid = this._geoAt + 2 + 8 * count;
    this._geo[centroid] = this.localCentroidX;
    this._geo[centroid + 1] = this.localCentroidY;
  }

  /** @internal The block's length (see geometryBlockLength). */
  override geometryLength(): number {
    return geometryBlockLength(this.count);
  }

  /** @internal worldVerts, worldNormals, localVerts and localNormals become views of block `at` of `g`. */
  override bindGeometry(g: Float64Array, at: number): void {
    const n = this.count;
    this._geo = g;
    this._geoAt = at;
    g[at] = n;
    g[at + 1] = this._radius;
    this.worldVerts = g.subarray(at + 2, at + 2 + 2 * n);
    this.worldNormals = g.subarray(at + 2 + 2 * n, at + 2 + 4 * n);
    this.localVerts = g.subarray(at + 2 + 4 * n, at + 2 + 6 * n);
    this.localNormals = g.subarray(at + 2 + 6 * n, at + 2 + 8 * n);
  }

  override computeMass(): MassData {
    return roundedPolygonMass(this.localVerts, this.localNormals, this.count, this._radius, this.density);
  }

  override updateWorld(x: number, y: number, c: number, s: number): void {
    // Offsets into the block (geometryBlockLength), not the views: one array read and written.
    const g = this._geo;
    const n = this.count;
    const wv = (this._geoAt + 2) >>> 0;
    const wn = wv + 2 * n;
    const lv = wn + 2 * n;
    const ln = lv + 2 * n;
    let minX = Infinity;
    let minY = Infinity;
    let maxX = -Infinity;
    let maxY = -Infinity;
    for (let i = 0; i < 2 * n; i += 2) {
      const lx = g[lv + i]!;
      const ly = g[lv + i + 1]!;
      const wx = x + c * lx - s * ly;
      const wy = y + s * lx + c * ly;
      g[wv + i] = wx;
      g[wv + i + 1] = wy;
      if (wx < minX) minX = wx;
      if (wx > maxX) maxX = wx;
      if (wy < minY) minY = wy;
      if (wy > maxY) maxY = wy;
      const nx = g[ln + i]!;
      const ny = g[ln + i + 1]!;
      g[wn + i] = c * nx - s * ny;
      g[wn + i + 1] = s * nx + c * ny;
    }
    const lcx = g[ln + 2 * n]!;
    const lcy = g[ln + 2 * n + 1]!;
    this.wcx = x + c * lcx - s * lcy;
    this.wcy = y + s * lcx + c * lcy;
    const r = this._radius;
    g[wv - 1] = r;
    this.aabbMinX = minX - r;
    this.aabbMinY = minY - r;
    this.aabbMaxX = maxX + r;
    this.aabbMaxY = maxY + r;
  }

  override maxExtent(localCenterX: number, localCenterY: number): number {
    const lv = this.localVerts;
    let max2 = 0;
    for (let i = 0; i < this.count; i++) {
      const dx = lv[2 * i]! - localCenterX;
      const dy = lv[2 * i + 1]! - localCenterY;
      const d2 = dx * dx + dy * dy;
      if (d2 > max2) max2 = d2;
    }
    return Math.sqrt(max2) + this._radius;
  }

  override minExtent(): number {
    if (this.count < 3) return this._radius; // a capsule's, a segment's (0)
    const lv = this.localVerts, ln = this.localNormals;
    let min = Infinity;
    for (let i = 0; i < this.count; i++) {
      const d = ln[2 * i]! * (lv[2 * i]! - this.localCentroidX) + ln[2 * i + 1]! * (lv[2 * i + 1]! - this.localCentroidY);
      if (d < min) min = d;
    }
    return min + this._radius;
  }

  /** Squared distance from a world point to the core (0 inside a ≥3-vertex core). */
  protected coreDistanceSquared(x: number, y: number): number {
    const n = this.count;
    const v = this.worldVerts;
    const nn = this.worldNormals;
    if (n >= 3) {
      let inside = true;
      for (let i = 0; i < n; i++) {
        if (nn[2 * i]! * (x - v[2 * i]!) + nn[2 * i + 1]! * (y - v[2 * i + 1]!) > 0) {
          inside = false;
          break;
        }
      }
      if (inside) return 0;
    }
    const edges = n === 2 ? 1 : n;
    let best = Infinity;
    for (let i = 0; i < edges; i++) {
      const j = i + 1 < n ? i + 1 : 0;
      closestPointOnSegment(x, y, v[2 * i]!, v[2 * i + 1]!, v[2 * j]!, v[2 * j + 1]!, closestPointResult);
      if (closestPointResult.distanceSquared < best) best = closestPointResult.distanceSquared;
    }
    return best;
  }

  override containsPoint(x: number, y: number): boolean {
    const r = this._radius;
    if (r === 0 && this.count < 3) return false; // a segment has no inside
    return this.coreDistanceSquared(x, y) <= r * r;
  }

  override rayCast(p1x: number, p1y: number, p2x: number, p2y: number, maxFraction: number, out: RayCastOutput): boolean {
    if (this._radius > 0) return this.rayCastRounded(p1x, p1y, p2x, p2y, maxFraction, out);
    if (this.count === 2) return this.rayCastSegment(p1x, p1y, p2x, p2y, maxFraction, out);
    return this.rayCastSharp(p1x, p1y, p2x, p2y, maxFraction, out);
  }

  /** Sharp convex polygon: clip the ray parameter range against every edge's half-plane. */
  private rayCastSharp(p1x: number, p1y: number, p2x: number, p2y: number, maxFraction: number, out: RayCastOutput): boolean {
    const v = this.worldVerts;
    const nn = this.worldNormals;
    const dx = p2x - p1x;
    const dy = p2y - p1y;
    let lower = 0;
    let upper = maxFraction;
    let index = -1;
    for (let i = 0; i < this.count; i++) {
      const nx = nn[2 * i]!;
      const ny = nn[2 * i + 1]!;
      // p1 + t·d is inside edge i's half-plane when numerator ≥ t·denominator.
      const numerator = nx * (v[2 * i]! - p1x) + ny * (v[2 * i + 1]! - p1y);
      const denominator = nx * dx + ny * dy;
      if (denominator === 0) {
        if (numerator < 0) return false; // parallel and outside this edge
      } else if (denominator < 0 && numerator < lower * denominator) {
        lower = numerator / denominator; // entering
        index = i;
      } else if (denominator > 0 && numerator < upper * denominator) {
        upper = numerator / denominator; // leaving
      }
      if (upper < lower) return false;
    }
    if (index < 0) return false; // starts inside (or never enters)
    out.fraction = lower;
    out.normalX = nn[2 * index]!;
    out.normalY = nn[2 * index + 1]!;
    return true;
  }

  /** Two-sided segment: the normal faces the ray's origin. Parallel rays miss. */
  private rayCastSegment(p1x: number, p1y: number, p2x: number, p2y: number, maxFraction: number, out: RayCastOutput): boolean {
    const v = this.worldVerts;
    let nx = this.worldNormals[0]!;
    let ny = this.worldNormals[1]!;
    const ax = v[0]!;
    const ay = v[1]!;
    const dx = p2x - p1x;
    const dy = p2y - p1y;
    const numerator = nx * (ax - p1x) + ny * (ay - p1y);
    const denominator = nx * dx + ny * dy;
    if (denominator === 0) return false;
    const t = numerator / denominator;
    if (!(t >= 0 && t <= maxFraction)) return false;
    const hx = p1x + t * dx - ax;
    const hy = p1y + t * dy - ay;
    const ex = v[2]! - ax;
    const ey = v[3]! - ay;
    const u = hx * ex + hy * ey;
    if (u < 0 || u > ex * ex + ey * ey) return false;
    if (denominator > 0) {
      nx = 0 - nx; // 0 − x rather than −x: no −0 components
      ny = 0 - ny;
    }
    out.fraction = t;
    out.normalX = nx;
    out.normalY = ny;
    return true;
  }

  /**
   * Rounded core: the boundary is the edges pushed out by `radius` plus arcs of the vertex
   * circles. Each vertex disc lies inside the shape, so the first boundary crossing is the
   * earliest of: an entering crossing of an offset edge, or an entry into a vertex disc.
   */
  private rayCastRounded(p1x: number, p1y: number, p2x: number, p2y: number, maxFraction: number, out: RayCastOutput): boolean {
    const r = this._radius;
    if (this.coreDistanceSquared(p1x, p1y) <= r * r) return false; // starts inside
    const n = this.count;
    const v = this.worldVerts;
    const nn = this.worldNormals;
    const dx = p2x - p1x;
    const dy = p2y - p1y;
    const dd = dx * dx + dy * dy;
    if (dd === 0) return false;
    let best = Infinity;
    let bnx = 0;
    let bny = 0;
    for (let i = 0; i < n; i++) {
      const ax = v[2 * i]!;
      const ay = v[2 * i + 1]!;
      // Vertex disc.
      const sx = p1x - ax;
      const sy = p1y - ay;
      const b = sx * dx + sy * dy;
      const c = sx * sx + sy * sy - r * r;
      const disc = b * b - dd * c;
      if (disc >= 0) {
        const t = (-b - Math.sqrt(disc)) / dd;
        if (t >= 0 && t < best) {
          best = t;
          bnx = (sx + t * dx) / r;
          bny = (sy + t * dy) / r;
        }
      }
      // Offset edge i (entering side only).
      const nx = nn[2 * i]!;
      const ny = nn[2 * i + 1]!;
      const denominator = nx * dx + ny * dy;
      if (denominator < 0) {
        const t = (nx * (ax + r * nx - p1x) + ny * (ay + r * ny - p1y)) / denominator;
        if (t >= 0 && t < best) {
          const j = i + 1 < n ? i + 1 : 0;
          const ex = v[2 * j]! - ax;
          const ey = v[2 * j + 1]! - ay;
          const u = (p1x + t * dx - ax) * ex + (p1y + t * dy - ay) * ey;
          if (u >= 0 && u <= ex * ex + ey * ey) {
            best = t;
            bnx = nx;
            bny = ny;
          }
        }
      }
    }
    if (!(best <= maxFraction)) return false;
    out.fraction = best;
    out.normalX = bnx;
    out.normalY = bny;
    return true;
  }
}
