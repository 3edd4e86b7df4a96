/**
 * Stage 9, the last line of defence: a step that would write a non-finite value into a body
 * fails with a FulcrumDivergenceError naming the body and the field, writes no body, puts the
 * warm-start impulses back as they were, and leaves a space that steps on once the cause is gone. (Before,
 * NaN reached the bodies and then the broadphase: "DynamicTree: invalid AABB".)
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { FulcrumDivergenceError } from '../util/validate.js';
import { Space } from './space.js';

describe('a diverging step', () => {
  it('fails before writing anything: no body is written, no NaN reaches the broadphase, and the space steps on without the cause', () => {
    // Gravity near the largest double: the falling box's speed overflows within a few dozen steps.
    // The speed caps off: they would hold the box at 400 m/s.
    const space = new Space({ gravity: [0, -1.5e308], maxLinearSpeed: Infinity });
    const box = space.addBody(new Body({ position: [1, 0], shapes: [Polygon.box(0.4, 0.4)] }));
    const ball = space.addBody(new Body({ position: [3, 0], gravityScale: 0, velocity: [1, 0], shapes: [new Circle({ radius: 0.2 })] }));
    let error: unknown = null;
    let before: number[] = [];
    let steps = 0;
    for (; steps < 200 && error === null; steps++) {
      before = [box.x, box.y, box.rotation, box.velocity.x, box.velocity.y, ball.x, ball.y, ball.velocity.x];
      try {
        space.step(1 / 60);
      } catch (e) {
        error = e;
      }
    }
    expect(error).toBeInstanceOf(FulcrumDivergenceError);
    const e = error as FulcrumDivergenceError;
    expect(e.bodyId).toBe(box.id);
    expect(e.message).toMatch(new RegExp(`Body#${box.id}'s (velocity\.[xy]|position\.[xy]|angularVel|rotation) would have become (NaN|-?Infinity)`));
    // Nothing was written: every body holds its state from before the failed step, all finite.
    expect([box.x, box.y, box.rotation, box.velocity.x, box.velocity.y, ball.x, ball.y, ball.velocity.x]).toEqual(before);
    expect(before.every(Number.isFinite)).toBe(true);
    expect(space.isStepping).toBe(false);
    // Without the cause the space steps on.
    space.gravity = [0, 0];
    box.position = [1, 0];
    box.velocity = [0, 0];
    const x = ball.x;
    for (let i = 0; i < 30; i++) space.step(1 / 60);
    expect(ball.x).toBeCloseTo(x + 0.5, 9);
    expect(box.y).toBe(0);
  });
});
