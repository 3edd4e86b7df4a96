/**
 * The joint-island solver (joint-island.ts): small islands of equality joints, solved as one
 * exact block per pass. The scene it exists for (a light plank between a ground pivot and a rigid
 * rod to a heavy ball) diverged under Gauss-Seidel whenever the rod came first; as an island it
 * never gains energy, in either order. Also: each pass is the exact velocity projection of the
 * island, a double pendulum keeps its energy, and which islands it takes.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Capsule } from '../shape/capsule.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Segment } from '../shape/segment.js';
import { Space } from '../space/space.js';
import { setSolverRouting, solverInternals } from '../test-support/solver-routing.js';
import { weldedBallOnRange } from '../test-support/scenes.js';
import type { Constraint } from './constraint.js';
import { MAX_ISLAND_ROWS, MAX_LIGHT_ISLAND_ROWS } from './joint-island.js';
import { AngleJoint } from './joints/angle-joint.js';
import { DistanceJoint } from './joints/distance-joint.js';
import { LineJoint } from './joints/line-joint.js';
import { MotorJoint } from './joints/motor-joint.js';
import { PivotJoint } from './joints/pivot-joint.js';
import { PulleyJoint } from './joints/pulley-joint.js';
import { WeldJoint } from './joints/weld-joint.js';
import { BODY_STATE_STRIDE, BodyState } from './body-state.js';
import { UserConstraint } from './user-constraint.js';

function energy(bodies: Body[], g: number): number {
  let e = 0;
  for (const b of bodies) e += 0.5 * b.mass * (b.velocity.x ** 2 + b.velocity.y ** 2) + 0.5 * b.inertia * b.angularVel ** 2 + b.mass * g * b.worldCenter.y;
  return e;
}

function lever(pin: number, mass: number, rodFirst: boolean, islands: boolean) {
  const space = new Space({ gravity: [0, -10] });
  setSolverRouting(space, { jointIsland: islands });
  const ground = space.addBody(new Body({ type: 'static' }));
  const plank = space.addBody(new Body({ shapes: [Polygon.box(0.2, 1, { offset: [0, -0.5] })] }));
  const ball = space.addBody(new Body({ position: [15, 0], mass, shapes: [new Circle({ radius: 0.1 })] }));
  const rod = new DistanceJoint({ body1: plank, body2: ball, jointMin: 15, jointMax: 15 });
  const pivot = new PivotJoint({ body1: ground, body2: plank, anchor1: [pin, 0], anchor2: [pin, 0] });
  for (const c of rodFirst ? [rod, pivot] : [pivot, rod]) space.addConstraint(c);
  return { space, plank, ball, rod, pivot };
}

describe('joint islands', () => {
  it('a light plank pinned between the ground and a heavy ball on a rigid rod never gains energy, in either order (Gauss-Seidel diverged rod first)', () => {
    for (const pin of [6, 8, 12]) {
      for (const mass of [5, 25]) {
        for (const rodFirst of [true, false]) {
          const { space, plank, ball } = lever(pin, mass, rodFirst, true);
          const e0 = energy([plank, ball], 10);
          let peak = -Infinity;
          for (let i = 0; i < 1200; i++) {
            space.step(1 / 60);
            peak = Math.max(peak, energy([plank, ball], 10));
          }
          // (The solver only ever removes energy; 1 mJ covers round-off over 1,200 steps.)
          expect(peak - e0, `pin ${pin} m, ball ${mass} kg, ${rodFirst ? 'rod' : 'pivot'} first`).toBeLessThan(1e-3);
        }
      }
    }
    // The same scene solved one joint at a time diverges (kept as the reason for the islands).
    const gs = lever(6, 5, true, false);
    // Without the speed caps, which would hold it at 400 m/s and 188 rad/s while it diverged.
    gs.space.maxLinearSpeed = Infinity;
    gs.space.maxRotationPerSubstep = Infinity;
    let fastest = 0;
    for (let i = 0; i < 1200 && fastest < 1e6; i++) {
      gs.space.step(1 / 60);
      fastest = Math.max(fastest, Math.hypot(gs.ball.velocity.x, gs.ball.velocity.y));
    }
    expect(fastest).toBeGreaterThan(1e6);
  });

  it('takes user constraints in jacobian form too: the same lever with a user rod, in either order, never gains energy', () => {
    class UserRod extends UserConstraint {
      constructor(a: Body, b: Body) {
        super({ dimensions: 1, bodies: [a, b], packedState: true });
      }
      private d(st: Float64Array): [number, number, number] {
        const dx = st[BODY_STATE_STRIDE + BodyState.x]! - st[BodyState.x]!;
        const dy = st[BODY_STATE_STRIDE + BodyState.y]! - st[BodyState.y]!;
        return [dx, dy, Math.hypot(dx, dy)];
      }
      override position(err: Float64Array, st: Float64Array): void {
        err[0] = this.d(st)[2] - 15;
      }
      override jacobian(J: Float64Array, st: Float64Array): void {
        // The rod joins the plank's origin (0.5 m from its centre of mass) to the ball's centre.
        const [dx, dy, L] = this.d(st);
        const nx = dx / L, ny = dy / L;
        const ox = st[BodyState.x]! - st[BodyState.comX]!, oy = st[BodyState.y]! - st[BodyState.comY]!;
        J.set([-nx, -ny, -(ox * ny - oy * nx), nx, ny, 0]);
      }
    }
    for (const rodFirst of [true, false]) {
      const space = new Space({ gravity: [0, -10] });
      const ground = space.addBody(new Body({ type: 'static' }));
      const plank = space.addBody(new Body({ shapes: [Polygon.box(0.2, 1, { offset: [0, -0.5] })] }));
      const ball = space.addBody(new Body({ position: [15, 0], mass: 5, shapes: [new Circle({ radius: 0.1 })] }));
      const rod = new UserRod(plank, ball);
      const pivot = new PivotJoint({ body1: ground, body2: plank, anchor1: [6, 0], anchor2: [6, 0] });
      for (const c of rodFirst ? [rod, pivot] : [pivot, rod]) space.addConstraint(c);
      const e0 = energy([plank, ball], 10);
      let peak = -Infinity;
      for (let i = 0; i < 1200; i++) {
        space.step(1 / 60);
        peak = Math.max(peak, energy([plank, ball], 10));
      }
      expect(space._pipeline.jointIslands.takes(rod)).toBe(true);
      expect(peak - e0, rodFirst ? 'rod first' : 'pivot first').toBeLessThan(1e-3);
    }
  });

  it("stiff rows' joint softness (jointHertz > 0) takes the fixed compliance in an island: a light body welded far from its centre, tied softly to two others, stays put (fuzz seed 1904809083: 1e5 m within 4 steps)", () => {
    class Midpoint extends UserConstraint {
      constructor(a: Body, b: Body, c: Body) {
        super({ dimensions: 2, bodies: [a, b, c], packedState: true, stiff: false, frequency: 10 });
      }
      // The bodies' origins (as the DSL's body.position): body3 at the midpoint of body1 and body2.
      override position(err: Float64Array, st: Float64Array): void {
        const O = BODY_STATE_STRIDE;
        err[0] = st[2 * O + BodyState.x]! - (st[BodyState.x]! + st[O + BodyState.x]!) / 2;
        err[1] = st[2 * O + BodyState.y]! - (st[BodyState.y]! + st[O + BodyState.y]!) / 2;
      }
      override jacobian(J: Float64Array, st: Float64Array): void {
        // ∂origin/∂θ = (origin − centre of mass) turned a quarter.
        for (let b = 0; b < 3; b++) {
          const o = b * BODY_STATE_STRIDE;
          const w = b === 2 ? 1 : -0.5;
          const rx = st[o + BodyState.x]! - st[o + BodyState.comX]!;
          const ry = st[o + BodyState.y]! - st[o + BodyState.comY]!;
          J.set([w, 0, -w * ry], 3 * b);
          J.set([0, w, w * rx], 9 + 3 * b);
        }
      }
    }
    const space = new Space({ gravity: [0, -10], jointHertz: 1 });
    const ground = space.addBody(new Body({ type: 'static', shapes: [Polygon.box(60, 1, { offset: [0, -0.5] })] }));
    const lightShape = Polygon.regular(0.1, 12, { angle: -3 });
    const light = space.addBody(new Body({ position: [3, 2], rotation: -2, velocity: [20, 10], angularVel: 10, shapes: [lightShape] }));
    const mid = space.addBody(new Body({ position: [4, 1], mass: 0.4, shapes: [Polygon.regular(0.2, 11, { filter: { group: -1 } })] }));
    const heavy = space.addBody(new Body({ position: [6, 0.6], mass: 4, shapes: [Polygon.box(0.3, 0.2, { radius: 0.03 })] }));
    space.addConstraint(new Midpoint(light, mid, heavy));
    space.addConstraint(new WeldJoint({ body1: ground, body2: light, phase: -2, anchor1: [0.3, 0.6], anchor2: [2, -2] }));
    // (Its centre of mass moves off its origin.)
    lightShape.offset = [0.3, 0.2];
    let far = 0;
    for (let i = 0; i < 120; i++) {
      space.step(1 / 60, 4, 1);
      far = Math.max(far, Math.hypot(light.x, light.y));
    }
    expect(space._pipeline.jointIslands.takes(space.constraints[0]!)).toBe(true);
    // The weld holds the light body where its anchor meets the ground's, about 3.3 m from the origin.
    expect(far).toBeLessThan(10);
  });

  it('each pass is the exact velocity projection: after a step the island rows leave no velocity error Gauss-Seidel would', () => {
    // A pinned triangle of welds and pivots with a heavy end: the island's J v after the step.
    const velocityError = (islands: boolean) => {
      const space = new Space({ gravity: [0, -10] });
      setSolverRouting(space, { jointIsland: islands });
      const ground = space.addBody(new Body({ type: 'static' }));
      // (No collisions between them: the contacts' relax pass would come after the joints'.)
      const a = space.addBody(new Body({ position: [1, 0], shapes: [Polygon.box(2, 0.2, { filter: { mask: 0 } })], mass: 0.1 }));
      const b = space.addBody(new Body({ position: [3, 0], shapes: [Polygon.box(2, 0.2, { filter: { mask: 0 } })], mass: 20 }));
      const joints: Constraint[] = [
        new PivotJoint({ body1: ground, body2: a, anchor1: [0, 0], anchor2: [-1, 0] }),
        new PivotJoint({ body1: a, body2: b, anchor1: [1, 0], anchor2: [-1, 0] }),
        new AngleJoint({ body1: a, body2: b, jointMin: 0, jointMax: 0 }),
      ];
      for (const j of joints) space.addConstraint(j);
      space.step(1 / 60, 1, 0);
      // The pin at the ground: the velocity of a's anchor there, and the relative turn rate of a and b.
      const anchor = a.localPointToWorld([-1, 0]);
      const vx = a.velocity.x - a.angularVel * (anchor.y - a.worldCenter.y);
      const vy = a.velocity.y + a.angularVel * (anchor.x - a.worldCenter.x);
      return Math.hypot(vx, vy) + Math.abs(b.angularVel - a.angularVel);
    };
    expect(velocityError(true)).toBeLessThan(1e-9);
    expect(velocityError(false)).toBeGreaterThan(1e-3);
  });

  it('a double pendulum of point-like masses never gains energy, and loses no more than Gauss-Seidel at twice the substeps', () => {
    const run = (islands: boolean, substeps: number) => {
      const space = new Space({ gravity: [0, -10] });
      setSolverRouting(space, { jointIsland: islands });
      const ground = space.addBody(new Body({ type: 'static' }));
      const m1 = space.addBody(new Body({ position: [1, 0], shapes: [new Circle({ radius: 0.05 })], mass: 0.2 }));
      const m2 = space.addBody(new Body({ position: [2, 0], shapes: [new Circle({ radius: 0.05 })], mass: 5 }));
      space.addConstraint(new DistanceJoint({ body1: ground, body2: m1, jointMin: 1, jointMax: 1 }));
      space.addConstraint(new DistanceJoint({ body1: m1, body2: m2, jointMin: 1, jointMax: 1 }));
      const e0 = energy([m1, m2], 10);
      let lo = e0;
      let hi = e0;
      for (let i = 0; i < 1200; i++) {
        space.step(1 / 60, substeps);
        const e = energy([m1, m2], 10);
        lo = Math.min(lo, e);
        hi = Math.max(hi, e);
      }
      return { gain: hi - e0, loss: e0 - lo };
    };
    const island = run(true, 4);
    // Projecting velocities onto the constraints after each substep's gravity removes a little energy
    // (an O(h) damping of the swing); Gauss-Seidel at 4 substeps removes less, but also adds some.
    expect(island.gain).toBeLessThan(1e-3);
    expect(run(false, 4).gain).toBeGreaterThan(0.1);
    expect(island.loss).toBeLessThanOrEqual(run(false, 8).loss * 1.1);
  });

  it('takes islands of at least two equality or limited joints and at most MAX_ISLAND_ROWS rows; chains, single joints, motors and force-limited soft joints stay with the other families', () => {
    const space = new Space({ gravity: [0, -10] });
    const ground = space.addBody(new Body({ type: 'static' }));
    const box = (x: number, y: number) => space.addBody(new Body({ position: [x, y], shapes: [Polygon.box(0.5, 0.5, { filter: { mask: 0 } })] }));
    // An island of a weld and a pivot (5 rows).
    const a = box(0, 0);
    const b = box(1, 0);
    const weld = space.addConstraint(new WeldJoint({ body1: ground, body2: a, anchor1: [0, 0] }));
    const pin = space.addConstraint(new PivotJoint({ body1: a, body2: b, anchor1: [0.5, 0], anchor2: [-0.5, 0] }));
    // A single pivot; a pivot with a motor and a stiff ranged distance joint beside it (an island of
    // the two joints, without the motor); a pivot with a soft range beside it (an island), and one
    // with a force-limited soft range beside it (not: FORCE_LIMITED_SOFT_JOINTS).
    const c = box(5, 0);
    const single = space.addConstraint(new PivotJoint({ body1: ground, body2: c, anchor1: [5, 0] }));
    const d = box(8, 0);
    const e = box(9, 0);
    const paired = space.addConstraint(new PivotJoint({ body1: d, body2: e, anchor1: [0.5, 0], anchor2: [-0.5, 0] }));
    const motor = space.addConstraint(new MotorJoint({ body1: d, body2: e, rate: 1 }));
    const ranged = space.addConstraint(new DistanceJoint({ body1: d, body2: e, jointMin: 0.5, jointMax: 2 }));
    const f = box(12, 0);
    const g = box(13, 0);
    const lone = space.addConstraint(new PivotJoint({ body1: f, body2: g, anchor1: [0.5, 0], anchor2: [-0.5, 0] }));
    const softRange = space.addConstraint(new AngleJoint({ body1: f, body2: g, jointMin: -0.5, jointMax: 0.5, stiff: false }));
    const h = box(15, 0);
    const i = box(16, 0);
    const lone2 = space.addConstraint(new PivotJoint({ body1: h, body2: i, anchor1: [0.5, 0], anchor2: [-0.5, 0] }));
    const softCapped = space.addConstraint(new AngleJoint({ body1: h, body2: i, jointMin: -0.5, jointMax: 0.5, stiff: false, maxForce: 5 }));
    // A chain longer than an island may be.
    let prev = ground;
    const chain: Constraint[] = [];
    for (let k = 0; k < MAX_ISLAND_ROWS / 2 + 1; k++) {
      const link = box(20 + k, 0);
      chain.push(space.addConstraint(new PivotJoint({ body1: prev, body2: link, anchor1: k === 0 ? [20, 0] : [0.5, 0], anchor2: [-0.5, 0] })));
      prev = link;
    }
    space.step(1 / 60);
    const islands = space._pipeline.jointIslands;
    expect(islands.takes(weld) && islands.takes(pin)).toBe(true);
    expect(islands.takes(paired) && islands.takes(ranged)).toBe(true);
    expect(islands.takes(lone) && islands.takes(softRange)).toBe(true);
    for (const x of [single, motor, lone2, softCapped, ...chain]) expect(islands.takes(x)).toBe(false);
    expect(solverInternals(space).plan.active.length).toBe(10 + chain.length);
  });

  it('a soft joint with a finite maxForce stays out of islands: a 0.03 kg body between a 40 Hz weld and a weld whose maxForce holds less than the load stays bounded (fuzz seed 324170948: 3e23 rad/s in 600 steps as an island)', () => {
    for (const substeps of [4, 16]) {
      const space = new Space({ gravity: [-2, -10] });
      const body = (mass: number, shape: Polygon | Capsule, o = {}) => space.addBody(new Body({ position: [5, -2], rotation: 2, mass, ...o, shapes: [shape] }));
      const a = body(1, Polygon.box(0.2, 0.1, { filter: { mask: 0 } }), { gravityScale: 2 });
      const b = body(0.5, new Capsule({ length: 0.067, radius: 0.02, filter: { mask: 0 } }));
      const light = body(0.03, new Capsule({ length: 0.09, radius: 0.04, filter: { mask: 0 } }), { linearDrag: 3 });
      const d = body(0.3, Polygon.box(0.1, 0.19, { filter: { mask: 0 } }), { linearDrag: 1 });
      const weld = (b1: Body, b2: Body, phase: number, o = {}) => space.addConstraint(new WeldJoint({ body1: b1, body2: b2, anchor1: [-0.1, 0], anchor2: [0.1, 0], phase, ...o }));
      weld(light, d, 0, { stiff: false, frequency: 40, damping: 2 });
      // a and b fall faster (gravityScale 2) than 1.6 N lets the light body and d follow.
      const limited = weld(b, light, 2, { stiff: false, frequency: 8, damping: 0.05, maxForce: 1.6 });
      const stiff = weld(a, b, 0);
      let spin = 0;
      for (let i = 0; i < 600; i++) {
        space.step(1 / 60, substeps, 2);
        for (const x of [a, b, light, d]) spin = Math.max(spin, Math.abs(x.angularVel));
      }
      const islands = space._pipeline.jointIslands;
      expect(islands.takes(limited) || islands.takes(stiff)).toBe(false);
      expect(spin, `${substeps} substeps`).toBeLessThan(100);
      // Without the limit the three welds are an island again.
      limited.maxForce = Infinity;
      space.step(1 / 60);
      expect(islands.takes(limited) && islands.takes(stiff)).toBe(true);
    }
  });

  it('a weld and a line joint on the same two bodies (dependent rows) do not store an impulse the next pose releases (fuzz seed 2990627813: 2e9 m/s in one warm start)', () => {
    const space = new Space({ gravity: [0, -10] });
    const ground = space.addBody(new Body({ type: 'static', shapes: [Polygon.box(60, 1, { offset: [0, -0.5] })] }));
    const heavy = space.addBody(new Body({ position: [3.163, 9], inertia: 0.002474, shapes: [new Capsule({ p1: [0.0002, -0.01184], p2: [0.02069, 0.00071], radius: 0.008924, filter: { mask: 0 }, density: 4624 })] }));
    const rod = space.addBody(new Body({ position: [3.863, 7.394], rotation: 2.481, shapes: [new Capsule({ length: 3.368, radius: 0.2154, sensor: true, density: 0.07284 })] }));
    space.addConstraint(new AngleJoint({ body1: ground, body2: heavy, jointMin: -0.772, jointMax: 0.1197, ratio: 0.3759, stiff: false, frequency: 2.995 }));
    const weld = space.addConstraint(new WeldJoint({ body1: heavy, body2: rod, anchor1: [-0.071, -0.7026], anchor2: [1.022, -0.0585], phase: -2.683, ignore: true }));
    const line = space.addConstraint(new LineJoint({ body1: heavy, body2: rod, anchor1: [0.3473, -0.07753], anchor2: [0.37, -0.4337], direction: [0.1335, 0.05938], jointMin: 0, jointMax: 0, ignore: true }));
    let speed = 0;
    for (let i = 0; i < 600; i++) {
      space.step(1 / 60);
      for (const b of [heavy, rod]) speed = Math.max(speed, Math.hypot(b.velocity.x, b.velocity.y), Math.abs(b.angularVel));
    }
    expect(space._pipeline.jointIslands.takes(weld) && space._pipeline.jointIslands.takes(line)).toBe(true);
    // It falls 9 m onto nothing it collides with (mask 0, a sensor): 10 s of free fall is 100 m/s.
    expect(speed).toBeLessThan(200);
  });

  it("an island's stiff equality rows start each substep from zero: whatever impulse they carry into a step, the step is bitwise the same (FRESH_STIFF_ROWS)", () => {
    // The first exact pass absorbs any starting impulse; a stale one (here a planted 1e4 N·s, as a
    // conflict between nearly dependent rows leaves) must not reach the bodies at the next pose.
    const make = () => lever(6, 5, true, true);
    const A = make();
    const B = make();
    for (let i = 0; i < 30; i++) {
      A.space.step(1 / 60);
      B.space.step(1 / 60);
    }
    for (const c of B.space.constraints) (c as unknown as { acc: Float64Array }).acc.fill(1e4);
    for (let i = 0; i < 30; i++) {
      A.space.step(1 / 60);
      B.space.step(1 / 60);
      for (const [a, b] of [[A.plank, B.plank], [A.ball, B.ball]] as const) {
        for (const [x, y] of [[a.x, b.x], [a.y, b.y], [a.rotation, b.rotation], [a.angularVel, b.angularVel]]) if (!Object.is(x, y)) expect.fail(`step ${i}: ${x} vs ${y}`);
      }
    }
    expect(B.space._pipeline.jointIslands.takes(B.space.constraints[0]!)).toBe(true);
  });

  it("an island's stiff limit sides start each substep from zero too: a planted impulse on a range's sides changes nothing, bitwise (FRESH_STIFF_ROWS)", () => {
    // The active-set pass takes a pushing side exactly and lets a slack one go, so a starting
    // impulse there buys the island nothing; carried to the next pose it released what Jᵀ had cancelled.
    const A = weldedBallOnRange();
    const B = weldedBallOnRange();
    for (let i = 0; i < 60; i++) {
      A.space.step(1 / 60, 4, 2);
      B.space.step(1 / 60, 4, 2);
    }
    expect(B.space._pipeline.jointIslands.takes(B.range)).toBe(true);
    const sides = B.range as unknown as { accLo: Float64Array; accHi: Float64Array };
    sides.accLo.fill(1e4);
    sides.accHi.fill(1e4);
    for (let i = 0; i < 60; i++) {
      A.space.step(1 / 60, 4, 2);
      B.space.step(1 / 60, 4, 2);
      A.space.bodies.forEach((a, k) => {
        const b = B.space.bodies[k]!;
        for (const [x, y] of [[a.x, b.x], [a.y, b.y], [a.rotation, b.rotation], [a.angularVel, b.angularVel]]) if (!Object.is(x, y)) expect.fail(`step ${i}, body ${k}: ${x} vs ${y}`);
      });
    }
  });

  it('fuzz seed 4292858470: a 0.3 kg body of tiny inertia on a 9 m LineJoint lever with a range, beside a rigid and a soft DistanceJoint, stays bounded (a warm-started limit side released 2e6 m/s in 34 steps)', () => {
    const space = new Space({ gravity: [-5, -2], jointIterations: 6 });
    const ground = space.addBody(new Body({ type: 'static', shapes: [new Segment({ p1: [-3, 0], p2: [3, 0.5] })] }));
    const tiny = new Polygon({ vertices: [[0.06, -0.03], [0.03, 0.06], [-0.04, 0.05], [-0.06, -0.03], [0.01, -0.06]] });
    const lever = space.addBody(new Body({ position: [-1, 10], mass: 0.3, shapes: [tiny] }));
    const small = space.addBody(new Body({ position: [-4, 10], rotation: -2, shapes: [Polygon.box(0.07, 0.2, { friction: 0.7, density: 30 })] }));
    const other = space.addBody(new Body({ position: [-2, 10], rotation: 3, velocity: [10, 19.5], shapes: [new Polygon({ vertices: [[-0.1, -0.1], [-0.04, -0.2], [0.08, -0.2], [0.2, -0.06], [0.1, 0.1], [0.02, 0.2], [-0.1, 0.2], [-0.17, 0.05]], density: 3 })] }));
    const line = space.addConstraint(new LineJoint({ body1: lever, body2: ground, anchor1: [1, -9], anchor2: [-0.8, 3], direction: [0.1, -0.1], jointMin: -0.9, jointMax: 3 }));
    space.addConstraint(new DistanceJoint({ body1: small, body2: lever, anchor1: [-0.4, 0.55], anchor2: [-2, 1], jointMin: 0.6, jointMax: 1, stiff: false, frequency: 1, damping: 0.5, ignore: true }));
    const rod = space.addConstraint(new DistanceJoint({ body1: other, body2: lever, anchor1: [-0.4, 0.6], anchor2: [-2, 1], jointMin: 1, jointMax: 1 }));
    let fastest = 0;
    for (let i = 0; i < 300; i++) {
      space.step(1 / 60);
      for (const b of space.bodies) fastest = Math.max(fastest, Math.hypot(b.velocity.x, b.velocity.y));
    }
    expect(space._pipeline.jointIslands.takes(line) && space._pipeline.jointIslands.takes(rod)).toBe(true);
    expect(fastest).toBeLessThan(100);
  });

  it("a soft range's reached side in an island is the joint's spring: a plank pinned at its end and held up by a soft AngleJoint range sags to the analytic equilibrium, on both paths", () => {
    // The row is angular, so its reference K is the plank's invI about its centre, and the spring's
    // torque per radian is ω²·I_c (softness.ts). At rest: ω²·I_c·(jointMin − θ) = m·g·(L/2)·cos θ.
    const f = 2;
    const omega = 2 * Math.PI * f;
    const m = 1;
    const L = 1;
    const t = 0.1;
    const Ic = (m * (L * L + t * t)) / 12;
    const lo = -0.2;
    let theta = lo;
    for (let k = 0; k < 50; k++) theta = lo - (m * 10 * (L / 2) * Math.cos(theta)) / (omega * omega * Ic);
    const sag = (islands: boolean) => {
      const space = new Space({ gravity: [0, -10] });
      setSolverRouting(space, { jointIsland: islands });
      const ground = space.addBody(new Body({ type: 'static' }));
      const plank = space.addBody(new Body({ position: [L / 2, 0], mass: m, shapes: [Polygon.box(L, t, { filter: { mask: 0 } })] }));
      const pin = space.addConstraint(new PivotJoint({ body1: ground, body2: plank, anchor1: [0, 0], anchor2: [-L / 2, 0] }));
      const range = space.addConstraint(new AngleJoint({ body1: ground, body2: plank, jointMin: lo, jointMax: 0.2, stiff: false, frequency: f, damping: 1 }));
      space.step(1 / 60);
      expect(space._pipeline.jointIslands.takes(pin) && space._pipeline.jointIslands.takes(range)).toBe(islands);
      for (let i = 0; i < 600; i++) space.step(1 / 60);
      return plank.rotation;
    };
    expect(theta).toBeLessThan(-0.45);
    for (const islands of [true, false]) expect(Math.abs(sag(islands) - theta)).toBeLessThan(0.01 * Math.abs(theta));
  });

  it('fuzz seed 522636959: a 6 cm capsule pinned 7 m from its centre, with a soft DistanceJoint range 4 m from it, stays bounded as one island (solved one by one, its warm starts grew sixfold per substep to 6e5 m/s)', () => {
    const run = (islands: boolean) => {
      const space = new Space({ gravity: [0, -10] });
      setSolverRouting(space, { jointIsland: islands });
      const ground = space.addBody(new Body({ type: 'static', shapes: [new Segment({ p1: [-3, 0], p2: [3, -0.3] })] }));
      const capsule = space.addBody(new Body({ position: [-7.2, 5.5], rotation: 2, shapes: [new Capsule({ length: 0.06034, radius: 0.01, friction: 0.17, density: 70 })] }));
      const pin = space.addConstraint(new PivotJoint({ body1: capsule, body2: ground, anchor1: [-7, -0.01], anchor2: [-2, 1], maxForce: 3037, ignore: true }));
      const range = space.addConstraint(new DistanceJoint({ body1: capsule, body2: ground, anchor1: [-4, -0.2], anchor2: [-4, 2.419], jointMin: 0.2, jointMax: 0.8, stiff: false, frequency: 7.8, damping: 0.8 }));
      space.step(1 / 30, 4, 1);
      const island = space._pipeline.jointIslands.takes(pin) && space._pipeline.jointIslands.takes(range);
      let fastest = 0;
      for (let i = 0; i < 600; i++) {
        space.step(1 / 30, 4, 1);
        fastest = Math.max(fastest, Math.hypot(capsule.velocity.x, capsule.velocity.y));
      }
      return { fastest, island };
    };
    const r = run(true);
    expect(r.island).toBe(true);
    // It swings on a 7 m arm: tens of m/s at most.
    expect(r.fastest).toBeLessThan(100);
  });

  /** A horizontal chain of 1 m links hung from the origin, released; its mechanical energy over 10 s. */
  const hangingChain = (masses: readonly number[], weld: boolean) => {
    const space = new Space({ gravity: [0, -10] });
    const ground = space.addBody(new Body({ type: 'static' }));
    const none = { filter: { mask: 0 } };
    let prev = ground;
    const links: Body[] = [];
    const joints: Constraint[] = [];
    masses.forEach((m, k) => {
      const b = space.addBody(new Body({ position: [k + 0.5, 0], mass: m, shapes: [Polygon.box(1, 0.2, none)] }));
      const anchor1: [number, number] = k === 0 ? [0, 0] : [0.5, 0];
      joints.push(space.addConstraint(weld && k > 0 ? new WeldJoint({ body1: prev, body2: b, anchor1, anchor2: [-0.5, 0] }) : new PivotJoint({ body1: prev, body2: b, anchor1, anchor2: [-0.5, 0] })));
      links.push(b);
      prev = b;
    });
    const energy = () => links.reduce((e, b) => e + 0.5 * b.mass * (b.velocity.x ** 2 + b.velocity.y ** 2) + 0.5 * b.inertia * b.angularVel ** 2 + b.mass * 10 * b.y, 0);
    const e0 = energy();
    space.step(1 / 60);
    const island = joints.every((j) => space._pipeline.jointIslands.takes(j));
    let gain = energy() - e0;
    for (let i = 0; i < 600; i++) {
      space.step(1 / 60);
      gain = Math.max(gain, energy() - e0);
    }
    return { island, gain };
  };

  it('LIGHT_LINKS: a chain of 7 welds with a 10 g link between 2 and 4.5 kg ones (21 rows) is one island and never gains energy (solved by Gauss-Seidel it gained 1.5e4 J; fuzz seed 1678246910)', () => {
    const r = hangingChain([20, 20, 2, 0.01, 4.5, 49, 10], true);
    expect(r.island).toBe(true);
    // Joules; its potential energy swings by thousands as it falls.
    expect(r.gain).toBeLessThan(1);
  });

  it('LIGHT_LINKS: only an island with a light body may pass MAX_ISLAND_ROWS: 9 pivots (18 rows) with 80 g links between 2–15 kg ones are one island, 9 pivots of even links are not', () => {
    const light = [15, 0.08, 2, 0.08, 15, 0.08, 8, 0.08, 4];
    expect(hangingChain(light, false).island).toBe(true);
    expect(hangingChain(light.map(() => 1), false).island).toBe(false);
    expect(2 * light.length).toBeGreaterThan(MAX_ISLAND_ROWS);
    expect(2 * light.length).toBeLessThanOrEqual(MAX_LIGHT_ISLAND_ROWS);
  });

  it('fuzz seed 1253833093: a 0.2 kg body welded far from its centre to a 0.03 kg ball on a DistanceJoint range from a 0.8 kg body stays bounded, the range held (one by one, a body passed 1e6 m/s near step 565)', () => {
    const { space, heavy: b9, ball: b10, range } = weldedBallOnRange();
    let fastest = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < 600; i++) {
      space.step(1 / 60, 4, 2);
      for (const b of space.bodies) fastest = Math.max(fastest, Math.hypot(b.velocity.x, b.velocity.y));
      if (i < 60) continue;
      const p1 = b10.localPointToWorld([0.01, -0.2]);
      const p2 = b9.localPointToWorld([-1, 2]);
      const length = Math.hypot(p2.x - p1.x, p2.y - p1.y);
      lo = Math.min(lo, length);
      hi = Math.max(hi, length);
    }
    expect(space._pipeline.jointIslands.takes(range)).toBe(true);
    expect(fastest).toBeLessThan(100);
    expect(lo).toBeGreaterThan(0.4 - 0.05);
    expect(hi).toBeLessThan(0.7 + 0.05);
  });

  it('a light elbow link between a heavy upper arm and a heavy hand, held by pivots and AngleJoint ranges, never gains energy and keeps its ranges (no gravity, an initial spin)', () => {
    const run = (islands: boolean) => {
      const space = new Space({ gravity: [0, 0] });
      setSolverRouting(space, { jointIsland: islands });
      const ground = space.addBody(new Body({ type: 'static' }));
      const none = { filter: { mask: 0 } };
      const upper = space.addBody(new Body({ position: [0.5, 0], mass: 5, angularVel: 1, velocity: [0, 1], shapes: [Polygon.box(1, 0.2, none)] }));
      const elbow = space.addBody(new Body({ position: [1.1, 0], mass: 0.05, velocity: [0, 2.2], shapes: [Polygon.box(0.2, 0.1, none)] }));
      const hand = space.addBody(new Body({ position: [1.5, 0], mass: 10, angularVel: 8, velocity: [0, 3], shapes: [Polygon.box(0.6, 0.2, none)] }));
      const joints = [
        new PivotJoint({ body1: ground, body2: upper, anchor1: [0, 0], anchor2: [-0.5, 0] }),
        new PivotJoint({ body1: upper, body2: elbow, anchor1: [0.5, 0], anchor2: [-0.1, 0] }),
        new AngleJoint({ body1: upper, body2: elbow, jointMin: -0.5, jointMax: 0.5 }),
        new PivotJoint({ body1: elbow, body2: hand, anchor1: [0.1, 0], anchor2: [-0.3, 0] }),
        new AngleJoint({ body1: elbow, body2: hand, jointMin: -0.5, jointMax: 0.5 }),
      ];
      for (const j of joints) space.addConstraint(j);
      const bodies = [upper, elbow, hand];
      space.step(1 / 60);
      const e0 = energy(bodies, 0);
      let gain = 0;
      let beyond = 0;
      for (let i = 0; i < 1200; i++) {
        space.step(1 / 60);
        gain = Math.max(gain, energy(bodies, 0) - e0);
        for (const [a, b] of [[upper, elbow], [elbow, hand]] as const) {
          const angle = b.rotation - a.rotation;
          beyond = Math.max(beyond, angle - 0.5, -0.5 - angle);
        }
      }
      return { gain, beyond, taken: joints.every((j) => space._pipeline.jointIslands.takes(j)) };
    };
    const island = run(true);
    expect(island.taken).toBe(true);
    expect(island.gain).toBeLessThan(1e-3);
    expect(island.beyond).toBeLessThan(0.02);
    // One joint at a time, the same arm gained 0.66 J and bent 0.16 rad past its ranges.
    const gs = run(false);
    expect(gs.gain > 1e-3 || gs.beyond > 0.02).toBe(true);
  });

  it('limit rows that stay slack change nothing: the lever with a slack rope range beside it steps bit for bit as without it', () => {
    const positions = (withRange: boolean) => {
      const { space, plank, ball } = lever(6, 5, true, true);
      const ground = space.bodies[0]!;
      const range = new DistanceJoint({ body1: ground, body2: ball, anchor1: [6, 0], jointMin: 0, jointMax: 100 });
      if (withRange) space.addConstraint(range);
      const out: number[] = [];
      for (let i = 0; i < 300; i++) {
        space.step(1 / 60);
        out.push(plank.x, plank.y, plank.rotation, ball.x, ball.y);
      }
      if (withRange) expect(space._pipeline.jointIslands.takes(range)).toBe(true);
      return out;
    };
    expect(positions(true)).toEqual(positions(false));
  });

  it('a box hanging on two rope ranges moves as the one-by-one path does (the same one-sided rows)', () => {
    const run = (islands: boolean) => {
      const space = new Space({ gravity: [0, -10] });
      setSolverRouting(space, { jointIsland: islands });
      const ground = space.addBody(new Body({ type: 'static' }));
      const box = space.addBody(new Body({ position: [0.3, -0.5], rotation: 0.4, velocity: [2, 0], shapes: [Polygon.box(1, 0.3, { filter: { mask: 0 } })] }));
      const left = space.addConstraint(new DistanceJoint({ body1: ground, body2: box, anchor1: [-1, 0], anchor2: [-0.5, 0], jointMin: 0, jointMax: 1.2 }));
      const right = space.addConstraint(new DistanceJoint({ body1: ground, body2: box, anchor1: [1, 0], anchor2: [0.5, 0], jointMin: 0, jointMax: 1.2 }));
      const trail: number[] = [];
      let taut = 0;
      for (let i = 0; i < 180; i++) {
        space.step(1 / 60, 16);
        trail.push(box.x, box.y, box.rotation);
        if (left.impulse()[0]! !== 0 && right.impulse()[0]! !== 0) taut++;
      }
      expect(space._pipeline.jointIslands.takes(left)).toBe(islands);
      return { trail, taut };
    };
    const island = run(true);
    const gs = run(false);
    // Both ropes really pull, together, for most of the run.
    expect(island.taut).toBeGreaterThan(60);
    // The one-by-one path's biased pass is a single sweep, which the relax passes do not redo: the
    // two differ by O(h) (3.3e-3 m at 4 substeps, 6.6e-4 m at 16), however many relax passes.
    let worst = 0;
    for (let k = 0; k < island.trail.length; k++) worst = Math.max(worst, Math.abs(island.trail[k]! - gs.trail[k]!));
    expect(worst).toBeLessThan(1.5e-3);
  });

  it('a limit side whose bound is set to Infinity lets its impulse go (fuzz seed 3103364982: NaN in a PulleyJoint island)', () => {
    // The fuzz's minimised scene, as it was written.
    const space = new Space({ gravity: [0, -10], contactHertz: 7 });
    const b2 = space.addBody(new Body({ type: 'static', shapes: [new Segment({ p1: [-3, 0], p2: [3, -0.3] })] }));
    const b3 = space.addBody(new Body({ position: [-9.96, 11.89], mass: 0.1, gravityScale: 0.3, allowMovement: false, shapes: [Polygon.regular(0.1552, 11, { friction: 0.8, restitution: 0.5 })] }));
    const b5 = space.addBody(new Body({ type: 'kinematic', position: [-10.55, 10], rotation: -2.6, velocity: [-3, 3], shapes: [new Capsule({ length: 0.07, radius: 0.03, angle: -2, friction: 0.9 })] }));
    const octagon: [number, number][] = [[-0.009, -0.03], [0.01, -0.03], [0.03, -0.004], [0.03, 0.02], [0.005, 0.03], [-0.02, 0.02], [-0.03, 0.01], [-0.02, -0.02]];
    const b6 = space.addBody(new Body({ position: [-11.37, 13.22], rotation: -0.9, mass: 10, shapes: [new Polygon({ vertices: octagon, radius: 0.01, angle: 0.9, filter: { group: 1 } })] }));
    const b7 = space.addBody(new Body({ position: [-10, 10], rotation: -0.8, allowRotation: false, force: [-2, 2], shapes: [new Circle({ radius: 0.4, density: 0.5 })] }));
    const b8 = space.addBody(new Body({ position: [-10, 10], mass: 0.6, force: [2, -3], shapes: [Polygon.box(0.1, 0.09, { radius: 0.006, angle: 3, filter: { mask: 0 } })] }));
    space.addConstraint(new PivotJoint({ body1: b5, body2: b3, anchor1: [-1, -1.044], anchor2: [-0.2, -0.3] }));
    // Both rope ends on the same two bodies; its upper side holds while the range is [0.9, 2.751].
    const pulley = space.addConstraint(new PulleyJoint({ body1: b3, body2: b6, body3: b3, body4: b6, anchor1: [0.1, 0.2], anchor2: [0.095, -0.22], anchor3: [-0.09, -0.05], anchor4: [0.2, -0.03], jointMin: 0.9, jointMax: 2.751, ratio: 0.4 }));
    space.addConstraint(new WeldJoint({ body1: b7, body2: b2, anchor1: [12, -0.44], anchor2: [-2.1, 2.539], phase: -2, ignore: true }));
    space.addConstraint(new WeldJoint({ body1: b8, body2: b5, anchor1: [0.6, -0.4], anchor2: [0.7, -1], phase: -0.5, stiff: false, frequency: 2, damping: 1, ignore: true }));
    space.addConstraint(new MotorJoint({ body1: b6, body2: b5, rate: 6, ratio: 0 }));
    for (let i = 0; i < 4; i++) space.step(1 / 60);
    pulley.jointMin = 1;
    pulley.jointMax = Infinity;
    for (let i = 0; i < 60; i++) space.step(1 / 60);
    for (const b of space.bodies) expect(Number.isFinite(b.x) && Number.isFinite(b.velocity.x)).toBe(true);
  });
});
