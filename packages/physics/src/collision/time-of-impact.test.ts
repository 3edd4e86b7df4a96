import { describe, expect, it } from 'vitest';
import { Capsule } from '../shape/capsule.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import type { Shape } from '../shape/shape.js';
import { mulberry32 } from '../test-support/random.js';
import { DistanceOutput, DistanceProxy, setProxyFromPoints, setProxyFromShape, shapeDistance, type Transform } from './gjk.js';
import { LINEAR_SLOP } from './manifold.js';
import {
  TOI_MAX_ITERATIONS,
  TOI_TOLERANCE,
  TimeOfImpactOutput,
  sweepTransform,
  timeOfImpact,
  toiTargetDistance,
  type Sweep,
} from './time-of-impact.js';

/** Slack for floating-point rounding in the checks (the bounds themselves are exact). */
const EPS = 1e-9;

function proxyOf(shape: Shape): DistanceProxy {
  const p = new DistanceProxy();
  setProxyFromShape(p, shape);
  return p;
}
/** A body moving from (c1x, c1y, a1) to (c2x, c2y, a2) over the step, centre of mass at (lcx, lcy) in the body frame. */
function sweep(c1x: number, c1y: number, a1: number, c2x: number, c2y: number, a2: number, lcx = 0, lcy = 0): Sweep {
  return { localCenterX: lcx, localCenterY: lcy, c1x, c1y, a1, c2x, c2y, a2 };
}
function still(x: number, y: number, angle = 0): Sweep {
  return sweep(x, y, angle, x, y, angle);
}
function toi(a: DistanceProxy, sa: Sweep, b: DistanceProxy, sb: Sweep, tMax = 1): TimeOfImpactOutput {
  const out = new TimeOfImpactOutput();
  timeOfImpact(a, sa, b, sb, tMax, out);
  return out;
}
const xfA: Transform = { x: 0, y: 0, c: 1, s: 0 };
const xfB: Transform = { x: 0, y: 0, c: 1, s: 0 };
const dist = new DistanceOutput();
/** Distance query at fraction t of both sweeps. */
function distanceAt(a: DistanceProxy, sa: Sweep, b: DistanceProxy, sb: Sweep, t: number): DistanceOutput {
  sweepTransform(sa, t, xfA);
  sweepTransform(sb, t, xfB);
  shapeDistance(a, xfA, b, xfB, dist);
  return dist;
}
/** Smallest core distance over `samples` + 1 evenly spaced times in [0, tEnd]. */
function minCoreDistance(a: DistanceProxy, sa: Sweep, b: DistanceProxy, sb: Sweep, tEnd: number, samples = 400): number {
  let min = Infinity;
  for (let i = 0; i <= samples; i++) min = Math.min(min, distanceAt(a, sa, b, sb, (tEnd * i) / samples).coreDistance);
  return min;
}
/**
 * The contract of a hit: at t the core distance is within [target, target + tolerance] (so the
 * rounded shapes overlap by at most LINEAR_SLOP), and it was never below the target before.
 */
function expectSafeFirstHit(a: DistanceProxy, sa: Sweep, b: DistanceProxy, sb: Sweep, r: TimeOfImpactOutput): void {
  const target = toiTargetDistance(a.radius + b.radius);
  expect(r.state).toBe('hit');
  const atHit = distanceAt(a, sa, b, sb, r.t);
  expect(atHit.coreDistance).toBeGreaterThanOrEqual(target - EPS);
  expect(atHit.coreDistance).toBeLessThanOrEqual(target + TOI_TOLERANCE);
  expect(atHit.distance).toBeGreaterThanOrEqual(-LINEAR_SLOP - EPS);
  expect(minCoreDistance(a, sa, b, sb, r.t)).toBeGreaterThanOrEqual(target - EPS);
}

describe('sweepTransform', () => {
  it('puts the body-local centre of mass on the interpolated centre, exact at both ends', () => {
    const s = sweep(1, 2, 0.3, 4, -1, 2.3, 0.5, -0.25);
    const xf: Transform = { x: 0, y: 0, c: 1, s: 0 };
    for (const t of [0, 0.25, 0.5, 1]) {
      sweepTransform(s, t, xf);
      const angle = 0.3 + 2 * t;
      expect(xf.c).toBeCloseTo(Math.cos(angle), 14);
      expect(xf.s).toBeCloseTo(Math.sin(angle), 14);
      // The local centre, carried by the transform, lands on the linearly moving centre.
      expect(xf.x + xf.c * 0.5 - xf.s * -0.25).toBeCloseTo(1 + 3 * t, 14);
      expect(xf.y + xf.s * 0.5 + xf.c * -0.25).toBeCloseTo(2 - 3 * t, 14);
    }
    sweepTransform(s, 1, xf);
    expect([xf.c, xf.s]).toEqual([Math.cos(2.3), Math.sin(2.3)]);
  });
});

describe('timeOfImpact', () => {
  it('target: one slop of overlap for rounded shapes, one slop apart for sharp ones', () => {
    expect(toiTargetDistance(0.3)).toBeCloseTo(0.3 - LINEAR_SLOP, 15);
    expect(toiTargetDistance(0)).toBe(LINEAR_SLOP);
    expect(toiTargetDistance(1.5 * LINEAR_SLOP)).toBe(LINEAR_SLOP);
  });

  it('two circles head-on: t = (d0 − target) / closing speed', () => {
    const a = proxyOf(new Circle({ radius: 0.5 }));
    const b = proxyOf(new Circle({ radius: 0.3 }));
    for (const [va, vb] of [[3, -2], [6, 0], [0, -4.5], [1e3, -1e3]] as const) {
      const sa = sweep(0, 1, 0, va, 1, 0.7); // A's spin is irrelevant: its core is its centre
      const sb = still(5, 1);
      sb.c2x = 5 + vb;
      const r = toi(a, sa, b, sb);
      const target = toiTargetDistance(0.8);
      expect(r.state).toBe('hit');
      expect(Math.abs(r.t - (5 - target) / (va - vb))).toBeLessThan(1e-6);
      expect(r.iterations).toBeLessThanOrEqual(2); // the bound is exact for a head-on translation
      expect(r.normalX).toBeCloseTo(1, 12);
      expectSafeFirstHit(a, sa, b, sb, r);
    }
  });

  it('a 0.1 m ball at 300 m/s through a 0.05 m static wall, −80° … 80°: a hit with the ball in front', () => {
    const ball = proxyOf(new Circle({ radius: 0.1 }));
    const wall = proxyOf(Polygon.box(0.05, 20)); // faces at x = ±0.025
    const travel = 300 / 60; // metres per step
    const target = toiTargetDistance(0.1);
    for (let deg = -80; deg <= 80; deg += 5) {
      const dx = Math.cos((deg * Math.PI) / 180);
      const dy = Math.sin((deg * Math.PI) / 180);
      // The path is centred on the wall, so the ball starts clear of it and ends clear past it.
      const s = sweep(-0.5 * travel * dx, 3 - 0.5 * travel * dy, 0, 0.5 * travel * dx, 3 + 0.5 * travel * dy, 0);
      expect(s.c1x + 0.1).toBeLessThan(-0.025);
      expect(s.c2x - 0.1).toBeGreaterThan(0.025);
      const r = toi(ball, s, wall, still(0, 0));
      expect(r.state).toBe('hit');
      const ballX = (1 - r.t) * s.c1x + r.t * s.c2x;
      // In front of the wall: its leading edge at most LINEAR_SLOP into the front face.
      const separation = -0.025 - (ballX + 0.1);
      expect(separation).toBeGreaterThanOrEqual(-LINEAR_SLOP - EPS);
      expect(separation).toBeLessThanOrEqual(-LINEAR_SLOP + TOI_TOLERANCE);
      // A face hit by a translating ball is exact: t = (gap − target) / normal speed.
      expect(r.t).toBeCloseTo((-0.025 - s.c1x - target) / (travel * dx), 12);
      expectSafeFirstHit(ball, s, wall, still(0, 0), r);
    }
  });

  it('a thin rod (1 m, radius 0.01) spinning at 50 rad/s falling onto a box: a hit, no overlap at t or before', () => {
    const rod = proxyOf(new Capsule({ length: 1, radius: 0.01 }));
    const box = proxyOf(Polygon.box(4, 1)); // top face at y = 0.5
    const dt = 1 / 60;
    const spin = 50 * dt;
    const fall = 24 * dt;
    let worstIterations = 0;
    for (let k = 0; k < 24; k++) {
      const a1 = (k * Math.PI) / 24;
      // Starts 0.07 m above the top: clear of the box whatever its angle.
      const s = sweep(0.1, 0.5 + 0.57, a1, 0.1 + 2 * dt, 0.5 + 0.57 - fall, a1 + spin);
      const r = toi(rod, s, box, still(0, 0));
      worstIterations = Math.max(worstIterations, r.iterations);
      const target = toiTargetDistance(0.01);
      const sampledMin = minCoreDistance(rod, s, box, still(0, 0), 1, 2000);
      if (sampledMin < target - EPS) {
        expectSafeFirstHit(rod, s, box, still(0, 0), r);
      } else if (sampledMin > target + TOI_TOLERANCE) {
        expect(r.state).toBe('separated');
      }
      expect(r.state).not.toBe('failed');
    }
    // The canonical case: flat-ish and turning down onto the box.
    const s = sweep(0.1, 1.07, 0.3, 0.1, 1.07 - fall, 0.3 + spin);
    const r = toi(rod, s, box, still(0, 0));
    expectSafeFirstHit(rod, s, box, still(0, 0), r);
    expect(r.t).toBeGreaterThan(0);
    expect(r.t).toBeLessThan(1);
    // The second-order bound keeps a spinning body from creeping (first order alone: ~50).
    expect(worstIterations).toBeLessThanOrEqual(8);
  });

  it('a box swung on a long arm (centre of mass off the shape) is caught', () => {
    // The body's origin and centre of mass are at the pivot (0, 0); its box sits 2 m out on the
    // body's x axis. The body turns from −0.5 to 0.5 rad, sweeping the box through a post.
    const arm = proxyOf(Polygon.box(0.2, 0.2, { offset: { x: 2, y: 0 } }));
    const post = proxyOf(new Circle({ radius: 0.05 }));
    const s = sweep(0, 0, -0.5, 0, 0, 0.5);
    const postSweep = still(2, 0);
    const r = toi(arm, s, post, postSweep);
    expectSafeFirstHit(arm, s, post, postSweep, r);
    // The box's leading face (y = 0.1 in the body frame) comes within the target 0.045 of
    // the post's centre at about angle −0.0725: t ≈ 0.43.
    expect(r.t).toBeGreaterThan(0.4);
    expect(r.t).toBeLessThan(0.5);
  });

  it('sharp polygons stop LINEAR_SLOP apart', () => {
    const a = proxyOf(Polygon.box(1, 1));
    const b = proxyOf(Polygon.regular(0.5, 6));
    const sa = sweep(0, 0, 0, 4, 0.2, 0.4);
    const sb = still(3, 0, 0.1);
    const r = toi(a, sa, b, sb);
    expectSafeFirstHit(a, sa, b, sb, r);
    const d = distanceAt(a, sa, b, sb, r.t);
    expect(d.distance).toBeGreaterThanOrEqual(LINEAR_SLOP - EPS);
    expect(d.distance).toBeLessThanOrEqual(LINEAR_SLOP + TOI_TOLERANCE);
  });

  it('separated: moving apart, passing by, stopping short, at rest, and tMax before the contact', () => {
    const a = proxyOf(new Circle({ radius: 0.5 }));
    const b = proxyOf(Polygon.box(1, 1, { radius: 0.02 }));
    const cases: [Sweep, Sweep][] = [
      [sweep(0, 0, 0, -3, 0, 1), still(2, 0)], // apart
      [sweep(-5, 1.6, 0, 5, 1.6, 0), sweep(0, 0, 0, 0, 0, 0.3)], // passing above the turning box
      [sweep(-5, 0, 0, 0.8, 0, 0), still(2, 0)], // stops 0.18 m short
      [still(0, 0), still(2, 0)], // nothing moves
    ];
    for (const [sa, sb] of cases) {
      const r = toi(a, sa, b, sb);
      expect(r.state).toBe('separated');
      expect(r.t).toBe(1);
      expect(minCoreDistance(a, sa, b, sb, 1)).toBeGreaterThan(toiTargetDistance(0.52));
    }
    // Would hit at t = (5 − 0.5 − 0.515) / 10 ≈ 0.3985, but the window ends at 0.35.
    const sa = sweep(-5, 0, 0, 5, 0, 0);
    const full = toi(a, sa, b, still(0, 0));
    expect(full.state).toBe('hit');
    expect(full.t).toBeCloseTo(0.3985, 12);
    const cut = toi(a, sa, b, still(0, 0), 0.35);
    expect(cut.state).toBe('separated');
    expect(cut.t).toBe(0.35);
  });

  it('overlapped at t = 0: cores overlapping, or only the rounded shapes closer than the target', () => {
    const a = proxyOf(Polygon.box(1, 1));
    const b = proxyOf(new Circle({ radius: 0.3 }));
    let r = toi(a, sweep(0, 0, 0, 5, 0, 0), b, still(0.2, 0.1));
    expect(r.state).toBe('overlapped');
    expect(r.t).toBe(0);
    // Core distance 0.28 < target 0.295, even though B is moving away.
    r = toi(a, still(0, 0), b, sweep(0.78, 0, 0, 3, 0, 0));
    expect(r.state).toBe('overlapped');
    expect(r.t).toBe(0);
  });

  it('already within tolerance of the target at t = 0: a hit at 0', () => {
    const a = proxyOf(new Circle({ radius: 0.5 }));
    const b = proxyOf(new Circle({ radius: 0.5 }));
    const r = toi(a, still(0, 0), b, sweep(1 - LINEAR_SLOP + 0.1 * TOI_TOLERANCE, 0, 0, 0, 0, 0));
    expect(r.state).toBe('hit');
    expect(r.t).toBe(0);
  });

  it('randomized sweeps (seeded): every result keeps its contract', () => {
    const rnd = mulberry32(77);
    const a = new DistanceProxy();
    const b = new DistanceProxy();
    const out = new TimeOfImpactOutput();
    const counts = [1, 2, 3, 4, 6, 12];
    const randomProxy = (p: DistanceProxy): void => {
      const n = counts[Math.floor(rnd() * counts.length)]!;
      const radius = 0.05 + 0.8 * rnd();
      const angles = Array.from({ length: n }, () => 2 * Math.PI * rnd()).sort((x, y) => x - y);
      const pts = angles.flatMap((t) => [0.3 * (rnd() - 0.5) + radius * Math.cos(t), 0.3 * (rnd() - 0.5) + radius * Math.sin(t)]);
      // Rounded sometimes, sharp sometimes.
      setProxyFromPoints(p, pts, n, rnd() < 0.5 ? 0 : 0.2 * rnd());
    };
    /** From (x, y) to about (toX, toY), or standing still; turning up to ±2 rad. */
    const randomSweep = (x: number, y: number, toX: number, toY: number, moving: boolean): Sweep => {
      const lcx = 0.4 * (rnd() - 0.5);
      const lcy = 0.4 * (rnd() - 0.5);
      const a1 = 6.3 * rnd();
      if (!moving) return sweep(x, y, a1, x, y, a1, lcx, lcy);
      return sweep(x, y, a1, toX + 3 * (rnd() - 0.5), toY + 3 * (rnd() - 0.5), a1 + 4 * (rnd() - 0.5), lcx, lcy);
    };
    const tally = { hit: 0, separated: 0, overlapped: 0, failed: 0 };
    let worstIterations = 0;
    for (let k = 0; k < 1000; k++) {
      randomProxy(a);
      randomProxy(b);
      // B somewhere around; A heading roughly at it (sometimes through it, sometimes past).
      const bx = 5 * (rnd() - 0.5);
      const by = 5 * (rnd() - 0.5);
      const sa = randomSweep(0, 0, 2 * bx, 2 * by, true);
      const sb = randomSweep(bx, by, 0, 0, rnd() < 0.5);
      const tMax = rnd() < 0.8 ? 1 : rnd();
      timeOfImpact(a, sa, b, sb, tMax, out);
      tally[out.state]++;
      worstIterations = Math.max(worstIterations, out.iterations);
      const target = toiTargetDistance(a.radius + b.radius);
      switch (out.state) {
        case 'overlapped':
          expect(out.t).toBe(0);
          expect(distanceAt(a, sa, b, sb, 0).coreDistance).toBeLessThan(target);
          break;
        case 'hit':
          expect(out.t).toBeLessThanOrEqual(tMax);
          expectSafeFirstHit(a, sa, b, sb, out);
          break;
        case 'separated':
          expect(out.t).toBe(tMax);
          expect(minCoreDistance(a, sa, b, sb, tMax, 200)).toBeGreaterThanOrEqual(target - EPS);
          break;
        case 'failed':
          expect(minCoreDistance(a, sa, b, sb, out.t, 200)).toBeGreaterThanOrEqual(target - EPS);
          break;
      }
    }
    expect(worstIterations).toBeLessThan(TOI_MAX_ITERATIONS);
    expect(tally.hit).toBeGreaterThan(300);
    expect(tally.separated).toBeGreaterThan(100);
    expect(tally.overlapped).toBeGreaterThan(50);
    expect(tally.failed).toBeLessThanOrEqual(5);
  });

  it('a body spinning far faster than the bounds can follow, close to another: failed, with a safe t', () => {
    // A 1 m rod turning 100 rad in the step (6000 rad/s at 60 Hz) about a centre 0.52 m above
    // a box: its tips pass 0.01 m over the box every half turn but never reach the target.
    const rod = proxyOf(new Capsule({ length: 1, radius: 0.01 }));
    const box = proxyOf(Polygon.box(4, 1));
    const s = sweep(0, 0.5 + 0.52, 0, 0, 0.5 + 0.52, 100);
    const r = toi(rod, s, box, still(0, 0));
    expect(r.state).toBe('failed');
    expect(r.iterations).toBe(TOI_MAX_ITERATIONS);
    expect(r.t).toBeGreaterThan(0);
    expect(minCoreDistance(rod, s, box, still(0, 0), r.t, 20000)).toBeGreaterThanOrEqual(toiTargetDistance(0.01) - EPS);
  });

  it('is deterministic: the same query gives the same result after other queries', () => {
    const rod = proxyOf(new Capsule({ length: 1, radius: 0.01 }));
    const box = proxyOf(Polygon.box(4, 1));
    const s = sweep(0.1, 0.8, 0.3, 0.1, 0.65, 1.1);
    const first = toi(rod, s, box, still(0, 0));
    toi(box, still(0, 0), rod, sweep(3, 3, 0, -3, -3, 5));
    expect(toi(rod, s, box, still(0, 0))).toEqual(first);
  });
});
