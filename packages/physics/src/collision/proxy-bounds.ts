/**
 * Boxes for the broadphase: a distance proxy's world box placed by a transform (a shape cast's
 * ends), and how far a turn can swing a point off its straight path (a fast body's sweep).
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
 * How far a turn of `turn` radians moves a point `reach` from the centre of mass off the straight
 * path between its two ends: the rotated offset A(t) and its chord C(t) agree at both ends and
 * move at most reach·|turn| + 2·reach·sin(|turn|/2) ≤ 2·reach·|turn| apart per unit t, so they are
 * at most reach·|turn| apart; and both lie within `reach` of the centre, so at most 2·reach.
 */
export function turnReach(reach: number, turn: number): number {
  return reach * Math.min(Math.abs(turn), 2);
}
