import { describe, expect, it } from 'vitest';
import { Capsule } from '../shape/capsule.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Segment } from '../shape/segment.js';
import type { Shape } from '../shape/shape.js';
import { mulberry32 } from '../test-support/random.js';
import { FulcrumInputError } from '../util/validate.js';
import { closestPointOnSegment, closestPointResult, segmentDistance, segmentDistanceResult } from './distance.js';
import { DistanceOutput, DistanceProxy, setProxyFromPoints, setProxyFromShape, shapeDistance, type Transform } from './gjk.js';

function proxyOf(shape: Shape): DistanceProxy {
  const p = new DistanceProxy();
  setProxyFromShape(p, shape);
  return p;
}
function pointsProxy(points: number[], radius = 0): DistanceProxy {
  const p = new DistanceProxy();
  setProxyFromPoints(p, points, points.length / 2, radius);
  return p;
}
function xf(x = 0, y = 0, angle = 0): Transform {
  return { x, y, c: Math.cos(angle), s: Math.sin(angle) };
}
function distance(a: DistanceProxy, xa: Transform, b: DistanceProxy, xb: Transform): DistanceOutput {
  const out = new DistanceOutput();
  shapeDistance(a, xa, b, xb, out);
  return out;
}

/** A proxy's core in world coordinates, x, y interleaved. */
function worldCore(p: DistanceProxy, t: Transform): number[] {
  const w: number[] = [];
  for (let i = 0; i < p.count; i++) {
    const x = p.verts[2 * i]!;
    const y = p.verts[2 * i + 1]!;
    w.push(t.x + t.c * x - t.s * y, t.y + t.s * x + t.c * y);
  }
  return w;
}
/** Edges of a core as index pairs: a point is a zero-length edge, two points one edge, else the closed loop. */
function edges(n: number): [number, number][] {
  if (n === 1) return [[0, 0]];
  if (n === 2) return [[0, 1]];
  return Array.from({ length: n }, (_, i) => [i, (i + 1) % n] as [number, number]);
}
/** Minimum over all edge pairs of the segment-to-segment distance (the core distance when the cores are disjoint). */
function bruteEdgeDistance(a: number[], b: number[]): number {
  let best = Infinity;
  for (const [i, j] of edges(a.length / 2)) {
    for (const [k, l] of edges(b.length / 2)) {
      segmentDistance(a[2 * i]!, a[2 * i + 1]!, a[2 * j]!, a[2 * j + 1]!, b[2 * k]!, b[2 * k + 1]!, b[2 * l]!, b[2 * l + 1]!);
      best = Math.min(best, Math.sqrt(segmentDistanceResult.distanceSquared));
    }
  }
  return best;
}
/** Is the point inside (or on) a CCW convex core of ≥ 3 vertices? */
function insideConvex(core: number[], x: number, y: number): boolean {
  const n = core.length / 2;
  if (n < 3) return false;
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    const ex = core[2 * j]! - core[2 * i]!;
    const ey = core[2 * j + 1]! - core[2 * i + 1]!;
    if (ex * (y - core[2 * i + 1]!) - ey * (x - core[2 * i]!) < 0) return false;
  }
  return true;
}
/** Distance from a point to a core (0 inside a ≥ 3-vertex core). */
function pointToCore(core: number[], x: number, y: number): number {
  if (insideConvex(core, x, y)) return 0;
  let best = Infinity;
  for (const [i, j] of edges(core.length / 2)) {
    closestPointOnSegment(x, y, core[2 * i]!, core[2 * i + 1]!, core[2 * j]!, core[2 * j + 1]!, closestPointResult);
    best = Math.min(best, Math.sqrt(closestPointResult.distanceSquared));
  }
  return best;
}
function coresOverlap(a: number[], b: number[]): boolean {
  return bruteEdgeDistance(a, b) === 0 || insideConvex(a, b[0]!, b[1]!) || insideConvex(b, a[0]!, a[1]!);
}
/** Every output invariant that does not need the answer: points on the cores, consistent distance and normal. */
function expectConsistent(r: DistanceOutput, a: DistanceProxy, xa: Transform, b: DistanceProxy, xb: Transform, tol = 1e-9): void {
  expect(pointToCore(worldCore(a, xa), r.coreAX, r.coreAY)).toBeLessThan(tol);
  expect(pointToCore(worldCore(b, xb), r.coreBX, r.coreBY)).toBeLessThan(tol);
  expect(r.distance).toBeCloseTo(r.coreDistance - a.radius - b.radius, 12);
  if (r.coreDistance > 0) {
    expect(Math.hypot(r.coreBX - r.coreAX, r.coreBY - r.coreAY)).toBeCloseTo(r.coreDistance, 12);
    expect(Math.hypot(r.normalX, r.normalY)).toBeCloseTo(1, 12);
    expect(r.normalX * (r.coreBX - r.coreAX) + r.normalY * (r.coreBY - r.coreAY)).toBeCloseTo(r.coreDistance, 12);
    expect(r.pointAX).toBeCloseTo(r.coreAX + a.radius * r.normalX, 12);
    expect(r.pointAY).toBeCloseTo(r.coreAY + a.radius * r.normalY, 12);
    expect(r.pointBX).toBeCloseTo(r.coreBX - b.radius * r.normalX, 12);
    expect(r.pointBY).toBeCloseTo(r.coreBY - b.radius * r.normalY, 12);
  } else {
    expect([r.normalX, r.normalY]).toEqual([0, 0]);
  }
}

describe('shapeDistance: analytic cases', () => {
  it('two circles: exact distance, surface points and normal', () => {
    const a = proxyOf(new Circle({ radius: 0.5, offset: { x: 1, y: 0 } }));
    const b = proxyOf(new Circle({ radius: 0.25 }));
    // A's centre at (1, 1) (body origin (0, 1)); B's centre at (4, 5): centres 5 apart along (0.6, 0.8).
    const xa = xf(0, 1);
    const xb = xf(4, 5, 0.7);
    const r = distance(a, xa, b, xb);
    expect(r.coreDistance).toBeCloseTo(5, 12);
    expect(r.distance).toBeCloseTo(4.25, 12);
    expect(r.normalX).toBeCloseTo(0.6, 12);
    expect(r.normalY).toBeCloseTo(0.8, 12);
    expect([r.coreAX, r.coreAY, r.coreBX, r.coreBY]).toEqual([1, 1, 4, 5]);
    expect(r.pointAX).toBeCloseTo(1 + 0.5 * 0.6, 12);
    expect(r.pointAY).toBeCloseTo(1 + 0.5 * 0.8, 12);
    expect(r.pointBX).toBeCloseTo(4 - 0.25 * 0.6, 12);
    expect(r.pointBY).toBeCloseTo(5 - 0.25 * 0.8, 12);
  });

  it('circle vs box, point to face: the face normal and the perpendicular distance', () => {
    const box = proxyOf(Polygon.box(2, 1)); // core [-1, 1] × [-0.5, 0.5]
    const ball = proxyOf(new Circle({ radius: 0.2 }));
    const xBox = xf(3, -2);
    const r = distance(box, xBox, ball, xf(3 + 0.3, -2 + 0.5 + 0.75));
    expect(r.coreDistance).toBeCloseTo(0.75, 12);
    expect(r.distance).toBeCloseTo(0.55, 12);
    expect(r.normalX).toBeCloseTo(0, 12);
    expect(r.normalY).toBeCloseTo(1, 12);
    expect(r.coreAX).toBeCloseTo(3.3, 12);
    expect(r.coreAY).toBeCloseTo(-1.5, 12);
    expectConsistent(r, box, xBox, ball, xf(3.3, -0.75));
  });

  it('circle vs box, point to corner: the distance to the corner', () => {
    const box = proxyOf(Polygon.box(2, 1));
    const ball = proxyOf(new Circle({ radius: 0.2 }));
    // Box turned 90°: its core is [-0.5, 0.5] × [-1, 1]; corner (0.5, 1). Ball 0.3, 0.4 beyond it.
    const xBox = xf(0, 0, Math.PI / 2);
    const xBall = xf(0.8, 1.4);
    const r = distance(box, xBox, ball, xBall);
    expect(r.coreDistance).toBeCloseTo(0.5, 12);
    expect(r.distance).toBeCloseTo(0.3, 12);
    expect(r.normalX).toBeCloseTo(0.6, 12);
    expect(r.normalY).toBeCloseTo(0.8, 12);
    expect(r.coreAX).toBeCloseTo(0.5, 12);
    expect(r.coreAY).toBeCloseTo(1, 12);
    expectConsistent(r, box, xBox, ball, xBall);
  });

  it('rotated boxes: equal to the brute-force minimum over all edge pairs', () => {
    const a = proxyOf(Polygon.box(2, 1, { radius: 0.05 }));
    const b = proxyOf(Polygon.box(0.7, 1.6, { offset: { x: 0.2, y: -0.1 }, angle: 0.3 }));
    for (let k = 0; k < 24; k++) {
      const angleA = 0.37 * k;
      const angleB = -0.61 * k + 0.1;
      const dir = (2 * Math.PI * k) / 24;
      const xa = xf(1, 2, angleA);
      const xb = xf(1 + 2.6 * Math.cos(dir), 2 + 2.6 * Math.sin(dir), angleB);
      const wa = worldCore(a, xa);
      const wb = worldCore(b, xb);
      expect(coresOverlap(wa, wb)).toBe(false);
      const r = distance(a, xa, b, xb);
      expect(Math.abs(r.coreDistance - bruteEdgeDistance(wa, wb))).toBeLessThan(1e-12);
      expect(r.distance).toBeCloseTo(r.coreDistance - 0.05, 12);
      expectConsistent(r, a, xa, b, xb);
    }
  });

  it('capsule vs segment: parallel (face to face), turned, and end to end', () => {
    const capsule = proxyOf(new Capsule({ length: 2, radius: 0.25 }));
    const segment = proxyOf(new Segment({ p1: { x: -3, y: 0 }, p2: { x: 3, y: 0 } }));
    // Parallel, 1 above: core distance 1 along +y.
    let r = distance(segment, xf(), capsule, xf(0.5, 1));
    expect(r.coreDistance).toBeCloseTo(1, 12);
    expect(r.distance).toBeCloseTo(0.75, 12);
    expect(r.normalX).toBeCloseTo(0, 12);
    expect(r.normalY).toBeCloseTo(1, 12);
    // Upright over the segment: the lower end (0, 1) is nearest, at distance 1.
    r = distance(segment, xf(), capsule, xf(0, 2, Math.PI / 2));
    expect(r.coreDistance).toBeCloseTo(1, 12);
    expect(r.coreBX).toBeCloseTo(0, 12);
    expect(r.coreBY).toBeCloseTo(1, 12);
    // Collinear, end to end: the capsule's core starts 1 m past the segment's end.
    r = distance(segment, xf(), capsule, xf(5, 0));
    expect(r.coreDistance).toBeCloseTo(1, 12);
    expect(r.normalX).toBeCloseTo(1, 12);
    expect(r.coreAX).toBeCloseTo(3, 12);
    expect(r.coreBX).toBeCloseTo(4, 12);
    // Beyond the end and above: end point (3, 0) to end point (4, 1).
    r = distance(segment, xf(), capsule, xf(5, 1));
    expect(r.coreDistance).toBeCloseTo(Math.SQRT2, 12);
    expect(r.distance).toBeCloseTo(Math.SQRT2 - 0.25, 12);
  });
});

describe('shapeDistance: overlap and degenerate cores', () => {
  it('overlapping cores: core distance 0, rounded distance −(rA + rB), no normal', () => {
    const a = proxyOf(Polygon.box(2, 2, { radius: 0.1 }));
    const b = proxyOf(Polygon.box(1, 1));
    for (const [x, y, angle] of [[0, 0, 0], [0.9, 0.2, 0.5], [1.2, 1.2, 0.785], [-0.4, 1.3, 2]] as const) {
      const r = distance(a, xf(), b, xf(x, y, angle));
      expect(r.coreDistance).toBe(0);
      expect(r.distance).toBeCloseTo(-0.1, 12);
      expect([r.normalX, r.normalY]).toEqual([0, 0]);
      // The reported points are a common point of both cores.
      expect(pointToCore(worldCore(a, xf()), r.coreAX, r.coreAY)).toBeLessThan(1e-9);
      expect(pointToCore(worldCore(b, xf(x, y, angle)), r.coreBX, r.coreBY)).toBeLessThan(1e-9);
    }
  });

  it('crossing segments overlap; a circle centre on a segment overlaps', () => {
    const s1 = pointsProxy([-1, 0, 1, 0]);
    const s2 = pointsProxy([0, -1, 0, 1]);
    expect(distance(s1, xf(), s2, xf(0.3, 0.2)).coreDistance).toBe(0);
    const dot = pointsProxy([0, 0], 0.5);
    const r = distance(s1, xf(), dot, xf(0.25, 0));
    expect(r.coreDistance).toBe(0);
    expect(r.distance).toBe(-0.5);
  });

  it('overlapping rounded shapes with disjoint cores: exact negative distance', () => {
    const a = proxyOf(new Circle({ radius: 1 }));
    const b = proxyOf(new Capsule({ length: 4, radius: 0.5 }));
    const r = distance(a, xf(), b, xf(0.3, 1.2)); // capsule core y = 1.2, covers x ∈ [-1.7, 2.3]
    expect(r.coreDistance).toBeCloseTo(1.2, 12);
    expect(r.distance).toBeCloseTo(-0.3, 12);
    expect(r.normalY).toBeCloseTo(1, 12);
    // Surface points cross over: A's is above B's by the overlap.
    expect(r.pointAY - r.pointBY).toBeCloseTo(0.3, 12);
  });

  it('point to point, point to segment (interior and end), and coincident points', () => {
    const p = pointsProxy([0, 0]);
    const q = pointsProxy([0, 0], 0.1);
    let r = distance(p, xf(1, 1), q, xf(4, 5));
    expect(r.coreDistance).toBeCloseTo(5, 12);
    expect(r.distance).toBeCloseTo(4.9, 12);
    const seg = pointsProxy([-1, 0, 1, 0]);
    r = distance(seg, xf(), q, xf(0.3, -2));
    expect(r.coreDistance).toBeCloseTo(2, 12);
    expect(r.coreAX).toBeCloseTo(0.3, 12);
    expect(r.normalY).toBeCloseTo(-1, 12);
    r = distance(seg, xf(), q, xf(4, 4));
    expect(r.coreDistance).toBeCloseTo(5, 12);
    // A "segment" whose two points coincide behaves as a point; repeated vertices change nothing.
    const doubled = pointsProxy([0.5, 0.5, 0.5, 0.5]);
    r = distance(doubled, xf(), seg, xf(0, -1));
    expect(r.coreDistance).toBeCloseTo(1.5, 12);
    const repeated = pointsProxy([0, 0, 1, 0, 1, 0, 1, 1, 0, 1, 0, 0]);
    const square = pointsProxy([0, 0, 1, 0, 1, 1, 0, 1]);
    for (const [x, y] of [[3, 0.5], [2, 2], [-0.5, -3], [0.5, 0.5]] as const) {
      expect(distance(repeated, xf(), q, xf(x, y)).coreDistance).toBeCloseTo(distance(square, xf(), q, xf(x, y)).coreDistance, 12);
    }
  });

  it('collinear segments, apart and overlapping', () => {
    const a = pointsProxy([0, 0, 2, 0]);
    const b = pointsProxy([0, 0, 1, 0]);
    let r = distance(a, xf(), b, xf(3.5, 0));
    expect(r.coreDistance).toBeCloseTo(1.5, 12);
    expect(r.normalX).toBeCloseTo(1, 12);
    r = distance(a, xf(), b, xf(1.5, 0)); // overlapping along the line
    expect(r.coreDistance).toBe(0);
  });

  it('points need no order or convexity: the convex hull counts', () => {
    const hull = pointsProxy([0, 0, 2, 0, 2, 2, 0, 2]);
    const scrambled = pointsProxy([2, 2, 1, 1, 0, 0, 0, 2, 2, 0, 1.5, 0.5]);
    const q = pointsProxy([0, 0]);
    for (const [x, y] of [[3, 1], [-1, -1], [1, 5], [2.5, 2.5]] as const) {
      expect(distance(scrambled, xf(), q, xf(x, y)).coreDistance).toBeCloseTo(distance(hull, xf(), q, xf(x, y)).coreDistance, 12);
    }
  });
});

describe('shapeDistance: properties', () => {
  it('swapping A and B keeps the distance and negates the normal', () => {
    const a = proxyOf(Polygon.regular(0.8, 7, { radius: 0.02 }));
    const b = proxyOf(new Capsule({ length: 1.5, radius: 0.1 }));
    const xa = xf(0.2, -0.3, 0.4);
    const xb = xf(2.1, 0.9, -1.1);
    const ab = distance(a, xa, b, xb);
    const ba = distance(b, xb, a, xa);
    expect(ba.coreDistance).toBeCloseTo(ab.coreDistance, 12);
    expect(ba.normalX).toBeCloseTo(-ab.normalX, 12);
    expect(ba.normalY).toBeCloseTo(-ab.normalY, 12);
    expect(ba.pointAX).toBeCloseTo(ab.pointBX, 12);
    expect(ba.pointBY).toBeCloseTo(ab.pointAY, 12);
  });

  it('is deterministic: the same query gives bit-identical results after other queries', () => {
    const a = proxyOf(Polygon.regular(1, 64));
    const b = proxyOf(Polygon.regular(0.5, 5, { radius: 0.1 }));
    const first = distance(a, xf(0, 0, 0.1), b, xf(1.9, 0.7, 0.3));
    distance(b, xf(5, 5), a, xf(-3, 0.2, 2));
    const again = distance(a, xf(0, 0, 0.1), b, xf(1.9, 0.7, 0.3));
    expect(again).toEqual(first);
  });

  it('far from the world origin it is as precise as near it', () => {
    const a = proxyOf(Polygon.box(1, 1));
    const b = proxyOf(new Circle({ radius: 0.1 }));
    const near = distance(a, xf(0, 0, 0.3), b, xf(1.2, 0.4));
    const far = distance(a, xf(1e6, -1e6, 0.3), b, xf(1e6 + 1.2, -1e6 + 0.4));
    expect(Math.abs(far.coreDistance - near.coreDistance)).toBeLessThan(1e-9);
  });

  it('randomized (seeded): the core distance matches brute force over edge pairs within 1e-9, also nearly touching; 0 when a core holds a vertex of the other', () => {
    const rnd = mulberry32(20240607);
    /** A random convex core of n points (on a circle, distinct angles sorted CCW), in the body frame. */
    const randomCore = (n: number): number[] => {
      const radius = 0.1 + 1.5 * rnd();
      const cx = rnd() - 0.5;
      const cy = rnd() - 0.5;
      const angles = Array.from({ length: n }, () => 2 * Math.PI * rnd()).sort((p, q) => p - q);
      return angles.flatMap((a) => [cx + radius * Math.cos(a), cy + radius * Math.sin(a)]);
    };
    const counts = [1, 2, 3, 4, 5, 8, 16, 64];
    const a = new DistanceProxy();
    const b = new DistanceProxy();
    const out = new DistanceOutput();
    let separated = 0;
    let overlapping = 0;
    let maxIterations = 0;
    for (let k = 0; k < 3000; k++) {
      const ca = randomCore(counts[Math.floor(rnd() * counts.length)]!);
      const cb = randomCore(counts[Math.floor(rnd() * counts.length)]!);
      setProxyFromPoints(a, ca, ca.length / 2, 0.2 * rnd());
      setProxyFromPoints(b, cb, cb.length / 2, 0.2 * rnd());
      const xa = xf(10 * rnd() - 5, 10 * rnd() - 5, 6.3 * rnd());
      const dir = 2 * Math.PI * rnd();
      const range = 3.5 * rnd();
      const xb = xf(xa.x + range * Math.cos(dir), xa.y + range * Math.sin(dir), 6.3 * rnd());
      shapeDistance(a, xa, b, xb, out);
      maxIterations = Math.max(maxIterations, out.iterations);
      const wa = worldCore(a, xa);
      const wb = worldCore(b, xb);
      const brute = bruteEdgeDistance(wa, wb);
      // With a vertex of one core inside the other the edge distance says nothing: GJK must say 0.
      const contained = insideConvex(wa, wb[0]!, wb[1]!) || insideConvex(wb, wa[0]!, wa[1]!);
      if (contained) expect(out.coreDistance).toBe(0);
      else expect(Math.abs(out.coreDistance - brute)).toBeLessThan(1e-9);
      if (contained || brute < 1e-12) {
        overlapping++;
      } else {
        separated++;
        // Slide B back along the normal until the cores are nearly touching: the normal is a
        // separating axis, so they end exactly `gap` apart — where GJK's termination is delicate.
        const gap = [1e-3, 1e-6, 1e-9][k % 3]!;
        const shift = out.coreDistance - gap;
        const xNear = { ...xb, x: xb.x - shift * out.normalX, y: xb.y - shift * out.normalY };
        shapeDistance(a, xa, b, xNear, out);
        expect(Math.abs(out.coreDistance - gap)).toBeLessThan(1e-9);
        shapeDistance(a, xa, b, xb, out);
      }
      expectConsistent(out, a, xa, b, xb);
    }
    // Both branches were exercised, and GJK stayed far from its cycling cap.
    expect(separated).toBeGreaterThan(1000);
    expect(overlapping).toBeGreaterThan(300);
    expect(maxIterations).toBeLessThan(20);
  });
});

describe('distance proxies', () => {
  it('copies each shape kind: circle centre and radius, polygon/capsule/segment core and radius', () => {
    const circle = proxyOf(new Circle({ radius: 0.3, offset: { x: 1, y: -2 } }));
    expect([circle.count, circle.radius, circle.verts[0], circle.verts[1]]).toEqual([1, 0.3, 1, -2]);
    const shapes = [
      Polygon.box(1, 2, { offset: { x: 0.5, y: 0 }, angle: 0.3, radius: 0.05 }),
      new Capsule({ p1: { x: 0, y: 0 }, p2: { x: 1, y: 1 }, radius: 0.2 }),
      new Segment({ p1: { x: -1, y: 0 }, p2: { x: 2, y: 3 } }),
    ];
    for (const s of shapes) {
      const p = proxyOf(s);
      expect(p.count).toBe(s.count);
      expect(p.radius).toBe(s.radius);
      expect(Array.from(p.verts.subarray(0, 2 * p.count))).toEqual(Array.from(s.localVerts));
    }
  });

  it('a proxy can be refilled with a smaller shape', () => {
    const p = proxyOf(Polygon.regular(1, 12));
    setProxyFromShape(p, new Circle({ radius: 0.5 }));
    expect(p.count).toBe(1);
    const r = distance(p, xf(), p, xf(3, 0));
    expect(r.coreDistance).toBeCloseTo(3, 12);
  });

  it('setProxyFromPoints rejects bad input with FulcrumInputError', () => {
    const p = new DistanceProxy();
    expect(() => setProxyFromPoints(p, [], 0, 0)).toThrow(FulcrumInputError);
    expect(() => setProxyFromPoints(p, new Array(130).fill(0), 65, 0)).toThrow(FulcrumInputError);
    expect(() => setProxyFromPoints(p, [0, 0, 1], 2, 0)).toThrow(/points\.length/);
    expect(() => setProxyFromPoints(p, [0, NaN], 1, 0)).toThrow(FulcrumInputError);
    expect(() => setProxyFromPoints(p, [0, 0], 1, -1)).toThrow(/radius/);
  });

  it('an empty proxy is rejected', () => {
    expect(() => distance(new DistanceProxy(), xf(), pointsProxy([0, 0]), xf())).toThrow(FulcrumInputError);
  });
});
