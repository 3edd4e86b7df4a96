import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../test-support/random.js';
import * as S from '../body/state-layout.js';
import { BODY_KERNEL_PARTS, BODY_KERNELS, bodyKernels, type WriteBackViews } from './body-kernels.js';

/** The kernels rebuilt from the factory's text and its parts' alone, as a worker builds them. */
function fromText(): ReturnType<typeof bodyKernels> {
  const text = `"use strict"; (${bodyKernels.toString()})(${BODY_KERNEL_PARTS.map((f) => `(${f.toString()})`).join(', ')})`;
  return runInNewContext(text, { Float64Array, Math }) as ReturnType<typeof bodyKernels>;
}

/** 40 solver bodies (index 0 the static stand-in) at random slots of 64, a third of them unmoved. */
function problem(seed: number): WriteBackViews {
  const rnd = mulberry32(seed);
  const n = 40;
  const f = (scale = 1) => Float64Array.from({ length: n }, () => scale * (rnd() * 2 - 1));
  const slots = Array.from({ length: 64 }, (_, k) => k).sort(() => rnd() - 0.5);
  const a0 = f(3);
  const dq = f(0.5);
  const dpx = f(0.1);
  const dpy = f(0.1);
  for (let i = 0; i < n; i += 3) dpx[i] = dpy[i] = dq[i] = 0;
  return {
    bstate: Float64Array.from({ length: 64 * S.STATE_LENGTH }, () => rnd()),
    bslot: Int32Array.from({ length: n }, (_, i) => slots[i]!),
    vx: f(5), vy: f(5), w: f(2), dpx, dpy, dq, dqc: dq.map(Math.cos), dqs: dq.map(Math.sin),
    a0, c0: a0.map(Math.cos), s0: a0.map(Math.sin), cx: f(50), cy: f(50), lcx: f(0.5), lcy: f(0.5),
  };
}

const bits = (a: Float64Array) => Array.from(new Uint32Array(a.slice().buffer));

describe("write back's kernel", () => {
  it("declares state-layout.ts's layout", () => {
    const decl = /const (STATE = [^;]+);/.exec(bodyKernels.toString());
    expect(decl).not.toBeNull();
    const declared = Object.fromEntries(decl![1]!.split(',').map((d) => d.split('=').map((x) => x.trim())).map(([k, v]) => [k!, Number(v)]));
    expect(declared).toEqual({ STATE: S.STATE_LENGTH, Y: S.STATE_Y, ANGLE: S.STATE_ANGLE, C: S.STATE_C, S: S.STATE_S, VX: S.STATE_VX, VY: S.STATE_VY, W: S.STATE_W });
    expect(S.STATE_X).toBe(0);
  });

  it("writes each body's velocity, and a moved body's pose: its centre of mass moved by the deltas, its angle turned", () => {
    const v = problem(3);
    const before = v.bstate.slice();
    BODY_KERNELS.writeBack(v, 1, 40);
    for (let i = 1; i < 40; i++) {
      const o = v.bslot[i]! * S.STATE_LENGTH;
      const st = v.bstate;
      expect([st[o + S.STATE_VX], st[o + S.STATE_VY], st[o + S.STATE_W]]).toEqual([v.vx[i], v.vy[i], v.w[i]]);
      expect(st[o + S.STATE_SLEEP], 'the rest time is not write back kernel\'s').toBe(before[o + S.STATE_SLEEP]);
      if (i % 3 === 0) {
        // Unmoved: the pose to the bit as it was.
        for (const k of [S.STATE_X, S.STATE_Y, S.STATE_ANGLE, S.STATE_C, S.STATE_S]) expect(st[o + k]).toBe(before[o + k]);
        continue;
      }
      const angle = v.a0[i]! + v.dq[i]!;
      expect(st[o + S.STATE_ANGLE]).toBe(angle);
      expect(st[o + S.STATE_C]!).toBeCloseTo(Math.cos(angle), 14);
      expect(st[o + S.STATE_S]!).toBeCloseTo(Math.sin(angle), 14);
      // The local centre of mass, carried by the new pose, lands on the moved centre.
      const c = st[o + S.STATE_C]!, s = st[o + S.STATE_S]!;
      expect(st[o + S.STATE_X]! + c * v.lcx[i]! - s * v.lcy[i]!).toBeCloseTo(v.cx[i]! + v.dpx[i]!, 12);
      expect(st[o + S.STATE_Y]! + s * v.lcx[i]! + c * v.lcy[i]!).toBeCloseTo(v.cy[i]! + v.dpy[i]!, 12);
    }
    // Index 0 (the static stand-in) and slots no solver body has are untouched.
    const used = new Set(Array.from(v.bslot.subarray(1)));
    for (let k = 0; k < 64; k++) {
      if (used.has(k)) continue;
      expect(Array.from(v.bstate.subarray(k * S.STATE_LENGTH, (k + 1) * S.STATE_LENGTH))).toEqual(Array.from(before.subarray(k * S.STATE_LENGTH, (k + 1) * S.STATE_LENGTH)));
    }
  });

  it("runs from its factory's text alone, bitwise as the calling thread's, and any split of the bodies gives the same bits", () => {
    const k = fromText();
    for (let seed = 1; seed <= 10; seed++) {
      const a = problem(seed);
      const b = problem(seed);
      const c = problem(seed);
      BODY_KERNELS.writeBack(a, 1, 40);
      k.writeBack(b, 1, 40);
      BODY_KERNELS.writeBack(c, 17, 40);
      k.writeBack(c, 1, 17);
      expect(bits(b.bstate)).toEqual(bits(a.bstate));
      expect(bits(c.bstate)).toEqual(bits(a.bstate));
    }
  });
});
