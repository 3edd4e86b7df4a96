import { Body, Circle, PivotJoint, Polygon, Space } from '@fulcrum/physics';
import { describe, expect, it } from 'vitest';
import { countAwakeIslands } from './awake-islands.js';
import { TouchingPairs } from './touching-pairs.js';

function setup() {
  const space = new Space({ gravity: [0, -10] });
  const touching = new TouchingPairs();
  touching.watch(space);
  space.addBody(new Body({ type: 'static', position: [0, -0.5], shapes: [Polygon.box(40, 1)] }));
  return { space, touching };
}
const ball = (x: number, y: number) => new Body({ position: [x, y], shapes: [new Circle({ radius: 0.5 })] });

describe('countAwakeIslands', () => {
  it('counts separate falling bodies as separate islands, and none once they sleep', () => {
    const { space, touching } = setup();
    space.addBody(ball(-5, 0.5));
    space.addBody(ball(5, 0.5));
    space.step(1 / 60);
    expect(countAwakeIslands(space, touching)).toBe(2);
    for (let i = 0; i < 300; i++) space.step(1 / 60);
    expect(space.bodies.every((b) => !b.isDynamic || b.isSleeping)).toBe(true);
    expect(countAwakeIslands(space, touching)).toBe(0);
  });

  it('joins bodies linked by a joint, even through a static body1', () => {
    const { space, touching } = setup();
    const a = space.addBody(ball(-5, 3));
    const b = space.addBody(ball(-3, 3));
    space.addConstraint(new PivotJoint({ body1: a, body2: b, anchor1: [1, 0], anchor2: [-1, 0] }));
    space.addBody(ball(8, 3));
    space.step(1 / 60);
    expect(countAwakeIslands(space, touching)).toBe(2);
  });

  it('joins a stack through its touching contacts, but not through the static ground', () => {
    const { space, touching } = setup();
    space.addBody(ball(0, 0.5));
    space.addBody(ball(0, 1.5));
    space.addBody(ball(6, 0.5));
    for (let i = 0; i < 10; i++) space.step(1 / 60);
    expect(touching.size).toBeGreaterThanOrEqual(3);
    expect(countAwakeIslands(space, touching)).toBe(2);
  });
});
