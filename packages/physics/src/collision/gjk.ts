/**
 * Distance between two convex rounded shapes by GJK, the core of continuous collision (see
 * time-of-impact.ts) and shape casts.
 *
 * Why GJK (and not the SAT of collide.ts): it needs nothing but a support function, so one
 * routine serves every pair — circle, capsule, segment, polygon, or any point set — and it
 * returns the exact closest points of two disjoint cores, which a time-of-impact search needs
 * (SAT gives a separation along face normals only, which is no distance at a corner).
 *
 * Every shape is a "distance proxy": a core of 1..64 points (a circle is one point) swept by
 * `radius`. GJK runs on the cores only — the convex hulls of the points — and the radii are
 * applied afterwards: rounded distance = core distance − radiusA − radiusB, surface points =
 * core points moved by the radii along the normal. Why cores only: rounded shapes have no
 * finite vertex set, and leaving the radii out keeps GJK exact (finite termination on
 * polytopes) and lets a time-of-impact search aim at a core distance of about the radii.
 *
 * The algorithm works on the Minkowski difference B − A (every point b − a): the distance
 * between the cores is the distance from the origin to that convex set. A simplex of up to
 * three of its points (each remembered with the vertex indices of A and B that made it) is
 * reduced to the sub-simplex nearest the origin; its nearest point v is the current guess,
 * and the support point of B − A in direction −v is added next. It stops when that support
 * point repeats a simplex vertex or brings (relatively) no progress — v is then optimal — or
 * when the origin is inside the triangle (the cores overlap).
 *
 * Conventions: vertices are x, y interleaved in the body frame; a transform {x, y, c, s} is
 * the body origin and the cos/sin of its angle. The computation runs relative to A's origin
 * (so its precision does not depend on how far from the world origin the pair is) and the
 * results are world points. Nothing is allocated per call: results go into a caller-owned
 * DistanceOutput, working data lives in module-level scratch. No randomness and no object
 * iteration order: ties in the support search go to the lowest vertex index.
 */
import type { Circle } from '../shape/circle.js';
import type { PolyShape } from '../shape/poly-shape.js';
import type { Shape } from '../shape/shape.js';
import { MAX_POLYGON_VERTICES } from '../shape/vertices.js';
import { checkFinite, checkInteger, checkNonNegative, fail } from '../util/validate.js';

/** Most core points a proxy holds (a Polygon's limit). */
export const MAX_PROXY_VERTICES = MAX_POLYGON_VERTICES;

/**
 * A shape for distance queries: the convex hull of `count` body-frame points (x, y
 * interleaved in `verts`) swept by `radius`. Caller-owned and reusable: fill it with
 * `setProxyFromShape` or `setProxyFromPoints`, which never allocate.
 */
export class DistanceProxy {
  readonly verts = new Float64Array(2 * MAX_PROXY_VERTICES);
  count = 0;
  radius = 0;
}

/** A rigid transform: body origin (x, y) and the cos c / sin s of the body angle. */
export interface Transform {
  x: number;
  y: number;
  c: number;
  s: number;
}

/** Result of `shapeDistance`; all points are world points. */
export class DistanceOutput {
  /** Distance between the cores, ≥ 0 (0 when they overlap or touch). */
  coreDistance = 0;
  /** Closest points of the cores (equal, or nearly, when the cores overlap). */
  coreAX = 0;
  coreAY = 0;
  coreBX = 0;
  coreBY = 0;
  /** Signed distance between the rounded shapes: coreDistance − radiusA − radiusB (< 0: overlap). */
  distance = 0;
  /** Surface points: the core points moved by the radii along the normal (A's out, B's in). */
  pointAX = 0;
  pointAY = 0;
  pointBX = 0;
  pointBY = 0;
  /**
   * Unit normal from A to B (from coreA towards coreB). (0, 0) when the cores overlap or
   * touch: GJK gives no direction there, and a made-up one would look trustworthy.
   */
  normalX = 0;
  normalY = 0;
  /** Support-point searches used (diagnostics). */
  iterations = 0;
}

/** Fill `proxy` from a shape's body-local geometry (its offset and angle already applied). */
export function setProxyFromShape(proxy: DistanceProxy, shape: Shape): void {
  const v = proxy.verts;
  if (shape.kind === 'circle') {
    const circle = shape as Circle;
    v[0] = circle.localX;
    v[1] = circle.localY;
    proxy.count = 1;
    proxy.radius = circle.radius;
    return;
  }
  const poly = shape as PolyShape;
  const lv = poly.localVerts;
  const n = poly.count;
  // A loop, not verts.set(lv.subarray(...)): subarray allocates a view.
  for (let i = 0; i < 2 * n; i++) v[i] = lv[i]!;
  proxy.count = n;
  proxy.radius = poly.radius;
}

/**
 * Fill `proxy` from `count` points (x, y interleaved, body frame) and a radius. The points
 * need no order and no convexity: GJK sees their convex hull. Throws FulcrumInputError on a
 * count outside 1..64, too few numbers, a non-finite coordinate or a negative radius.
 */
export function setProxyFromPoints(proxy: DistanceProxy, points: ArrayLike<number>, count: number, radius: number): void {
  checkInteger('DistanceProxy', 'count', count, 1, MAX_PROXY_VERTICES);
  checkNonNegative('DistanceProxy', 'radius', radius);
  if (points.length < 2 * count) fail('DistanceProxy', 'points.length', points.length, `must be at least 2·count = ${2 * count}`);
  for (let i = 0; i < 2 * count; i++) checkFinite('DistanceProxy', `points[${i}]`, points[i]);
  const v = proxy.verts;
  for (let i = 0; i < 2 * count; i++) v[i] = points[i]!;
  proxy.count = count;
  proxy.radius = radius;
}

/** Support searches per query. In 2D GJK ends in a handful; the cap only guards against cycling. */
const MAX_ITERATIONS = 2 * MAX_PROXY_VERTICES;
/**
 * Cores nearer than this (metres) count as touching: the direction to the origin is then
 * numerically meaningless, so no normal is reported.
 */
const TOUCH_DISTANCE = 1e-12;
/** Stop when the next support point improves on |v|² by less than this fraction of it. */
const RELATIVE_PROGRESS = 1e-14;

// Proxy cores in the query frame: rotated to world, relative to A's origin.
const coreA = new Float64Array(2 * MAX_PROXY_VERTICES);
const coreB = new Float64Array(2 * MAX_PROXY_VERTICES);

// The simplex: up to 3 vertices, each a point a of A, b of B, w = b − a, its barycentric
// weight, and the proxy indices that made it (for duplicate detection).
const simA = new Float64Array(6);
const simB = new Float64Array(6);
const simW = new Float64Array(6);
const simWeight = new Float64Array(3);
const simIndexA = new Int32Array(3);
const simIndexB = new Int32Array(3);
let simCount = 0;

/**
 * Distance between two proxies placed by xfA and xfB (result in `out`, see DistanceOutput).
 * Allocates nothing; deterministic.
 */
export function shapeDistance(proxyA: DistanceProxy, xfA: Transform, proxyB: DistanceProxy, xfB: Transform, out: DistanceOutput): void {
  const nA = proxyA.count;
  const nB = proxyB.count;
  if (nA < 1 || nB < 1) fail('shapeDistance', 'proxy.count', nA < 1 ? nA : nB, 'must be at least 1 (fill the proxy first)');
  const ox = xfA.x;
  const oy = xfA.y;
  placeCore(proxyA.verts, nA, xfA.c, xfA.s, 0, 0, coreA);
  placeCore(proxyB.verts, nB, xfB.c, xfB.s, xfB.x - ox, xfB.y - oy, coreB);

  setSimplexVertex(0, 0, 0);
  simWeight[0] = 1;
  simCount = 1;
  let iterations = 0;
  let overlap = false;
  let vx = 0;
  let vy = 0;
  for (;;) {
    if (simCount === 2) solveSegment();
    else if (simCount === 3) solveTriangle();
    if (simCount === 3) {
      overlap = true; // the origin is inside the triangle
      break;
    }
    vx = 0;
    vy = 0;
    for (let k = 0; k < simCount; k++) {
      vx += simWeight[k]! * simW[2 * k]!;
      vy += simWeight[k]! * simW[2 * k + 1]!;
    }
    const vv = vx * vx + vy * vy;
    if (vv <= TOUCH_DISTANCE * TOUCH_DISTANCE) {
      overlap = true;
      break;
    }
    if (iterations === MAX_ITERATIONS) break;
    // Support of B − A in direction −v: B's farthest point along −v, A's farthest along v.
    const ia = support(coreA, nA, vx, vy);
    const ib = support(coreB, nB, -vx, -vy);
    iterations++;
    if (inSimplex(ia, ib)) break;
    const wx = coreB[2 * ib]! - coreA[2 * ia]!;
    const wy = coreB[2 * ib + 1]! - coreA[2 * ia + 1]!;
    // v·w ≥ v·v means no point of B − A lies beyond v's line: v is already the nearest point.
    if (vv - (vx * wx + vy * wy) <= RELATIVE_PROGRESS * vv) break;
    setSimplexVertex(simCount, ia, ib);
    simCount++;
  }
  writeOutput(out, proxyA.radius, proxyB.radius, ox, oy, overlap, vx, vy, iterations);
}

/** Rotate body-frame points by (c, s) and translate by (tx, ty) into `dst`. */
function placeCore(src: Float64Array, n: number, c: number, s: number, tx: number, ty: number, dst: Float64Array): void {
  for (let i = 0; i < n; i++) {
    const x = src[2 * i]!;
    const y = src[2 * i + 1]!;
    dst[2 * i] = tx + c * x - s * y;
    dst[2 * i + 1] = ty + s * x + c * y;
  }
}

/** Index of the point farthest along (dx, dy); the lowest index wins ties. */
function support(core: Float64Array, n: number, dx: number, dy: number): number {
  let best = 0;
  let bestDot = core[0]! * dx + core[1]! * dy;
  for (let i = 1; i < n; i++) {
    const d = core[2 * i]! * dx + core[2 * i + 1]! * dy;
    if (d > bestDot) {
      best = i;
      bestDot = d;
    }
  }
  return best;
}

function inSimplex(ia: number, ib: number): boolean {
  for (let k = 0; k < simCount; k++) {
    if (simIndexA[k] === ia && simIndexB[k] === ib) return true;
  }
  return false;
}

function setSimplexVertex(k: number, ia: number, ib: number): void {
  const ax = coreA[2 * ia]!;
  const ay = coreA[2 * ia + 1]!;
  const bx = coreB[2 * ib]!;
  const by = coreB[2 * ib + 1]!;
  simA[2 * k] = ax;
  simA[2 * k + 1] = ay;
  simB[2 * k] = bx;
  simB[2 * k + 1] = by;
  simW[2 * k] = bx - ax;
  simW[2 * k + 1] = by - ay;
  simIndexA[k] = ia;
  simIndexB[k] = ib;
}

function copySimplexVertex(from: number, to: number): void {
  if (from === to) return;
  simA[2 * to] = simA[2 * from]!;
  simA[2 * to + 1] = simA[2 * from + 1]!;
  simB[2 * to] = simB[2 * from]!;
  simB[2 * to + 1] = simB[2 * from + 1]!;
  simW[2 * to] = simW[2 * from]!;
  simW[2 * to + 1] = simW[2 * from + 1]!;
  simIndexA[to] = simIndexA[from]!;
  simIndexB[to] = simIndexB[from]!;
}

/**
 * Parameter u ∈ [0, 1] of the point of simplex edge i → j nearest the origin
 * (w_i + u·(w_j − w_i)). A zero-length edge (coincident points) gives 0.
 */
function edgeParameter(i: number, j: number): number {
  const px = simW[2 * i]!;
  const py = simW[2 * i + 1]!;
  const ex = simW[2 * j]! - px;
  const ey = simW[2 * j + 1]! - py;
  const ee = ex * ex + ey * ey;
  if (!(ee > 0)) return 0;
  const u = -(px * ex + py * ey) / ee;
  return u <= 0 ? 0 : u >= 1 ? 1 : u;
}

/** Squared distance from the origin to w_i + u·(w_j − w_i). */
function edgeDistanceSquared(i: number, j: number, u: number): number {
  const x = simW[2 * i]! + u * (simW[2 * j]! - simW[2 * i]!);
  const y = simW[2 * i + 1]! + u * (simW[2 * j + 1]! - simW[2 * i + 1]!);
  return x * x + y * y;
}

/**
 * Reduce the simplex to edge i → j's nearest feature at parameter u: the edge itself, or
 * one end point when u is 0 or 1 (an end point alone is the smaller simplex).
 */
function keepEdge(i: number, j: number, u: number): void {
  if (u <= 0) {
    copySimplexVertex(i, 0);
    simWeight[0] = 1;
    simCount = 1;
  } else if (u >= 1) {
    copySimplexVertex(j, 0);
    simWeight[0] = 1;
    simCount = 1;
  } else {
    // Edges are (0, 1), (1, 2) or (2, 0); for (2, 0), vertex 0 must move to slot 1 before
    // vertex 2 overwrites slot 0.
    if (j === 0) {
      copySimplexVertex(0, 1);
      copySimplexVertex(i, 0);
    } else {
      copySimplexVertex(i, 0);
      copySimplexVertex(j, 1);
    }
    simWeight[0] = 1 - u;
    simWeight[1] = u;
    simCount = 2;
  }
}

function solveSegment(): void {
  keepEdge(0, 1, edgeParameter(0, 1));
}

/**
 * The origin inside the triangle: keep all three with their barycentric weights (overlap).
 * Otherwise the nearest point lies on one of its edges: take the nearest of the three. Why
 * all three rather than only the Voronoi regions of the newest vertex: it costs little in
 * 2D and stays right for degenerate (collinear or coincident) triangles, where the region
 * tests divide by a vanishing area.
 */
function solveTriangle(): void {
  const x0 = simW[0]!;
  const y0 = simW[1]!;
  const x1 = simW[2]!;
  const y1 = simW[3]!;
  const x2 = simW[4]!;
  const y2 = simW[5]!;
  const area2 = (x1 - x0) * (y2 - y0) - (y1 - y0) * (x2 - x0);
  if (area2 !== 0) {
    // Barycentric weights of the origin: each sub-triangle's signed area over the whole.
    const b0 = (x1 * y2 - y1 * x2) / area2;
    const b1 = (x2 * y0 - y2 * x0) / area2;
    const b2 = (x0 * y1 - y0 * x1) / area2;
    if (b0 >= 0 && b1 >= 0 && b2 >= 0) {
      simWeight[0] = b0;
      simWeight[1] = b1;
      simWeight[2] = b2;
      return;
    }
  }
  const u01 = edgeParameter(0, 1);
  const u12 = edgeParameter(1, 2);
  const u20 = edgeParameter(2, 0);
  const d01 = edgeDistanceSquared(0, 1, u01);
  const d12 = edgeDistanceSquared(1, 2, u12);
  const d20 = edgeDistanceSquared(2, 0, u20);
  if (d12 < d01 && d12 <= d20) keepEdge(1, 2, u12);
  else if (d20 < d01) keepEdge(2, 0, u20);
  else keepEdge(0, 1, u01);
}

/** Witness points from the final simplex, then the radii; back to world coordinates. */
function writeOutput(
  out: DistanceOutput, radiusA: number, radiusB: number, ox: number, oy: number,
  overlap: boolean, vx: number, vy: number, iterations: number,
): void {
  let ax = 0;
  let ay = 0;
  let bx = 0;
  let by = 0;
  for (let k = 0; k < simCount; k++) {
    const wk = simWeight[k]!;
    ax += wk * simA[2 * k]!;
    ay += wk * simA[2 * k + 1]!;
    bx += wk * simB[2 * k]!;
    by += wk * simB[2 * k + 1]!;
  }
  let coreDistance = 0;
  let nx = 0;
  let ny = 0;
  if (!overlap) {
    coreDistance = Math.sqrt(vx * vx + vy * vy);
    nx = vx / coreDistance;
    ny = vy / coreDistance;
  }
  out.coreDistance = coreDistance;
  out.coreAX = ox + ax;
  out.coreAY = oy + ay;
  out.coreBX = ox + bx;
  out.coreBY = oy + by;
  out.distance = coreDistance - radiusA - radiusB;
  out.pointAX = out.coreAX + radiusA * nx;
  out.pointAY = out.coreAY + radiusA * ny;
  out.pointBX = out.coreBX - radiusB * nx;
  out.pointBY = out.coreBY - radiusB * ny;
  out.normalX = nx;
  out.normalY = ny;
  out.iterations = iterations;
}
