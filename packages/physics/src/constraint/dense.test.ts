/** The scalarised 1×1 and 2×2 solves give exactly what the general LDLᵀ gives, singular cases included. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runInNewContext } from 'node:vm';
import { DEPENDENT_ROW_EPS, ZERO_PIVOT_EPS, factorSymmetric, inverseDet2, pivotInverse, rowPivot, zeroPivotTolerance, singularPivot1, singularPivot2, solveFactored, solveSymmetric, solveSymmetricLDL } from './dense.js';

const num = fc.double({ min: -10, max: 10, noNaN: true });

function both(K: number[], b: number[]): [number[], number[]] {
  const n = b.length;
  const k1 = Float64Array.from(K), b1 = Float64Array.from(b);
  const k2 = Float64Array.from(K), b2 = Float64Array.from(b);
  solveSymmetric(k1, b1, n);
  solveSymmetricLDL(k2, b2, n);
  return [Array.from(b1), Array.from(b2)];
}

describe('solveSymmetric', () => {
  it('2×2 fast path is bitwise the general solve (PSD matrices J Jᵀ, rank 0, 1 or 2)', () => {
    fc.assert(
      fc.property(fc.array(num, { minLength: 6, maxLength: 6 }), fc.integer({ min: 0, max: 2 }), num, num, (j, rank, b0, b1) => {
        // rows of J (2 × 3); zero some to make K singular
        const r0 = rank >= 1 ? j.slice(0, 3) : [0, 0, 0];
        const r1 = rank >= 2 ? j.slice(3) : rank === 1 ? r0.map((x) => 2 * x) : [0, 0, 0];
        const dot = (a: number[], c: number[]) => a[0]! * c[0]! + a[1]! * c[1]! + a[2]! * c[2]!;
        const K = [dot(r0, r0), dot(r0, r1), dot(r1, r0), dot(r1, r1)];
        const [fast, general] = both(K, [b0, b1]);
        expect(fast.map((x) => Object.is(x, 0) ? 0 : x)).toEqual(general.map((x) => Object.is(x, 0) ? 0 : x));
      }),
      { numRuns: 2000, seed: 7 },
    );
  });
  it('1×1 fast path is the general solve, and a zero pivot gives 0', () => {
    expect(both([4], [2])).toEqual([[0.5], [0.5]]);
    expect(both([0], [3])).toEqual([[0], [0]]);
    fc.assert(fc.property(num, num, (k, b) => {
      const [f, g] = both([Math.abs(k)], [b]);
      expect(f[0]! + 0).toBe(g[0]! + 0);
    }), { numRuns: 500, seed: 3 });
  });
  it('solves a well-conditioned 2×2 system', () => {
    const K = Float64Array.from([4, 1, 1, 3]);
    const b = Float64Array.from([1, 2]);
    solveSymmetric(K, b, 2);
    expect(4 * b[0]! + b[1]!).toBeCloseTo(1, 12);
    expect(b[0]! + 3 * b[1]!).toBeCloseTo(2, 12);
  });
});

describe('factorSymmetric + solveFactored', () => {
  it('agree with solveSymmetric to round-off for n = 1…5, singular K included', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 5 }), fc.integer({ min: 0, max: 5 }), fc.array(num, { minLength: 5 * 9 + 5, maxLength: 5 * 9 + 5 }), (n, rankCap, xs) => {
        const m = 9; // J is n × 9 (three bodies)
        const J = xs.slice(0, n * m).map((x, i) => (Math.floor(i / m) < rankCap ? x : 0));
        const K = new Float64Array(n * n);
        for (let a = 0; a < n; a++) for (let c = 0; c < n; c++) for (let k = 0; k < m; k++) K[a * n + c]! += J[a * m + k]! * J[c * m + k]!;
        const b = xs.slice(n * m, n * m + n);
        const ref = Float64Array.from(b);
        solveSymmetric(Float64Array.from(K), ref, n);
        const L = Float64Array.from(K);
        const dinv = new Float64Array(n);
        factorSymmetric(L, n, dinv);
        const got = Float64Array.from(b);
        solveFactored(L, dinv, got, n);
        const size = Math.max(1, ...Array.from(ref, Math.abs));
        for (let i = 0; i < n; i++) expect(Math.abs(got[i]! - ref[i]!)).toBeLessThan(1e-9 * size);
      }),
      { numRuns: 1500, seed: 11 },
    );
  });
});

describe('singularPivot1/2 (a 2×2 K that inverseDet2 finds singular)', () => {
  it('solve it as LDLᵀ with the zero-pivot rule does (solveSymmetric, to round-off), for rank 0 and 1', () => {
    const cases: [number, number][] = [[0.6, 0.8], [1, 0], [0, 1], [3, -4], [1e-7, 2]];
    for (const [ux, uy] of cases) {
      for (const k of [0, 0.3, 57]) {
        // K = k u uᵀ: rank 1 (rank 0 for k = 0), both diagonals non-zero when u has both components.
        const k11 = k * ux * ux, k12 = k * ux * uy, k22 = k * uy * uy;
        expect(inverseDet2(k11, k12, k22)).toBe(0);
        const b = [0.7 * ux, 0.7 * uy];
        const x = Float64Array.from(b);
        solveSymmetric(Float64Array.of(k11, k12, k12, k22), x, 2);
        const mine = [b[0]! * singularPivot1(k11, k22), b[1]! * singularPivot2(k11, k22)];
        for (let i = 0; i < 2; i++) expect(Math.abs(mine[i]! - x[i]!), `u (${ux}, ${uy}), k ${k}, row ${i}`).toBeLessThanOrEqual(1e-15 * Math.abs(x[i]!));
        // A consistent right-hand side is solved: K x = b.
        if (k > 0) {
          expect(k11 * x[0]! + k12 * x[1]!).toBeCloseTo(b[0]!, 12);
          expect(k12 * x[0]! + k22 * x[1]!).toBeCloseTo(b[1]!, 12);
        }
      }
    }
  });
});

describe('the dependent-row rule', () => {
  // Rows 0 and 2 differ by 1e-5 of their length: row 2's pivot is about 1e-10 of its diagonal,
  // above the block-scale tolerance (1e-12 of the largest diagonal) and within DEPENDENT_ROW_EPS.
  // Inverted, it gave an impulse of ~1e9 that Jᵀ all but cancels.
  const J = [
    [1, 0, 0.3],
    [0, 1, 0],
    [1, 0, 0.3 + 1e-5],
  ];
  const K = new Float64Array(9);
  for (let a = 0; a < 3; a++) for (let b = 0; b < 3; b++) K[a * 3 + b] = J[a]!.reduce((s, x, c) => s + x * J[b]![c]!, 0);
  const b = new Float64Array([0.5, 2, 0.4]);

  it('gives a row that the earlier rows explain to DEPENDENT_ROW_EPS no impulse, in every factorisation', () => {
    const x = Float64Array.from(b);
    solveSymmetricLDL(Float64Array.from(K), x, 3);
    expect(x[2]).toBe(0);
    // The other rows solve their own block exactly.
    expect(x[0]! * K[0]! + x[1]! * K[1]!).toBeCloseTo(b[0]!, 12);
    expect(x[0]! * K[3]! + x[1]! * K[4]!).toBeCloseTo(b[1]!, 12);
    const L = Float64Array.from(K);
    const dinv = new Float64Array(3);
    factorSymmetric(L, 3, dinv);
    expect(dinv[2]).toBe(0);
    const y = Float64Array.from(b);
    solveFactored(L, dinv, y, 3);
    expect(Array.from(y, (v) => v + 0)).toEqual(Array.from(x, (v) => v + 0));
  });

  it('and the 2 × 2 paths agree: a second pivot within DEPENDENT_ROW_EPS of its diagonal is zero, one just above is not', () => {
    for (const [rel, zero] of [[0.1 * DEPENDENT_ROW_EPS, true], [10 * DEPENDENT_ROW_EPS, false]] as const) {
      // k22 − k12²/k11 = rel·k22 with k11 = 1, k22 = 4.
      const k11 = 1, k22 = 4, k12 = Math.sqrt(k22 * (1 - rel));
      const x = new Float64Array([1, 1]);
      solveSymmetric(new Float64Array([k11, k12, k12, k22]), x, 2);
      expect(x[1] === 0, `solve2 at ${rel}`).toBe(zero);
      expect(inverseDet2(k11, k12, k22) === 0, `inverseDet2 at ${rel}`).toBe(zero);
      const dinv = new Float64Array(2);
      factorSymmetric(new Float64Array([k11, k12, k12, k22]), 2, dinv);
      expect(dinv[1] === 0, `factorSymmetric at ${rel}`).toBe(zero);
    }
  });
});

describe('the zero-pivot and dependent-row rules, written out where they must stand alone', () => {
  it('keep ZERO_PIVOT_EPS and DEPENDENT_ROW_EPS, and run from their text alone (a worker has nothing else)', () => {
    const alone = <F>(f: F): F => runInNewContext(`"use strict"; (${String(f)})`, { Math, Float64Array }) as F;
    for (const z of [zeroPivotTolerance, alone(zeroPivotTolerance)]) {
      expect(z(3)).toBe(ZERO_PIVOT_EPS * 3);
      expect(z(0)).toBe(ZERO_PIVOT_EPS);
    }
    for (const r of [rowPivot, alone(rowPivot)]) {
      expect(r(DEPENDENT_ROW_EPS * 2 * 1.000001, 2)).toBe(DEPENDENT_ROW_EPS * 2 * 1.000001);
      expect(r(DEPENDENT_ROW_EPS * 2, 2)).toBe(0);
      expect(r(Number.NaN, 2)).toBe(0);
    }
    for (const p of [pivotInverse, alone(pivotInverse)]) {
      expect(p(ZERO_PIVOT_EPS * 5 * 1.000001, 5)).toBe(1 / (ZERO_PIVOT_EPS * 5 * 1.000001));
      expect(p(ZERO_PIVOT_EPS * 5, 5)).toBe(0);
    }
    // factorSymmetric alone is bitwise the module's, around both thresholds.
    const f = alone(factorSymmetric);
    for (const k22 of [1, 1 + 1e-10, 1 + 2e-9, 1e-13, 1e-11]) {
      const K = [1, 1, 0.5, 1, k22, 0.2, 0.5, 0.2, 3];
      const a = Float64Array.from(K), b = Float64Array.from(K);
      const da = new Float64Array(3), db = new Float64Array(3);
      factorSymmetric(a, 3, da);
      f(b, 3, db);
      expect([...b, ...db]).toEqual([...a, ...da]);
    }
  });
});
