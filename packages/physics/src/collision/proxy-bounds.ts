/**
 * The world box of a distance proxy placed by a transform, and of its whole sweep: what the
 * broadphase is asked about for a shape cast or a fast body's continuous collision.
 */
import type { DistanceProxy, Transform } from './gjk.js';

/** [minX, minY, maxX, maxY] of `proxy` placed by `xf` (its radius included), into `out`. */
export function proxyBounds(proxy: DistanceProxy, xf: Transform, out: Float64Array): void {
  const v = proxy.verts;
  let minX = Infinity, minY = Infinity, maxX = -Infinity, maxY = -Infinity;
  for (let i = 0; i < proxy.count; i++) {
    const lx = v[2 * i]!, ly = v[2 * i + 1]!;
    const x = xf.x + xf.c * lx - xf.s * ly;
    const y = xf.y + xf.s * lx + xf.c * ly;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  const r = proxy.radius;
  out[0] = minX - r;
  out[1] = minY - r;
  out[2] = maxX + r;
  out[3] = maxY + r;
}

/**
 * The box of `proxy` swept from `xf1` to `xf2`, into `out`. For a translation the union of the two
 * ends' boxes covers every pose in between; a turn swings a vertex off the straight path between
 * its ends, so the union is grown by `turnReach` (turnReach below).
 */
export function sweptBounds(proxy: DistanceProxy, xf1: Transform, xf2: Transform, turnReach: number, out: Float64Array): void {
  proxyBounds(proxy, xf1, out);
  const x0 = out[0]!, y0 = out[1]!, x1 = out[2]!, y1 = out[3]!;
  proxyBounds(proxy, xf2, out);
  out[0] = Math.min(out[0]!, x0) - turnReach;
  out[1] = Math.min(out[1]!, y0) - turnReach;
  out[2] = Math.max(out[2]!, x1) + turnReach;
  out[3] = Math.max(out[3]!, y1) + turnReach;
}

/**
 * How far a turn of `turn` radians moves a point `reach` from the centre of mass off the straight
 * path between its two ends: the rotated offset A(t) and its chord C(t) agree at both ends and
 * move at most reach·|turn| + 2·reach·sin(|turn|/2) ≤ 2·reach·|turn| apart per unit t, so they are
 * at most reach·|turn| apart; and both lie within `reach` of the centre, so at most 2·reach.
 */
export function turnReach(reach: number, turn: number): number {
  return reach * Math.min(Math.abs(turn), 2);
}
