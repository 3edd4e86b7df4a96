import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Polygon } from '../shape/polygon.js';
import { Circle } from '../shape/circle.js';
import { Space } from './space.js';

const state = (b: Body) => [b.position.x, b.position.y, b.rotation, b.velocity.x, b.velocity.y, b.angularVel];

describe("a space's body states", () => {
  it('keep each body its state as it joins, as the array grows, as it leaves, and in the next space', () => {
    const space = new Space({ gravity: [0, 0] });
    const bodies = Array.from({ length: 200 }, (_, k) => new Body({ position: [k, -k], rotation: 0.01 * k, velocity: [1, k], angularVel: -k, shapes: [Polygon.box(0.5, 0.5)] }));
    const expected = bodies.map(state);
    // 200 bodies: the array (64 to start) doubles twice while they join.
    for (const b of bodies) space.addBody(b);
    expect(bodies.map(state)).toEqual(expected);
    expect(new Set(bodies.map((b) => b._st)).size, 'one array for every body').toBe(1);
    // Leaving, a body takes its state along, in an array of its own: the slot's next body does not write it.
    const gone = bodies[7]!;
    space.removeBody(gone);
    const later = space.addBody(new Body({ position: [99, 99], shapes: [new Circle({ radius: 1 })] }));
    expect(state(gone)).toEqual(expected[7]);
    gone.velocity = { x: 5, y: 6 };
    expect(later.velocity).toEqual({ x: 0, y: 0 });
    // In the next space it is adopted afresh.
    const other = new Space({ gravity: [0, 0] });
    other.addBody(gone);
    expect(state(gone)).toEqual([7, -7, 0.07, 5, 6, -7]);
    other.step(1);
    expect(gone.position.x).toBeCloseTo(12, 12);
    // The others stepped in their space as ever: free motion, x + v·dt.
    space.step(0.5);
    for (const b of bodies) if (b !== gone) expect(b.position.x).toBeCloseTo(expected[bodies.indexOf(b)]![0]! + 0.5, 12);
  });

  it("hold each body's settings too, which follow it in and out and reach the step", () => {
    const settings = (b: Body) => [b.force.x, b.force.y, b.torque, b.mass, b.inertia, b.linearDrag, b.angularDrag, b.gravityScale, b.localCenter.x, b.localCenter.y, b.constraintMass, b.constraintInertia];
    const make = (k: number) =>
      new Body({ position: [3 * k, 0], force: [k, -k], torque: 0.5 * k, linearDrag: 0.1 * k, angularDrag: 0.2 * k, gravityScale: 1 + k, shapes: [Polygon.box(1, 0.5, { offset: [0.25 * k, 0] })] });
    const bodies = Array.from({ length: 100 }, (_, k) => make(k));
    const expected = bodies.map(settings);
    const space = new Space({ gravity: [0, -10] });
    for (const b of bodies) space.addBody(b);
    expect(bodies.map(settings), 'kept as the array doubled').toEqual(expected);
    // Changed in the space, a setting is the body's alone, and the step reads it: with drag 0, no
    // force and gravity scale 0, a body keeps its velocity.
    const b = bodies[40]!;
    b.force = { x: 0, y: 0 };
    b.torque = 0;
    b.linearDrag = 0;
    b.angularDrag = 0;
    b.gravityScale = 0;
    b.velocity = { x: 1, y: 2 };
    b.angularVel = 0.5;
    space.step(1 / 60);
    expect([b.velocity.x, b.velocity.y, b.angularVel]).toEqual([1, 2, 0.5]);
    expect(settings(bodies[41]!)).toEqual(expected[41]);
    // Leaving, a body takes its settings along; in the next space they are adopted afresh.
    space.removeBody(b);
    b.gravityScale = 3;
    const later = space.addBody(make(41));
    expect(later.gravityScale).toBe(42);
    expect(b.gravityScale).toBe(3);
    const other = new Space({ gravity: [0, -10] });
    other.addBody(b);
    other.step(0.5);
    expect(b.velocity.y).toBeCloseTo(2 - 0.5 * 30, 12);
  });

  it('keep their states when the workers start (the array moves to shared memory)', async () => {
    const space = new Space({ gravity: [0, -10] });
    const bodies = Array.from({ length: 10 }, (_, k) => space.addBody(new Body({ position: [k, 0], velocity: [k, 0], shapes: [Polygon.box(0.5, 0.5)] })));
    space.step(1 / 60);
    const before = bodies.map(state);
    space.workers = 1;
    await space.workersReady;
    expect(bodies.map(state)).toEqual(before);
    if (space.parallel.workers > 0) expect(bodies[0]!._st.buffer).toBeInstanceOf(SharedArrayBuffer);
    space.dispose();
  });
});

describe("a body's count of shapes that pair with something", () => {
  it('follows shapes joining and leaving, and filters that change', () => {
    const space = new Space();
    const solid = Polygon.box(1, 1);
    const inert = new Circle({ radius: 0.5, filter: { mask: 0 } });
    const b = new Body({ shapes: [solid, inert] });
    expect(b._pairingShapes).toBe(0);
    space.addBody(b);
    expect(b._pairingShapes).toBe(1);
    inert.filter = { mask: 0xffff };
    expect(b._pairingShapes).toBe(2);
    solid.filter = { mask: 0 };
    expect(b._pairingShapes).toBe(1);
    b.removeShape(inert);
    expect(b._pairingShapes).toBe(0);
    b.addShape(Polygon.box(0.2, 0.2));
    expect(b._pairingShapes).toBe(1);
    space.removeBody(b);
    expect(b._pairingShapes).toBe(0);
  });
});
