import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { COLLIDE_KERNEL_PARTS, COLLIDE_KERNELS, collideKernels, PAIR, type ManifoldData } from './collide-kernels.js';
import { collidePolygons, collideShapes, DISJOINT_TOLERANCE, MERGE_DISTANCE } from './collide.js';
import { Circle } from '../shape/circle.js';
import type { Shape } from '../shape/shape.js';
import { LINEAR_SLOP, Manifold, SPECULATIVE_DISTANCE } from './manifold.js';
import { ContactStore } from '../contact/contact-store.js';
import { Polygon } from '../shape/polygon.js';
import { Capsule } from '../shape/capsule.js';
import { Segment } from '../shape/segment.js';
import type { PolyShape } from '../shape/poly-shape.js';
import { geometryBlockLength } from '../shape/poly-shape.js';
import { mulberry32 } from '../test-support/random.js';
import type { StageViews } from '../parallel/thread-runtime.js';

/** The kernels rebuilt from the factory's text and its parts' alone, in a context with nothing else (as a worker builds them). */
function fromText(): ReturnType<typeof collideKernels> {
  const text = `"use strict"; (${collideKernels.toString()})(${COLLIDE_KERNEL_PARTS.map((f) => `(${f.toString()})`).join(', ')})`;
  return runInNewContext(text, { Float64Array, Int32Array, Uint8Array, Math }) as ReturnType<typeof collideKernels>;
}

/** A random rounded polygon, capsule or segment, posed at random near the origin. */
function randomShape(rnd: () => number): PolyShape {
  const k = Math.floor(rnd() * 4);
  let s: PolyShape;
  if (k === 0) s = Polygon.box(0.5 + rnd(), 0.5 + rnd(), { radius: rnd() < 0.5 ? 0 : 0.05 * rnd() });
  else if (k === 1) {
    const n = 3 + Math.floor(rnd() * 6);
    // Points on a circle, in order: convex.
    const vertices: [number, number][] = [];
    const r = 0.4 + 0.4 * rnd();
    for (let i = 0; i < n; i++) {
      const a = (2 * Math.PI * (i + 0.3 * rnd())) / n;
      vertices.push([r * Math.cos(a), r * Math.sin(a)]);
    }
    s = new Polygon({ vertices });
  } else if (k === 2) s = new Capsule({ length: 0.3 + rnd(), radius: 0.1 + 0.3 * rnd() });
  else s = new Segment({ p1: [-0.5 - rnd(), 0], p2: [0.5 + rnd(), 0.2 * rnd()] });
  const angle = 2 * Math.PI * rnd();
  s.updateWorld(1.6 * rnd() - 0.8, 1.6 * rnd() - 0.8, Math.cos(angle), Math.sin(angle));
  return s;
}

function emptyManifold(): ManifoldData {
  return { pointCount: 0, nx: 0, ny: 0, px: new Float64Array(2), py: new Float64Array(2), separation: new Float64Array(2), id: new Int32Array(2) };
}

/** Random pairs that collidePolygons takes (not two 2-vertex cores), about half of them touching. */
function pairs(seed: number, count: number): [PolyShape, PolyShape][] {
  const rnd = mulberry32(seed);
  const out: [PolyShape, PolyShape][] = [];
  while (out.length < count) {
    const a = randomShape(rnd);
    const b = randomShape(rnd);
    if (a.count === 2 && b.count === 2) continue;
    out.push([a, b]);
  }
  return out;
}

describe('the narrowphase kernels', () => {
  it("declare manifold.ts's and collide.ts's constants as those modules compute them", () => {
    const text = collideKernels.toString();
    const names = ['LINEAR_SLOP', 'SPECULATIVE_DISTANCE', 'MERGE_DISTANCE', 'DISJOINT_TOLERANCE'];
    const decls = names.map((n) => new RegExp(`const ${n} = [^;]+;`).exec(text)?.[0] ?? `const ${n} = NaN;`);
    const declared = new Function(`"use strict"; ${decls.join(' ')} return [${names.join(', ')}];`)() as number[];
    expect(declared).toEqual([LINEAR_SLOP, SPECULATIVE_DISTANCE, MERGE_DISTANCE, DISJOINT_TOLERANCE]);
    expect(SPECULATIVE_DISTANCE).toBe(4 * LINEAR_SLOP);
    expect(MERGE_DISTANCE).toBe(0.1 * LINEAR_SLOP);
    expect(DISJOINT_TOLERANCE).toBe(0.1 * LINEAR_SLOP);
  });

  it("rebuilt from their text alone, give collidePolygons's manifold bit for bit, from blocks anywhere in a pool", () => {
    const worker = fromText();
    const all = pairs(5, 400);
    // Every shape's block copied into one pool at an odd offset, as a space with workers keeps them.
    const pool = new Float64Array(8 + all.reduce((n, [a, b]) => n + geometryBlockLength(a.count) + geometryBlockLength(b.count), 0));
    let top = 7;
    const at = (s: PolyShape): number => {
      const length = geometryBlockLength(s.count);
      pool.set(s._geo.subarray(s._geoAt, s._geoAt + length), top);
      top += length;
      return top - length;
    };
    let touching = 0;
    let twoPoints = 0;
    for (const [a, b] of all) {
      const here = new Manifold();
      collidePolygons(a, b, here);
      const there = emptyManifold();
      worker.polygons(pool, at(a), pool, at(b), there);
      expect(there.pointCount).toBe(here.pointCount);
      if (here.pointCount === 0) continue;
      touching++;
      if (here.pointCount === 2) twoPoints++;
      expect([there.nx, there.ny]).toEqual([here.nx, here.ny]);
      for (let j = 0; j < here.pointCount; j++) {
        expect([there.px[j], there.py[j], there.separation[j], there.id[j]]).toEqual([here.px[j], here.py[j], here.separation[j], here.id[j]]);
      }
    }
    // The pairs cover the routine's cases: apart, one point (vertex–vertex, corners), two (faces).
    expect(touching).toBeGreaterThan(100);
    expect(twoPoints).toBeGreaterThan(20);
    expect(touching - twoPoints).toBeGreaterThan(20);
  });

  it("the stage writes each job's slot as collideShapes and ContactStore.update do, impulses carried by feature id, whatever the split", () => {
    const rnd = mulberry32(9);
    // Polygon pairs, and circles with polygons either way round and with circles.
    const all: [Shape, Shape, number][] = pairs(9, 80).map(([a, b]) => [a, b, PAIR.POLYGONS]);
    for (let k = 0; k < 90; k++) {
      const c = new Circle({ radius: 0.2 + 0.5 * rnd() });
      c.updateWorld(1.6 * rnd() - 0.8, 1.6 * rnd() - 0.8, 1, 0);
      const other = k % 3 === 2 ? new Circle({ radius: 0.2 + 0.5 * rnd() }) : randomShape(rnd);
      if (other instanceof Circle) other.updateWorld(1.6 * rnd() - 0.8, 1.6 * rnd() - 0.8, 1, 0);
      if (k % 3 === 0) all.push([other, c, PAIR.POLYGON_CIRCLE]);
      else if (k % 3 === 1) all.push([c, other, PAIR.CIRCLE_POLYGON]);
      else all.push([c, other, PAIR.CIRCLES]);
    }
    const here = new ContactStore();
    const pool: number[] = [];
    const jobs = new Int32Array(4 * all.length);
    all.forEach(([a, b, pair], k) => {
      here.add(0.5, 0, false, 0, 0, 0, 0);
      jobs[4 * k] = k;
      jobs[4 * k + 3] = pair;
      for (const [s, at] of [[a, 1], [b, 2]] as const) {
        jobs[4 * k + at] = pool.length;
        pool.push(...s._geo.subarray(s._geoAt, s._geoAt + s.geometryLength()));
      }
    });
    // Old manifolds with impulses: ids that the new manifolds keep, or not.
    for (let q = 0; q < 2 * all.length; q++) {
      here.id[q] = rnd() < 0.5 ? 0 : 1;
      here.normalImpulse[q] = rnd();
      here.tangentImpulse[q] = rnd() - 0.5;
    }
    for (let k = 0; k < all.length; k++) here.pointCount[k] = Math.floor(rnd() * 3);
    const there = new ContactStore();
    for (let k = 0; k < all.length; k++) there.add(0.5, 0, false, 0, 0, 0, 0);
    for (const key of ['pointCount', 'id', 'normalImpulse', 'tangentImpulse'] as const) (there[key] as Float64Array).set(here[key] as Float64Array);

    const m = new Manifold();
    let carried = 0;
    let touching = 0;
    all.forEach(([a, b], k) => {
      collideShapes(a, b, m);
      here.update(k, m);
      if (here.normalImpulse[2 * k] !== 0) carried++;
      if (m.pointCount > 0) touching++;
    });
    const v = {} as StageViews;
    there.writeViews(v);
    v.geo = Float64Array.from(pool);
    v.njobs = jobs;
    const worker = fromText();
    // The calling thread's kernels take the first polygon pairs, the worker's the rest and every circle.
    COLLIDE_KERNELS.narrowphase(v, 0, 40);
    worker.narrowphase(v, 40, all.length);
    for (const key of ['pointCount', 'nx', 'ny', 'px', 'py', 'separation', 'id', 'normalImpulse', 'tangentImpulse'] as const) {
      const n = (key === 'pointCount' || key === 'nx' || key === 'ny' ? 1 : 2) * all.length;
      expect(Array.from(there[key].subarray(0, n)), key).toEqual(Array.from(here[key].subarray(0, n)));
    }
    expect(carried).toBeGreaterThan(5);
    expect(touching).toBeGreaterThan(60);
  });

  it("the stage's routine numbers are PAIR's", () => {
    const decl = /const (POLYGONS = [^;]+);/.exec(collideKernels.toString());
    expect(decl).not.toBeNull();
    const declared = new Function(`"use strict"; const ${decl![1]}; return { POLYGONS, POLYGON_CIRCLE, CIRCLE_POLYGON };`)() as Record<string, number>;
    expect(declared).toEqual({ POLYGONS: PAIR.POLYGONS, POLYGON_CIRCLE: PAIR.POLYGON_CIRCLE, CIRCLE_POLYGON: PAIR.CIRCLE_POLYGON });
    expect(PAIR.CIRCLES).toBe(3);
  });

  it('the box SAT (findMaxSeparationQuad, the specialised path) gives the general loop\'s separation and face bit for bit', () => {
    const rnd = mulberry32(17);
    let checked = 0;
    for (let t = 0; t < 500; t++) {
      const a = randomShape(rnd);
      const box = Polygon.box(0.3 + rnd(), 0.3 + rnd(), { radius: rnd() < 0.5 ? 0 : 0.02 });
      const angle = 2 * Math.PI * rnd();
      box.updateWorld(rnd() - 0.5, rnd() - 0.5, Math.cos(angle), Math.sin(angle));
      const v1 = a._geoAt + 2;
      const v2 = box._geoAt + 2;
      const args = [a._geo, v1, v1 + 2 * a.count, a.count, box._geo, v2, 4] as const;
      expect(COLLIDE_KERNELS.separation(true, ...args)).toEqual(COLLIDE_KERNELS.separation(false, ...args));
      checked++;
    }
    expect(checked).toBe(500);
  });
});
