/**
 * Joint: the shared solver for the built-in joints. A joint only describes its rows: for each
 * row, its kind, its value (C) and its Jacobian J over the joint's body slots (linear x, y and
 * angular entries per slot). Everything else is derived here, once, for every joint:
 *
 *   V   = J v                                   (velocity error of each row)
 *   K   = J M⁻¹ Jᵀ, with K_ab = Σ_s Σ_t [body_s = body_t] (m_s (J_a,s · J_b,t)_lin + i_s J_a,s,ang J_b,t,ang)
 *         (the bracket adds the cross terms when two slots share a body, as in the pulley)
 *   Jᵀλ : v_s += m_s Σ_r J_r,s,lin λ_r,  ω_s += i_s Σ_r J_r,s,ang λ_r
 *
 * Row kinds:
 *  - equality: C = 0, solved as one block (Pivot 2×2, Weld 3×3, Line 2×2 when min = max);
 *  - limit: lo ≤ value ≤ hi, each side a one-sided speculative row (Box2D v3 style): while the
 *    side is not reached the bias lets the gap close in one substep and no further, so the joint
 *    is slack between its limits and never overshoots them;
 *  - motor: V = target, impulse clamped to ±maxForce·h (Nape's MotorJoint always clamps);
 *  - slack: skipped (a degenerate geometry, e.g. a distance joint at zero length).
 *
 * Stiff: rigid in both passes, position error corrected by the space's joint softness in the
 * biased pass. Soft: spring with the joint's frequency/damping in both passes, error clamped to
 * maxError, accumulated impulse clamped to maxForce·h; each row with its fixed compliance
 * Γ = g·Kref (softness.ts), the equality block solving (K + diag Γ) Δλ = −(V + biasRate·C) − Γλ.
 */
import type { Body } from '../body/body.js';
import type { DebugDraw } from '../debug/debug-draw.js';
import { DebugColors } from '../debug/debug-draw.js';
import type { Vec3 } from '../math/vec2.js';
import type { StepContext } from '../space/step-context.js';
import { fail } from '../util/validate.js';
import { AnchorSlot } from './anchor-slot.js';
import { Constraint, type BreakReason } from './constraint.js';
import { clamp, normClampFactor, solveSymmetric } from './dense.js';
import { limitSideUpdate, passSoftness, softRhs, softUpdate, stiffBias } from './softness.js';
import { columnTurn, jointLeverShare, jointRowReferenceK, jointRowsK, jointRowVelocity, type IslandRowsView } from './joint-rows.js';
import { limitTurn } from './position-step.js';
import { checkLimits, limitPositionImpulse } from './limits.js';

export const ROW_EQUALITY = 0;
export const ROW_LIMIT = 1;
export const ROW_MOTOR = 2;
export const ROW_SLACK = 3;

const MAX_ROWS = 3;

/** Snapshot of a joint's rows at the current geometry, for tests and debugging. */
export interface JointRowsSnapshot {
  kinds: number[];
  /** Equality rows: the error C; limit rows: the value; motor rows: the target velocity. */
  values: number[];
  /** J[r][s] = [jx, jy, jω] for row r and body slot s. */
  J: number[][][];
  /** V = J v for each row. */
  V: number[];
  /** K = J M⁻¹ Jᵀ (all rows). */
  K: number[][];
}

export abstract class Joint extends Constraint {
  /** @internal */ readonly _slots: AnchorSlot[];
  private readonly _slotNames: string[];
  private _bodiesCache: Body[] = [];

  // rows, written by computeRows()
  protected readonly rowKind = new Uint8Array(MAX_ROWS);
  protected readonly rowC = new Float64Array(MAX_ROWS);
  protected readonly rowLo = new Float64Array(MAX_ROWS);
  protected readonly rowHi = new Float64Array(MAX_ROWS);
  /** J[(r * S + s) * 3 + {0,1,2}] */
  protected readonly J: Float64Array;

  // accumulated impulses per row (per substep), and the step totals
  protected readonly acc = new Float64Array(MAX_ROWS);
  private readonly accLo = new Float64Array(MAX_ROWS);
  private readonly accHi = new Float64Array(MAX_ROWS);
  protected readonly stepImp = new Float64Array(MAX_ROWS);
  // scratch
  private readonly K = new Float64Array(MAX_ROWS * MAX_ROWS);
  private readonly rhs = new Float64Array(MAX_ROWS);
  /** The soft equality rows' compliances Γ (softness.ts). */
  private readonly gamma = new Float64Array(MAX_ROWS);
  private readonly lam = new Float64Array(MAX_ROWS);
  private readonly eqRows = new Int32Array(MAX_ROWS);
  /** True once the step's first substep has started (for step-impulse bookkeeping). */
  protected midStep = false;
  /**
   * What a failed step puts back (_restoreImpulses): acc, accLo and accHi as prepared, then the
   * read-outs the step's _prepare cleared (stepImp, and each slot's ix, iy, iz); kept at step
   * `keptAt` (StepContext.step).
   */
  private kept: Float64Array = new Float64Array(0);
  private keptAt = -1;
  /** A soft joint's lever share at the rows' pose (softness.ts, leverShare). */
  private lever = 0;
  /** The pose (StepContext.poseEpoch) the rows were computed at by refreshForPose; −1: none. */
  private rowsEpoch = -1;

  /** jointMin / jointMax of the joints that have limits (Angle, Distance, Line, Pulley). */
  protected _min = 0;
  protected _max = 0;
  /** Whether jointMin may be negative; joints with limits override it (see checkLimits). */
  protected get limitsMayBeNegative(): boolean {
    return true;
  }

  protected constructor(slotNames: string[]) {
    super();
    this._slotNames = slotNames;
    this._slots = slotNames.map(() => new AnchorSlot());
    this.J = new Float64Array(MAX_ROWS * slotNames.length * 3);
  }

  /** Fill rowKind/rowC/rowLo/rowHi/J for the slots' current geometry (slots are updated). */
  protected abstract computeRows(): void;

  // ------------------------------------------------------------------ bodies

  get bodies(): readonly Body[] {
    return this._bodiesCache;
  }

  /** @internal */
  _bodySlots(): [string, Body | null][] {
    return this._slots.map((s, i) => [this._slotNames[i]!, s.body]);
  }

  protected override _bodiesReady(space: unknown): boolean {
    const slots = this._slots;
    for (let i = 0; i < slots.length; i++) {
      const b = slots[i]!.body;
      if (b === null || b._space !== space) return false;
    }
    return true;
  }

  protected getBody(slot: number): Body | null {
    return this._slots[slot]!.body;
  }

  /** Validate a body value for a slot (Body or null). */
  protected checkBody(name: string, b: unknown): Body | null {
    if (b === null || b === undefined) return null;
    if (typeof b !== 'object' || !('_shapes' in (b as object)) || typeof (b as Body).applyImpulse !== 'function') {
      fail(this.typeName, name, b, 'must be a Body or null');
    }
    return b as Body;
  }

  /** Assign bodies to slots, keeping the space's links and wake state right. */
  protected assignBodies(assign: Array<[number, Body | null]>): void {
    this._swapBody(() => {
      for (const [slot, b] of assign) this._slots[slot]!.body = b;
      this._rebuildBodies();
    });
  }

  private _rebuildBodies(): void {
    const out: Body[] = [];
    for (const s of this._slots) if (s.body && !out.includes(s.body)) out.push(s.body);
    this._bodiesCache = out;
  }

  /** The jointMin setter of every joint with limits: validate against jointMax, assign, wake. */
  protected setJointMin(v: number): void {
    [this._min] = checkLimits(this.typeName, v, this._max, this.limitsMayBeNegative);
    this.invalidate();
  }
  /** The jointMax setter of every joint with limits. */
  protected setJointMax(v: number): void {
    [, this._max] = checkLimits(this.typeName, this._min, v, this.limitsMayBeNegative);
    this.invalidate();
  }

  /**
   * Write row r for a limited value: an equality row (C = value − min) when jointMin = jointMax,
   * otherwise a two-sided limit row (Nape: bilateral only when the limits coincide).
   */
  protected setLimitRow(r: number, value: number): void {
    if (this._min === this._max) {
      this.rowKind[r] = ROW_EQUALITY;
      this.rowC[r] = value - this._min;
    } else {
      this.rowKind[r] = ROW_LIMIT;
      this.rowC[r] = value;
      this.rowLo[r] = this._min;
      this.rowHi[r] = this._max;
    }
  }

  /** Anchor setters share this: validate, assign, wake. */
  protected setAnchor(slot: number, x: number, y: number): void {
    const s = this._slots[slot]!;
    s.ax = x;
    s.ay = y;
    this.invalidate();
  }

  // ------------------------------------------------------------------ read-outs

  clearCache(): void {
    this.acc.fill(0);
    this.accLo.fill(0);
    this.accHi.fill(0);
    this.stepImp.fill(0);
    for (const s of this._slots) s.ix = s.iy = s.iz = 0;
    this._lastH = 0;
  }

  /** @internal */
  _forgetWarmStart(): void {
    this.acc.fill(0);
    this.accLo.fill(0);
    this.accHi.fill(0);
  }

  protected _stepImpulse(): Float64Array {
    return this.stepImp.subarray(0, this.dimension);
  }

  protected _bodyImpulse(body: Body, out: Vec3): void {
    for (const s of this._slots) {
      if (s.body !== body) continue;
      out.x += s.ix;
      out.y += s.iy;
      out.z += s.iz;
    }
  }

  // ------------------------------------------------------------------ solver

  /** @internal */
  _prepare(ctx: StepContext): BreakReason | null {
    const ratio = this._beginStep(ctx);
    this.keepReadOuts();
    // (Each slot's prepare clears its step impulse.)
    for (const s of this._slots) s.prepare(ctx.bodies);
    if (this._breakUnderError) {
      this.refresh(ctx);
      if (this.errorMagnitude() > this._maxError) return 'error';
    }
    for (let r = 0; r < MAX_ROWS; r++) {
      this.acc[r] = this.acc[r]! * ratio;
      this.accLo[r] = this.accLo[r]! * ratio;
      this.accHi[r] = this.accHi[r]! * ratio;
    }
    this.keepImpulses(ctx);
    this.stepImp.fill(0);
    this.midStep = false;
    return null;
  }

  /** Keep the last step's read-outs (stepImp, each slot's ix, iy, iz), which _prepare clears. */
  private keepReadOuts(): void {
    const S = this._slots.length;
    if (this.kept.length === 0) this.kept = new Float64Array(4 * MAX_ROWS + 3 * S);
    const a = this.kept;
    for (let r = 0; r < MAX_ROWS; r++) a[3 * MAX_ROWS + r] = this.stepImp[r]!;
    for (let s = 0, o = 4 * MAX_ROWS; s < S; s++, o += 3) {
      const slot = this._slots[s]!;
      a[o] = slot.ix;
      a[o + 1] = slot.iy;
      a[o + 2] = slot.iz;
    }
  }

  /** Keep the impulses as prepared: with the read-outs, what a failed step of step ctx.step puts back. */
  private keepImpulses(ctx: StepContext): void {
    const a = this.kept;
    for (let r = 0; r < MAX_ROWS; r++) {
      a[r] = this.acc[r]!;
      a[MAX_ROWS + r] = this.accLo[r]!;
      a[2 * MAX_ROWS + r] = this.accHi[r]!;
    }
    this.keptAt = ctx.step;
  }

  /** @internal A failed step: the impulses as prepared, and impulse() and bodyImpulse() as before it. */
  override _restoreImpulses(ctx: StepContext): void {
    if (this.keptAt !== ctx.step) return;
    const a = this.kept;
    for (let r = 0; r < MAX_ROWS; r++) {
      this.acc[r] = a[r]!;
      this.accLo[r] = a[MAX_ROWS + r]!;
      this.accHi[r] = a[2 * MAX_ROWS + r]!;
      this.stepImp[r] = a[3 * MAX_ROWS + r]!;
    }
    for (let s = 0, o = 4 * MAX_ROWS; s < this._slots.length; s++, o += 3) {
      const slot = this._slots[s]!;
      slot.ix = a[o]!;
      slot.iy = a[o + 1]!;
      slot.iz = a[o + 2]!;
    }
    this.midStep = false;
  }

  /** The anchors and rows at the bodies' current pose in the solver. */
  private refresh(ctx: StepContext): void {
    const sb = ctx.bodies;
    for (const s of this._slots) s.update(sb);
    this.computeRows();
    if (!this._stiff || ctx.jointSoftness.compliance > 0) this.lever = jointLeverShare(this.J, this._slots, this.dimension, this.rowKind, ROW_SLACK);
    this.rowsEpoch = -1;
  }

  /**
   * refresh(), unless the rows are already at this pose: the velocity passes of a substep (its warm
   * start and biased pass, the previous substep's relax passes) all see one pose, and computing the
   * rows again for each was a third of a weld grid's step. The rows depend on the pose and on the
   * joint's own properties, which cannot change during a step, so they are the same numbers.
   */
  private refreshForPose(ctx: StepContext): void {
    if (this.rowsEpoch === ctx.poseEpoch) return;
    this.refresh(ctx);
    this.rowsEpoch = ctx.poseEpoch;
  }

  /** @internal */
  _warmStart(ctx: StepContext, freshStiffRows = false): void {
    if (this.midStep) this.endSubstep();
    this.midStep = true;
    this.refreshForPose(ctx);
    if (freshStiffRows && this._stiff)
      for (let r = 0; r < this.dimension; r++) {
        if (this.rowKind[r] === ROW_EQUALITY) this.acc[r] = 0;
        else if (this.rowKind[r] === ROW_LIMIT) this.accLo[r] = this.accHi[r] = 0;
      }
    const lam = this.lam;
    for (let r = 0; r < this.dimension; r++) lam[r] = this.rowKind[r] === ROW_SLACK ? 0 : this.acc[r]! + this.accLo[r]! - this.accHi[r]!;
    this.apply(ctx, lam);
  }

  /** @internal */
  _solve(ctx: StepContext, useBias: boolean): void {
    this.refreshForPose(ctx);
    const dim = this.dimension;
    const soft = !this._stiff;
    const h = ctx.h;
    const maxImpulse = this._maxForce * h;
    const lam = this.lam;

    // --- equality block
    let m = 0;
    for (let r = 0; r < dim; r++) if (this.rowKind[r] === ROW_EQUALITY) this.eqRows[m++] = r;
    if (m > 0) {
      const { biasRate, massScale, impulseScale, compliance } = passSoftness(soft ? this._soft : null, useBias, ctx.jointSoftness);
      // A soft block's spring sees its error clamped to maxError (Nape).
      let errScale = 1;
      if (soft && this._maxError !== Infinity) {
        let e2 = 0;
        for (let a = 0; a < m; a++) e2 += this.rowC[this.eqRows[a]!]! ** 2;
        errScale = normClampFactor(e2, this._maxError);
      }
      const rhs = this.rhs;
      const gamma = this.gamma;
      // A soft row, and a stiff one in the biased pass with jointHertz > 0, solves
      // (K + Γ) Δλ = x − Γ·λ with a fixed compliance Γ (softness.ts), as joint islands do.
      const fixed = compliance > 0;
      for (let a = 0; a < m; a++) {
        const ra = this.eqRows[a]!;
        const x = -(this.rowVelocity(ctx, ra) + (soft ? biasRate * errScale * this.rowC[ra]! : stiffBias(biasRate, this.rowC[ra]!)));
        gamma[a] = fixed ? compliance * this.referenceK(ra) : 0;
        rhs[a] = fixed ? softRhs(x, gamma[a]!, this.acc[ra]!) : x;
      }
      this.solveEqualityBlock(m, fixed);
      lam.fill(0);
      let n2 = 0;
      for (let a = 0; a < m; a++) {
        const r = this.eqRows[a]!;
        const next = fixed ? this.acc[r]! + rhs[a]! : softUpdate(this.acc[r]!, rhs[a]!, massScale, impulseScale);
        lam[r] = next;
        n2 += next * next;
      }
      // Soft rows cannot exceed maxForce (a vector clamp over the block).
      const f = soft ? normClampFactor(n2, maxImpulse) : 1;
      for (let a = 0; a < m; a++) {
        const r = this.eqRows[a]!;
        const next = lam[r]! * f;
        lam[r] = next - this.acc[r]!;
        this.acc[r] = next;
      }
      this.apply(ctx, lam);
    }

    // --- motor and limit rows, one at a time (Gauss-Seidel after the block)
    for (let r = 0; r < dim; r++) {
      const kind = this.rowKind[r];
      if (kind === ROW_MOTOR) {
        const k = this.kEntry(r, r);
        if (k <= 0) continue;
        const old = this.acc[r]!;
        const next = clamp(old - (this.rowVelocity(ctx, r) - this.rowC[r]!) / k, -maxImpulse, maxImpulse);
        this.applyRow(ctx, r, next - old);
        this.acc[r] = next;
      } else if (kind === ROW_LIMIT) {
        const value = this.rowC[r]!;
        if (this.rowLo[r]! > -Infinity) {
          const next = this.solveSide(ctx, r, value - this.rowLo[r]!, 1, this.accLo[r]!, useBias);
          this.accLo[r] = next;
        }
        if (this.rowHi[r]! < Infinity) {
          const next = this.solveSide(ctx, r, this.rowHi[r]! - value, -1, this.accHi[r]!, useBias);
          this.accHi[r] = next;
        }
      }
    }

  }

  /** The accumulated impulse is what was applied over one substep: add it to the step total. */
  protected endSubstep(): void {
    for (let r = 0; r < this.dimension; r++) this.stepImp[r] = this.stepImp[r]! + this.acc[r]! + this.accLo[r]! - this.accHi[r]!;
  }

  /**
   * Solve K x = rhs in place for the m equality rows listed in eqRows (K = J M⁻¹ Jᵀ of those rows),
   * or (K + diag(gamma)) x = rhs for a soft block (`withCompliance`).
   */
  private solveEqualityBlock(m: number, withCompliance: boolean): void {
    const K = this.K;
    for (let a = 0; a < m; a++) {
      const ra = this.eqRows[a]!;
      for (let b = a; b < m; b++) {
        const v = this.kEntry(ra, this.eqRows[b]!);
        K[a * m + b] = v;
        K[b * m + a] = v;
      }
      if (withCompliance) K[a * m + a] = K[a * m + a]! + this.gamma[a]!;
    }
    solveSymmetric(K, this.rhs, m);
  }

  /**
   * One side of a limit: C ≥ 0 must hold, with C = value − lo (sign +1) or hi − value (sign −1).
   * Returns the new accumulated (non-negative) impulse.
   */
  private solveSide(ctx: StepContext, r: number, C: number, sign: number, accOld: number, useBias: boolean): number {
    const k = this.kEntry(r, r);
    if (k <= 0) return accOld;
    const cdot = sign * this.rowVelocity(ctx, r);
    const sp = passSoftness(this._stiff ? null : this._soft, useBias, ctx.jointSoftness);
    // (A stiff row's compliance is the joint softness of a biased pass, else 0: softness.ts.)
    const gamma = sp.compliance > 0 ? sp.compliance * this.referenceK(r) : 0;
    const next = limitSideUpdate(accOld, C, cdot, k, ctx.invH, sp, !this._stiff, this._maxError, this._maxForce * ctx.h, gamma);
    this.applyRow(ctx, r, sign * (next - accOld));
    return next;
  }

  /** K_ab = Σ over slot pairs on the same body of m (J_a·J_b)_lin + i J_a,ang J_b,ang. */
  private kEntry(a: number, b: number): number {
    return jointRowsK(this.J, this._slots, a, this.J, this._slots, b);
  }

  /** Row r's reference K for a soft spring (softness.ts). */
  private referenceK(r: number): number {
    return jointRowReferenceK(this.J, this._slots, r, this.lever);
  }

  private rowVelocity(ctx: StepContext, r: number): number {
    return jointRowVelocity(this.J, this._slots, r, ctx);
  }

  /** Apply Jᵀλ for a full row vector λ. */
  private apply(ctx: StepContext, lam: Float64Array): void {
    const dim = this.dimension;
    for (let r = 0; r < dim; r++) if (lam[r] !== 0) this.applyRow(ctx, r, lam[r]!);
  }

  private applyRow(ctx: StepContext, r: number, lambda: number): void {
    if (lambda === 0) return;
    const { vx, vy, w } = ctx.bodies;
    const S = this._slots.length;
    const J = this.J;
    for (let s = 0; s < S; s++) {
      const slot = this._slots[s]!;
      const i = (r * S + s) * 3;
      const px = J[i]! * lambda;
      const py = J[i + 1]! * lambda;
      const pz = J[i + 2]! * lambda;
      slot.ix += px;
      slot.iy += py;
      slot.iz += pz;
      const k = slot.k;
      vx[k] = vx[k]! + slot.m * px;
      vy[k] = vy[k]! + slot.m * py;
      w[k] = w[k]! + slot.i * pz;
    }
  }

  /**
   * @internal Position pass (stiff joints only): non-linear Gauss-Seidel on the position deltas.
   * Equality rows solve K Δ = −C as a block; violated limit sides are pushed back to the limit.
   * Positions change, velocities do not, so this removes stretch without adding energy.
   */
  override _solvePosition(ctx: StepContext): void {
    if (!this._stiff) return;
    this.refresh(ctx);
    const dim = this.dimension;
    let m = 0;
    for (let r = 0; r < dim; r++) if (this.rowKind[r] === ROW_EQUALITY) this.eqRows[m++] = r;
    const lam = this.lam;
    lam.fill(0);
    if (m > 0) {
      const rhs = this.rhs;
      for (let a = 0; a < m; a++) rhs[a] = -this.rowC[this.eqRows[a]!]!;
      this.solveEqualityBlock(m, false);
      for (let a = 0; a < m; a++) lam[this.eqRows[a]!] = rhs[a]!;
    }
    for (let r = 0; r < dim; r++) {
      if (this.rowKind[r] !== ROW_LIMIT) continue;
      lam[r] = limitPositionImpulse(this.rowC[r]!, this.rowLo[r]!, this.rowHi[r]!, this.kEntry(r, r));
    }
    let scale = 1;
    for (let s = 0; s < this._slots.length; s++) scale = limitTurn(scale, columnTurn(this.J, this._slots, s, dim, lam, 0));
    this.applyPositions(ctx, lam, scale);
  }

  /**
   * Move the solver positions by M⁻¹Jᵀλ·scale (λ over the rows): a position pass's correction,
   * `scale` its damping (position-step.ts).
   */
  private applyPositions(ctx: StepContext, lam: Float64Array, scale: number): void {
    const dim = this.dimension;
    const sb = ctx.bodies;
    const S = this._slots.length;
    const J = this.J;
    for (let s = 0; s < S; s++) {
      const slot = this._slots[s]!;
      if (slot.k === 0) continue;
      let px = 0;
      let py = 0;
      let pz = 0;
      for (let r = 0; r < dim; r++) {
        const l = lam[r]!;
        if (l === 0) continue;
        const i = (r * S + s) * 3;
        px += J[i]! * l;
        py += J[i + 1]! * l;
        pz += J[i + 2]! * l;
      }
      px *= scale;
      py *= scale;
      pz *= scale;
      const k = slot.k;
      sb.dpx[k] = sb.dpx[k]! + slot.m * px;
      sb.dpy[k] = sb.dpy[k]! + slot.m * py;
      if (pz !== 0 && slot.i !== 0) sb.rotate(k, slot.i * pz);
    }
  }

  /** @internal */
  _finish(ctx: StepContext): BreakReason | null {
    if (this.midStep) this.endSubstep();
    this.midStep = false;
    const dim = this.dimension;
    if (this._breakUnderForce) {
      let n2 = 0;
      for (let r = 0; r < dim; r++) n2 += (this.acc[r]! + this.accLo[r]! - this.accHi[r]!) ** 2;
      if (this._exceedsMaxForce(n2, ctx.h)) return 'force';
    }
    if (this._breakUnderError) {
      this.refresh(ctx);
      if (this.errorMagnitude() > this._maxError) return 'error';
    }
    return null;
  }

  /** |C| over the rows at the current geometry: equality errors and limit violations. */
  protected errorMagnitude(): number {
    let e2 = 0;
    for (let r = 0; r < this.dimension; r++) {
      const kind = this.rowKind[r];
      const v = this.rowC[r]!;
      if (kind === ROW_EQUALITY) e2 += v * v;
      else if (kind === ROW_LIMIT) {
        if (v < this.rowLo[r]!) e2 += (this.rowLo[r]! - v) ** 2;
        else if (v > this.rowHi[r]!) e2 += (v - this.rowHi[r]!) ** 2;
      }
    }
    return Math.sqrt(e2);
  }

  // ------------------------------------------------------------------ inspection (tests)

  /**
   * @internal The joint's rows at the bodies' current state, outside of any step: C, J, V, K.
   * Used by the property tests that check every derivation against finite differences.
   */
  _inspect(ctx: StepContext): JointRowsSnapshot {
    for (const s of this._slots) s.prepare(ctx.bodies);
    this.refresh(ctx);
    const dim = this.dimension;
    const S = this._slots.length;
    const snap: JointRowsSnapshot = { kinds: [], values: [], J: [], V: [], K: [] };
    for (let r = 0; r < dim; r++) {
      snap.kinds.push(this.rowKind[r]!);
      snap.values.push(this.rowC[r]!);
      const row: number[][] = [];
      for (let s = 0; s < S; s++) row.push(Array.from(this.J.subarray((r * S + s) * 3, (r * S + s) * 3 + 3)));
      snap.J.push(row);
      snap.V.push(this.rowVelocity(ctx, r));
      const kr: number[] = [];
      for (let c = 0; c < dim; c++) kr.push(this.kEntry(r, c));
      snap.K.push(kr);
    }
    return snap;
  }

  // ------------------------------------------------------------------ joint islands

  private _view: IslandRowsView | null = null;

  /**
   * @internal Whether the joint-island solver may take the joint: its rows are equalities and
   * limits, which the island solves as one-sided rows, stiff or soft (SOFT_RANGES, joint-island.ts).
   * Motors override it. Not a soft joint with a finite maxForce (FORCE_LIMITED_SOFT_JOINTS,
   * joint-island.ts): its clamp is not a block's.
   */
  override _islandEligible(): boolean {
    return this._stiff || this._maxForce === Infinity;
  }

  /** @internal The rows at the solver's current pose (computed once per pose), for the joint-island solver. */
  override _islandRows(ctx: StepContext): IslandRowsView {
    this.refreshForPose(ctx);
    return this.view();
  }

  /** @internal The rows at the current positions (a position pass moves them between constraints). */
  override _islandRowsNow(ctx: StepContext): IslandRowsView {
    this.refresh(ctx);
    return this.view();
  }

  private view(): IslandRowsView {
    if (this._view === null) {
      this._view = { dim: 0, kind: this.rowKind, C: this.rowC, J: this.J, acc: this.acc, slots: this._slots, soft: this._soft, lo: this.rowLo, hi: this.rowHi, accLo: this.accLo, accHi: this.accHi };
    }
    this._view.dim = this.dimension;
    return this._view;
  }

  /** @internal Apply Jᵀλ (λ over the rows) to the solver velocities, and to the step's body impulses. */
  override _islandApply(ctx: StepContext, lam: Float64Array): void {
    this.apply(ctx, lam);
  }

  /** @internal Apply Jᵀλ (λ over the rows) to the solver positions: a position pass's correction. */
  override _islandApplyPositions(ctx: StepContext, lam: Float64Array, scale: number): void {
    this.applyPositions(ctx, lam, scale);
  }

  /** @internal Apply Jᵀλ at the current geometry (tests). */
  _applyForTest(ctx: StepContext, lambda: readonly number[]): void {
    for (let r = 0; r < lambda.length; r++) this.applyRow(ctx, r, lambda[r]!);
  }

  // ------------------------------------------------------------------ debug

  override _debugDraw(sink: DebugDraw): void {
    const n = this._slots.length;
    for (let i = 0; i < n; i += 2) {
      const a = this._slots[i]!;
      const b = this._slots[i + 1];
      const ba = a.body;
      if (!ba) continue;
      // World anchors computed in place (a debug view draws every frame: no Vec2 per anchor).
      const ax = ba._x + ba._c * a.ax - ba._s * a.ay;
      const ay = ba._y + ba._s * a.ax + ba._c * a.ay;
      sink.drawPoint(ax, ay, 0.08, DebugColors.constraint);
      const bb = b?.body;
      if (b && bb) {
        const bx = bb._x + bb._c * b.ax - bb._s * b.ay;
        const by = bb._y + bb._s * b.ax + bb._c * b.ay;
        sink.drawPoint(bx, by, 0.08, DebugColors.constraint);
        sink.drawSegment(ax, ay, bx, by, DebugColors.constraint);
      }
    }
  }
}
