import { describe, expect, it } from 'vitest';
import { FULCRUM_REFERENCE, pairedRatios, sweepOrder } from './sweep.mjs';

const key = (p) => `${p.scene}/${p.engine}`;

describe('sweepOrder', () => {
  it("runs each Fulcrum-only scene right after its reference's Fulcrum pair, and every pair once", () => {
    const scenes = ['A', 'C', 'E', 'F', 'G', 'H', 'I'];
    const engines = ['fulcrum', 'planck', 'rapier'];
    const order = sweepOrder(scenes, engines).map(key);
    expect(order.slice(order.indexOf('C/fulcrum'), order.indexOf('C/fulcrum') + 4)).toEqual(['C/fulcrum', 'E/fulcrum', 'F/fulcrum', 'I/fulcrum']);
    expect(order.slice(order.indexOf('G/fulcrum'), order.indexOf('G/fulcrum') + 2)).toEqual(['G/fulcrum', 'H/fulcrum']);
    expect(new Set(order).size).toBe(order.length);
    // A, C with three engines; E, F, I, G, H Fulcrum only
    expect(order).toHaveLength(2 * 3 + 5);
  });

  it('runs J-user and J-sym after J, K-user and K-sym after K', () => {
    const order = sweepOrder(['C', 'J', 'J-user', 'J-sym', 'K', 'K-user', 'K-sym'], ['fulcrum', 'rapier']).map(key);
    expect(order).toEqual(['C/fulcrum', 'C/rapier', 'J/fulcrum', 'J-user/fulcrum', 'J-sym/fulcrum', 'K/fulcrum', 'K-user/fulcrum', 'K-sym/fulcrum']);
    expect(FULCRUM_REFERENCE['J-sym']).toBe('J');
    expect(FULCRUM_REFERENCE['K-user']).toBe('K');
  });

  it('keeps a Fulcrum-only scene whose reference is not in the sweep', () => {
    expect(sweepOrder(['E', 'A'], ['fulcrum', 'matter']).map(key)).toEqual(['E/fulcrum', 'A/fulcrum', 'A/matter']);
  });
});

describe('pairedRatios', () => {
  const runs = (...ms) => ms.map((m) => (m === null ? { status: 'failed' } : { status: 'ok', medianMs: m }));
  it('divides run by run within each repetition, skipping a repetition where either failed', () => {
    const results = [
      { scene: 'C', engine: 'fulcrum', runs: runs(10, 6, 12) },
      { scene: 'E', engine: 'fulcrum', runs: runs(17, 10.2, null) },
      { scene: 'C', engine: 'rapier', runs: runs(1, 1, 1) },
    ];
    const r = pairedRatios(results);
    expect(Object.keys(r)).toEqual(['E']);
    expect(r.E.reference).toBe(FULCRUM_REFERENCE.E);
    expect(r.E.perRepetition).toEqual([1.7, 1.7]);
    expect(r.E.median).toBeCloseTo(1.7, 12);
    // The ratio of the medians (13.6 / 10) would be 1.36: a slow C repetition beside a fast E one.
    expect(r.E.min).toBeCloseTo(1.7, 12);
  });
});
