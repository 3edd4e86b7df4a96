/**
 * Closest-point helpers for the narrowphase. Why a module-level result object: the
 * narrowphase runs for every touching pair every step and must not allocate, so these
 * functions write into `segmentDistanceResult` / `closestPointResult` instead of returning
 * fresh objects. Read the result before calling the function again.
 */

/** Output of `segmentDistance`. Fractions are exactly 0 or 1 when a closest point is an endpoint. */
export const segmentDistanceResult = {
  /** Fraction along segment 1 (p1 → q1) of its closest point, in [0, 1]. */
  fraction1: 0,
  /** Fraction along segment 2 (p2 → q2) of its closest point, in [0, 1]. */
  fraction2: 0,
  x1: 0,
  y1: 0,
  x2: 0,
  y2: 0,
  distanceSquared: 0,
};

/**
 * Closest points between segments p1–q1 and p2–q2 (result in `segmentDistanceResult`).
 *
 * Minimise |p1 + s·d1 − p2 − t·d2|² over s, t ∈ [0, 1]. Unconstrained optimum:
 *   s = (b·f − c·e) / (a·e − b²), t = (b·s + f) / e
 * with a = d1·d1, e = d2·d2, b = d1·d2, c = d1·r, f = d2·r, r = p1 − p2. Clamp s, recompute t
 * for that s; if t needs clamping, recompute s for the clamped t (the objective is convex, so
 * this reaches the constrained optimum). Parallel segments (a·e − b² = 0) start from s = 0.
 */
export function segmentDistance(
  p1x: number, p1y: number, q1x: number, q1y: number,
  p2x: number, p2y: number, q2x: number, q2y: number,
): void {
  const v = segmentScratch;
  v[0] = p1x;
  v[1] = p1y;
  v[2] = q1x;
  v[3] = q1y;
  v[4] = p2x;
  v[5] = p2y;
  v[6] = q2x;
  v[7] = q2y;
  segmentDistanceOfVertices(v, 0, 0, 1, v, 0, 2, 3, segmentDistanceResult);
}
const segmentScratch = new Float64Array(8);

/** What segmentDistanceOfVertices writes: segmentDistanceResult's shape. */
export type SegmentDistanceResult = typeof segmentDistanceResult;

/**
 * segmentDistance between vertices of packed vertex arrays (vertex i at [b + 2i, b + 2i + 1]):
 * segment 1 from v1[i1] to v1[j1] (vertices from b1), segment 2 from v2[i2] to v2[j2] (from b2),
 * the result in `out`. Why: the narrowphase is too large for V8 to inline segmentDistance into it,
 * and a call boxes each of its eight doubles. It refers to nothing outside its parameters, so that
 * the narrowphase kernels (collide-kernels.ts) take it as a part, on every thread.
 */
export function segmentDistanceOfVertices(v1: Float64Array, b1: number, i1: number, j1: number, v2: Float64Array, b2: number, i2: number, j2: number, out: SegmentDistanceResult): void {
  const p1x = v1[b1 + 2 * i1]!;
  const p1y = v1[b1 + 2 * i1 + 1]!;
  const q1x = v1[b1 + 2 * j1]!;
  const q1y = v1[b1 + 2 * j1 + 1]!;
  const p2x = v2[b2 + 2 * i2]!;
  const p2y = v2[b2 + 2 * i2 + 1]!;
  const q2x = v2[b2 + 2 * j2]!;
  const q2y = v2[b2 + 2 * j2 + 1]!;
  const d1x = q1x - p1x;
  const d1y = q1y - p1y;
  const d2x = q2x - p2x;
  const d2y = q2y - p2y;
  const rx = p1x - p2x;
  const ry = p1y - p2y;
  const a = d1x * d1x + d1y * d1y;
  const e = d2x * d2x + d2y * d2y;
  const c = d1x * rx + d1y * ry;
  const f = d2x * rx + d2y * ry;
  const tiny = 1e-30;
  let s = 0;
  let t = 0;
  // Clamps to [0, 1] written out (clamp01): no module function is in scope in a worker.
  if (a <= tiny || e <= tiny) {
    if (a > tiny) {
      s = -c / a; // segment 2 is a point
      s = s < 0 ? 0 : s > 1 ? 1 : s;
    } else if (e > tiny) {
      t = f / e; // segment 1 is a point
      t = t < 0 ? 0 : t > 1 ? 1 : t;
    }
  } else {
    const b = d1x * d2x + d1y * d2y;
    const denom = a * e - b * b;
    if (denom !== 0) {
      s = (b * f - c * e) / denom;
      s = s < 0 ? 0 : s > 1 ? 1 : s;
    }
    t = (b * s + f) / e;
    if (t < 0) {
      t = 0;
      s = -c / a;
      s = s < 0 ? 0 : s > 1 ? 1 : s;
    } else if (t > 1) {
      t = 1;
      s = (b - c) / a;
      s = s < 0 ? 0 : s > 1 ? 1 : s;
    }
  }
  out.fraction1 = s;
  out.fraction2 = t;
  out.x1 = p1x + s * d1x;
  out.y1 = p1y + s * d1y;
  out.x2 = p2x + t * d2x;
  out.y2 = p2y + t * d2y;
  const dx = out.x2 - out.x1;
  const dy = out.y2 - out.y1;
  out.distanceSquared = dx * dx + dy * dy;
}

/** Output of `closestPointOnSegment`. */
export const closestPointResult = { x: 0, y: 0, fraction: 0, distanceSquared: 0 };

/** What closestPointOnSegment writes: closestPointResult's shape. */
export type ClosestPointResult = typeof closestPointResult;

/**
 * Closest point to (px, py) on segment a–b, into `out`. It refers to nothing outside its
 * parameters, so that the narrowphase kernels (collide-kernels.ts) take it as a part.
 */
export function closestPointOnSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number, out: ClosestPointResult): void {
  const ex = bx - ax;
  const ey = by - ay;
  const ee = ex * ex + ey * ey;
  let t = 0;
  if (ee > 1e-30) {
    t = ((px - ax) * ex + (py - ay) * ey) / ee;
    t = t < 0 ? 0 : t > 1 ? 1 : t; // clamp01, written out
  }
  out.fraction = t;
  out.x = ax + t * ex;
  out.y = ay + t * ey;
  const dx = px - out.x;
  const dy = py - out.y;
  out.distanceSquared = dx * dx + dy * dy;
}
