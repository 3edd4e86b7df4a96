import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { mulberry32 } from '../test-support/random.js';
import { factorSymmetric, pivotInverse } from './dense.js';
import { leverShare, referenceMass } from './softness.js';
import { BODY_STATE_STRIDE } from './body-state.js';
import type { UserRowViews } from './user-kernels.js';
import { USER_POSE_KERNEL_PARTS, USER_POSE_KERNELS, userPoseKernels, type UserGroupView, type UserPoseViews } from './user-pose-kernels.js';

type Views = UserRowViews & UserPoseViews;

/** The kernels rebuilt from the factory's text and its parts' alone, in a context with nothing else (as a worker builds them). */
function fromText(): ReturnType<typeof userPoseKernels> {
  const text = `"use strict"; (${userPoseKernels.toString()})(${USER_POSE_KERNEL_PARTS.map((f) => `(${f.toString()})`).join(', ')})`;
  return runInNewContext(text, { Float64Array, Uint8Array, Math, Number, Error }) as ReturnType<typeof userPoseKernels>;
}

/**
 * Rows of every shape the batch holds (1 to 8 rows, 1 to 4 slots; stiff, soft and limited), random
 * J over random bodies (index 0 the static stand-in), some J rows zero (a vanishing row), some rows
 * repeated (a dependent row: a zero pivot).
 */
function problem(seed: number) {
  const rnd = mulberry32(seed);
  const rows = 90;
  const bodies = 30;
  const r = (scale = 1) => (rnd() * 2 - 1) * scale;
  const u = {
    udim: new Uint8Array(rows), uslots: new Uint8Array(rows), usoft: new Uint8Array(rows), ulim: new Uint8Array(rows),
    ujOff: new Int32Array(rows), ukOff: new Int32Array(rows), uvOff: new Int32Array(rows), usOff: new Int32Array(rows),
    ukFloor: new Float64Array(rows), ucompliance: new Float64Array(rows), uerrValid: new Uint8Array(rows),
  } as Views;
  let j = 0, k = 0, v = 0, s = 0;
  for (let n = 0; n < rows; n++) {
    // Every fifth row two rows on two slots (the unrolled case), the rest any shape.
    const dim = n % 5 === 0 ? 2 : 1 + Math.floor(rnd() * 8);
    const slots = n % 5 === 0 ? 2 : 1 + Math.floor(rnd() * 4);
    u.udim[n] = dim;
    u.uslots[n] = slots;
    u.usoft[n] = rnd() < 0.35 ? 1 : 0;
    u.ulim[n] = rnd() < 0.15 ? 1 : 0;
    u.ujOff[n] = j;
    u.ukOff[n] = k;
    u.uvOff[n] = v;
    u.usOff[n] = s;
    u.ukFloor[n] = 1e-16;
    u.ucompliance[n] = 0.05 * rnd();
    j += dim * 3 * slots;
    k += dim * dim;
    v += dim;
    s += slots;
  }
  u.uj = new Float64Array(j).map(() => r());
  for (let n = 0; n < rows; n++) {
    const cols = 3 * u.uslots[n]!;
    const jo = u.ujOff[n]!;
    if (u.udim[n]! >= 2 && n % 3 === 0) u.uj.copyWithin(jo + cols, jo, jo + cols); // row 1 = row 0
    if (u.udim[n]! >= 3 && n % 4 === 1) u.uj.fill(0, jo + 2 * cols, jo + 3 * cols); // row 2 vanishes
  }
  const zeros = (len: number) => new Float64Array(len);
  u.uk = zeros(k);
  u.ukB = zeros(k);
  u.udinv = zeros(v);
  u.udinvB = zeros(v);
  u.ugamma = zeros(v);
  u.uerr = zeros(v);
  u.uslotK = new Int32Array(s).map(() => (rnd() < 0.2 ? 0 : 1 + Math.floor(rnd() * (bodies - 1))));
  const body = () => new Float64Array(bodies).map((_, i) => (i === 0 ? 0 : Math.abs(r())));
  return { u, rows, invMass: body(), invI: body() };
}

const bits = (...arrays: Float64Array[]) => arrays.map((a) => Array.from(new Uint32Array(a.slice().buffer)));

describe('user batch pose kernels', () => {
  it("factor from their factory's text and its parts' alone (a worker has nothing else), bitwise as the calling thread's, however the rows are shared", () => {
    const text = fromText();
    for (let seed = 1; seed <= 5; seed++) {
      for (const jointCompliance of [0, 0.03]) {
        const p = problem(seed);
        const q = problem(seed);
        USER_POSE_KERNELS.factor(p.u, p.invMass, p.invI, jointCompliance, 0, p.rows);
        // Rows one at a time on the other, as a stage shares them out.
        for (let n = 0; n < q.rows; n++) text.factor(q.u, q.invMass, q.invI, jointCompliance, n, n + 1);
        expect(bits(q.u.uk, q.u.udinv, q.u.ukB, q.u.udinvB, q.u.ugamma)).toEqual(bits(p.u.uk, p.u.udinv, p.u.ukB, p.u.udinvB, p.u.ugamma));
        expect(p.u.udinv.some((x) => x !== 0)).toBe(true);
        if (jointCompliance > 0) expect(p.u.udinvB.some((x) => x !== 0)).toBe(true);
      }
    }
  });

  it('factors K = J M⁻¹ Jᵀ as factorSymmetric does, with the soft rows’ compliance Γ from the reference mass', () => {
    const p = problem(11);
    const u = p.u;
    USER_POSE_KERNELS.factor(u, p.invMass, p.invI, 0, 0, p.rows);
    let checked = 0;
    for (let n = 0; n < p.rows; n++) {
      const dim = u.udim[n]!;
      const slots = u.uslots[n]!;
      const cols = 3 * slots;
      const jo = u.ujOff[n]!;
      const m = Array.from({ length: cols }, (_, c) => {
        const k = u.uslotK[u.usOff[n]! + Math.floor(c / 3)]!;
        return c % 3 === 2 ? p.invI[k]! : p.invMass[k]!;
      });
      // K by its definition, the vanishing rows (below the floor) dropped.
      const K = new Float64Array(dim * dim);
      for (let a = 0; a < dim; a++) for (let b = 0; b < dim; b++) for (let c = 0; c < cols; c++) K[a * dim + b] = K[a * dim + b]! + u.uj[jo + a * cols + c]! * m[c]! * u.uj[jo + b * cols + c]!;
      for (let a = 0; a < dim; a++) if (K[a * dim + a]! < u.ukFloor[n]!) for (let b = 0; b < dim; b++) K[a * dim + b] = K[b * dim + a] = 0;
      const ko = u.ukOff[n]!;
      const vo = u.uvOff[n]!;
      if (u.ulim[n] === 1) {
        // Kept unfactored: each side reads its diagonal.
        for (let i = 0; i < dim * dim; i++) expect(u.uk[ko + i]).toBeCloseTo(K[i]!, 12);
        continue;
      }
      if (u.usoft[n] === 1) {
        // Γ_r = g · referenceMass(linear part, angular part, lever share), on K's diagonal.
        const lin: number[] = [], ang: number[] = [], linear: boolean[] = [];
        for (let r = 0; r < dim; r++) {
          let l = 0, a = 0, isLinear = false;
          for (let c = 0; c < cols; c++) {
            const x = u.uj[jo + r * cols + c]!;
            if (c % 3 === 2) a += m[c]! * x * x;
            else {
              l += m[c]! * x * x;
              if (x !== 0) isLinear = true;
            }
          }
          lin.push(l), ang.push(a), linear.push(isLinear);
        }
        const live = (r: number) => K[r * dim + r] !== 0;
        const lever = leverShare(ang.filter((_, r) => live(r) && linear[r]).reduce((x, y) => x + y, 0), linear.filter((x, r) => live(r) && x).length);
        for (let r = 0; r < dim; r++) {
          const gamma = live(r) ? u.ucompliance[n]! * referenceMass(lin[r]!, ang[r]!, lever, linear[r]!) : 0;
          expect(u.ugamma[vo + r]).toBeCloseTo(gamma, 12);
          K[r * dim + r] = K[r * dim + r]! + gamma;
        }
      }
      const dinv = new Float64Array(dim);
      if (dim === 1) dinv[0] = pivotInverse(K[0]!, Math.abs(K[0]!));
      else factorSymmetric(K, dim, dinv);
      for (let r = 0; r < dim; r++) expect(u.udinv[vo + r]).toBeCloseTo(dinv[r]!, 6);
      // L below the diagonal (the 2 × 2 keeps K's upper entry above it, read by no solve).
      for (let a = 1; a < dim; a++) for (let b = 0; b < a; b++) expect(u.uk[ko + a * dim + b]).toBeCloseTo(K[a * dim + b]!, 9);
      checked++;
    }
    expect(checked).toBeGreaterThan(40);
    // The dependent and vanishing rows got no impulse (a zero pivot).
    expect(u.udinv.some((x) => x === 0)).toBe(true);
  });

  it('throws where K is not finite, and where a group’s C is not finite', () => {
    const p = problem(3);
    p.u.uj[p.u.ujOff[7]! + 1] = Number.NaN;
    expect(() => USER_POSE_KERNELS.factor(p.u, p.invMass, p.invI, 0, 0, p.rows)).toThrow(/batch row 7 is not finite/);
    expect(() => USER_POSE_KERNELS.factor(p.u, p.invMass, p.invI, 0, 0, 7)).not.toThrow();
  });

  it('write body states and run a text kernel over a group, bitwise as the calling thread’s, however shared', () => {
    const text = fromText();
    const rnd = mulberry32(5);
    const bodies = 12;
    const f = () => new Float64Array(bodies).map(() => rnd() * 2 - 1);
    const sb = { c0: f(), s0: f(), dqc: f(), dqs: f(), cx: f(), cy: f(), dpx: f(), dpy: f(), a0: f(), dq: f(), vx: f(), vy: f(), w: f() };
    // Two-slot, one-row constraints: C = (x₂ − x₁)·p, J = [−p 0 0, p 0 0]; a group with arrays of its own.
    const count = 9;
    const make = () => {
      const u = {
        uposeStates: new Float64Array(bodies * BODY_STATE_STRIDE), uposeBodies: Int32Array.from({ length: bodies - 1 }, (_, i) => i + 1),
        uposeLx: new Float64Array(bodies - 1).fill(0.25), uposeLy: new Float64Array(bodies - 1).fill(-0.5),
        ujOff: Int32Array.from({ length: count }, (_, i) => 6 * i), uvOff: Int32Array.from({ length: count }, (_, i) => i),
        uj: new Float64Array(6 * count), uerr: new Float64Array(count), uerrValid: new Uint8Array(count),
      } as unknown as Views;
      const g: UserGroupView = {
        source: null, rows: Int32Array.from({ length: count }, (_, i) => i), varIndex: null, dim: 1, slots: 2, shared: false, needsPosition: true,
        arrays: { states: u.uposeStates, slotState: Int32Array.from({ length: 2 * count }, (_, i) => (1 + ((i * 5) % (bodies - 1))) * BODY_STATE_STRIDE), params: Float64Array.from({ length: count }, (_, i) => 1 + i), J: new Float64Array(6 * count), C: new Float64Array(count) },
      };
      return { u, g };
    };
    const source = {
      jacobian: `"use strict"; return function (from, to, a) { for (let i = from; i < to; i++) { const p = a.params[i]; a.J.set([-p, 0, 0, p, 0, 0], 6 * i); } };`,
      position: `"use strict"; return function (from, to, a) { for (let i = from; i < to; i++) a.C[i] = (a.states[a.slotState[2 * i + 1]] - a.states[a.slotState[2 * i]]) * a.params[i]; };`,
    };
    const kernel = { jacobian: new Function(source.jacobian)(), position: new Function(source.position)() };
    const workerKernel = runInNewContext(`({ jacobian: (function () { ${source.jacobian} })(), position: (function () { ${source.position} })() })`, {});
    const a = make();
    const b = make();
    USER_POSE_KERNELS.states(a.u, sb, 0, bodies - 1);
    USER_POSE_KERNELS.group(a.u, kernel, a.g, 0, count);
    for (let i = 0; i < bodies - 1; i += 4) text.states(b.u, sb, i, Math.min(i + 4, bodies - 1));
    for (let i = 0; i < count; i += 2) text.group(b.u, workerKernel, b.g, i, Math.min(i + 2, count));
    expect(bits(b.u.uposeStates, b.u.uj, b.u.uerr)).toEqual(bits(a.u.uposeStates, a.u.uj, a.u.uerr));
    expect(Array.from(a.u.uerrValid)).toEqual(new Array(count).fill(1));
    // A state is the solver body's pose: body 3's origin is its centre less the rotated offset.
    const k = 3, o = k * BODY_STATE_STRIDE;
    const c = sb.c0[k]! * sb.dqc[k]! - sb.s0[k]! * sb.dqs[k]!;
    const s = sb.s0[k]! * sb.dqc[k]! + sb.c0[k]! * sb.dqs[k]!;
    expect(a.u.uposeStates[o]).toBeCloseTo(sb.cx[k]! + sb.dpx[k]! - (c * 0.25 + s * 0.5), 12);
    expect(a.u.uposeStates[o + 2]).toBe(sb.a0[k]! + sb.dq[k]!);
    // C went out to the rows, J too; a NaN parameter is caught.
    expect(a.u.uerr[4]).toBe(a.g.arrays.C[4]);
    expect(a.u.uj[6 * 4 + 3]).toBe(5);
    a.g.arrays.params[6] = Number.NaN;
    expect(() => USER_POSE_KERNELS.group(a.u, kernel, a.g, 0, count)).toThrow(/C is not finite \(batch row 6\)/);
  });
});
