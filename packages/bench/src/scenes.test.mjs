import { describe, expect, it } from 'vitest';
import { ENGINES } from './engines/index.mjs';
import { sweepOrder } from './sweep.mjs';
import { join } from 'node:path';
import { ENGINE_IDS, loadAdapter } from './engines/index.mjs';
import { parseOptions } from './options.mjs';
import {
  DEFAULT_SCENE_IDS, J_LIMITS, L_BOX, L_SPEED, M_GROUND_THICKNESS, OPT_IN_SCENES, SCENE_IDS, SIZES,
  buildScene, escapes, limitViolation, measureQuality, median, pyramidsStanding, seededRandom, weldError, worldPoint, worstSeparation,
} from './scenes.mjs';

/** Poses of the spec itself (every body where it starts, angle 0). */
const startPose = (spec) => (k) => [spec.bodies[k].x, spec.bodies[k].y, 0];

describe('scene specs at full size', () => {
  it('A: 20-row pyramid of 210 boxes on a 200 x 1 ground centred at (0, -0.5)', () => {
    const s = buildScene('A', SIZES.full);
    expect(s.bodies[0]).toMatchObject({ type: 'static', x: 0, y: -0.5, shape: { kind: 'box', w: 200, h: 1 } });
    expect(s.bodies.filter((b) => b.type === 'dynamic')).toHaveLength(210);
    expect(s.bodies[s.top]).toMatchObject({ x: 0, y: 19.5 });
    // row 0 spans x = -9.5 .. 9.5, resting on the ground
    const row0 = s.bodies.filter((b) => b.type === 'dynamic' && b.y === 0.5).map((b) => b.x);
    expect(Math.min(...row0)).toBe(-9.5);
    expect(Math.max(...row0)).toBe(9.5);
  });

  it('B: 100 rows, 5050 boxes', () => {
    const s = buildScene('B', SIZES.full);
    expect(s.bodies.length - 1).toBe(5050);
    expect(s.bodies[s.top]).toMatchObject({ x: 0, y: 99.5 });
  });

  it('C, E, F, I: 100 x 100 circles, the 7 middle top-row bodies static, 19,800 joints, no collisions', () => {
    for (const id of ['C', 'E', 'F', 'I']) {
      const s = buildScene(id, SIZES.full);
      expect(s.bodies).toHaveLength(10000);
      expect(s.joints).toHaveLength(19800);
      const statics = s.bodies.filter((b) => b.type === 'static');
      expect(statics.map((b) => [b.x, b.y])).toEqual([47, 48, 49, 50, 51, 52, 53].map((i) => [i, -0]));
      expect(s.bodies.every((b) => b.collide === false && b.shape.kind === 'circle' && b.shape.r === 0.4)).toBe(true);
      expect(worstSeparation(s, startPose(s))).toBe(0); // anchors coincide at the start
    }
    expect(buildScene('E', SIZES.full).jointKind).toBe('user');
    expect(buildScene('F', SIZES.full).jointKind).toBe('symbolic');
    expect(buildScene('I', SIZES.full).jointKind).toBe('user-hooks');
  });

  it('D: 200 links of 1 x 0.25 m pinned to a shapeless static anchor at the origin', () => {
    const s = buildScene('D', SIZES.full);
    expect(s.bodies).toHaveLength(201);
    expect(s.bodies[0]).toMatchObject({ type: 'static', x: 0, y: 0, shape: null });
    expect(s.bodies[200]).toMatchObject({ x: 199.5, y: 0, shape: { kind: 'box', w: 1, h: 0.25 } });
    expect(s.joints).toHaveLength(200);
    expect(s.joints[0]).toEqual({ a: 0, b: 1, anchorA: [0, 0], anchorB: [-0.5, 0] });
    expect(worstSeparation(s, startPose(s))).toBe(0);
  });

  it('G, H: the chain of D with 1000 links, built-in and symbolic pivots', () => {
    for (const [id, kind] of [['G', 'pivot'], ['H', 'symbolic']]) {
      const s = buildScene(id, SIZES.full);
      expect(s.bodies).toHaveLength(1001);
      expect(s.joints).toHaveLength(1000);
      expect(s.jointKind).toBe(kind);
      expect(s.joints.slice(0, 3)).toEqual(buildScene('D', SIZES.full).joints.slice(0, 3));
      expect(worstSeparation(s, startPose(s))).toBe(0);
    }
  });

  it("J: scene C's grid and neighbour pairs, each a distance limit [0.9, 1.1] m between the body centres", () => {
    const c = buildScene('C', SIZES.full);
    for (const [id, kind] of [['J', 'distance'], ['J-user', 'distance-user'], ['J-sym', 'distance-sym']]) {
      const s = buildScene(id, SIZES.full);
      expect(s.jointKind).toBe(kind);
      expect(s.bodies).toEqual(c.bodies);
      expect(s.joints.map((j) => [j.a, j.b])).toEqual(c.joints.map((j) => [j.a, j.b]));
      expect(s.joints.every((j) => j.anchorA.every((v) => v === 0) && j.anchorB.every((v) => v === 0))).toBe(true);
      expect(s.limits).toEqual([0.9, 1.1]);
      // At rest the neighbours are 1 m apart: every limit is slack, nothing violated.
      expect(measureQuality(s, startPose(s))).toEqual({ worstViolation: 0, minDistance: 1, maxDistance: 1 });
    }
    expect(J_LIMITS).toEqual([0.9, 1.1]);
  });

  it("K: scene C's grid, pairs and anchors, each joint a weld", () => {
    const c = buildScene('C', SIZES.full);
    for (const [id, kind] of [['K', 'weld'], ['K-user', 'weld-user'], ['K-sym', 'weld-sym']]) {
      const s = buildScene(id, SIZES.full);
      expect(s.jointKind).toBe(kind);
      expect(s.bodies).toEqual(c.bodies);
      expect(s.joints).toEqual(c.joints);
      expect(measureQuality(s, startPose(s))).toEqual({ worstSeparation: 0, worstAngle: 0 });
    }
  });

  it('L: 500 small dynamic bodies inside a closed box of four thin static walls, no overlaps, each at 50–150 m/s', () => {
    const s = buildScene('L', SIZES.full);
    const { half, wall } = L_BOX;
    expect(half).toBe(10);
    expect(wall).toBe(0.1);
    expect(s.measure).toBe('escape');
    expect(s.box).toEqual({ x: 0, y: 0, half: 10 });
    expect(s.joints).toEqual([]);
    const walls = s.bodies.filter((b) => b.type === 'static');
    const dyn = s.bodies.filter((b) => b.type === 'dynamic');
    expect(walls).toHaveLength(4);
    expect(dyn).toHaveLength(500);
    expect(s.bodies).toHaveLength(504);
    // The walls' inner faces are the box's sides, and the walls close the corners.
    const faces = walls.map((w) => [w.x - w.shape.w / 2, w.x + w.shape.w / 2, w.y - w.shape.h / 2, w.y + w.shape.h / 2]);
    expect(walls.every((w) => w.collide && !w.velocity && Math.min(w.shape.w, w.shape.h) === wall && Math.max(w.shape.w, w.shape.h) >= 2 * (half + wall))).toBe(true);
    expect(faces.map((f) => f.map((v) => Math.round(v * 1e9) / 1e9))).toEqual([
      [-10.1, -10, -10.1, 10.1],
      [10, 10.1, -10.1, 10.1],
      [-10.1, 10.1, -10.1, -10],
      [-10.1, 10.1, 10, 10.1],
    ]);
    // A mix of small circles and small boxes.
    const circles = dyn.filter((b) => b.shape.kind === 'circle');
    const boxes = dyn.filter((b) => b.shape.kind === 'box');
    expect(circles.length + boxes.length).toBe(500);
    expect(circles.length).toBeGreaterThan(200);
    expect(boxes.length).toBeGreaterThan(200);
    expect(circles.every((b) => b.shape.r >= 0.05 && b.shape.r <= 0.1)).toBe(true);
    expect(boxes.every((b) => [b.shape.w, b.shape.h].every((d) => d >= 0.1 && d <= 0.2))).toBe(true);
    // Every body wholly inside, at any angle (its bounding circle), and no two bounding circles overlap.
    const reach = (b) => (b.shape.kind === 'circle' ? b.shape.r : Math.hypot(b.shape.w, b.shape.h) / 2);
    for (const b of dyn) {
      expect(Math.abs(b.x) + reach(b)).toBeLessThan(half);
      expect(Math.abs(b.y) + reach(b)).toBeLessThan(half);
    }
    let closest = Infinity;
    for (let i = 0; i < dyn.length; i++) {
      for (let j = i + 1; j < dyn.length; j++) {
        const gap = Math.hypot(dyn[j].x - dyn[i].x, dyn[j].y - dyn[i].y) - reach(dyn[i]) - reach(dyn[j]);
        if (gap < closest) closest = gap;
      }
    }
    expect(closest).toBeGreaterThan(0);
    // Initial velocities: 50 to 150 m/s, in every direction.
    const speeds = dyn.map((b) => Math.hypot(...b.velocity));
    expect(L_SPEED).toEqual([50, 150]);
    expect(Math.min(...speeds)).toBeGreaterThanOrEqual(50);
    expect(Math.max(...speeds)).toBeLessThanOrEqual(150);
    expect(Math.min(...speeds)).toBeLessThan(55);
    expect(Math.max(...speeds)).toBeGreaterThan(145);
    const quadrants = new Set(dyn.map((b) => `${Math.sign(b.velocity[0])},${Math.sign(b.velocity[1])}`));
    expect(quadrants.size).toBe(4);
    // Fast enough to cross a wall in one step (1/60 s) many times over: it is continuous collision that keeps them in.
    expect(Math.min(...speeds) / 60).toBeGreaterThan(5 * wall);
    // Restitution 1 on every shape (see fastBodies); nothing starts turned.
    expect(s.bodies.every((b) => b.restitution === 1)).toBe(true);
    // At the start, nothing is outside and the mean speed is the mean of the initial speeds.
    const q = measureQuality(s, startPose(s), (k) => s.bodies[k].velocity ?? [0, 0]);
    expect(q.escaped).toBe(0);
    expect(q.meanSpeed).toBeCloseTo(speeds.reduce((a, b) => a + b) / 500, 12);
    expect(q.meanSpeed).toBeGreaterThan(90);
    expect(q.meanSpeed).toBeLessThan(110);
  });

  it('L: the layout is a function of the seed (the same every build), and quick has 100 bodies', () => {
    expect(buildScene('L', SIZES.full)).toEqual(buildScene('L', SIZES.full));
    const r = seededRandom(1);
    const a = [r(), r(), r()];
    const r2 = seededRandom(1);
    expect([r2(), r2(), r2()]).toEqual(a);
    expect(a.every((x) => x >= 0 && x < 1)).toBe(true);
    const q = buildScene('L', SIZES.quick);
    expect(q.bodies.filter((b) => b.type === 'dynamic')).toHaveLength(100);
    expect(escapes(q, startPose(q), () => [0, 0]).escaped).toBe(0);
  });

  it('scenes other than L have no initial velocity and restitution 0 (the spec format before L)', () => {
    for (const id of SCENE_IDS.filter((x) => x !== 'L')) {
      expect(buildScene(id, SIZES.quick).bodies.every((b) => b.velocity === undefined && b.restitution === undefined)).toBe(true);
    }
  });

  it('L is Fulcrum only: no other engine lists it, and the sweep runs it for Fulcrum alone', () => {
    expect(ENGINES.filter((e) => e.scenes.includes('L')).map((e) => e.id)).toEqual(['fulcrum']);
    const all = ENGINES.map((e) => e.id);
    expect(sweepOrder(['A', 'L'], all).filter((p) => p.scene === 'L')).toEqual([{ scene: 'L', engine: 'fulcrum' }]);
    expect(sweepOrder(['L'], all.filter((e) => e !== 'fulcrum'))).toEqual([]);
  });

  it('quick sizes are small', () => {
    expect(buildScene('B', SIZES.quick).bodies.length - 1).toBe(210);
    expect(buildScene('C', SIZES.quick).joints).toHaveLength(760);
    expect(buildScene('D', SIZES.quick).joints).toHaveLength(40);
    expect(buildScene('H', SIZES.quick).joints).toHaveLength(100);
    for (const id of ['J', 'J-user', 'J-sym', 'K', 'K-user', 'K-sym']) expect(buildScene(id, SIZES.quick).joints).toHaveLength(760);
  });

  it("M: Box2D v3's many_pyramids, 20 x 20 pyramids of 10 rows: 22,000 dynamic 1 x 1 m boxes on 20 static grounds", () => {
    const s = buildScene('M', SIZES.full);
    expect(SIZES.full.M).toEqual({ rows: 20, columns: 20, base: 10 });
    expect(s.title).toBe('many pyramids 20x20, 10 rows each (22000 boxes)');
    expect(s.joints).toEqual([]);
    expect(s.measure).toBe('pyramids');
    const grounds = s.bodies.filter((b) => b.type === 'static');
    const boxes = s.bodies.filter((b) => b.type === 'dynamic');
    expect(s.bodies).toHaveLength(22020);
    expect(boxes).toHaveLength(22000);
    expect(grounds).toHaveLength(20);
    // The grounds come first (bodies 0 … 19), then the boxes.
    expect(s.bodies.slice(0, 20).every((b) => b.type === 'static')).toBe(true);
    expect(boxes.every((b) => b.collide && b.shape.kind === 'box' && b.shape.w === 1 && b.shape.h === 1)).toBe(true);
    expect(s.bodies.every((b) => b.velocity === undefined && b.restitution === undefined)).toBe(true);
    // Ground t: Box2D's line y = 11 t from x = -110 to 110, as a 220 x 0.1 m box whose top face is the line.
    expect(M_GROUND_THICKNESS).toBe(0.1);
    grounds.forEach((g, t) => {
      expect(g).toMatchObject({ x: 0, collide: true, shape: { kind: 'box', w: 220, h: 0.1 } });
      expect(g.y + g.shape.h / 2).toBeCloseTo(11 * t, 12);
    });
    // 400 pyramids, 55 boxes each, one top box each.
    expect(s.tops).toHaveLength(400);
    expect(new Set(s.tops).size).toBe(400);
    expect(s.tops.every((k) => s.bodies[k].type === 'dynamic')).toBe(true);
  });

  it("M: the boxes sit where Box2D v3's CreateManyPyramids puts them, in its order", () => {
    // shared/benchmarks.c (erincatto/box2d): extent 0.5, baseCount 10, 20 rows and 20 columns; restated here.
    const e = 0.5;
    const base = 10;
    const tiers = 20;
    const columns = 20;
    const groundDeltaY = 2 * e * (base + 1);
    const groundWidth = 2 * e * columns * (base + 1);
    const expected = [];
    for (let t = 0; t < tiers; t++) {
      for (let c = 0; c < columns; c++) {
        const centerX = -0.5 * groundWidth + c * (2 * e * base + 2 * e) + 2 * e;
        for (let i = 0; i < base; i++) {
          for (let j = i; j < base; j++) expected.push([(i + 1) * e + 2 * (j - i) * e + centerX - 0.5, (2 * i + 1) * e + t * groundDeltaY]);
        }
      }
    }
    const s = buildScene('M', SIZES.full);
    expect(s.bodies.slice(20).map((b) => [b.x, b.y])).toEqual(expected);
  });

  it("M: no two boxes overlap, neighbouring pyramids' bases are 1 m apart, and every tier stands clear of the ground above", () => {
    const s = buildScene('M', SIZES.full);
    const boxes = s.bodies.filter((b) => b.type === 'dynamic');
    // Boxes of one row of one tier, sorted by x: touching (1 m apart) within a pyramid, 1 m gaps between pyramids.
    const rows = new Map();
    for (const b of boxes) {
      if (!rows.has(b.y)) rows.set(b.y, []);
      rows.get(b.y).push(b.x);
    }
    expect(rows.size).toBe(200); // 20 tiers x 10 rows
    let gaps = 0;
    for (const [, xs] of rows) {
      xs.sort((a, b) => a - b);
      for (let k = 1; k < xs.length; k++) {
        const d = xs[k] - xs[k - 1];
        expect(d).toBeGreaterThanOrEqual(1); // no overlap: centres of 1 m boxes at least 1 m apart
        if (d > 1) gaps++;
      }
    }
    expect(gaps).toBeGreaterThan(0);
    // The bases (row y = 0.5 of tier 0): 20 runs of 10 touching boxes, 2 m between the centres at a gap (1 m of space).
    const base0 = rows.get(0.5);
    expect(base0).toHaveLength(200);
    const steps = base0.slice(1).map((x, k) => x - base0[k]);
    expect(steps.filter((d) => d === 2)).toHaveLength(19);
    expect(steps.filter((d) => d === 1)).toHaveLength(180);
    expect(base0[0] - 0.5).toBe(-109.5); // 0.5 m from the ground's end
    expect(base0.at(-1) + 0.5).toBe(109.5);
    // Vertically: each box sits on the one below or the ground (half-integer heights), and each tier's top box
    // (top face 10 m above its ground) is 0.9 m below the underside of the next ground.
    const grounds = s.bodies.filter((b) => b.type === 'static');
    for (let t = 0; t < 20; t++) {
      const top = Math.max(...boxes.filter((b) => b.y > 11 * t && b.y < 11 * (t + 1)).map((b) => b.y + 0.5));
      expect(top).toBe(11 * t + 10);
      if (t + 1 < 20) expect(grounds[t + 1].y - grounds[t + 1].shape.h / 2 - top).toBeCloseTo(0.9, 12);
    }
    // Each pyramid's top box is above its base's centre.
    for (const k of s.tops) expect(s.bodies[k].y % 11).toBe(9.5);
  });

  it('M: quality counts the pyramids standing and gives the worst top displacement (NaN when a pose is NaN)', () => {
    const s = buildScene('M', SIZES.quick);
    expect(s.bodies.filter((b) => b.type === 'dynamic')).toHaveLength(25 * 55);
    expect(s.tops).toHaveLength(25);
    expect(measureQuality(s, startPose(s))).toEqual({ pyramids: 25, standing: 25, worstTopDx: 0, worstTopDy: 0 });
    const [t0, t1] = s.tops;
    const moved = (k0, dx, dy) => (k) => (k === k0 ? [s.bodies[k].x + dx, s.bodies[k].y + dy, 0] : startPose(s)(k));
    const q = pyramidsStanding(s, moved(t1, 0.25, -1.5));
    expect(q.standing).toBe(24);
    expect(q.worstTopDx).toBeCloseTo(0.25, 12);
    expect(q.worstTopDy).toBeCloseTo(-1.5, 12);
    expect(pyramidsStanding(s, moved(t0, -0.5, -0.5)).standing).toBe(25);
    const nan = pyramidsStanding(s, moved(t0, NaN, 0));
    expect(nan.standing).toBe(24);
    expect(nan.worstTopDx).toBeNaN();
    expect(nan.worstTopDy).toBeNaN();
  });

  it('M is opt-in: not in a run without --scenes (full or --quick), nor in results/latest.json; runs with --scenes M', () => {
    expect(OPT_IN_SCENES).toEqual(['M']);
    expect(SCENE_IDS).toContain('M');
    expect(DEFAULT_SCENE_IDS).not.toContain('M');
    expect(DEFAULT_SCENE_IDS).toEqual(SCENE_IDS.filter((id) => id !== 'M'));
    const pkgDir = '/pkg';
    const parse = (...argv) => parseOptions(argv, { pkgDir, env: {} });
    const full = parse();
    expect(full.scenes).toEqual(DEFAULT_SCENE_IDS);
    expect(full.out).toBe(join(pkgDir, 'results', 'latest.json'));
    expect(parse('--quick').scenes).toEqual(DEFAULT_SCENE_IDS);
    expect(parse('--engines', ENGINE_IDS.join(',')).out).toBe(join(pkgDir, 'results', 'latest.json'));
    const m = parse('--scenes', 'm', '--workers', '2');
    expect(m.scenes).toEqual(['M']);
    expect(m.workers).toBe(2);
    expect(m.out).toBe(join(pkgDir, 'results', 'partial.json'));
    // Every scene named, M with them: still not the published run.
    expect(parse('--scenes', SCENE_IDS.join(',')).out).toBe(join(pkgDir, 'results', 'partial.json'));
    expect(parse('--scenes', `B,M`).scenes).toEqual(['B', 'M']);
  });

  it('M runs on Fulcrum, both Rapier builds, box2d-wasm and matter-js; planck and p2-es skip it (too slow, see README)', () => {
    expect(ENGINES.filter((e) => e.scenes.includes('M')).map((e) => e.id)).toEqual(['fulcrum', 'matter', 'rapier', 'rapier-simd', 'box2d']);
    const all = ENGINES.map((e) => e.id);
    expect(sweepOrder(['M'], all)).toEqual(['fulcrum', 'matter', 'rapier', 'rapier-simd', 'box2d'].map((engine) => ({ scene: 'M', engine })));
  });

  it('every scene builds, and every engine runs A–D', () => {
    for (const id of SCENE_IDS) expect(buildScene(id, SIZES.quick).id).toBe(id);
    for (const e of ENGINES) expect(e.scenes.slice(0, 4)).toEqual(['A', 'B', 'C', 'D']);
  });
});

describe('scene M in every engine that runs it', () => {
  // Box2D v3's debug size (5 x 5 pyramids, 1,375 boxes), 30 steps: each adapter builds it, and every pyramid
  // stands. (The quick sweep of `npm test` leaves M out, as every run without --scenes does.)
  for (const e of ENGINES.filter((x) => x.scenes.includes('M'))) {
    it(`${e.label}`, async () => {
      const spec = buildScene('M', SIZES.quick);
      const sim = await (await loadAdapter(e.id)).create(spec);
      for (let i = 0; i < 30; i++) sim.step();
      const q = measureQuality(spec, sim.pose);
      expect(q.pyramids).toBe(25);
      expect(q.standing).toBe(25);
      expect(Number.isFinite(q.worstTopDx) && Number.isFinite(q.worstTopDy)).toBe(true); // (matter-js's tops sag about 0.5 m: its constants are for pixels)
    }, 60_000);
  }
});

describe('measurement', () => {
  it('worldPoint rotates the local anchor', () => {
    const p = worldPoint([1, 2, Math.PI / 2], [0.5, 0]);
    expect(p[0]).toBeCloseTo(1, 12);
    expect(p[1]).toBeCloseTo(2.5, 12);
  });

  it('worst separation is the largest anchor gap, and NaN poses report NaN', () => {
    const s = buildScene('D', SIZES.quick);
    const pose = (k) => (k === 3 ? [s.bodies[3].x + 0.1, 0, 0] : startPose(s)(k));
    expect(worstSeparation(s, pose)).toBeCloseTo(0.1, 12);
    expect(worstSeparation(s, (k) => (k === 5 ? [NaN, 0, 0] : startPose(s)(k)))).toBeNaN();
  });

  it('J: the worst violation of [0.9, 1.1] on either side, with the shortest and longest anchor distance', () => {
    const s = buildScene('J', SIZES.quick);
    const at = (k, dx, dy) => (q) => (q === k ? [s.bodies[k].x + dx, s.bodies[k].y + dy, 0.3] : startPose(s)(q));
    // Body 21 (i = 1, j = 1) moved 0.15 m right: 1.15 m to its left neighbour, 0.85 m to its right one.
    const q = limitViolation(s, at(21, 0.15, 0));
    expect(q.worstViolation).toBeCloseTo(0.05, 12);
    expect(q.minDistance).toBeCloseTo(0.85, 12);
    expect(q.maxDistance).toBeCloseTo(1.15, 12);
    // Inside the limits: no violation (the angle does not matter with centre anchors).
    expect(limitViolation(s, at(21, 0.05, 0)).worstViolation).toBe(0);
    expect(limitViolation(s, at(21, NaN, 0)).worstViolation).toBeNaN();
  });

  it('K: the worst anchor separation and the worst relative angle', () => {
    const s = buildScene('K', SIZES.quick);
    const turned = (q) => (q === 21 ? [s.bodies[21].x, s.bodies[21].y, 0.02] : startPose(s)(q));
    const q = weldError(s, turned);
    expect(q.worstAngle).toBeCloseTo(0.02, 15);
    expect(q.worstSeparation).toBeCloseTo(0.5 * Math.hypot(1 - Math.cos(0.02), Math.sin(0.02)), 12);
  });

  it('L: a body outside the box, in a wall, or NaN counts as escaped; the mean speed is over the dynamic bodies', () => {
    const s = buildScene('L', SIZES.quick);
    const rest = () => [0, 0];
    const moved = (k0, x, y) => (k) => (k === k0 ? [x, y, 0] : startPose(s)(k));
    expect(measureQuality(s, startPose(s), rest)).toEqual({ escaped: 0, meanSpeed: 0 });
    expect(measureQuality(s, moved(4, 10.5, 0), rest).escaped).toBe(1); // beyond the right wall
    expect(measureQuality(s, moved(7, 0, -12), rest).escaped).toBe(1); // below the floor
    expect(measureQuality(s, moved(9, 3, 10.05), rest).escaped).toBe(1); // stuck in the top wall
    expect(measureQuality(s, moved(9, -9.95, 9.95), rest).escaped).toBe(0); // in a corner, still inside
    expect(measureQuality(s, moved(5, NaN, 0), rest).escaped).toBe(1);
    const two = (k) => (k === 4 || k === 5 ? [-30, 30, 0] : startPose(s)(k));
    expect(measureQuality(s, two, rest).escaped).toBe(2);
    // Mean speed: the walls (bodies 0–3) are not counted.
    const v = (k) => (k < 4 ? [1000, 0] : k === 4 ? [300, 400] : [0, 0]);
    expect(measureQuality(s, startPose(s), v).meanSpeed).toBeCloseTo(500 / 100, 12);
    expect(() => measureQuality(s, startPose(s))).toThrow(/velocity/);
  });

  it('pyramid quality: top displacement and "stands"', () => {
    const s = buildScene('A', SIZES.full);
    const moved = (dx, dy) => (k) => (k === s.top ? [dx, 19.5 + dy, 0] : startPose(s)(k));
    expect(measureQuality(s, moved(0.2, -0.3))).toEqual({ topDx: 0.2, topDy: expect.closeTo(-0.3, 12), stands: true });
    expect(measureQuality(s, moved(0, -5)).stands).toBe(false);
    expect(measureQuality(s, moved(1.5, 0)).stands).toBe(false);
  });

  it('median', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });
});
