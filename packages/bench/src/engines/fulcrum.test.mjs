// The Fulcrum adapter's UserConstraint pivots: scene E's bulk kernel must move the grid exactly as
// scene I's hooks do (the engine's promise for a correct kernel), and both must hold like scene C.
import { describe, expect, it } from 'vitest';
import { BODY_STATE_STRIDE, Body, BodyState, Circle } from '@fulcrum/physics';
import { SIZES, buildScene, measureQuality, worstSeparation } from '../scenes.mjs';
import { UserDistance, UserWeldHooks, create } from './fulcrum.mjs';

async function run(id, steps) {
  const spec = buildScene(id, SIZES.quick);
  const sim = await create(spec);
  for (let i = 0; i < steps; i++) sim.step();
  return { spec, sim, poses: spec.bodies.flatMap((_, k) => sim.pose(k)) };
}

describe('Fulcrum adapter: UserConstraint pivots', () => {
  it('scene E (bulk kernel) steps bitwise like scene I (hooks alone), and holds as scene C does', async () => {
    const e = await run('E', 60);
    const i = await run('I', 60);
    const c = await run('C', 60);
    expect(e.sim.settings.joint).toMatch(/batchKernel/);
    expect(i.sim.settings.joint).toMatch(/hooks only/);
    for (let k = 0; k < e.poses.length; k++) if (!Object.is(e.poses[k], i.poses[k])) expect.fail(`value ${k}: ${e.poses[k]} vs ${i.poses[k]}`);
    const sepE = worstSeparation(e.spec, e.sim.pose);
    const sepC = worstSeparation(c.spec, c.sim.pose);
    expect(sepE).toBeLessThan(2 * sepC + 1e-3);
    // The grid really sagged.
    const drop = Math.max(...e.spec.bodies.map((b, k) => b.y - e.poses[3 * k + 1]));
    expect(drop).toBeGreaterThan(0.01);
  });
});

// Scenes J and K, each built three ways: the built-in joint, a UserConstraint subclass, and a
// SymbolicConstraint from the seed's examples. A 10 x 10 grid (static bodies i = 2 … 8 of the top row).
const SMALL = { ...SIZES.quick, J: { n: 10 }, K: { n: 10 } };

/** Poses (x, y, angle of every body) after each of `steps` steps; `kind` overrides the spec's joint kind. */
async function trajectory(id, steps, kind) {
  const spec = buildScene(id, SMALL);
  if (kind) spec.jointKind = kind;
  const sim = await create(spec);
  const out = [];
  for (let i = 0; i < steps; i++) {
    sim.step();
    out.push(spec.bodies.flatMap((_, k) => sim.pose(k)));
  }
  return { spec, sim, out };
}

const worstDiff = (a, b) => {
  let w = 0;
  for (let k = 0; k < a.length; k++) w = Math.max(w, Math.abs(a[k] - b[k]));
  return w;
};

describe('scene K: WeldJoint, UserWeld and the WELD example step alike', () => {
  it('to round-off over 60 steps, with the same quality figures', async () => {
    const k = await trajectory('K', 60);
    const u = await trajectory('K-user', 60);
    const s = await trajectory('K-sym', 60);
    expect(k.sim.settings.joint).toBe('WeldJoint');
    expect(u.sim.settings.joint).toMatch(/UserWeld .*batchKernel/);
    expect(s.sim.settings.joint).toMatch(/examples\.WELD/);
    for (let i = 0; i < 60; i++) {
      expect(worstDiff(k.out[i], u.out[i])).toBeLessThan(1e-12);
      expect(worstDiff(k.out[i], s.out[i])).toBeLessThan(1e-12);
    }
    const qk = measureQuality(k.spec, k.sim.pose);
    const qu = measureQuality(u.spec, u.sim.pose);
    expect(qu.worstSeparation).toBeCloseTo(qk.worstSeparation, 12);
    expect(qu.worstAngle).toBeCloseTo(qk.worstAngle, 12);
    // The welded grid is a near-rigid plate: it sagged a little (about 0.2 mm here), the welds
    // bent by a fraction of a milliradian.
    expect(Math.max(...k.spec.bodies.map((b, i) => b.y - k.out[59][3 * i + 1]))).toBeGreaterThan(1e-5);
    expect(qk.worstAngle).toBeGreaterThan(0);
    expect(qk.worstAngle).toBeLessThan(0.01);
  });

  it("UserWeld's bulk kernel steps bitwise like its hooks alone (UserWeldHooks)", async () => {
    const kernel = await trajectory('K-user', 30);
    const hooks = await trajectory('K-user', 30, 'weld-user-hooks');
    expect(kernel.sim.settings.solverFamily ?? 'user-batch').toBe('user-batch');
    for (let i = 0; i < 30; i++) for (let k = 0; k < kernel.out[i].length; k++) if (!Object.is(kernel.out[i][k], hooks.out[i][k])) expect.fail(`step ${i} value ${k}: ${kernel.out[i][k]} vs ${hooks.out[i][k]}`);
  });
});

describe('scene J: DistanceJoint, UserDistance and the DISTANCE example step alike', () => {
  it('UserDistance and the symbolic limit to round-off of the built-in joint, while the limits engage', async () => {
    const STEPS = 30;
    const j = await trajectory('J', STEPS);
    const u = await trajectory('J-user', STEPS);
    const s = await trajectory('J-sym', STEPS);
    expect(j.sim.settings.joint).toBe('DistanceJoint');
    expect(u.sim.settings.joint).toMatch(/UserDistance/);
    expect(s.sim.settings.joint).toMatch(/examples\.DISTANCE/);
    // At rest every joint is slack (1 m in [0.9, 1.1]), so the first steps are a free fall of the
    // dynamic bodies, bitwise the same in all three (the first limit engages at step 19 here).
    for (let i = 0; i < 15; i++) {
      expect(worstDiff(j.out[i], u.out[i])).toBe(0);
      expect(worstDiff(j.out[i], s.out[i])).toBe(0);
    }
    for (let i = 0; i < STEPS; i++) {
      // All three use one limit scheme (each bound a one-sided row); the user and symbolic rows are
      // solved in the user batch, before the built-in joints, so they differ by solve order and round-off.
      expect(worstDiff(u.out[i], s.out[i])).toBeLessThan(1e-12);
      expect(worstDiff(j.out[i], u.out[i])).toBeLessThan(1e-9);
    }
    // The limits really engaged: the upper limit is reached and held (to a few cm).
    const q = measureQuality(u.spec, u.sim.pose);
    expect(q.maxDistance).toBeGreaterThan(1.09);
    expect(q.worstViolation).toBeLessThan(0.05);
    expect(measureQuality(j.spec, j.sim.pose).worstViolation).toBeLessThan(0.05);
  });
});

// ------------------------------------------------------------------ the user constraints' Jacobians

/**
 * A packed state of two bodies (BODY_STATE_STRIDE numbers each) with the given poses [x, y, θ] of
 * their origins and centres of mass at local (lcx, lcy).
 */
function packedState(poses, coms) {
  const st = new Float64Array(2 * BODY_STATE_STRIDE);
  poses.forEach(([x, y, a], s) => {
    const o = s * BODY_STATE_STRIDE;
    const [lx, ly] = coms[s];
    const c = Math.cos(a);
    const n = Math.sin(a);
    st[o + BodyState.x] = x;
    st[o + BodyState.y] = y;
    st[o + BodyState.rotation] = a;
    st[o + BodyState.cos] = c;
    st[o + BodyState.sin] = n;
    st[o + BodyState.comX] = x + c * lx - n * ly;
    st[o + BodyState.comY] = y + n * lx + c * ly;
  });
  return st;
}

/**
 * J by central differences of f(state) (rows of numbers): each body moved by ±ε in x and y, and
 * turned by ±ε about its centre of mass — the columns J uses.
 */
function finiteDifferenceJ(f, poses, coms, rows, eps = 1e-6) {
  const J = new Float64Array(rows * 6);
  for (let s = 0; s < 2; s++) {
    for (let d = 0; d < 3; d++) {
      const moved = (h) => {
        const p = poses.map((q) => [...q]);
        if (d < 2) p[s][d] += h;
        else {
          // Turn about the centre of mass: com fixed, origin = com − R(θ + h)·lc.
          const [x, y, a] = p[s];
          const [lx, ly] = coms[s];
          const cx = x + Math.cos(a) * lx - Math.sin(a) * ly;
          const cy = y + Math.sin(a) * lx + Math.cos(a) * ly;
          const b = a + h;
          p[s] = [cx - (Math.cos(b) * lx - Math.sin(b) * ly), cy - (Math.sin(b) * lx + Math.cos(b) * ly), b];
        }
        return f(packedState(p, coms));
      };
      const plus = moved(eps);
      const minus = moved(-eps);
      for (let r = 0; r < rows; r++) J[r * 6 + 3 * s + d] = (plus[r] - minus[r]) / (2 * eps);
    }
  }
  return J;
}

describe("the user constraints' J matches a finite difference of their C", () => {
  const body = () => new Body({ shapes: [new Circle({ radius: 0.4 })] });
  const poses = [[0.3, -0.2, 0.4], [1.2, 0.5, -0.7]];
  const coms = [[0.1, -0.05], [-0.2, 0.15]]; // off the origin, so the lever arms are not the anchors

  it('UserDistance: C = |p2 − p1|, J = [−n, −(r1 × n), n, r2 × n]; with centre anchors the angular entries vanish', () => {
    for (const [a1, a2] of [[[0.5, 0.1], [-0.3, 0.2]], [[0, 0], [0, 0]]]) {
      const c = new UserDistance(body(), body(), a1, a2, 0.9, 1.1);
      const st = packedState(poses, coms);
      const J = new Float64Array(6);
      const L = c.lengthJacobian(J, st);
      expect(L).toBeCloseTo(c.length(st), 15);
      const fd = finiteDifferenceJ((s) => [c.length(s)], poses, coms, 1);
      for (let k = 0; k < 6; k++) expect(J[k]).toBeCloseTo(fd[k], 8);
      // The linear parts are ±n, a unit vector.
      expect(Math.hypot(J[3], J[4])).toBeCloseTo(1, 14);
    }
    // Centre anchors and centres of mass at the origins (scene J's circles): J = [−n, 0, n, 0].
    const c = new UserDistance(body(), body(), [0, 0], [0, 0], 0.9, 1.1);
    const J = new Float64Array(6);
    c.lengthJacobian(J, packedState(poses, [[0, 0], [0, 0]]));
    expect(Math.abs(J[2]) + Math.abs(J[5])).toBe(0);
  });

  it('UserWeld: C = [(p2 + r2) − (p1 + r1), θ2 − θ1 − phase], its 3 × 6 J', () => {
    const c = new UserWeldHooks(body(), body(), [0.5, 0.1], [-0.3, 0.2], 0.25);
    const J = new Float64Array(18);
    c.jacobian(J, packedState(poses, coms));
    const fd = finiteDifferenceJ(
      (s) => {
        const err = new Float64Array(3);
        c.position(err, s);
        return err;
      },
      poses,
      coms,
      3,
    );
    for (let k = 0; k < 18; k++) expect(J[k]).toBeCloseTo(fd[k], 8);
    const err = new Float64Array(3);
    c.position(err, packedState(poses, coms));
    expect(err[2]).toBeCloseTo(-0.7 - 0.4 - 0.25, 15);
  });
});

describe('scene L: the adapter starts each body with the spec velocity, and the box holds them', () => {
  it('velocity(k) is the spec velocity before the first step; after 60 steps none has escaped', async () => {
    const spec = buildScene('L', SIZES.quick);
    const sim = await create(spec);
    for (let k = 0; k < spec.bodies.length; k++) expect(sim.velocity(k)).toEqual(spec.bodies[k].velocity ?? [0, 0]);
    const start = measureQuality(spec, sim.pose, sim.velocity);
    expect(start.escaped).toBe(0);
    expect(start.meanSpeed).toBeGreaterThan(50);
    for (let i = 0; i < 60; i++) sim.step();
    const q = measureQuality(spec, sim.pose, sim.velocity);
    expect(q.escaped).toBe(0);
    // Still moving (restitution 1), and not faster than the start (no energy from nowhere).
    expect(q.meanSpeed).toBeGreaterThan(1);
    expect(q.meanSpeed).toBeLessThan(start.meanSpeed);
  });
});
