import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../test-support/random.js';
import * as S from '../body/state-layout.js';
import { BODY_KERNEL_PARTS, BODY_KERNELS, bodyKernels, type GatherViews, type WriteBackViews } from './body-kernels.js';
import { PARAMS } from '../parallel/control.js';
import { FAST_SHARE } from './solver-bodies.js';

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

/**
 * 40 solver bodies' flags and slots (of 64, at random) over random body states: some kinematic,
 * some not swept, one massless (infinite mass), one with no shape (thinnest: Infinity).
 */
function gatherProblem(seed: number): { v: GatherViews; prm: Float64Array } {
  const rnd = mulberry32(seed);
  const n = 40;
  const slots = Array.from({ length: 64 }, (_, k) => k).sort(() => rnd() - 0.5);
  const bstate = Float64Array.from({ length: 64 * S.STATE_LENGTH }, () => rnd() * 4 - 2);
  for (let k = 0; k < 64; k++) {
    const a = bstate[k * S.STATE_LENGTH + S.STATE_ANGLE]!;
    bstate[k * S.STATE_LENGTH + S.STATE_C] = Math.cos(a);
    bstate[k * S.STATE_LENGTH + S.STATE_S] = Math.sin(a);
    for (const d of [S.STATE_LINEAR_DRAG, S.STATE_ANGULAR_DRAG, S.STATE_INV_MASS, S.STATE_INV_I, S.STATE_MIN_EXTENT, S.STATE_MAX_EXTENT]) bstate[k * S.STATE_LENGTH + d] = Math.abs(bstate[k * S.STATE_LENGTH + d]!);
  }
  bstate[slots[5]! * S.STATE_LENGTH + S.STATE_INV_MASS] = 0;
  bstate[slots[6]! * S.STATE_LENGTH + S.STATE_MIN_EXTENT] = Infinity;
  const none = () => new Float64Array(n).fill(NaN);
  const v: GatherViews = {
    bstate,
    bslot: Int32Array.from({ length: n }, (_, i) => slots[i]!),
    dynamic: Uint8Array.from({ length: n }, (_, i) => (i % 7 === 3 ? 0 : 1)),
    swept: Uint8Array.from({ length: n }, (_, i) => (i % 7 === 3 || i % 5 === 1 ? 0 : 1)),
    atCap: new Uint8Array(n).fill(1),
    vx: none(), vy: none(), w: none(), dpx: none(), dpy: none(), dq: none(), dqc: none(), dqs: none(), a0: none(), c0: none(), s0: none(), cx: none(), cy: none(), lcx: none(), lcy: none(),
    invMass: none(), invI: none(), ccdSlack: none(), reach: none(), dvx: none(), dvy: none(), dw: none(), linearDamp: none(), angularDamp: none(),
  };
  const prm = new Float64Array(PARAMS.LENGTH);
  prm[PARAMS.H] = 1 / 240;
  prm[PARAMS.GRAVITY_X] = 0.5;
  prm[PARAMS.GRAVITY_Y] = -9.8;
  return { v, prm };
}

const GATHERED = ['vx', 'vy', 'w', 'dpx', 'dpy', 'dq', 'dqc', 'dqs', 'a0', 'c0', 's0', 'cx', 'cy', 'lcx', 'lcy', 'invMass', 'invI', 'ccdSlack', 'reach', 'dvx', 'dvy', 'dw', 'linearDamp', 'angularDamp'] as const;

describe("gather's kernel", () => {
  it("declares state-layout.ts's layout and solver-bodies.ts's FAST_SHARE", () => {
    const text = bodyKernels.toString();
    const line = /const (STATE = [^;]*FX = [^;]+);/.exec(text);
    expect(line).not.toBeNull();
    const declared = Object.fromEntries(line![1]!.split(',').map((d) => d.split('=').map((x) => x.trim())).map(([k, v]) => [k!, Number(v)]));
    expect(declared).toEqual({
      STATE: S.STATE_LENGTH, Y: S.STATE_Y, ANGLE: S.STATE_ANGLE, C: S.STATE_C, S: S.STATE_S, VX: S.STATE_VX, VY: S.STATE_VY, W: S.STATE_W,
      FX: S.STATE_FX, FY: S.STATE_FY, TORQUE: S.STATE_TORQUE, INV_MASS: S.STATE_INV_MASS, INV_I: S.STATE_INV_I, LCX: S.STATE_LCX, LCY: S.STATE_LCY,
      LINEAR_DRAG: S.STATE_LINEAR_DRAG, ANGULAR_DRAG: S.STATE_ANGULAR_DRAG, GRAVITY_SCALE: S.STATE_GRAVITY_SCALE, MIN_EXTENT: S.STATE_MIN_EXTENT, MAX_EXTENT: S.STATE_MAX_EXTENT,
    });
    expect(Number(/const FAST_SHARE = ([\d.]+);/.exec(text)![1])).toBe(FAST_SHARE);
    // The settings follow the state, and every place is within a body's slice, each once.
    const places = Object.entries(S).filter(([k]) => k.startsWith('STATE_') && k !== 'STATE_LENGTH').map(([, v]) => v as number);
    expect(new Set(places).size).toBe(places.length);
    expect(Math.max(...places)).toBeLessThan(S.STATE_LENGTH);
  });

  it("reads each body's slice into the solver arrays: the state, the settings, and what integration adds and multiplies by", () => {
    const { v, prm } = gatherProblem(7);
    const before = v.bstate.slice();
    BODY_KERNELS.gather(v, prm, 1, 40);
    expect(bits(v.bstate), 'the states are read only').toEqual(bits(before));
    const h = 1 / 240;
    for (let i = 1; i < 40; i++) {
      const o = v.bslot[i]! * S.STATE_LENGTH;
      const at = (k: number) => before[o + k]!;
      expect([v.vx[i], v.vy[i], v.w[i]]).toEqual([at(S.STATE_VX), at(S.STATE_VY), at(S.STATE_W)]);
      expect([v.dpx[i], v.dpy[i], v.dq[i], v.dqc[i], v.dqs[i], v.atCap[i]]).toEqual([0, 0, 0, 1, 0, 0]);
      expect([v.a0[i], v.c0[i], v.s0[i]]).toEqual([at(S.STATE_ANGLE), at(S.STATE_C), at(S.STATE_S)]);
      expect([v.lcx[i], v.lcy[i], v.invMass[i], v.invI[i], v.reach[i]]).toEqual([at(S.STATE_LCX), at(S.STATE_LCY), at(S.STATE_INV_MASS), at(S.STATE_INV_I), at(S.STATE_MAX_EXTENT)]);
      // The centre of mass: the local one carried by the pose.
      const c = Math.cos(at(S.STATE_ANGLE)), s = Math.sin(at(S.STATE_ANGLE));
      expect(v.cx[i]!).toBeCloseTo(at(S.STATE_X) + c * at(S.STATE_LCX) - s * at(S.STATE_LCY), 14);
      expect(v.cy[i]!).toBeCloseTo(at(S.STATE_Y) + s * at(S.STATE_LCX) + c * at(S.STATE_LCY), 14);
      // A substep's velocity change: h·(force/m + g·scale) for a dynamic body of finite mass; h·torque/I.
      const im = at(S.STATE_INV_MASS);
      const moves = v.dynamic[i] === 1 && im > 0;
      expect(v.dvx[i]!).toBeCloseTo(moves ? h * (at(S.STATE_FX) * im + 0.5 * at(S.STATE_GRAVITY_SCALE)) : 0, 15);
      expect(v.dvy[i]!).toBeCloseTo(moves ? h * (at(S.STATE_FY) * im - 9.8 * at(S.STATE_GRAVITY_SCALE)) : 0, 15);
      expect(v.dw[i]!).toBeCloseTo(v.dynamic[i] === 1 ? h * at(S.STATE_TORQUE) * at(S.STATE_INV_I) : 0, 15);
      expect(v.linearDamp[i]!).toBeCloseTo(1 / (1 + h * at(S.STATE_LINEAR_DRAG)), 15);
      expect(v.angularDamp[i]!).toBeCloseTo(1 / (1 + h * at(S.STATE_ANGULAR_DRAG)), 15);
      expect(v.ccdSlack[i]).toBe(v.swept[i] === 1 ? 0.5 * at(S.STATE_MIN_EXTENT) : Infinity);
    }
    expect(v.ccdSlack[6], 'no shape: never swept').toBe(Infinity);
    expect(v.dvy[5], 'infinite mass: no gravity').toBe(0);
    // Index 0 (the static stand-in) is not gather's.
    for (const k of GATHERED) expect(v[k][0], k).toBeNaN();
  });

  it("runs from its factory's text alone, bitwise as the calling thread's, and any split of the bodies gives the same bits", () => {
    const k = fromText();
    for (let seed = 1; seed <= 10; seed++) {
      const a = gatherProblem(seed);
      const b = gatherProblem(seed);
      const c = gatherProblem(seed);
      BODY_KERNELS.gather(a.v, a.prm, 1, 40);
      k.gather(b.v, b.prm, 1, 40);
      BODY_KERNELS.gather(c.v, c.prm, 23, 40);
      k.gather(c.v, c.prm, 1, 23);
      for (const f of GATHERED) {
        expect(bits(b.v[f]), f).toEqual(bits(a.v[f]));
        expect(bits(c.v[f]), f).toEqual(bits(a.v[f]));
      }
    }
  });
});
