/**
 * DynamicTree tests: seeded random insert/move/destroy checked against brute force after every
 * batch (structure via validate(), queries, ray casts), margin behaviour, height bounds for
 * sorted worst-case layouts, and determinism.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../test-support/random.js';
import { AABB_MARGIN } from '../collision/manifold.js';
import { DynamicTree } from './dynamic-tree.js';

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

function randomBox(rand: () => number, world = 100): Box {
  const x = rand() * world;
  const y = rand() * world;
  const w = 0.1 + rand() * 3;
  const h = 0.1 + rand() * 3;
  return { minX: x, minY: y, maxX: x + w, maxY: y + h };
}

function overlaps(a: Box, b: Box): boolean {
  return !(a.minX > b.maxX || a.minY > b.maxY || b.minX > a.maxX || b.minY > a.maxY);
}

/** Entry fraction of segment p1→p2 (t ∈ [0, tMax]) into box b, or -1 when it misses. */
function segmentBox(b: Box, p1x: number, p1y: number, p2x: number, p2y: number, tMax: number): number {
  let t0 = 0;
  let t1 = tMax;
  const d = [p2x - p1x, p2y - p1y];
  const p = [p1x, p1y];
  const lo = [b.minX, b.minY];
  const hi = [b.maxX, b.maxY];
  for (let k = 0; k < 2; k++) {
    if (d[k] === 0) {
      if (p[k] < lo[k] || p[k] > hi[k]) return -1;
    } else {
      let ta = (lo[k] - p[k]) / d[k];
      let tb = (hi[k] - p[k]) / d[k];
      if (ta > tb) [ta, tb] = [tb, ta];
      t0 = Math.max(t0, ta);
      t1 = Math.min(t1, tb);
      if (t0 > t1) return -1;
    }
  }
  return t0;
}

function fatOf(tree: DynamicTree, id: number): Box {
  return tree.getFatAABB(id, { minX: 0, minY: 0, maxX: 0, maxY: 0 });
}

function queryIds(tree: DynamicTree, b: Box): number[] {
  const out: number[] = [];
  tree.query(b.minX, b.minY, b.maxX, b.maxY, (id) => {
    out.push(id);
    return true;
  });
  return out.sort((x, y) => x - y);
}

function bruteQuery(fat: Map<number, Box>, b: Box): number[] {
  const out: number[] = [];
  for (const [id, f] of fat) if (overlaps(f, b)) out.push(id);
  return out.sort((x, y) => x - y);
}

/** Boxes of a pyramid with `n` unit boxes, listed bottom row first, left to right. */
function pyramid(n: number): Box[] {
  const boxes: Box[] = [];
  let base = 1;
  while ((base * (base + 1)) / 2 < n) base++;
  for (let row = 0; row < base && boxes.length < n; row++) {
    for (let i = 0; i < base - row && boxes.length < n; i++) {
      const x = i * 1.0 + row * 0.5;
      const y = row * 1.0;
      boxes.push({ minX: x, minY: y, maxX: x + 1, maxY: y + 1 });
    }
  }
  return boxes;
}

function heightFor(boxes: Box[]): number {
  const tree = new DynamicTree();
  boxes.forEach((b, i) => tree.createProxy(b.minX, b.minY, b.maxX, b.maxY, i));
  tree.validate();
  return tree.getHeight();
}

describe('DynamicTree', () => {
  it('stores fat AABBs and user data', () => {
    const tree = new DynamicTree();
    const id = tree.createProxy(1, 2, 3, 4, 77);
    expect(tree.getUserData(id)).toBe(77);
    const f = fatOf(tree, id);
    expect(f.minX).toBeCloseTo(1 - AABB_MARGIN, 15);
    expect(f.minY).toBeCloseTo(2 - AABB_MARGIN, 15);
    expect(f.maxX).toBeCloseTo(3 + AABB_MARGIN, 15);
    expect(f.maxY).toBeCloseTo(4 + AABB_MARGIN, 15);
    expect(tree.minX[id]).toBe(f.minX);
    expect(tree.getProxyCount()).toBe(1);
    expect(tree.getHeight()).toBe(0);
    tree.destroyProxy(id);
    expect(tree.getProxyCount()).toBe(0);
    tree.validate();
  });

  it('rejects dead ids and invalid boxes', () => {
    const tree = new DynamicTree();
    const a = tree.createProxy(0, 0, 1, 1, 0);
    tree.createProxy(2, 0, 3, 1, 1); // makes an internal node exist
    expect(() => tree.destroyProxy(99)).toThrow(RangeError);
    expect(() => tree.destroyProxy(2)).toThrow(RangeError); // internal node, not a proxy
    expect(() => tree.createProxy(1, 0, 0, 1, 2)).toThrow(RangeError);
    expect(() => tree.createProxy(NaN, 0, 1, 1, 2)).toThrow(RangeError);
    expect(() => tree.moveProxy(a, 0, 0, Infinity, 1)).toThrow(RangeError);
    tree.destroyProxy(a);
    expect(() => tree.destroyProxy(a)).toThrow(RangeError);
    expect(() => tree.getUserData(a)).toThrow(RangeError);
    tree.validate();
  });

  it('moveProxyBox takes moveProxy\'s numbers from an array and does the same', () => {
    const t1 = new DynamicTree();
    const t2 = new DynamicTree();
    const a = t1.createProxy(0, 0, 1, 1, 0);
    const b = t2.createProxy(0, 0, 1, 1, 0);
    const moves = [
      [0.05, 0, 1.05, 1, 0, 0],
      [3, 1, 4, 2, 0.5, -0.25],
      [3.1, 1, 4.1, 2, 0, 0],
    ];
    for (const m of moves) {
      const [minX, minY, maxX, maxY, dx, dy] = m as [number, number, number, number, number, number];
      expect(t2.moveProxyBox(b, Float64Array.from(m))).toBe(t1.moveProxy(a, minX, minY, maxX, maxY, dx, dy));
      expect(fatOf(t2, b)).toEqual(fatOf(t1, a));
    }
    expect(() => t2.moveProxyBox(b, Float64Array.of(0, 0, NaN, 1, 0, 0))).toThrow(RangeError);
  });

  it('moveProxy returns false inside the margin and true beyond it', () => {
    const tree = new DynamicTree();
    const id = tree.createProxy(0, 0, 1, 1, 0);
    const small = AABB_MARGIN * 0.9;
    expect(tree.moveProxy(id, small, -small, 1 + small, 1 - small)).toBe(false);
    expect(fatOf(tree, id).minX).toBe(-AABB_MARGIN);
    const big = AABB_MARGIN * 1.5;
    expect(tree.moveProxy(id, big, 0, 1 + big, 1)).toBe(true);
    expect(fatOf(tree, id).minX).toBeCloseTo(big - AABB_MARGIN, 15);
    // Predictive enlargement along the displacement.
    expect(tree.moveProxy(id, 5, 0, 6, 1, 2, -1)).toBe(true);
    const f = fatOf(tree, id);
    expect(f.maxX).toBeCloseTo(6 + AABB_MARGIN + 2, 12);
    expect(f.minY).toBeCloseTo(-AABB_MARGIN - 1, 12);
    expect(f.minX).toBeCloseTo(5 - AABB_MARGIN, 12);
    // Still enclosed but the stored box is oversized (body stopped): shrink.
    expect(tree.moveProxy(id, 5, 0, 6, 1)).toBe(true);
    expect(fatOf(tree, id).maxX).toBeCloseTo(6 + AABB_MARGIN, 12);
    // Enclosed and only slightly oversized: kept.
    expect(tree.moveProxy(id, 5.2, 0, 6.2, 1, 0.3, 0)).toBe(true);
    expect(tree.moveProxy(id, 5.2, 0, 6.2, 1)).toBe(false);
    expect(fatOf(tree, id).maxX).toBeCloseTo(6.2 + AABB_MARGIN + 0.3, 12);
    tree.validate();
  });

  it.each([false, true])('random insert/move/destroy of 1000 proxies matches brute force (refitInPlace %s)', (refit) => {
    const rand = mulberry32(12345);
    const tree = new DynamicTree();
    const fat = new Map<number, Box>();
    const tight = new Map<number, Box>();
    let nextUser = 0;
    const live = (): number[] => [...fat.keys()].sort((a, b) => a - b);

    for (let i = 0; i < 1000; i++) {
      const b = randomBox(rand);
      const id = tree.createProxy(b.minX, b.minY, b.maxX, b.maxY, nextUser++);
      tight.set(id, b);
      fat.set(id, fatOf(tree, id));
      if (i % 100 === 99) tree.validate();
    }
    expect(tree.getProxyCount()).toBe(1000);

    for (let batch = 0; batch < 20; batch++) {
      // Moves: mostly small jitters, some teleports.
      for (const id of live()) {
        if (rand() < 0.5) continue;
        const t = tight.get(id)!;
        const s = rand() < 0.9 ? 0.15 : 20;
        const dx = (rand() - 0.5) * s;
        const dy = (rand() - 0.5) * s;
        const nb = { minX: t.minX + dx, minY: t.minY + dy, maxX: t.maxX + dx, maxY: t.maxY + dy };
        const old = fat.get(id)!;
        const inside = old.minX <= nb.minX && old.minY <= nb.minY && nb.maxX <= old.maxX && nb.maxY <= old.maxY;
        const moved = tree.moveProxy(id, nb.minX, nb.minY, nb.maxX, nb.maxY, 0, 0, refit);
        expect(moved).toBe(!inside);
        tight.set(id, nb);
        fat.set(id, fatOf(tree, id));
        const f = fat.get(id)!;
        expect(f.minX <= nb.minX && f.minY <= nb.minY && nb.maxX <= f.maxX && nb.maxY <= f.maxY).toBe(true);
      }
      // Destroy ~10%, create ~10%.
      for (const id of live()) {
        if (rand() < 0.1) {
          tree.destroyProxy(id);
          fat.delete(id);
          tight.delete(id);
        }
      }
      const creates = Math.floor(rand() * 150);
      for (let i = 0; i < creates; i++) {
        const b = randomBox(rand);
        const id = tree.createProxy(b.minX, b.minY, b.maxX, b.maxY, nextUser++);
        expect(fat.has(id)).toBe(false);
        tight.set(id, b);
        fat.set(id, fatOf(tree, id));
      }
      tree.validate();
      expect(tree.getProxyCount()).toBe(fat.size);
      expect(tree.getHeight()).toBeLessThanOrEqual(2.5 * Math.log2(fat.size) + 4);

      for (let q = 0; q < 20; q++) {
        const b = randomBox(rand);
        b.maxX += rand() * 10;
        b.maxY += rand() * 10;
        expect(queryIds(tree, b)).toEqual(bruteQuery(fat, b));
      }

      // Ray casts: the full hit set, then closest-hit clipping.
      for (let r = 0; r < 10; r++) {
        const p1x = rand() * 100;
        const p1y = rand() * 100;
        const p2x = rand() * 100;
        const p2y = rand() * 100;
        const maxF = 0.3 + rand();
        const expected: number[] = [];
        let closestT = Infinity;
        let closestId = -1;
        for (const [id, f] of fat) {
          const t = segmentBox(f, p1x, p1y, p2x, p2y, maxF);
          if (t >= 0) {
            expected.push(id);
            if (t < closestT) {
              closestT = t;
              closestId = id;
            }
          }
        }
        expected.sort((a, b) => a - b);

        const got: number[] = [];
        tree.rayCast(p1x, p1y, p2x, p2y, maxF, (id, ax, ay, bx, by, mf) => {
          expect([ax, ay, bx, by, mf]).toEqual([p1x, p1y, p2x, p2y, maxF]);
          got.push(id);
          return mf; // keep going unclipped
        });
        got.sort((a, b) => a - b);
        expect(got).toEqual(expected);

        let best = -1;
        let bestT = Infinity;
        let calls = 0;
        tree.rayCast(p1x, p1y, p2x, p2y, maxF, (id, ax, ay, bx, by, mf) => {
          calls++;
          const t = segmentBox(fat.get(id)!, ax, ay, bx, by, mf);
          if (t < 0) return -1;
          if (t < bestT) {
            bestT = t;
            best = id;
          }
          return t;
        });
        // Ties (e.g. p1 inside several boxes, t = 0) may pick any of the tied boxes.
        expect(best >= 0).toBe(closestId >= 0);
        if (closestId >= 0) {
          expect(bestT).toBe(closestT);
          expect(segmentBox(fat.get(best)!, p1x, p1y, p2x, p2y, maxF)).toBe(closestT);
        }
        expect(calls).toBeLessThanOrEqual(expected.length);
      }
    }
  });

  it('rayCast: 0 terminates, -1 ignores, positive clips', () => {
    const tree = new DynamicTree();
    for (let i = 0; i < 10; i++) tree.createProxy(i * 2, 0, i * 2 + 1, 1, i);
    let calls = 0;
    tree.rayCast(-1, 0.5, 30, 0.5, 1, () => {
      calls++;
      return 0;
    });
    expect(calls).toBe(1);
    const seen: number[] = [];
    tree.rayCast(-1, 0.5, 30, 0.5, 1, (id) => {
      seen.push(tree.getUserData(id));
      return -1;
    });
    expect(seen.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    // Clip at x = 7.5 (fraction 8.5/31): boxes starting beyond are never reported.
    const clipped: number[] = [];
    tree.rayCast(-1, 0.5, 30, 0.5, 1, (id, _ax, _ay, _bx, _by, mf) => {
      clipped.push(tree.getUserData(id));
      return Math.min(mf, 8.5 / 31);
    });
    for (const u of clipped) expect(u * 2 - AABB_MARGIN).toBeLessThanOrEqual(7.5);
    // A degenerate segment is a point test.
    const pt: number[] = [];
    tree.rayCast(4.5, 0.5, 4.5, 0.5, 1, (id) => {
      pt.push(tree.getUserData(id));
      return 1;
    });
    expect(pt).toEqual([2]);
  });

  it('supports nested queries from a callback', () => {
    const rand = mulberry32(7);
    const tree = new DynamicTree();
    const fat = new Map<number, Box>();
    for (let i = 0; i < 300; i++) {
      const b = randomBox(rand, 30);
      const id = tree.createProxy(b.minX, b.minY, b.maxX, b.maxY, i);
      fat.set(id, fatOf(tree, id));
    }
    let pairs = 0;
    tree.query(0, 0, 30, 30, (a) => {
      const f = fat.get(a)!;
      const inner = queryIds(tree, f);
      expect(inner).toEqual(bruteQuery(fat, f));
      pairs += inner.length;
      return true;
    });
    expect(pairs).toBeGreaterThan(300);
    // Early stop.
    let n = 0;
    tree.query(-1e9, -1e9, 1e9, 1e9, () => ++n < 5);
    expect(n).toBe(5);
  });

  it('keeps the height logarithmic for sorted insertion (row and pyramid)', () => {
    const row: Box[] = [];
    for (let i = 0; i < 1000; i++) row.push({ minX: i, minY: 0, maxX: i + 1, maxY: 1 });
    const hRow = heightFor(row);
    const h1000 = heightFor(pyramid(1000));
    const h5000 = heightFor(pyramid(5000));
    const bound = (n: number): number => 2.5 * Math.log2(n) + 4;
    console.log(`tree height: row 1000 = ${hRow}, pyramid 1000 = ${h1000}, pyramid 5000 = ${h5000}`);
    expect(hRow).toBeLessThanOrEqual(bound(1000));
    expect(h1000).toBeLessThanOrEqual(bound(1000));
    expect(h5000).toBeLessThanOrEqual(bound(5000));
    // Reverse order too.
    expect(heightFor(row.slice().reverse())).toBeLessThanOrEqual(bound(1000));
    expect(heightFor(pyramid(5000).reverse())).toBeLessThanOrEqual(bound(5000));
  });

  it('is deterministic: the same operations give the same tree', () => {
    const run = (): string => {
      const rand = mulberry32(99);
      const tree = new DynamicTree();
      const ids: number[] = [];
      for (let i = 0; i < 500; i++) {
        const b = randomBox(rand);
        ids.push(tree.createProxy(b.minX, b.minY, b.maxX, b.maxY, i));
      }
      for (let k = 0; k < 5; k++) {
        for (const id of ids) {
          if (!tree.isProxy(id)) continue;
          const b = randomBox(rand);
          if (rand() < 0.05) tree.destroyProxy(id);
          else tree.moveProxy(id, b.minX, b.minY, b.maxX, b.maxY);
        }
      }
      const parts: number[] = [tree.getRoot(), tree.getHeight()];
      for (let i = 0; i < 1200; i++) {
        if (!tree.isProxy(i)) continue;
        parts.push(i, tree.minX[i], tree.maxY[i], tree.getUserData(i));
      }
      tree.query(-1e9, -1e9, 1e9, 1e9, (id) => {
        parts.push(id);
        return true;
      });
      return parts.join(',');
    };
    expect(run()).toBe(run());
  });
});
