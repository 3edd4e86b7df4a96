/**
 * PivotJoint: anchor1 on body1 and anchor2 on body2 coincide.
 *
 * With p_i = c_i + r_i the world anchors (c_i centre of mass, r_i = R(θ_i)(anchor_i − localCenter_i)):
 *   C   = p2 − p1                                     (2 rows, x and y)
 *   V   = v2 + ω2 × r2 − v1 − ω1 × r1,   ω × r = (−ω r_y, ω r_x)
 *   J   = [ −1   0   r1y   1  0  −r2y ]
 *         [  0  −1  −r1x   0  1   r2x ]
 *   K   = J M⁻¹ Jᵀ = [ m1+m2 + i1 r1y² + i2 r2y²      −i1 r1x r1y − i2 r2x r2y ]
 *                    [ −i1 r1x r1y − i2 r2x r2y       m1+m2 + i1 r1x² + i2 r2x² ]
 *         (m, i inverse mass and inertia; note the off-diagonal takes i1 for body 1's term)
 *   Jᵀλ : v1 −= m1 λ,  ω1 −= i1 (r1 × λ);   v2 += m2 λ,  ω2 += i2 (r2 × λ)
 * Verified against finite differences of C in joints.property.test.ts.
 *
 * The pivot is the hot joint (chains, grids, ragdolls), so the space solves all pivots of a
 * step together from typed arrays (constraint/pivot-batch.ts). The generic rows (computeRows)
 * remain the reference that the property tests check, and pivot-batch.test.ts checks that the
 * batch and the generic path produce the same step.
 *
 * The same derivation in LaTeX, for the Storybook's docs page (rendered with KaTeX):
 * Math (KaTeX):
 *   where: \begin{gathered}
 *          \mathbf{p}_i = \mathbf{c}_i + \mathbf{r}_i,\quad
 *          \mathbf{r}_i = R(\theta_i)\,(\mathbf{a}_i - \bar{\mathbf{c}}_i),\quad
 *          \omega \times \mathbf{r} = (-\omega r_y,\ \omega r_x) \\
 *          \mathbf{a}_i = \texttt{anchor}_i,\quad \bar{\mathbf{c}}_i \text{ the local centre of mass},\quad
 *          m_i,\ i_i \text{ the inverse mass and inertia}
 *          \end{gathered}
 *   C: C = \mathbf{p}_2 - \mathbf{p}_1 \qquad (\text{2 rows, } x \text{ and } y)
 *   V: V = \mathbf{v}_2 + \omega_2 \times \mathbf{r}_2 - \mathbf{v}_1 - \omega_1 \times \mathbf{r}_1
 *   J: J = \begin{bmatrix} -1 & 0 & r_{1y} & 1 & 0 & -r_{2y} \\
 *          0 & -1 & -r_{1x} & 0 & 1 & r_{2x} \end{bmatrix}
 *   K: K = J M^{-1} J^{T} = \begin{bmatrix}
 *          m_1 + m_2 + i_1 r_{1y}^2 + i_2 r_{2y}^2 & -i_1 r_{1x} r_{1y} - i_2 r_{2x} r_{2y} \\
 *          -i_1 r_{1x} r_{1y} - i_2 r_{2x} r_{2y} & m_1 + m_2 + i_1 r_{1x}^2 + i_2 r_{2x}^2
 *          \end{bmatrix}
 *   Jᵀλ: \begin{gathered}
 *          \Delta\mathbf{v}_1 = -m_1 \boldsymbol{\lambda},\quad \Delta\omega_1 = -i_1\,(\mathbf{r}_1 \times \boldsymbol{\lambda}) \\
 *          \Delta\mathbf{v}_2 = m_2 \boldsymbol{\lambda},\quad \Delta\omega_2 = i_2\,(\mathbf{r}_2 \times \boldsymbol{\lambda})
 *          \end{gathered}
 */
import { optionKeys } from '../../util/validate.js';
import { AnchoredJoint, type AnchoredOptions } from './two-body-joint.js';
import { ROW_EQUALITY } from '../joint.js';
import type { AnchorSlot } from '../anchor-slot.js';
import type { StepContext } from '../../space/step-context.js';
import type { PivotBatch } from '../pivot-batch.js';
import type { Body } from '../../body/body.js';
import type { Vec3 } from '../../math/vec2.js';
import { BASE_CONSTRAINT_OPTION_KEYS, type BreakReason, type SolverFamilyKind } from '../constraint.js';
import { makeSoft } from '../softness.js';

export type PivotJointOptions = AnchoredOptions;

/** Every key of PivotJointOptions (a misspelt one is an error). */
const PIVOT_JOINT_OPTION_KEYS = optionKeys<PivotJointOptions>()([...BASE_CONSTRAINT_OPTION_KEYS, 'body1', 'body2', 'anchor1', 'anchor2']);

export class PivotJoint extends AnchoredJoint {
  constructor(options: PivotJointOptions = {}) {
    super();
    this.init(options, () => this.validateAnchors(options));
  }
  get typeName(): string {
    return 'PivotJoint';
  }
  protected override get optionKeys(): readonly string[] {
    return PIVOT_JOINT_OPTION_KEYS;
  }
  get dimension(): number {
    return 2;
  }

  protected computeRows(): void {
    const a = this._slots[0] as AnchorSlot;
    const b = this._slots[1] as AnchorSlot;
    const J = this.J;
    this.rowKind[0] = ROW_EQUALITY;
    this.rowKind[1] = ROW_EQUALITY;
    this.rowC[0] = b.px - a.px;
    this.rowC[1] = b.py - a.py;
    // row 0 (x): slot 0 then slot 1
    J[0] = -1; J[1] = 0; J[2] = a.ry;
    J[3] = 1; J[4] = 0; J[5] = -b.ry;
    // row 1 (y)
    J[6] = 0; J[7] = -1; J[8] = -a.rx;
    J[9] = 0; J[10] = 1; J[11] = b.rx;
  }

  // ------------------------------------------------------------------ batch solving

  /**
   * @internal The joint batch (PivotBatch), except under breakUnderError: the error test runs in
   * the one-by-one _prepare.
   */
  override _solverFamily(): SolverFamilyKind {
    return this._breakUnderError ? 'one-by-one' : 'joint-batch';
  }

  /**
   * @internal The whole per-step preparation of a batched pivot, written straight into row n:
   * the generic _prepare (slot objects, makeSoft) costs more than the solve for big grids.
   */
  _fillBatch(b: PivotBatch, n: number, ctx: StepContext): void {
    const sa = this._slots[0] as AnchorSlot;
    const sc = this._slots[1] as AnchorSlot;
    fillSide(b, n, sa, true);
    fillSide(b, n, sc, false);
    this._batch = b;
    this._batchRow = n;
    // Rescale warm starting when the substep length changes (Nape's dtratio).
    const ratio = this._lastH > 0 ? ctx.h / this._lastH : 1;
    this._lastH = ctx.h;
    // (The joint's own read-outs are the last step's: the previous plan's rows were read back.)
    b.keepReadOuts(n, ctx.step, this.stepImp[0]!, this.stepImp[1]!, -sa.iz, sc.iz);
    if (this._stiff) {
      b.startRow(n, this.acc[0]! * ratio, this.acc[1]! * ratio, null, 0, 0);
    } else {
      makeSoft(this._frequency, this._damping, ctx.h, this._soft);
      b.startRow(n, this.acc[0]! * ratio, this.acc[1]! * ratio, this._soft, this._maxForce, this._maxError);
    }
  }

  /** @internal The batch row this joint's impulses live in while the space's plan stands. */
  _batch: PivotBatch | null = null;
  _batchRow = -1;

  /** @internal Bring acc, the step impulse and the body impulses up to date from the batch row. */
  _syncFromBatch(): void {
    if (this._batch !== null) this._readBatch(this._batch, this._batchRow);
  }

  /** @internal The batch starts a new plan: take row n back for good (if it is still ours). */
  _detachFromBatch(b: PivotBatch, n: number): void {
    if (this._batch !== b || this._batchRow !== n) return;
    this._readBatch(b, n);
    this._batch = null;
    this._batchRow = -1;
  }

  override clearCache(): void {
    super.clearCache();
    if (this._batch !== null) this._batch.clearRow(this._batchRow);
  }

  /** @internal */
  override _forgetWarmStart(): void {
    super._forgetWarmStart();
    if (this._batch !== null) this._batch.forgetRow(this._batchRow);
  }

  protected override _stepImpulse(): Float64Array {
    this._syncFromBatch();
    return super._stepImpulse();
  }

  protected override _bodyImpulse(body: Body, out: Vec3): void {
    this._syncFromBatch();
    super._bodyImpulse(body, out);
  }

  /** @internal */
  override _finish(ctx: StepContext): BreakReason | null {
    this._syncFromBatch();
    return super._finish(ctx);
  }

  /** @internal Take back the impulses of row n. */
  _readBatch(b: PivotBatch, n: number): void {
    b.readRow(n, this.acc, this.stepImp, this._slots[0] as AnchorSlot, this._slots[1] as AnchorSlot);
    this.midStep = false;
  }
}

/** Row n's side of a batched pivot: solver index, masses, start centre and start anchor offset. */
function fillSide(b: PivotBatch, n: number, slot: AnchorSlot, first: boolean): void {
  const body = slot.body!;
  const k = body._solverIndex > 0 ? body._solverIndex : 0;
  const c = body._c;
  const s = body._s;
  const lcx = body._lcx;
  const lcy = body._lcy;
  const cx = body._x + c * lcx - s * lcy;
  const cy = body._y + s * lcx + c * lcy;
  b.fillSide(n, first, k, k > 0 ? body._invMass : 0, k > 0 ? body._invInertia : 0, cx, cy, c, s, slot.ax - lcx, slot.ay - lcy);
}
