/**
 * Space.checkUserConstraints: hand-written derivatives against finite differences of position().
 * A correct Nape-form pivot passes; each of the seed manual's typos (v1.x for v1.y in the pivot's
 * velocity, i_2 for i_1 in its K), a flipped impulse, a wrong J entry and a C that is constant by
 * accident are each reported with the hook, the row and both values.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import type { Vec3 } from '../math/vec2.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from '../space/space.js';
import { FulcrumInputError } from '../util/validate.js';
import { BodyState } from './body-state.js';
import { UserConstraint, type UserConstraintHooks } from './user-constraint.js';

type V2 = [number, number];
interface Typos {
  velocityRow1UsesV1x?: boolean;
  kUsesI2ForI1?: boolean;
  impulseSignFlipped?: boolean;
  jacobianEntry?: [number, number];
}

/** Nape's pivot (the manual's example), by hand: C = p2 − p1, V, K and Jᵀλ, with optional typos. */
function napePivot(b1: Body, b2: Body, a1: V2, a2: V2, typos: Typos = {}): UserConstraintHooks {
  const arms = () => {
    const p1 = b1.localPointToWorld(a1);
    const p2 = b2.localPointToWorld(a2);
    const c1 = b1.worldCenter;
    const c2 = b2.worldCenter;
    return { p1, p2, r1x: p1.x - c1.x, r1y: p1.y - c1.y, r2x: p2.x - c2.x, r2y: p2.y - c2.y };
  };
  const m1 = 1 / b1.mass, m2 = 1 / b2.mass, i1 = 1 / b1.inertia, i2 = 1 / b2.inertia;
  return {
    position(err) {
      const { p1, p2 } = arms();
      err[0] = p2.x - p1.x;
      err[1] = p2.y - p1.y;
    },
    velocity(err) {
      const { r1x, r1y, r2x, r2y } = arms();
      const v1 = b1.constraintVelocity, v2 = b2.constraintVelocity;
      const w1 = b1.angularVel, w2 = b2.angularVel;
      err[0] = v2.x - w2 * r2y - (v1.x - w1 * r1y);
      err[1] = v2.y + w2 * r2x - ((typos.velocityRow1UsesV1x ? v1.x : v1.y) + w1 * r1x);
    },
    effMass(eff) {
      const { r1x, r1y, r2x, r2y } = arms();
      const ia = typos.kUsesI2ForI1 ? i2 : i1;
      eff[0] = m1 + m2 + ia * r1y * r1y + i2 * r2y * r2y;
      eff[1] = -ia * r1x * r1y - i2 * r2x * r2y;
      eff[2] = m1 + m2 + ia * r1x * r1x + i2 * r2x * r2x;
    },
    impulse(imp, body, out) {
      const { r1x, r1y, r2x, r2y } = arms();
      const s = (body === b1 ? -1 : 1) * (typos.impulseSignFlipped ? -1 : 1);
      const rx = body === b1 ? r1x : r2x, ry = body === b1 ? r1y : r2y;
      out.x = s * imp[0]!;
      out.y = s * imp[1]!;
      out.z = s * (rx * imp[1]! - ry * imp[0]!);
    },
  };
}

/** The same pivot in Jacobian form (J by hand), with an optional wrong entry. */
function jacobianPivot(b1: Body, b2: Body, a1: V2, a2: V2, typos: Typos = {}): UserConstraintHooks {
  const nape = napePivot(b1, b2, a1, a2);
  return {
    position: nape.position,
    jacobian(J) {
      const p1 = b1.localPointToWorld(a1), p2 = b2.localPointToWorld(a2);
      const c1 = b1.worldCenter, c2 = b2.worldCenter;
      const r1x = p1.x - c1.x, r1y = p1.y - c1.y, r2x = p2.x - c2.x, r2y = p2.y - c2.y;
      J.set([-1, 0, r1y, 1, 0, -r2y, 0, -1, -r1x, 0, 1, r2x]);
      if (typos.jacobianEntry) J[typos.jacobianEntry[0]] = typos.jacobianEntry[1];
    },
  };
}

function scene(check = true) {
  const space = new Space({ gravity: [0, -10], checkUserConstraints: check });
  const a = space.addBody(new Body({ position: [0.2, 1], rotation: 0.3, velocity: [0.5, -0.2], angularVel: 0.7, shapes: [Polygon.box(0.8, 0.3, { offset: [0.1, 0.05] })] }));
  const b = space.addBody(new Body({ position: [1.1, 0.8], rotation: -0.4, velocity: [-0.1, 0.3], angularVel: -1.1, shapes: [Polygon.box(0.6, 0.4, { density: 2 })] }));
  return { space, a, b };
}

function stepError(space: Space): FulcrumInputError {
  try {
    space.step(1 / 60);
  } catch (e) {
    expect(e).toBeInstanceOf(FulcrumInputError);
    return e as FulcrumInputError;
  }
  throw new Error('expected the step to fail the check');
}

describe('Space.checkUserConstraints', () => {
  it('passes correct constraints in Nape form and Jacobian form, and then steps as usual', () => {
    const { space, a, b } = scene();
    space.addConstraint(new UserConstraint({ dimensions: 2, bodies: [a, b], hooks: napePivot(a, b, [0.4, 0], [-0.3, 0.1]) }));
    const ground = space.addBody(new Body({ type: 'static' }));
    space.addConstraint(new UserConstraint({ dimensions: 2, bodies: [ground, a], hooks: jacobianPivot(ground, a, [0, 1], [-0.4, 0]) }));
    for (let i = 0; i < 30; i++) space.step(1 / 60);
    expect(Number.isFinite(b.y)).toBe(true);
  });

  it("reports the seed manual's typos, a flipped impulse and a wrong J entry, naming the hook, the row and both values", () => {
    const cases: [Typos, boolean, string, RegExp][] = [
      [{ velocityRow1UsesV1x: true }, true, 'velocity', /velocity\(\) disagrees with position\(\).*row 1: a change of the body velocities changes velocity\(\) by -?[\d.e-]+, but J v by -?[\d.e-]+/],
      [{ kUsesI2ForI1: true }, true, 'effMass', /effMass\(\) disagrees.*K\[0\]\[0\] \(packed index 0\): effMass\(\) gives [\d.e-]+, J M⁻¹ Jᵀ gives [\d.e-]+/],
      [{ impulseSignFlipped: true }, true, 'impulse', /impulse\(\) disagrees.*row 0, Body#\d+: impulse\(\) gives \(1, 0, [-\d.e]+\) for a unit impulse in that row, Jᵀλ gives \(-[\d.e-]+, 0, /],
      [{ jacobianEntry: [8, 0.25] }, false, 'jacobian', /jacobian\(\) disagrees.*row 1, column 2 \(θ of bodies\[0\]\): jacobian\(\) gives 0.25, the finite differences of position\(\) give -?[\d.e-]+/],
    ];
    for (const [typos, nape, hook, message] of cases) {
      const { space, a, b } = scene();
      const hooks = nape ? napePivot(a, b, [0.4, 0], [-0.3, 0.1], typos) : jacobianPivot(a, b, [0.4, 0], [-0.3, 0.1], typos);
      const c = space.addConstraint(new UserConstraint({ dimensions: 2, bodies: [a, b], hooks }));
      const before = [a.x, a.y, a.rotation, b.x, b.y];
      const e = stepError(space);
      expect(e.message, hook).toMatch(message);
      expect(e.message).toContain(`UserConstraint#${c.id}`);
      expect(e.prop).toBe(hook);
      // The check runs before anything moves.
      expect([a.x, a.y, a.rotation, b.x, b.y]).toEqual(before);
    }
  });

  it('names size and packing mistakes: a write past the end (a row too many, a column for an unlisted body, eff[6] of a 3 × 3 K), a row left unwritten', () => {
    const cases: [(a: Body, b: Body) => UserConstraint, string, RegExp][] = [
      [(a, b) => new UserConstraint({ dimensions: 1, bodies: [a, b], hooks: { position: (e) => { e[0] = b.x - a.x - 1; e[1] = b.y - a.y; } } }), 'position', /position\(\) has a size or packing mistake.*it wrote index 1, past the end of its 1 entries \(1 row, dimensions = 1\)/],
      [
        (a, b) => new UserConstraint({ dimensions: 1, bodies: [a], hooks: {
          position: (e) => { e[0] = b.x - a.x - 1; },
          jacobian: (J) => { J[0] = -1; J[3] = 1; }, // body b's column, but b is not listed
        } }),
        'jacobian',
        /jacobian\(\) has a size or packing mistake.*it wrote index 3, past the end of its 3 entries \(1 × 3: 1 row, 3 columns for each of the 1 bodies listed\)/,
      ],
      [
        (a, b) => {
          const pin = napePivot(a, b, [0.4, 0], [-0.3, 0.1]);
          // Three rows (the pivot and the angle), K written as the manual's picture: past the 6 packed entries.
          return new UserConstraint({ dimensions: 3, bodies: [a, b], hooks: {
            position: (e) => { pin.position!.call(null as never, e, e); e[2] = b.rotation - a.rotation; },
            velocity: (e) => { pin.velocity!.call(null as never, e, e); e[2] = b.angularVel - a.angularVel; },
            effMass: (eff) => { for (let i = 0; i <= 6; i++) eff[i] = i === 0 || i === 3 || i === 5 ? 1 : 0; },
            impulse: (_imp, _b, out) => { out.x = out.y = out.z = 0; },
          } });
        },
        'effMass',
        /effMass\(\) has a size or packing mistake.*it wrote index 6, past the end of its 6 entries \(the upper triangle of the 3 × 3 K, row by row: n\(n\+1\)\/2 = 6\)/,
      ],
      [(a, b) => new UserConstraint({ dimensions: 2, bodies: [a, b], hooks: { position: (e) => { e[0] = b.x - a.x - 1; } } }), 'position', /position\(\) has a size or packing mistake.*it left index 1 of its 2 entries \(2 rows, dimensions = 2\) unwritten/],
    ];
    for (const [make, hook, message] of cases) {
      const { space, a, b } = scene();
      space.addConstraint(make(a, b));
      const e = stepError(space);
      expect(e.message, hook).toMatch(message);
      expect(e.prop).toBe(hook);
    }
  });

  it('reports a C that is constant by accident: no body moves it, so the row can never be solved', () => {
    const { space, a, b } = scene();
    space.addConstraint(
      new UserConstraint({
        dimensions: 1,
        bodies: [a, b],
        hooks: {
          position(err) {
            const dx = b.x - a.x, dy = b.y - a.y;
            const l = Math.hypot(dx, dy);
            err[0] = Math.hypot(dx / l, dy / l) - 1; // |unit(p2 − p1)| − 1
          },
        },
      }),
    );
    expect(stepError(space).message).toMatch(/row 0 of position\(\) does not depend on any body's position here/);
  });

  it('passes a rope whose two ends start at the same point: C = |q2 − q1| − L has a kink there, not a constant (fuzz seed 3346612384)', () => {
    for (const packedState of [false, true]) {
      const { space, a } = scene();
      const ground = space.addBody(new Body({ type: 'static' }));
      // a's anchor [0.3, -0.2] is at the ground's anchor, so both central differences are 0.
      const q = a.localPointToWorld([0.3, -0.2]);
      const rope = new UserConstraint({
        dimensions: 1,
        bodies: [a, ground],
        packedState,
        hooks: {
          position(err, st) {
            const q1 = packedState
              ? { x: st[BodyState.x]! + st[BodyState.cos]! * 0.3 + st[BodyState.sin]! * 0.2, y: st[BodyState.y]! + st[BodyState.sin]! * 0.3 - st[BodyState.cos]! * 0.2 }
              : a.localPointToWorld([0.3, -0.2]);
            err[0] = Math.hypot(q.x - q1.x, q.y - q1.y) - 0.6;
          },
        },
      });
      space.addConstraint(rope);
      for (let i = 0; i < 60; i++) space.step(1 / 60);
      // The rope holds a hanging from it once it is taut.
      const q1 = a.localPointToWorld([0.3, -0.2]);
      expect(Math.hypot(q.x - q1.x, q.y - q1.y), `packedState ${packedState}`).toBeLessThan(0.61);
    }
  });

  it('passes a constraint on bodies no impulse can move (static and kinematic): it is inert, not wrong (fuzz)', () => {
    const space = new Space({ checkUserConstraints: true });
    const a = space.addBody(new Body({ type: 'static' }));
    const b = space.addBody(new Body({ type: 'kinematic', position: [1, 0], velocity: [0.5, 0] }));
    space.addConstraint(new UserConstraint({ dimensions: 1, bodies: [a, b], hooks: { position: (err) => (err[0] = Math.hypot(b.x - a.x, b.y - a.y) - 2) } }));
    for (let i = 0; i < 10; i++) space.step(1 / 60);
    expect(b.x).toBeCloseTo(1 + 10 * 0.5 / 60, 12);
  });

  it('rejects a non-finite C from the breakUnderError test before the step, naming position() and the row (fuzz)', () => {
    for (const bad of [NaN, Infinity]) {
      const { space, a, b } = scene();
      space.addConstraint(new UserConstraint({ dimensions: 1, bodies: [a, b], breakUnderError: true, maxError: 1, hooks: { position: (err) => (err[0] = bad), jacobian: (J) => J.set([0, 0, 0, 1, 0, 0]) } }));
      const e = stepError(space);
      expect(e).toBeInstanceOf(FulcrumInputError);
      expect(e.message).toMatch(/position\(\) wrote a non-finite value/);
      expect(space.constraints.length).toBe(1);
    }
  });

  it('is off by default, checks again after a change and not before one', () => {
    // K scaled by 0.1: positive definite, so only the check can tell it is wrong.
    const scaledK = (a: Body, b: Body, c: () => UserConstraint): UserConstraintHooks => {
      const right = napePivot(a, b, [0.4, 0], [-0.3, 0.1]);
      return { ...right, effMass: (eff, st) => { right.effMass!.call(c(), eff, st); for (let i = 0; i < 3; i++) eff[i] = eff[i]! * 0.1; } };
    };
    {
      const { space, a, b } = scene(false);
      const c: UserConstraint = space.addConstraint(new UserConstraint({ dimensions: 2, bodies: [a, b], hooks: scaledK(a, b, () => c) }));
      space.step(1 / 60); // not checked: off (and the wrong K throws the bodies about)
    }
    const { space, a, b } = scene(false);
    const c: UserConstraint = space.addConstraint(new UserConstraint({ dimensions: 2, bodies: [a, b], hooks: napePivot(a, b, [0.4, 0], [-0.3, 0.1]) }));
    space.step(1 / 60);
    space.checkUserConstraints = true;
    c.hooks = scaledK(a, b, () => c);
    expect(stepError(space).prop).toBe('effMass');
    let effMassCalls = 0;
    const counted = napePivot(a, b, [0.4, 0], [-0.3, 0.1]);
    c.hooks = { ...counted, effMass: (eff, st) => { effMassCalls++; counted.effMass!.call(c, eff, st); } };
    space.step(1 / 60);
    const withCheck = effMassCalls;
    space.step(1 / 60);
    // The second step ran the solver's calls only: no check without a change.
    expect(effMassCalls - withCheck).toBeLessThan(withCheck);
    expect(Number.isFinite(a.x) && Number.isFinite(b.x)).toBe(true);
  });

  it('rejects a non-boolean setting', () => {
    expect(() => new Space({ checkUserConstraints: 1 as unknown as boolean })).toThrow(/checkUserConstraints/);
    const s = new Space({ checkUserConstraints: false });
    expect(() => (s.checkUserConstraints = 'yes' as unknown as boolean)).toThrow(/checkUserConstraints/);
    expect(s.checkUserConstraints).toBe(false);
  });
});

// (Vec3 is the impulse hook's out type.)
export type { Vec3 };
