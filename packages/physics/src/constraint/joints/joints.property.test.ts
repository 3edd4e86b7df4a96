/**
 * Every joint's derivation checked numerically, over random body states (fast-check):
 *  - V (the joint's own J·v) equals the finite-difference time derivative of C;
 *  - K equals J M⁻¹ Jᵀ built from the finite-difference Jacobian, and is symmetric PSD;
 *  - applying λ changes the velocities by M⁻¹ Jᵀλ (Jᵀλ with the finite-difference J).
 * The finite-difference J comes from C alone (central differences in x, y, θ of each body).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Body } from '../../body/body.js';
import { Polygon } from '../../shape/polygon.js';
import { SolverBodies } from '../../space/solver-bodies.js';
import { Space } from '../../space/space.js';
import type { BodyStates } from '../../space/body-states.js';
import { STATE_LENGTH } from '../../body/state-layout.js';
import type { StepContext } from '../../space/step-context.js';
import type { Joint } from '../joint.js';
import { AngleJoint } from './angle-joint.js';
import { DistanceJoint } from './distance-joint.js';
import { LineJoint } from './line-joint.js';
import { MotorJoint } from './motor-joint.js';
import { PivotJoint } from './pivot-joint.js';
import { PulleyJoint } from './pulley-joint.js';
import { WeldJoint } from './weld-joint.js';

const num = (lo: number, hi: number) => fc.double({ min: lo, max: hi, noNaN: true });

interface BodyState {
  x: number;
  y: number;
  a: number;
  vx: number;
  vy: number;
  w: number;
  mass: number;
  isStatic: boolean;
}
const bodyState = fc.record({
  x: num(-3, 3),
  y: num(-3, 3),
  a: num(-3, 3),
  vx: num(-2, 2),
  vy: num(-2, 2),
  w: num(-2, 2),
  mass: num(0.2, 5),
  isStatic: fc.boolean(),
});
const vec = fc.tuple(num(-1, 1), num(-1, 1));

function makeBody(s: BodyState, allowStatic: boolean): Body {
  const isStatic = allowStatic && s.isStatic;
  return new Body({
    type: isStatic ? 'static' : 'dynamic',
    position: [s.x, s.y],
    rotation: s.a,
    velocity: isStatic ? [0, 0] : [s.vx, s.vy],
    angularVel: isStatic ? 0 : s.w,
    // an off-centre shape so the centre of mass is not the origin
    shapes: [Polygon.box(1, 0.5, { offset: [0.3, -0.2], density: s.mass })],
  });
}

function context(bodies: Body[]): StepContext {
  // Gather reads the bodies' numbers from their space's states (SolverBodies.gatherStates), so the
  // bodies join a space (one per joint: the first body's, or a new one).
  const space = (bodies[0]!.space as Space | null) ?? new Space();
  for (const b of distinct(bodies)) if (b.space === null) space.addBody(b);
  const states = (space as unknown as { _bodyStates: BodyStates })._bodyStates.array;
  const sb = new SolverBodies();
  sb.begin(0, 0, 1 / 240, states.length / STATE_LENGTH, states);
  for (const b of bodies) b._solverIndex = -1;
  for (const b of bodies) if (b.type === 'dynamic' && b._solverIndex < 0) sb.add(b);
  sb.gatherStates();
  return { dt: 1 / 60, h: 1 / 240, invH: 240, substeps: 4, bodies: sb, jointSoftness: { biasRate: 0, massScale: 1, impulseScale: 0, compliance: 0 }, poseEpoch: 0, step: 0 };
}

/** The constraint value vector (equality errors / limit values) at the bodies' current poses. */
function values(joint: Joint, bodies: Body[]): number[] {
  return joint._inspect(context(bodies)).values;
}

function distinct(bodies: Body[]): Body[] {
  return bodies.filter((b, i) => bodies.indexOf(b) === i);
}

/** Finite-difference Jacobian dC/d(x, y, θ) of each distinct body (about its centre of mass). */
function fdJacobian(joint: Joint, bodies: Body[]): number[][][] {
  const eps = 1e-6;
  const uniq = distinct(bodies);
  const base = values(joint, bodies);
  const J = base.map(() => uniq.map(() => [0, 0, 0]));
  uniq.forEach((b, bi) => {
    for (let d = 0; d < 3; d++) {
      const perturb = (sign: number): number[] => {
        const c = b.worldCenter;
        if (d < 2) b.position = [b.x + (d === 0 ? sign * eps : 0), b.y + (d === 1 ? sign * eps : 0)];
        else {
          // rotate about the centre of mass
          b.rotation = b.rotation + sign * eps;
          const c2 = b.worldCenter;
          b.position = [b.x + c.x - c2.x, b.y + c.y - c2.y];
        }
        const v = values(joint, bodies);
        return v;
      };
      const save = [b.x, b.y, b.rotation] as const;
      const plus = perturb(1);
      b.position = [save[0], save[1]];
      b.rotation = save[2];
      const minus = perturb(-1);
      b.position = [save[0], save[1]];
      b.rotation = save[2];
      for (let r = 0; r < base.length; r++) J[r]![bi]![d] = (plus[r]! - minus[r]!) / (2 * eps);
    }
  });
  return J;
}

function check(joint: Joint, bodies: Body[]): void {
  const uniq = distinct(bodies);
  // Differences first: they re-prepare the joint at perturbed poses.
  const Jfd = fdJacobian(joint, bodies);
  const ctx = context(bodies);
  const snap = joint._inspect(ctx);
  const dim = snap.values.length;
  const scale = (x: number[]) => Math.max(1, ...x.map(Math.abs));
  for (let r = 0; r < dim; r++) {
    if (snap.kinds[r] === 3 /* slack */) continue;
    const isMotor = snap.kinds[r] === 2;
    // V = J v with the finite-difference J (velocity of the centre of mass and ω)
    let vfd = 0;
    uniq.forEach((b, bi) => {
      const dyn = b.type === 'dynamic';
      vfd += Jfd[r]![bi]![0]! * (dyn ? b.velocity.x : 0) + Jfd[r]![bi]![1]! * (dyn ? b.velocity.y : 0) + Jfd[r]![bi]![2]! * (dyn ? b.angularVel : 0);
    });
    if (!isMotor) expect(Math.abs(snap.V[r]! - vfd)).toBeLessThanOrEqual(1e-6 * scale([snap.V[r]!, vfd]));
  }
  // K = J M⁻¹ Jᵀ with the finite-difference J (motor rows: J is not a gradient of C, skip)
  const rows = [...Array(dim).keys()].filter((r) => snap.kinds[r] !== 3 && snap.kinds[r] !== 2);
  for (const a of rows) {
    for (const b of rows) {
      let k = 0;
      uniq.forEach((body, bi) => {
        const m = body.constraintMass;
        const i = body.constraintInertia;
        k += m * (Jfd[a]![bi]![0]! * Jfd[b]![bi]![0]! + Jfd[a]![bi]![1]! * Jfd[b]![bi]![1]!) + i * Jfd[a]![bi]![2]! * Jfd[b]![bi]![2]!;
      });
      expect(Math.abs(snap.K[a]![b]! - k)).toBeLessThanOrEqual(1e-6 * Math.max(1, Math.abs(k)));
      expect(snap.K[a]![b]).toBeCloseTo(snap.K[b]![a]!, 12);
    }
  }
  // PSD: xᵀ K x ≥ 0 for a few directions
  for (const x of [[1, 0, 0], [0, 1, 0], [1, -1, 0.5], [0.3, 0.7, -1]]) {
    let q = 0;
    for (const a of rows) for (const b of rows) q += x[a]! * snap.K[a]![b]! * x[b]!;
    expect(q).toBeGreaterThanOrEqual(-1e-9);
  }
  // Jᵀλ: apply λ and compare the velocity change with M⁻¹ Jᵀλ (finite-difference J)
  const lambda = rows.map((_, i) => 0.3 - 0.2 * i);
  const full = Array(dim).fill(0);
  rows.forEach((r, i) => (full[r] = lambda[i]));
  const sb = ctx.bodies;
  const before = uniq.map((b) => (b._solverIndex > 0 ? [sb.vx[b._solverIndex]!, sb.vy[b._solverIndex]!, sb.w[b._solverIndex]!] : [0, 0, 0]));
  joint._applyForTest(ctx, full);
  uniq.forEach((b, bi) => {
    if (b.type !== 'dynamic') return;
    const k = b._solverIndex;
    const expected = [0, 0, 0];
    rows.forEach((r, i) => {
      for (let d = 0; d < 3; d++) expected[d] += Jfd[r]![bi]![d]! * lambda[i]!;
    });
    const dv = [sb.vx[k]! - before[bi]![0]!, sb.vy[k]! - before[bi]![1]!, sb.w[k]! - before[bi]![2]!];
    expect(Math.abs(dv[0]! - b.constraintMass * expected[0]!)).toBeLessThan(1e-6);
    expect(Math.abs(dv[1]! - b.constraintMass * expected[1]!)).toBeLessThan(1e-6);
    expect(Math.abs(dv[2]! - b.constraintInertia * expected[2]!)).toBeLessThan(1e-6);
  });
}

const RUNS = { numRuns: 60, seed: 42 };

describe('joint derivations match finite differences', () => {
  it('PivotJoint', () =>
    fc.assert(fc.property(bodyState, bodyState, vec, vec, (s1, s2, a1, a2) => {
      const b1 = makeBody(s1, true);
      const b2 = makeBody(s2, false);
      check(new PivotJoint({ body1: b1, body2: b2, anchor1: a1, anchor2: a2 }), [b1, b2]);
    }), RUNS));

  it('WeldJoint', () =>
    fc.assert(fc.property(bodyState, bodyState, vec, vec, num(-1, 1), (s1, s2, a1, a2, phase) => {
      const b1 = makeBody(s1, false);
      const b2 = makeBody(s2, true);
      check(new WeldJoint({ body1: b1, body2: b2, anchor1: a1, anchor2: a2, phase }), [b1, b2]);
    }), RUNS));

  it('AngleJoint (bilateral and limits, ratio ≠ 1)', () =>
    fc.assert(fc.property(bodyState, bodyState, num(-3, 3), fc.boolean(), (s1, s2, ratio, bilateral) => {
      const b1 = makeBody(s1, true);
      const b2 = makeBody(s2, false);
      check(new AngleJoint({ body1: b1, body2: b2, jointMin: -0.5, jointMax: bilateral ? -0.5 : 0.5, ratio }), [b1, b2]);
    }), RUNS));

  it('DistanceJoint', () =>
    fc.assert(fc.property(bodyState, bodyState, vec, vec, (s1, s2, a1, a2) => {
      const b1 = makeBody(s1, true);
      const b2 = makeBody(s2, false);
      const p1 = b1.localPointToWorld(a1);
      const p2 = b2.localPointToWorld(a2);
      fc.pre(Math.hypot(p2.x - p1.x, p2.y - p1.y) > 0.1); // |d| is not differentiable at 0
      check(new DistanceJoint({ body1: b1, body2: b2, anchor1: a1, anchor2: a2, jointMin: 0.5, jointMax: 2 }), [b1, b2]);
    }), RUNS));

  it('LineJoint', () =>
    fc.assert(fc.property(bodyState, bodyState, vec, vec, vec, (s1, s2, a1, a2, dir) => {
      fc.pre(Math.hypot(dir[0], dir[1]) > 0.1);
      const b1 = makeBody(s1, false);
      const b2 = makeBody(s2, true);
      check(new LineJoint({ body1: b1, body2: b2, anchor1: a1, anchor2: a2, direction: dir, jointMin: -1, jointMax: 1 }), [b1, b2]);
    }), RUNS));

  it('PulleyJoint: 4 bodies, and the shared-body forms', () =>
    fc.assert(fc.property(bodyState, bodyState, bodyState, bodyState, vec, vec, vec, vec, num(0.3, 3), fc.integer({ min: 0, max: 2 }), (s1, s2, s3, s4, a1, a2, a3, a4, ratio, form) => {
      const b1 = makeBody(s1, true);
      const b2 = makeBody(s2, false);
      const b3 = form === 2 ? b2 : makeBody(s3, true); // 3-body form: b2 = b3
      const b4 = form === 1 || form === 2 ? b1 : makeBody(s4, false); // shared b1 = b4
      const bodies = [b1, b2, b3, b4];
      fc.pre(distinct(bodies).some((b) => b.type === 'dynamic'));
      const w = bodies.map((b, i) => b.localPointToWorld([a1, a2, a3, a4][i]!));
      fc.pre(Math.hypot(w[1]!.x - w[0]!.x, w[1]!.y - w[0]!.y) > 0.1 && Math.hypot(w[3]!.x - w[2]!.x, w[3]!.y - w[2]!.y) > 0.1);
      check(new PulleyJoint({ body1: b1, body2: b2, body3: b3, body4: b4, anchor1: a1, anchor2: a2, anchor3: a3, anchor4: a4, jointMin: 1, jointMax: 5, ratio }), bodies);
    }), RUNS));

  it('MotorJoint: K = J M⁻¹ Jᵀ and Jᵀλ', () =>
    fc.assert(fc.property(bodyState, bodyState, num(-3, 3), (s1, s2, ratio) => {
      const b1 = makeBody(s1, true);
      const b2 = makeBody(s2, false);
      const joint = new MotorJoint({ body1: b1, body2: b2, rate: 1, ratio });
      const snap = joint._inspect(context([b1, b2]));
      expect(snap.K[0]![0]).toBeCloseTo(b1.constraintInertia + ratio * ratio * b2.constraintInertia, 10);
      expect(snap.V[0]).toBeCloseTo(ratio * b2.angularVel - (b1.type === 'dynamic' ? b1.angularVel : 0), 10);
    }), RUNS));
});
