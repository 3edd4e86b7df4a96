/**
 * A space's shapes' geometry in one shared array, while the space has workers: each shape's block
 * (a polygon's [count, radius, world vertices, world normals, local vertices, local normals, local
 * centroid], shape/poly-shape.ts; a circle's [0, radius, world centre], shape/circle.ts) is a
 * slice of it, so that the narrowphase kernels (collide-kernels.ts) read any shape of the space on
 * any thread.
 *
 * A shape is adopted when it joins the space (or when the space's workers start), and released,
 * with a copy of its block in an array of its own, when it leaves (a polygon's world and local
 * vertices and normals are views of wherever its block is). Blocks are reused by length (a polygon
 * of n vertices takes 4 + 8n numbers, a circle 4); when the array is full it doubles, and every
 * adopted shape moves to the new one.
 */
import type { Shape } from '../shape/shape.js';

export class GeometryPool {
  /** The blocks, over a SharedArrayBuffer. */
  array = new Float64Array(new SharedArrayBuffer(8 * 1024));
  /** The adopted shapes (shape._geoSlot is its index here). */
  private readonly shapes: Shape[] = [];
  /** Where the next new block starts. */
  private top = 0;
  /** Freed blocks' offsets, by block length. */
  private readonly free = new Map<number, number[]>();

  /** Move a shape's block into the pool (its current contents kept). */
  adopt(shape: Shape): void {
    if (shape._geoPool === this) return;
    const length = shape.geometryLength();
    const at = this.allocate(length);
    this.array.set(shape._geo.subarray(shape._geoAt, shape._geoAt + length), at);
    shape.bindGeometry(this.array, at);
    shape._geoPool = this;
    shape._geoSlot = this.shapes.length;
    this.shapes.push(shape);
  }

  /** Give a shape its block back, in an array of its own (it leaves the space). */
  release(shape: Shape): void {
    if (shape._geoPool !== this) return;
    const length = shape.geometryLength();
    const at = shape._geoAt;
    const own = this.array.slice(at, at + length);
    shape.bindGeometry(own, 0);
    shape._geoPool = null;
    const list = this.free.get(length);
    if (list) list.push(at);
    else this.free.set(length, [at]);
    const last = this.shapes.pop()!;
    if (last !== shape) {
      this.shapes[shape._geoSlot] = last;
      last._geoSlot = shape._geoSlot;
    }
    shape._geoSlot = -1;
  }

  /** How many shapes the pool holds. */
  get size(): number {
    return this.shapes.length;
  }

  private allocate(length: number): number {
    const reused = this.free.get(length)?.pop();
    if (reused !== undefined) return reused;
    const at = this.top;
    if (at + length > this.array.length) this.grow(at + length);
    this.top = at + length;
    return at;
  }

  /** A longer array (doubling): every adopted shape's views move to it. */
  private grow(need: number): void {
    let length = this.array.length;
    while (length < need) length *= 2;
    const next = new Float64Array(new SharedArrayBuffer(8 * length));
    next.set(this.array);
    this.array = next;
    for (const s of this.shapes) s.bindGeometry(next, s._geoAt);
  }
}
