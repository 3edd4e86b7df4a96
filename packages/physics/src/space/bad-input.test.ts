/**
 * Every bad input throws a FulcrumInputError naming the property and the value, changes
 * nothing, and the space keeps stepping with no NaN anywhere.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Capsule } from '../shape/capsule.js';
import { DistanceJoint } from '../constraint/joints/distance-joint.js';
import { LineJoint } from '../constraint/joints/line-joint.js';
import { PivotJoint } from '../constraint/joints/pivot-joint.js';
import { PulleyJoint } from '../constraint/joints/pulley-joint.js';
import { WeldJoint } from '../constraint/joints/weld-joint.js';
import { UserConstraint } from '../constraint/user-constraint.js';
import { FulcrumInputError } from '../util/validate.js';
import { Space } from './space.js';
import { allFinite, groundBody } from '../test-support/scenes.js';

function scene(): { space: Space; ball: Body; box: Body } {
  const space = new Space({ gravity: [0, -10] });
  space.addBody(groundBody());
  const ball = space.addBody(new Body({ position: [0, 2], shapes: [new Circle({ radius: 0.5 })] }));
  const box = space.addBody(new Body({ position: [2, 1], shapes: [Polygon.box(1, 1)] }));
  return { space, ball, box };
}

/** Run `bad`, expect an error mentioning each fragment, then check the space still works. */
function expectRejected(bad: (s: ReturnType<typeof scene>) => unknown, ...fragments: string[]): void {
  const s = scene();
  const snapshot = JSON.stringify(s.space.bodies.map((b) => [b.position, b.rotation, b.velocity, b.angularVel, b.mass, b.inertia, b.force, b.torque]));
  let error: unknown;
  try {
    bad(s);
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(FulcrumInputError);
  for (const f of fragments) expect((error as Error).message).toContain(f);
  // nothing half-applied
  expect(JSON.stringify(s.space.bodies.map((b) => [b.position, b.rotation, b.velocity, b.angularVel, b.mass, b.inertia, b.force, b.torque]))).toBe(snapshot);
  for (let i = 0; i < 120; i++) s.space.step(1 / 60);
  expect(allFinite(s.space.bodies)).toBe(true);
  expect(s.ball.y).toBeLessThan(0.6); // it fell and landed
  expect(s.ball.y).toBeGreaterThan(0.4);
}

describe('bad input', () => {
  it('NaN in a vector', () => expectRejected(({ ball }) => (ball.position = [NaN, 1]), 'Body.position', 'NaN'));
  it('Infinity in a vector given as {x, y}', () => expectRejected(({ ball }) => (ball.velocity = { x: 1, y: Infinity }), 'Body.velocity', 'Infinity'));
  it('NaN rotation', () => expectRejected(({ box }) => (box.rotation = NaN), 'Body.rotation', 'NaN'));
  it('Infinity angular velocity', () => expectRejected(({ box }) => (box.angularVel = -Infinity), 'Body.angularVel', '-Infinity'));
  it('NaN force', () => expectRejected(({ box }) => (box.force = [0, NaN]), 'Body.force', 'NaN'));
  it('NaN torque', () => expectRejected(({ box }) => (box.torque = NaN), 'Body.torque', 'NaN'));
  it('NaN impulse', () => expectRejected(({ box }) => box.applyImpulse([NaN, 0]), 'applyImpulse', 'NaN'));
  it('NaN impulse point', () => expectRejected(({ box }) => box.applyImpulse([1, 0], [0, Infinity]), 'worldPoint', 'Infinity'));
  it('NaN gravity', () => expectRejected(({ space }) => (space.gravity = [0, NaN]), 'Space.gravity', 'NaN'));
  it('a vector of the wrong shape', () => expectRejected(({ ball }) => (ball.position = [1, 2, 3] as unknown as [number, number]), 'Body.position', '[1, 2, 3]'));
  it('zero mass on a dynamic body', () => expectRejected(({ box }) => (box.mass = 0), 'Body.mass', 'got 0'));
  it('negative mass', () => expectRejected(({ box }) => (box.mass = -2), 'Body.mass', '-2'));
  it('negative inertia', () => expectRejected(({ box }) => (box.inertia = -1), 'Body.inertia', '-1'));
  it('zero density on a shape of a body in the space', () => expectRejected(({ box }) => (box.shapes[0]!.density = 0), 'Polygon.density', 'got 0'));
  it('negative density at construction', () => expectRejected(() => new Circle({ radius: 1, density: -1 }), 'Circle.density', '-1'));
  it('zero mass at construction', () => expectRejected(() => new Body({ mass: 0 }), 'Body.mass', 'got 0'));
  it('fewer than 3 polygon vertices', () => expectRejected(() => new Polygon({ vertices: [[0, 0], [1, 0]] }), 'Polygon.vertices'));
  it('collinear polygon vertices', () => expectRejected(() => new Polygon({ vertices: [[0, 0], [1, 0], [2, 0]] }), 'Polygon.vertices', 'collinear'));
  it('a concave polygon', () =>
    expectRejected(() => new Polygon({ vertices: [[0, 0], [2, 0], [2, 2], [1, 0.5], [0, 2]] }), 'Polygon.vertices', 'concave'));
  it('a non-positive radius', () => expectRejected(() => new Circle({ radius: 0 }), 'Circle.radius', 'got 0'));
  it('a negative radius set on a live circle', () => expectRejected(({ ball }) => ((ball.shapes[0] as Circle).radius = -1), 'Circle.radius', '-1'));
  it('a non-positive capsule radius', () => expectRejected(() => new Capsule({ length: 1, radius: -0.5 }), 'Capsule.radius', '-0.5'));
  it('dt of zero', () => expectRejected(({ space }) => space.step(0), 'step(dt)', 'got 0'));
  it('negative dt', () => expectRejected(({ space }) => space.step(-1 / 60), 'step(dt)', '-0.0166'));
  it('NaN dt', () => expectRejected(({ space }) => space.step(NaN), 'step(dt)', 'NaN'));
  it('non-integer iterations', () => expectRejected(({ space }) => space.step(1 / 60, 2.5), 'velocityIterations', '2.5'));
  it('an unknown body type', () => expectRejected(() => new Body({ type: 'floating' as 'dynamic' }), 'Body.type', '"floating"'));
  it('a NaN in body options leaves nothing constructed', () => expectRejected(() => new Body({ position: [0, 0], angularVel: NaN }), 'Body.angularVel', 'NaN'));
  it('adding a body twice', () => expectRejected(({ space, ball }) => space.addBody(ball), 'addBody', 'already in this space'));
  it('removing a body that is not there', () => expectRejected(({ space }) => space.removeBody(new Body()), 'removeBody', 'not in this space'));
  it('an unknown event', () => expectRejected(({ space }) => space.on('explode' as 'wake', () => {}), 'Space.on(type)', '"explode"'));
});

describe('FulcrumInputError fields', () => {
  it('carries the owner and the property, so nobody parses the message', () => {
    const cases: [() => unknown, string, string][] = [
      [() => new Circle({ radius: -1 }), 'Circle', 'radius'],
      [() => new Body({ position: [NaN, 0] }), 'Body', 'position'],
      [() => new Space().step(0), 'Space', 'step(dt)'],
      [() => new PivotJoint({ anchor1: [NaN, 0] }), 'PivotJoint', 'anchor1'],
      [() => new LineJoint({ direction: [0, 0] }), 'LineJoint', 'direction'],
      [() => new DistanceJoint({ jointMin: 2, jointMax: 1 }), 'DistanceJoint', 'jointMin'],
      [() => new PulleyJoint({ ratio: Infinity }), 'PulleyJoint', 'ratio'],
      [() => (new WeldJoint().frequency = -1), 'WeldJoint', 'frequency'],
      [() => (new Circle({ radius: 1 }).filter = { mask: 0.5 }), 'Circle', 'filter.mask'],
      [
        () => {
          // A hook that moves a body while the space steps: the locked space names the property.
          const { space, ball } = scene();
          const hooks = { position: (err: Float64Array) => ((ball.rotation = 1), (err[0] = 0)), jacobian: (J: Float64Array) => J.fill(0) };
          space.addConstraint(new UserConstraint({ dimensions: 1, bodies: [ball], hooks }));
          space.step(1 / 60);
        },
        'Body',
        'rotation',
      ],
    ];
    for (const [bad, owner, prop] of cases) {
      let error: unknown;
      try {
        bad();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(FulcrumInputError);
      expect((error as FulcrumInputError).owner).toBe(owner);
      expect((error as FulcrumInputError).prop).toBe(prop);
    }
  });
});
