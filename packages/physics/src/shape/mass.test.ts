import { describe, expect, it } from 'vitest';
import { Capsule } from './capsule.js';
import { Circle } from './circle.js';
import { Polygon } from './polygon.js';
import { Segment } from './segment.js';
import type { MassData, Shape } from './shape.js';

/**
 * Midpoint-grid integration of density over the shape via containsPoint (world = body frame),
 * giving mass, centroid and inertia about the body origin independently of computeMass.
 */
function integrate(shape: Shape, density: number, cells = 900): MassData {
  shape.updateWorld(0, 0, 1, 0);
  const x0 = shape.aabbMinX;
  const y0 = shape.aabbMinY;
  const hx = (shape.aabbMaxX - x0) / cells;
  const hy = (shape.aabbMaxY - y0) / cells;
  let m = 0;
  let sx = 0;
  let sy = 0;
  let j = 0;
  const dm = density * hx * hy;
  for (let i = 0; i < cells; i++) {
    const x = x0 + (i + 0.5) * hx;
    for (let k = 0; k < cells; k++) {
      const y = y0 + (k + 0.5) * hy;
      if (!shape.containsPoint(x, y)) continue;
      m += dm;
      sx += dm * x;
      sy += dm * y;
      // each cell's own inertia (h²/12 per axis) keeps the estimate unbiased
      j += dm * (x * x + y * y + (hx * hx + hy * hy) / 12);
    }
  }
  return { mass: m, cx: sx / m, cy: sy / m, inertia: j };
}

function expectClose(actual: MassData, expected: MassData, rel: number): void {
  const scale = Math.sqrt(expected.inertia / expected.mass); // radius of gyration about the origin
  expect(Math.abs(actual.mass - expected.mass) / expected.mass).toBeLessThan(rel);
  expect(Math.abs(actual.cx - expected.cx) / scale).toBeLessThan(rel);
  expect(Math.abs(actual.cy - expected.cy) / scale).toBeLessThan(rel);
  expect(Math.abs(actual.inertia - expected.inertia) / expected.inertia).toBeLessThan(rel);
}

describe('mass properties', () => {
  it('box: closed form (about the body origin, parallel axis)', () => {
    const box = Polygon.box(2, 1, { density: 3, offset: [1, 2], angle: 0.3 });
    const md = box.computeMass();
    const m = 3 * 2 * 1;
    expect(md.mass).toBeCloseTo(m, 12);
    expect(md.cx).toBeCloseTo(1, 12);
    expect(md.cy).toBeCloseTo(2, 12);
    expect(md.inertia).toBeCloseTo((m * (4 + 1)) / 12 + m * 5, 10);
  });

  it('box: matches grid integration', () => {
    const box = Polygon.box(2, 1, { density: 3, offset: [1, 2], angle: 0.3 });
    expectClose(box.computeMass(), integrate(box, 3), 3e-3);
  });

  it('circle: closed form and grid integration', () => {
    const c = new Circle({ radius: 0.7, density: 2, offset: [-0.5, 1.5] });
    const md = c.computeMass();
    const m = 2 * Math.PI * 0.49;
    expect(md.mass).toBeCloseTo(m, 12);
    expect(md.cx).toBe(-0.5);
    expect(md.cy).toBe(1.5);
    expect(md.inertia).toBeCloseTo(m * (0.49 / 2 + 0.25 + 2.25), 10);
    expectClose(md, integrate(c, 2), 3e-3);
  });

  it('capsule: Box2D v3 closed form (rectangle + two offset half discs)', () => {
    const r = 0.3;
    const L = 1.4;
    const cap = new Capsule({ length: L, radius: r, density: 1.5, offset: [0.4, -0.2], angle: 0.8 });
    const md = cap.computeMass();
    const rho = 1.5;
    const circleMass = rho * Math.PI * r * r;
    const boxMass = rho * 2 * r * L;
    const lc = (4 * r) / (3 * Math.PI);
    const h = L / 2;
    const iCenter = circleMass * (0.5 * r * r + h * h + 2 * h * lc) + (boxMass * (4 * r * r + L * L)) / 12;
    const mass = circleMass + boxMass;
    expect(md.mass).toBeCloseTo(mass, 12);
    expect(md.cx).toBeCloseTo(0.4, 12);
    expect(md.cy).toBeCloseTo(-0.2, 12);
    expect(md.inertia).toBeCloseTo(iCenter + mass * (0.16 + 0.04), 10);
  });

  it('capsule from p1/p2: matches grid integration', () => {
    const cap = new Capsule({ p1: [-0.3, 0.2], p2: [0.9, 0.7], radius: 0.25, density: 2 });
    expectClose(cap.computeMass(), integrate(cap, 2), 3e-3);
  });

  it('regular polygon: area formula and grid integration', () => {
    const r = 0.8;
    const p = Polygon.regular(r, 7, { density: 1.2, offset: [0.3, 0.1], angle: 1 });
    const md = p.computeMass();
    expect(md.mass).toBeCloseTo(1.2 * 3.5 * r * r * Math.sin((2 * Math.PI) / 7), 12);
    expect(md.cx).toBeCloseTo(0.3, 12);
    expect(md.cy).toBeCloseTo(0.1, 12);
    expectClose(md, integrate(p, 1.2), 3e-3);
  });

  it('irregular convex polygon: matches grid integration', () => {
    const p = new Polygon({ vertices: [[0, 0], [2, 0.2], [2.4, 1.1], [1, 1.8], [-0.3, 0.9]], density: 0.7, offset: [-1, 0.5], angle: -0.4 });
    expectClose(p.computeMass(), integrate(p, 0.7), 3e-3);
  });

  it('rounded polygon: exact decomposition matches grid integration', () => {
    const p = new Polygon({ vertices: [[0, 0], [1.5, 0], [0.4, 1]], radius: 0.2, density: 2, offset: [0.5, 0.5] });
    const md = p.computeMass();
    // area = core + perimeter·r + π r²
    const perim = 1.5 + Math.hypot(1.1, 1) + Math.hypot(0.4, 1);
    expect(md.mass).toBeCloseTo(2 * (0.75 + perim * 0.2 + Math.PI * 0.04), 12);
    expectClose(md, integrate(p, 2), 3e-3);
  });

  it('rounded box: exact decomposition matches closed-form pieces', () => {
    const r = 0.1;
    const b = Polygon.box(1, 2, { radius: r });
    const md = b.computeMass();
    expect(md.mass).toBeCloseTo(2 + 6 * r + Math.PI * r * r, 12);
    expect(md.cx).toBeCloseTo(0, 12);
    expect(md.cy).toBeCloseTo(0, 12);
    expectClose(md, integrate(b, 1), 3e-3);
  });

  it('segment: no mass, centroid at the midpoint', () => {
    const s = new Segment({ p1: [0, 0], p2: [2, 2], offset: [1, 0] });
    expect(s.computeMass()).toEqual({ mass: 0, cx: 2, cy: 1, inertia: 0 });
  });

  it('density scales mass and inertia', () => {
    const a = Polygon.box(1, 1, { density: 1, offset: [1, 1] }).computeMass();
    const b = Polygon.box(1, 1, { density: 4, offset: [1, 1] }).computeMass();
    expect(b.mass).toBeCloseTo(4 * a.mass, 12);
    expect(b.inertia).toBeCloseTo(4 * a.inertia, 12);
  });
});
