import { describe, expect, it } from 'vitest';
import { Capsule } from './capsule.js';
import { Circle } from './circle.js';
import { Polygon } from './polygon.js';
import { Segment } from './segment.js';
import type { RayCastOutput, Shape } from './shape.js';

function place<T extends Shape>(s: T, x = 0, y = 0, angle = 0): T {
  s.updateWorld(x, y, Math.cos(angle), Math.sin(angle));
  return s;
}
const out: RayCastOutput = { fraction: -1, normalX: 0, normalY: 0 };
function cast(s: Shape, x1: number, y1: number, x2: number, y2: number, max = 1): RayCastOutput | null {
  out.fraction = -1;
  return s.rayCast(x1, y1, x2, y2, max, out) ? { ...out } : null;
}

describe('world cache and AABB', () => {
  it('circle: centre follows offset and body transform; tight AABB', () => {
    const c = place(new Circle({ radius: 0.5, offset: [1, 0] }), 2, 3, Math.PI / 2);
    expect(c.wx).toBeCloseTo(2, 12);
    expect(c.wy).toBeCloseTo(4, 12);
    expect([c.aabbMinX, c.aabbMinY, c.aabbMaxX, c.aabbMaxY].map((v) => +v.toFixed(12))).toEqual([1.5, 3.5, 2.5, 4.5]);
  });

  it('polygon: world vertices, normals, centroid and AABB include the radius', () => {
    const p = place(Polygon.box(2, 1, { offset: [1, 0], radius: 0.1 }), 0, 0, Math.PI / 2);
    expect(p.count).toBe(4);
    expect(p.wcx).toBeCloseTo(0, 12);
    expect(p.wcy).toBeCloseTo(1, 12);
    // local bottom normal (0,−1) rotated by +90° → (1, 0)
    expect(p.worldNormals[0]).toBeCloseTo(1, 12);
    expect(p.worldNormals[1]).toBeCloseTo(0, 12);
    expect(p.aabbMinX).toBeCloseTo(-0.6, 12);
    expect(p.aabbMaxX).toBeCloseTo(0.6, 12);
    expect(p.aabbMinY).toBeCloseTo(-0.1, 12);
    expect(p.aabbMaxY).toBeCloseTo(2.1, 12);
  });

  it('capsule and segment: 2-vertex cores with opposite normals', () => {
    const cap = place(new Capsule({ length: 2, radius: 0.25 }), 0, 1);
    expect(cap.count).toBe(2);
    expect(Array.from(cap.worldVerts)).toEqual([-1, 1, 1, 1]);
    expect(Array.from(cap.worldNormals)).toEqual([0, -1, 0, 1]);
    expect([cap.aabbMinX, cap.aabbMinY, cap.aabbMaxX, cap.aabbMaxY]).toEqual([-1.25, 0.75, 1.25, 1.25]);
    const seg = place(new Segment({ p1: [0, 0], p2: [0, 2] }), 1, 0);
    expect(seg.radius).toBe(0);
    expect([seg.aabbMinX, seg.aabbMinY, seg.aabbMaxX, seg.aabbMaxY]).toEqual([1, 0, 1, 2]);
  });

  it('maxExtent from the body centre of mass', () => {
    expect(new Circle({ radius: 0.5, offset: [3, 4] }).maxExtent(0, 0)).toBeCloseTo(5.5, 12);
    expect(Polygon.box(2, 2).maxExtent(1, 0)).toBeCloseTo(Math.hypot(2, 1), 12);
    expect(new Capsule({ length: 2, radius: 0.5 }).maxExtent(0, 0)).toBeCloseTo(1.5, 12);
    expect(new Segment({ p1: [0, 0], p2: [3, 4] }).maxExtent(0, 0)).toBeCloseTo(5, 12);
  });
});

describe('factories', () => {
  it('box: full width × height, vertex 0 bottom-left, CCW', () => {
    const b = Polygon.box(4, 2, { offset: [1, 1] });
    expect(b.vertices).toEqual([{ x: -2, y: -1 }, { x: 2, y: -1 }, { x: 2, y: 1 }, { x: -2, y: 1 }]);
    expect(Array.from(b.localVerts)).toEqual([-1, 0, 3, 0, 3, 2, -1, 2]);
    expect([b.localCentroidX, b.localCentroidY]).toEqual([1, 1]);
  });
  it('regular: circumradius, flat bottom edge, options passed through', () => {
    const p = Polygon.regular(1, 6, { radius: 0.05, density: 2 });
    expect(p.count).toBe(6);
    expect(p.radius).toBe(0.05);
    expect(p.density).toBe(2);
    const last = p.count - 1;
    expect(p.localNormals[2 * last]).toBeCloseTo(0, 12); // edge (n−1 → 0) is the bottom
    expect(p.localNormals[2 * last + 1]).toBeCloseTo(-1, 12);
    for (let i = 0; i < p.count; i++) expect(Math.hypot(p.localVerts[2 * i]!, p.localVerts[2 * i + 1]!)).toBeCloseTo(1, 12);
  });
  it('capsule length setter keeps midpoint and direction', () => {
    const c = new Capsule({ p1: [0, 0], p2: [0, 2], radius: 0.1 });
    c.length = 4;
    expect(c.p1.x).toBeCloseTo(0, 12);
    expect(c.p1.y).toBeCloseTo(-1, 12);
    expect(c.p2.y).toBeCloseTo(3, 12);
  });
});

describe('containsPoint', () => {
  it('circle', () => {
    const c = place(new Circle({ radius: 1 }), 5, 5);
    expect(c.containsPoint(5.5, 5.5)).toBe(true);
    expect(c.containsPoint(6.01, 5)).toBe(false);
  });
  it('polygon (sharp and rounded)', () => {
    const p = place(Polygon.box(2, 2), 0, 0, Math.PI / 4);
    expect(p.containsPoint(0, 1.4)).toBe(true);
    expect(p.containsPoint(0.9, 0.9)).toBe(false);
    const r = place(Polygon.box(2, 2, { radius: 0.5 }), 0, 0);
    expect(r.containsPoint(1.4, 0)).toBe(true);
    expect(r.containsPoint(1.3, 1.3)).toBe(true); // within 0.5 of the corner (1, 1)
    expect(r.containsPoint(1.4, 1.4)).toBe(false);
  });
  it('capsule', () => {
    const c = place(new Capsule({ length: 2, radius: 0.5 }), 0, 0, Math.PI / 2);
    expect(c.containsPoint(0, 1.45)).toBe(true);
    expect(c.containsPoint(0.45, -0.9)).toBe(true);
    expect(c.containsPoint(0.45, 1.3)).toBe(false);
  });
  it('segment never contains', () => {
    const s = place(new Segment({ p1: [0, 0], p2: [1, 0] }));
    expect(s.containsPoint(0.5, 0)).toBe(false);
  });
});

describe('rayCast', () => {
  it('circle: hit fraction and normal; miss; from inside; beyond maxFraction', () => {
    const c = place(new Circle({ radius: 1 }), 0, 0);
    const h = cast(c, -3, 0, 1, 0)!;
    expect(h.fraction).toBeCloseTo(0.5, 12);
    expect(h.normalX).toBeCloseTo(-1, 12);
    expect(h.normalY).toBeCloseTo(0, 12);
    const d = cast(c, -3, -3, 3, 3)!;
    expect(d.normalX).toBeCloseTo(-Math.SQRT1_2, 12);
    expect(d.fraction).toBeCloseTo((3 * Math.SQRT2 - 1) / (6 * Math.SQRT2), 12);
    expect(cast(c, -3, 1.01, 3, 1.01)).toBeNull();
    expect(cast(c, 0, 0, 3, 0)).toBeNull();
    expect(cast(c, -3, 0, 1, 0, 0.4)).toBeNull();
    expect(cast(c, 3, 0, 5, 0)).toBeNull(); // pointing away
  });

  it('polygon: face hits with the face normal', () => {
    const p = place(Polygon.box(2, 2), 0, 0, Math.PI / 4);
    const h = cast(p, 0, 5, 0, -5)!; // straight down onto the top corner
    expect(h.fraction).toBeCloseTo((5 - Math.SQRT2) / 10, 12);
    const b = place(Polygon.box(2, 2), 1, 0);
    const f = cast(b, -4, 0.5, 4, 0.5)!;
    expect(f.fraction).toBeCloseTo(0.5, 12);
    expect([f.normalX, f.normalY]).toEqual([-1, 0]);
    expect(cast(b, 1, 0, 5, 0)).toBeNull(); // starts inside
    expect(cast(b, -4, 1.5, 4, 1.5)).toBeNull();
    expect(cast(b, -4, 0.5, 4, 0.5, 0.49)).toBeNull();
    const up = cast(b, 1.5, -3, 1.5, 3)!;
    expect(up.fraction).toBeCloseTo(1 / 3, 12);
    expect([up.normalX, up.normalY]).toEqual([0, -1]);
  });

  it('rounded polygon: face and corner-arc hits', () => {
    const p = place(Polygon.box(2, 2, { radius: 0.5 }), 0, 0);
    const f = cast(p, -4, 0, 0, 0)!;
    expect(f.fraction).toBeCloseTo(2.5 / 4, 12);
    expect([f.normalX, f.normalY]).toEqual([-1, 0]);
    const c = cast(p, 3, 3, 0, 0)!; // along the diagonal onto the corner arc at (1,1) + 0.5·(√½, √½)
    const hit = 1 + 0.5 * Math.SQRT1_2;
    expect(c.fraction).toBeCloseTo((3 - hit) / 3, 12);
    expect(c.normalX).toBeCloseTo(Math.SQRT1_2, 12);
    expect(c.normalY).toBeCloseTo(Math.SQRT1_2, 12);
    expect(cast(p, 1.2, 0, 3, 0)).toBeNull(); // starts inside the rounding
  });

  it('capsule: side and end cap', () => {
    const cap = place(new Capsule({ length: 2, radius: 0.5 }), 0, 0);
    const side = cast(cap, 0.3, 2, 0.3, -2)!;
    expect(side.fraction).toBeCloseTo(1.5 / 4, 12);
    expect([side.normalX, side.normalY]).toEqual([0, 1]);
    const end = cast(cap, 4, 0, 0, 0)!;
    expect(end.fraction).toBeCloseTo(2.5 / 4, 12);
    expect(end.normalX).toBeCloseTo(1, 12);
    expect(end.normalY).toBeCloseTo(0, 12);
    expect(cast(cap, 4, 0.6, -4, 0.6)).toBeNull();
    expect(cast(cap, 0, 0.2, 0, 3)).toBeNull(); // from inside
  });

  it('segment: both sides, normal faces the ray origin; parallel misses', () => {
    const s = place(new Segment({ p1: [-1, 0], p2: [1, 0] }), 0, 1);
    const down = cast(s, 0, 3, 0, -1)!;
    expect(down.fraction).toBeCloseTo(0.5, 12);
    expect([down.normalX, down.normalY]).toEqual([0, 1]);
    const up = cast(s, 0.5, -1, 0.5, 3)!;
    expect(up.fraction).toBeCloseTo(0.5, 12);
    expect([up.normalX, up.normalY]).toEqual([0, -1]);
    expect(cast(s, 1.5, 3, 1.5, -1)).toBeNull();
    expect(cast(s, -3, 1, 3, 1)).toBeNull();
  });
});
