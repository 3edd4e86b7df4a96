import { describe, expect, it } from 'vitest';
import { GeometryPool } from './geometry-pool.js';
import { Polygon } from '../shape/polygon.js';
import { Capsule } from '../shape/capsule.js';
import type { PolyShape } from '../shape/poly-shape.js';

/** A shape's geometry as plain numbers: [count, radius, world vertices…, world normals…, local vertices…, local normals…]. */
function worldOf(s: PolyShape): number[] {
  return [s.count, s.radius, ...s.worldVerts, ...s.worldNormals, ...s.localVerts, ...s.localNormals];
}

/**
 * updateWorld's results checked against the transform written out from the shape's local
 * geometry: vertices, normals, the core's centroid and the box (grown by the radius).
 */
function expectPosedAt(s: PolyShape, x: number, y: number, angle: number): void {
  const c = Math.cos(angle);
  const sn = Math.sin(angle);
  s.updateWorld(x, y, c, sn);
  let minX = Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < s.count; i++) {
    const lx = s.localVerts[2 * i]!;
    const ly = s.localVerts[2 * i + 1]!;
    expect(s.worldVerts[2 * i]).toBe(x + c * lx - sn * ly);
    expect(s.worldVerts[2 * i + 1]).toBe(y + sn * lx + c * ly);
    expect(s.worldNormals[2 * i]).toBe(c * s.localNormals[2 * i]! - sn * s.localNormals[2 * i + 1]!);
    expect(s.worldNormals[2 * i + 1]).toBe(sn * s.localNormals[2 * i]! + c * s.localNormals[2 * i + 1]!);
    minX = Math.min(minX, s.worldVerts[2 * i]!);
    maxY = Math.max(maxY, s.worldVerts[2 * i + 1]!);
  }
  expect(s.wcx).toBe(x + c * s.localCentroidX - sn * s.localCentroidY);
  expect(s.wcy).toBe(y + sn * s.localCentroidX + c * s.localCentroidY);
  expect(s.aabbMinX).toBe(minX - s.radius);
  expect(s.aabbMaxY).toBe(maxY + s.radius);
}

function posed<T extends PolyShape>(s: T, x: number): T {
  s.updateWorld(x, 2 * x, Math.cos(x), Math.sin(x));
  return s;
}

describe('the geometry pool', () => {
  it("takes a shape's block into its shared array and gives it back, the world geometry unchanged", () => {
    const pool = new GeometryPool();
    const box = posed(Polygon.box(1, 2, { radius: 0.1 }), 0.3);
    const before = worldOf(box);
    pool.adopt(box);
    expect(box._geo).toBe(pool.array);
    expect(box._geo.buffer).toBeInstanceOf(SharedArrayBuffer);
    expect(box.worldVerts.buffer).toBe(pool.array.buffer);
    expect(worldOf(box)).toEqual(before);
    expect(Array.from(pool.array.subarray(box._geoAt, box._geoAt + 2))).toEqual([4, 0.1]);
    // updateWorld writes through the views, into the pool.
    box.updateWorld(5, 6, 1, 0);
    expect(pool.array[box._geoAt + 2]).toBe(box.worldVerts[0]);
    const moved = worldOf(box);
    pool.release(box);
    expect(box._geo.buffer).not.toBe(pool.array.buffer);
    expect(box._geoPool).toBeNull();
    expect(worldOf(box)).toEqual(moved);
  });

  it('reuses a freed block of the same length, and moves every shape to a longer array when full', () => {
    const pool = new GeometryPool();
    const a = posed(Polygon.box(1, 1), 0.1);
    pool.adopt(a);
    const at = a._geoAt;
    pool.release(a);
    const b = posed(Polygon.box(2, 1), 0.2);
    pool.adopt(b);
    expect(b._geoAt).toBe(at);
    // Enough shapes to outgrow the first array (1,024 numbers): each keeps its geometry.
    const shapes: PolyShape[] = [];
    const expected: number[][] = [];
    for (let i = 0; i < 200; i++) {
      const s = posed(i % 2 ? Polygon.box(1 + i / 100, 1) : new Capsule({ length: 1, radius: 0.2 + i / 1000 }), i / 7);
      expected.push(worldOf(s));
      pool.adopt(s);
      shapes.push(s);
    }
    expect(pool.array.length).toBeGreaterThan(1024);
    for (let i = 0; i < shapes.length; i++) {
      expect(shapes[i]!._geo).toBe(pool.array);
      expect(shapes[i]!.worldVerts.buffer).toBe(pool.array.buffer);
      expect(worldOf(shapes[i]!)).toEqual(expected[i]);
    }
    expect(pool.size).toBe(201);
    // Blocks never overlap.
    const used = new Set<number>();
    for (const s of [b, ...shapes]) {
      for (let k = s._geoAt; k < s._geoAt + s.geometryLength(); k++) {
        expect(used.has(k)).toBe(false);
        used.add(k);
      }
    }
  });

  it('keeps a polygon whose vertex count changes in the pool, in a block of its new length', () => {
    const pool = new GeometryPool();
    const p = posed(Polygon.box(1, 1), 0.4);
    const other = posed(Polygon.box(3, 1), 0.5);
    pool.adopt(p);
    pool.adopt(other);
    const otherBefore = worldOf(other);
    p.vertices = [[0, 0], [1, 0], [1.5, 1], [0.5, 1.5], [-0.5, 1]];
    posed(p, 0.6);
    expect(p._geo).toBe(pool.array);
    expect(p.count).toBe(5);
    expect(Array.from(pool.array.subarray(p._geoAt, p._geoAt + 2))).toEqual([5, 0]);
    expect(p.worldVerts.length).toBe(10);
    expect(worldOf(other)).toEqual(otherBefore);
    expect(pool.size).toBe(2);
  });

  it('keeps the local geometry in the block, so that updateWorld transforms it wherever the block is', () => {
    const pool = new GeometryPool();
    const p = Polygon.box(1, 2, { radius: 0.05, offset: [0.3, -0.2], angle: 0.4 });
    expect(p.localVerts.buffer).toBe(p._geo.buffer);
    expectPosedAt(p, 1, 2, 0.3);
    pool.adopt(p);
    expect(p.localVerts.buffer).toBe(pool.array.buffer);
    expectPosedAt(p, -1, 0.5, 2.1);
    // A new vertex count: a block of the new length, and the new core's centroid in it.
    p.vertices = [[0, 0], [2, 0], [2, 1], [1, 2], [0, 1]];
    expect(p.localCentroidX).not.toBe(0);
    expectPosedAt(p, 3, -2, -0.7);
    pool.release(p);
    expect(p.localVerts.buffer).toBe(p._geo.buffer);
    expectPosedAt(p, 0.5, 0.5, 1);
  });
});
