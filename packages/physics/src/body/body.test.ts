import { describe, expect, it } from 'vitest';
import { Body } from './body.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Segment } from '../shape/segment.js';
import { Space } from '../space/space.js';
import { PivotJoint } from '../constraint/joints/pivot-joint.js';
import { groundBody, stepFor } from '../test-support/scenes.js';

describe('Body mass', () => {
  it('derives mass, centre and inertia from shapes (parallel axis)', () => {
    const b = new Body({ shapes: [Polygon.box(2, 1, { density: 3 }), new Circle({ radius: 0.5, offset: [2, 0], density: 2 })] });
    const mBox = 3 * 2;
    const mCircle = 2 * Math.PI * 0.25;
    expect(b.mass).toBeCloseTo(mBox + mCircle, 12);
    const cx = (mCircle * 2) / (mBox + mCircle);
    expect(b.localCenter.x).toBeCloseTo(cx, 12);
    const iOrigin = (mBox * (4 + 1)) / 12 + (mCircle * 0.25) / 2 + mCircle * 4;
    expect(b.inertia).toBeCloseTo(iOrigin - (mBox + mCircle) * cx * cx, 12);
  });

  it('explicit mass scales the derived inertia; useShapeMass reverts', () => {
    const b = new Body({ shapes: [Polygon.box(1, 1)] });
    const i0 = b.inertia;
    b.mass = 10;
    expect(b.inertia).toBeCloseTo(10 * i0, 12);
    b.inertia = 7;
    expect(b.inertia).toBe(7);
    b.useShapeMass();
    expect(b.mass).toBeCloseTo(1, 12);
    expect(b.inertia).toBeCloseTo(i0, 12);
  });

  it('a dynamic body without area weighs 1 kg; segments add no mass', () => {
    expect(new Body().mass).toBe(1);
    expect(new Body({ shapes: [new Segment({ p1: [0, 0], p2: [1, 0] })] }).mass).toBe(1);
  });

  it("Nape's constraint properties: inverse mass, zero for static/kinematic or pinned", () => {
    const b = new Body({ velocity: [1, 2], angularVel: 3, shapes: [Polygon.box(1, 2)] });
    expect(b.constraintMass).toBeCloseTo(1 / 2, 12);
    expect(b.constraintInertia).toBeCloseTo(1 / b.inertia, 12);
    expect(b.constraintVelocity).toEqual({ x: 1, y: 2, z: 3 });
    b.allowMovement = false;
    expect(b.constraintMass).toBe(0);
    expect(b.constraintInertia).toBeGreaterThan(0);
    b.allowRotation = false;
    expect(b.constraintInertia).toBe(0);
    expect(new Body({ type: 'static', shapes: [Polygon.box(1, 1)] }).constraintMass).toBe(0);
    const k = new Body({ type: 'kinematic', velocity: [2, 0], shapes: [Polygon.box(1, 1)] });
    expect(k.constraintMass).toBe(0);
    expect(k.constraintInertia).toBe(0);
    expect(k.constraintVelocity).toEqual({ x: 2, y: 0, z: 0 });
  });
});

describe('Body frames and impulses', () => {
  it('converts points and vectors both ways', () => {
    const b = new Body({ position: { x: 1, y: 2 }, rotation: Math.PI / 2 });
    const w = b.localPointToWorld([1, 0]);
    expect(w.x).toBeCloseTo(1, 12);
    expect(w.y).toBeCloseTo(3, 12);
    const l = b.worldPointToLocal(w);
    expect(l.x).toBeCloseTo(1, 12);
    expect(l.y).toBeCloseTo(0, 12);
    const v = b.localVectorToWorld([0, 1]);
    expect(v.x).toBeCloseTo(-1, 12);
    expect(v.y).toBeCloseTo(0, 12);
  });

  it('an off-centre impulse changes velocity and spin by J/m and r × J / I', () => {
    const b = new Body({ shapes: [Polygon.box(2, 2)] });
    b.applyImpulse([0, 4], [1, 0]);
    expect(b.velocity.y).toBeCloseTo(4 / b.mass, 12);
    expect(b.angularVel).toBeCloseTo(4 / b.inertia, 12);
    b.applyAngularImpulse(2);
    expect(b.angularVel).toBeCloseTo(6 / b.inertia, 12);
  });
});

describe('body types and pins', () => {
  it('a kinematic body moves at its velocity, ignores gravity and pushes dynamic bodies', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(groundBody());
    const pusher = space.addBody(new Body({ type: 'kinematic', position: [-3, 0.5], velocity: [1, 0], shapes: [Polygon.box(1, 1)] }));
    const box = space.addBody(new Body({ position: [0, 0.5], shapes: [Polygon.box(1, 1, { friction: 0.2 })] }));
    stepFor(space, 4);
    expect(pusher.x).toBeCloseTo(1, 9);
    expect(pusher.y).toBe(0.5);
    expect(box.x).toBeGreaterThan(1.9); // pushed ahead of the pusher's face
  });

  it('allowRotation = false keeps the rotation fixed under an off-centre hit', () => {
    const space = new Space();
    const b = space.addBody(new Body({ allowRotation: false, shapes: [Polygon.box(1, 1)] }));
    space.addBody(new Body({ position: [-3, 0.4], velocity: [5, 0], shapes: [new Circle({ radius: 0.2 })] }));
    stepFor(space, 1);
    expect(b.rotation).toBe(0);
    expect(b.velocity.x).toBeGreaterThan(0.1);
  });

  it('allowMovement = false pins the position but lets the body spin', () => {
    const space = new Space({ gravity: [0, -10] });
    const b = space.addBody(new Body({ allowMovement: false, shapes: [Polygon.box(2, 0.2)] }));
    space.addBody(new Body({ position: [0.8, 1], shapes: [new Circle({ radius: 0.2 })] }));
    stepFor(space, 1);
    // It turns about its centre of mass, which is the origin up to rounding.
    expect(Math.abs(b.x)).toBeLessThan(1e-12);
    expect(Math.abs(b.y)).toBeLessThan(1e-12);
    expect(b.rotation).toBeLessThan(-0.01); // the ball landing on the right tips it clockwise
  });

  it("allowMovement = false: nothing in the simulation changes the body's velocity, and a velocity it is given still moves it (Nape's allowMovement)", () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(groundBody());
    // A wheel pressed 1 cm into the ground, carrying a heavy bar that swings from a pivot at its
    // centre: gravity, the contact and the joint act on it as on an infinite mass.
    const wheel = space.addBody(new Body({ position: [0, 0.49], velocity: [1, 0], allowMovement: false, shapes: [new Circle({ radius: 0.5 })] }));
    const bar = space.addBody(new Body({ position: [1, 0.5], mass: 50, shapes: [Polygon.box(2, 0.1, { filter: { mask: 0 } })] }));
    space.addConstraint(new PivotJoint({ body1: wheel, body2: bar, anchor1: [0, 0], anchor2: [-1, 0] }));
    for (let i = 1; i <= 60; i++) {
      space.step(1 / 60);
      expect(wheel.velocity).toEqual({ x: 1, y: 0 });
      expect(wheel.y).toBe(0.49);
      expect(wheel.x).toBeCloseTo(i / 60, 12);
    }
    // The bar swings down from the moving pivot, which keeps it at the wheel's centre.
    expect(bar.y).toBeLessThan(0.4);
    const end = bar.localPointToWorld([-1, 0]);
    expect(Math.hypot(end.x - wheel.x, end.y - wheel.y)).toBeLessThan(1e-3);
    // Holding it in place is a velocity of 0.
    wheel.velocity = [0, 0];
    const x = wheel.x;
    space.step(1 / 60);
    expect(wheel.x).toBe(x);
  });

  it('changing type to static stops the body; back to dynamic it falls again', () => {
    const space = new Space({ gravity: [0, -10] });
    const b = space.addBody(new Body({ position: [0, 10], shapes: [Polygon.box(1, 1)] }));
    stepFor(space, 0.5);
    b.type = 'static';
    const y = b.y;
    stepFor(space, 0.5);
    expect(b.y).toBe(y);
    expect(b.velocity).toEqual({ x: 0, y: 0 });
    b.type = 'dynamic';
    stepFor(space, 0.5);
    expect(b.y).toBeLessThan(y - 1);
  });

  it('moving a static body wakes what rests on it', () => {
    const space = new Space({ gravity: [0, -10] });
    const ground = space.addBody(groundBody());
    const box = space.addBody(new Body({ position: [0, 0.5], shapes: [Polygon.box(1, 1)] }));
    stepFor(space, 2);
    expect(box.isSleeping).toBe(true);
    ground.position = [0, -1.5];
    expect(box.isSleeping).toBe(false);
    stepFor(space, 2);
    expect(box.y).toBeCloseTo(-0.5, 1);
  });

  it('removing a shape from a resting body wakes it and the body keeps simulating', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(groundBody());
    const small = new Circle({ radius: 0.2, offset: [0, -0.6] });
    const b = space.addBody(new Body({ position: [0, 1.3], shapes: [Polygon.box(1, 1), small] }));
    stepFor(space, 2);
    expect(b.isSleeping).toBe(true);
    b.removeShape(small);
    expect(b.isSleeping).toBe(false);
    stepFor(space, 2);
    expect(b.y).toBeCloseTo(0.5, 1);
    expect(small.body).toBe(null);
  });
});
