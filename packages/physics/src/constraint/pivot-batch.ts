/**
 * PivotBatch: every active PivotJoint of a step, solved from flat typed arrays.
 * Chains, grids and ragdolls are made of pivots, and walking thousands of joint objects per
 * pass is cache-hostile; here each pass is one scalar loop over flat arrays (the maths is the
 * PivotJoint derivation: C = p2 − p1, 2×2 K, Jᵀλ = ∓λ at r1 / r2).
 *
 * It is the joint-batch solver family (space/solver-families.ts). Lifecycle per step: begin() →
 * add(joint) for each prepared pivot → per substep warmStart, solve, relax×n → solvePosition×m →
 * store (the impulses stay in the rows; a joint reads its row when asked).
 * When the space's plan is unchanged (same pivots, same gathered bodies, same substep), the next
 * step calls refresh() instead of begin()/add(): the rows stay, with their warm-start impulses,
 * and only the pose data is recomputed, from the solver arrays.
 */
import type { BreakReason, Constraint } from './constraint.js';
import type { ConstraintFamily } from '../space/solver-families.js';
import type { SolverBodies } from '../space/solver-bodies.js';
import type { StepContext } from '../space/step-context.js';
import type { PivotJoint } from './joints/pivot-joint.js';
import { inverseDet2, normClampFactor, singularPivot1, singularPivot2 } from './dense.js';
import { isRigid, leverShare, passSoftness, referenceMass, softRhs, softUpdate, stiffBias, type Softness } from './softness.js';
import { resized, shareArray } from '../util/typed-arrays.js';
import { PIVOT_KERNELS } from './pivot-kernels.js';
import { GraphColouring } from '../space/graph-colouring.js';
import { COMMAND } from '../parallel/control.js';
import type { StageViews } from '../parallel/thread-runtime.js';
import type { WorkerPool } from '../parallel/worker-pool.js';
import * as L from './pivot-rows.js';

// The layout as this module's own constants: an imported binding read in a hot loop is loaded
// (and checked for initialisation) at every use, which cost the 200-link chain 11–16%.
/** Numbers kept per row for a failed step (see kept). */
const KEPT = 6;
const ACC_X = L.ACC_X, ACC_Y = L.ACC_Y, BIAS = L.BIAS, COMPLIANCE = L.COMPLIANCE, C_AX = L.C_AX, C_AY = L.C_AY, C_BX = L.C_BX, C_BY = L.C_BY, COLD = L.COLD, HOT = L.HOT, I_A = L.I_A, I_B = L.I_B, L_AX = L.L_AX, L_AY = L.L_AY, L_BX = L.L_BX, L_BY = L.L_BY, M_A = L.M_A, M_B = L.M_B, MAX_ERR = L.MAX_ERR, MAX_IMP = L.MAX_IMP, R0_AX = L.R0_AX, R0_AY = L.R0_AY, R0_BX = L.R0_BX, R0_BY = L.R0_BY, STEP_X = L.STEP_X, STEP_Y = L.STEP_Y, SUM_LA = L.SUM_LA, SUM_LB = L.SUM_LB;

/**
 * A plan of at least this many pivots solves its rows in colour order (space/graph-colouring.ts),
 * so that its passes can run on several threads; a smaller one in the order the joints were
 * added. A chain converges faster in its own order, where each link's correction reaches the next
 * within a pass; in colour order (every other link, then the rest) it takes twice the passes to
 * travel as far. Below this size, a pass is over in tens of microseconds and the workers would
 * not pay for their barriers anyway. The order depends on the plan alone, never on the worker
 * count: a plan gives the same bits on any number of threads.
 */
export const PIVOT_COLOUR_MIN_ROWS = 2048;

/** Where readRow() puts the impulse a body received (an AnchorSlot). */
export interface BodyImpulse {
  ix: number;
  iy: number;
  iz: number;
}

export class PivotBatch implements ConstraintFamily {
  readonly kind = 'joint-batch';
  count = 0;
  private capacity = 0;
  readonly joints: PivotJoint[] = [];
  /** Row n's solver indices: A at 2n, B at 2n + 1 (0: the dummy static body). */
  private ends = new Int32Array(0);
  /** 1 for soft joints (own spring in every pass, clamped), 0 for stiff. */
  private soft = new Uint8Array(0);
  private hot = new Float64Array(0);
  private cold = new Float64Array(0);
  /** Substep midpoint marker: false until the first warm start of the step. */
  private started = false;
  /** Soft rows in the plan (none: the passes without bias take the stiff kernel, pivot-kernels.ts). */
  private softCount = 0;
  /** The pivots add() took for the plan being built, and their solver bodies (2 per joint): close() makes them rows. */
  private readonly pending: PivotJoint[] = [];
  private pairs = new Int32Array(0);
  /** The rows' colours, when the plan is coloured (PIVOT_COLOUR_MIN_ROWS): colour c's rows are start[c] to start[c + 1]. */
  readonly colours = new GraphColouring();
  /** Whether this plan's rows are in colour order. */
  coloured = false;

  constructor() {
    this.reserve(64);
  }

  private reserve(n: number): void {
    if (n <= this.capacity) return;
    let cap = Math.max(64, this.capacity);
    while (cap < n) cap *= 2;
    this.hot = resized(this.hot, cap * HOT);
    this.cold = resized(this.cold, cap * COLD);
    this.ends = resized(this.ends, cap * 2);
    this.soft = resized(this.soft, cap);
    this.kept = resized(this.kept, KEPT * cap);
    this.capacity = cap;
  }

  /**
   * Start a new plan. The rows of the previous one hand their impulses back to their joints
   * first (rows are read lazily: a joint reads its row only when asked, see PivotJoint).
   */
  begin(): void {
    for (let n = 0; n < this.count; n++) this.joints[n]!._detachFromBatch(this, n);
    this.count = 0;
    this.joints.length = 0;
    this.started = false;
    this.softCount = 0;
    this.pending.length = 0;
    this.coloured = false;
  }

  /** Take one pivot into the plan (routed here by its _solverFamily(); it never breaks while prepared). */
  add(c: Constraint): BreakReason | null {
    const j = c as PivotJoint;
    const i = this.pending.length;
    this.pending.push(j);
    if (this.pairs.length < 2 * i + 2) this.pairs = resized(this.pairs, Math.max(128, 4 * i));
    const a = j.bodies[0]!._solverIndex;
    const b = j.bodies[1]!._solverIndex;
    this.pairs[2 * i] = a > 0 ? a : 0;
    this.pairs[2 * i + 1] = b > 0 ? b : 0;
    return null;
  }

  /**
   * The plan's pivots become rows: in colour order when there are PIVOT_COLOUR_MIN_ROWS of them
   * or more, else in the order they came. Each joint fills its row.
   */
  close(ctx: StepContext): void {
    const pending = this.pending;
    const n = pending.length;
    this.reserve(n);
    this.coloured = n >= PIVOT_COLOUR_MIN_ROWS;
    if (this.coloured) this.colours.colour(this.pairs, 2, 0, n, ctx.bodies.count);
    const order = this.colours.order;
    const joints = this.joints;
    joints.length = 0;
    for (let r = 0; r < n; r++) joints.push(pending[this.coloured ? order[r]! : r]!);
    this.count = n;
    for (let r = 0; r < n; r++) joints[r]!._fillBatch(this, r, ctx);
    pending.length = 0;
  }

  /** Only a pivot that can break under force has anything to finish. */
  finishes(c: Constraint): boolean {
    return c._breakUnderForce;
  }

  /**
   * Row n's side A (first) or B from its body's start state: solver index k (0 when not in the
   * solver), inverse mass and inertia, start centre of mass (cx, cy) and rotation (c, s), and the
   * anchor relative to the centre of mass in body frame (lx, ly).
   */
  fillSide(n: number, first: boolean, k: number, m: number, i: number, cx: number, cy: number, c: number, s: number, lx: number, ly: number): void {
    const d = this.hot;
    const x = this.cold;
    const o = n * HOT;
    const q = n * COLD;
    this.ends[2 * n + (first ? 0 : 1)] = k;
    d[o + (first ? M_A : M_B)] = m;
    d[o + (first ? I_A : I_B)] = i;
    d[o + (first ? C_AX : C_BX)] = cx;
    d[o + (first ? C_AY : C_BY)] = cy;
    d[o + (first ? R0_AX : R0_BX)] = c * lx - s * ly;
    d[o + (first ? R0_AY : R0_BY)] = s * lx + c * ly;
    x[q + (first ? L_AX : L_BX)] = lx;
    x[q + (first ? L_AY : L_BY)] = ly;
  }

  /** Row n starts its step with the warm-start impulse (accX, accY); soft: its spring and limits (else stiff). */
  startRow(n: number, accX: number, accY: number, soft: Softness | null, maxImp: number, maxErr: number): void {
    const d = this.hot;
    const x = this.cold;
    const o = n * HOT;
    const q = n * COLD;
    d[o + ACC_X] = accX;
    d[o + ACC_Y] = accY;
    const a = this.kept;
    a[KEPT * n] = accX;
    a[KEPT * n + 1] = accY;
    d[o + SUM_LA] = d[o + SUM_LB] = 0;
    x[q + STEP_X] = x[q + STEP_Y] = 0;
    if (soft === null) {
      this.soft[n] = 0;
      return;
    }
    this.soft[n] = 1;
    this.softCount++;
    x[q + BIAS] = soft.biasRate;
    x[q + COMPLIANCE] = soft.compliance;
    x[q + MAX_IMP] = maxImp;
    x[q + MAX_ERR] = maxErr;
  }

  /**
   * Row n's impulses: the accumulated one into acc, the step's into stepImp, and what each body
   * received this step into sideA and sideB (linear x, y and angular z).
   */
  readRow(n: number, acc: Float64Array, stepImp: Float64Array, sideA: BodyImpulse, sideB: BodyImpulse): void {
    const d = this.hot;
    const x = this.cold;
    const o = n * HOT;
    const q = n * COLD;
    acc[0] = d[o + ACC_X];
    acc[1] = d[o + ACC_Y];
    const px = x[q + STEP_X];
    const py = x[q + STEP_Y];
    stepImp[0] = px;
    stepImp[1] = py;
    // (The linear impulse of the step is its step impulse: see SUM_LA.)
    sideA.ix = -px;
    sideA.iy = -py;
    sideA.iz = -d[o + SUM_LA];
    sideB.ix = px;
    sideB.iy = py;
    sideB.iz = d[o + SUM_LB];
  }

  /**
   * Start a step on the same rows: the start centres and rotated anchors of every moving side,
   * from the solver bodies' start state (the same arithmetic as PivotJoint's fillSide, so a
   * refreshed step is bitwise the rebuilt one). Static sides did not move (a move re-plans).
   */
  refresh(ctx: StepContext): void {
    this.started = false;
    this.keptAt = ctx.step;
    const sb = ctx.bodies;
    let from = 0;
    const pool = this.pool;
    if (pool !== null && this.coloured) {
      // One range split evenly: each row is refreshed from its own numbers and the bodies' start state.
      this.writeViews(pool.views);
      sb.writeViews(pool.views);
      pool.runRange(COMMAND.PIVOT_REFRESH, 0, this.count);
      from = this.count;
    }
    PIVOT_KERNELS.refresh(this.hot, this.cold, this.kept, this.ends, sb.c0, sb.s0, sb.cx, sb.cy, from, this.count);
  }



  private endSubstep(): void {
    const d = this.hot, x = this.cold;
    for (let n = 0; n < this.count; n++) {
      const o = n * HOT;
      const q = n * COLD;
      x[q + STEP_X] = x[q + STEP_X] + d[o + ACC_X];
      x[q + STEP_Y] = x[q + STEP_Y] + d[o + ACC_Y];
    }
  }

  // A long loop is optimised on the stack (OSR) before the code after it has ever run, and such
  // code then has no type feedback: the optimised loop bailed out at that line on every call (a
  // deopt loop, 1,000 bailouts per 60 steps of the joint grid). So each pass is a wrapper that does
  // the work before and after, around a method whose loop is its last statement.
  warmStart(ctx: StepContext): void {
    const sb = ctx.bodies;
    // A substep before this one ends in the same pass over the rows (the kernel's `close`).
    const close = this.started;
    this.started = true;
    this.warmStartRows(sb, close);
    // The dummy static body must stay still whatever was added to it.
    sb.vx[0] = sb.vy[0] = sb.w[0] = 0;
  }

  private warmStartRows(sb: SolverBodies, close: boolean): void {
    const from = this.parallelStage(close ? COMMAND.PIVOT_NEXT_SUBSTEP : COMMAND.PIVOT_WARM_START, sb);
    PIVOT_KERNELS.warmStart(this.hot, this.cold, this.ends, sb.vx, sb.vy, sb.w, sb.dqc, sb.dqs, from, this.count, close);
  }


  solve(ctx: StepContext): void {
    this.pass(ctx, true);
  }

  relax(ctx: StepContext): void {
    this.pass(ctx, false);
  }

  private pass(ctx: StepContext, useBias: boolean): void {
    if (this.softCount === 0 && (!useBias || isRigid(ctx.jointSoftness))) this.solveStiffRows(ctx.bodies);
    else this.solveRows(ctx, useBias);
    const sb = ctx.bodies;
    sb.vx[0] = sb.vy[0] = sb.w[0] = 0;
  }

  /** The stiff kernel over every row: the colours on every thread when there are workers, then the rest. */
  private solveStiffRows(sb: SolverBodies): void {
    const from = this.parallelStage(COMMAND.PIVOT_SOLVE, sb);
    PIVOT_KERNELS.solveStiff(this.hot, this.ends, sb.vx, sb.vy, sb.w, sb.dqc, sb.dqs, from, this.count);
  }

  /**
   * The general pass, over every row on the calling thread: soft rows, and stiff ones in a biased
   * pass when jointHertz > 0. In the rows' order, coloured or not, as the stiff kernel's
   * threads give the same bits as that order.
   */
  private solveRows(ctx: StepContext, useBias: boolean): void {
    const sb = ctx.bodies;
    const { vx, vy, w, dqc, dqs, dpx, dpy } = sb;
    const stiff = passSoftness(null, useBias, ctx.jointSoftness);
    const h = ctx.h;
    const d = this.hot, x = this.cold, ends = this.ends;
    for (let n = 0; n < this.count; n++) {
      const o = n * HOT;
      const q = n * COLD;
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
      // A soft row's own spring, from its row; a stiff row's coefficients are the pass's.
      const soft = this.soft[n] === 1;
      const biasRate = soft ? x[q + BIAS] : stiff.biasRate;
      const massScale = stiff.massScale;
      const impulseScale = stiff.impulseScale;
      const mA = d[o + M_A], mB = d[o + M_B], iA = d[o + I_A], iB = d[o + I_B];
      // A soft row's compliances Γ = g·Kref: Kref is K's linear part, mA + mB, plus the lever
      // share, the mean of the two rows' angular parts, also when neither side can move
      // (allowMovement: false), as every path has it (softness.ts).
      // Fixed compliance: a soft row's own spring, or a stiff row's joint softness in the biased
      // pass (jointHertz > 0), as joint islands and Joint take it.
      const fixed = soft || stiff.compliance > 0;
      const compliance = soft ? x[q + COMPLIANCE] : stiff.compliance;
      const angX = fixed ? iA * rAy * rAy + iB * rBy * rBy : 0;
      const angY = fixed ? iA * rAx * rAx + iB * rBx * rBx : 0;
      const lever = fixed ? pivotLeverShare(angX, angY) : 0;
      const gx = fixed ? compliance * referenceMass(mA + mB, angX, lever, true) : 0;
      const gy = fixed ? compliance * referenceMass(mA + mB, angY, lever, true) : 0;
      // −K⁻¹ (see pivot-kernels.ts); a soft row's −(K + Γ)⁻¹
      const k11 = mA + mB + iA * rAy * rAy + iB * rBy * rBy + gx;
      const k12 = -iA * rAx * rAy - iB * rBx * rBy;
      const k22 = mA + mB + iA * rAx * rAx + iB * rBx * rBx + gy;
      const inv = inverseDet2(k11, k12, k22);
      const a11 = inv !== 0 ? -inv * k22 : -singularPivot1(k11, k22);
      const a12 = inv * k12;
      const a22 = inv !== 0 ? -inv * k11 : -singularPivot2(k11, k22);
      const wB = w[kb]!;
      const eX = vx[kb]! - wB * rBy;
      const eY = vy[kb]! + wB * rBx;
      const wA = w[ka]!;
      const dvx = eX - vx[ka]! + wA * rAy;
      const dvy = eY - vy[ka]! - wA * rAx;
      const oldX = d[o + ACC_X];
      const oldY = d[o + ACC_Y];
      let px: number;
      let py: number;
      if (!soft && biasRate === 0 && massScale === 1 && impulseScale === 0) {
        // A stiff row without bias: the stiff kernel's arithmetic, so a plan's stiff rows give the
        // same bits whether or not it also holds soft ones.
        px = a11 * dvx + a12 * dvy;
        py = a12 * dvx + a22 * dvy;
        d[o + ACC_X] = oldX + px;
        d[o + ACC_Y] = oldY + py;
      } else {
        let rx = dvx;
        let ry = dvy;
        if (biasRate !== 0) {
          let ex = d[o + C_BX] + dpx[kb]! + rBx - (d[o + C_AX] + dpx[ka]! + rAx);
          let ey = d[o + C_BY] + dpy[kb]! + rBy - (d[o + C_AY] + dpy[ka]! + rAy);
          const maxErr = x[q + MAX_ERR];
          if (soft && maxErr !== Infinity) {
            const f = normClampFactor(ex * ex + ey * ey, maxErr);
            ex *= f;
            ey *= f;
          }
          rx += soft ? biasRate * ex : stiffBias(biasRate, ex);
          ry += soft ? biasRate * ey : stiffBias(biasRate, ey);
        }
        let nx: number;
        let ny: number;
        if (fixed) {
          // (K + Γ) Δλ = −(V + bias) − Γ·λold, with a = −(K + Γ)⁻¹: Δλ = a·(V + bias + Γ·λold).
          rx = -softRhs(-rx, gx, oldX);
          ry = -softRhs(-ry, gy, oldY);
          nx = oldX + (a11 * rx + a12 * ry);
          ny = oldY + (a12 * rx + a22 * ry);
          if (soft) {
            const f = normClampFactor(nx * nx + ny * ny, x[q + MAX_IMP] * h);
            nx *= f;
            ny *= f;
          }
        } else {
          nx = softUpdate(oldX, a11 * rx + a12 * ry, massScale, impulseScale);
          ny = softUpdate(oldY, a12 * rx + a22 * ry, massScale, impulseScale);
        }
        d[o + ACC_X] = nx;
        d[o + ACC_Y] = ny;
        px = nx - oldX;
        py = ny - oldY;
      }
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

  /** Position pass for the stiff pivots (pivot-kernels.ts): the colours on every thread when there are workers, then the rest. */
  solvePosition(ctx: StepContext): void {
    const sb = ctx.bodies;
    // The first position pass ends the last substep (store does, when there is none): a pass of
    // its own over the rows, on the calling thread, was 3% of the joint grid's step with a worker.
    const close = this.started;
    this.started = false;
    const from = this.parallelStage(close ? COMMAND.PIVOT_POSITION_CLOSE : COMMAND.PIVOT_POSITION, sb);
    PIVOT_KERNELS.position(this.hot, this.cold, this.ends, this.soft, sb.dpx, sb.dpy, sb.dq, sb.dqc, sb.dqs, from, this.count, close);
  }

  // ------------------------------------------------------------------ the parallel step

  /** The workers (parallel/worker-pool.ts), or null: every row on the calling thread. */
  private pool: WorkerPool | null = null;

  /** Keep the rows in SharedArrayBuffers from now on (before workers start). */
  share(): void {
    this.hot = shareArray(this.hot);
    this.cold = shareArray(this.cold);
    this.kept = shareArray(this.kept);
    this.ends = shareArray(this.ends);
    this.soft = shareArray(this.soft);
  }

  /** Solve from now on with these workers (null: alone). The rows must have been shared. */
  attach(pool: WorkerPool | null): void {
    this.pool = pool;
  }

  /** The arrays of `v` that are this batch's rows (their current ones: an array that grew is new). */
  writeViews(v: StageViews): void {
    v.pd = this.hot;
    v.pcold = this.cold;
    v.pkept = this.kept;
    v.pends = this.ends;
    v.psoft = this.soft;
  }

  /**
   * Run a stage's colours on every thread when there are workers and the plan is coloured, and
   * return where the calling thread goes on alone: the overflow's start, or 0 (every row).
   */
  private parallelStage(command: number, sb: SolverBodies): number {
    const pool = this.pool;
    if (pool === null || !this.coloured) return 0;
    return pool.runColours(command, this.colours.start, this, sb);
  }


  /**
   * End of the step: close the last substep. The impulses stay in the rows (they warm-start the
   * next step); a joint reads its row when asked (PivotJoint._syncFromBatch), so the end of a step
   * touches no joint object.
   */
  store(): void {
    if (this.started) this.endSubstep();
    this.started = false;
  }

  /**
   * What a failed step puts back, KEPT per row: the accumulated impulses as prepared (x, y), and
   * the last step's read-outs (STEP_X, STEP_Y, SUM_LA, SUM_LB). Kept by startRow and keepReadOuts
   * (a new plan's rows, whose joints hold the read-outs) and by refresh, which write or read every
   * row anyway: a copy loop of its own cost a 200-link chain about 1% per step.
   */
  private kept = new Float64Array(0);
  private keptAt = -1;
  /** The step ctx.step failed: the rows' impulses as prepared, and their read-outs as the last step left them. */
  restoreImpulses(ctx: StepContext): void {
    if (this.keptAt !== ctx.step) return;
    const a = this.kept, d = this.hot, x = this.cold;
    for (let n = 0; n < this.count; n++) {
      const o = n * HOT;
      const q = n * COLD;
      const k = KEPT * n;
      d[o + ACC_X] = a[k];
      d[o + ACC_Y] = a[k + 1];
      x[q + STEP_X] = a[k + 2];
      x[q + STEP_Y] = a[k + 3];
      d[o + SUM_LA] = a[k + 4];
      d[o + SUM_LB] = a[k + 5];
    }
    this.started = false;
  }

  /**
   * Row n's read-outs as the last step left them (its joint's, from a previous plan or the
   * one-by-one path): what a failed step of step `step` puts back.
   */
  keepReadOuts(n: number, step: number, stepX: number, stepY: number, sumLA: number, sumLB: number): void {
    const a = this.kept;
    const k = KEPT * n;
    a[k + 2] = stepX;
    a[k + 3] = stepY;
    a[k + 4] = sumLA;
    a[k + 5] = sumLB;
    this.keptAt = step;
  }

  /** Row n's next step starts from zero (its joint's _forgetWarmStart()); its read-outs stay. */
  forgetRow(n: number): void {
    const o = n * HOT;
    this.hot[o + ACC_X] = this.hot[o + ACC_Y] = 0;
  }

  /** Forget row n's impulses (its joint's clearCache()). */
  clearRow(n: number): void {
    const o = n * HOT;
    const q = n * COLD;
    this.hot[o + ACC_X] = this.hot[o + ACC_Y] = this.cold[q + STEP_X] = this.cold[q + STEP_Y] = 0;
    this.hot[o + SUM_LA] = this.hot[o + SUM_LB] = 0;
  }
}

/** A pivot's lever share (softness.ts): both its rows are linear, whatever the bodies' masses. */
function pivotLeverShare(angX: number, angY: number): number {
  return leverShare(angX + angY, 2);
}
