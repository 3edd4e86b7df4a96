/**
 * The example sources against the built-in joints: each scene is built twice, once with the
 * built-in joint and once with the SymbolicConstraint of the same parameters, and stepped side
 * by side. Positions must agree within 1e-9 m over 120 steps (and the bodies must really move,
 * and the limits really engage, or the comparison would prove nothing).
 */
import { Body, Capsule, DistanceJoint, LineJoint, MotorJoint, PivotJoint, Polygon, Space, WeldJoint, type Constraint } from '@fulcrum/physics';
import { describe, expect, it } from 'vitest';
import { DISTANCE, LINE, MOTOR, PIVOT, WELD } from './examples.js';
import { SymbolicConstraint } from './symbolic-constraint.js';

const STEPS = 120;
const TOL = 1e-9;
const noCollide = { filter: { group: -1 } };

interface Scene {
  space: Space;
  ground: Body;
  a: Body;
  b: Body;
}

/** Two dynamic boxes, one with its centre of mass off its origin, moving and spinning. */
function scene(): Scene {
  const space = new Space({ gravity: [0, -10] });
  const ground = space.addBody(new Body({ type: 'static' }));
  const a = space.addBody(new Body({ position: [1, 0], rotation: 0.3, angularVel: 1, shapes: [Polygon.box(1, 0.4, { offset: [0.1, 0.05], ...noCollide })] }));
  const b = space.addBody(new Body({ position: [2.2, -0.5], rotation: -0.2, velocity: [0.5, 1], shapes: [Polygon.box(0.6, 0.6, { density: 2, ...noCollide })] }));
  return { space, ground, a, b };
}

/** Step the built-in and the symbolic version side by side; returns the worst position difference. */
function compare(make: () => Scene, build: (s: Scene, symbolic: boolean) => Constraint[], watch?: (s: Scene, symbolic: boolean) => void): number {
  // Both ways: each constraint on its own, and joints that share a body as one joint island (the
  // engine's joint-island solver takes SymbolicConstraints as it takes built-in joints).
  return Math.max(compareOnce(make, build, false, watch), compareOnce(make, build, true, watch));
}

function compareOnce(make: () => Scene, build: (s: Scene, symbolic: boolean) => Constraint[], islands: boolean, watch?: (s: Scene, symbolic: boolean) => void): number {
  const A = make();
  const B = make();
  // (The engine's test routing.)
  for (const s of [A.space, B.space]) Object.assign((s as unknown as { _pipeline: { plan: { routing: object } } })._pipeline.plan.routing, { jointIsland: islands });
  const start = B.b.position;
  build(A, false).forEach((c) => A.space.addConstraint(c));
  build(B, true).forEach((c) => B.space.addConstraint(c));
  let worst = 0;
  for (let i = 0; i < STEPS; i++) {
    A.space.step(1 / 60);
    B.space.step(1 / 60);
    watch?.(A, false);
    watch?.(B, true);
    for (const k of ['a', 'b'] as const) worst = Math.max(worst, Math.hypot(A[k].x - B[k].x, A[k].y - B[k].y), Math.abs(A[k].rotation - B[k].rotation));
  }
  // Both really moved (a comparison of two resting scenes would prove nothing).
  expect(Math.hypot(B.b.x - start.x, B.b.y - start.y)).toBeGreaterThan(0.2);
  return worst;
}

describe('the seed examples behave like the built-in joints', () => {
  it('Weld (with a phase)', () => {
    const worst = compare(scene, ({ ground, a, b }, symbolic) => {
      const pin = new PivotJoint({ body1: ground, body2: a, anchor2: [-0.5, 0] });
      if (!symbolic) return [pin, new WeldJoint({ body1: a, body2: b, anchor1: [0.5, 0], anchor2: [-0.3, 0], phase: 0.2 })];
      return [pin, new SymbolicConstraint({ source: WELD, bodies: { body1: a, body2: b }, vectors: { anchor1: [0.5, 0], anchor2: [-0.3, 0] }, scalars: { phase: 0.2 } })];
    });
    expect(worst).toBeLessThan(TOL);
  });

  it('Distance: a rope [0, 0.6] that goes taut with a jerk, and rods and ranges', () => {
    for (const [lo, hi] of [[1, 1], [0.5, 1.2], [1.4, 3]]) {
      let engaged = 0;
      const worst = compare(
        scene,
        ({ ground, a, b }, symbolic) => {
          if (!symbolic) {
            return [new DistanceJoint({ body1: ground, body2: a, anchor2: [-0.5, 0], jointMin: 0, jointMax: 0.6 }), new DistanceJoint({ body1: a, body2: b, anchor1: [0.5, 0], anchor2: [0, 0.3], jointMin: lo, jointMax: hi })];
          }
          return [
            new SymbolicConstraint({ source: DISTANCE, bodies: { body1: ground, body2: a }, vectors: { anchor2: [-0.5, 0] }, scalars: { jointMax: 0.6 } }),
            new SymbolicConstraint({ source: DISTANCE, bodies: { body1: a, body2: b }, vectors: { anchor1: [0.5, 0], anchor2: [0, 0.3] }, scalars: { jointMax: hi, jointMin: lo } }),
          ];
        },
        (s, symbolic) => {
          if (symbolic && s.space.constraints[0]!.impulse()[0] !== 0) engaged++;
        },
      );
      expect(worst, `jointMin ${lo}, jointMax ${hi}`).toBeLessThan(TOL);
      // The rope starts slack (0.55 m) and engages within the run.
      // (Counted over both runs: one at a time, and as joint islands.)
      expect(engaged).toBeGreaterThan(2 * 10);
      expect(engaged).toBeLessThan(2 * STEPS);
    }
  });

  it('Line: a slider on a spinning rod that hits its limits, and a locked slider', () => {
    /** A rod pinned at the origin, spinning; a block on it, placed on the line at 0.5. */
    const rod = (dir: [number, number]) => (): Scene => {
      const space = new Space({ gravity: [0, -10] });
      const ground = space.addBody(new Body({ type: 'static' }));
      const a = space.addBody(new Body({ rotation: -1, angularVel: 2, shapes: [Polygon.box(2, 0.2, { offset: [0.5, 0], ...noCollide })] }));
      const l = Math.hypot(...dir);
      const p = a.localPointToWorld([(0.5 * dir[0]) / l, (0.5 * dir[1]) / l]);
      const b = space.addBody(new Body({ position: [p.x, p.y], rotation: 0.5, shapes: [Polygon.box(0.3, 0.3, { density: 2, ...noCollide })] }));
      space.addConstraint(new PivotJoint({ body1: ground, body2: a }));
      return { space, ground, a, b };
    };
    for (const [lo, hi, dir] of [[0.2, 1, [1, 0]], [-0.5, 0.8, [1, 0.3]], [-Infinity, 1.2, [2, 0]]] as const) {
      let atLimit = 0;
      const worst = compare(
        rod([dir[0], dir[1]]),
        ({ a, b }, symbolic) => [
          symbolic
            ? new SymbolicConstraint({ source: LINE, bodies: { body1: a, body2: b }, vectors: { direction: [dir[0], dir[1]] }, scalars: { jointMin: lo, jointMax: hi } })
            : new LineJoint({ body1: a, body2: b, direction: [dir[0], dir[1]], jointMin: lo, jointMax: hi }),
        ],
        (s, symbolic) => {
          if (!symbolic) return;
          const n = s.a.localVectorToWorld([dir[0] / Math.hypot(dir[0], dir[1]), dir[1] / Math.hypot(dir[0], dir[1])]);
          const along = s.b.x * n.x + s.b.y * n.y;
          if (Math.abs(along - hi) < 1e-3) atLimit++;
        },
      );
      expect(worst, `jointMin ${lo}, jointMax ${hi}`).toBeLessThan(TOL);
      expect(atLimit, 'the slider reaches its upper limit').toBeGreaterThan(10);
    }
    // Locked (jointMin = jointMax): both rows are equalities.
    const worst = compare(scene, ({ a, b }, symbolic) => [
      symbolic
        ? new SymbolicConstraint({ source: LINE, bodies: { body1: a, body2: b }, vectors: { anchor1: [0.5, 0], direction: [1, 1] }, scalars: { jointMin: 0.7, jointMax: 0.7 } })
        : new LineJoint({ body1: a, body2: b, anchor1: [0.5, 0], direction: [1, 1], jointMin: 0.7, jointMax: 0.7 }),
    ]);
    expect(worst).toBeLessThan(TOL);
  });

  it('Pivot: a three-link chain', () => {
    const worst = compare(scene, ({ ground, a, b }, symbolic) => {
      const pivot = (b1: Body, b2: Body, anchor1: [number, number], anchor2: [number, number]): Constraint =>
        symbolic ? new SymbolicConstraint({ source: PIVOT, bodies: { body1: b1, body2: b2 }, vectors: { anchor1, anchor2 } }) : new PivotJoint({ body1: b1, body2: b2, anchor1, anchor2 });
      return [pivot(ground, a, [0, 0], [-0.5, 0]), pivot(a, b, [0.5, 0], [-0.3, 0.3])];
    });
    expect(worst).toBeLessThan(TOL);
  });

  it('Pivot, soft (stiff: false, 3 Hz, damping 0.3)', () => {
    const worst = compare(scene, ({ ground, a }, symbolic) => [
      symbolic
        ? new SymbolicConstraint({ source: PIVOT, bodies: { body1: ground, body2: a }, vectors: { anchor2: [-0.5, 0] }, stiff: false, frequency: 3, damping: 0.3 })
        : new PivotJoint({ body1: ground, body2: a, anchor2: [-0.5, 0], stiff: false, frequency: 3, damping: 0.3 }),
    ]);
    expect(worst).toBeLessThan(TOL);
  });
});

describe('the motor example (a velocity constraint) behaves like MotorJoint', () => {
  it('including the maxForce clamp', () => {
    const run = (symbolic: boolean): number[] => {
      const space = new Space();
      const base = space.addBody(new Body({ type: 'static' }));
      const a = space.addBody(new Body({ shapes: [Polygon.box(1, 0.2, { offset: [0.2, 0] })] }));
      const b = space.addBody(new Body({ position: [3, 0], shapes: [Polygon.box(0.5, 0.5, { density: 3, offset: [0, 0.1] })] }));
      space.addConstraint(new PivotJoint({ body1: base, body2: a }));
      space.addConstraint(new PivotJoint({ body1: base, body2: b, anchor1: [3, 0] }));
      space.addConstraint(
        symbolic
          ? new SymbolicConstraint({ source: MOTOR, bodies: { body1: a, body2: b }, scalars: { rate: 2, ratio: 1.5 }, maxForce: 0.05 })
          : new MotorJoint({ body1: a, body2: b, rate: 2, ratio: 1.5, maxForce: 0.05 }),
      );
      const out: number[] = [];
      for (let i = 0; i < STEPS; i++) {
        space.step(1 / 60);
        out.push(a.angularVel, b.angularVel, a.x, a.y, b.x, b.y);
      }
      return out;
    };
    const builtIn = run(false);
    const symbolic = run(true);
    let worst = 0;
    for (let i = 0; i < builtIn.length; i++) worst = Math.max(worst, Math.abs(symbolic[i]! - builtIn[i]!));
    expect(worst).toBeLessThan(1e-9);
    // The motor reached its rate (ratio·ω2 − ω1 = rate) and the clamp mattered on the way.
    const n = builtIn.length;
    expect(1.5 * builtIn[n - 5]! - builtIn[n - 6]!).toBeCloseTo(2, 4);
    expect(1.5 * builtIn[1]! - builtIn[0]!).toBeLessThan(1.5); // after one step: still far from the rate
  });
});

describe('a force-limited soft weld in a chain (fuzz seed 324170948)', () => {
  // A 0.03 kg body between a 40 Hz weld and a weld whose maxForce holds less than the load; the
  // engine solves such a weld one at a time, not in a joint island (3e22 rad/s in 600 steps there).
  function chain(symbolic: boolean) {
    const space = new Space({ gravity: [-2, -10] });
    const body = (mass: number, shape: Polygon | Capsule, o = {}) => space.addBody(new Body({ position: [5, -2], rotation: 2, mass, ...o, shapes: [shape] }));
    const bodies = [
      body(1, Polygon.box(0.2, 0.1, { filter: { mask: 0 } }), { gravityScale: 2 }),
      body(0.5, new Capsule({ length: 0.067, radius: 0.02, filter: { mask: 0 } })),
      body(0.03, new Capsule({ length: 0.09, radius: 0.04, filter: { mask: 0 } }), { linearDrag: 3 }),
      body(0.3, Polygon.box(0.1, 0.19, { filter: { mask: 0 } }), { linearDrag: 1 }),
    ];
    const weld = (i: number, j: number, phase: number, o = {}) => {
      const [body1, body2] = [bodies[i]!, bodies[j]!];
      space.addConstraint(symbolic
        ? new SymbolicConstraint({ source: WELD, bodies: { body1, body2 }, scalars: { phase }, vectors: { anchor1: [-0.1, 0], anchor2: [0.1, 0] }, ...o })
        : new WeldJoint({ body1, body2, anchor1: [-0.1, 0], anchor2: [0.1, 0], phase, ...o }));
    };
    weld(2, 3, 0, { stiff: false, frequency: 40, damping: 2 });
    weld(1, 2, 2, { stiff: false, frequency: 8, damping: 0.05, maxForce: 1.6 });
    weld(0, 1, 0);
    return { space, bodies };
  }

  it('stays bounded, and moves as the built-in welds do', () => {
    const A = chain(false);
    const B = chain(true);
    let worst = 0;
    let spin = 0;
    for (let i = 0; i < 600; i++) {
      A.space.step(1 / 60);
      B.space.step(1 / 60);
      for (const b of B.bodies) spin = Math.max(spin, Math.abs(b.angularVel));
      if (i < STEPS) A.bodies.forEach((a, k) => (worst = Math.max(worst, Math.hypot(a.x - B.bodies[k]!.x, a.y - B.bodies[k]!.y))));
    }
    expect(spin).toBeLessThan(100);
    expect(worst).toBeLessThan(TOL);
  });
});
