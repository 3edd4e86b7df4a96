/**
 * The user batch's velocity passes (user-batch.ts has the derivation: V = J v, K λ = −(V + bias),
 * Jᵀλ on each slot's body), made by a factory that a worker can rebuild from source text, as
 * pivot-kernels.ts is: the factory refers to nothing outside itself but its parameters, the
 * shared parts it calls (dense.ts's 2 × 2 inverse entries and substitution, softness.ts's soft
 * update, right-hand side and stiff bias, the impulse cap), each of which stands alone too. The
 * calling thread runs USER_KERNELS, made by the same factory from the same parts: one copy of the
 * arithmetic, on every thread.
 *
 * A pass reads only numbers: each row's J, its factored K, its C at the pose and its impulses.
 * The hooks and kernels that make those run on the calling thread, once per pose, before the pass
 * (UserBatch.ensurePose, and UserBatch.evaluateBias for a biased pass's stiff rows). So a pass over
 * rows of UserConstraints with hooks can run on any thread, and so can a SymbolicConstraint's.
 *
 * Each kernel takes a range of rows [from, to): a colour's share, or every row (the batch lays its
 * rows out in solve order: colour by colour, or the plan's). A row of a limited constraint is never in
 * a pass's range: its sides are solved one after the other on the calling thread
 * (UserBatch.solveLimitedRow). A row writes only its own impulses and its own slots' sums, and the
 * velocities of its solver bodies (slot solver index > 0: the static body 0 is never written).
 */
import { inverse2Diag as sharedInverse2Diag, inverse2Off as sharedInverse2Off, normClampFactor as sharedNormClampFactor, solveFactoredAt as sharedSolveFactoredAt } from './dense.js';
import { softRhs as sharedSoftRhs, softUpdate as sharedSoftUpdate, stiffBias as sharedStiffBias } from './softness.js';

/** The user batch's rows as a pass reads them (UserBatch's pools of the same names, without the `u`). */
export interface UserRowViews {
  udim: Uint8Array;
  uslots: Uint8Array;
  usoft: Uint8Array;
  ujOff: Int32Array;
  ukOff: Int32Array;
  uvOff: Int32Array;
  usOff: Int32Array;
  ubias: Float64Array;
  umaxImp: Float64Array;
  umaxErr: Float64Array;
  uj: Float64Array;
  uk: Float64Array;
  udinv: Float64Array;
  ukB: Float64Array;
  udinvB: Float64Array;
  ugamma: Float64Array;
  uacc: Float64Array;
  ustep: Float64Array;
  uerr: Float64Array;
  uslotK: Int32Array;
  uimp: Float64Array;
}

/** Where a pass's numbers are (a Float64Array: the stage's PARAMS from USER, or the batch's own). */
export const USER_PASS = { USE_BIAS: 0, BIAS_RATE: 1, MASS_SCALE: 2, IMPULSE_SCALE: 3, COMPLIANCE: 4, H: 5, LENGTH: 6 } as const;

export function userKernels(
  inverse2Off: typeof sharedInverse2Off,
  inverse2Diag: typeof sharedInverse2Diag,
  solveFactoredAt: typeof sharedSolveFactoredAt,
  softRhs: typeof sharedSoftRhs,
  softUpdate: typeof sharedSoftUpdate,
  stiffBias: typeof sharedStiffBias,
  normClampFactor: typeof sharedNormClampFactor,
) {
  /** This thread's scratch: one row's right-hand side, then its impulse change (at most 8 rows, USER_BATCH_MAX_DIM). */
  const rhs = new Float64Array(8);

  /** Add Jᵀλ (λ = lam[at …]) of row n to its solver bodies' velocities and to its slots' impulse sums. */
  function apply(u: UserRowViews, vx: Float64Array, vy: Float64Array, w: Float64Array, invMass: Float64Array, invI: Float64Array, n: number, lam: Float64Array, at: number): void {
    const dim = u.udim[n]!;
    const slots = u.uslots[n]!;
    const cols = 3 * slots;
    const jo = u.ujOff[n]!;
    const s0 = u.usOff[n]!;
    const pool = u.uj;
    const imp = u.uimp;
    const slotK = u.uslotK;
    for (let j = 0; j < slots; j++) {
      let ox = 0, oy = 0, oz = 0;
      for (let r = 0; r < dim; r++) {
        const i = jo + r * cols + 3 * j;
        const l = lam[at + r]!;
        ox += pool[i]! * l;
        oy += pool[i + 1]! * l;
        oz += pool[i + 2]! * l;
      }
      const si = 3 * (s0 + j);
      imp[si] = imp[si]! + ox;
      imp[si + 1] = imp[si + 1]! + oy;
      imp[si + 2] = imp[si + 2]! + oz;
      const k = slotK[s0 + j]!;
      if (k <= 0) continue;
      const m = invMass[k]!;
      vx[k] = vx[k]! + m * ox;
      vy[k] = vy[k]! + m * oy;
      w[k] = w[k]! + invI[k]! * oz;
    }
  }

  /**
   * Rows [from, to) apply their accumulated impulse. `close`: a substep ended before this one,
   * and each row first adds the impulse it ended with to the step's (ustep).
   */
  function warmStart(u: UserRowViews, vx: Float64Array, vy: Float64Array, w: Float64Array, invMass: Float64Array, invI: Float64Array, from: number, to: number, close: boolean): void {
    const acc = u.uacc;
    const step = u.ustep;
    // (from >>> 0, here and in every kernel loop: V8 then knows the index is not negative and drops
    // checks it made on each row; a loop from a plain `from` made the 200-link chain's pass 5% slower.)
    for (let n = from >>> 0; n < to; n++) {
      const vo = u.uvOff[n]!;
      if (close) for (let r = 0, dim = u.udim[n]!; r < dim; r++) step[vo + r] = step[vo + r]! + acc[vo + r]!;
      apply(u, vx, vy, w, invMass, invI, n, acc, vo);
    }
  }

  /**
   * One velocity pass over the (unlimited) rows [from, to): stiff rows
   * rigid, or with the joint softness in a biased pass (`num`: USER_PASS), soft rows with their
   * own spring and impulse cap. The one-by-one path's UserConstraint._solve, term for term.
   */
  function pass(u: UserRowViews, vx: Float64Array, vy: Float64Array, w: Float64Array, invMass: Float64Array, invI: Float64Array, num: Float64Array, from: number, to: number): void {
    const useBias = num[0] !== 0;
    const jsBiasRate = num[1]!, jsMassScale = num[2]!, jsImpulseScale = num[3]!, jsCompliance = num[4]!, h = num[5]!;
    const pool = u.uj;
    const acc = u.uacc;
    const err = u.uerr;
    const gamma = u.ugamma;
    const slotK = u.uslotK;
    const dims = u.udim, slotCounts = u.uslots, softs = u.usoft, jOff = u.ujOff, vOff = u.uvOff, sOff = u.usOff, kOff = u.ukOff;
    for (let n = from >>> 0; n < to; n++) {
      const dim = dims[n]!;
      const slots = slotCounts[n]!;
      const cols = 3 * slots;
      const jo = jOff[n]!;
      const vo = vOff[n]!;
      const s0 = sOff[n]!;
      const soft = softs[n] === 1;
      // A soft row, and a stiff one's biased pass with the joint softness, take the fixed compliance.
      const jointFixed = !soft && useBias && jsCompliance > 0;
      const fixed = soft || jointFixed;
      let biasRate = 0;
      let massScale = 1;
      let impulseScale = 0;
      if (soft) {
        biasRate = u.ubias[n]!;
      } else if (useBias) {
        biasRate = jsBiasRate;
        massScale = jsMassScale;
        impulseScale = jsImpulseScale;
      }
      let e = 1;
      if (biasRate !== 0) {
        const maxErr = u.umaxErr[n]!;
        if (soft && maxErr !== Infinity) {
          let e2 = 0;
          for (let r = 0; r < dim; r++) e2 += err[vo + r]! * err[vo + r]!;
          const norm = Math.sqrt(e2);
          if (norm > maxErr) e = maxErr / norm;
        }
      }
      // rhs = −(J v + bias)
      for (let r = 0; r < dim; r++) {
        let v = 0;
        const base = jo + r * cols;
        for (let j = 0; j < slots; j++) {
          const k = slotK[s0 + j]!;
          const q = base + 3 * j;
          v += pool[q]! * vx[k]! + pool[q + 1]! * vy[k]! + pool[q + 2]! * w[k]!;
        }
        const be = biasRate === 0 ? 0 : soft ? biasRate * (e === 1 ? err[vo + r]! : err[vo + r]! * e) : stiffBias(biasRate, err[vo + r]!);
        // A soft row solves (K + Γ) Δλ = −(V + bias) − Γ·λ (softness.ts); its K was factored with Γ.
        rhs[r] = fixed ? softRhs(-(v + be), gamma[vo + r]!, acc[vo + r]!) : -(v + be);
      }
      // rhs ← K⁻¹ rhs with the row's factors (dense.ts's solveFactored, inlined for 1 and 2 rows).
      const kp = jointFixed ? u.ukB : u.uk;
      const dinv = jointFixed ? u.udinvB : u.udinv;
      const ko = kOff[n]!;
      if (dim === 1) {
        rhs[0] = rhs[0]! * dinv[vo]!;
      } else if (dim === 2) {
        const l10 = kp[ko + 2]!;
        const m11 = dinv[vo + 1]!;
        const m01 = inverse2Off(l10, m11);
        const m00 = inverse2Diag(l10, dinv[vo]!, m01);
        const y0 = rhs[0]!;
        const y1 = rhs[1]!;
        rhs[0] = m00 * y0 + m01 * y1;
        rhs[1] = m01 * y0 + m11 * y1;
      } else {
        solveFactoredAt(kp, ko, dinv, vo, rhs, dim);
      }
      if (!soft && massScale === 1 && impulseScale === 0) {
        // A stiff row without softening: the change is rhs itself (see UserConstraint._solve).
        for (let r = 0; r < dim; r++) acc[vo + r] = acc[vo + r]! + rhs[r]!;
        apply(u, vx, vy, w, invMass, invI, n, rhs, 0);
        continue;
      }
      // trial, clamped to maxForce for soft rows; rhs becomes the change
      let n2 = 0;
      for (let r = 0; r < dim; r++) {
        const old = acc[vo + r]!;
        const t = fixed ? old + rhs[r]! : softUpdate(old, rhs[r]!, massScale, impulseScale);
        rhs[r] = t;
        n2 += t * t;
      }
      if (soft) {
        const f = normClampFactor(n2, u.umaxImp[n]! * h);
        if (f !== 1) for (let r = 0; r < dim; r++) rhs[r] = rhs[r]! * f;
      }
      for (let r = 0; r < dim; r++) {
        const t = rhs[r]!;
        rhs[r] = t - acc[vo + r]!;
        acc[vo + r] = t;
      }
      apply(u, vx, vy, w, invMass, invI, n, rhs, 0);
    }
  }

  return { warmStart, pass };
}

/** The parts the factory is called with, in its parameters' order (worker-program.ts writes them out as text). */
export const USER_KERNEL_PARTS = [sharedInverse2Off, sharedInverse2Diag, sharedSolveFactoredAt, sharedSoftRhs, sharedSoftUpdate, sharedStiffBias, sharedNormClampFactor] as const;

/** The kernels the calling thread runs. */
export const USER_KERNELS = userKernels(...USER_KERNEL_PARTS);

export type UserKernels = ReturnType<typeof userKernels>;
