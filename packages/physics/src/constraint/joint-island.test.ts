/**
 * The joint-island solver (joint-island.ts): small islands of equality joints, solved as one
 * exact block per pass. The scene it exists for (a light plank between a ground pivot and a rigid
 * rod to a heavy ball) diverged under Gauss-Seidel whenever the rod came first; as an island it
 * never gains energy, in either order. Also: each pass is the exact velocity projection of the
 * island, a double pendulum keeps its energy, and which islands it takes.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from '../space/space.js';
import { setSolverRouting, solverInternals } from '../test-support/solver-routing.js';
import type { Constraint } from './constraint.js';
import { MAX_ISLAND_ROWS } from './joint-island.js';
import { AngleJoint } from './joints/angle-joint.js';
import { DistanceJoint } from './joints/distance-joint.js';
import { MotorJoint } from './joints/motor-joint.js';
import { PivotJoint } from './joints/pivot-joint.js';
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

  it('takes islands of at least two equality joints and at most MAX_ISLAND_ROWS rows; chains, single joints, motors and limits stay with the other families', () => {
    const space = new Space({ gravity: [0, -10] });
    const ground = space.addBody(new Body({ type: 'static' }));
    const box = (x: number, y: number) => space.addBody(new Body({ position: [x, y], shapes: [Polygon.box(0.5, 0.5, { filter: { mask: 0 } })] }));
    // An island of a weld and a pivot (5 rows).
    const a = box(0, 0);
    const b = box(1, 0);
    const weld = space.addConstraint(new WeldJoint({ body1: ground, body2: a, anchor1: [0, 0] }));
    const pin = space.addConstraint(new PivotJoint({ body1: a, body2: b, anchor1: [0.5, 0], anchor2: [-0.5, 0] }));
    // A single pivot, and a pivot with a motor and a ranged distance joint beside it.
    const c = box(5, 0);
    const single = space.addConstraint(new PivotJoint({ body1: ground, body2: c, anchor1: [5, 0] }));
    const d = box(8, 0);
    const e = box(9, 0);
    const lone = space.addConstraint(new PivotJoint({ body1: d, body2: e, anchor1: [0.5, 0], anchor2: [-0.5, 0] }));
    const motor = space.addConstraint(new MotorJoint({ body1: d, body2: e, rate: 1 }));
    const ranged = space.addConstraint(new DistanceJoint({ body1: d, body2: e, jointMin: 0.5, jointMax: 2 }));
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
    for (const x of [single, lone, motor, ranged, ...chain]) expect(islands.takes(x)).toBe(false);
    expect(solverInternals(space).plan.active.length).toBe(6 + chain.length);
  });
});
