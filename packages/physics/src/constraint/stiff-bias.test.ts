/**
 * A stiff row's joint softness (jointHertz > 0) pushes its error out no faster than
 * JOINT_PUSH_MAX_VELOCITY (softness.ts, stiffBias), on every solver path.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from '../space/space.js';
import { setSolverRouting, solverInternals } from '../test-support/solver-routing.js';
import { BODY_STATE_STRIDE, BodyState } from './body-state.js';
import type { Constraint } from './constraint.js';
import { AngleJoint } from './joints/angle-joint.js';
import { DistanceJoint } from './joints/distance-joint.js';
import { PivotJoint } from './joints/pivot-joint.js';
import { JOINT_PUSH_MAX_VELOCITY, makeSoft, rigidSoftness, stiffBias } from './softness.js';
import { UserConstraint } from './user-constraint.js';

/** |p(body) − (0, 0)| − length, packed, with its Jacobian: the user batch takes it. */
function userRope(body: Body, ground: Body, length: number): UserConstraint {
  return new UserConstraint({
    dimensions: 1,
    bodies: [body, ground],
    packedState: true,
    hooks: {
      position(err, st) {
        err[0] = Math.hypot(st[BodyState.comX]!, st[BodyState.comY]!) - length;
      },
      jacobian(J, st) {
        const x = st[BodyState.comX]!;
        const y = st[BodyState.comY]!;
        const L = Math.hypot(x, y);
        J.set([x / L, y / L, 0, 0, 0, 0]);
      },
    },
  });
}

/** The same rope in Nape's form: velocity, effMass and impulse hooks, no J (solved one by one). */
function napeRope(body: Body, ground: Body, length: number): UserConstraint {
  return new UserConstraint({
    dimensions: 1,
    bodies: [body, ground],
    hooks: {
      position(err) {
        const c = body.worldCenter;
        err[0] = Math.hypot(c.x, c.y) - length;
      },
      velocity(err) {
        const c = body.worldCenter;
        err[0] = (c.x * body.constraintVelocity.x + c.y * body.constraintVelocity.y) / Math.hypot(c.x, c.y);
      },
      effMass(eff) {
        eff[0] = body.constraintMass;
      },
      impulse(imp, b, out) {
        const c = body.worldCenter;
        const L = Math.hypot(c.x, c.y);
        const on = b === body ? imp[0]! / L : 0;
        out.x = on * c.x;
        out.y = on * c.y;
        out.z = 0;
      },
    },
  });
}

describe("a stiff row's joint softness", () => {
  it('is biasRate·C up to JOINT_PUSH_MAX_VELOCITY either way', () => {
    expect(stiffBias(30, 0.01)).toBe(30 * 0.01);
    expect(stiffBias(30, -0.05)).toBe(30 * -0.05);
    expect(stiffBias(30, 1)).toBe(JOINT_PUSH_MAX_VELOCITY);
    expect(stiffBias(30, -1)).toBe(-JOINT_PUSH_MAX_VELOCITY);
    expect(stiffBias(0, -1)).toBe(-0);
  });

  it('closes a 1 m error by JOINT_PUSH_MAX_VELOCITY·dt in a step without position passes, on every path (uncapped: 30 Hz pushed it 0.43 m)', () => {
    const dt = 1 / 60;
    const paths: [string, (space: Space, body: Body, ground: Body) => Constraint, (space: Space, c: Constraint) => boolean][] = [
      ['one by one (DistanceJoint)', (s, b, g) => s.addConstraint(new DistanceJoint({ body1: g, body2: b, jointMin: 2, jointMax: 2 })), () => true],
      ['joint batch (PivotJoint)', (s, b, g) => s.addConstraint(new PivotJoint({ body1: g, body2: b, anchor1: [2, 0], anchor2: [0, 0] })), (s) => solverInternals(s).jointBatch.count === 1],
      [
        'joint island (DistanceJoint beside an AngleJoint)',
        (s, b, g) => {
          s.addConstraint(new AngleJoint({ body1: g, body2: b }));
          return s.addConstraint(new DistanceJoint({ body1: g, body2: b, jointMin: 2, jointMax: 2 }));
        },
        (s, c) => s._pipeline.jointIslands.takes(c),
      ],
      ['user batch', (s, b, g) => s.addConstraint(userRope(b, g, 2)), (s) => solverInternals(s).userBatch.count === 1],
      [
        'user constraint one by one',
        (s, b, g) => {
          setSolverRouting(s, { userBatch: false });
          return s.addConstraint(userRope(b, g, 2));
        },
        (s) => solverInternals(s).userBatch.count === 0,
      ],
      ['Nape effMass + impulse form', (s, b, g) => s.addConstraint(napeRope(b, g, 2)), (s) => solverInternals(s).userBatch.count === 0],
    ];
    for (const [name, add, taken] of paths) {
      const space = new Space({ gravity: [0, 0], jointHertz: 30 });
      const ground = space.addBody(new Body({ type: 'static' }));
      const body = space.addBody(new Body({ position: [3, 0], shapes: [new Circle({ radius: 0.1 })] }));
      const c = add(space, body, ground);
      space.step(dt, 4, 0);
      expect(taken(space, c), `${name}: the path under test`).toBe(true);
      // Each substep's biased pass moves the body at the capped push times the spring's massScale
      // (its row has no lever, so its K is its reference K), and its relax pass takes that velocity
      // back out: 4 substeps of h at massScale·3 m/s.
      const h = dt / 4;
      const { massScale } = makeSoft(Math.min(30, 0.25 / h), 2, h, rigidSoftness());
      expect(3 - body.x, name).toBeCloseTo(massScale * JOINT_PUSH_MAX_VELOCITY * dt, 9);
      expect(Math.abs(body.velocity.x), name).toBeLessThan(1e-9);
    }
  });

  it('fuzz seed 1236120785: a 6.8 kg body of tiny inertia on a 7 m lever, roped to the ground at jointHertz 30, stays bounded (built-in and user rope: 1.6e9 and 1.1e5 m/s before)', () => {
    const ropes: [string, (bob: Body, ground: Body) => Constraint][] = [
      ['DistanceJoint', (bob, ground) => new DistanceJoint({ body1: bob, body2: ground, anchor1: [5.6, -4.1], anchor2: [-2, 2], jointMin: 0.9, jointMax: 0.9 })],
      [
        'UserConstraint',
        (bob, ground) =>
          new UserConstraint({
            dimensions: 1,
            packedState: true,
            bodies: [bob, ground],
            maxForce: 14490,
            hooks: {
              position(err, st) {
                const S = BODY_STATE_STRIDE;
                const dx = st[S + BodyState.x]! + st[S + BodyState.cos]! * -2 - st[S + BodyState.sin]! * 2 - (st[BodyState.x]! + st[BodyState.cos]! * 5.6 - st[BodyState.sin]! * -4.1);
                const dy = st[S + BodyState.y]! + st[S + BodyState.sin]! * -2 + st[S + BodyState.cos]! * 2 - (st[BodyState.y]! + st[BodyState.sin]! * 5.6 + st[BodyState.cos]! * -4.1);
                err[0] = Math.hypot(dx, dy) - 0.9;
              },
            },
          }),
      ],
    ];
    for (const [name, rope] of ropes) {
      const space = new Space({ gravity: [0, -10], jointHertz: 30 });
      const ground = space.addBody(new Body({ type: 'static' }));
      const bob = space.addBody(new Body({ position: [-7.991, 6.045], inertia: 0.0061, shapes: [Polygon.regular(0.03, 8, { density: 2656, filter: { mask: 0 } })] }));
      space.addConstraint(rope(bob, ground));
      let fastest = 0;
      for (let i = 0; i < 445; i++) {
        space.step(1 / 30);
        fastest = Math.max(fastest, Math.hypot(bob.velocity.x, bob.velocity.y));
      }
      // Free fall for 1.3 s, then the snap: about 17 m/s at most.
      expect(fastest, name).toBeLessThan(50);
    }
  });
});
