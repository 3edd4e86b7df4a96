/**
 * The contact manager's proxies: how far a moving shape's fat box looks ahead along its motion.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { AABB_MARGIN } from '../collision/manifold.js';
import type { AABBOut } from '../broadphase/dynamic-tree.js';
import { Circle } from '../shape/circle.js';
import type { Shape } from '../shape/shape.js';
import { Space } from './space.js';
import type { ContactManager } from './contact-manager.js';

function fatBox(space: Space, shape: Shape): AABBOut {
  const manager = (space as unknown as { _contacts: ContactManager })._contacts;
  return manager.broadphase.getFatAABB(shape.proxyId, { minX: 0, minY: 0, maxX: 0, maxY: 0 });
}

describe('fat boxes look ahead', () => {
  it('along a slow body’s motion by two steps of it', () => {
    const space = new Space({ gravity: [0, 0] });
    const ball = new Circle({ radius: 0.5 });
    space.addBody(new Body({ velocity: [6, 0], shapes: [ball] }));
    for (let i = 0; i < 3; i++) space.step(1 / 60);
    const fat = fatBox(space, ball);
    // 6 m/s over 2 steps is 0.2 m, less than the cap (twice the 1 m ball).
    expect(fat.maxX - fat.minX).toBeCloseTo(1 + 2 * AABB_MARGIN + 0.2, 9);
    expect(fat.maxY - fat.minY).toBeCloseTo(1 + 2 * AABB_MARGIN, 9);
  });

  it('by no more than twice its size for a fast small body (the pairs it makes stay few)', () => {
    const space = new Space({ gravity: [0, 0] });
    const ball = new Circle({ radius: 0.05 });
    space.addBody(new Body({ velocity: [100, -100], shapes: [ball] }));
    for (let i = 0; i < 3; i++) space.step(1 / 60);
    const fat = fatBox(space, ball);
    // Unbounded, 100 m/s over 2 steps would stretch it 3.33 m each way.
    expect(fat.maxX - fat.minX).toBeCloseTo(0.1 + 2 * AABB_MARGIN + 0.2, 9);
    expect(fat.maxY - fat.minY).toBeCloseTo(0.1 + 2 * AABB_MARGIN + 0.2, 9);
  });

  it('500 small bodies at 50–150 m/s in a box touch few fat boxes', () => {
    const space = new Space({ gravity: [0, 0] });
    let seed = 3;
    const rand = (): number => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < 500; i++) {
      const speed = 50 + 100 * rand(), angle = 2 * Math.PI * rand();
      space.addBody(new Body({ position: [(i % 25) - 12, Math.floor(i / 25) - 10], velocity: [speed * Math.cos(angle), speed * Math.sin(angle)], shapes: [new Circle({ radius: 0.1 })] }));
    }
    space.step(1 / 60);
    space.step(1 / 60);
    // Spread over 20 × 25 m, each body's fat box meets a handful of others; unbounded, they were
    // metres long and made thousands of pairs.
    expect(space.contactCount).toBeLessThan(500);
  });
});
