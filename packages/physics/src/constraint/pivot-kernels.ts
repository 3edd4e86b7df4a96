/**
 * The joint batch's passes over stiff pivot rows (pivot-batch.ts has the derivation: C = p2 − p1,
 * 2×2 K, Jᵀλ = ∓λ at r1 / r2), made by a factory that a worker can rebuild from source text, as
 * contact/contact-kernels.ts is: the factory refers to nothing outside itself but its parameters,
 * the shared parts it calls (the 2 × 2 block rules of dense.ts, limitTurn of position-step.ts,
 * turnBody of solver-bodies.ts), each of which stands alone too. Each kernel declares its own
 * layout constants (pivot-kernels.test.ts checks them against pivot-rows.ts). The calling thread
 * runs PIVOT_KERNELS, made by the same factory from the same parts: one copy of the arithmetic, on
 * every thread. Each kernel takes a range of rows [from, to): a colour's share, or every row.
 *
 * Rows with a static side (solver index 0) write body 0's velocity too: its inverse mass and
 * inertia are 0, so what they write is the 0 it holds, and two threads writing it write the same.
 */
import { SELF_CONTAINED_PARTS } from './dense.js';
import { limitTurn as sharedLimitTurn } from './position-step.js';
import { turnBody as sharedTurnBody } from '../space/body-kernels.js';

type Dense = typeof SELF_CONTAINED_PARTS;

export function pivotKernels(
  inverseDet2: Dense['inverseDet2'],
  singularPivot1: Dense['singularPivot1'],
  singularPivot2: Dense['singularPivot2'],
  limitTurn: typeof sharedLimitTurn,
  turnBody: typeof sharedTurnBody,
) {
  /**
   * Rows [from, to) apply their accumulated impulse, and add its angular part to the step's sums.
   * `close`: a substep ended before this one, and each row first adds the impulse it ended with to
   * the step's impulse (cold's STEP_X, STEP_Y), in the same pass over the rows.
   */
  function warmStart(
    d: Float64Array, cold: Float64Array, ends: Int32Array, vx: Float64Array, vy: Float64Array, w: Float64Array, dqc: Float64Array, dqs: Float64Array, from: number, to: number, close: boolean,
  ): void {
    const HOT = 16, M_A = 0, M_B = 1, I_A = 2, I_B = 3, R0_AX = 4, R0_AY = 5, R0_BX = 6, R0_BY = 7, ACC_X = 8, ACC_Y = 9, SUM_LA = 10, SUM_LB = 11;
    const COLD = 12, STEP_X = 0, STEP_Y = 1;
    // (from >>> 0, here and in every kernel loop: V8 then knows the index is not negative and drops
    // checks it made on each row; a loop from a plain `from` made the 200-link chain's pass 5% slower.)
    for (let n = from >>> 0; n < to; n++) {
      const o = n * HOT;
      if (close) {
        const q = n * COLD;
        cold[q + STEP_X] = cold[q + STEP_X]! + d[o + ACC_X]!;
        cold[q + STEP_Y] = cold[q + STEP_Y]! + d[o + ACC_Y]!;
      }
      const ka = ends[2 * n]!;
      const kb = ends[2 * n + 1]!;
      let c = dqc[ka]!;
      let s = dqs[ka]!;
      const rAx = c * d[o + R0_AX]! - s * d[o + R0_AY]!;
      const rAy = s * d[o + R0_AX]! + c * d[o + R0_AY]!;
      c = dqc[kb]!;
      s = dqs[kb]!;
      const rBx = c * d[o + R0_BX]! - s * d[o + R0_BY]!;
      const rBy = s * d[o + R0_BX]! + c * d[o + R0_BY]!;
      const px = d[o + ACC_X]!;
      const py = d[o + ACC_Y]!;
      const la = rAx * py - rAy * px;
      const lb = rBx * py - rBy * px;
      d[o + SUM_LA] = d[o + SUM_LA]! + la;
      d[o + SUM_LB] = d[o + SUM_LB]! + lb;
      const mA = d[o + M_A]!, mB = d[o + M_B]!;
      vx[ka] = vx[ka]! - mA * px;
      vy[ka] = vy[ka]! - mA * py;
      w[ka] = w[ka]! - d[o + I_A]! * la;
      vx[kb] = vx[kb]! + mB * px;
      vy[kb] = vy[kb]! + mB * py;
      w[kb] = w[kb]! + d[o + I_B]! * lb;
    }
  }

  /**
   * A velocity pass without bias over stiff rows [from, to). A chain's passes are bound by
   * latency: each row waits for the velocities the row before wrote to their shared body. So
   * that wait is kept short. K⁻¹ is formed as coefficients before the velocities are read (the
   * impulse is then one multiply-add from the velocity error), the velocity error takes the body
   * written last as late as it can, and the impulse is applied as it is, not as the difference
   * of two accumulated impulses. Against the nested form (−K⁻¹ as a product of 1/det, the error
   * summed body by body, the impulse recovered from the accumulator), a 200-link chain's step is
   * about 5% faster. PivotBatch's general loop computes a stiff row without bias with the same
   * arithmetic, so a stiff row gives the same bits in either.
   */
  function solveStiff(d: Float64Array, ends: Int32Array, vx: Float64Array, vy: Float64Array, w: Float64Array, dqc: Float64Array, dqs: Float64Array, from: number, to: number): void {
    const HOT = 16, M_A = 0, M_B = 1, I_A = 2, I_B = 3, R0_AX = 4, R0_AY = 5, R0_BX = 6, R0_BY = 7, ACC_X = 8, ACC_Y = 9, SUM_LA = 10, SUM_LB = 11;
    for (let n = from >>> 0; n < to; n++) {
      const o = n * HOT;
      const ka = ends[2 * n]!;
      const kb = ends[2 * n + 1]!;
      let c = dqc[ka]!;
      let s = dqs[ka]!;
      const rAx = c * d[o + R0_AX]! - s * d[o + R0_AY]!;
      const rAy = s * d[o + R0_AX]! + c * d[o + R0_AY]!;
      c = dqc[kb]!;
      s = dqs[kb]!;
      const rBx = c * d[o + R0_BX]! - s * d[o + R0_BY]!;
      const rBy = s * d[o + R0_BX]! + c * d[o + R0_BY]!;
      const mA = d[o + M_A]!, mB = d[o + M_B]!, iA = d[o + I_A]!, iB = d[o + I_B]!;
      // The impulse is −K⁻¹ dv; a11, a12, a22 are −K⁻¹'s entries (K symmetric). A singular K
      // (both sides fixed about the anchor, or only turning) is solved by the zero-pivot rule.
      const k11 = mA + mB + iA * rAy * rAy + iB * rBy * rBy;
      const k12 = -iA * rAx * rAy - iB * rBx * rBy;
      const k22 = mA + mB + iA * rAx * rAx + iB * rBx * rBx;
      const inv = inverseDet2(k11, k12, k22);
      const a11 = inv !== 0 ? -inv * k22 : -singularPivot1(k11, k22);
      const a12 = inv * k12;
      const a22 = inv !== 0 ? -inv * k11 : -singularPivot2(k11, k22);
      // dv = (vB + ωB × rB) − (vA + ωA × rA), with A (the body the previous row of a chain wrote)
      // entering last.
      const wB = w[kb]!;
      const eX = vx[kb]! - wB * rBy;
      const eY = vy[kb]! + wB * rBx;
      const wA = w[ka]!;
      const dvx = eX - vx[ka]! + wA * rAy;
      const dvy = eY - vy[ka]! - wA * rAx;
      const px = a11 * dvx + a12 * dvy;
      const py = a12 * dvx + a22 * dvy;
      d[o + ACC_X] = d[o + ACC_X]! + px;
      d[o + ACC_Y] = d[o + ACC_Y]! + py;
      const la = rAx * py - rAy * px;
      const lb = rBx * py - rBy * px;
      d[o + SUM_LA] = d[o + SUM_LA]! + la;
      d[o + SUM_LB] = d[o + SUM_LB]! + lb;
      vx[ka] = vx[ka]! - mA * px;
      vy[ka] = vy[ka]! - mA * py;
      w[ka] = wA - iA * la;
      vx[kb] = vx[kb]! + mB * px;
      vy[kb] = vy[kb]! + mB * py;
      w[kb] = wB + iB * lb;
    }
  }

  /**
   * The position pass over rows [from, to) (soft rows, soft[n] = 1, have none): K Δ = −C on the
   * position deltas. `close`: the step's first position pass, after its last velocity pass; each
   * row, soft ones too, first adds the impulse its last substep ended with to the step's (as
   * warmStart's close does between substeps), in the same pass over the rows.
   */
  function position(
    d: Float64Array, cold: Float64Array, ends: Int32Array, soft: Uint8Array, dpx: Float64Array, dpy: Float64Array, dq: Float64Array, dqc: Float64Array, dqs: Float64Array, from: number, to: number, close: boolean,
  ): void {
    const HOT = 16, M_A = 0, M_B = 1, I_A = 2, I_B = 3, R0_AX = 4, R0_AY = 5, R0_BX = 6, R0_BY = 7, ACC_X = 8, ACC_Y = 9, C_AX = 12, C_AY = 13, C_BX = 14, C_BY = 15;
    const COLD = 12, STEP_X = 0, STEP_Y = 1;
    for (let n = from >>> 0; n < to; n++) {
      const o = n * HOT;
      if (close) {
        const q = n * COLD;
        cold[q + STEP_X] = cold[q + STEP_X]! + d[o + ACC_X]!;
        cold[q + STEP_Y] = cold[q + STEP_Y]! + d[o + ACC_Y]!;
      }
      if (soft[n] === 1) continue;
      const ka = ends[2 * n]!;
      const kb = ends[2 * n + 1]!;
      let c = dqc[ka]!;
      let s = dqs[ka]!;
      const rAx = c * d[o + R0_AX]! - s * d[o + R0_AY]!;
      const rAy = s * d[o + R0_AX]! + c * d[o + R0_AY]!;
      c = dqc[kb]!;
      s = dqs[kb]!;
      const rBx = c * d[o + R0_BX]! - s * d[o + R0_BY]!;
      const rBy = s * d[o + R0_BX]! + c * d[o + R0_BY]!;
      const ex = d[o + C_BX]! + dpx[kb]! + rBx - (d[o + C_AX]! + dpx[ka]! + rAx);
      const ey = d[o + C_BY]! + dpy[kb]! + rBy - (d[o + C_AY]! + dpy[ka]! + rAy);
      const mA = d[o + M_A]!, mB = d[o + M_B]!, iA = d[o + I_A]!, iB = d[o + I_B]!;
      const k11 = mA + mB + iA * rAy * rAy + iB * rBy * rBy;
      const k12 = -iA * rAx * rAy - iB * rBx * rBy;
      const k22 = mA + mB + iA * rAx * rAx + iB * rBx * rBx;
      // K Δ = −C; a singular K (both sides fixed about the anchor, or only turning) by the zero-pivot rule.
      const inv = inverseDet2(k11, k12, k22);
      let px = inv !== 0 ? -inv * (k22 * ex - k12 * ey) : -ex * singularPivot1(k11, k22);
      let py = inv !== 0 ? -inv * (k11 * ey - k12 * ex) : -ey * singularPivot2(k11, k22);
      let da = ka > 0 ? -iA * (rAx * py - rAy * px) : 0;
      let db = kb > 0 ? iB * (rBx * py - rBy * px) : 0;
      // The pass's damping (position-step.ts): neither body turns more than MAX_POSITION_TURN.
      const scale = limitTurn(limitTurn(1, da), db);
      if (scale !== 1) {
        px *= scale;
        py *= scale;
        da *= scale;
        db *= scale;
      }
      if (ka > 0) {
        dpx[ka] = dpx[ka]! - mA * px;
        dpy[ka] = dpy[ka]! - mA * py;
        if (da !== 0) turnBody(dq, dqc, dqs, ka, da);
      }
      if (kb > 0) {
        dpx[kb] = dpx[kb]! + mB * px;
        dpy[kb] = dpy[kb]! + mB * py;
        if (db !== 0) turnBody(dq, dqc, dqs, kb, db);
      }
    }
  }

  /**
   * Rows [from, to) start a step on the same plan (PivotBatch.refresh): the start centres and
   * rotated anchors of every moving side, from the solver bodies' start state (c0, s0, cx, cy;
   * the same arithmetic as PivotJoint's fillSide, so a refreshed step is bitwise the rebuilt one;
   * static sides did not move, a move re-plans); each row keeps what a failed step puts back
   * (`kept`, KEPT = 6 per row) and starts its step's sums from zero.
   */
  function refresh(
    d: Float64Array, cold: Float64Array, kept: Float64Array, ends: Int32Array, c0: Float64Array, s0: Float64Array, cx: Float64Array, cy: Float64Array, from: number, to: number,
  ): void {
    const HOT = 16, R0_AX = 4, R0_AY = 5, R0_BX = 6, R0_BY = 7, ACC_X = 8, ACC_Y = 9, SUM_LA = 10, SUM_LB = 11, C_AX = 12, C_AY = 13, C_BX = 14, C_BY = 15;
    const COLD = 12, STEP_X = 0, STEP_Y = 1, L_AX = 2, L_AY = 3, L_BX = 4, L_BY = 5;
    const KEPT = 6;
    for (let n = from >>> 0; n < to; n++) {
      const o = n * HOT;
      const q = n * COLD;
      const ka = ends[2 * n]!;
      if (ka > 0) {
        const c = c0[ka]!;
        const s = s0[ka]!;
        const lx = cold[q + L_AX]!;
        const ly = cold[q + L_AY]!;
        d[o + C_AX] = cx[ka]!;
        d[o + C_AY] = cy[ka]!;
        d[o + R0_AX] = c * lx - s * ly;
        d[o + R0_AY] = s * lx + c * ly;
      }
      const kb = ends[2 * n + 1]!;
      if (kb > 0) {
        const c = c0[kb]!;
        const s = s0[kb]!;
        const lx = cold[q + L_BX]!;
        const ly = cold[q + L_BY]!;
        d[o + C_BX] = cx[kb]!;
        d[o + C_BY] = cy[kb]!;
        d[o + R0_BX] = c * lx - s * ly;
        d[o + R0_BY] = s * lx + c * ly;
      }
      const k = KEPT * n;
      kept[k] = d[o + ACC_X]!;
      kept[k + 1] = d[o + ACC_Y]!;
      kept[k + 2] = cold[q + STEP_X]!;
      kept[k + 3] = cold[q + STEP_Y]!;
      kept[k + 4] = d[o + SUM_LA]!;
      kept[k + 5] = d[o + SUM_LB]!;
      cold[q + STEP_X] = 0;
      cold[q + STEP_Y] = 0;
      d[o + SUM_LA] = 0;
      d[o + SUM_LB] = 0;
    }
  }

  return { warmStart, solveStiff, position, refresh };
}

/** The parts the factory takes, in its parameters' order (a worker's program passes their text). */
export const PIVOT_KERNEL_PARTS = [SELF_CONTAINED_PARTS.inverseDet2, SELF_CONTAINED_PARTS.singularPivot1, SELF_CONTAINED_PARTS.singularPivot2, sharedLimitTurn, sharedTurnBody] as const;

/** The kernels the calling thread runs. */
export const PIVOT_KERNELS = pivotKernels(...PIVOT_KERNEL_PARTS);

export type PivotKernels = ReturnType<typeof pivotKernels>;
