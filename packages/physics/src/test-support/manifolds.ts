/**
 * Narrowphase test helpers: place a shape's world cache at a pose, and read a manifold as plain
 * points (shared by collision/collide.test.ts and shape/chain.test.ts).
 */
import { collideShapes } from '../collision/collide.js';
import { Manifold } from '../collision/manifold.js';
import type { Shape } from '../shape/shape.js';

/** The shape's world cache at body pose (x, y, angle). */
export function place<T extends Shape>(s: T, x = 0, y = 0, angle = 0): T {
  s.updateWorld(x, y, Math.cos(angle), Math.sin(angle));
  return s;
}

export interface Pt {
  x: number;
  y: number;
  sep: number;
  id: number;
}
export interface Result {
  count: number;
  nx: number;
  ny: number;
  points: Pt[];
}

const manifold = new Manifold();

/** collideShapes(a, b) as plain numbers. */
export function collide(a: Shape, b: Shape): Result {
  collideShapes(a, b, manifold);
  const points: Pt[] = [];
  for (let i = 0; i < manifold.pointCount; i++) {
    points.push({ x: manifold.px[i]!, y: manifold.py[i]!, sep: manifold.separation[i]!, id: manifold.id[i]! });
  }
  return { count: manifold.pointCount, nx: manifold.nx, ny: manifold.ny, points };
}
