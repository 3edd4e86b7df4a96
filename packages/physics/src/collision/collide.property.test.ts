/**
 * Randomised cross-check of the narrowphase against a brute-force distance (independent code:
 * point–segment distances and segment intersection tests on the world cores). Covers every
 * ordered pair of kinds, rounded and sharp polygons, in near-touching and overlapping poses.
 */
import { describe, expect, it } from 'vitest';
import { Capsule } from '../shape/capsule.js';
import { Circle } from '../shape/circle.js';
import { PolyShape } from '../shape/poly-shape.js';
import { Polygon } from '../shape/polygon.js';
import { Segment } from '../shape/segment.js';
import type { Shape } from '../shape/shape.js';
import { collideShapes } from './collide.js';
import { LINEAR_SLOP, Manifold, SPECULATIVE_DISTANCE } from './manifold.js';

let seed = 0;
function rnd(): number {
  // mulberry32
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}

function pointSegment(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const ex = bx - ax;
  const ey = by - ay;
  const ee = ex * ex + ey * ey;
  const t = ee > 0 ? Math.max(0, Math.min(1, ((px - ax) * ex + (py - ay) * ey) / ee)) : 0;
  return Math.hypot(px - ax - t * ex, py - ay - t * ey);
}
function crosses(e: number[], f: number[]): boolean {
  const c = (ax: number, ay: number, bx: number, by: number): number => ax * by - ay * bx;
  const [ax, ay, bx, by] = e as [number, number, number, number];
  const [cx, cy, dx, dy] = f as [number, number, number, number];
  const d1 = c(bx - ax, by - ay, cx - ax, cy - ay);
  const d2 = c(bx - ax, by - ay, dx - ax, dy - ay);
  const d3 = c(dx - cx, dy - cy, ax - cx, ay - cy);
  const d4 = c(dx - cx, dy - cy, bx - cx, by - cy);
  return d1 * d2 < 0 && d3 * d4 < 0;
}
function corePoints(s: Shape): number[] {
  return s instanceof Circle ? [s.wx, s.wy] : Array.from((s as PolyShape).worldVerts);
}
function radiusOf(s: Shape): number {
  return s instanceof Circle ? s.radius : (s as PolyShape).radius;
}
function insideCore(x: number, y: number, s: Shape): boolean {
  if (!(s instanceof PolyShape) || s.count < 3) return false;
  for (let i = 0; i < s.count; i++) {
    if (s.worldNormals[2 * i]! * (x - s.worldVerts[2 * i]!) + s.worldNormals[2 * i + 1]! * (y - s.worldVerts[2 * i + 1]!) > 0) return false;
  }
  return true;
}
function coreEdges(p: number[]): number[][] {
  const n = p.length / 2;
  if (n === 1) return [[p[0]!, p[1]!, p[0]!, p[1]!]];
  const out: number[][] = [];
  for (let i = 0; i < (n === 2 ? 1 : n); i++) {
    const j = (i + 1) % n;
    out.push([p[2 * i]!, p[2 * i + 1]!, p[2 * j]!, p[2 * j + 1]!]);
  }
  return out;
}
/** Distance between the rounded surfaces, or null when the cores overlap. */
function surfaceDistance(a: Shape, b: Shape): number | null {
  const pa = corePoints(a);
  const pb = corePoints(b);
  for (let i = 0; i < pa.length; i += 2) if (insideCore(pa[i]!, pa[i + 1]!, b)) return null;
  for (let i = 0; i < pb.length; i += 2) if (insideCore(pb[i]!, pb[i + 1]!, a)) return null;
  let best = Infinity;
  for (const e of coreEdges(pa)) {
    for (const f of coreEdges(pb)) {
      if (crosses(e, f)) return null;
      best = Math.min(
        best,
        pointSegment(e[0]!, e[1]!, f[0]!, f[1]!, f[2]!, f[3]!),
        pointSegment(e[2]!, e[3]!, f[0]!, f[1]!, f[2]!, f[3]!),
        pointSegment(f[0]!, f[1]!, e[0]!, e[1]!, e[2]!, e[3]!),
        pointSegment(f[2]!, f[3]!, e[0]!, e[1]!, e[2]!, e[3]!),
      );
    }
  }
  return best - radiusOf(a) - radiusOf(b);
}

const makers: (() => Shape)[] = [
  () => new Circle({ radius: 0.3 + 0.3 * rnd() }),
  () => Polygon.box(0.4 + rnd(), 0.4 + rnd()),
  () => Polygon.regular(0.3 + 0.4 * rnd(), 3 + Math.floor(rnd() * 6), { radius: rnd() < 0.5 ? 0 : 0.05 }),
  () => new Capsule({ length: 0.2 + rnd(), radius: 0.05 + 0.2 * rnd() }),
  () => new Segment({ p1: [-0.5, 0], p2: [0.5 + rnd(), 0.3 * rnd()] }),
];
function place(s: Shape, x: number, y: number, angle: number): void {
  s.updateWorld(x, y, Math.cos(angle), Math.sin(angle));
}
/** Random pair with B moved along a random direction until the surfaces are `target` apart. */
function randomPair(target: number): { a: Shape; b: Shape; bx: number; by: number; angle: number } {
  const a = makers[Math.floor(rnd() * makers.length)]!();
  const b = makers[Math.floor(rnd() * makers.length)]!();
  place(a, 0, 0, rnd() * 7);
  const angle = rnd() * 7;
  const dir = rnd() * 7;
  let lo = 0;
  let hi = 4;
  for (let k = 0; k < 50; k++) {
    const mid = 0.5 * (lo + hi);
    place(b, mid * Math.cos(dir), mid * Math.sin(dir), angle);
    const d = surfaceDistance(a, b);
    if (d === null || d < target) lo = mid;
    else hi = mid;
  }
  place(b, hi * Math.cos(dir), hi * Math.sin(dir), angle);
  return { a, b, bx: hi * Math.cos(dir), by: hi * Math.sin(dir), angle };
}

const m = new Manifold();
function minSeparation(): number {
  let s = Infinity;
  for (let i = 0; i < m.pointCount; i++) s = Math.min(s, m.separation[i]!);
  return s;
}

describe('narrowphase vs brute-force distance', () => {
  it('near-touching poses: a point whenever within the speculative distance, gap never overstated by more than 0.1·LINEAR_SLOP', () => {
    seed = 1;
    for (let k = 0; k < 6000; k++) {
      const { a, b } = randomPair(-0.01 + 0.04 * rnd());
      const d = surfaceDistance(a, b);
      if (d === null) continue;
      collideShapes(a, b, m);
      const label = `${a.kind}-${b.kind} #${k}`;
      if (d < SPECULATIVE_DISTANCE - 0.1 * LINEAR_SLOP) expect(m.pointCount, label).toBeGreaterThan(0);
      if (m.pointCount === 0) continue;
      expect(Math.hypot(m.nx, m.ny), label).toBeCloseTo(1, 12);
      const s = minSeparation();
      expect(s, label).toBeLessThanOrEqual(d + 0.1 * LINEAR_SLOP + 1e-9);
      expect(s, label).toBeGreaterThan(d - LINEAR_SLOP);
      for (let i = 0; i < m.pointCount; i++) expect(m.separation[i]!, label).toBeLessThan(SPECULATIVE_DISTANCE);
    }
  });

  it('overlapping poses: pushing B out by the deepest separation along the normal resolves the overlap', () => {
    seed = 2;
    for (let k = 0; k < 4000; k++) {
      const { a, b, bx, by, angle } = randomPair(0);
      const depth = 0.1 * rnd();
      const len = Math.hypot(bx, by);
      const x = bx - (depth * bx) / len;
      const y = by - (depth * by) / len;
      place(b, x, y, angle);
      collideShapes(a, b, m);
      const label = `${a.kind}-${b.kind} #${k}`;
      const d = surfaceDistance(a, b);
      if (d === null || d < -1e-9) expect(m.pointCount, label).toBeGreaterThan(0);
      if (m.pointCount === 0) continue;
      const push = -minSeparation() + 1e-7;
      place(b, x + push * m.nx, y + push * m.ny, angle);
      const after = surfaceDistance(a, b);
      expect(after, label).not.toBeNull();
      expect(after!, label).toBeGreaterThan(-0.2 * LINEAR_SLOP);
    }
  });
});
