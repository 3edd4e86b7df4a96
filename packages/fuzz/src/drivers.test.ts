import { Body, Circle, DistanceJoint, PivotJoint, Space } from '@fulcrum/physics';
import { describe, expect, it } from 'vitest';
import { driverKind, driversReaching } from './drivers.js';

const disc = () => [new Circle({ radius: 0.1 })];

describe('drivers (bodies of infinite inertia that move)', () => {
  it('names a moving kinematic body, and a dynamic one that keeps a velocity it cannot lose; not a resting one, nor a static one', () => {
    const space = new Space();
    const kin = space.addBody(new Body({ type: 'kinematic', velocity: [1, 0], shapes: disc() }));
    const still = space.addBody(new Body({ type: 'kinematic', shapes: disc() }));
    const slider = space.addBody(new Body({ allowMovement: false, velocity: [0, 2], shapes: disc() }));
    const pinned = space.addBody(new Body({ allowMovement: false, shapes: disc() }));
    const spinner = space.addBody(new Body({ allowRotation: false, angularVel: 3, shapes: disc() }));
    const free = space.addBody(new Body({ velocity: [5, 5], angularVel: 1, shapes: disc() }));
    const ground = space.addBody(new Body({ type: 'static', shapes: disc() }));
    expect([kin, still, slider, pinned, spinner, free, ground].map(driverKind)).toEqual([
      'kinematic',
      null,
      'allowMovement: false, moving',
      null,
      'allowRotation: false, turning',
      null,
      null,
    ]);
  });

  it('follows active constraints through dynamic bodies, not through a kinematic one nor an inactive constraint', () => {
    const space = new Space();
    const kin = space.addBody(new Body({ type: 'kinematic', angularVel: 1, shapes: disc() }));
    const a = space.addBody(new Body({ position: [1, 0], shapes: disc() }));
    const b = space.addBody(new Body({ position: [2, 0], shapes: disc() }));
    const c = space.addBody(new Body({ position: [3, 0], shapes: disc() }));
    const d = space.addBody(new Body({ position: [4, 0], shapes: disc() }));
    space.addConstraint(new PivotJoint({ body1: kin, body2: a, anchor1: [1, 0] }));
    space.addConstraint(new DistanceJoint({ body1: a, body2: b, jointMin: 1, jointMax: 1 }));
    const off = space.addConstraint(new DistanceJoint({ body1: b, body2: c, jointMin: 1, jointMax: 1 }));
    off.active = false;
    space.addConstraint(new PivotJoint({ body1: kin, body2: d, anchor1: [4, 0] }));
    expect(driversReaching(space, b)).toEqual([`Body#${kin.id} (kinematic)`]);
    expect(driversReaching(space, c)).toEqual([]);
    // d reaches the kinematic body, but not a, b (a kinematic body couples nothing).
    expect(driversReaching(space, d)).toEqual([`Body#${kin.id} (kinematic)`]);
    kin.angularVel = 0;
    expect(driversReaching(space, b)).toEqual([]);
  });
});
