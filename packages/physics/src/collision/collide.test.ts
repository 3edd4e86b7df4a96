import { describe, expect, it } from 'vitest';
import { Capsule } from '../shape/capsule.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Segment } from '../shape/segment.js';
import type { Shape } from '../shape/shape.js';
import { SPECULATIVE_DISTANCE } from './manifold.js';
import { collide, place, type Pt, type Result } from '../test-support/manifolds.js';

function expectNormal(r: Result, nx: number, ny: number): void {
  expect(r.nx).toBeCloseTo(nx, 10);
  expect(r.ny).toBeCloseTo(ny, 10);
}
/** Points sorted by x then y, for order-independent comparison. */
function sorted(r: Result): Pt[] {
  return [...r.points].sort((p, q) => p.x - q.x || p.y - q.y);
}
function expectPoints(r: Result, expected: [number, number, number][]): void {
  expect(r.count).toBe(expected.length);
  const got = sorted(r);
  const want = [...expected].sort((p, q) => p[0] - q[0] || p[1] - q[1]);
  for (let i = 0; i < want.length; i++) {
    expect(got[i]!.x).toBeCloseTo(want[i]![0], 10);
    expect(got[i]!.y).toBeCloseTo(want[i]![1], 10);
    expect(got[i]!.sep).toBeCloseTo(want[i]![2], 10);
  }
}
/** collide(b, a) must give the negated normal and the same points. */
function expectSymmetric(a: Shape, b: Shape): void {
  const ab = collide(a, b);
  const ba = collide(b, a);
  expect(ba.count).toBe(ab.count);
  if (ab.count === 0) return;
  expectNormal(ba, -ab.nx, -ab.ny);
  const p = sorted(ab);
  const q = sorted(ba);
  for (let i = 0; i < p.length; i++) {
    expect(q[i]!.x).toBeCloseTo(p[i]!.x, 10);
    expect(q[i]!.y).toBeCloseTo(p[i]!.y, 10);
    expect(q[i]!.sep).toBeCloseTo(p[i]!.sep, 10);
  }
}

describe('circle vs circle', () => {
  const a = new Circle({ radius: 0.5 });
  const b = new Circle({ radius: 0.5 });
  it('overlapping, touching, within speculative, far', () => {
    place(a);
    place(b, 0.99, 0);
    let r = collide(a, b);
    expectNormal(r, 1, 0);
    expectPoints(r, [[0.495, 0, -0.01]]);
    expect(r.points[0]!.id).toBe(0);
    place(b, 1, 0);
    expectPoints(collide(a, b), [[0.5, 0, 0]]);
    place(b, 0, -1.015);
    r = collide(a, b);
    expectNormal(r, 0, -1);
    expectPoints(r, [[0, -0.5075, 0.015]]);
    place(b, 1.0 + SPECULATIVE_DISTANCE, 0);
    expect(collide(a, b).count).toBe(0);
    place(b, 5, 5);
    expect(collide(a, b).count).toBe(0);
  });
  it('flipped order flips the normal; different radii', () => {
    const big = place(new Circle({ radius: 1 }), 1, 1);
    const small = place(new Circle({ radius: 0.25 }), 1 + 0.6 * 1.2, 1 + 0.8 * 1.2);
    const r = collide(big, small);
    expectNormal(r, 0.6, 0.8);
    expect(r.points[0]!.sep).toBeCloseTo(-0.05, 12);
    expectSymmetric(big, small);
  });
  it('concentric circles still produce a unit normal', () => {
    place(a, 2, 2);
    place(b, 2, 2);
    const r = collide(a, b);
    expect(Math.hypot(r.nx, r.ny)).toBeCloseTo(1, 12);
    expect(r.points[0]!.sep).toBeCloseTo(-1, 12);
  });
});

describe('polygon vs circle', () => {
  const box = Polygon.box(1, 1);
  const c = new Circle({ radius: 0.5 });
  it('face region: overlapping, touching, speculative, far', () => {
    place(box);
    place(c, 0.2, 0.99);
    let r = collide(box, c);
    expectNormal(r, 0, 1);
    expectPoints(r, [[0.2, 0.495, -0.01]]);
    place(c, 0.2, 1);
    expectPoints(collide(box, c), [[0.2, 0.5, 0]]);
    place(c, -1.01, 0.1);
    r = collide(box, c);
    expectNormal(r, -1, 0);
    expectPoints(r, [[-0.505, 0.1, 0.01]]);
    place(c, 0, 1.03);
    expect(collide(box, c).count).toBe(0);
    place(c, 10, 0);
    expect(collide(box, c).count).toBe(0);
  });
  it('vertex region uses the corner-to-centre direction', () => {
    place(box);
    const small = place(new Circle({ radius: 0.49 }), 0.5 + 0.3, 0.5 + 0.4);
    const r = collide(box, small);
    expectNormal(r, 0.6, 0.8);
    expectPoints(r, [[0.5 + 0.6 * 0.005, 0.5 + 0.8 * 0.005, 0.01]]);
  });
  it('centre inside the box: deepest face', () => {
    place(box);
    const small = place(new Circle({ radius: 0.1 }), 0.3, 0.1);
    const r = collide(box, small);
    expectNormal(r, 1, 0);
    expectPoints(r, [[0.35, 0.1, -0.3]]);
  });
  it('circle first: normal flipped; rotated box', () => {
    place(box, 1, 2, 0.6);
    place(c, 1 - Math.sin(0.6) * 0.99, 2 + Math.cos(0.6) * 0.99);
    const r = collide(c, box);
    expectNormal(r, Math.sin(0.6), -Math.cos(0.6));
    expect(r.points[0]!.sep).toBeCloseTo(-0.01, 12);
    expectSymmetric(box, c);
  });
  it('rounded polygon adds its radius', () => {
    const rb = place(Polygon.box(1, 1, { radius: 0.1 }));
    place(c, 0, 1.09);
    const r = collide(rb, c);
    expectNormal(r, 0, 1);
    expectPoints(r, [[0, 0.595, -0.01]]);
  });
});

describe('capsule / segment vs circle', () => {
  const cap = new Capsule({ length: 2, radius: 0.25 });
  const c = new Circle({ radius: 0.5 });
  it('capsule side, end and underside', () => {
    place(cap);
    place(c, 0.3, 0.74);
    let r = collide(cap, c);
    expectNormal(r, 0, 1);
    expectPoints(r, [[0.3, 0.245, -0.01]]);
    place(c, 1.74, 0);
    r = collide(cap, c);
    expectNormal(r, 1, 0);
    expectPoints(r, [[1.245, 0, -0.01]]);
    place(c, -0.2, -0.76);
    r = collide(cap, c);
    expectNormal(r, 0, -1);
    expectPoints(r, [[-0.2, -0.255, 0.01]]);
    place(c, 3, 3);
    expect(collide(cap, c).count).toBe(0);
    place(c, 0.3, 0.74);
    expectSymmetric(cap, c);
  });
  it('circle centre exactly on the core line beyond the end', () => {
    place(cap);
    place(c, -1.7, 0);
    const r = collide(cap, c);
    expectNormal(r, -1, 0);
    expect(r.points[0]!.sep).toBeCloseTo(-0.05, 12);
  });
  it('segment, both sides and its end', () => {
    const seg = place(new Segment({ p1: [-1, 0], p2: [1, 0] }), 0, 1);
    place(c, 0, 1.49);
    let r = collide(seg, c);
    expectNormal(r, 0, 1);
    expectPoints(r, [[0, 0.995, -0.01]]);
    place(c, 0.5, 0.51);
    r = collide(c, seg);
    expectNormal(r, 0, 1); // from circle (below) to segment
    expectPoints(r, [[0.5, 1.005, -0.01]]);
    place(c, 1 + 0.3, 1 - 0.4);
    r = collide(seg, c);
    expectNormal(r, 0.6, -0.8);
    expect(r.points[0]!.sep).toBeCloseTo(0, 12);
  });
});

describe('polygon vs polygon', () => {
  const a = Polygon.box(1, 1);
  const b = Polygon.box(1, 1);
  it('box resting on box: 2 points, exact separation, normal A→B', () => {
    place(a);
    place(b, 0, 0.99);
    const r = collide(a, b);
    expectNormal(r, 0, 1);
    expectPoints(r, [
      [-0.5, 0.495, -0.01],
      [0.5, 0.495, -0.01],
    ]);
    expect(new Set(r.points.map((p) => p.id)).size).toBe(2);
    const f = collide(b, a);
    expectNormal(f, 0, -1);
    expectPoints(f, [
      [-0.5, 0.495, -0.01],
      [0.5, 0.495, -0.01],
    ]);
  });
  it('touching, separated within speculative, far', () => {
    place(a);
    place(b, 0, 1);
    expectPoints(collide(a, b), [
      [-0.5, 0.5, 0],
      [0.5, 0.5, 0],
    ]);
    place(b, 0, 1.01);
    const r = collide(a, b);
    expectNormal(r, 0, 1);
    expectPoints(r, [
      [-0.5, 0.505, 0.01],
      [0.5, 0.505, 0.01],
    ]);
    place(b, 0, 1 + SPECULATIVE_DISTANCE + 1e-9);
    expect(collide(a, b).count).toBe(0);
    place(b, 4, -3);
    expect(collide(a, b).count).toBe(0);
  });
  it('partially offset and wider ground', () => {
    const ground = place(Polygon.box(10, 1), 0, -0.5);
    place(b, 4.8, 0.49);
    const r = collide(ground, b);
    expectNormal(r, 0, 1);
    expectPoints(r, [
      [4.3, -0.005, -0.01],
      [5, -0.005, -0.01],
    ]);
    expectSymmetric(ground, b);
  });
  it('rotated configuration rotates the normal', () => {
    for (const th of [0.3, 1.1, -2.5]) {
      const c = Math.cos(th);
      const s = Math.sin(th);
      place(a, 1, 2, th);
      place(b, 1 - s * 0.99, 2 + c * 0.99, th);
      const r = collide(a, b);
      expect(r.count).toBe(2);
      expectNormal(r, -s, c);
      for (const p of r.points) expect(p.sep).toBeCloseTo(-0.01, 10);
      expectSymmetric(a, b);
    }
  });
  it('box standing on a corner: one point at the corner', () => {
    place(a);
    const d = Math.SQRT1_2;
    place(b, 0.1, 0.5 + d - 0.01, Math.PI / 4);
    const r = collide(a, b);
    expectNormal(r, 0, 1);
    expectPoints(r, [[0.1, 0.495, -0.01]]);
  });
  it('corner over corner, diagonal: one vertex-vertex point', () => {
    place(a);
    place(b, 1.006, 1.008); // B's corner (0.506, 0.508) vs A's corner (0.5, 0.5): distance 0.01
    const r = collide(a, b);
    expectNormal(r, 0.6, 0.8);
    expectPoints(r, [[0.503, 0.504, 0.01]]);
    expect(r.points[0]!.id).toBe((2 << 8) | 0);
    expectSymmetric(a, b);
  });
  it('different polygons: triangle on a rotated regular hexagon face', () => {
    const hex = place(Polygon.regular(1, 6), 0, 0); // flat bottom and top at y = ±√3/2
    const tri = place(new Polygon({ vertices: [[-0.5, 0], [0.5, 0], [0, 0.8]] }), 0.1, Math.sqrt(3) / 2 - 0.02);
    const r = collide(hex, tri);
    expectNormal(r, 0, 1);
    expect(r.count).toBe(2);
    for (const p of r.points) expect(p.sep).toBeCloseTo(-0.02, 10);
  });
  it('rounded polygons: separation is between the rounded surfaces', () => {
    const ra = place(Polygon.box(1, 1, { radius: 0.05 }));
    const rb = place(Polygon.box(1, 1, { radius: 0.05 }), 0, 1.09);
    const r = collide(ra, rb);
    expectNormal(r, 0, 1);
    expectPoints(r, [
      [-0.5, 0.545, -0.01],
      [0.5, 0.545, -0.01],
    ]);
    place(rb, 1 + 0.6 * 0.11, 1 + 0.8 * 0.11); // core corners (0.5,0.5) and (0.566,0.588)
    const v = collide(ra, rb);
    expectNormal(v, 0.6, 0.8);
    expect(v.count).toBe(1);
    expect(v.points[0]!.sep).toBeCloseTo(0.01, 10);
  });
});

describe('capsule and segment pairs', () => {
  const box = Polygon.box(1, 1);
  it('capsule lying on a box: 2 points', () => {
    place(box);
    const cap = place(new Capsule({ length: 0.6, radius: 0.1 }), 0, 0.59);
    const r = collide(box, cap);
    expectNormal(r, 0, 1);
    expectPoints(r, [
      [-0.3, 0.495, -0.01],
      [0.3, 0.495, -0.01],
    ]);
    const f = collide(cap, box);
    expectNormal(f, 0, -1);
    expect(f.count).toBe(2);
    expectSymmetric(box, cap);
  });
  it('capsule end vs polygon corner: one point along the corner-to-centre direction', () => {
    place(box);
    for (const [dist, sep] of [
      [0.2, 0.01],
      [0.18, -0.01],
    ] as const) {
      const cap = place(new Capsule({ p1: [0, 0], p2: [0, 1], radius: 0.19 }), 0.5 + 0.6 * dist, 0.5 + 0.8 * dist);
      const r = collide(box, cap);
      expectNormal(r, 0.6, 0.8);
      expect(r.count).toBe(1);
      expect(r.points[0]!.sep).toBeCloseTo(sep, 10);
      // midway between corner + 0 and the cap surface
      expect(r.points[0]!.x).toBeCloseTo(0.5 + 0.6 * (0.5 * (dist - 0.19)), 10);
      expect(r.points[0]!.y).toBeCloseTo(0.5 + 0.8 * (0.5 * (dist - 0.19)), 10);
      expectSymmetric(box, cap);
    }
  });
  it('capsule standing on its end: one point', () => {
    place(box);
    const cap = place(new Capsule({ length: 1, radius: 0.2 }), 0.1, 0.5 + 0.2 + 0.5 - 0.01, Math.PI / 2);
    const r = collide(box, cap);
    expectNormal(r, 0, 1);
    expectPoints(r, [[0.1, 0.495, -0.01]]);
  });
  it('capsule vs capsule: parallel, end-on, far', () => {
    const a = place(new Capsule({ length: 2, radius: 0.25 }));
    const b = place(new Capsule({ length: 1, radius: 0.25 }), 0.5, 0.49);
    let r = collide(a, b);
    expectNormal(r, 0, 1);
    expectPoints(r, [
      [0, 0.245, -0.01],
      [1, 0.245, -0.01],
    ]);
    place(b, 0.3, 0.49 + 0.5, Math.PI / 2); // vertical, lower centre at (0.3, 0.49)
    r = collide(a, b);
    expectNormal(r, 0, 1);
    expectPoints(r, [[0.3, 0.245, -0.01]]);
    place(b, 1.5 + 0.49, 0, 0); // end to end along x
    r = collide(a, b);
    expectNormal(r, 1, 0);
    expectPoints(r, [[1.245, 0, -0.01]]);
    expectSymmetric(a, b);
    place(b, 0, 3);
    expect(collide(a, b).count).toBe(0);
  });
  it('segment ground vs box, capsule and segment', () => {
    const ground = place(new Segment({ p1: [-5, 0], p2: [5, 0] }));
    const b = place(Polygon.box(1, 1), 1, 0.49);
    let r = collide(ground, b);
    expectNormal(r, 0, 1);
    expectPoints(r, [
      [0.5, -0.005, -0.01],
      [1.5, -0.005, -0.01],
    ]);
    expectSymmetric(ground, b);
    place(b, 1, -0.49); // below the two-sided segment, overlapping it by 1 cm
    r = collide(ground, b);
    expectNormal(r, 0, -1);
    expect(r.count).toBe(2);
    for (const p of r.points) expect(p.sep).toBeCloseTo(-0.01, 10);
    const cap = place(new Capsule({ length: 1, radius: 0.1 }), -2, 0.105);
    r = collide(ground, cap);
    expectNormal(r, 0, 1);
    expectPoints(r, [
      [-2.5, 0.0025, 0.005],
      [-1.5, 0.0025, 0.005],
    ]);
    const seg = place(new Segment({ p1: [0, 0], p2: [1, 0] }), 0, 0.01);
    r = collide(ground, seg);
    expectNormal(r, 0, 1);
    expect(r.count).toBe(2);
    for (const p of r.points) expect(p.sep).toBeCloseTo(0.01, 10);
    place(seg, 0, 1);
    expect(collide(ground, seg).count).toBe(0);
  });
  it('far apart: every pair of kinds reports nothing', () => {
    const make = (): Shape[] => [
      new Circle({ radius: 0.5 }),
      Polygon.box(1, 1),
      new Capsule({ length: 1, radius: 0.2 }),
      new Segment({ p1: [-0.5, 0], p2: [0.5, 0] }),
      Polygon.regular(0.5, 5, { radius: 0.05 }),
    ];
    const others = make();
    for (const s of make()) {
      for (const t of others) {
        place(s, 0, 0);
        place(t, 3, 1);
        expect(collide(s, t).count).toBe(0);
      }
    }
  });
});

describe('capsule pairs: flat vs tilted, crossing', () => {
  it('near-parallel capsules keep 2 points; a clearly tilted one gets 1 with the same id for the touching end', () => {
    const a = place(new Capsule({ length: 3, radius: 0.2 }));
    const b = new Capsule({ length: 1, radius: 0.2 });
    // B's end 0 (left) is the lower one when tilted by a positive angle
    const lowEndY = (tilt: number): number => 0.39 + 0.5 * Math.sin(tilt);
    place(b, 0, lowEndY(0.01), 0.01);
    const flat = collide(a, b);
    expectNormal(flat, 0, 1);
    expect(flat.count).toBe(2);
    const lowFlat = flat.points.reduce((p, q) => (p.sep < q.sep ? p : q));
    expect(lowFlat.sep).toBeCloseTo(-0.01, 10);
    place(b, 0, lowEndY(0.3), 0.3);
    const tilted = collide(a, b);
    expect(tilted.count).toBe(1);
    expectNormal(tilted, 0, 1);
    expect(tilted.points[0]!.sep).toBeCloseTo(-0.01, 10);
    expect(tilted.points[0]!.id).toBe(lowFlat.id);
  });
  it('crossing cores: unit normal and a deep point', () => {
    const a = place(new Capsule({ length: 2, radius: 0.1 }));
    const b = place(new Capsule({ length: 2, radius: 0.1 }), 0, 0.3, 1.2);
    const r = collide(a, b);
    expect(r.count).toBeGreaterThan(0);
    expect(Math.hypot(r.nx, r.ny)).toBeCloseTo(1, 12);
    expect(Math.min(...r.points.map((p) => p.sep))).toBeLessThan(-0.2);
  });
  it('rounded polygon vs capsule', () => {
    const p = place(Polygon.box(2, 1, { radius: 0.1 }));
    const cap = place(new Capsule({ length: 1, radius: 0.2 }), 0.2, 0.5 + 0.1 + 0.2 - 0.01);
    const r = collide(p, cap);
    expectNormal(r, 0, 1);
    expectPoints(r, [
      [-0.3, 0.595, -0.01],
      [0.7, 0.595, -0.01],
    ]);
  });
});

describe('feature ids', () => {
  it('stable under small motion for box on ground', () => {
    const ground = place(Polygon.box(10, 1), 0, -0.5);
    const b = Polygon.box(1, 1);
    place(b, 0, 0.49);
    const ids = collide(ground, b).points.map((p) => p.id).sort();
    for (let k = 0; k < 50; k++) {
      const x = -0.3 + 0.012 * k;
      const angle = 0.002 * Math.sin(k);
      place(b, x, 0.495 + 0.004 * Math.cos(k), angle);
      const r = collide(ground, b);
      expect(r.count).toBe(2);
      expect(r.points.map((p) => p.id).sort()).toEqual(ids);
    }
  });
  it('stable under small motion for capsule on box and box on box', () => {
    const ground = place(Polygon.box(4, 1), 0, -0.5);
    const cap = new Capsule({ length: 1, radius: 0.2 });
    const b = Polygon.box(1, 1);
    place(cap, 0, 0.19);
    place(b, 0.2, 0.495);
    const capIds = collide(ground, cap).points.map((p) => p.id).sort();
    const boxIds = collide(cap, b).points.map((p) => p.id).sort();
    expect(capIds.length).toBe(2);
    for (let k = 0; k < 30; k++) {
      place(cap, 0.01 * k, 0.19 + 0.003 * Math.sin(k), 0.001 * Math.cos(k));
      place(b, 0.2 + 0.01 * k, 0.585 + 0.003 * Math.cos(k), 0.001 * Math.sin(k));
      expect(collide(ground, cap).points.map((p) => p.id).sort()).toEqual(capIds);
      expect(collide(cap, b).points.map((p) => p.id).sort()).toEqual(boxIds);
    }
  });
});
