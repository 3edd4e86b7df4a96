/**
 * The joint batch's velocity pass for a plan of stiff pivots in a pass without bias: the usual
 * case (jointHertz 0), specialised. The general loop (PivotBatch.solveRows) computes a stiff row
 * without bias with the same arithmetic, so a stiff row gives the same bits in either loop
 * (pivot-batch.test.ts runs a stiff chain beside a soft pivot and alone, and compares bits).
 *
 * Why a loop of its own: without the soft and bias branches a 200-link chain (scene D) steps
 * 4.9% faster, the 1000-link chain 4.7% and the 100×100 joint grid 3.3% (both loops in one
 * process, alternating blocks of steps).
 */
import type { SolverBodies } from '../space/solver-bodies.js';
import { inverseDet2, singularPivot1, singularPivot2 } from './dense.js';
import * as L from './pivot-rows.js';

// The layout as this module's own constants: an imported binding read in a hot loop is loaded
// (and checked for initialisation) at every use, which cost the 200-link chain 11–16%.
const ACC_X = L.ACC_X, ACC_Y = L.ACC_Y, HOT = L.HOT, I_A = L.I_A, I_B = L.I_B, M_A = L.M_A, M_B = L.M_B, R0_AX = L.R0_AX, R0_AY = L.R0_AY, R0_BX = L.R0_BX, R0_BY = L.R0_BY, SUM_LA = L.SUM_LA, SUM_LB = L.SUM_LB;

/**
 * A chain's passes are bound by latency: each row waits for the velocities the row before
 * wrote to their shared body. So that wait is kept short. K⁻¹ is formed as coefficients
 * before the velocities are read (the impulse is then one multiply-add from the velocity
 * error), the velocity error takes the body written last as late as it can, and the impulse
 * is applied as it is, not as the difference of two accumulated impulses. Against the
 * nested form (−K⁻¹ as a product of 1/det, the error summed body by body, the impulse
 * recovered from the accumulator), a 200-link chain's step is about 5% faster.
 */
export function solveStiffPivotRows(d: Float64Array, ends: Int32Array, count: number, sb: SolverBodies): void {
  const { vx, vy, w, dqc, dqs } = sb;
  for (let n = 0; n < count; n++) {
    const o = n * HOT;
    const ka = ends[2 * n];
    const kb = ends[2 * n + 1];
    let c = dqc[ka]!;
    let s = dqs[ka]!;
    const rAx = c * d[o + R0_AX] - s * d[o + R0_AY];
    const rAy = s * d[o + R0_AX] + c * d[o + R0_AY];
    c = dqc[kb]!;
    s = dqs[kb]!;
    const rBx = c * d[o + R0_BX] - s * d[o + R0_BY];
    const rBy = s * d[o + R0_BX] + c * d[o + R0_BY];
    const mA = d[o + M_A], mB = d[o + M_B], iA = d[o + I_A], iB = d[o + I_B];
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
    d[o + ACC_X] = d[o + ACC_X] + px;
    d[o + ACC_Y] = d[o + ACC_Y] + py;
    const la = rAx * py - rAy * px;
    const lb = rBx * py - rBy * px;
    d[o + SUM_LA] = d[o + SUM_LA] + la;
    d[o + SUM_LB] = d[o + SUM_LB] + lb;
    vx[ka] = vx[ka]! - mA * px;
    vy[ka] = vy[ka]! - mA * py;
    w[ka] = wA - iA * la;
    vx[kb] = vx[kb]! + mB * px;
    vy[kb] = vy[kb]! + mB * py;
    w[kb] = wB + iB * lb;
  }
}
