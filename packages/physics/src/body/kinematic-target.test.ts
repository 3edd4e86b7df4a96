/**
 * Body.setVelocityFromTarget (Nape's name): a kinematic body driven to a pose in one step arrives
 * there exactly, and carries what rests on it by friction, as a teleport does not.
 */
import { describe, expect, it } from 'vitest';
import { Body } from './body.js';
import { Polygon } from '../shape/polygon.js';
import { Circle } from '../shape/circle.js';
import { FulcrumInputError } from '../util/validate.js';
import { Space } from '../space/space.js';
import { hashState } from '../test-support/scenes.js';

const DT = 1 / 60;

describe('Body.setVelocityFromTarget', () => {
  it('brings a kinematic body to the pose in one step, its centre of mass off its origin too', () => {
    const space = new Space();
    // The disc is 0.7 m from the body's origin: the centre of mass is too.
    const arm = space.addBody(new Body({ type: 'kinematic', position: [1, 2], rotation: 0.3, shapes: [new Circle({ radius: 0.2, offset: [0.7, 0] })] }));
    const targets: [number, number, number][] = [
      [1.5, 2.2, 0.9],
      [0.5, 1.4, -1.4],
      [0.5, 1.4, -1.4],
      [-2, 3, 2.5],
    ];
    for (const [x, y, a] of targets) {
      arm.setVelocityFromTarget([x, y], a, DT);
      space.step(DT);
      expect(arm.x).toBeCloseTo(x, 12);
      expect(arm.y).toBeCloseTo(y, 12);
      expect(arm.rotation).toBeCloseTo(a, 12);
    }
    // At the target already: velocity 0.
    arm.setVelocityFromTarget([-2, 3], 2.5, DT);
    expect(Math.hypot(arm.velocity.x, arm.velocity.y)).toBeLessThan(1e-9);
    expect(Math.abs(arm.angularVel)).toBeLessThan(1e-9);
  });

  it('a moving platform carries a box by friction: the box follows its velocity within 5% and does not slip off', () => {
    const space = new Space({ gravity: [0, -10] });
    const platform = space.addBody(new Body({ type: 'kinematic', shapes: [Polygon.box(4, 0.4, { friction: 0.8 })] }));
    const crate = space.addBody(new Body({ position: [0, 0.7], shapes: [Polygon.box(0.5, 0.5, { friction: 0.8 })] }));
    for (let i = 0; i < 60; i++) space.step(DT); // settle
    let worst = 0;
    for (let i = 1; i <= 360; i++) {
      // Out 3 m and back, from rest, 6 s a cycle: peak 1.57 m/s, peak acceleration 1.6 m/s² (< μg).
      const t = i * DT;
      platform.setVelocityFromTarget([1.5 * (1 - Math.cos((2 * Math.PI * t) / 6)), 0], 0, DT);
      space.step(DT);
      const vp = platform.velocity.x;
      if (Math.abs(vp) > 0.3) worst = Math.max(worst, Math.abs(crate.velocity.x - vp) / Math.abs(vp));
      expect(Math.abs(crate.x - platform.x)).toBeLessThan(0.05);
    }
    expect(worst).toBeLessThan(0.05);
    expect(crate.y).toBeGreaterThan(0.4);
  });

  it('where a teleport (position) would leave the box behind', () => {
    const space = new Space({ gravity: [0, -10] });
    const platform = space.addBody(new Body({ type: 'kinematic', shapes: [Polygon.box(4, 0.4, { friction: 0.8 })] }));
    const crate = space.addBody(new Body({ position: [0, 0.7], shapes: [Polygon.box(0.5, 0.5, { friction: 0.8 })] }));
    for (let i = 0; i < 60; i++) space.step(DT);
    for (let i = 1; i <= 60; i++) {
      platform.position = [i * 0.02, 0];
      space.step(DT);
    }
    expect(platform.x - crate.x).toBeGreaterThan(1);
  });

  it('rejects a bad pose, a bad dt and a static body, naming the argument, and changes nothing', () => {
    const space = new Space();
    const lift = space.addBody(new Body({ type: 'kinematic', velocity: [1, 0], shapes: [Polygon.box(1, 1)] }));
    const wall = space.addBody(new Body({ type: 'static', shapes: [Polygon.box(1, 1)] }));
    const before = hashState(space.bodies);
    const cases: [() => void, string][] = [
      [() => lift.setVelocityFromTarget([NaN, 0], 0, DT), 'setVelocityFromTarget(position)'],
      [() => lift.setVelocityFromTarget('1,2' as never, 0, DT), 'setVelocityFromTarget(position)'],
      [() => lift.setVelocityFromTarget([1, 2], Infinity, DT), 'setVelocityFromTarget(rotation)'],
      [() => lift.setVelocityFromTarget([1, 2], 0, 0), 'setVelocityFromTarget(dt)'],
      [() => lift.setVelocityFromTarget([1, 2], 0, -DT), 'setVelocityFromTarget(dt)'],
      [() => lift.setVelocityFromTarget([1, 2], 0, NaN), 'setVelocityFromTarget(dt)'],
      [() => lift.setVelocityFromTarget([1e308, 0], 0, 1e-300), 'setVelocityFromTarget(dt)'],
      [() => wall.setVelocityFromTarget([1, 2], 0, DT), 'setVelocityFromTarget'],
    ];
    for (const [f, prop] of cases) {
      let error: unknown = null;
      try {
        f();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(FulcrumInputError);
      expect((error as FulcrumInputError).prop).toBe(prop);
    }
    expect(hashState(space.bodies)).toBe(before);
    expect(lift.velocity).toEqual({ x: 1, y: 0 });
  });
});
