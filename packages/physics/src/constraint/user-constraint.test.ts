/**
 * UserConstraint: the built-in joints re-implemented from an independent derivation move like
 * the built-in ones; the three ways of describing a constraint agree; the finite-difference
 * Jacobian is as accurate as documented; call order, errors, softness and breaking work.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import type { Vec3 } from '../math/vec2.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from '../space/space.js';
import type { Constraint } from './constraint.js';
import { AngleJoint } from './joints/angle-joint.js';
import { DistanceJoint } from './joints/distance-joint.js';
import { LineJoint } from './joints/line-joint.js';
import { MotorJoint } from './joints/motor-joint.js';
import { PivotJoint } from './joints/pivot-joint.js';
import { PulleyJoint } from './joints/pulley-joint.js';
import { WeldJoint } from './joints/weld-joint.js';
import { BODY_STATE_STRIDE, BodyState } from './body-state.js';
import { UserConstraint } from './user-constraint.js';
import { FulcrumDivergenceError, FulcrumInputError } from '../util/validate.js';
import { setSolverRouting } from '../test-support/solver-routing.js';

// ---------------------------------------------------------------- independent derivations

/** World anchor offset r = R(θ)(a − localCenter) and world point p = c + r. */
function anchorOf(b: Body, ax: number, ay: number): { rx: number; ry: number; px: number; py: number } {
  const p = b.localPointToWorld([ax, ay]);
  const c = b.worldCenter;
  return { rx: p.x - c.x, ry: p.y - c.y, px: p.x, py: p.y };
}

/** Nape-form pivot: position, velocity, effMass (packed) and impulse, all by hand. */
class UserPivot extends UserConstraint {
  b1: Body | null = null;
  b2: Body | null = null;
  constructor(b1: Body, b2: Body, readonly a1: [number, number], readonly a2: [number, number]) {
    super(2);
    this.b1 = this.registerBody(null, b1);
    this.b2 = this.registerBody(null, b2);
  }
  override position(err: Float64Array): void {
    const p1 = anchorOf(this.b1!, ...this.a1);
    const p2 = anchorOf(this.b2!, ...this.a2);
    err[0] = p2.px - p1.px;
    err[1] = p2.py - p1.py;
  }
  override velocity(err: Float64Array): void {
    const r1 = anchorOf(this.b1!, ...this.a1);
    const r2 = anchorOf(this.b2!, ...this.a2);
    const v1 = this.b1!.constraintVelocity;
    const v2 = this.b2!.constraintVelocity;
    err[0] = v2.x - v2.z * r2.ry - (v1.x - v1.z * r1.ry);
    err[1] = v2.y + v2.z * r2.rx - (v1.y + v1.z * r1.rx); // (the seed's typo used v1.x here)
  }
  override effMass(eff: Float64Array): void {
    const r1 = anchorOf(this.b1!, ...this.a1);
    const r2 = anchorOf(this.b2!, ...this.a2);
    const m = this.b1!.constraintMass + this.b2!.constraintMass;
    const i1 = this.b1!.constraintInertia;
    const i2 = this.b2!.constraintInertia;
    eff[0] = m + i1 * r1.ry * r1.ry + i2 * r2.ry * r2.ry;
    eff[1] = -i1 * r1.rx * r1.ry - i2 * r2.rx * r2.ry;
    eff[2] = m + i1 * r1.rx * r1.rx + i2 * r2.rx * r2.rx;
  }
  // Optional parameters and `any`: the signature that also fits the impulse() read-out (see the docs).
  override impulse(imp?: Float64Array, body?: Body, out?: Vec3): any {
    if (!imp || !body || !out) return super.impulse();
    const first = body === this.b1;
    const r = first ? anchorOf(body, ...this.a1) : anchorOf(body, ...this.a2);
    const s = first ? -1 : 1;
    out.x = s * imp[0]!;
    out.y = s * imp[1]!;
    out.z = s * (r.rx * imp[1]! - r.ry * imp[0]!);
  }
}

/** Jacobian-form constraint from (C, J) callbacks over [b1, b2] (one row). */
function jacobianForm(
  bodies: Body[],
  dims: number,
  C: (err: Float64Array) => void,
  Jfn: (J: Float64Array) => void,
  clamp?: (j: Float64Array) => void,
): UserConstraint {
  return new UserConstraint({ dimensions: dims, bodies, hooks: { position: C, jacobian: Jfn, ...(clamp ? { clamp } : {}) } });
}

function scene(): { space: Space; ground: Body; a: Body; b: Body } {
  const space = new Space({ gravity: [0, -10] });
  const ground = space.addBody(new Body({ type: 'static' }));
  const a = space.addBody(new Body({ position: [1, 0], rotation: 0.3, angularVel: 1, shapes: [Polygon.box(1, 0.4, { offset: [0.1, 0] })] }));
  const b = space.addBody(new Body({ position: [2.2, -0.5], rotation: -0.2, velocity: [0.5, 1], shapes: [Polygon.box(0.6, 0.6, { density: 2 })] }));
  return { space, ground, a, b };
}

/** Step two copies of a scene, one with the built-in joints, one with user versions; compare. */
function compare(build: (s: ReturnType<typeof scene>, user: boolean) => Constraint[], seconds: number, tol: number, islandsToo = true): void {
  // Both ways: each joint on its own, and (where they qualify) the joints as one joint island
  // (joint-island.ts), which takes user constraints in jacobian form as it takes built-in joints
  // (not Nape's effMass + impulse form, which has no J: `islandsToo` false).
  for (const islands of islandsToo ? [false, true] : [false]) compareOnce(build, seconds, tol, islands);
}

function compareOnce(build: (s: ReturnType<typeof scene>, user: boolean) => Constraint[], seconds: number, tol: number, islands: boolean): void {
  const A = scene();
  const B = scene();
  setSolverRouting(A.space, { jointIsland: islands });
  setSolverRouting(B.space, { jointIsland: islands });
  build(A, false).forEach((c) => A.space.addConstraint(c));
  build(B, true).forEach((c) => B.space.addConstraint(c));
  const n = Math.round(seconds * 60);
  let worst = 0;
  for (let i = 0; i < n; i++) {
    A.space.step(1 / 60);
    B.space.step(1 / 60);
    for (const k of ['a', 'b'] as const) {
      worst = Math.max(worst, Math.hypot(A[k].x - B[k].x, A[k].y - B[k].y), Math.abs(A[k].rotation - B[k].rotation));
    }
  }
  expect(worst, islands ? 'in joint islands' : 'one at a time').toBeLessThan(tol);
  // both really moved
  expect(Math.hypot(A.a.x - 1, A.a.y)).toBeGreaterThan(0.05);
}

describe('built-in joints re-implemented as UserConstraints move like the built-in ones', () => {
  it('PivotJoint, Nape form (effMass + impulse)', () =>
    compare(
      ({ ground, a, b }, user) =>
        user
          ? [new UserPivot(ground, a, [0, 0], [-0.5, 0]), new UserPivot(a, b, [0.5, 0], [-0.3, 0.3])]
          : [new PivotJoint({ body1: ground, body2: a, anchor2: [-0.5, 0] }), new PivotJoint({ body1: a, body2: b, anchor1: [0.5, 0], anchor2: [-0.3, 0.3] })],
      3,
      1e-6,
      false,
    ));

  it('PivotJoint, position-only form (finite-difference Jacobian)', () =>
    compare(
      ({ ground, a }, user) =>
        user
          ? [
              new UserConstraint({
                dimensions: 2,
                bodies: [ground, a],
                hooks: {
                  position(err) {
                    const p2 = a.localPointToWorld([-0.5, 0]);
                    err[0] = p2.x;
                    err[1] = p2.y;
                  },
                },
              }),
            ]
          : [new PivotJoint({ body1: ground, body2: a, anchor2: [-0.5, 0] })],
      3,
      1e-4,
    ));

  it('WeldJoint (jacobian form)', () =>
    compare(({ a, b }, user) => {
      if (!user) return [new WeldJoint({ body1: a, body2: b, anchor1: [0.5, 0], anchor2: [-0.3, 0], phase: 0.2 })];
      return [
        jacobianForm(
          [a, b],
          3,
          (err) => {
            const p1 = anchorOf(a, 0.5, 0);
            const p2 = anchorOf(b, -0.3, 0);
            err[0] = p2.px - p1.px;
            err[1] = p2.py - p1.py;
            err[2] = b.rotation - a.rotation - 0.2;
          },
          (J) => {
            const r1 = anchorOf(a, 0.5, 0);
            const r2 = anchorOf(b, -0.3, 0);
            J.set([-1, 0, r1.ry, 1, 0, -r2.ry, 0, -1, -r1.rx, 0, 1, r2.rx, 0, 0, -1, 0, 0, 1]);
          },
        ),
      ];
    }, 3, 1e-6));

  it('AngleJoint with ratio 2 (bilateral)', () =>
    compare(({ a, b }, user) => {
      if (!user) return [new AngleJoint({ body1: a, body2: b, jointMin: 0.1, jointMax: 0.1, ratio: 2 })];
      return [jacobianForm([a, b], 1, (e) => (e[0] = 2 * b.rotation - a.rotation - 0.1), (J) => J.set([0, 0, -1, 0, 0, 2]))];
    }, 2, 1e-6));

  it('DistanceJoint (rigid rod)', () =>
    compare(({ a, b }, user) => {
      if (!user) return [new DistanceJoint({ body1: a, body2: b, anchor1: [0.5, 0], anchor2: [0, 0.3], jointMin: 1, jointMax: 1 })];
      return [
        jacobianForm(
          [a, b],
          1,
          (e) => {
            const p1 = anchorOf(a, 0.5, 0);
            const p2 = anchorOf(b, 0, 0.3);
            e[0] = Math.hypot(p2.px - p1.px, p2.py - p1.py) - 1;
          },
          (J) => {
            const p1 = anchorOf(a, 0.5, 0);
            const p2 = anchorOf(b, 0, 0.3);
            const L = Math.hypot(p2.px - p1.px, p2.py - p1.py);
            const nx = (p2.px - p1.px) / L;
            const ny = (p2.py - p1.py) / L;
            J.set([-nx, -ny, -(p1.rx * ny - p1.ry * nx), nx, ny, p2.rx * ny - p2.ry * nx]);
          },
        ),
      ];
    }, 3, 1e-6));

  it('LineJoint with min = max (a slider locked in place)', () =>
    compare(({ a, b }, user) => {
      if (!user) return [new LineJoint({ body1: a, body2: b, anchor1: [0.5, 0], anchor2: [0, 0], direction: [1, 1], jointMin: 0.7, jointMax: 0.7 })];
      return [
        jacobianForm(
          [a, b],
          2,
          (e) => {
            const p1 = anchorOf(a, 0.5, 0);
            const p2 = anchorOf(b, 0, 0);
            const n = a.localVectorToWorld([Math.SQRT1_2, Math.SQRT1_2]);
            const dx = p2.px - p1.px;
            const dy = p2.py - p1.py;
            e[0] = n.x * dy - n.y * dx;
            e[1] = n.x * dx + n.y * dy - 0.7;
          },
          (J) => {
            // independent form: differentiate C⊥ = n×d and C∥ = n·d with ṅ = ω1 × n
            const p1 = anchorOf(a, 0.5, 0);
            const p2 = anchorOf(b, 0, 0);
            const n = a.localVectorToWorld([Math.SQRT1_2, Math.SQRT1_2]);
            const dx = p2.px - p1.px;
            const dy = p2.py - p1.py;
            // ∂(n×d)/∂θ1 = (∂n/∂θ1)×d + n×(−∂p1/∂θ1), ∂n/∂θ1 = n⊥, ∂p1/∂θ1 = r1⊥
            const nperp = { x: -n.y, y: n.x };
            const r1p = { x: -p1.ry, y: p1.rx };
            const r2p = { x: -p2.ry, y: p2.rx };
            const cross = (ux: number, uy: number, vx: number, vy: number) => ux * vy - uy * vx;
            J.set([
              n.y, -n.x, cross(nperp.x, nperp.y, dx, dy) - cross(n.x, n.y, r1p.x, r1p.y), -n.y, n.x, cross(n.x, n.y, r2p.x, r2p.y),
              -n.x, -n.y, nperp.x * dx + nperp.y * dy - (n.x * r1p.x + n.y * r1p.y), n.x, n.y, n.x * r2p.x + n.y * r2p.y,
            ]);
          },
        ),
      ];
    }, 3, 1e-6));

  it('PulleyJoint (3-body form with a shared body)', () =>
    compare(({ ground, a, b }, user) => {
      const anchors: [number, number][] = [[0, 2], [0, 0.2], [0, 0.3], [3, 2]];
      // rope: ground(0,2) — a, a — ground(3,2)... 3 bodies: b1=ground, b2=a, b3=b, b4=ground
      if (!user) return [new PulleyJoint({ body1: ground, body2: a, body3: b, body4: ground, anchor1: anchors[0], anchor2: anchors[1], anchor3: anchors[2], anchor4: anchors[3], jointMin: 5, jointMax: 5, ratio: 1.5 })];
      return [
        jacobianForm(
          [ground, a, b, ground],
          1,
          (e) => {
            const p1 = anchorOf(ground, ...anchors[0]!);
            const p2 = anchorOf(a, ...anchors[1]!);
            const p3 = anchorOf(b, ...anchors[2]!);
            const p4 = anchorOf(ground, ...anchors[3]!);
            e[0] = Math.hypot(p2.px - p1.px, p2.py - p1.py) + 1.5 * Math.hypot(p4.px - p3.px, p4.py - p3.py) - 5;
          },
          (J) => {
            const p1 = anchorOf(ground, ...anchors[0]!);
            const p2 = anchorOf(a, ...anchors[1]!);
            const p3 = anchorOf(b, ...anchors[2]!);
            const p4 = anchorOf(ground, ...anchors[3]!);
            const L1 = Math.hypot(p2.px - p1.px, p2.py - p1.py);
            const L2 = Math.hypot(p4.px - p3.px, p4.py - p3.py);
            const u = { x: (p2.px - p1.px) / L1, y: (p2.py - p1.py) / L1 };
            const v = { x: (1.5 * (p4.px - p3.px)) / L2, y: (1.5 * (p4.py - p3.py)) / L2 };
            J.set([0, 0, 0, u.x, u.y, p2.rx * u.y - p2.ry * u.x, -v.x, -v.y, -(p3.rx * v.y - p3.ry * v.x), 0, 0, 0]);
          },
        ),
      ];
    }, 3, 1e-6));
});

describe('MotorJoint re-implemented as a velocity-only UserConstraint', () => {
  it('moves like the built-in motor, including the maxForce clamp', () => {
    const run = (user: boolean): number[] => {
      const space = new Space();
      const base = space.addBody(new Body({ type: 'static' }));
      const a = space.addBody(new Body({ shapes: [Polygon.box(1, 0.2)] }));
      const b = space.addBody(new Body({ position: [3, 0], shapes: [Polygon.box(0.5, 0.5, { density: 3 })] }));
      space.addConstraint(new PivotJoint({ body1: base, body2: a }));
      space.addConstraint(new PivotJoint({ body1: base, body2: b, anchor1: [3, 0] }));
      space.addConstraint(
        user
          ? new UserConstraint({
              dimensions: 1,
              velocityOnly: true,
              bodies: [a, b],
              maxForce: 2,
              hooks: {
                velocity: (err) => (err[0] = 1.5 * b.angularVel - a.angularVel - 2), // V = ratio·ω2 − ω1 − rate
                jacobian: (J) => J.set([0, 0, -1, 0, 0, 1.5]),
              },
            })
          : new MotorJoint({ body1: a, body2: b, rate: 2, ratio: 1.5, maxForce: 2 }),
      );
      const out: number[] = [];
      for (let i = 0; i < 120; i++) {
        space.step(1 / 60);
        out.push(a.angularVel, b.angularVel);
      }
      return out;
    };
    const builtIn = run(false);
    const user = run(true);
    for (let i = 0; i < builtIn.length; i++) expect(user[i]).toBeCloseTo(builtIn[i]!, 9);
    expect(1.5 * builtIn[builtIn.length - 1]! - builtIn[builtIn.length - 2]!).toBeCloseTo(2, 6);
  });
});

describe('UserConstraint specifics', () => {
  it('the finite-difference Jacobian matches the analytic pivot Jacobian to 1e-8 (relative)', () => {
    const { ground, a } = scene();
    const c = new UserConstraint({
      dimensions: 2,
      bodies: [ground, a],
      hooks: {
        position(err) {
          const p = a.localPointToWorld([-0.5, 0.2]);
          err[0] = p.x;
          err[1] = p.y;
        },
      },
    });
    const J = new Float64Array(12);
    c.jacobian(J);
    const r = anchorOf(a, -0.5, 0.2);
    const exact = [0, 0, 0, 1, 0, -r.ry, 0, 0, 0, 0, 1, r.rx];
    for (let i = 0; i < 12; i++) expect(Math.abs(J[i]! - exact[i]!)).toBeLessThan(1e-8 * Math.max(1, Math.abs(exact[i]!)));
  });

  it('a velocity-only user motor drives the relative spin to its rate, limited by maxForce', () => {
    const space = new Space();
    const base = space.addBody(new Body({ type: 'static' }));
    const wheel = space.addBody(new Body({ shapes: [Polygon.box(1, 1)] }));
    const motor = space.addConstraint(
      new UserConstraint({
        dimensions: 1,
        velocityOnly: true,
        bodies: [base, wheel],
        maxForce: 0.5,
        hooks: {
          velocity: (err) => (err[0] = wheel.angularVel - 3),
          jacobian: (J) => J.set([0, 0, -1, 0, 0, 1]),
        },
      }),
    );
    space.step(1 / 60);
    // limited by maxForce: ω gains at most maxForce·dt / I per step
    expect(wheel.angularVel).toBeCloseTo((0.5 / 60) / wheel.inertia, 9);
    for (let i = 0; i < 600; i++) space.step(1 / 60);
    expect(wheel.angularVel).toBeCloseTo(3, 6);
    expect(motor.impulse()[0]).toBeCloseTo(0, 9);
  });

  it('hook call order within a step is as documented', () => {
    const space = new Space({ gravity: [0, -10], checkUserConstraints: false }); // (the check's own hook calls would join the log)
    const ground = space.addBody(new Body({ type: 'static' }));
    const a = space.addBody(new Body({ position: [0, -1], shapes: [Polygon.box(0.2, 0.2)] }));
    const calls: string[] = [];
    const log = (name: string) => calls.push(name);
    space.jointIterations = 2;
    space.addConstraint(new UserConstraint({
      dimensions: 2,
      bodies: [ground, a],
      hooks: {
        validate: () => log('validate'),
        prepare: () => log('prepare'),
        position(err) {
          log('position');
          const p = a.localPointToWorld([0, 1]);
          err[0] = p.x;
          err[1] = p.y;
        },
        velocity(err) {
          log('velocity');
          const v = a.constraintVelocity;
          err[0] = v.x - v.z * 1;
          err[1] = v.y;
        },
        effMass(eff) {
          log('effMass');
          eff[0] = a.constraintMass + a.constraintInertia;
          eff[1] = 0;
          eff[2] = a.constraintMass;
        },
        impulse(imp, body, out) {
          log('impulse');
          out.x = body === a ? imp[0]! : -imp[0]!;
          out.y = body === a ? imp[1]! : -imp[1]!;
          out.z = body === a ? -imp[0]! : 0;
        },
        clamp: () => log('clamp'),
      },
    }));
    space.step(1 / 60, 1, 1);
    // The pose-dependent hooks (prepare, position, effMass/jacobian) run once per pose: the warm
    // start and the biased pass share the substep's starting pose, the two relax passes the
    // integrated one. Each position pass moves bodies, so it starts afresh.
    expect(calls.join(' ')).toBe(
      [
        'validate',
        'prepare effMass impulse impulse', // warm start
        'velocity clamp impulse impulse', // biased pass (stiff: no bias, so no position())
        'prepare effMass velocity clamp impulse impulse', // relax 1, after the positions moved
        'velocity clamp impulse impulse', // relax 2
        'prepare position effMass clamp impulse impulse', // position pass
      ].join(' '),
    );
  });

  it('a hook that writes NaN fails with an error naming the constraint; nothing is poisoned', () => {
    const space = new Space({ gravity: [0, -10] });
    const ground = space.addBody(new Body({ type: 'static' }));
    const a = space.addBody(new Body({ position: [0, -1], shapes: [Polygon.box(0.2, 0.2)] }));
    const bad = space.addConstraint(new UserConstraint({ dimensions: 1, bodies: [ground, a], hooks: { position: (e) => (e[0] = NaN) } }));
    expect(() => space.step(1 / 60)).toThrow(new RegExp(`UserConstraint#${bad.id}: position\\(\\) wrote a non-finite value`));
    space.removeConstraint(bad);
    for (let i = 0; i < 60; i++) space.step(1 / 60);
    expect(Number.isFinite(a.y) && a.y < -1).toBe(true);
  });

  it('what a user got wrong is a FulcrumInputError naming the constraint and the hook or slot, at step(); a clamp() writing NaN is caught before it reaches an impulse', () => {
    // (Placeholder hooks: the solver's own checks, without the derivative check.)
    const space = new Space({ gravity: [0, -10], checkUserConstraints: false });
    const ground = space.addBody(new Body({ type: 'static' }));
    const a = space.addBody(new Body({ position: [0, -1], shapes: [Polygon.box(0.2, 0.2)] }));
    const stepError = (): FulcrumInputError => {
      try {
        space.step(1 / 60);
      } catch (e) {
        expect(e).toBeInstanceOf(FulcrumInputError);
        return e as FulcrumInputError;
      }
      throw new Error('expected step() to throw');
    };
    const pin = { position: (e: Float64Array) => (e[0] = a.y + 1) };
    const cases: [UserConstraint, string, RegExp][] = [
      [new UserConstraint({ dimensions: 1, bodies: [ground, null], hooks: pin }), 'bodies[1]', /bodies\[1\] is not set/],
      [new UserConstraint({ dimensions: 1, bodies: [ground, new Body()], hooks: pin }), 'bodies[1]', /is not in the space/],
      [new UserConstraint({ dimensions: 1, bodies: [ground, a], hooks: {} }), 'position', /position\(err\) must be provided/],
      [new UserConstraint({ dimensions: 1, bodies: [ground, a], hooks: { position: (e) => (e[0] = NaN) } }), 'position', /position\(\) wrote a non-finite value/],
      [new UserConstraint({ dimensions: 1, bodies: [ground, a], hooks: { ...pin, clamp: (j) => (j[0] = NaN) } }), 'clamp', /clamp\(\) wrote a non-finite value \(NaN\) in row 0/],
      // J's row and column (not its flat index), on the one-by-one path and in the user batch.
      [new UserConstraint({ dimensions: 2, bodies: [ground, a], hooks: { position: (e) => e.set([a.x, a.y]), jacobian: (J) => J.set([0, 0, 0, 1, 0, 0, 0, 0, 0, 0, NaN, 0]) } }), 'jacobian', /jacobian\(\) wrote a non-finite value \(NaN\) in row 1, column 4 \(y of bodies\[1\]\)/],
      [new UserConstraint({ dimensions: 2, packedState: true, bodies: [ground, a], hooks: { position: (e) => e.set([0, 0]), jacobian: (J) => J.set([0, 0, 0, 1, 0, NaN, 0, 0, 0, 0, 1, 0]) } }), 'jacobian', /jacobian\(\) wrote a non-finite value \(NaN\) in row 0, column 5 \(θ of bodies\[1\]\)/],
    ];
    for (const [c, prop, message] of cases) {
      space.addConstraint(c);
      const e = stepError();
      expect(e.message).toMatch(message);
      expect(e.message).toContain(`UserConstraint#${c.id}`);
      expect(e.prop).toBe(prop);
      expect(e.owner).toBe('UserConstraint');
      // Nothing poisoned: no impulse took the NaN, and without the constraint the space steps on.
      expect(Array.from(c.impulse() as Float64Array).every(Number.isFinite)).toBe(true);
      space.removeConstraint(c);
      space.step(1 / 60);
      expect(Number.isFinite(a.y)).toBe(true);
    }
  });

  it('a hand-written K that is not positive definite is rejected when written, naming effMass; effMass without impulse is rejected before the step', () => {
    // (The solver's own check of K, without the derivative check that would report it first.)
    const space = new Space({ gravity: [0, -10], checkUserConstraints: false });
    const ground = space.addBody(new Body({ type: 'static' }));
    const a = space.addBody(new Body({ position: [0, -1], shapes: [Polygon.box(0.2, 0.2)] }));
    const nape = (eff: number[]) => ({
      position: (e: Float64Array) => e.set([a.x, a.y + 1]),
      velocity: (e: Float64Array) => e.set([a.velocity.x, a.velocity.y]),
      effMass: (e: Float64Array) => e.set(eff),
      impulse: (imp: Float64Array, _b: Body, out: Vec3) => {
        out.x = imp[0]!;
        out.y = imp[1]!;
        out.z = 0;
      },
    });
    const y0 = a.y;
    for (const [eff, detail] of [[[-1, 0, 1], /K's diagonal: -1, 1/], [[0, 0, 1], /pivot 0/], [[1, 2, 1], /pivot 1 of its LDLᵀ factors is -3/]] as const) {
      const c = space.addConstraint(new UserConstraint({ dimensions: 2, bodies: [a], hooks: nape([...eff]) }));
      expect(() => space.step(1 / 60)).toThrow(/effMass\(\) wrote a K that is not positive definite/);
      expect(() => space.step(1 / 60)).toThrow(detail);
      space.removeConstraint(c);
    }
    // The right K (1/m on each axis of a free body) is accepted, and holds the body.
    const m = a.mass;
    const good = space.addConstraint(new UserConstraint({ dimensions: 2, bodies: [a], hooks: nape([1 / m, 0, 1 / m]) }));
    for (let i = 0; i < 30; i++) space.step(1 / 60);
    expect(a.y).toBeCloseTo(y0, 6);
    space.removeConstraint(good);
    const half = space.addConstraint(new UserConstraint({ dimensions: 2, bodies: [a], hooks: { ...nape([1, 0, 1]), impulse: undefined } }));
    expect(() => space.step(1 / 60)).toThrow(/effMass\(\) is given without impulse\(\)/);
    space.removeConstraint(half);
    space.step(1 / 60);
  });

  it('a position() that throws inside the finite differences leaves no body shifted', () => {
    const space = new Space({ gravity: [0, -10] });
    const ground = space.addBody(new Body({ type: 'static' }));
    const a = space.addBody(new Body({ position: [0.3, -1], rotation: 0.2, shapes: [Polygon.box(0.2, 0.2)] }));
    let calls = 0;
    const c = space.addConstraint(
      new UserConstraint({
        dimensions: 1,
        bodies: [ground, a],
        hooks: {
          position(e) {
            // The first call is C at the pose; the next ones are the perturbed poses of J's differences.
            if (++calls === 3) throw new Error('user bug');
            e[0] = a.y + 1;
          },
        },
      }),
    );
    const before = [a.x, a.y, a.rotation];
    expect(() => space.step(1 / 60)).toThrow('user bug');
    expect([a.x, a.y, a.rotation]).toEqual(before);
    space.removeConstraint(c);
    space.step(1 / 60);
  });

  it('a row whose J vanishes (C constant by accident) gets no impulse on either path: the bodies move as if it were not there', () => {
    const run = (variant: 'none' | 'differences' | 'hook' | 'batched') => {
      const space = new Space({ gravity: [0, -10], checkUserConstraints: false });
      const a = space.addBody(new Body({ position: [0, 0], angularVel: 0.5, shapes: [Polygon.box(0.4, 0.4)] }));
      const b = space.addBody(new Body({ position: [1, 0.3], velocity: [0.2, 0], shapes: [Polygon.box(0.4, 0.4)] }));
      // C = |unit(p2 − p1)| − 1: 0 up to round-off whatever the bodies do. Its J is round-off too,
      // which the solver once inverted into impulses that threw the bodies about.
      const position = (e: Float64Array, st: Float64Array) => {
        const dx = st[BODY_STATE_STRIDE + BodyState.x]! - st[BodyState.x]!, dy = st[BODY_STATE_STRIDE + BodyState.y]! - st[BodyState.y]!;
        const l = Math.hypot(dx, dy);
        e[0] = Math.hypot(dx / l, dy / l) - 1;
      };
      const roundOff = (J: Float64Array) => J.set([1e-17, -3e-17, 0, -1e-17, 3e-17, 2e-18]);
      if (variant === 'differences') space.addConstraint(new UserConstraint({ dimensions: 1, packedState: true, bodies: [a, b], hooks: { position } }));
      if (variant === 'hook' || variant === 'batched') {
        const c = new UserConstraint({ dimensions: 1, packedState: true, bodies: [a, b], hooks: { position, jacobian: roundOff } });
        if (variant === 'hook') setSolverRouting(space, { userBatch: false });
        space.addConstraint(c);
      }
      for (let i = 0; i < 60; i++) space.step(1 / 60);
      return [a.x, a.y, a.rotation, a.angularVel, b.x, b.y, b.velocity.x, b.velocity.y];
    };
    const free = run('none');
    for (const v of ['differences', 'hook', 'batched'] as const) expect(run(v), v).toEqual(free);
  });

  it('a soft user constraint is a spring at its frequency; breakUnderError breaks it and fires the event', () => {
    const space = new Space();
    const ground = space.addBody(new Body({ type: 'static' }));
    const a = space.addBody(new Body({ position: [1, 0], allowRotation: false, shapes: [Polygon.box(0.2, 0.2)] }));
    const spring = space.addConstraint(
      new UserConstraint({
        dimensions: 2,
        bodies: [ground, a],
        stiff: false,
        frequency: 2,
        damping: 0,
        hooks: { position: (e) => e.set([a.worldCenter.x, a.worldCenter.y]) },
      }),
    );
    let crossings = 0;
    let last = a.x;
    for (let i = 0; i < 240; i++) {
      space.step(1 / 60);
      if (Math.sign(a.x) !== Math.sign(last)) crossings++;
      last = a.x;
    }
    expect(crossings).toBe(16); // 2 Hz for 4 s: two zero crossings per period
    const breaks: string[] = [];
    space.on('constraintBreak', (e) => breaks.push(e.reason));
    spring.maxError = 0.01;
    spring.breakUnderError = true;
    a.position = [3, 0];
    space.step(1 / 60);
    expect(breaks).toEqual(['error']);
    expect(spring.space).toBe(null);
  });

  it('validates its options', () => {
    expect(() => new UserConstraint(0)).toThrow(/UserConstraint.dimensions must be an integer in \[1, 64\], got 0/);
    expect(() => new UserConstraint({ dimensions: 1, hooks: { position: 3 as unknown as () => void } })).toThrow(/hooks.position must be a function, got 3/);
    expect(() => new UserConstraint({ dimensions: 1, hooks: { postion: () => {} } as never })).toThrow(/hooks.postion is not a hook/);
    const space = new Space();
    const b = space.addBody(new Body());
    const c = space.addConstraint(new UserConstraint({ dimensions: 1, bodies: [b] }));
    expect(() => space.step(1 / 60)).toThrow(new RegExp(`UserConstraint#${c.id}: position\\(err\\) must be provided`));
  });

  it('bindVec2 wakes the constraint when mutated', () => {
    const space = new Space({ gravity: [0, -10] });
    const ground = space.addBody(new Body({ type: 'static' }));
    const a = space.addBody(new Body({ position: [0, -1], shapes: [Polygon.box(0.2, 0.2)] }));
    const u = new UserConstraint({ dimensions: 2, bodies: [ground, a] });
    const anchor = u.bindVec2(0, 0);
    u.hooks = { position: (e) => e.set([a.x - anchor.x, a.y - 1 - anchor.y]) };
    space.addConstraint(u);
    for (let i = 0; i < 180; i++) space.step(1 / 60);
    expect(a.isSleeping).toBe(true);
    anchor.x = 0.5;
    expect(a.isSleeping).toBe(false);
    for (let i = 0; i < 120; i++) space.step(1 / 60);
    expect(a.x).toBeCloseTo(0.5, 3);
  });
});

describe('packed body state', () => {
  /** World anchor p = origin + R·a and its offset from the centre of mass, read from the packed state. */
  function anchorIn(st: Float64Array, slot: number, ax: number, ay: number): { rx: number; ry: number; px: number; py: number } {
    const o = slot * BODY_STATE_STRIDE;
    const c = st[o + BodyState.cos]!, s = st[o + BodyState.sin]!;
    const px = st[o + BodyState.x]! + c * ax - s * ay;
    const py = st[o + BodyState.y]! + s * ax + c * ay;
    return { px, py, rx: px - st[o + BodyState.comX]!, ry: py - st[o + BodyState.comY]! };
  }

  it('a packedState weld (jacobian form, off-centre mass) moves like the built-in WeldJoint', () =>
    compare(({ a, b }, user) => {
      if (!user) return [new WeldJoint({ body1: a, body2: b, anchor1: [0.5, 0], anchor2: [-0.3, 0], phase: 0.2 })];
      return [
        new UserConstraint({
          dimensions: 3,
          packedState: true,
          bodies: [a, b],
          hooks: {
            position(err, st) {
              const p1 = anchorIn(st, 0, 0.5, 0);
              const p2 = anchorIn(st, 1, -0.3, 0);
              err[0] = p2.px - p1.px;
              err[1] = p2.py - p1.py;
              err[2] = st[BODY_STATE_STRIDE + BodyState.rotation]! - st[BodyState.rotation]! - 0.2;
            },
            jacobian(J, st) {
              const r1 = anchorIn(st, 0, 0.5, 0);
              const r2 = anchorIn(st, 1, -0.3, 0);
              J.set([-1, 0, r1.ry, 1, 0, -r2.ry, 0, -1, -r1.rx, 0, 1, r2.rx, 0, 0, -1, 0, 0, 1]);
            },
          },
        }),
      ];
    }, 3, 1e-6));

  it('a packedState position-only pivot (finite differences on the state) moves like the built-in pivot', () =>
    compare(({ ground, a }, user) => {
      if (!user) return [new PivotJoint({ body1: ground, body2: a, anchor2: [-0.5, 0] })];
      return [
        new UserConstraint({
          dimensions: 2,
          packedState: true,
          bodies: [ground, a],
          hooks: {
            position(err, st) {
              const p = anchorIn(st, 1, -0.5, 0);
              err[0] = p.px;
              err[1] = p.py;
            },
          },
        }),
      ];
    }, 3, 1e-4));

  it('the state matches the Body getters at every hook call (default mode)', () => {
    const { space, ground, a, b } = scene();
    let calls = 0;
    let worst = 0;
    const check = (st: Float64Array, slot: number, body: Body): void => {
      const o = slot * BODY_STATE_STRIDE;
      const v = body.velocity;
      const c = body.worldCenter;
      const expected = [body.x, body.y, body.rotation, Math.cos(body.rotation), Math.sin(body.rotation), v.x, v.y, body.angularVel, c.x, c.y];
      for (let k = 0; k < BODY_STATE_STRIDE; k++) worst = Math.max(worst, Math.abs(st[o + k]! - expected[k]!));
    };
    space.addConstraint(new PivotJoint({ body1: ground, body2: a, anchor2: [-0.5, 0] }));
    space.addConstraint(
      new UserConstraint({
        dimensions: 1,
        bodies: [a, b, ground],
        hooks: {
          position(err, st) {
            calls++;
            check(st, 0, a);
            check(st, 1, b);
            check(st, 2, ground);
            err[0] = Math.hypot(b.x - a.x, b.y - a.y) - 1.3;
          },
        },
      }),
    );
    for (let i = 0; i < 30; i++) space.step(1 / 60);
    expect(calls).toBeGreaterThan(30 * 8);
    expect(worst).toBeLessThan(1e-12);
    expect(Math.hypot(a.velocity.x, a.velocity.y)).toBeGreaterThan(0.1);
  });

  it('with packedState the Body objects keep the step-start pose during the step; the state moves', () => {
    const { space, ground, a } = scene();
    const seen: { bodyX: number; stateX: number }[] = [];
    let startX = 0;
    space.addConstraint(
      new UserConstraint({
        dimensions: 2,
        packedState: true,
        bodies: [ground, a],
        hooks: {
          position(err, st) {
            seen.push({ bodyX: a.x, stateX: st[BODY_STATE_STRIDE + BodyState.x]! });
            const p = anchorIn(st, 1, -0.5, 0);
            err[0] = p.px;
            err[1] = p.py;
          },
        },
      }),
    );
    space.step(1 / 60);
    startX = a.x;
    seen.length = 0;
    space.step(1 / 60);
    expect(seen.length).toBeGreaterThan(4);
    for (const s of seen) expect(s.bodyX).toBe(startX);
    expect(new Set(seen.map((s) => s.stateX)).size).toBeGreaterThan(2);
    expect(a.x).not.toBe(startX);
  });

  it('rejects a non-boolean packedState', () => {
    expect(() => new UserConstraint({ dimensions: 1, packedState: 'yes' as unknown as boolean })).toThrow(/UserConstraint\.packedState must be a boolean, got "yes"/);
  });
});

describe('a hook that writes a non-finite value', () => {
  /** A rope of squared-distance form, whose square overflows far out. */
  const rope = (a: Body, b: Body, nan: { on: boolean }) =>
    new UserConstraint({
      dimensions: 1,
      bodies: [a, b],
      packedState: true,
      hooks: {
        position(err, st) {
          const S = BODY_STATE_STRIDE;
          const dx = st[S + BodyState.x]! - st[BodyState.x]!;
          const dy = st[S + BodyState.y]! - st[BodyState.y]!;
          err[0] = nan.on ? NaN : Math.sqrt(dx * dx + dy * dy) - 1;
        },
      },
    });

  it("is the hook's mistake (FulcrumInputError naming the hook) from a state it can square, the solution's divergence (FulcrumDivergenceError naming the body and field) from one it cannot; either way the space is as before", () => {
    for (const [x, nanOn, kind, pattern] of [
      [3, true, FulcrumInputError, /UserConstraint#\d+: position\(\) wrote a non-finite value \(NaN\) in row 0/],
      [1e160, false, FulcrumDivergenceError, /Body#\d+'s position\.x was 1e\+160 when UserConstraint#\d+'s position\(\) read it and wrote Infinity: past 1\.3e154/],
    ] as const) {
      const space = new Space({ gravity: [0, -10] });
      const ground = space.addBody(new Body({ type: 'static' }));
      const ball = space.addBody(new Body({ position: [x, 0], shapes: [Polygon.box(0.2, 0.2)] }));
      space.addConstraint(rope(ground, ball, { on: nanOn }));
      let error: unknown = null;
      try {
        space.step(1 / 60);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(kind);
      expect((error as Error).message).toMatch(pattern);
      if (error instanceof FulcrumDivergenceError) {
        expect(error.bodyId).toBe(ball.id);
        expect(error.field).toBe('position.x');
      }
      expect([ball.x, ball.y, ball.velocity.x, ball.velocity.y]).toEqual([x, 0, 0, 0]);
    }
  });
});
