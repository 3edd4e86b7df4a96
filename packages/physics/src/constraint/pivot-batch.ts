/**
 * PivotBatch: every active PivotJoint of a step, solved from struct-of-arrays typed arrays.
 * Chains, grids and ragdolls are made of pivots, and walking thousands of joint objects per
 * pass is cache-hostile; here each pass is one scalar loop over flat arrays (the maths is the
 * PivotJoint derivation: C = p2 − p1, 2×2 K, Jᵀλ = ∓λ at r1 / r2).
 *
 * Lifecycle per step: begin() → add(joint) for each prepared pivot → per substep warmStart,
 * solve(useBias), solve(false)×n → solvePosition()×m → store() (impulses back to the joints).
 * When the space's plan is unchanged (same pivots, same gathered bodies, same substep), the next
 * step calls refresh() instead of begin()/add(): the rows stay, with their warm-start impulses,
 * and only the pose data is recomputed, from the solver arrays.
 */
import type { SolverBodies } from '../space/solver-bodies.js';
import type { StepContext } from '../space/step-context.js';
import type { PivotJoint } from './joints/pivot-joint.js';

const F64 = ['mA', 'mB', 'iA', 'iB', 'lAx', 'lAy', 'lBx', 'lBy', 'r0Ax', 'r0Ay', 'r0Bx', 'r0By', 'cAx', 'cAy', 'cBx', 'cBy', 'accX', 'accY', 'stepX', 'stepY', 'bias', 'mass', 'imp', 'maxImp', 'maxErr', 'sumLA', 'sumLB'] as const;
type F64Field = (typeof F64)[number];

export class PivotBatch {
  count = 0;
  private capacity = 0;
  readonly joints: PivotJoint[] = [];
  kA = new Int32Array(0);
  kB = new Int32Array(0);
  /** 1 for soft joints (own spring in every pass, clamped), 0 for stiff. */
  soft = new Uint8Array(0);
  /** Substep midpoint marker: false until the first warm start of the step. */
  private started = false;
  mA = new Float64Array(0);
  mB = new Float64Array(0);
  iA = new Float64Array(0);
  iB = new Float64Array(0);
  /** Anchors relative to the centre of mass, in body frame (what refresh() rotates). */
  lAx = new Float64Array(0);
  lAy = new Float64Array(0);
  lBx = new Float64Array(0);
  lBy = new Float64Array(0);
  r0Ax = new Float64Array(0);
  r0Ay = new Float64Array(0);
  r0Bx = new Float64Array(0);
  r0By = new Float64Array(0);
  cAx = new Float64Array(0);
  cAy = new Float64Array(0);
  cBx = new Float64Array(0);
  cBy = new Float64Array(0);
  accX = new Float64Array(0);
  accY = new Float64Array(0);
  stepX = new Float64Array(0);
  stepY = new Float64Array(0);
  /** Soft joints: their own biasRate, massScale, impulseScale, max impulse and max error. */
  bias = new Float64Array(0);
  mass = new Float64Array(0);
  imp = new Float64Array(0);
  maxImp = new Float64Array(0);
  maxErr = new Float64Array(0);
  /**
   * Angular impulse applied to A and B this step (for bodyImpulse), summed per pass: r changes
   * from pose to pose. The linear one needs no sum of its own: the impulses of a substep add up
   * to acc at its end, so over the step they add up to stepX, stepY.
   */
  sumLA = new Float64Array(0);
  sumLB = new Float64Array(0);

  // The fields are declared one by one (not added in a loop): properties added through computed
  // keys can push the object into dictionary mode, which made every solver pass twice as slow.
  constructor() {
    this.reserve(64);
  }

  private reserve(n: number): void {
    if (n <= this.capacity) return;
    let cap = Math.max(64, this.capacity);
    while (cap < n) cap *= 2;
    const self = this as unknown as Record<F64Field, Float64Array>;
    for (const f of F64) {
      const b = new Float64Array(cap);
      b.set(self[f]);
      self[f] = b;
    }
    const kA = new Int32Array(cap);
    kA.set(this.kA);
    this.kA = kA;
    const kB = new Int32Array(cap);
    kB.set(this.kB);
    this.kB = kB;
    const soft = new Uint8Array(cap);
    soft.set(this.soft);
    this.soft = soft;
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
  }

  /** Gather one prepared pivot (its slots hold this step's start state). */
  add(j: PivotJoint, ctx: StepContext): void {
    const n = this.count++;
    if (n >= this.capacity) this.reserve(n + 1);
    this.joints.push(j);
    j._fillBatch(this, n, ctx);
  }

  /**
   * Start a step on the same rows: the start centres and rotated anchors of every moving side,
   * from the solver bodies' start state (the same arithmetic as PivotJoint's fillSide, so a
   * refreshed step is bitwise the rebuilt one). Static sides did not move (a move re-plans).
   */
  refresh(sb: SolverBodies): void {
    this.started = false;
    const { c0, s0, cx, cy } = sb;
    for (let n = 0; n < this.count; n++) {
      const ka = this.kA[n]!;
      if (ka > 0) {
        const c = c0[ka]!;
        const s = s0[ka]!;
        const lx = this.lAx[n]!;
        const ly = this.lAy[n]!;
        this.cAx[n] = cx[ka]!;
        this.cAy[n] = cy[ka]!;
        this.r0Ax[n] = c * lx - s * ly;
        this.r0Ay[n] = s * lx + c * ly;
      }
      const kb = this.kB[n]!;
      if (kb > 0) {
        const c = c0[kb]!;
        const s = s0[kb]!;
        const lx = this.lBx[n]!;
        const ly = this.lBy[n]!;
        this.cBx[n] = cx[kb]!;
        this.cBy[n] = cy[kb]!;
        this.r0Bx[n] = c * lx - s * ly;
        this.r0By[n] = s * lx + c * ly;
      }
      this.stepX[n] = this.stepY[n] = 0;
      this.sumLA[n] = this.sumLB[n] = 0;
    }
  }

  private endSubstep(): void {
    for (let n = 0; n < this.count; n++) {
      this.stepX[n] = this.stepX[n]! + this.accX[n]!;
      this.stepY[n] = this.stepY[n]! + this.accY[n]!;
    }
  }

  // A long loop is optimised on the stack (OSR) before the code after it has ever run, and such
  // code then has no type feedback: the optimised loop bailed out at that line on every call (a
  // deopt loop, 1,000 bailouts per 60 steps of the joint grid). So each pass is a wrapper that does
  // the work before and after, around a method whose loop is its last statement.
  warmStart(sb: SolverBodies): void {
    if (this.started) this.endSubstep();
    this.started = true;
    this.warmStartRows(sb);
    // The dummy static body must stay still whatever was added to it.
    sb.vx[0] = sb.vy[0] = sb.w[0] = 0;
  }

  private warmStartRows(sb: SolverBodies): void {
    const { vx, vy, w, dqc, dqs } = sb;
    for (let n = 0; n < this.count; n++) {
      const ka = this.kA[n]!;
      const kb = this.kB[n]!;
      let c = dqc[ka]!;
      let s = dqs[ka]!;
      const rAx = c * this.r0Ax[n]! - s * this.r0Ay[n]!;
      const rAy = s * this.r0Ax[n]! + c * this.r0Ay[n]!;
      c = dqc[kb]!;
      s = dqs[kb]!;
      const rBx = c * this.r0Bx[n]! - s * this.r0By[n]!;
      const rBy = s * this.r0Bx[n]! + c * this.r0By[n]!;
      const px = this.accX[n]!;
      const py = this.accY[n]!;
      const la = rAx * py - rAy * px;
      const lb = rBx * py - rBy * px;
      this.sumLA[n] = this.sumLA[n]! + la;
      this.sumLB[n] = this.sumLB[n]! + lb;
      const mA = this.mA[n]!, mB = this.mB[n]!;
      vx[ka] = vx[ka]! - mA * px;
      vy[ka] = vy[ka]! - mA * py;
      w[ka] = w[ka]! - this.iA[n]! * la;
      vx[kb] = vx[kb]! + mB * px;
      vy[kb] = vy[kb]! + mB * py;
      w[kb] = w[kb]! + this.iB[n]! * lb;
    }
  }

  solve(ctx: StepContext, useBias: boolean): void {
    this.solveRows(ctx, useBias);
    const sb = ctx.bodies;
    sb.vx[0] = sb.vy[0] = sb.w[0] = 0;
  }

  private solveRows(ctx: StepContext, useBias: boolean): void {
    const sb = ctx.bodies;
    const { vx, vy, w, dqc, dqs, dpx, dpy } = sb;
    const js = ctx.jointSoftness;
    const h = ctx.h;
    for (let n = 0; n < this.count; n++) {
      const ka = this.kA[n]!;
      const kb = this.kB[n]!;
      let c = dqc[ka]!;
      let s = dqs[ka]!;
      const rAx = c * this.r0Ax[n]! - s * this.r0Ay[n]!;
      const rAy = s * this.r0Ax[n]! + c * this.r0Ay[n]!;
      c = dqc[kb]!;
      s = dqs[kb]!;
      const rBx = c * this.r0Bx[n]! - s * this.r0By[n]!;
      const rBy = s * this.r0Bx[n]! + c * this.r0By[n]!;
      const soft = this.soft[n] === 1;
      let biasRate = 0;
      let massScale = 1;
      let impulseScale = 0;
      if (soft) {
        biasRate = this.bias[n]!;
        massScale = this.mass[n]!;
        impulseScale = this.imp[n]!;
      } else if (useBias) {
        biasRate = js.biasRate;
        massScale = js.massScale;
        impulseScale = js.impulseScale;
      }
      let bx = 0;
      let by = 0;
      if (biasRate !== 0) {
        let ex = this.cBx[n]! + dpx[kb]! + rBx - (this.cAx[n]! + dpx[ka]! + rAx);
        let ey = this.cBy[n]! + dpy[kb]! + rBy - (this.cAy[n]! + dpy[ka]! + rAy);
        const maxErr = this.maxErr[n]!;
        if (soft && maxErr !== Infinity) {
          const e = Math.sqrt(ex * ex + ey * ey);
          if (e > maxErr) {
            ex *= maxErr / e;
            ey *= maxErr / e;
          }
        }
        bx = biasRate * ex;
        by = biasRate * ey;
      }
      const wA = w[ka]!;
      const wB = w[kb]!;
      const dvx = vx[kb]! - wB * rBy - (vx[ka]! - wA * rAy);
      const dvy = vy[kb]! + wB * rBx - (vy[ka]! + wA * rAx);
      const mA = this.mA[n]!, mB = this.mB[n]!, iA = this.iA[n]!, iB = this.iB[n]!;
      const k11 = mA + mB + iA * rAy * rAy + iB * rBy * rBy;
      const k12 = -iA * rAx * rAy - iB * rBx * rBy;
      const k22 = mA + mB + iA * rAx * rAx + iB * rBx * rBx;
      const rx = -(dvx + bx);
      const ry = -(dvy + by);
      let xx: number;
      let xy: number;
      const det = k11 * k22 - k12 * k12;
      if (det > 1e-12 * k11 * k22 && det > 0) {
        const inv = 1 / det;
        xx = inv * (k22 * rx - k12 * ry);
        xy = inv * (k11 * ry - k12 * rx);
      } else {
        xx = k11 > 0 ? rx / k11 : 0;
        xy = k22 > 0 ? ry / k22 : 0;
      }
      const oldX = this.accX[n]!;
      const oldY = this.accY[n]!;
      let nx = oldX + massScale * xx - impulseScale * oldX;
      let ny = oldY + massScale * xy - impulseScale * oldY;
      if (soft) {
        const max = this.maxImp[n]! * h;
        const n2 = nx * nx + ny * ny;
        if (n2 > max * max) {
          const f = max / Math.sqrt(n2);
          nx *= f;
          ny *= f;
        }
      }
      this.accX[n] = nx;
      this.accY[n] = ny;
      const px = nx - oldX;
      const py = ny - oldY;
      const la = rAx * py - rAy * px;
      const lb = rBx * py - rBy * px;
      this.sumLA[n] = this.sumLA[n]! + la;
      this.sumLB[n] = this.sumLB[n]! + lb;
      vx[ka] = vx[ka]! - mA * px;
      vy[ka] = vy[ka]! - mA * py;
      w[ka] = wA - iA * la;
      vx[kb] = vx[kb]! + mB * px;
      vy[kb] = vy[kb]! + mB * py;
      w[kb] = w[kb]! + iB * lb;
    }
  }

  /** Position pass for the stiff pivots: K Δ = −C on the position deltas. */
  solvePosition(sb: SolverBodies): void {
    const { dqc, dqs, dpx, dpy } = sb;
    for (let n = 0; n < this.count; n++) {
      if (this.soft[n] === 1) continue;
      const ka = this.kA[n]!;
      const kb = this.kB[n]!;
      let c = dqc[ka]!;
      let s = dqs[ka]!;
      const rAx = c * this.r0Ax[n]! - s * this.r0Ay[n]!;
      const rAy = s * this.r0Ax[n]! + c * this.r0Ay[n]!;
      c = dqc[kb]!;
      s = dqs[kb]!;
      const rBx = c * this.r0Bx[n]! - s * this.r0By[n]!;
      const rBy = s * this.r0Bx[n]! + c * this.r0By[n]!;
      const ex = this.cBx[n]! + dpx[kb]! + rBx - (this.cAx[n]! + dpx[ka]! + rAx);
      const ey = this.cBy[n]! + dpy[kb]! + rBy - (this.cAy[n]! + dpy[ka]! + rAy);
      const mA = this.mA[n]!, mB = this.mB[n]!, iA = this.iA[n]!, iB = this.iB[n]!;
      const k11 = mA + mB + iA * rAy * rAy + iB * rBy * rBy;
      const k12 = -iA * rAx * rAy - iB * rBx * rBy;
      const k22 = mA + mB + iA * rAx * rAx + iB * rBx * rBx;
      let px: number;
      let py: number;
      const det = k11 * k22 - k12 * k12;
      if (det > 1e-12 * k11 * k22 && det > 0) {
        const inv = 1 / det;
        px = -inv * (k22 * ex - k12 * ey);
        py = -inv * (k11 * ey - k12 * ex);
      } else {
        px = k11 > 0 ? -ex / k11 : 0;
        py = k22 > 0 ? -ey / k22 : 0;
      }
      if (ka > 0) {
        dpx[ka] = dpx[ka]! - mA * px;
        dpy[ka] = dpy[ka]! - mA * py;
        const da = -iA * (rAx * py - rAy * px);
        if (da !== 0) sb.rotate(ka, da);
      }
      if (kb > 0) {
        dpx[kb] = dpx[kb]! + mB * px;
        dpy[kb] = dpy[kb]! + mB * py;
        const db = iB * (rBx * py - rBy * px);
        if (db !== 0) sb.rotate(kb, db);
      }
    }
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

  /** Forget row n's impulses (its joint's clearCache()). */
  clearRow(n: number): void {
    this.accX[n] = this.accY[n] = this.stepX[n] = this.stepY[n] = 0;
    this.sumLA[n] = this.sumLB[n] = 0;
  }
}
