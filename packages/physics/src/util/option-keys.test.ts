/**
 * A misspelt option is an error, not a setting silently left at its default: every constructor
 * that takes an options object names the key, its value and the closest real option, and a
 * space that meets the error keeps stepping.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { AngleJoint } from '../constraint/joints/angle-joint.js';
import { DistanceJoint } from '../constraint/joints/distance-joint.js';
import { LineJoint } from '../constraint/joints/line-joint.js';
import { MotorJoint } from '../constraint/joints/motor-joint.js';
import { PivotJoint } from '../constraint/joints/pivot-joint.js';
import { PulleyJoint } from '../constraint/joints/pulley-joint.js';
import { WeldJoint } from '../constraint/joints/weld-joint.js';
import { UserConstraint } from '../constraint/user-constraint.js';
import { Capsule } from '../shape/capsule.js';
import { Chain, ChainSegment } from '../shape/chain.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Segment } from '../shape/segment.js';
import { Space } from '../space/space.js';
import { checkOptionKeys } from './validate.js';
import { inputError } from '../test-support/input-error.js';


const a = () => new Body();
const b = () => new Body();

// [what, the constructor call with one misspelt key, the owner, the key, the suggestion]
const CASES: [string, () => unknown, string, string, string][] = [
  ['Space', () => new Space({ gravty: [0, -10] } as never), 'Space', 'gravty', 'gravity'],
  ['Body (another engine\'s name)', () => new Body({ angle: 0.5 } as never), 'Body', 'angle', 'rotation'],
  ['Body (another engine\'s name, 2)', () => new Body({ linearDamping: 0.5 } as never), 'Body', 'linearDamping', 'linearDrag'],
  ['Body (a near miss)', () => new Body({ gravtyScale: 2 } as never), 'Body', 'gravtyScale', 'gravityScale'],
  ['Circle', () => new Circle({ radius: 1, fricton: 0.2 } as never), 'Circle', 'fricton', 'friction'],
  ['Polygon', () => new Polygon({ vertices: [[0, 0], [1, 0], [0, 1]], densty: 2 } as never), 'Polygon', 'densty', 'density'],
  ['Polygon.box', () => Polygon.box(1, 1, { restituton: 0.5 } as never), 'Polygon', 'restituton', 'restitution'],
  ['Capsule', () => new Capsule({ length: 1, radius: 0.2, sensr: true } as never), 'Capsule', 'sensr', 'sensor'],
  ['Segment', () => new Segment({ p1: [0, 0], p2: [1, 0], ofset: [1, 1] } as never), 'Segment', 'ofset', 'offset'],
  ['ChainSegment', () => new ChainSegment({ p1: [0, 0], p2: [1, 0], ghost: [2, 0] } as never), 'ChainSegment', 'ghost', 'ghost1'],
  ['Chain', () => new Chain({ vertices: [[0, 0], [1, 0]], lop: true } as never), 'Chain', 'lop', 'loop'],
  ['PivotJoint', () => new PivotJoint({ body1: a(), body2: b(), ancor1: [0, 0] } as never), 'PivotJoint', 'ancor1', 'anchor1'],
  ['WeldJoint', () => new WeldJoint({ body1: a(), body2: b(), phse: 1 } as never), 'WeldJoint', 'phse', 'phase'],
  ['AngleJoint', () => new AngleJoint({ body1: a(), body2: b(), jointmin: -1 } as never), 'AngleJoint', 'jointmin', 'jointMin'],
  ['DistanceJoint', () => new DistanceJoint({ body1: a(), body2: b(), jointMx: 2 } as never), 'DistanceJoint', 'jointMx', 'jointMax'],
  ['LineJoint', () => new LineJoint({ body1: a(), body2: b(), directon: [1, 0] } as never), 'LineJoint', 'directon', 'direction'],
  ['MotorJoint', () => new MotorJoint({ body1: a(), body2: b(), rte: 2 } as never), 'MotorJoint', 'rte', 'rate'],
  ['PulleyJoint', () => new PulleyJoint({ body1: a(), body2: b(), ratoi: 2 } as never), 'PulleyJoint', 'ratoi', 'ratio'],
  ['UserConstraint', () => new UserConstraint({ dimensions: 1, velocityOnli: true } as never), 'UserConstraint', 'velocityOnli', 'velocityOnly'],
  ['a base option of a joint', () => new PivotJoint({ body1: a(), body2: b(), stif: false } as never), 'PivotJoint', 'stif', 'stiff'],
];

describe('a misspelt option', () => {
  it.each(CASES)('%s: names the key, its value and the closest option', (_, make, owner, key, guess) => {
    const e = inputError(make);
    expect(e.owner).toBe(owner);
    expect(e.prop).toBe(key);
    expect(e.message).toContain(`${owner}.${key} is not an option (did you mean '${guess}'?)`);
    expect(e.message).toMatch(/, got .+; the options are /);
  });

  it('gives the value as written, and no guess when nothing is close', () => {
    const e = inputError(() => new Body({ zzzzzzzz: [1, Number.NaN] } as never));
    expect(e.message).toBe(
      'Body.zzzzzzzz is not an option, got [1, NaN]; the options are type, position, rotation, velocity, angularVel, force, torque, mass, inertia, allowMovement, allowRotation, allowFastRotation, allowSleep, isBullet, disableCCD, contactForceThreshold, linearDrag, angularDrag, gravityScale, shapes, userData',
    );
  });

  it('in a shape\'s filter or fluidProperties: named with its path, in the constructor and the setter', () => {
    let e = inputError(() => new Circle({ radius: 1, filter: { categry: 2 } } as never));
    expect(e.prop).toBe('filter.categry');
    expect(e.message).toContain("Circle.filter.categry is not an option (did you mean 'filter.category'?), got 2");
    e = inputError(() => new Circle({ radius: 1, sensor: true, fluidEnabled: true, fluidProperties: { viscocity: 2 } } as never));
    expect(e.prop).toBe('fluidProperties.viscocity');

    const shape = new Circle({ radius: 1, filter: { category: 4, mask: 6 } });
    e = inputError(() => (shape.filter = { mask: 1, grop: -1 } as never));
    expect(e.prop).toBe('filter.grop');
    // Nothing half-applied: the mask given beside the bad key was not taken.
    expect(shape.filter).toEqual({ category: 4, mask: 6, group: 0 });
    e = inputError(() => (shape.fluidProperties = { densty: 3 } as never));
    expect(e.prop).toBe('fluidProperties.densty');
  });

  it('leaves a space stepping: the body never made, the space as it was', () => {
    const space = new Space({ gravity: [0, -10] });
    const ball = space.addBody(new Body({ position: [0, 1], shapes: [new Circle({ radius: 0.5 })] }));
    inputError(() => space.addBody(new Body({ positon: [3, 3], shapes: [new Circle({ radius: 0.5 })] } as never)));
    inputError(() => space.addConstraint(new PivotJoint({ body1: ball, body2: null, anchr2: [0, 0] } as never)));
    expect(space.bodies).toEqual([ball]);
    expect(space.constraints).toEqual([]);
    for (let i = 0; i < 30; i++) space.step(1 / 60);
    expect(ball.position.y).toBeLessThan(1);
    expect(Number.isFinite(ball.position.y)).toBe(true);
  });

  it('every real option is accepted: the lists are the option types (checked when they compile), and inherited keys pass', () => {
    const body1 = new Body();
    const body2 = new Body();
    expect(() => new Space({ gravity: [0, -10], sleepDelay: 1, workers: 0, checkUserConstraints: false })).not.toThrow();
    expect(() => new Body({ type: 'dynamic', position: [1, 2], rotation: 0.3, gravityScale: 2, userData: {} })).not.toThrow();
    expect(() => new Circle({ radius: 1, offset: [0, 1], angle: 0.2, density: 2, friction: 0.1, restitution: 0.3, filter: { category: 2, mask: 3, group: -1 }, sensor: true, fluidEnabled: true, fluidProperties: { density: 2, viscosity: 1 }, userData: 1 })).not.toThrow();
    expect(() => new Chain({ vertices: [[0, 0], [1, 0], [2, 1]], loop: false, friction: 0.2 })).not.toThrow();
    expect(() => new WeldJoint({ body1, body2, anchor1: [0, 0], anchor2: [1, 0], phase: 0.1, stiff: false, frequency: 3, damping: 0.5, maxForce: 10, maxError: 1, breakUnderForce: true, breakUnderError: false, removeOnBreak: false, ignore: true, active: true, userData: null })).not.toThrow();
    expect(() => new PulleyJoint({ body1, body2, body3: body2, body4: body1, anchor3: [0, 1], anchor4: [1, 1], jointMin: 1, jointMax: 2, ratio: 2 })).not.toThrow();
    expect(() => new UserConstraint({ dimensions: 1, velocityOnly: false, packedState: false, bodies: [body1], hooks: {}, limits: [null] })).not.toThrow();
  });

  it("in a query's options, a convex cast's pose and debugDraw's options: named, and the call reads nothing", () => {
    const space = new Space({ gravity: [0, -10] });
    const ball = space.addBody(new Body({ position: [0, 0], shapes: [new Circle({ radius: 1 })] }));
    const sink = { drawPolygon() {}, drawCircle() {}, drawSegment() {}, drawPoint() {} } as never;
    const cases: [() => unknown, string, RegExp][] = [
      [() => space.queryPoint([0, 0], { includeSensor: true } as never), 'queryPoint(options).includeSensor', /did you mean 'queryPoint\(options\)\.includeSensors'\?/],
      [() => space.queryAABB([-1, -1], [1, 1], { filtr: () => true } as never), 'queryAABB(options).filtr', /did you mean 'queryAABB\(options\)\.filter'\?/],
      [() => space.rayCast([-5, 0], [5, 0], { mask: 1 } as never), 'rayCast(options).mask', /the options are rayCast\(options\)\.filter, rayCast\(options\)\.includeSensors$/],
      [() => space.rayCastAll([-5, 0], [5, 0], { filter: 5 } as never), 'rayCastAll(options.filter)', /must be a function/],
      [() => space.queryPoint([0, 0], { includeSensors: 'yes' } as never), 'queryPoint(options.includeSensors)', /must be a boolean/],
      [() => space.convexCast(new Circle({ radius: 0.1 }), { position: [-5, 0], angle: 1 } as never, [10, 0]), 'convexCast(pose).angle', /is not an option/],
      [() => space.debugDraw(sink, { joints: true } as never), 'debugDraw(options).joints', /is not an option/],
      [() => space.debugDraw(sink, { aabbs: 1 } as never), 'debugDraw(options.aabbs)', /must be a boolean/],
    ];
    for (const [call, prop, message] of cases) {
      const e = inputError(call);
      expect(e.prop).toBe(prop);
      expect(e.message).toMatch(message);
    }
    // The same queries, well formed, still answer.
    expect(space.queryPoint([0, 0], { includeSensors: true })).toEqual(ball.shapes);
    expect(space.rayCast([-5, 0], [5, 0], { filter: () => true })?.body).toBe(ball);
  });

  it('checkOptionKeys looks at own keys only', () => {
    const withInherited = Object.create({ inherited: 1 }) as object;
    expect(() => checkOptionKeys('Thing', withInherited, ['a'])).not.toThrow();
    expect(() => checkOptionKeys('Thing', { alpha: 1, zeta: 2 }, ['alpha'])).toThrow(/^Thing\.zeta is not an option, got 2; the options are alpha$/);
  });
});
