/**
 * Validation of user-supplied convex vertex lists. Why separate: Polygon's constructor, its
 * `vertices` setter and the box/regular factories all go through it, and it must reject
 * every bad input with a message naming the property and value *before* anything is applied.
 */
import { LINEAR_SLOP } from '../collision/manifold.js';
import { checkVec2, fail } from '../util/validate.js';

/** Most vertices a Polygon may have. */
export const MAX_POLYGON_VERTICES = 64;
/** Points closer than this (metres) are "near-coincident": the edge between them would be unusable. */
export const WELD_DISTANCE = 0.5 * LINEAR_SLOP;
/** A vertex whose turn is below this (sine of the angle) counts as collinear with its neighbours. */
const COLLINEAR_SINE = 1e-9;

/**
 * Parse `value` as a strictly convex polygon of 3..MAX_POLYGON_VERTICES points given as
 * {x, y} or [x, y], in either winding. Returns x, y interleaved, CCW, with the user's vertex 0
 * still first (a CW input is read backwards from vertex 0).
 */
export function parseConvexVertices(owner: string, prop: string, value: unknown): Float64Array {
  if (!Array.isArray(value)) fail(owner, prop, value, `must be an array of 3 to ${MAX_POLYGON_VERTICES} points {x, y} or [x, y]`);
  const n = value.length;
  if (n < 3 || n > MAX_POLYGON_VERTICES) {
    fail(owner, prop, value, `must have 3 to ${MAX_POLYGON_VERTICES} vertices (has ${n})`);
  }
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = checkVec2(owner, `${prop}[${i}]`, value[i]);
    xs[i] = p.x;
    ys[i] = p.y;
  }
  const weld2 = WELD_DISTANCE * WELD_DISTANCE;
  for (let i = 0; i < n; i++) {
    for (let j = i + 1; j < n; j++) {
      const dx = xs[j]! - xs[i]!;
      const dy = ys[j]! - ys[i]!;
      if (dx * dx + dy * dy < weld2) {
        fail(owner, `${prop}[${j}]`, value[j], `must not coincide with ${prop}[${i}] (points closer than ${WELD_DISTANCE} m)`);
      }
    }
  }
  // Signed area (shoelace about vertex 0) and extent, for the collinearity test.
  let area2 = 0;
  let ext2 = 0;
  for (let i = 1; i < n - 1; i++) {
    const e1x = xs[i]! - xs[0]!;
    const e1y = ys[i]! - ys[0]!;
    const e2x = xs[i + 1]! - xs[0]!;
    const e2y = ys[i + 1]! - ys[0]!;
    area2 += e1x * e2y - e1y * e2x;
  }
  for (let i = 1; i < n; i++) {
    const dx = xs[i]! - xs[0]!;
    const dy = ys[i]! - ys[0]!;
    ext2 = Math.max(ext2, dx * dx + dy * dy);
  }
  if (!(Math.abs(area2) > COLLINEAR_SINE * ext2)) fail(owner, prop, value, 'must not be collinear (the polygon has zero area)');
  const sign = area2 > 0 ? 1 : -1;

  // Convexity: every turn must be strictly in the winding's direction, and the turns must
  // add up to one full revolution (a star whose turns all agree winds twice).
  let turning = 0;
  for (let i = 0; i < n; i++) {
    const h = i > 0 ? i - 1 : n - 1;
    const j = i + 1 < n ? i + 1 : 0;
    const ax = xs[i]! - xs[h]!;
    const ay = ys[i]! - ys[h]!;
    const bx = xs[j]! - xs[i]!;
    const by = ys[j]! - ys[i]!;
    const cross = sign * (ax * by - ay * bx);
    const lens = Math.sqrt((ax * ax + ay * ay) * (bx * bx + by * by));
    if (cross < -COLLINEAR_SINE * lens) fail(owner, prop, value, `must be convex (concave at vertex ${i})`);
    if (cross <= COLLINEAR_SINE * lens) {
      fail(owner, prop, value, `must be strictly convex (vertex ${i} is collinear with its neighbours)`);
    }
    turning += Math.atan2(cross, ax * bx + ay * by);
  }
  if (turning > 3 * Math.PI) fail(owner, prop, value, 'must not self-intersect (the outline winds more than once)');

  const out = new Float64Array(2 * n);
  for (let k = 0; k < n; k++) {
    const i = sign > 0 ? k : (n - k) % n;
    out[2 * k] = xs[i]!;
    out[2 * k + 1] = ys[i]!;
  }
  return out;
}
