/**
 * Chain: one-sided smooth segments for terrain. The construction and its validation; the
 * narrowphase rule at vertices (one consistent normal from exactly one segment at a convex vertex,
 * face normals at concave and straight ones, no contact from behind); and whole scenes — a ball
 * rolling along 200 vertices and a box sliding across 160 collinear segments never catch, where
 * plain Segments do, a ball passes up through a chain and lands on it, a CCW loop is solid.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { LINEAR_SLOP } from '../collision/manifold.js';
import { Space } from '../space/space.js';
import { FulcrumInputError } from '../util/validate.js';
import { Capsule } from './capsule.js';
import { Chain, ChainSegment } from './chain.js';
import { Circle } from './circle.js';
import { Polygon } from './polygon.js';
import { Segment } from './segment.js';
import type { Shape } from './shape.js';
import { collide, place } from '../test-support/manifolds.js';
import { inputError } from '../test-support/input-error.js';

const DT = 1 / 60;
const G = 9.8;
const DEG = Math.PI / 180;



/** A 3-point chain through the origin from (2, y) to (−2, y), listed right to left: solid below. */
function vee(y: number): ChainSegment[] {
  return new Chain({ vertices: [[2, y], [0, 0], [-2, y]] }).segments.map((s) => place(s));
}

describe('Chain: construction', () => {
  it('an open chain of n points makes n − 1 segments; inner ghosts are the neighbours, the ends go straight on', () => {
    const pts: [number, number][] = [[3, 0], [2, 0.5], [1, 0.2], [0, 1]];
    const chain = new Chain({ vertices: pts });
    expect(chain.loop).toBe(false);
    expect(chain.segments.length).toBe(3);
    expect(chain.vertices).toEqual(pts.map(([x, y]) => ({ x, y })));
    chain.segments.forEach((s, i) => {
      expect(s).toBeInstanceOf(ChainSegment);
      expect(s).toBeInstanceOf(Segment);
      expect(s.kind).toBe('segment');
      expect(s.chain).toBe(chain);
      expect(s.index).toBe(i);
      expect(s.p1).toEqual({ x: pts[i]![0], y: pts[i]![1] });
      expect(s.p2).toEqual({ x: pts[i + 1]![0], y: pts[i + 1]![1] });
    });
    expect(chain.segments[1]!.ghost1).toEqual({ x: 3, y: 0 });
    expect(chain.segments[1]!.ghost2).toEqual({ x: 0, y: 1 });
    // The ends: the end segment extended by its own length.
    expect(chain.segments[0]!.ghost1).toEqual({ x: 4, y: -0.5 });
    expect(chain.segments[2]!.ghost2).toEqual({ x: -1, y: 1.8 });
  });

  it('a loop of n points makes n segments, the last closing back to the first', () => {
    const chain = new Chain({ vertices: [[0, 0], [1, 0], [1, 1], [0, 1]], loop: true });
    expect(chain.segments.length).toBe(4);
    expect(chain.segments[3]!.p1).toEqual({ x: 0, y: 1 });
    expect(chain.segments[3]!.p2).toEqual({ x: 0, y: 0 });
    expect(chain.segments[3]!.ghost2).toEqual({ x: 1, y: 0 });
    expect(chain.segments[0]!.ghost1).toEqual({ x: 0, y: 1 });
  });

  it('shape options apply to every segment; offset and angle place each as a Segment would', () => {
    const userData = { tag: 'ground' };
    const opts = { friction: 0.1, restitution: 0.3, filter: { category: 4, mask: 5, group: -2 }, offset: [1, 2] as [number, number], angle: 0.5, userData };
    const pts: [number, number][] = [[2, 0], [1, 0.3], [0, 0], [-1, 0.4]];
    const chain = new Chain({ vertices: pts, ...opts });
    chain.segments.forEach((s, i) => {
      expect(s.friction).toBe(0.1);
      expect(s.restitution).toBe(0.3);
      expect(s.filter).toEqual({ category: 4, mask: 5, group: -2 });
      expect(s.offset).toEqual({ x: 1, y: 2 });
      expect(s.angle).toBe(0.5);
      expect(s.userData).toBe(userData);
      const plain = new Segment({ p1: pts[i]!, p2: pts[i + 1]!, offset: [1, 2], angle: 0.5 });
      expect(Array.from(s.localVerts)).toEqual(Array.from(plain.localVerts));
      expect(Array.from(s.localNormals)).toEqual(Array.from(plain.localNormals));
    });
    // A sensor chain too.
    expect(new Chain({ vertices: pts, sensor: true }).segments.every((s) => s.sensor)).toBe(true);
  });

  it('segments add no mass: a dynamic body with a chain and a ball has the ball\'s mass', () => {
    const chain = new Chain({ vertices: [[1, 0], [0, 0.2], [-1, 0]] });
    const ball = new Circle({ radius: 0.5, density: 2 });
    const body = new Body({ shapes: [ball, ...chain.segments] });
    const alone = new Body({ shapes: [new Circle({ radius: 0.5, density: 2 })] });
    expect(body.mass).toBe(alone.mass);
    expect(body.inertia).toBe(alone.inertia);
    // addShape, one segment at a time, works as well.
    const other = new Body({ type: 'static' });
    for (const s of new Chain({ vertices: [[1, 0], [0, 0]] }).segments) other.addShape(s);
    expect(other.shapes.length).toBe(1);
  });

  it('its points cannot be changed; offset and angle changes keep the ghost normals consistent', () => {
    const s = new Chain({ vertices: [[1, 0], [0, 0], [-1, 0.5]] }).segments[0]!;
    const e1 = inputError(() => {
      s.p1 = { x: 5, y: 5 };
    });
    expect(e1.owner).toBe('ChainSegment');
    expect(e1.prop).toBe('points');
    expect(() => s.setPoints([0, 0], [1, 1])).toThrow(FulcrumInputError);
    expect(s.p1).toEqual({ x: 1, y: 0 });
    // The same new offset and angle on every segment: the ghost normals follow, still bit for bit
    // the neighbours' own.
    const segs = new Chain({ vertices: [[2, 0], [1, 0.4], [0, 0], [-1, -0.3]] }).segments;
    for (const seg of segs) {
      seg.offset = [0.5, -0.25];
      seg.angle = 0.7;
      place(seg, 1, 2, 0.3);
    }
    for (let i = 1; i < segs.length; i++) {
      expect([segs[i]!._n0x, segs[i]!._n0y]).toEqual([segs[i - 1]!.worldNormals[0], segs[i - 1]!.worldNormals[1]]);
      expect([segs[i - 1]!._n2x, segs[i - 1]!._n2y]).toEqual([segs[i]!.worldNormals[0], segs[i]!.worldNormals[1]]);
    }
    // Turns are frame-free: the peak at (1, 0.4) is convex, the dip at (0, 0) concave.
    expect(segs[1]!._turn1).toBeGreaterThan(0);
    expect(segs[2]!._turn1).toBeLessThan(0);
  });
});

describe('Chain: validation names the property and the index', () => {
  const cases: [string, () => unknown, string, RegExp][] = [
    ['no options', () => new Chain(null as never), 'options', /Chain\.options/],
    ['not an array', () => new Chain({ vertices: 'abc' as never }), 'vertices', /Chain\.vertices must be an array/],
    ['fewer than 2 points', () => new Chain({ vertices: [[0, 0]] }), 'vertices', /at least 2 points.*has 1/],
    ['2 points with loop', () => new Chain({ vertices: [[0, 0], [1, 0]], loop: true }), 'vertices', /at least 3 points for a loop.*has 2/],
    ['NaN', () => new Chain({ vertices: [[0, 0], [1, 0], [2, 1], [Number.NaN, 1]] }), 'vertices[3]', /Chain\.vertices\[3\].*finite.*NaN/],
    ['not a point', () => new Chain({ vertices: [[0, 0], 7 as never] }), 'vertices[1]', /Chain\.vertices\[1\]/],
    ['coincident consecutive points', () => new Chain({ vertices: [[0, 0], [1, 0], [1, 0.001], [2, 0]] }), 'vertices[2]', /vertices\[2\] must be at least 0\.0025 m from vertices\[1\]/],
    ['a loop closing on its first point', () => new Chain({ vertices: [[0, 0], [1, 0], [1, 1], [0, 0]], loop: true }), 'vertices[3]', /vertices\[3\].*from vertices\[0\]/],
    ['loop not a boolean', () => new Chain({ vertices: [[0, 0], [1, 0]], loop: 1 as never }), 'loop', /Chain\.loop must be a boolean/],
    ['a bad shape option', () => new Chain({ vertices: [[0, 0], [1, 0]], friction: -1 }), 'friction', /Chain\.friction/],
    ['a bad filter', () => new Chain({ vertices: [[0, 0], [1, 0]], filter: { mask: 1.5 } }), 'filter.mask', /Chain\.filter\.mask/],
  ];
  for (const [name, f, prop, message] of cases) {
    it(name, () => {
      const e = inputError(f);
      expect(e.owner).toBe('Chain');
      expect(e.prop).toBe(prop);
      expect(e.message).toMatch(message);
    });
  }

  it('a ChainSegment made on its own checks its ghosts', () => {
    const e = inputError(() => new ChainSegment({ p1: [0, 0], p2: [1, 0], ghost1: [0.001, 0] }));
    expect(e.owner).toBe('ChainSegment');
    expect(e.prop).toBe('ghost1');
    expect(inputError(() => new ChainSegment({ p1: [0, 0], p2: [1, 0], ghost2: [Number.POSITIVE_INFINITY, 0] })).prop).toBe('ghost2');
  });
});

describe('chain narrowphase', () => {
  it('is one-sided: a circle or a box behind the segment gets no contact, in front it does', () => {
    // Listed right to left: the normal is +y.
    const seg = place(new Chain({ vertices: [[2, 0], [-2, 0]] }).segments[0]!);
    expect(seg.worldNormals[1]).toBe(1);
    const ball = new Circle({ radius: 0.5 });
    expect(collide(seg, place(ball, 0.3, 0.45)).count).toBe(1);
    expect(collide(seg, place(ball, 0.3, -0.45)).count).toBe(0);
    const box = Polygon.box(1, 1);
    const above = collide(seg, place(box, 0.2, 0.49));
    expect(above.count).toBe(2);
    expect(above.ny).toBe(1);
    expect(collide(seg, place(box, 0.2, -0.49)).count).toBe(0);
    // Listed left to right, the same points make a ceiling.
    const ceiling = place(new Chain({ vertices: [[-2, 0], [2, 0]] }).segments[0]!);
    expect(collide(ceiling, place(ball, 0.3, 0.45)).count).toBe(0);
    expect(collide(ceiling, place(ball, 0.3, -0.45)).ny).toBe(-1);
  });

  it('a circle around a convex vertex: exactly one segment answers, with the vertex-to-centre normal clamped to the fan', () => {
    const [s0, s1] = vee(-0.5) as [ChainSegment, ChainSegment];
    const fan0 = Math.atan2(s0.worldNormals[1]!, s0.worldNormals[0]!); // ≈ 76°
    const fan1 = Math.atan2(s1.worldNormals[1]!, s1.worldNormals[0]!); // ≈ 104°
    const ball = new Circle({ radius: 0.5 });
    let prev: [number, number] | null = null;
    for (let deg = 10; deg <= 170; deg += 0.25) {
      const phi = deg * DEG;
      place(ball, 0.49 * Math.cos(phi), 0.49 * Math.sin(phi));
      const r0 = collide(s0, ball);
      const r1 = collide(s1, ball);
      expect(r0.count + r1.count).toBe(1);
      const r = r0.count ? r0 : r1;
      const want = Math.min(Math.max(phi, fan0), fan1);
      expect(r.nx).toBeCloseTo(Math.cos(want), 12);
      expect(r.ny).toBeCloseTo(Math.sin(want), 12);
      // Segment 0 answers right of the bisector (the y axis), segment 1 on it and to its left.
      expect(r0.count).toBe(ball.wx > 0 ? 1 : 0);
      if (prev) expect(Math.hypot(r.nx - prev[0], r.ny - prev[1])).toBeLessThan(0.25 * DEG + 1e-9);
      prev = [r.nx, r.ny];
      // Separation: distance to the chain minus the radius.
      const d = phi < fan0 || phi > fan1 ? 0.49 * Math.cos(Math.abs(phi - want)) : 0.49;
      expect(r.points[0]!.sep).toBeCloseTo(d - 0.5, 12);
    }
  });

  it('exactly one segment answers at every vertex of a chain with an offset and angle, on a turned body (seeded sweep)', () => {
    // A zigzag of convex, concave and straight vertices; segment i's ghost normals must match its
    // neighbours' own normals bit for bit after the shape's and the body's transforms.
    const pts: [number, number][] = [[3, 0], [2, 0.3], [1, 0.1], [0, 0.1], [-1, 0.6], [-2, 0.2], [-3, 0.2], [-4, 0.2]];
    const segs = new Chain({ vertices: pts, offset: [0.37, -1.1], angle: 0.3 }).segments.map((s) => place(s, 12.3, -4.7, 1.1));
    for (let i = 1; i < segs.length; i++) {
      expect(segs[i]!._n0x).toBe(segs[i - 1]!.worldNormals[0]);
      expect(segs[i]!._n0y).toBe(segs[i - 1]!.worldNormals[1]);
      expect(segs[i - 1]!._n2x).toBe(segs[i]!.worldNormals[0]);
      expect(segs[i - 1]!._n2y).toBe(segs[i]!.worldNormals[1]);
    }
    const ball = new Circle({ radius: 0.3 });
    for (let i = 1; i < pts.length - 1; i++) {
      const vx = segs[i]!.worldVerts[0]!;
      const vy = segs[i]!.worldVerts[1]!;
      const convex = segs[i]!._turn1 > 0;
      // Around the vertex on a circle just inside the ball's reach, on the solid's outer side.
      for (let deg = 0; deg < 360; deg += 0.7) {
        place(ball, vx + 0.29 * Math.cos(deg * DEG), vy + 0.29 * Math.sin(deg * DEG));
        const answers = [segs[i - 1]!, segs[i]!].map((s) => collide(s, ball).count);
        // A convex vertex: one answer wherever the ball is outside the solid there.
        const n0 = segs[i - 1]!.worldNormals;
        const n1 = segs[i]!.worldNormals;
        const dx = ball.wx - vx;
        const dy = ball.wy - vy;
        const front0 = n0[0]! * dx + n0[1]! * dy > 0;
        const front1 = n1[0]! * dx + n1[1]! * dy > 0;
        if (convex && (front0 || front1)) expect(answers[0]! + answers[1]!).toBe(1);
        if (!convex && front0 && front1) expect(answers[0]! + answers[1]!).toBeGreaterThanOrEqual(1);
        if (!front0 && !front1) expect(answers[0]! + answers[1]!).toBe(0);
      }
    }
  });

  it('a circle at a straight vertex gets the face normal from one segment, never the vertex direction', () => {
    const segs = new Chain({ vertices: [[2, 0], [0, 0], [-2, 0]] }).segments.map((s) => place(s));
    const ball = new Circle({ radius: 0.5 });
    for (let x = -0.01; x <= 0.01; x += 0.0005) {
      place(ball, x, 0.49);
      const rs = segs.map((s) => collide(s, ball)).filter((r) => r.count > 0);
      expect(rs.length).toBe(1);
      // (Within a rounding-thin sliver over the vertex it is the vertex direction: the same, to 1e-16.)
      expect(rs[0]!.nx).toBeCloseTo(0, 15);
      expect(rs[0]!.ny).toBeCloseTo(1, 15);
      expect(rs[0]!.points[0]!.sep).toBeCloseTo(-0.01, 12);
    }
  });

  it('a circle in a concave corner gets each face normal, and none from behind the faces', () => {
    const [s0, s1] = vee(0.5) as [ChainSegment, ChainSegment];
    const ball = new Circle({ radius: 0.5 });
    place(ball, 0, 0.5);
    const r0 = collide(s0, ball);
    const r1 = collide(s1, ball);
    expect([r0.count, r1.count]).toEqual([1, 1]);
    expect([r0.nx, r0.ny]).toEqual([s0.worldNormals[0], s0.worldNormals[1]]);
    expect([r1.nx, r1.ny]).toEqual([s1.worldNormals[0], s1.worldNormals[1]]);
    // Below the corner (inside the solid): nothing.
    place(ball, 0, -0.2);
    expect(collide(s0, ball).count + collide(s1, ball).count).toBe(0);
  });

  it('a circle anywhere near a concave or a straight vertex gets only face normals (property sweep)', () => {
    for (const y of [0.5, 0]) {
      const segs = vee(y);
      const ball = new Circle({ radius: 0.5 });
      let touching = 0;
      for (let x = -1; x <= 1; x += 0.01) {
        for (let h = -0.2; h <= 0.6; h += 0.05) {
          place(ball, x, h + 0.25 * y * Math.abs(x) * 2);
          for (const s of segs) {
            const r = collide(s, ball);
            if (r.count === 0) continue;
            touching++;
            expect(r.nx).toBe(s.worldNormals[0]);
            expect(r.ny).toBe(s.worldNormals[1]);
          }
        }
      }
      expect(touching).toBeGreaterThan(500);
    }
  });

  it('a box anywhere in a concave corner gets only face normals (property sweep)', () => {
    const [s0, s1] = vee(0.5) as [ChainSegment, ChainSegment];
    const box = Polygon.box(1.2, 0.6);
    let touching = 0;
    for (let x = -0.3; x <= 0.3; x += 0.05) {
      for (let a = -12; a <= 12; a += 3) {
        for (let y = 0.3; y <= 0.5; y += 0.05) {
          place(box, x, y, a * DEG);
          for (const s of [s0, s1]) {
            const r = collide(s, box);
            if (r.count === 0) continue;
            touching++;
            expect(r.nx).toBe(s.worldNormals[0]);
            expect(r.ny).toBe(s.worldNormals[1]);
            expect(new Set(r.points.map((p) => p.id)).size).toBe(r.count);
          }
        }
      }
    }
    expect(touching).toBeGreaterThan(100);
  });

  it('a box just past the vertex between collinear segments: a plain Segment catches it, a chain segment does not', () => {
    // Moving left (−x), its front-bottom corner 2 mm past the vertex at the origin, 4 mm deep.
    const box = place(Polygon.box(1, 0.5), 0.498, 0.246);
    const plain = place(new Segment({ p1: [0, 0], p2: [-2, 0] }));
    const ghost = collide(plain, box);
    expect(ghost.nx).toBe(1); // pushed back by the segment's end: the catch
    const chain = new Chain({ vertices: [[2, 0], [0, 0], [-2, 0]] }).segments.map((s) => place(s));
    for (const s of chain) {
      const r = collide(s, box);
      expect(r.count).toBe(2);
      expect([r.nx, r.ny]).toEqual([0, 1]);
      for (const p of r.points) expect(p.sep).toBeCloseTo(-0.004, 12);
      expect(r.points[0]!.id).not.toBe(r.points[1]!.id);
    }
    // The new segment's points lie over it: the corner and the vertex.
    const front = collide(chain[1]!, box);
    expect(front.points.map((p) => p.x).sort((p, q) => p - q)).toEqual([expect.closeTo(-0.002, 12), expect.closeTo(0, 12)]);
  });

  it('a box tipping over a convex vertex: one segment answers, with the box face as the normal', () => {
    const [s0, s1] = vee(-0.5) as [ChainSegment, ChainSegment];
    const box = Polygon.box(1, 0.4);
    for (let deg = -12; deg <= 12; deg += 0.5) {
      const a = deg * DEG;
      // The bottom face's midpoint on the vertex, 1 mm deep.
      const cx = -Math.sin(a) * 0.199;
      const cy = Math.cos(a) * 0.199;
      place(box, cx, cy, a);
      const r0 = collide(s0, box);
      const r1 = collide(s1, box);
      expect(Math.min(r0.count, r1.count)).toBe(0);
      const r = r0.count ? r0 : r1;
      expect(r.nx).toBeCloseTo(-Math.sin(a), 12);
      expect(r.ny).toBeCloseTo(Math.cos(a), 12);
      // The deepest point is at the vertex (a second, speculative one where the box face nears the slope).
      const deepest = r.points.reduce((p, q) => (q.sep < p.sep ? q : p));
      expect(deepest.sep).toBeCloseTo(-0.001, 12);
      expect(Math.hypot(deepest.x, deepest.y)).toBeLessThan(0.001);
      expect(r.count === 1 || Math.abs(deg) > 10).toBe(true);
      // The box leaning right (a < 0, its normal nearer segment 0's) belongs to segment 0.
      expect(r0.count > 0).toBe(a < 0);
    }
  });

  it('a capsule end near a convex vertex: one point along the vertex-to-centre direction, from one segment', () => {
    const [s0, s1] = vee(-0.5) as [ChainSegment, ChainSegment];
    for (let deg = 78; deg <= 102; deg += 1) {
      const phi = deg * DEG;
      // The capsule's lower end centre 0.21 m from the vertex (1 cm gap), its core pointing away.
      const ex = 0.21 * Math.cos(phi);
      const ey = 0.21 * Math.sin(phi);
      const cap = place(new Capsule({ p1: [0, 0], p2: [0.6 * Math.cos(phi + 0.3), 0.6 * Math.sin(phi + 0.3)], radius: 0.2 }), ex, ey);
      const r0 = collide(s0, cap);
      const r1 = collide(s1, cap);
      expect(r0.count + r1.count).toBe(1);
      const r = r0.count ? r0 : r1;
      expect(r.count).toBe(1);
      expect(r.nx).toBeCloseTo(Math.cos(phi), 12);
      expect(r.ny).toBeCloseTo(Math.sin(phi), 12);
      expect(r.points[0]!.sep).toBeCloseTo(0.01, 12);
    }
  });

  it('either argument order: the normal from A to B, the same points', () => {
    const [s0] = vee(-0.5) as [ChainSegment, ChainSegment];
    // Segment 0 runs from (2, −0.5) to the origin: the line y = −x/4, normal (1, 4)/√17.
    const nx = 1 / Math.sqrt(17);
    const ny = 4 / Math.sqrt(17);
    const slope = Math.atan2(-1, 4);
    const shapes = [
      place(new Circle({ radius: 0.5 }), 0.1, 0.45), // over the vertex
      place(Polygon.box(1, 0.4), 1 + 0.19 * nx, -0.25 + 0.19 * ny, slope + 0.02), // on the slope, slightly tilted
      place(new Capsule({ length: 1, radius: 0.1 }), 1.2 + 0.095 * nx, -0.3 + 0.095 * ny, slope), // lying on it
    ];
    for (const shape of shapes) {
      const ab = collide(s0, shape);
      const ba = collide(shape, s0);
      expect(ab.count).toBeGreaterThan(0);
      expect(ba.count).toBe(ab.count);
      expect([ba.nx, ba.ny]).toEqual([-ab.nx, -ab.ny]);
      expect(ba.points).toEqual(ab.points);
    }
  });

  it('two chain segments never collide, however they overlap', () => {
    const a = place(new Chain({ vertices: [[1, 0], [-1, 0]] }).segments[0]!);
    const b = place(new Chain({ vertices: [[0, 1], [0, -1]] }).segments[0]!);
    expect(collide(a, b).count).toBe(0);
    expect(collide(b, a).count).toBe(0);
    // A plain Segment against a chain segment does collide (from the solid side's front).
    const plain = place(new Segment({ p1: [-0.5, 0.002], p2: [0.5, 0.002] }));
    expect(collide(a, plain).count).toBe(2);
  });

  it('feature ids stay the same while a box slides along a segment', () => {
    const s = place(new Chain({ vertices: [[2, 0], [-2, 0]] }).segments[0]!);
    const box = Polygon.box(1, 0.5);
    let ids: number[] | null = null;
    for (let x = -1; x <= 1; x += 0.05) {
      const r = collide(s, place(box, x, 0.249, 0.001));
      expect(r.count).toBe(2);
      const now = r.points.map((p) => p.id);
      expect(now[0]).not.toBe(now[1]);
      if (ids) expect(now).toEqual(ids);
      ids = now;
    }
  });
});

/** Heights of gentle terrain: a sum of low-frequency sines on a slight downhill to the left (slopes under 8°). */
function terrainHeight(x: number): number {
  return 0.03 * x + 0.3 * Math.sin(0.13 * x) + 0.2 * Math.sin(0.29 * x + 1);
}

/** 200 points from x = 100 to 0, right to left (so the ground is solid below). */
function terrainPoints(): [number, number][] {
  const pts: [number, number][] = [];
  for (let i = 0; i < 200; i++) {
    const x = 100 - (100 / 199) * i;
    pts.push([x, terrainHeight(x)]);
  }
  return pts;
}

/** Distance from (x, y) to the polyline through `pts`. */
function distanceToPolyline(pts: readonly [number, number][], x: number, y: number): number {
  let best = Infinity;
  for (let i = 1; i < pts.length; i++) {
    const [ax, ay] = pts[i - 1]!;
    const ex = pts[i]![0] - ax;
    const ey = pts[i]![1] - ay;
    const t = Math.min(1, Math.max(0, ((x - ax) * ex + (y - ay) * ey) / (ex * ex + ey * ey)));
    best = Math.min(best, Math.hypot(x - ax - t * ex, y - ay - t * ey));
  }
  return best;
}

/** A regular polygon of `n` points of circumradius `R` about the origin, CCW (or CW). */
function ring(n: number, R: number, ccw: boolean): [number, number][] {
  const pts: [number, number][] = [];
  for (let i = 0; i < n; i++) {
    const a = ((ccw ? 1 : -1) * 2 * Math.PI * i) / n;
    pts.push([R * Math.cos(a), R * Math.sin(a)]);
  }
  return pts;
}

describe('chain scenes', () => {
  /** A ball rolled left along the terrain; its largest one-step change of velocity, and where it got. */
  function rollBall(shapes: readonly Shape[]): { maxDv: number; steps: number; x: number; minGap: number } {
    const space = new Space({ gravity: [0, -G] });
    space.addBody(new Body({ type: 'static', shapes }));
    const pts = terrainPoints();
    // Start on the second segment, touching it (on its right: above), moving along it at 4 m/s.
    const [ax, ay] = pts[1]!;
    const [bx, by] = pts[2]!;
    const len = Math.hypot(bx - ax, by - ay);
    const tx = (bx - ax) / len;
    const ty = (by - ay) / len;
    const r = 0.3;
    const mx = 0.5 * (ax + bx);
    const my = 0.5 * (ay + by);
    const ball = space.addBody(new Body({ position: [mx + ty * r, my - tx * r], velocity: [4 * tx, 4 * ty], shapes: [new Circle({ radius: r, friction: 0.8 })] }));
    let maxDv = 0;
    let prev = ball.velocity;
    let steps = 0;
    let minGap = Infinity; // the ball's centre's distance to the terrain, less its radius
    while (ball.x > 1 && steps < 3000) {
      space.step(DT);
      const v = ball.velocity;
      maxDv = Math.max(maxDv, Math.hypot(v.x - prev.x, v.y - prev.y));
      prev = v;
      steps++;
      if (steps % 5 === 0) minGap = Math.min(minGap, distanceToPolyline(pts, ball.x, ball.y) - r);
    }
    return { maxDv, steps, x: ball.x, minGap };
  }

  it('a ball rolls along a 200-vertex chain of gentle slopes to its far end, its velocity never jumping more than gravity allows in a step', () => {
    const pts = terrainPoints();
    for (let i = 1; i < pts.length; i++) expect(Math.abs(Math.atan((pts[i]![1] - pts[i - 1]![1]) / (pts[i]![0] - pts[i - 1]![0])))).toBeLessThan(10 * DEG);
    const { maxDv, x, steps, minGap } = rollBall(new Chain({ vertices: pts }).segments);
    expect(x).toBeLessThanOrEqual(1);
    expect(steps).toBeLessThan(3000);
    expect(minGap).toBeGreaterThan(-LINEAR_SLOP); // on the terrain all the way, never through it
    expect(maxDv).toBeLessThanOrEqual(G * DT + 0.01);
  });

  it('the same ball on the same points as plain Segments snags (the test has teeth)', () => {
    const pts = terrainPoints();
    const { maxDv } = rollBall(pts.slice(1).map((p, i) => new Segment({ p1: pts[i]!, p2: p })));
    expect(maxDv).toBeGreaterThan(2 * G * DT);
  });

  it('a box and a capsule slide over the same 200 vertices without a jolt; on plain Segments they catch', () => {
    for (const make of [() => Polygon.box(0.8, 0.4, { friction: 0.05 }), () => new Capsule({ length: 0.8, radius: 0.2, friction: 0.05 })]) {
      const pts = terrainPoints();
      const jolt = (shapes: readonly Shape[]): number => {
        const space = new Space({ gravity: [0, -G] });
        space.addBody(new Body({ type: 'static', shapes }));
        const [ax, ay] = pts[1]!;
        const [bx, by] = pts[2]!;
        const len = Math.hypot(bx - ax, by - ay);
        const tx = (bx - ax) / len;
        const ty = (by - ay) / len;
        const body = space.addBody(new Body({ position: [0.5 * (ax + bx) + ty * 0.2, 0.5 * (ay + by) - tx * 0.2], rotation: Math.atan2(-ty, -tx), velocity: [4 * tx, 4 * ty], shapes: [make()] }));
        let maxDv = 0;
        let prev = body.velocity;
        for (let i = 0; i < 900; i++) {
          space.step(DT);
          const v = body.velocity;
          maxDv = Math.max(maxDv, Math.hypot(v.x - prev.x, v.y - prev.y));
          prev = v;
        }
        return maxDv;
      };
      expect(jolt(new Chain({ vertices: pts, friction: 0.05 }).segments)).toBeLessThan(G * DT);
      expect(jolt(pts.slice(1).map((p, i) => new Segment({ p1: pts[i]!, p2: p, friction: 0.05 })))).toBeGreaterThan(4 * G * DT);
    }
  });

  /** A box (1 × 0.5) slid right at `speed` on a floor along y = 0; its x velocity per step and end pose. */
  function slideBox(shapes: readonly Shape[], speed: number): { vx: number[]; x: number; maxVy: number; maxSpin: number } {
    const space = new Space({ gravity: [0, -G] });
    space.addBody(new Body({ type: 'static', shapes }));
    const box = space.addBody(new Body({ position: [2, 0.25], velocity: [speed, 0], shapes: [Polygon.box(1, 0.5, { friction: 0.2 })] }));
    const vx: number[] = [];
    let maxVy = 0;
    let maxSpin = 0;
    for (let i = 0; i < 200; i++) {
      space.step(DT);
      vx.push(box.velocity.x);
      maxVy = Math.max(maxVy, Math.abs(box.velocity.y));
      maxSpin = Math.max(maxSpin, Math.abs(box.angularVel));
    }
    return { vx, x: box.x, maxVy, maxSpin };
  }
  /** 161 points 0.25 m apart from x = 40 to 0, right to left. */
  const flatPoints = (): [number, number][] => Array.from({ length: 161 }, (_, i) => [40 - 0.25 * i, 0] as [number, number]);

  it('a box sliding across 160 collinear chain segments keeps the speed it has on one long Segment', () => {
    // 6 m/s: a tenth of a metre a step, under half the box's 0.25 m half-height (see the CCD note in the report).
    const chain = slideBox(new Chain({ vertices: flatPoints(), friction: 0.2 }).segments, 6);
    const one = slideBox([new Segment({ p1: [40, 0], p2: [0, 0], friction: 0.2 })], 6);
    for (let i = 0; i < 200; i++) expect(Math.abs(chain.vx[i]! - one.vx[i]!)).toBeLessThan(1e-3);
    expect(Math.abs(chain.x - one.x)).toBeLessThan(1e-3);
    expect(chain.maxVy).toBeLessThan(1e-3);
    expect(chain.maxSpin).toBeLessThan(1e-2);
    // Friction 0.2 stops it after v²/(2·0.2·g) ≈ 9.2 m.
    expect(chain.x).toBeCloseTo(2 + 36 / (2 * 0.2 * G), 1);
  });

  it('on the same points as plain Segments the box catches on the first vertex (the test has teeth)', () => {
    const pts = flatPoints();
    const plain = slideBox(pts.slice(1).map((p, i) => new Segment({ p1: pts[i]!, p2: p, friction: 0.2 })), 6);
    expect(plain.maxVy).toBeGreaterThan(0.5);
    expect(plain.x).toBeLessThan(5);
  });

  it('one-sided: a ball thrown up from below passes through the chain, then lands on it and stays on top', () => {
    const space = new Space({ gravity: [0, -G] });
    space.addBody(new Body({ type: 'static', shapes: new Chain({ vertices: [[5, 0], [2, 0.1], [-1, 0], [-5, 0.2]] }).segments }));
    const r = 0.25;
    const ball = space.addBody(new Body({ position: [0.5, -2], velocity: [0, 8], shapes: [new Circle({ radius: r })] }));
    let maxY = -Infinity;
    for (let i = 0; i < 240; i++) {
      space.step(DT);
      maxY = Math.max(maxY, ball.y);
    }
    // Up through the chain to about v²/2g above its start, unhindered...
    expect(maxY).toBeGreaterThan(-2 + (64 / (2 * G)) * 0.98);
    // ...and down onto its top, where it stays, rolling slowly down the gentle slope (the chain
    // there is y = 0.1 − 0.1·(2 − x)/3: the distance to it is (y − that)·cos θ, θ = atan(1/30)).
    const surface = 0.1 - (0.1 * (2 - ball.x)) / 3;
    const gap = (ball.y - surface) / Math.hypot(1, 1 / 30);
    expect(gap).toBeGreaterThan(r - LINEAR_SLOP);
    expect(gap).toBeLessThan(r + 0.001);
    expect(Math.abs(ball.velocity.y)).toBeLessThan(0.05);
    expect(ball.x).toBeGreaterThan(-1);
  });

  it('a CCW loop is solid: a ball dropped off-centre rolls over it and off, never sinking into it', () => {
    const n = 48;
    const R = 2;
    const inner = R * Math.cos(Math.PI / n); // the loop's inscribed radius
    const space = new Space({ gravity: [0, -G] });
    space.addBody(new Body({ type: 'static', shapes: new Chain({ vertices: ring(n, R, true), loop: true }).segments }));
    const r = 0.2;
    const ball = space.addBody(new Body({ position: [0.15, R + 1], shapes: [new Circle({ radius: r })] }));
    let minDist = Infinity;
    for (let i = 0; i < 180; i++) {
      space.step(DT);
      minDist = Math.min(minDist, Math.hypot(ball.x, ball.y));
    }
    expect(minDist).toBeGreaterThan(inner + r - 2 * LINEAR_SLOP);
    expect(ball.x).toBeGreaterThan(R); // it has rolled over the side
  });

  it('a ball dropped straight onto the top of a CCW loop rests there', () => {
    const space = new Space({ gravity: [0, -G] });
    space.addBody(new Body({ type: 'static', shapes: new Chain({ vertices: [[1, -1], [1, 1], [-1, 1], [-1, -1]], loop: true }).segments }));
    const ball = space.addBody(new Body({ position: [0, 2], shapes: [new Circle({ radius: 0.25 })] }));
    for (let i = 0; i < 120; i++) space.step(DT);
    expect(ball.y).toBeCloseTo(1.25, 2);
    expect(ball.x).toBeCloseTo(0, 6);
  });

  it('inside a CCW loop is its solid side (a ball inside falls out through it); a CW loop holds a ball inside', () => {
    for (const ccw of [true, false]) {
      const space = new Space({ gravity: [0, -G] });
      space.addBody(new Body({ type: 'static', shapes: new Chain({ vertices: ring(32, 2, ccw), loop: true }).segments }));
      const ball = space.addBody(new Body({ position: [0.3, 0], shapes: [new Circle({ radius: 0.25 })] }));
      for (let i = 0; i < 120; i++) space.step(DT);
      if (ccw) expect(ball.y).toBeLessThan(-3);
      else {
        expect(Math.hypot(ball.x, ball.y)).toBeLessThan(2 - 0.25 + LINEAR_SLOP);
        expect(ball.y).toBeLessThan(-1.5); // at the bottom
      }
    }
  });

  it('an open end goes straight on: a ball rolling off it is held until its centre passes the end, then falls', () => {
    const space = new Space({ gravity: [0, -G] });
    space.addBody(new Body({ type: 'static', shapes: new Chain({ vertices: [[4, 0], [1, 0], [-2, 0]] }).segments }));
    const r = 0.25;
    const ball = space.addBody(new Body({ position: [0, r], velocity: [-2, 0], shapes: [new Circle({ radius: r })] }));
    let lastHeld = Infinity;
    for (let i = 0; i < 180; i++) {
      space.step(DT);
      if (ball.y > r - LINEAR_SLOP) lastHeld = ball.x;
    }
    expect(ball.y).toBeLessThan(-1);
    // Held at full height until its centre passes the end at x = −2 (no rounding off the corner),
    // then gone within a step or two (it rolls at 5/7 of 2 m/s).
    expect(lastHeld).toBeLessThan(-2);
    expect(lastHeld).toBeGreaterThan(-2 - 2 * 2 * DT);
  });

  it('a chain on a turning kinematic body: a clockwise loop (a drum) keeps a ball inside as it turns', () => {
    const space = new Space({ gravity: [0, -G] });
    space.addBody(new Body({ type: 'kinematic', angularVel: 2, shapes: new Chain({ vertices: ring(24, 2, false), loop: true, friction: 0.8 }).segments }));
    const ball = space.addBody(new Body({ position: [0, -1], shapes: [new Circle({ radius: 0.3, friction: 0.8 })] }));
    // Farthest a 0.3 m ball's centre can be: in a corner, 0.3/sin(82.5°) from the vertex at 2 m.
    const farthest = 2 - 0.3 / Math.sin((82.5 * Math.PI) / 180);
    let maxDist = 0;
    for (let i = 0; i < 300; i++) {
      space.step(DT);
      // (After the landing's impact, whose soft-contact overshoot is the same on plain segments.)
      if (i >= 60) maxDist = Math.max(maxDist, Math.hypot(ball.x, ball.y));
    }
    expect(maxDist).toBeLessThan(farthest + 2 * LINEAR_SLOP);
    // Carried round by friction, not left lying at the bottom.
    expect(Math.hypot(ball.velocity.x, ball.velocity.y)).toBeGreaterThan(0.5);
  });

  it('a box slides down into a V and comes to rest at its bottom, on both faces', () => {
    const space = new Space({ gravity: [0, -G] });
    // Slopes of 1 in 4 (14°), friction 0.1 (< tan 14°, so it slides); a collinear vertex on the way at x = 3.
    space.addBody(new Body({ type: 'static', shapes: new Chain({ vertices: [[6, 1.5], [3, 0.75], [0, 0], [-3, 0.75], [-6, 1.5]], friction: 0.1 }).segments }));
    const box = space.addBody(new Body({ position: [5 - 0.2 * Math.sin(Math.atan(0.25)), 1.25 + 0.2 * Math.cos(Math.atan(0.25)) + 0.01], rotation: Math.atan(0.25), shapes: [Polygon.box(0.6, 0.4, { friction: 0.1 })] }));
    for (let i = 0; i < 600; i++) space.step(DT);
    expect(Math.abs(box.x)).toBeLessThan(0.4);
    expect(Math.hypot(box.velocity.x, box.velocity.y)).toBeLessThan(0.05);
    // Resting in the corner: its lowest corners above both faces (y ≥ |x|/4) to within a slop.
    const c = Math.cos(box.rotation);
    const s = Math.sin(box.rotation);
    for (const [lx, ly] of [[-0.3, -0.2], [0.3, -0.2]] as const) {
      const x = box.x + c * lx - s * ly;
      const y = box.y + s * lx + c * ly;
      expect(y - Math.abs(x) / 4).toBeGreaterThan(-LINEAR_SLOP);
    }
  });
});

describe('chain ray casts are one-sided', () => {
  // Ground from x = 5 to x = −5 at y = 0 (listed right to left: solid below, front up).
  const ground = (): { space: Space; segment: Segment } => {
    const space = new Space();
    const chain = new Chain({ vertices: [[5, 0], [0, 0], [-5, 0]] });
    space.addBody(new Body({ type: 'static', shapes: chain.segments }));
    return { space, segment: chain.segments[0]! };
  };

  it('a ray from the front hits, with the front normal, exactly where a plain segment is hit', () => {
    const { space } = ground();
    const hit = space.rayCast([2, 3], [2, -3]);
    expect(hit).not.toBeNull();
    expect(hit!.point.x).toBeCloseTo(2, 12);
    expect(hit!.point.y).toBeCloseTo(0, 12);
    expect(hit!.normal.y).toBe(1);
    expect(hit!.fraction).toBeCloseTo(0.5, 12);
  });

  it('a ray from behind (inside the terrain) passes through, where a plain segment stops it', () => {
    const { space } = ground();
    expect(space.rayCast([2, -3], [2, 3])).toBeNull();
    expect(space.rayCastAll([2, -3], [2, 3])).toEqual([]);
    const plain = new Space();
    plain.addBody(new Body({ type: 'static', shapes: [new Segment({ p1: [5, 0], p2: [-5, 0] })] }));
    expect(plain.rayCast([2, -3], [2, 3])!.normal.y).toBe(-1);
  });

  it('a ray along the segment passes', () => {
    const { space } = ground();
    expect(space.rayCast([6, 0], [-6, 0])).toBeNull();
  });
});
