/**
 * The speed caps (SpaceOptions.maxLinearSpeed, maxRotationPerSubstep; Body.allowFastRotation):
 * what the solver can change is slowed to them before each substep's move and at the end of the
 * step; what the user commands (a kinematic body, infinite mass or inertia) is not; below them a
 * step is bit for bit what it is without them.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { PivotJoint } from '../constraint/joints/pivot-joint.js';
import { FulcrumInputError } from '../util/validate.js';
import { Space } from './space.js';
import { groundBody } from '../test-support/scenes.js';

const DT = 1 / 60;
const speedOf = (b: Body): number => Math.hypot(b.velocity.x, b.velocity.y);

describe('maxLinearSpeed', () => {
  it('a falling body speeds up at g until the cap, then falls at exactly the cap: cap·dt per step', () => {
    const space = new Space({ gravity: [0, -10], maxLinearSpeed: 5 });
    const ball = space.addBody(new Body({ shapes: [new Circle({ radius: 0.1 })] }));
    // Below the cap: v = g·t (0.3 s: 3 m/s).
    for (let i = 0; i < 18; i++) space.step(DT);
    expect(ball.velocity.y).toBeCloseTo(-3, 12);
    for (let i = 0; i < 42; i++) space.step(DT);
    expect(ball.velocity.y).toBeCloseTo(-5, 12);
    const y = ball.y;
    space.step(DT);
    expect(y - ball.y).toBeCloseTo(5 * DT, 12);
  });

  it('keeps the direction, and caps a body far past it too (no overflow: 1e200 m/s becomes the cap, not 0)', () => {
    const space = new Space({ maxLinearSpeed: 50 });
    const fast = space.addBody(new Body({ velocity: [3e199, -4e199], shapes: [new Circle({ radius: 0.1 })] }));
    space.step(DT);
    expect(fast.velocity.x).toBeCloseTo(30, 9);
    expect(fast.velocity.y).toBeCloseTo(-40, 9);
  });

  it('leaves alone what the user commands: a kinematic body, and a body with allowMovement false keep their speed', () => {
    const space = new Space({ maxLinearSpeed: 10 });
    const kinematic = space.addBody(new Body({ type: 'kinematic', velocity: [100, 0], shapes: [new Circle({ radius: 0.1 })] }));
    const pinned = space.addBody(new Body({ position: [0, 5], velocity: [0, 200], allowMovement: false, shapes: [new Circle({ radius: 0.1 })] }));
    space.step(DT);
    expect(kinematic.velocity.x).toBe(100);
    expect(pinned.velocity.y).toBe(200);
    expect(pinned.y).toBeCloseTo(5 + 200 * DT, 12);
  });

  it('Infinity turns it off; a new setting applies from the next step', () => {
    const space = new Space({ gravity: [0, -1000], maxLinearSpeed: Infinity });
    const ball = space.addBody(new Body({ shapes: [new Circle({ radius: 0.1 })] }));
    for (let i = 0; i < 60; i++) space.step(DT);
    expect(ball.velocity.y).toBeCloseTo(-1000, 9);
    space.maxLinearSpeed = 20;
    space.step(DT);
    expect(speedOf(ball)).toBeCloseTo(20, 12);
  });
});

describe('maxRotationPerSubstep', () => {
  it('a torque spins a body up to maxRotationPerSubstep·substeps/dt (default π/4: 188 rad/s at 60 Hz and 4 substeps), no faster', () => {
    const space = new Space();
    const wheel = space.addBody(new Body({ torque: 1000, shapes: [Polygon.box(0.2, 0.2)] }));
    for (let i = 0; i < 600; i++) space.step(DT);
    expect(space.maxRotationPerSubstep).toBe(Math.PI / 4);
    expect(wheel.angularVel).toBeCloseTo((Math.PI / 4) * 4 * 60, 9);
    // With 8 substeps the cap is twice as fast.
    for (let i = 0; i < 600; i++) space.step(DT, 8);
    expect(wheel.angularVel).toBeCloseTo((Math.PI / 4) * 8 * 60, 9);
  });

  it('spares a body with allowFastRotation, and one the solver cannot turn (allowRotation false, kinematic)', () => {
    const space = new Space();
    const ball = space.addBody(new Body({ angularVel: 1000, allowFastRotation: true, shapes: [Polygon.box(0.2, 0.2)] }));
    const fixedSpin = space.addBody(new Body({ position: [2, 0], angularVel: -900, allowRotation: false, shapes: [Polygon.box(0.2, 0.2)] }));
    const kinematic = space.addBody(new Body({ type: 'kinematic', position: [4, 0], angularVel: 800, shapes: [Polygon.box(0.2, 0.2)] }));
    const capped = space.addBody(new Body({ position: [6, 0], angularVel: 1000, shapes: [Polygon.box(0.2, 0.2)] }));
    space.step(DT);
    expect(ball.angularVel).toBe(1000);
    expect(fixedSpin.angularVel).toBe(-900);
    expect(kinematic.angularVel).toBe(800);
    expect(capped.angularVel).toBeCloseTo(60 * Math.PI, 9);
    // Turning it off on the body lets the space cap it at the next step.
    ball.allowFastRotation = false;
    space.step(DT);
    expect(ball.angularVel).toBeCloseTo(60 * Math.PI, 9);
  });
});

describe('free balls', () => {
  it('a body of circles centred on its centre of mass, with no constraint, is never capped: a small ball rolls at 500 rad/s as with the cap off, bit for bit', () => {
    const roll = (maxRotationPerSubstep: number) => {
      const space = new Space({ gravity: [0, -10], maxRotationPerSubstep });
      space.addBody(groundBody());
      // A 2 cm ball rolling at 10 m/s turns at 500 rad/s: capped at 188 rad/s, it would have to slide.
      const ball = space.addBody(new Body({ position: [0, 0.02], velocity: [10, 0], angularVel: -500, shapes: [new Circle({ radius: 0.02, friction: 1 })] }));
      const twoCircles = space.addBody(new Body({ position: [3, 2], angularVel: 900, shapes: [new Circle({ radius: 0.1 }), new Circle({ radius: 0.05 })] }));
      expect([ball.rotationCapped, twoCircles.rotationCapped]).toEqual([false, false]);
      for (let i = 0; i < 30; i++) space.step(DT);
      return [ball.x, ball.y, ball.velocity.x, ball.angularVel, twoCircles.angularVel];
    };
    const [capped, free] = [roll(Math.PI / 4), roll(Infinity)];
    expect(capped).toEqual(free);
    expect(capped[3]).toBeLessThan(-400);
    expect(capped[4]).toBe(900);
  });

  it('an off-centre circle, another shape or a constraint makes a body capped again', () => {
    const space = new Space();
    const offCentre = space.addBody(new Body({ angularVel: 900, shapes: [new Circle({ radius: 0.1, offset: [0.05, 0] }), new Circle({ radius: 0.1 })] }));
    const mixed = space.addBody(new Body({ position: [2, 0], shapes: [new Circle({ radius: 0.1 }), Polygon.box(0.1, 0.1)] }));
    const held = space.addBody(new Body({ position: [4, 0], angularVel: 900, shapes: [new Circle({ radius: 0.1 })] }));
    const pin = space.addConstraint(new PivotJoint({ body1: held, body2: mixed, anchor1: [4.5, 0] }));
    expect([offCentre.rotationCapped, mixed.rotationCapped, held.rotationCapped]).toEqual([true, true, true]);
    space.step(DT);
    expect(Math.abs(offCentre.angularVel)).toBeLessThanOrEqual(60 * Math.PI * (1 + 1e-12));
    expect(Math.abs(held.angularVel)).toBeLessThanOrEqual(60 * Math.PI * (1 + 1e-12));
    // The constraint removed, the ball is free again. One circle moved off the origin still has
    // the centre of mass at its centre; a second circle beside it does not.
    space.removeConstraint(pin);
    expect(held.rotationCapped).toBe(false);
    held.shapes[0]!.offset = [0.01, 0];
    expect(held.rotationCapped).toBe(false);
    held.addShape(new Circle({ radius: 0.05, offset: [0.2, 0] }));
    expect(held.rotationCapped).toBe(true);
  });
});

describe('the caps below their limits', () => {
  it('change nothing, bit for bit: a pendulum of pivoted boxes and a pile step the same with the caps off', () => {
    const build = (caps: boolean) => {
      const space = new Space({ gravity: [0, -10], ...(caps ? {} : { maxLinearSpeed: Infinity, maxRotationPerSubstep: Infinity }) });
      const ground = space.addBody(groundBody());
      let prev = ground;
      for (let i = 0; i < 6; i++) {
        const link = space.addBody(new Body({ position: [i + 0.5, 8], shapes: [Polygon.box(1, 0.2)] }));
        space.addConstraint(new PivotJoint({ body1: prev, body2: link, anchor1: i === 0 ? [0, 8] : [0.5, 0], anchor2: [-0.5, 0] }));
        prev = link;
      }
      for (let i = 0; i < 10; i++) space.addBody(new Body({ position: [-3 + (i % 2) * 0.1, 0.5 + i], shapes: [Polygon.box(0.8, 0.8)] }));
      return space;
    };
    const [a, b] = [build(true), build(false)];
    let fastest = 0;
    for (let i = 0; i < 300; i++) {
      a.step(DT);
      b.step(DT);
      for (const body of a.bodies) fastest = Math.max(fastest, speedOf(body));
    }
    expect(fastest).toBeGreaterThan(5);
    expect(fastest).toBeLessThan(400);
    expect(a.bodies.map((x) => [x.x, x.y, x.rotation, x.velocity.x, x.velocity.y, x.angularVel])).toEqual(b.bodies.map((x) => [x.x, x.y, x.rotation, x.velocity.x, x.velocity.y, x.angularVel]));
  });
});

describe('bad caps', () => {
  it('are rejected naming the property and the value, and change nothing', () => {
    const space = new Space();
    for (const bad of [0, -1, NaN, -Infinity, '400', null]) {
      expect(() => (space.maxLinearSpeed = bad as number)).toThrow(FulcrumInputError);
      expect(() => (space.maxRotationPerSubstep = bad as number)).toThrow(FulcrumInputError);
      expect(() => new Space({ maxLinearSpeed: bad as number })).toThrow(/Space\.maxLinearSpeed must be a positive number \(Infinity allowed\)/);
    }
    expect(() => (space.maxLinearSpeed = -3)).toThrow(/Space\.maxLinearSpeed must be a positive number \(Infinity allowed\), got -3/);
    expect(() => (space.maxRotationPerSubstep = NaN)).toThrow(/Space\.maxRotationPerSubstep .*got NaN/);
    expect([space.maxLinearSpeed, space.maxRotationPerSubstep]).toEqual([400, Math.PI / 4]);
    const body = new Body();
    expect(() => (body.allowFastRotation = 1 as unknown as boolean)).toThrow(/Body\.allowFastRotation must be a boolean, got 1/);
    expect(() => new Body({ allowFastRotation: 'yes' as unknown as boolean })).toThrow(FulcrumInputError);
    expect(body.allowFastRotation).toBe(false);
  });
});
