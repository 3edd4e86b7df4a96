import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import * as L from './pivot-rows.js';
import { DEPENDENT_ROW_EPS, pivotInverse } from './dense.js';
import { MAX_POSITION_TURN } from './position-step.js';
import { SMALL_TURN } from '../space/solver-bodies.js';
import { mulberry32 } from '../test-support/random.js';
import { PIVOT_KERNEL_PARTS, PIVOT_KERNELS, pivotKernels } from './pivot-kernels.js';

/** The kernels rebuilt from the factory's text and its parts' alone, in a context with nothing else (as a worker builds them). */
function fromText(): ReturnType<typeof pivotKernels> {
  const text = `"use strict"; (${pivotKernels.toString()})(${PIVOT_KERNEL_PARTS.map((f) => `(${f.toString()})`).join(', ')})`;
  return runInNewContext(text, { Float64Array, Math }) as ReturnType<typeof pivotKernels>;
}

/** A part rebuilt from its text alone: a reference to anything outside it throws. */
function partFromText<F extends (...args: never[]) => unknown>(f: F): F {
  return runInNewContext(`"use strict"; (${f.toString()})`, { Math }) as F;
}

/** The layout constants a kernel declares, evaluated from its text. */
function declaredLayout(f: (...args: never[]) => unknown): Record<string, number> {
  const decl = /const (HOT = [^;]+);/.exec(f.toString());
  expect(decl, 'the kernel declares its layout').not.toBeNull();
  return new Function(`"use strict"; const ${decl![1]}; return { ${decl![1]!.split(',').map((d) => d.split('=')[0]!.trim()).join(', ')} };`)() as Record<string, number>;
}

/** Rows of random numbers over random bodies (index 0 the static stand-in, at rest), some of them singular. */
function problem(seed: number) {
  const rnd = mulberry32(seed);
  const rows = 60;
  const bodies = 20;
  const d = new Float64Array(rows * L.HOT).map(() => rnd() * 2 - 1);
  const ends = new Int32Array(rows * 2);
  const soft = new Uint8Array(rows);
  for (let n = 0; n < rows; n++) {
    ends[2 * n] = Math.floor(rnd() * bodies);
    ends[2 * n + 1] = Math.floor(rnd() * bodies);
    const o = n * L.HOT;
    // Masses and inertias are not negative; a quarter of the rows cannot move along some direction.
    for (const k of [L.M_A, L.M_B, L.I_A, L.I_B]) d[o + k] = rnd() < 0.25 ? 0 : Math.abs(d[o + k]!);
    soft[n] = rnd() < 0.2 ? 1 : 0;
  }
  const body = () => new Float64Array(bodies).map((_, i) => (i === 0 ? 0 : rnd() * 2 - 1));
  // Large turns too, so that the position pass limits some (limitTurn) and turns some by trigonometry.
  const dq = body().map((x) => 3 * x);
  const cold = new Float64Array(rows * L.COLD).map(() => rnd() * 2 - 1);
  return { d, cold, kept: new Float64Array(rows * 6), ends, soft, vx: body(), vy: body(), w: body(), dpx: body(), dpy: body(), dq, dqc: dq.map(Math.cos), dqs: dq.map(Math.sin) };
}

const bits = (...arrays: Float64Array[]) => arrays.map((a) => Array.from(new Uint32Array(a.slice().buffer)));

describe('pivot kernels', () => {
  it("declare pivot-rows.ts's layout", () => {
    for (const f of [PIVOT_KERNELS.warmStart, PIVOT_KERNELS.solveStiff, PIVOT_KERNELS.position, PIVOT_KERNELS.refresh]) {
      for (const [name, value] of Object.entries(declaredLayout(f))) expect([name, value]).toEqual([name, L[name as keyof typeof L]]);
    }
  });

  it("run from their factory's text and its parts' alone (a worker has nothing else), bitwise as the calling thread's", () => {
    const k = fromText();
    for (let seed = 1; seed <= 20; seed++) {
      const a = problem(seed);
      const b = problem(seed);
      for (const [x, run] of [[a, PIVOT_KERNELS], [b, k]] as const) {
        run.refresh(x.d, x.cold, x.kept, x.ends, x.dqc, x.dqs, x.dpx, x.dpy, 0, 60);
        run.warmStart(x.d, x.cold, x.ends, x.vx, x.vy, x.w, x.dqc, x.dqs, 0, 60, seed % 2 === 0);
        run.solveStiff(x.d, x.ends, x.vx, x.vy, x.w, x.dqc, x.dqs, 0, 60);
        run.position(x.d, x.cold, x.ends, x.soft, x.dpx, x.dpy, x.dq, x.dqc, x.dqs, 0, 60, seed % 3 === 0);
      }
      expect(bits(b.kept)).toEqual(bits(a.kept));
      expect(bits(b.d, b.cold, b.vx, b.vy, b.w, b.dpx, b.dpy, b.dq, b.dqc, b.dqs)).toEqual(bits(a.d, a.cold, a.vx, a.vy, a.w, a.dpx, a.dpy, a.dq, a.dqc, a.dqs));
    }
  });

  it('solve a range as the same rows solved with the rest: [0, n) is [0, m) then [m, n)', () => {
    const a = problem(7);
    const b = problem(7);
    PIVOT_KERNELS.solveStiff(a.d, a.ends, a.vx, a.vy, a.w, a.dqc, a.dqs, 0, 60);
    PIVOT_KERNELS.position(a.d, a.cold, a.ends, a.soft, a.dpx, a.dpy, a.dq, a.dqc, a.dqs, 0, 60, true);
    PIVOT_KERNELS.solveStiff(b.d, b.ends, b.vx, b.vy, b.w, b.dqc, b.dqs, 0, 23);
    PIVOT_KERNELS.solveStiff(b.d, b.ends, b.vx, b.vy, b.w, b.dqc, b.dqs, 23, 60);
    PIVOT_KERNELS.position(b.d, b.cold, b.ends, b.soft, b.dpx, b.dpy, b.dq, b.dqc, b.dqs, 0, 31, true);
    PIVOT_KERNELS.position(b.d, b.cold, b.ends, b.soft, b.dpx, b.dpy, b.dq, b.dqc, b.dqs, 31, 60, true);
    expect(bits(b.d, b.cold, b.vx, b.dpx, b.dq)).toEqual(bits(a.d, a.cold, a.vx, a.dpx, a.dq));
    // Rows the range leaves out are untouched.
    const c = problem(7);
    const before = c.d.slice();
    PIVOT_KERNELS.solveStiff(c.d, c.ends, c.vx, c.vy, c.w, c.dqc, c.dqs, 10, 20);
    for (let n = 0; n < 60; n++) {
      if (n >= 10 && n < 20) continue;
      expect(Array.from(c.d.subarray(n * L.HOT, (n + 1) * L.HOT))).toEqual(Array.from(before.subarray(n * L.HOT, (n + 1) * L.HOT)));
    }
  });
});

describe("the kernels' parts stand alone, with the rules their module constants state", () => {
  const [inverseDet2, singularPivot1, singularPivot2, limitTurn, turnBody] = PIVOT_KERNEL_PARTS.map(partFromText) as unknown as typeof PIVOT_KERNEL_PARTS;
  const rnd = mulberry32(11);
  // Ordinary values, zeros, tiny and huge ones, and values at the rules' edges.
  const values = [0, 1, -1, 1e-13, 1e-12, 1e-11, 1e300, Infinity, ...Array.from({ length: 60 }, () => (rnd() * 2 - 1) * 10 ** Math.floor(rnd() * 8 - 4))];

  it('inverseDet2: 1/det unless det ≤ DEPENDENT_ROW_EPS·k11·k22 or det ≤ 0', () => {
    for (const k11 of values) {
      for (const k22 of values) {
        for (const f of [0, 0.5, 1, 1 - DEPENDENT_ROW_EPS / 2, 1 - 2 * DEPENDENT_ROW_EPS]) {
          // k12 chosen so that det/(k11·k22) = 1 − f², either side of the rule's edge.
          const k12 = f * Math.sqrt(Math.abs(k11 * k22));
          const det = k11 * k22 - k12 * k12;
          const expected = det > DEPENDENT_ROW_EPS * k11 * k22 && det > 0 ? 1 / det : 0;
          expect(inverseDet2(k11, k12, k22)).toBe(expected);
        }
      }
    }
  });

  it('singularPivot1 and singularPivot2: the zero-pivot rule of pivotInverse, written out', () => {
    for (const k11 of values) {
      for (const k22 of values) {
        const scale = Math.max(k11, k22);
        expect(singularPivot1(k11, k22)).toBe(pivotInverse(k11, scale));
        expect(singularPivot2(k11, k22)).toBe(pivotInverse(k11, scale) !== 0 ? 0 : pivotInverse(k22, scale));
      }
    }
  });

  it('limitTurn: at most MAX_POSITION_TURN', () => {
    for (const turn of values) {
      const a = Math.abs(turn);
      expect(limitTurn(1, turn)).toBe(a > MAX_POSITION_TURN ? MAX_POSITION_TURN / a : 1);
      expect(limitTurn(0.5, turn)).toBe(a * 0.5 > MAX_POSITION_TURN ? MAX_POSITION_TURN / a : 0.5);
    }
  });

  it('turnBody: series below SMALL_TURN, trigonometry from it, within round-off of the exact turn', () => {
    for (const da of [0, 0.01, -0.1, SMALL_TURN * (1 - 1e-9), -SMALL_TURN * (1 - 1e-9), SMALL_TURN, 0.5, -2]) {
      const dq = new Float64Array([0.3]);
      const dqc = new Float64Array([Math.cos(0.3)]);
      const dqs = new Float64Array([Math.sin(0.3)]);
      turnBody(dq, dqc, dqs, 0, da);
      expect(dq[0]).toBe(0.3 + da);
      if (Math.abs(da) >= SMALL_TURN) expect([dqc[0], dqs[0]]).toEqual([Math.cos(0.3 + da), Math.sin(0.3 + da)]);
      else {
        expect(dqc[0]).toBeCloseTo(Math.cos(0.3 + da), 15);
        expect(dqs[0]).toBeCloseTo(Math.sin(0.3 + da), 15);
      }
    }
  });
});
