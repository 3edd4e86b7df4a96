import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../test-support/random.js';
import { JOINT_PUSH_MAX_VELOCITY, stiffBias } from './softness.js';
import { factorSymmetric, solveFactored } from './dense.js';
import { USER_KERNEL_PARTS, USER_KERNELS, USER_PASS, userKernels, type UserRowViews } from './user-kernels.js';

/** The kernels rebuilt from the factory's text and its parts' alone, in a context with nothing else (as a worker builds them). */
function fromText(): ReturnType<typeof userKernels> {
  const text = `"use strict"; (${userKernels.toString()})(${USER_KERNEL_PARTS.map((f) => `(${f.toString()})`).join(', ')})`;
  return runInNewContext(text, { Float64Array, Math }) as ReturnType<typeof userKernels>;
}

/**
 * Rows of every shape the batch holds (1 to 8 rows, 1 to 4 slots, stiff and soft, some with a
 * maxError or a force limit, static slots), random J, factors, C and impulses, over random bodies
 * (index 0 the static stand-in, at rest).
 */
function problem(seed: number) {
  const rnd = mulberry32(seed);
  const rows = 80;
  const bodies = 30;
  const r = (scale = 1) => (rnd() * 2 - 1) * scale;
  const u = {
    udim: new Uint8Array(rows), uslots: new Uint8Array(rows), usoft: new Uint8Array(rows),
    ujOff: new Int32Array(rows), ukOff: new Int32Array(rows), uvOff: new Int32Array(rows), usOff: new Int32Array(rows),
    ubias: new Float64Array(rows), umaxImp: new Float64Array(rows), umaxErr: new Float64Array(rows),
  } as UserRowViews;
  let j = 0, k = 0, v = 0, s = 0;
  for (let n = 0; n < rows; n++) {
    const dim = 1 + Math.floor(rnd() * 8);
    const slots = 1 + Math.floor(rnd() * 4);
    u.udim[n] = dim;
    u.uslots[n] = slots;
    u.usoft[n] = rnd() < 0.4 ? 1 : 0;
    u.ujOff[n] = j;
    u.ukOff[n] = k;
    u.uvOff[n] = v;
    u.usOff[n] = s;
    u.ubias[n] = 30 * rnd();
    u.umaxImp[n] = rnd() < 0.5 ? Infinity : 50 * rnd();
    u.umaxErr[n] = rnd() < 0.5 ? Infinity : 0.05 * rnd();
    j += dim * 3 * slots;
    k += dim * dim;
    v += dim;
    s += slots;
  }
  const f = (len: number, scale = 1) => new Float64Array(len).map(() => r(scale));
  u.uj = f(j);
  u.uk = f(k);
  u.ukB = f(k);
  u.udinv = f(v, 3);
  u.udinvB = f(v, 3);
  u.ugamma = f(v).map(Math.abs);
  u.uacc = f(v, 2);
  u.ustep = f(v);
  u.uerr = f(v, 0.2);
  u.uslotK = new Int32Array(s).map(() => (rnd() < 0.2 ? 0 : 1 + Math.floor(rnd() * (bodies - 1))));
  u.uimp = f(3 * s);
  const body = () => new Float64Array(bodies).map((_, i) => (i === 0 ? 0 : r()));
  return { u, rows, vx: body(), vy: body(), w: body(), invMass: body().map(Math.abs), invI: body().map(Math.abs) };
}

const bits = (...arrays: Float64Array[]) => arrays.map((a) => Array.from(new Uint32Array(a.slice().buffer)));

/** A copy of a problem's arrays (the views object and the bodies), so that two runs start alike. */
function copy(p: ReturnType<typeof problem>): ReturnType<typeof problem> {
  const u = Object.fromEntries(Object.entries(p.u).map(([key, a]) => [key, (a as Float64Array).slice()])) as unknown as UserRowViews;
  return { ...p, u, vx: p.vx.slice(), vy: p.vy.slice(), w: p.w.slice() };
}

describe('user batch kernels', () => {
  it("run from their factory's text and its parts' alone (a worker has nothing else), bitwise as the calling thread's", () => {
    const text = fromText();
    for (let seed = 1; seed <= 6; seed++) {
      for (const [useBias, compliance] of [[0, 0], [1, 0], [1, 0.02]] as const) {
        const p = problem(seed);
        const q = copy(p);
        const num = new Float64Array(USER_PASS.LENGTH);
        num[USER_PASS.USE_BIAS] = useBias;
        num[USER_PASS.BIAS_RATE] = useBias ? 12 : 0;
        num[USER_PASS.MASS_SCALE] = useBias ? 0.8 : 1;
        num[USER_PASS.IMPULSE_SCALE] = useBias ? 0.1 : 0;
        num[USER_PASS.COMPLIANCE] = compliance;
        num[USER_PASS.H] = 1 / 240;
        for (const [kernels, x] of [[USER_KERNELS, p], [text, q]] as const) {
          // Rows one at a time, as a pass over colours shares them out, and then all at once.
          kernels.warmStart(x.u, x.vx, x.vy, x.w, x.invMass, x.invI, 0, x.rows, true);
          for (let n = 0; n < x.rows; n++) kernels.pass(x.u, x.vx, x.vy, x.w, x.invMass, x.invI, num, n, n + 1);
          kernels.pass(x.u, x.vx, x.vy, x.w, x.invMass, x.invI, num, 0, x.rows);
        }
        expect(bits(q.vx, q.vy, q.w, q.u.uacc, q.u.ustep, q.u.uimp)).toEqual(bits(p.vx, p.vy, p.w, p.u.uacc, p.u.ustep, p.u.uimp));
        // The pass did something: velocities and impulses moved.
        expect(p.u.uacc.some((a, i) => a !== problem(seed).u.uacc[i])).toBe(true);
      }
    }
  });

  it('solve a row as K⁻¹ from its factors would (solveFactored), and apply Jᵀλ to each slot', () => {
    // One stiff 3-row constraint on two bodies, relax pass: Δλ = −K⁻¹ J v, v += M⁻¹ Jᵀ Δλ.
    const p = problem(7);
    const u = p.u;
    u.udim[0] = 3;
    u.uslots[0] = 2;
    u.usoft[0] = 0;
    u.uslotK[u.usOff[0]!] = 3;
    u.uslotK[u.usOff[0]! + 1] = 5;
    const J = u.uj.subarray(u.ujOff[0]!, u.ujOff[0]! + 18);
    const m = [p.invMass[3]!, p.invMass[3]!, p.invI[3]!, p.invMass[5]!, p.invMass[5]!, p.invI[5]!];
    // K = J M⁻¹ Jᵀ, factored as the batch factors it at each pose.
    const K = new Float64Array(9).map((_, i) => J.subarray(6 * Math.floor(i / 3), 6 * Math.floor(i / 3) + 6).reduce((sum, x, c) => sum + x * m[c]! * J[6 * (i % 3) + c]!, 0));
    const dinv = new Float64Array(3);
    factorSymmetric(K, 3, dinv);
    u.uk.set(K, u.ukOff[0]!);
    u.udinv.set(dinv, u.uvOff[0]!);
    const vel = (k: number) => [p.vx[k]!, p.vy[k]!, p.w[k]!];
    const v0 = [...vel(3), ...vel(5)];
    const rhs = new Float64Array(3).map((_, r) => -J.subarray(6 * r, 6 * r + 6).reduce((sum, x, c) => sum + x * v0[c]!, 0));
    solveFactored(u.uk.slice(u.ukOff[0]!, u.ukOff[0]! + 9), u.udinv.slice(u.uvOff[0]!, u.uvOff[0]! + 3), rhs, 3);
    const acc0 = Array.from(u.uacc.subarray(u.uvOff[0]!, u.uvOff[0]! + 3));
    USER_KERNELS.pass(u, p.vx, p.vy, p.w, p.invMass, p.invI, new Float64Array(USER_PASS.LENGTH), 0, 1);
    for (let r = 0; r < 3; r++) expect(u.uacc[u.uvOff[0]! + r]).toBeCloseTo(acc0[r]! + rhs[r]!, 12);
    const after = [...vel(3), ...vel(5)];
    for (let c = 0; c < 6; c++) expect(after[c]).toBeCloseTo(v0[c]! + m[c]! * rhs.reduce((sum, l, r) => sum + J[6 * r + c]! * l, 0), 12);
    // Afterwards the rows hold: J v = 0.
    for (let r = 0; r < 3; r++) expect(J.subarray(6 * r, 6 * r + 6).reduce((sum, x, c) => sum + x * after[c]!, 0)).toBeCloseTo(0, 9);
  });

  it("stiffBias stands alone, with JOINT_PUSH_MAX_VELOCITY written out", () => {
    const standalone = runInNewContext(`"use strict"; (${stiffBias.toString()})`, {}) as typeof stiffBias;
    expect(standalone(100, 1)).toBe(JOINT_PUSH_MAX_VELOCITY);
    expect(standalone(100, -1)).toBe(-JOINT_PUSH_MAX_VELOCITY);
  });
});
