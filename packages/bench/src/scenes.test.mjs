import { describe, expect, it } from 'vitest';
import { ENGINES } from './engines/index.mjs';
import { J_LIMITS, SCENE_IDS, SIZES, buildScene, limitViolation, measureQuality, median, weldError, worldPoint, worstSeparation } from './scenes.mjs';

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

  it('quick sizes are small', () => {
    expect(buildScene('B', SIZES.quick).bodies.length - 1).toBe(210);
    expect(buildScene('C', SIZES.quick).joints).toHaveLength(760);
    expect(buildScene('D', SIZES.quick).joints).toHaveLength(40);
    expect(buildScene('H', SIZES.quick).joints).toHaveLength(100);
    for (const id of ['J', 'J-user', 'J-sym', 'K', 'K-user', 'K-sym']) expect(buildScene(id, SIZES.quick).joints).toHaveLength(760);
  });

  it('every scene builds, and every engine runs A–D', () => {
    for (const id of SCENE_IDS) expect(buildScene(id, SIZES.quick).id).toBe(id);
    for (const e of ENGINES) expect(e.scenes.slice(0, 4)).toEqual(['A', 'B', 'C', 'D']);
  });
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
