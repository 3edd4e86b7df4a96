/**
 * BroadPhase tests: updatePairs reports exactly the brute-force set of overlapping fat-AABB
 * pairs touching the moved set, each once, ordered (userDataA < userDataB), deterministically.
 */
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../test-support/random.js';
import { AABB_MARGIN } from '../collision/manifold.js';
import { BroadPhase } from './broadphase.js';

interface Box {
  minX: number;
  minY: number;
  maxX: number;
  maxY: number;
}

const out: Box = { minX: 0, minY: 0, maxX: 0, maxY: 0 };

function fatOverlap(bp: BroadPhase, a: number, b: number): boolean {
  const fa = { ...bp.getFatAABB(a, out) };
  const fb = bp.getFatAABB(b, out);
  return !(fa.minX > fb.maxX || fa.minY > fb.maxY || fb.minX > fa.maxX || fb.minY > fa.maxY);
}

function collect(bp: BroadPhase): Array<[number, number]> {
  const pairs: Array<[number, number]> = [];
  bp.updatePairs((a, b) => pairs.push([a, b]));
  return pairs;
}

/** Brute force: pairs (by userData) overlapping where at least one proxy is in `moved`. */
function brute(bp: BroadPhase, live: number[], moved: Set<number>): string[] {
  const res: string[] = [];
  for (let i = 0; i < live.length; i++) {
    for (let j = i + 1; j < live.length; j++) {
      const a = live[i];
      const b = live[j];
      if (!moved.has(a) && !moved.has(b)) continue;
      if (!fatOverlap(bp, a, b)) continue;
      const ua = bp.getUserData(a);
      const ub = bp.getUserData(b);
      res.push(ua < ub ? `${ua}-${ub}` : `${ub}-${ua}`);
    }
  }
  return res.sort();
}

/** Runs a seeded scenario; returns every step's pair list (in reported order). */
function scenario(seed: number, check: boolean): string[] {
  const rand = mulberry32(seed);
  const bp = new BroadPhase();
  const tight = new Map<number, Box>();
  const log: string[] = [];
  let nextUser = 1000; // userData unrelated to proxy ids, and sometimes decreasing below
  const create = (moved: Set<number>): void => {
    const x = rand() * 60;
    const y = rand() * 60;
    const b = { minX: x, minY: y, maxX: x + 0.2 + rand() * 2, maxY: y + 0.2 + rand() * 2 };
    const user = rand() < 0.5 ? nextUser++ : 5000 - nextUser++;
    const id = bp.createProxy(b.minX, b.minY, b.maxX, b.maxY, user);
    tight.set(id, b);
    moved.add(id);
  };

  let moved = new Set<number>();
  for (let i = 0; i < 1000; i++) create(moved);
  for (let step = 0; step < 15; step++) {
    if (step > 0) {
      moved = new Set<number>();
      for (const id of [...tight.keys()].sort((a, b) => a - b)) {
        const r = rand();
        if (r < 0.05) {
          bp.destroyProxy(id);
          tight.delete(id);
          continue;
        }
        if (r < 0.6) continue;
        const t = tight.get(id)!;
        const s = rand() < 0.9 ? 0.3 : 10;
        const dx = (rand() - 0.5) * s;
        const dy = (rand() - 0.5) * s;
        const nb = { minX: t.minX + dx, minY: t.minY + dy, maxX: t.maxX + dx, maxY: t.maxY + dy };
        tight.set(id, nb);
        if (bp.moveProxy(id, nb.minX, nb.minY, nb.maxX, nb.maxY)) moved.add(id);
      }
      // Touch a few, including some already moved (dedup).
      for (const id of tight.keys()) {
        if (rand() < 0.01) {
          bp.touchProxy(id);
          moved.add(id);
        }
      }
      for (let i = Math.floor(rand() * 60); i > 0; i--) create(moved);
      // Destroy a few freshly moved ones: they must vanish from the move buffer.
      for (const id of [...moved].sort((a, b) => a - b)) {
        if (rand() < 0.02) {
          bp.destroyProxy(id);
          tight.delete(id);
          moved.delete(id);
        }
      }
    }
    if (check) expect(bp.getMoveCount()).toBe(moved.size);

    const live = [...tight.keys()].sort((a, b) => a - b);
    const expected = check ? brute(bp, live, moved) : [];
    const pairs = collect(bp);
    const keys = pairs.map(([a, b]) => `${a}-${b}`);
    if (check) {
      for (const [a, b] of pairs) expect(a).toBeLessThan(b);
      expect([...keys].sort()).toEqual(expected); // same set, each exactly once
      expect(bp.getMoveCount()).toBe(0);
      bp.tree.validate();
    }
    log.push(keys.join(','));
  }
  return log;
}

describe('BroadPhase', () => {
  it('updatePairs matches brute force over the moved set, each pair once', () => {
    const log = scenario(2024, true);
    expect(log.length).toBe(15);
    expect(log[0].split(',').length).toBeGreaterThan(100);
  });

  it('is deterministic: identical runs give identical pair sequences', () => {
    expect(scenario(77, false)).toEqual(scenario(77, false));
  });

  it('orders pairs by moved proxy id, then partner id', () => {
    const bp = new BroadPhase();
    // userData deliberately reversed w.r.t. proxy ids.
    const a = bp.createProxy(0, 0, 1, 1, 30);
    const b = bp.createProxy(0.5, 0, 1.5, 1, 20);
    const c = bp.createProxy(1, 0, 2, 1, 10);
    expect(a < b && b < c).toBe(true); // ids are node ids: internal nodes take some too
    expect(collect(bp)).toEqual([
      [20, 30], // a-b
      [10, 30], // a-c (fat boxes overlap)
      [10, 20], // b-c
    ]);
    expect(collect(bp)).toEqual([]); // buffer cleared
    bp.touchProxy(c);
    bp.touchProxy(c);
    expect(collect(bp)).toEqual([
      [10, 30],
      [10, 20],
    ]);
  });

  it('moveProxy inside the margin does not re-pair; beyond it does', () => {
    const bp = new BroadPhase();
    const a = bp.createProxy(0, 0, 1, 1, 1);
    bp.createProxy(3, 0, 4, 1, 2);
    expect(collect(bp)).toEqual([]);
    expect(bp.moveProxy(a, 0.05, 0, 1.05, 1)).toBe(false);
    expect(bp.getMoveCount()).toBe(0);
    expect(bp.moveProxy(a, 2, 0, 3, 1)).toBe(true);
    expect(collect(bp)).toEqual([[1, 2]]);
  });

  it('testOverlap uses the fat AABBs', () => {
    const bp = new BroadPhase();
    const a = bp.createProxy(0, 0, 1, 1, 1);
    const b = bp.createProxy(1 + 1.5 * AABB_MARGIN, 0, 2, 1, 2);
    const c = bp.createProxy(1 + 3 * AABB_MARGIN, 0, 2, 1, 3);
    expect(bp.testOverlap(a, b)).toBe(true);
    expect(bp.testOverlap(a, c)).toBe(false);
    expect(() => bp.testOverlap(a, 99)).toThrow(RangeError);
  });

  it('destroyed proxies leave the move buffer and never reach the callback', () => {
    const bp = new BroadPhase();
    const a = bp.createProxy(0, 0, 1, 1, 1);
    const b = bp.createProxy(0, 0, 1, 1, 2);
    bp.createProxy(0, 0, 1, 1, 3);
    bp.destroyProxy(b);
    expect(bp.getMoveCount()).toBe(2);
    expect(collect(bp)).toEqual([[1, 3]]);
    // The freed id is reused by a new proxy, which must be buffered normally.
    const d = bp.createProxy(0, 0, 1, 1, 4);
    expect(d).toBe(b);
    bp.destroyProxy(a);
    expect(collect(bp)).toEqual([[3, 4]]);
  });

  it('the pair callback may change proxies (queued for the next update)', () => {
    const bp = new BroadPhase();
    const ids = [0, 1, 2].map((i) => bp.createProxy(i * 0.5, 0, i * 0.5 + 1, 1, i));
    const seen: string[] = [];
    bp.updatePairs((a, b) => {
      seen.push(`${a}-${b}`);
      if (a === 0 && b === 1) {
        bp.touchProxy(ids[2]);
        bp.moveProxy(ids[0], 10, 10, 11, 11);
      }
      expect(() => bp.updatePairs(() => undefined)).toThrow();
    });
    expect(seen).toEqual(['0-1', '0-2', '1-2']);
    expect(collect(bp)).toEqual([[1, 2]]);
  });

  it('an inert proxy is never queued nor reported; un-inerting it re-pairs it', () => {
    const bp = new BroadPhase();
    const a = bp.createProxy(0, 0, 1, 1, 10);
    const b = bp.createProxy(0.5, 0.5, 1.5, 1.5, 11);
    const c = bp.createProxy(0.2, 0.2, 0.8, 0.8, 12);
    bp.setInert(b, true);
    expect(collect(bp)).toEqual([[10, 12]]);
    bp.moveProxy(b, 5, 5, 6, 6);
    bp.moveProxy(b, 0.5, 0.5, 1.5, 1.5);
    expect(bp.getMoveCount()).toBe(0);
    bp.touchProxy(a);
    expect(collect(bp)).toEqual([[10, 12]]);
    bp.setInert(b, false);
    expect(collect(bp)).toEqual([[10, 11], [11, 12]]);
    bp.destroyProxy(c);
    expect(() => bp.setInert(c, true)).toThrow(RangeError);
  });

  it('query and rayCast pass through to the tree', () => {
    const bp = new BroadPhase();
    const a = bp.createProxy(0, 0, 1, 1, 5);
    const hits: number[] = [];
    bp.query(0.5, 0.5, 0.6, 0.6, (id) => {
      hits.push(bp.getUserData(id));
      return true;
    });
    expect(hits).toEqual([5]);
    let rayHit = -1;
    bp.rayCast(-5, 0.5, 5, 0.5, 1, (id) => {
      rayHit = id;
      return 0;
    });
    expect(rayHit).toBe(a);
    expect(bp.getProxyCount()).toBe(1);
    expect(bp.getTreeHeight()).toBe(0);
  });
});
