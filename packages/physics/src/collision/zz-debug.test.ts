import { it } from 'vitest';
import { Capsule } from '../shape/capsule';
import { Circle } from '../shape/circle';
import { Polygon } from '../shape/polygon';
import { Segment } from '../shape/segment';
import { PolyShape } from '../shape/poly-shape';
import type { Shape } from '../shape/shape';
import { collideShapes } from './collide';
import { Manifold } from './manifold';

let seed = 12345;
function rnd() { seed = (seed * 1103515245 + 12345) & 0x7fffffff; return seed / 0x7fffffff; }
function ptSeg(px: number, py: number, ax: number, ay: number, bx: number, by: number) {
  const ex = bx - ax, ey = by - ay; const ee = ex * ex + ey * ey;
  let t = ee > 0 ? ((px - ax) * ex + (py - ay) * ey) / ee : 0; t = Math.max(0, Math.min(1, t));
  return Math.hypot(px - ax - t * ex, py - ay - t * ey);
}
function cross(ax: number, ay: number, bx: number, by: number) { return ax * by - ay * bx; }
function segsIntersect(a: number[], b: number[]) {
  const [ax, ay, bx, by] = a, [cx, cy, dx, dy] = b;
  const d1 = cross(bx - ax, by - ay, cx - ax, cy - ay), d2 = cross(bx - ax, by - ay, dx - ax, dy - ay);
  const d3 = cross(dx - cx, dy - cy, ax - cx, ay - cy), d4 = cross(dx - cx, dy - cy, bx - cx, by - cy);
  return d1 * d2 < 0 && d3 * d4 < 0;
}
function core(s: Shape): { pts: number[]; r: number } {
  if (s instanceof Circle) return { pts: [s.wx, s.wy], r: s.radius };
  const p = s as PolyShape; return { pts: Array.from(p.worldVerts), r: p.radius };
}
function inside(px: number, py: number, s: Shape) {
  if (!(s instanceof PolyShape) || s.count < 3) return false;
  for (let i = 0; i < s.count; i++) if (s.worldNormals[2*i]! * (px - s.worldVerts[2*i]!) + s.worldNormals[2*i+1]! * (py - s.worldVerts[2*i+1]!) > 0) return false;
  return true;
}
function edges(pts: number[]) { const n = pts.length / 2; const out: number[][] = []; if (n === 1) return [[pts[0]!, pts[1]!, pts[0]!, pts[1]!]]; const m = n === 2 ? 1 : n; for (let i = 0; i < m; i++) { const j = (i + 1) % n; out.push([pts[2*i]!, pts[2*i+1]!, pts[2*j]!, pts[2*j+1]!]); } return out; }
/** surface distance, or null if cores overlap */
function trueDist(a: Shape, b: Shape): number | null {
  const A = core(a), B = core(b);
  for (let i = 0; i < A.pts.length; i += 2) if (inside(A.pts[i]!, A.pts[i+1]!, b)) return null;
  for (let i = 0; i < B.pts.length; i += 2) if (inside(B.pts[i]!, B.pts[i+1]!, a)) return null;
  let best = Infinity;
  for (const e of edges(A.pts)) for (const f of edges(B.pts)) {
    if (segsIntersect(e, f)) return null;
    best = Math.min(best, ptSeg(e[0]!, e[1]!, f[0]!, f[1]!, f[2]!, f[3]!), ptSeg(e[2]!, e[3]!, f[0]!, f[1]!, f[2]!, f[3]!), ptSeg(f[0]!, f[1]!, e[0]!, e[1]!, e[2]!, e[3]!), ptSeg(f[2]!, f[3]!, e[0]!, e[1]!, e[2]!, e[3]!));
  }
  return best - A.r - B.r;
}
const makers: (() => Shape)[] = [
  () => new Circle({ radius: 0.3 + 0.3 * rnd() }),
  () => Polygon.box(0.4 + rnd(), 0.4 + rnd()),
  () => Polygon.regular(0.3 + 0.4 * rnd(), 3 + Math.floor(rnd() * 6), { radius: rnd() < 0.5 ? 0 : 0.05 }),
  () => new Capsule({ length: 0.2 + rnd(), radius: 0.05 + 0.2 * rnd() }),
  () => new Segment({ p1: [-0.5, 0], p2: [0.5 + rnd(), 0.3 * rnd()] }),
];
function place(s: Shape, x: number, y: number, a: number) { s.updateWorld(x, y, Math.cos(a), Math.sin(a)); }
it('explore', () => {
  const m = new Manifold();
  const stats: Record<string, { n: number; miss: number; over: number; maxUnder: number; far: number }> = {};
  for (let k = 0; k < 200000; k++) {
    const ia = Math.floor(rnd() * 5), ib = Math.floor(rnd() * 5);
    const a = makers[ia]!(), b = makers[ib]!();
    place(a, 0, 0, rnd() * 7);
    const ang = rnd() * 7, dir = rnd() * 7;
    // bisection on distance along dir to find touching-ish
    const target = -0.01 + 0.04 * rnd();
    let lo = 0, hi = 4;
    for (let it = 0; it < 50; it++) { const mid = (lo + hi) / 2; place(b, mid * Math.cos(dir), mid * Math.sin(dir), ang); const d = trueDist(a, b); if (d === null || d < target) lo = mid; else hi = mid; }
    place(b, hi * Math.cos(dir), hi * Math.sin(dir), ang);
    const d = trueDist(a, b);
    if (d === null) continue;
    collideShapes(a, b, m);
    const key = a.kind + '-' + b.kind;
    const st = (stats[key] ??= { n: 0, miss: 0, over: 0, maxUnder: 0, far: 0 });
    st.n++;
    let minSep = Infinity;
    for (let i = 0; i < m.pointCount; i++) minSep = Math.min(minSep, m.separation[i]!);
    if (d < 0.0199 && m.pointCount === 0) { st.miss++; if (st.miss < 3) console.log('MISS', key, d, JSON.stringify(core(a)), JSON.stringify(core(b))); }
    if (m.pointCount > 0) {
      if (minSep > d + 1e-9) { st.over++; if (st.over < 3) console.log('OVER', key, d, minSep, JSON.stringify(core(a)), JSON.stringify(core(b))); }
      st.maxUnder = Math.max(st.maxUnder, d - minSep);
      if (Math.abs(Math.hypot(m.nx, m.ny) - 1) > 1e-9) console.log('NORM');
    }
  }
  console.table(stats);
});
