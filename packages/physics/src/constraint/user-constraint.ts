/**
 * UserConstraint: Nape's hook contract in TypeScript. A user defines any constraint of
 * `dimensions` rows through C(x), V(v), K and Jᵀλ, in one of three ways:
 *
 *  1. Nape's: `position(err)` (C), `velocity(err)` (V = J v), `effMass(eff)` (K, packed upper
 *     triangle row by row, n(n+1)/2 entries) and `impulse(imp, body, out)` (Jᵀλ for one body:
 *     world linear impulse in out.x, out.y and angular impulse in out.z).
 *  2. `jacobian(J)`: fill J, `dimensions` rows × 3 columns per body (x, y, θ of each body in
 *     `bodies` order, about its centre of mass), row-major. The engine derives V = J v,
 *     K = J M⁻¹ Jᵀ and Jᵀλ. `velocity` may still be given (e.g. a target velocity).
 *  3. `position(err)` only: J comes from central differences of C (step 1e-6 rad or m about each
 *     body's centre of mass). For a C that is smooth on the metre scale the relative error is
 *     about 1e-9 (truncation ε²·C'''/6 ≈ 1e-12 plus round-off ~1e-16·|C|/ε ≈ 1e-10); the test
 *     in user-constraint.test.ts measures it against the analytic pivot Jacobian.
 *
 * Every hook that reads bodies also receives the packed body state (body-state.ts) as its last
 * argument: ten numbers per body slot, for the current substep. With `packedState: true` a
 * constraint promises its hooks read only that array, and the engine stops writing each
 * substep's state into the Body objects (the fast path; @fulcrum/symbolic uses it).
 *
 * Hook call order within one step (the soft step, not Nape's; see packages/physics/README.md):
 *   validate()                                        once, before the step (may throw)
 *   per substep:  warm start: prepare(), [J], impulse(jAcc, body, out) per body
 *                 biased pass: prepare(), position(err) (unless velocityOnly), effMass/jacobian,
 *                              velocity(err), clamp(jAcc), impulse(Δ, body, out)
 *                 relax pass ×jointIterations: the same without the bias (soft constraints keep
 *                              their spring, so prepare/position run again)
 *   position passes (stiff, not velocityOnly): prepare(), position(err), effMass/jacobian,
 *                              clamp(Δ), impulse(Δ, body, out) applied to positions
 *   at the end:   prepare(), position(err) for breakUnderError; broken() if it breaks
 * Bodies read in hooks (position, rotation, constraintVelocity, ...) show the current substep's
 * state. Changing anything in a space from a hook throws.
 *
 * Limited rows (`limits`, setLimit): row r holds jointMin ≤ C_r ≤ jointMax instead of C_r = 0,
 * the way the built-in joints' limits do (joint.ts): each finite bound is a one-sided row
 * (limitSideUpdate, softness.ts) solved after the equality rows' block, speculative while the
 * bound is not reached, so the row is slack between its bounds and never overshoots them.
 * position(err) then writes the raw value C_r and jacobian(J) its derivative; the engine picks
 * the sides. Limits need V = J v: no velocity, clamp, effMass or impulse hook.
 *
 * A constraint in Jacobian form with packedState and no per-pass hooks (no velocity, effMass,
 * impulse or clamp) is solved in the space's UserBatch (user-batch.ts) instead: the same hooks
 * at the same poses, the same arithmetic (bitwise, tested), but no hook call in the velocity
 * passes. Its hooks' `state` and `J` arrays are then valid only during the call.
 *
 * What the hooks compute, in LaTeX, for the Storybook's docs page (rendered with KaTeX). n is
 * `dimensions`, k the number of bodies; x and v hold each body's centre of mass and angle, and
 * its velocity, in `bodies` order; m, i are inverse mass and inertia; J_b is body b's 3 columns.
 * Math (KaTeX):
 *   where: \begin{gathered}
 *          \mathbf{x} = (x_1, y_1, \theta_1, \dots, x_k, y_k, \theta_k),\quad
 *          \mathbf{v} = (v_{1x}, v_{1y}, \omega_1, \dots, v_{kx}, v_{ky}, \omega_k) \\
 *          M^{-1} = \operatorname{diag}(m_1, m_1, i_1, \dots, m_k, m_k, i_k),\quad n = \texttt{dimensions}
 *          \end{gathered}
 *   C: \begin{gathered}
 *          C(\mathbf{x}) \in \mathbb{R}^{n}\ \ (\texttt{position(err)}),\qquad C = 0 \\
 *          (\texttt{jointMin}_r \le C_r \le \texttt{jointMax}_r \text{ on a limited row } r)
 *          \end{gathered}
 *   V: V = J\,\mathbf{v}\quad (\text{or the } \texttt{velocity(err)} \text{ hook})
 *   J: J = \frac{\partial C}{\partial \mathbf{x}} \in \mathbb{R}^{n \times 3k}\quad (\texttt{jacobian(J)}\text{, or central differences of } C)
 *   K: K = J\,M^{-1} J^{T}\quad (\text{or } \texttt{effMass(eff)}\text{: its upper triangle, row by row})
 *   Jᵀλ: \begin{gathered}
 *          \text{impulse on body } b\text{: } J_b^{T} \boldsymbol{\lambda}\ \ (\texttt{impulse(imp, body, out)}) \\
 *          \Delta(v_{bx}, v_{by}, \omega_b) = \operatorname{diag}(m_b, m_b, i_b)\, J_b^{T} \boldsymbol{\lambda}
 *          \end{gathered}
 */
import type { Body } from '../body/body.js';
import type { DebugDraw } from '../debug/debug-draw.js';
import type { Vec2, Vec3 } from '../math/vec2.js';
import type { StepContext } from '../space/step-context.js';
import { checkFinite, checkInteger, fail, FulcrumDivergenceError, FulcrumInputError, optionKeys } from '../util/validate.js';
import { BODY_STATE_STRIDE, clearBodyState, fillBodyState } from './body-state.js';
import { BASE_CONSTRAINT_OPTION_KEYS, Constraint, type SolverFamilyKind, type BreakReason, type ConstraintOptions } from './constraint.js';
import { DEPENDENT_ROW_EPS, dropVanishingRows, factorSymmetric, normClampFactor, solveFactored, solveSymmetric, vanishingRowTerm, zeroPivotTolerance } from './dense.js';
import { checkRowLimit, limitPositionImpulse } from './limits.js';
import { limitTurn } from './position-step.js';
import { leverShare, limitSideUpdate, passSoftness, referenceMass, softRhs, softUpdate, stiffBias, type Softness } from './softness.js';
import { ROW_EQUALITY, ROW_LIMIT, ROW_SLACK } from './joint.js';
import type { IslandRowsView } from './joint-rows.js';
import type { UserBatchKernel } from './batch-kernel.js';
import { USER_BATCH_MAX_DIM, USER_BATCH_MAX_SLOTS, type UserBatch } from './user-batch.js';
import { checkUserConstraintDerivatives, type DerivativeProbe } from './user-constraint-check.js';

/** Every key of UserConstraintOptions (a misspelt one is an error). */
const USER_CONSTRAINT_OPTION_KEYS = optionKeys<UserConstraintOptions>()([...BASE_CONSTRAINT_OPTION_KEYS, 'dimensions', 'velocityOnly', 'packedState', 'bodies', 'hooks', 'limits']);

/** `state`: the packed body state of the current substep (see BodyState, BODY_STATE_STRIDE). */
export interface UserConstraintHooks {
  validate?(this: UserConstraint): void;
  prepare?(this: UserConstraint, state: Float64Array): void;
  position?(this: UserConstraint, err: Float64Array, state: Float64Array): void;
  velocity?(this: UserConstraint, err: Float64Array, state: Float64Array): void;
  effMass?(this: UserConstraint, eff: Float64Array, state: Float64Array): void;
  impulse?(this: UserConstraint, imp: Float64Array, body: Body, out: Vec3, state: Float64Array): void;
  jacobian?(this: UserConstraint, J: Float64Array, state: Float64Array): void;
  clamp?(this: UserConstraint, jAcc: Float64Array): void;
  broken?(this: UserConstraint): void;
  draw?(this: UserConstraint, debug: DebugDraw): void;
}

export interface UserConstraintOptions extends ConstraintOptions {
  dimensions: number;
  /** A velocity-only constraint (a motor): no position error, no position passes. */
  velocityOnly?: boolean;
  /**
   * The hooks read bodies only through the packed state argument, so the engine need not write
   * each substep's state into the Body objects (faster). Body getters inside hooks then show the
   * state at the start of the step.
   */
  packedState?: boolean;
  /** The bodies, in the order the Jacobian's columns use. */
  bodies?: (Body | null)[];
  hooks?: UserConstraintHooks;
  /**
   * One entry per row: [jointMin, jointMax] holds that row's C within the bounds (±Infinity
   * allowed; see the file comment), null keeps it an equality row (C = 0). Default: all null.
   */
  limits?: readonly (readonly [number, number] | null)[];
}

const HOOK_NAMES = ['validate', 'prepare', 'position', 'velocity', 'effMass', 'impulse', 'jacobian', 'clamp', 'broken', 'draw'] as const;

const FD_STEP = 1e-6;

export class UserConstraint extends Constraint {
  readonly dimensions: number;
  readonly velocityOnly: boolean;
  readonly packedState: boolean;
  private _hooks: UserConstraintHooks = {};
  /** Bodies in Jacobian order (may contain nulls until set). */
  private _list: (Body | null)[] = [];
  private _refCounts = new Map<Body, number>();
  private _bodiesCache: Body[] = [];

  // solver state: the impulses (read-outs) live here; the one-by-one path's working arrays live
  // in `w`, made on first use, so a batched constraint (user-batch.ts) stays small in memory.
  private readonly jAcc: Float64Array;
  private readonly stepImp: Float64Array;
  /**
   * Per row: 1 for a limited row, its bounds, and each side's accumulated impulse (jAcc holds
   * their difference, the row's net impulse). eqRows lists the other rows, limitedCount counts these.
   */
  private readonly rowLimited: Uint8Array;
  private readonly rowMin: Float64Array;
  private readonly rowMax: Float64Array;
  private readonly accMin: Float64Array;
  private readonly accMax: Float64Array;
  private eqRows: Int32Array;
  private limitedCount = 0;
  private hasSharedBody = false;
  /** Slot → index in _bodiesCache (−1 for an empty slot). */
  private slotDistinct = new Int32Array(0);
  private readonly out: Vec3 = { x: 0, y: 0, z: 0 };
  private bodyImp: Float64Array = new Float64Array(0);
  private _work: UserConstraintWork | null = null;
  /** The one-by-one path's arrays (sized for the current bodies; remade after a body change). */
  private get w(): UserConstraintWork {
    return (this._work ??= new UserConstraintWork(this.dimensions, this._list.length, this._bodiesCache.length, this.hasSharedBody));
  }
  private midStep = false;

  constructor(dimensionsOrOptions: number | UserConstraintOptions, velocityOnly = false) {
    super();
    const o: UserConstraintOptions = typeof dimensionsOrOptions === 'number' ? { dimensions: dimensionsOrOptions, velocityOnly } : dimensionsOrOptions;
    if (o === null || typeof o !== 'object') fail('UserConstraint', 'options', o, 'must be a number of dimensions or an options object');
    const dim = checkInteger('UserConstraint', 'dimensions', o.dimensions, 1, 64);
    const vOnly = o.velocityOnly ?? false;
    if (typeof vOnly !== 'boolean') fail('UserConstraint', 'velocityOnly', vOnly, 'must be a boolean');
    const packed = o.packedState ?? false;
    if (typeof packed !== 'boolean') fail('UserConstraint', 'packedState', packed, 'must be a boolean');
    const base = this.validateBaseOptions(o);
    const hooks = o.hooks !== undefined ? checkHooks(o.hooks) : {};
    const bodies = o.bodies !== undefined ? this.checkBodyList(o.bodies) : [];
    const limits = o.limits !== undefined ? checkLimitList(o.limits, dim, vOnly) : [];
    this.dimensions = dim;
    this.velocityOnly = vOnly;
    this.packedState = packed;
    Object.assign(this, base);
    this.userData = o.userData;
    this._hooks = hooks;
    this.jAcc = new Float64Array(dim);
    this.stepImp = new Float64Array(dim);
    this.rowLimited = new Uint8Array(dim);
    this.rowMin = new Float64Array(dim);
    this.rowMax = new Float64Array(dim);
    this.accMin = new Float64Array(dim);
    this.accMax = new Float64Array(dim);
    this.eqRows = Int32Array.from({ length: dim }, (_, r) => r);
    limits.forEach((l, r) => this._writeLimit(r, l));
    this.rebuild();
    if (bodies.length) this.setBodyList(bodies);
    // A subclass's impulse(imp, body, out) hook must not hide the impulse() read-out.
    const own = Object.getPrototypeOf(this).impulse as UserConstraint['impulse'];
    if (own !== UserConstraint.prototype.impulse) {
      this.impulse = (imp?: Float64Array, body?: Body, out?: Vec3, state?: Float64Array) =>
        imp === undefined ? Constraint.prototype.impulse.call(this) : own.call(this, imp, body, out, state);
      this._hookImpulseOverridden = true;
    }
  }
  private _hookImpulseOverridden = false;

  get typeName(): string {
    return 'UserConstraint';
  }
  protected override get optionKeys(): readonly string[] {
    return USER_CONSTRAINT_OPTION_KEYS;
  }
  get dimension(): number {
    return this.dimensions;
  }
  get bodies(): readonly Body[] {
    return this._bodiesCache;
  }

  /** Object form: the hooks. Replacing them wakes the constraint. */
  get hooks(): UserConstraintHooks {
    return this._hooks;
  }
  set hooks(h: UserConstraintHooks) {
    this._hooks = checkHooks(h);
    this._modes = null;
    this.invalidate();
  }

  /** Object form: the bodies, in Jacobian column order. */
  get bodyList(): readonly (Body | null)[] {
    return this._list;
  }
  set bodyList(list: (Body | null)[]) {
    const v = this.checkBodyList(list);
    this._swapBody(() => this.setBodyList(v));
  }

  private checkBodyList(list: unknown): (Body | null)[] {
    if (!Array.isArray(list)) fail('UserConstraint', 'bodies', list, 'must be an array of Body or null');
    list.forEach((b, i) => {
      if (b !== null && (typeof b !== 'object' || typeof (b as Body).applyImpulse !== 'function')) fail('UserConstraint', `bodies[${i}]`, b, 'must be a Body or null');
    });
    return list as (Body | null)[];
  }

  private setBodyList(list: (Body | null)[]): void {
    this._list = list.slice();
    this._refCounts.clear();
    for (const b of list) if (b) this._refCounts.set(b, (this._refCounts.get(b) ?? 0) + 1);
    this.rebuild();
  }

  private rebuild(): void {
    const out: Body[] = [];
    const slots = this._list.length;
    this.slotDistinct = new Int32Array(slots);
    for (let s = 0; s < slots; s++) {
      const b = this._list[s];
      if (!b) {
        this.slotDistinct[s] = -1;
        continue;
      }
      let d = out.indexOf(b);
      if (d < 0) d = out.push(b) - 1;
      this.slotDistinct[s] = d;
    }
    this._bodiesCache = out;
    this.hasSharedBody = out.length < this._list.filter((b) => b !== null).length;
    this.bodyImp = new Float64Array(3 * out.length);
    this._work = null;
    this.poseEpoch = -1;
    this._derivativesUnchecked = true;
    // A batched row was laid out for the old bodies: leave it (the body change re-plans the step).
    this._batch = null;
    this._batchRow = -1;
  }

  /** The packed body state the hooks last saw (BODY_STATE_STRIDE numbers per body slot). */
  get bodyState(): Float64Array {
    return this.w.state;
  }

  // ------------------------------------------------------------------ limits

  /** Row `row`'s limits [jointMin, jointMax], or null for an equality row (C = 0). */
  limit(row: number): [number, number] | null {
    const r = checkInteger(this.label, 'limit(row)', row, 0, this.dimensions - 1);
    return this.rowLimited[r] === 1 ? [this.rowMin[r]!, this.rowMax[r]!] : null;
  }

  /**
   * Hold row `row`'s C within [jointMin, jointMax] (±Infinity allowed), or make it an equality
   * row again (null). Checked whole before anything changes; wakes the constraint.
   */
  setLimit(row: number, limits: readonly [number, number] | null): void {
    const r = checkInteger(this.label, 'setLimit(row)', row, 0, this.dimensions - 1);
    const l = limits === null ? null : checkRowLimit(this.label, `setLimit(${r}, limits)`, limits);
    if (l !== null && this.velocityOnly) fail(this.label, `setLimit(${r}, limits)`, limits, 'cannot be set on a velocityOnly constraint (it has no C to limit)');
    const was = this.rowLimited[r] === 1;
    if (was === (l !== null) && (l === null || (l[0] === this.rowMin[r] && l[1] === this.rowMax[r]))) return;
    this._writeLimit(r, l);
    if (was !== (l !== null)) {
      // The row changes kind: its impulse no longer means what it did.
      this.jAcc[r] = this.accMin[r] = this.accMax[r] = 0;
    }
    this.invalidate();
  }

  private _writeLimit(r: number, l: readonly [number, number] | null): void {
    this.rowLimited[r] = l === null ? 0 : 1;
    this.rowMin[r] = l === null ? 0 : l[0];
    this.rowMax[r] = l === null ? 0 : l[1];
    let m = 0;
    for (let i = 0; i < this.dimensions; i++) if (this.rowLimited[i] === 0) this.eqRows[m++] = i;
    this.limitedCount = this.dimensions - m;
  }

  // ------------------------------------------------------------------ Nape helpers

  /**
   * Subclass form: swap a body reference, keeping a ref-counted body list (in first-registered
   * order, the Jacobian's column order). Wakes the old and new bodies. Returns `newBody`.
   */
  registerBody<B extends Body | null>(oldBody: Body | null, newBody: B): B {
    if (newBody !== null && (typeof newBody !== 'object' || typeof (newBody as Body).applyImpulse !== 'function')) {
      fail('UserConstraint', 'registerBody(newBody)', newBody, 'must be a Body or null');
    }
    if (oldBody === newBody) return newBody;
    this._swapBody(() => {
      if (oldBody) {
        const n = (this._refCounts.get(oldBody) ?? 0) - 1;
        if (n <= 0) {
          this._refCounts.delete(oldBody);
          const i = this._list.indexOf(oldBody);
          if (i >= 0) this._list.splice(i, 1);
        } else this._refCounts.set(oldBody, n);
      }
      if (newBody) {
        const n = this._refCounts.get(newBody) ?? 0;
        this._refCounts.set(newBody, n + 1);
        if (n === 0) this._list.push(newBody);
      }
      this.rebuild();
    });
    return newBody;
  }

  /** A vector whose mutation wakes this constraint (for anchors and parameters). */
  bindVec2(x = 0, y = 0): Vec2 {
    const owner = this;
    let vx = checkFinite('UserConstraint', 'bindVec2(x)', x);
    let vy = checkFinite('UserConstraint', 'bindVec2(y)', y);
    return {
      get x() {
        return vx;
      },
      set x(v: number) {
        vx = checkFinite('UserConstraint', 'vector.x', v);
        owner.invalidate();
      },
      get y() {
        return vy;
      },
      set y(v: number) {
        vy = checkFinite('UserConstraint', 'vector.y', v);
        owner.invalidate();
      },
    };
  }

  // ------------------------------------------------------------------ overridable hooks (subclass form)
  // With the packed state (always filled, see body-state.ts) as the last argument of the hooks that
  // read bodies: a hook may read Body objects (default) or the array (required with packedState).

  validate(): void {
    this._hooks.validate?.call(this);
  }
  prepare(state?: Float64Array): void {
    this._hooks.prepare?.call(this, state!);
  }
  position(err: Float64Array, state?: Float64Array): void {
    if (this._hooks.position) this._hooks.position.call(this, err, state!);
    else fail('UserConstraint', 'position', undefined, 'must be provided (override position(err) or pass hooks.position) unless velocityOnly');
  }
  velocity(err: Float64Array, state?: Float64Array): void {
    if (this._hooks.velocity) this._hooks.velocity.call(this, err, state!);
    else this.velocityFromJacobian(err);
  }
  effMass(eff: Float64Array, state?: Float64Array): void {
    if (this._hooks.effMass) this._hooks.effMass.call(this, eff, state!);
    else this.effMassFromJacobian(eff);
  }
  /**
   * Two roles, told apart by the arguments (Nape called the hook `__impulse`):
   *  - `impulse()`: the read-out every constraint has, the impulse of the last step per row;
   *  - `impulse(imp, body, out, state)`: the hook, writing Jᵀ·imp for `body` into out.
   * A subclass overrides the hook form; the read-out keeps working (see the constructor).
   * In TypeScript, declare the override as
   *   `override impulse(imp?: Float64Array, body?: Body, out?: Vec3, state?: Float64Array): any`
   * so the subclass still type-checks as a Constraint (whose read-out takes no arguments).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override impulse(imp?: Float64Array, body?: Body, out?: Vec3, state?: Float64Array): any {
    if (imp === undefined) return super.impulse();
    if (this._hooks.impulse) this._hooks.impulse.call(this, imp, body!, out!, state!);
    else this.impulseFromJacobian(imp, body!, out!);
  }
  /** Fill J (dimensions × 3·bodies). Default: central differences of position(). */
  jacobian(J: Float64Array, state?: Float64Array): void {
    if (this._hooks.jacobian) this._hooks.jacobian.call(this, J, state!);
    else this.finiteDifferenceJacobian(J);
  }
  clamp(jAcc: Float64Array): void {
    this._hooks.clamp?.call(this, jAcc);
  }
  broken(): void {
    this._hooks.broken?.call(this);
  }
  draw(debug: DebugDraw): void {
    this._hooks.draw?.call(this, debug);
  }
  /** A copy with the same settings, hooks and bodies (not userData or the impulse cache). */
  copy(): UserConstraint {
    return new UserConstraint({
      dimensions: this.dimensions,
      velocityOnly: this.velocityOnly,
      packedState: this.packedState,
      limits: Array.from({ length: this.dimensions }, (_, r) => this.limit(r)),
      bodies: this._list.slice(),
      hooks: { ...this._hooks },
      active: this._active,
      stiff: this._stiff,
      frequency: this._frequency,
      damping: this._damping,
      maxForce: this._maxForce,
      maxError: this._maxError,
      breakUnderForce: this._breakUnderForce,
      breakUnderError: this._breakUnderError,
      removeOnBreak: this._removeOnBreak,
      ignore: this._ignore,
    });
  }

  // ------------------------------------------------------------------ which hooks are the user's

  /** Cached: asked every pass. Reset when the hooks change. */
  private _modes: HookModes | null = null;
  private modes(): HookModes {
    if (this._modes === null) {
      const effMass = this.effMass !== UserConstraint.prototype.effMass || this._hooks.effMass !== undefined;
      const impulse = this._hookImpulseOverridden || this._hooks.impulse !== undefined;
      const velocity = this.velocity !== UserConstraint.prototype.velocity || this._hooks.velocity !== undefined;
      const ownJacobian = this.jacobian !== UserConstraint.prototype.jacobian || this._hooks.jacobian !== undefined;
      const clamp = this.clamp !== UserConstraint.prototype.clamp || this._hooks.clamp !== undefined;
      const validate = this.validate !== UserConstraint.prototype.validate || this._hooks.validate !== undefined;
      const prepare = this.prepare !== UserConstraint.prototype.prepare || this._hooks.prepare !== undefined;
      // Nape's form (effMass and impulse both given) needs no J; anything else derives from J.
      this._modes = { jacobian: !(effMass && impulse), effMass, impulse, velocity, ownJacobian, clamp, validate, prepare };
    }
    return this._modes;
  }

  // ------------------------------------------------------------------ batch solving (user-batch.ts)

  /**
   * @internal A subclass whose velocity() computes exactly J·v and whose clamp() does nothing (in
   * its current configuration) says so here, so that it can be solved in the batch all the same.
   */
  protected _plainJacobianRows(): boolean {
    return false;
  }

  /** clamp() leaves every impulse as it is: it is not overridden, or the subclass says so. */
  private clampIsIdle(): boolean {
    return !this.modes().clamp || this._plainJacobianRows();
  }

  /**
   * @internal Whether the batch must call prepare() before each pose's hooks (a subclass whose
   * prepare() only matters to its own per-pass hooks, which the batch never calls, may say no).
   */
  protected _batchNeedsPrepare(): boolean {
    return this.modes().prepare;
  }

  /**
   * Optional, for speed when a scene has many constraints of one kind: the bulk form of this
   * constraint's jacobian() and position() (see UserBatchKernel), or null (the default). Return
   * the same kernel object from every constraint of the kind, and write each one's numbers with
   * batchParams(). The user batch then evaluates all of them in one call per pose, instead of a
   * call per constraint. The kernel must compute exactly what the hooks compute from the same
   * state; the hooks still serve every path that is not batched. Used only for batched
   * constraints (see the file comment) without a prepare() hook. @fulcrum/symbolic supplies one.
   */
  batchKernel(): UserBatchKernel | null {
    return null;
  }

  /** This constraint's kernel parameters (batchKernel().paramCount numbers), into out[at …]. */
  batchParams(out: Float64Array, at: number): void {
    void out;
    void at;
  }

  /**
   * @internal The error for a hook that wrote a non-finite value: in row `row` and, for
   * jacobian(), column `column` (else −1), at the packed state `state` the hook read (null when
   * unknown). A subclass may say where the value came from: SymbolicConstraint points at the
   * sub-expression of its source.
   */
  _nonFiniteError(hook: string, row: number, column: number, value: number, state: Float64Array | null): Error {
    void state;
    const at = column < 0 ? `row ${row}` : `row ${row}, column ${column} (${JACOBIAN_COLUMN[column % 3]} of bodies[${(column / 3) | 0}])`;
    return new FulcrumInputError(`${this.label}: ${hook}() wrote a non-finite value (${value}) in ${at}`, { owner: this.typeName, prop: hook });
  }

  // ------------------------------------------------------------------ Space.checkUserConstraints

  /** Changed since its derivatives were last checked (see user-constraint-check.ts). */
  private _derivativesUnchecked = true;

  override invalidate(): void {
    this._derivativesUnchecked = true;
    super.invalidate();
  }

  /** @internal */
  override _checkDerivatives(): void {
    if (!this._derivativesUnchecked || this.velocityOnly) return;
    this.refreshOutsideStep();
    checkUserConstraintDerivatives(this._derivativeProbe());
    this._derivativesUnchecked = false;
  }

  /** The hooks at the bodies' current state, in the engine's order (prepare first), for the check. */
  private _derivativeProbe(): DerivativeProbe {
    const modes = this.modes();
    const w = this.w;
    const saved = new Float64Array(w.state.length);
    const savedBodies: number[] = [];
    const atPose = () => {
      this.prepare(w.state);
      // As at a pose of a step: J first (a velocity() may read the J the engine holds).
      if (modes.jacobian) {
        this.jacobian(w.J, w.state);
        checkRow(this, 'jacobian', w.J, 3 * this._list.length, w.state);
      }
    };
    return {
      label: this.label,
      typeName: this.typeName,
      dimensions: this.dimensions,
      slots: this._list as Body[],
      distinct: this._bodiesCache,
      slotDistinct: this.slotDistinct,
      has: { jacobian: modes.ownJacobian && modes.jacobian, velocity: modes.velocity, effMass: modes.effMass, impulse: modes.impulse },
      // (Each output is checked as the solver checks it: a NaN is reported as a NaN, not as a mismatch.)
      position: (err) => {
        this.prepare(w.state);
        this.position(err, w.state);
        checkRow(this, 'position', err, 0, w.state);
      },
      jacobian: (J) => {
        this.prepare(w.state);
        this.jacobian(J, w.state);
        checkRow(this, 'jacobian', J, 3 * this._list.length, w.state);
      },
      velocity: (err) => {
        atPose();
        this.velocity(err, w.state);
        checkRow(this, 'velocity', err, 0, w.state);
      },
      effMass: (eff) => {
        atPose();
        this.effMass(eff, w.state);
        checkRow(this, 'effMass', eff, 0, w.state);
      },
      impulse: (imp, body, out) => {
        atPose();
        this.impulse(imp, body, out, w.state);
      },
      differences: (J, step, bend) => this.finiteDifferenceJacobian(J, step, true, bend),
      nudgeVelocities: (delta) => {
        saved.set(w.state);
        savedBodies.length = 0;
        for (const b of this._bodiesCache) savedBodies.push(b._vx, b._vy, b._w);
        for (let s = 0; s < this._list.length; s++) {
          const d = this.slotDistinct[s]!;
          const o = s * BODY_STATE_STRIDE;
          w.state[o + 5] = w.state[o + 5]! + delta[3 * d]!;
          w.state[o + 6] = w.state[o + 6]! + delta[3 * d + 1]!;
          w.state[o + 7] = w.state[o + 7]! + delta[3 * d + 2]!;
        }
        if (this.packedState) return;
        this._bodiesCache.forEach((b, d) => {
          b._vx += delta[3 * d]!;
          b._vy += delta[3 * d + 1]!;
          b._w += delta[3 * d + 2]!;
        });
      },
      undoVelocities: () => {
        w.state.set(saved);
        if (this.packedState) return;
        this._bodiesCache.forEach((b, d) => {
          b._vx = savedBodies[3 * d]!;
          b._vy = savedBodies[3 * d + 1]!;
          b._w = savedBodies[3 * d + 2]!;
        });
      },
    };
  }

  /** @internal The user batch when the constraint qualifies (_batchable), else one by one. */
  override _solverFamily(): SolverFamilyKind {
    return this._batchable() ? 'user-batch' : 'one-by-one';
  }

  /** @internal Whether the space may solve this constraint in the UserBatch (see user-batch.ts). */
  _batchable(): boolean {
    if (!this.packedState || this.velocityOnly || this._breakUnderError || this.hasSharedBody) return false;
    const slots = this._list.length;
    if (slots < 1 || slots > USER_BATCH_MAX_SLOTS || this.dimensions > USER_BATCH_MAX_DIM) return false;
    for (let s = 0; s < slots; s++) if (this._list[s] === null) return false;
    // The batch solves all-limited or all-equality rows (a mix needs the equality block beside the sides).
    if (this.limitedCount !== 0 && this.limitedCount !== this.dimensions) return false;
    const m = this.modes();
    if (m.effMass || m.impulse || !m.ownJacobian) return false;
    return this._plainJacobianRows() || (!m.velocity && !m.clamp);
  }

  /** @internal The batch row this constraint's impulses live in while it is batched. */
  _batch: UserBatch | null = null;
  _batchRow = -1;

  /** @internal Whether the rows are limited (a batched constraint's are all limited, or none). */
  _limited(): boolean {
    return this.limitedCount !== 0;
  }

  /** @internal The per-step preparation, written into batch row n (laid out by UserBatch.close). */
  _fillBatch(b: UserBatch, n: number, ctx: StepContext): void {
    const ratio = this._beginStep(ctx);
    const v = b.vOff[n]!;
    this._scaleImpulses(ratio);
    for (let r = 0; r < this.dimensions; r++) {
      b.accPool[v + r] = this.jAcc[r]!;
      // The last step's read-out, which a failed step puts back (UserBatch.restoreImpulses).
      b.keptStep[v + r] = this.stepImp[r]!;
      b.stepPool[v + r] = 0;
      b.minPool[v + r] = this.rowMin[r]!;
      b.maxPool[v + r] = this.rowMax[r]!;
      b.accMinPool[v + r] = this.accMin[r]!;
      b.accMaxPool[v + r] = this.accMax[r]!;
    }
    b.lim[n] = this.limitedCount !== 0 ? 1 : 0;
    const soft = !this._stiff;
    b.soft[n] = soft ? 1 : 0;
    b.prep[n] = this._batchNeedsPrepare() ? 1 : 0;
    b.bias[n] = this._soft.biasRate;
    b.compliance[n] = this._soft.compliance;
    b.maxImp[n] = this._maxForce;
    b.maxErr[n] = this._maxError;
    const s0 = b.sOff[n]!;
    const sb = ctx.bodies;
    let floor = 0;
    for (let s = 0; s < this._list.length; s++) {
      const body = this._list[s]!;
      const k = body._solverIndex;
      // The one-by-one path's sync(), term for term (batched constraints list each body once).
      floor += vanishingRowTerm(k > 0 ? sb.invMass[k]! : body._invMass, k > 0 ? sb.invI[k]! : body._invInertia, body._maxExtent);
      b.slotK[s0 + s] = k > 0 ? k : 0;
      b.slotLx[s0 + s] = body._lcx;
      b.slotLy[s0 + s] = body._lcy;
      b.slotBody[s0 + s] = body;
      for (let x = 0; x < 3; x++) b.keptSlotImp[3 * (s0 + s) + x] = this.bodyImp[3 * s + x]!;
      b.slotImp[3 * (s0 + s)] = b.slotImp[3 * (s0 + s) + 1] = b.slotImp[3 * (s0 + s) + 2] = 0;
    }
    b.kFloor[n] = floor;
    this._batch = b;
    this._batchRow = n;
  }

  /** @internal Take back row n's impulses (accumulated, of the step, per body). */
  private _readBatch(b: UserBatch, n: number): void {
    const v = b.vOff[n]!;
    for (let r = 0; r < this.dimensions; r++) {
      this.jAcc[r] = b.accPool[v + r]!;
      this.stepImp[r] = b.stepPool[v + r]!;
      this.accMin[r] = b.accMinPool[v + r]!;
      this.accMax[r] = b.accMaxPool[v + r]!;
    }
    // Batched constraints have no shared or empty slot: slot s is distinct body s.
    const s0 = 3 * b.sOff[n]!;
    for (let i = 0; i < this.bodyImp.length; i++) this.bodyImp[i] = b.slotImp[s0 + i]!;
  }

  /** @internal Bring the impulses up to date from the batch row (if batched). */
  private _syncFromBatch(): void {
    if (this._batch !== null) this._readBatch(this._batch, this._batchRow);
  }

  /** @internal The batch starts a new plan: take row n back for good (if it is still ours). */
  _detachFromBatch(b: UserBatch, n: number): void {
    if (this._batch !== b || this._batchRow !== n) return;
    this._readBatch(b, n);
    this._batch = null;
    this._batchRow = -1;
  }

  // ------------------------------------------------------------------ Jacobian-derived defaults

  /** J with the columns of a body that fills several slots summed (J itself when none does). */
  private collapseJacobian(): Float64Array {
    if (!this.hasSharedBody) return this.w.J;
    const n = this.dimensions;
    const cols = 3 * this._list.length;
    const dcols = 3 * this._bodiesCache.length;
    const Jd = this.w.Jd;
    Jd.fill(0);
    for (let s = 0; s < this._list.length; s++) {
      const d = this.slotDistinct[s]!;
      if (d < 0) continue;
      for (let r = 0; r < n; r++) {
        const i = r * cols + 3 * s;
        const o = r * dcols + 3 * d;
        Jd[o] = Jd[o]! + this.w.J[i]!;
        Jd[o + 1] = Jd[o + 1]! + this.w.J[i + 1]!;
        Jd[o + 2] = Jd[o + 2]! + this.w.J[i + 2]!;
      }
    }
    return Jd;
  }

  /** V = J v, with v read from the packed state (refreshed before every hook round). */
  private velocityFromJacobian(err: Float64Array): void {
    this.refreshOutsideStep();
    const n = this.dimensions;
    const cols = 3 * this._list.length;
    const J = this.w.J;
    const st = this.w.state;
    for (let r = 0; r < n; r++) {
      let v = 0;
      for (let s = 0; s < this._list.length; s++) {
        if (this.slotDistinct[s]! < 0) continue;
        const i = r * cols + 3 * s;
        const o = s * BODY_STATE_STRIDE;
        v += J[i]! * st[o + 5]! + J[i + 1]! * st[o + 6]! + J[i + 2]! * st[o + 7]!;
      }
      err[r] = v;
    }
  }

  /** K = J M⁻¹ Jᵀ into this.w.K (n×n), from the collapsed Jacobian and the bodies' inverse masses. */
  private kFromJacobian(): void {
    const n = this.dimensions;
    const Jd = this.collapseJacobian();
    const nd = this._bodiesCache.length;
    const dcols = 3 * nd;
    const K = this.w.K;
    for (let a = 0; a < n; a++) {
      for (let b = a; b < n; b++) {
        let k = 0;
        for (let d = 0; d < nd; d++) {
          const ia = a * dcols + 3 * d;
          const ib = b * dcols + 3 * d;
          k += this.w.dInvMass[d]! * (Jd[ia]! * Jd[ib]! + Jd[ia + 1]! * Jd[ib + 1]!) + this.w.dInvI[d]! * Jd[ia + 2]! * Jd[ib + 2]!;
        }
        K[a * n + b] = k;
        K[b * n + a] = k;
      }
    }
    dropVanishingRows(K, n, this.w.kFloor);
  }

  private effMassFromJacobian(eff: Float64Array): void {
    this.refreshOutsideStep();
    this.kFromJacobian();
    const n = this.dimensions;
    let p = 0;
    for (let a = 0; a < n; a++) for (let b = a; b < n; b++) eff[p++] = this.w.K[a * n + b]!;
  }

  private impulseFromJacobian(imp: Float64Array, body: Body, out: Vec3): void {
    const cols = 3 * this._list.length;
    out.x = out.y = out.z = 0;
    for (let s = 0; s < this._list.length; s++) {
      if (this._list[s] !== body) continue;
      for (let r = 0; r < this.dimensions; r++) {
        const i = r * cols + 3 * s;
        const l = imp[r]!;
        out.x += this.w.J[i]! * l;
        out.y += this.w.J[i + 1]! * l;
        out.z += this.w.J[i + 2]! * l;
      }
    }
  }

  /**
   * Central differences of position() in x, y and θ (about the centre of mass) of each body.
   * The perturbed pose goes into the packed state (every slot of that body) and, unless
   * packedState, into the Body too; both are restored exactly afterwards.
   */
  private finiteDifferenceJacobian(J: Float64Array, step = FD_STEP, everyBody = false, bend: Float64Array | null = null): void {
    this.refreshOutsideStep();
    const n = this.dimensions;
    const cols = 3 * this._list.length;
    const st = this.w.state;
    const saved = this.w.savedState;
    saved.set(st);
    J.fill(0);
    // C at the state itself, for the bends (the derivative check only).
    let c0: Float64Array | null = null;
    if (bend !== null) {
      bend.fill(0);
      c0 = new Float64Array(n);
      this.position(c0, st);
      checkRow(this, 'position', c0, 0, st);
    }
    for (let s = 0; s < this._list.length; s++) {
      const b = this._list[s];
      // (The solver skips a body no impulse moves; the derivative check takes every body with `everyBody`,
      // so that a C that depends only on such bodies is not taken for a constant.)
      if (!b || (!everyBody && b.constraintMass === 0 && b.constraintInertia === 0)) continue;
      const o = s * BODY_STATE_STRIDE;
      const x0 = st[o]!, y0 = st[o + 1]!, a0 = st[o + 2]!, cx = st[o + 8]!, cy = st[o + 9]!;
      const bx0 = b._x, by0 = b._y, ba0 = b._angle;
      for (let d = 0; d < 3; d++) {
        for (let side = 0; side < 2; side++) {
          const e = side === 0 ? step : -step;
          let x = x0, y = y0, a = a0, c = st[o + 3]!, sn = st[o + 4]!, comX = cx, comY = cy;
          if (d === 0) { x += e; comX += e; }
          else if (d === 1) { y += e; comY += e; }
          else {
            a += e;
            c = Math.cos(a);
            sn = Math.sin(a);
            x = cx - (c * b._lcx - sn * b._lcy);
            y = cy - (sn * b._lcx + c * b._lcy);
          }
          for (let t = 0; t < this._list.length; t++) {
            if (this._list[t] !== b) continue;
            const q = t * BODY_STATE_STRIDE;
            st[q] = x; st[q + 1] = y; st[q + 2] = a; st[q + 3] = c; st[q + 4] = sn; st[q + 8] = comX; st[q + 9] = comY;
          }
          if (!this.packedState) {
            b._x = x;
            b._y = y;
            if (d === 2) b._setAngle(a);
          }
          const row = side === 0 ? this.w.Jp : this.w.Jm;
          row.fill(0);
          try {
            this.position(row, st);
            checkRow(this, 'position', row, 0, st);
          } finally {
            // Restored exactly even when position() throws: a failed step leaves no body shifted by ε.
            st.set(saved);
            if (!this.packedState) {
              b._x = bx0;
              b._y = by0;
              if (d === 2) b._setAngle(ba0);
            }
          }
        }
        for (let r = 0; r < n; r++) J[r * cols + 3 * s + d] = (this.w.Jp[r]! - this.w.Jm[r]!) / (2 * step);
        if (c0 !== null) for (let r = 0; r < n; r++) bend![r * cols + 3 * s + d] = ((this.w.Jp[r]! + this.w.Jm[r]!) / 2 - c0[r]!) / step;
      }
    }
  }

  // ------------------------------------------------------------------ solver

  /**
   * Bring the hooks' view up to the solver's current substep: the packed state of every slot,
   * the inverse masses of the distinct bodies, and (unless packedState) the Body objects.
   */
  private sync(ctx: StepContext | null): void {
    const sb = ctx === null ? null : ctx.bodies;
    const list = this._list;
    for (let s = 0; s < list.length; s++) {
      const b = list[s];
      if (b) fillBodyState(this.w.state, s * BODY_STATE_STRIDE, b, sb);
      else clearBodyState(this.w.state, s * BODY_STATE_STRIDE);
    }
    let floor = 0;
    const distinct = this._bodiesCache;
    for (let d = 0; d < distinct.length; d++) {
      const b = distinct[d]!;
      const k = sb === null ? -1 : b._solverIndex;
      this.w.dSolver[d] = k > 0 ? k : 0;
      this.w.dInvMass[d] = k > 0 ? sb!.invMass[k]! : b._invMass;
      this.w.dInvI[d] = k > 0 ? sb!.invI[k]! : b._invInertia;
      floor += vanishingRowTerm(this.w.dInvMass[d]!, this.w.dInvI[d]!, b._maxExtent);
      if (!this.packedState && k > 0) sb!.writeStateMidStep(k);
    }
    this.w.kFloor = floor;
  }

  /** Inside a step sync() keeps the state current; a call from outside (a test, a tool) reads the bodies. */
  private inStep = false;
  private refreshOutsideStep(): void {
    if (!this.inStep) this.sync(null);
  }

  private computeJacobian(): void {
    this.jacobian(this.w.J, this.w.state);
    checkRow(this, 'jacobian', this.w.J, 3 * this._list.length, this.w.state);
  }

  /** K (n×n) from effMass (packed) or straight from the Jacobian. */
  private buildK(): void {
    const n = this.dimensions;
    const modes = this.modes();
    if (modes.jacobian) this.computeJacobian();
    if (!modes.effMass) {
      this.kFromJacobian();
      return;
    }
    this.effMass(this.w.eff, this.w.state);
    let p = 0;
    for (let a = 0; a < n; a++) {
      for (let b = a; b < n; b++) {
        const v = this.w.eff[p++]!;
        if (!Number.isFinite(v)) throw new FulcrumInputError(`${this.label}: effMass wrote a non-finite value (${v}) at packed index ${p - 1}`, { owner: this.typeName, prop: 'effMass' });
        this.w.K[a * n + b] = v;
        this.w.K[b * n + a] = v;
      }
    }
    this.checkUserK();
  }

  /**
   * A hand-written K must be an effective mass J M⁻¹ Jᵀ: symmetric positive definite. A negative
   * or zero pivot would make the solver push the wrong way, or not at all, and grow without bound
   * (a wrong sign in effMass is the usual cause), so it is rejected as soon as it is written.
   */
  private checkUserK(): void {
    const n = this.dimensions;
    const w = this.w;
    // (Keq and kDiag as scratch: they serve limited rows, which cannot be combined with effMass.)
    for (let i = 0, e = n * n; i < e; i++) w.Keq[i] = w.K[i]!; // (no subarray view: this runs at every pose)
    factorSymmetric(w.Keq, n, w.kDiag);
    let scale = 0;
    for (let r = 0; r < n; r++) scale = Math.max(scale, Math.abs(w.K[r * n + r]!));
    for (let r = 0; r < n; r++) {
      const d = w.Keq[r * n + r]!;
      if (d > zeroPivotTolerance(scale) && scale > 0 && w.K[r * n + r]! >= w.kFloor) continue;
      const what = n === 1 ? `K = ${d}` : `pivot ${r} of its LDLᵀ factors is ${d} (K's diagonal: ${Array.from({ length: n }, (_, i) => w.K[i * n + i]).join(', ')}; a pivot within ${DEPENDENT_ROW_EPS} of its row's diagonal counts as 0, the row being the others' combination)`;
      throw new FulcrumInputError(
        `${this.label}: effMass() wrote a K that is not positive definite: ${what}; K is the effective mass J M⁻¹ Jᵀ, positive on every row, and not below ${w.kFloor} (1e-16 of a unit row's on these bodies): check its signs, and that no row is left 0`,
        { owner: this.typeName, prop: 'effMass' },
      );
    }
  }

  /** Body d's share of Jᵀλ (λ over the rows) into this.out, from the impulse hook or from J (Jd). */
  private bodyShare(lam: Float64Array, d: number, useHook: boolean, Jd: Float64Array): void {
    const out = this.out;
    const list = this._bodiesCache;
    if (useHook) {
      out.x = out.y = out.z = 0;
      this.impulse(lam, list[d]!, out, this.w.state);
      if (!Number.isFinite(out.x) || !Number.isFinite(out.y) || !Number.isFinite(out.z)) {
        throw new FulcrumInputError(`${this.label}: impulse() wrote a non-finite value for Body#${list[d]!.id}`, { owner: this.typeName, prop: 'impulse' });
      }
      return;
    }
    const n = this.dimensions;
    const dcols = 3 * list.length;
    let ox = 0, oy = 0, oz = 0;
    for (let r = 0; r < n; r++) {
      const i = r * dcols + 3 * d;
      const l = lam[r]!;
      ox += Jd[i]! * l;
      oy += Jd[i + 1]! * l;
      oz += Jd[i + 2]! * l;
    }
    out.x = ox;
    out.y = oy;
    out.z = oz;
  }

  /** Apply λ (row vector) to the solver velocities of every body, and to the step's body impulses. */
  private applyImpulse(ctx: StepContext, lam: Float64Array): void {
    const sb = ctx.bodies;
    const list = this._bodiesCache;
    const useHook = this.modes().impulse;
    const Jd = useHook ? this.w.J : this.collapseJacobian();
    const out = this.out;
    for (let d = 0; d < list.length; d++) {
      this.bodyShare(lam, d, useHook, Jd);
      const ox = out.x, oy = out.y, oz = out.z;
      this.bodyImp[3 * d] = this.bodyImp[3 * d]! + ox;
      this.bodyImp[3 * d + 1] = this.bodyImp[3 * d + 1]! + oy;
      this.bodyImp[3 * d + 2] = this.bodyImp[3 * d + 2]! + oz;
      const k = this.w.dSolver[d]!;
      if (k <= 0) continue;
      sb.vx[k] = sb.vx[k]! + sb.invMass[k]! * ox;
      sb.vy[k] = sb.vy[k]! + sb.invMass[k]! * oy;
      sb.w[k] = sb.w[k]! + sb.invI[k]! * oz;
    }
  }

  /**
   * Move the solver positions by M⁻¹Jᵀλ·scale (λ over the rows): a position pass's correction.
   * `scale` is the pass's damping (position-step.ts): given by a joint island, or found here from
   * this constraint's own turns when NaN. (The user batch applies its rows the same way, bit for bit.)
   */
  private applyPositions(ctx: StepContext, lam: Float64Array, scale: number): void {
    const sb = ctx.bodies;
    const list = this._bodiesCache;
    const useHook = this.modes().impulse;
    const Jd = useHook ? this.w.J : this.collapseJacobian();
    const share = this.w.share;
    const out = this.out;
    for (let d = 0; d < list.length; d++) {
      this.bodyShare(lam, d, useHook, Jd);
      share[3 * d] = out.x;
      share[3 * d + 1] = out.y;
      share[3 * d + 2] = out.z;
    }
    if (scale !== scale) {
      scale = 1;
      for (let d = 0; d < list.length; d++) {
        const k = this.w.dSolver[d]!;
        if (k > 0) scale = limitTurn(scale, sb.invI[k]! * share[3 * d + 2]!);
      }
    }
    for (let d = 0; d < list.length; d++) {
      const k = this.w.dSolver[d]!;
      if (k <= 0) continue;
      const ox = share[3 * d]! * scale, oy = share[3 * d + 1]! * scale, oz = share[3 * d + 2]! * scale;
      const m = sb.invMass[k]!;
      const i = sb.invI[k]!;
      sb.dpx[k] = sb.dpx[k]! + m * ox;
      sb.dpy[k] = sb.dpy[k]! + m * oy;
      if (i !== 0 && oz !== 0) sb.rotate(k, i * oz);
    }
  }

  /** Only a validate() hook can fail without a change the space hears of (invalidate()). */
  override _validatesEveryStep(): boolean {
    return this.modes().validate;
  }

  /** Allocation-free (the base class walks _bodySlots(), which builds arrays). */
  protected override _bodiesReady(space: unknown): boolean {
    const list = this._list;
    for (let s = 0; s < list.length; s++) {
      const b = list[s];
      if (!b || b._space !== space) return false;
    }
    return true;
  }

  protected override _validateParameters(): void {
    const modes = this.modes();
    if (this.limitedCount !== 0) {
      // Limits solve V = J v with the engine's sides: hooks that replace those cannot join them.
      const own = this._plainJacobianRows();
      const clash = modes.effMass || modes.impulse ? 'effMass/impulse (limits need J: give jacobian(J) or let finite differences derive it)' : !own && modes.velocity ? 'velocity (limits solve V = J v)' : !own && modes.clamp ? 'clamp (limits clamp each side themselves)' : null;
      if (clash !== null) fail(this.label, 'limits', Array.from({ length: this.dimensions }, (_, r) => this.limit(r)), `cannot be combined with the hook ${clash}`);
    }
    if (!this.velocityOnly && this.position === UserConstraint.prototype.position && !this._hooks.position) {
      throw new FulcrumInputError(`${this.label}: position(err) must be provided unless the constraint is velocityOnly`, { owner: this.typeName, prop: 'position' });
    }
    if (modes.jacobian && this.velocityOnly && this.jacobian === UserConstraint.prototype.jacobian && !this._hooks.jacobian) {
      throw new FulcrumInputError(`${this.label}: a velocityOnly constraint needs jacobian(J), or effMass and impulse`, { owner: this.typeName, prop: 'jacobian' });
    }
    if (modes.effMass !== modes.impulse) {
      // One without the other leaves K and Jᵀλ from two different sources, which need not agree.
      const [given, missing] = modes.effMass ? ['effMass', 'impulse'] : ['impulse', 'effMass'];
      throw new FulcrumInputError(`${this.label}: ${given}() is given without ${missing}(): Nape's form needs both (K and Jᵀλ of the same J), or neither (the engine derives them from J)`, { owner: this.typeName, prop: missing });
    }
    if (!modes.jacobian && !modes.velocity) {
      throw new FulcrumInputError(`${this.label}: velocity(err) must be provided with effMass and impulse (or give jacobian(J) instead)`, { owner: this.typeName, prop: 'velocity' });
    }
    checkBatchKernel(this.label, this.batchKernel(), this.dimensions * 3 * this._list.length);
    this.validate();
  }

  // ------------------------------------------------------------------ joint islands (joint-island.ts)

  /** Per row, for the joint-island solver: ROW_EQUALITY, or ROW_SLACK where J vanishes (K dropped). */
  private islandKind = new Uint8Array(0);
  private islandView: IslandRowsView | null = null;

  /** After buildK, before K is factored: which rows have a K (dense.ts drops a vanishing J's). */
  private markLiveRows(): void {
    const n = this.dimensions;
    if (this.islandKind.length !== n) this.islandKind = new Uint8Array(n);
    for (let r = 0; r < n; r++) this.islandKind[r] = this.w.K[r * n + r] === 0 ? ROW_SLACK : this.rowLimited[r] === 1 ? ROW_LIMIT : ROW_EQUALITY;
  }

  /**
   * @internal The joint-island solver takes a constraint in jacobian form whose passes are J alone
   * (no velocity, clamp, effMass or impulse hook), as the user batch does: its rows equalities, or
   * limited rows, which the island solves as one-sided rows as it solves the built-in joints'
   * limits, stiff or soft (SOFT_RANGES, joint-island.ts). Not a soft constraint with a finite
   * maxForce (FORCE_LIMITED_SOFT_JOINTS, joint-island.ts).
   */
  override _islandEligible(): boolean {
    if (this.velocityOnly) return false;
    if (!this._stiff && this._maxForce !== Infinity) return false;
    const m = this.modes();
    if (m.effMass || m.impulse || !m.jacobian) return false;
    return this._plainJacobianRows() || (!m.velocity && !m.clamp);
  }

  /** @internal */
  override _islandRows(ctx: StepContext): IslandRowsView {
    this.ensurePose(ctx);
    return this.rowsView(this.positionError());
  }

  /** @internal The rows at the current positions, as _solvePosition computes them. */
  override _islandRowsNow(ctx: StepContext): IslandRowsView {
    const err = this.positionNow(ctx);
    this.buildK();
    this.markLiveRows();
    return this.rowsView(err);
  }

  private rowsView(C: Float64Array): IslandRowsView {
    const w = this.w;
    const nd = this._bodiesCache.length;
    if (this.islandView === null || this.islandView.slots.length !== nd) {
      const slots = Array.from({ length: nd }, () => ({ k: 0, m: 0, i: 0 }));
      this.islandView = { dim: 0, kind: this.islandKind, C, J: w.Jd, acc: this.jAcc, slots, soft: this._soft, lo: this.rowMin, hi: this.rowMax, accLo: this.accMin, accHi: this.accMax };
    }
    const v = this.islandView;
    v.dim = this.dimensions;
    v.kind = this.islandKind;
    v.C = C;
    v.J = this.collapseJacobian();
    const slots = v.slots as { k: number; m: number; i: number }[];
    for (let d = 0; d < nd; d++) {
      slots[d]!.k = w.dSolver[d]!;
      slots[d]!.m = w.dInvMass[d]!;
      slots[d]!.i = w.dInvI[d]!;
    }
    return v;
  }

  /** @internal */
  override _islandApply(ctx: StepContext, lam: Float64Array): void {
    this.applyImpulse(ctx, lam);
    // The island moved a limited row's side impulses: its net impulse follows, as in _scaleImpulses.
    if (this.limitedCount === 0) return;
    for (let r = 0; r < this.dimensions; r++) if (this.rowLimited[r] === 1) this.jAcc[r] = this.accMin[r]! - this.accMax[r]!;
  }

  /** @internal */
  override _islandApplyPositions(ctx: StepContext, lam: Float64Array, scale: number): void {
    this.applyPositions(ctx, lam, scale);
  }

  /**
   * What a failed step puts back (_restoreImpulses): jAcc, accMin and accMax as prepared, and the
   * read-outs the step's _prepare cleared (stepImp, bodyImp); kept at step `keptAt`.
   */
  private kept: Float64Array = new Float64Array(0);
  private keptAt = -1;

  /** @internal A failed step: the impulses as prepared, and impulse() and bodyImpulse() as before it. */
  override _restoreImpulses(ctx: StepContext): void {
    if (this.keptAt !== ctx.step) return;
    const n = this.dimensions;
    const a = this.kept;
    for (let r = 0; r < n; r++) {
      this.jAcc[r] = a[r]!;
      this.accMin[r] = a[n + r]!;
      this.accMax[r] = a[2 * n + r]!;
      this.stepImp[r] = a[3 * n + r]!;
    }
    for (let i = 0; i < this.bodyImp.length; i++) this.bodyImp[i] = a[4 * n + i]!;
    this.midStep = false;
    this.inStep = false;
    this.poseEpoch = -1;
  }

  /** @internal */
  _prepare(ctx: StepContext): BreakReason | null {
    // The error test calls hooks: before anything of the step is changed, so that a throw leaves
    // this constraint as it was.
    const broke = this._breakUnderError && this.errorExceeded(ctx);
    this._scaleImpulses(this._beginStep(ctx));
    const n = this.dimensions;
    if (this.kept.length !== 4 * n + this.bodyImp.length) this.kept = new Float64Array(4 * n + this.bodyImp.length);
    const a = this.kept;
    a.set(this.jAcc);
    a.set(this.accMin, n);
    a.set(this.accMax, 2 * n);
    a.set(this.stepImp, 3 * n);
    a.set(this.bodyImp, 4 * n);
    this.keptAt = ctx.step;
    this.stepImp.fill(0);
    this.bodyImp.fill(0);
    this.midStep = false;
    this.inStep = true;
    this.poseEpoch = -1;
    return broke ? 'error' : null;
  }

  /** The impulses carried into a step whose substep is `ratio` times the last one's. */
  private _scaleImpulses(ratio: number): void {
    for (let r = 0; r < this.dimensions; r++) {
      if (this.rowLimited[r] === 0) {
        this.jAcc[r] = this.jAcc[r]! * ratio;
        continue;
      }
      this.accMin[r] = this.accMin[r]! * ratio;
      this.accMax[r] = this.accMax[r]! * ratio;
      this.jAcc[r] = this.accMin[r]! - this.accMax[r]!;
    }
  }

  /** C at the current state exceeds maxError (breakUnderError); a limited row's error is how far C is outside its bounds. */
  private errorExceeded(ctx: StepContext): boolean {
    if (this.velocityOnly) return false;
    this.poseEpoch = -1; // reuses err
    this.sync(ctx);
    this.prepare(this.w.state);
    this.w.err.fill(0);
    this.position(this.w.err, this.w.state);
    // (A non-finite C would never break the constraint, or break it at once: it is a mistake.)
    checkRow(this, 'position', this.w.err, 0, this.w.state);
    let e2 = 0;
    for (let r = 0; r < this.dimensions; r++) {
      const c = this.w.err[r]!;
      const e = this.rowLimited[r] === 0 ? c : Math.max(this.rowMin[r]! - c, c - this.rowMax[r]!, 0);
      e2 += e * e;
    }
    return Math.sqrt(e2) > this._maxError;
  }

  /**
   * The pose-dependent work, once per pose (ctx.poseEpoch): the full state, prepare(), J and K
   * (factored). Between the velocity passes of one substep only velocities change, so then
   * just the velocities are refreshed.
   */
  private poseEpoch = -1;
  private errValid = false;
  /** At this pose: a stiff constraint whose biased passes take the joint softness as a fixed compliance (w.gamma). */
  private jointFixed = false;
  private ensurePose(ctx: StepContext): void {
    if (this.poseEpoch === ctx.poseEpoch) {
      this.syncVelocities(ctx);
      return;
    }
    this.sync(ctx);
    this.prepare(this.w.state);
    this.buildK();
    this.markLiveRows();
    this.poseCompliance(ctx);
    if (this.limitedCount === 0) {
      if (this.jointFixed) this._factorWithCompliance(this.w.K, this.dimensions, this.w.Kb);
      this.addCompliance(this.w.K);
      factorSymmetric(this.w.K, this.dimensions, this.w.dinv);
    } else this._factorEqualityRows();
    this.errValid = false;
    this.poseEpoch = ctx.poseEpoch;
  }

  /**
   * With limited rows: keep K's diagonal (each side's effective mass) and factor the equality
   * rows' block on its own (the sides are solved after it, one at a time).
   */
  private _factorEqualityRows(): void {
    const n = this.dimensions;
    const w = this.w;
    for (let r = 0; r < n; r++) w.kDiag[r] = w.K[r * n + r]!;
    const m = n - this.limitedCount;
    if (m === 0) return;
    for (let a = 0; a < m; a++) for (let b = 0; b < m; b++) w.Keq[a * m + b] = w.K[this.eqRows[a]! * n + this.eqRows[b]!]!;
    if (this.jointFixed) this._factorWithCompliance(w.Keq, m, w.KeqB, this.eqRows);
    if (this.isSoftSpring()) for (let a = 0; a < m; a++) w.Keq[a * m + a] = w.Keq[a * m + a]! + w.gamma[this.eqRows[a]!]!;
    factorSymmetric(w.Keq, m, w.dinv);
  }

  /**
   * A stiff constraint's block for its biased passes with the joint softness (jointHertz > 0):
   * `K` (m × m, over the rows `rows`, or all of them) plus diag(Γ), into `out`, factored (w.dinvb).
   */
  private _factorWithCompliance(K: Float64Array, m: number, out: Float64Array, rows?: Int32Array | number[]): void {
    const w = this.w;
    for (let i = 0, e = m * m; i < e; i++) out[i] = K[i]!;
    for (let a = 0; a < m; a++) out[a * m + a] = out[a * m + a]! + w.gamma[rows ? rows[a]! : a]!;
    factorSymmetric(out, m, w.dinvb);
  }

  /** Whether the rows are springs of their own (a soft constraint whose C is given). */
  private isSoftSpring(): boolean {
    return !this._stiff && !this.velocityOnly;
  }

  /**
   * Each row's compliance Γ = g·Kref at the pose (the fixed compliance of softness.ts), into
   * w.gamma: a soft constraint's own spring; a stiff one's joint softness (jointHertz > 0), which
   * its biased passes take (jointFixed); else 0, and 0 for a row whose J vanishes (K dropped,
   * dense.ts). Kref comes from J's linear and angular parts; Nape's form (effMass and impulse, no
   * J) gives them through impulse(), whose output for a unit λ of row r is row r of Jᵀ on each body.
   */
  private poseCompliance(ctx: StepContext): void {
    const n = this.dimensions;
    const w = this.w;
    const soft = this.isSoftSpring();
    const g = soft ? this._soft.compliance : this._stiff && !this.velocityOnly ? ctx.jointSoftness.compliance : 0;
    this.jointFixed = !soft && g > 0;
    if (!(g > 0)) {
      w.gamma.fill(0);
      return;
    }
    const nd = this._bodiesCache.length;
    const dcols = 3 * nd;
    const useHook = !this.modes().jacobian;
    const Jd = useHook ? null : this.collapseJacobian();
    let angSum = 0;
    let count = 0;
    for (let r = 0; r < n; r++) {
      if (w.K[r * n + r] === 0) {
        w.gamma[r] = 0;
        continue;
      }
      if (useHook) {
        w.trial.fill(0);
        w.trial[r] = 1;
      }
      let lin = 0;
      let ang = 0;
      let linear = 0;
      for (let d = 0; d < nd; d++) {
        let jx: number, jy: number, jz: number;
        if (Jd !== null) {
          const i = r * dcols + 3 * d;
          jx = Jd[i]!;
          jy = Jd[i + 1]!;
          jz = Jd[i + 2]!;
        } else {
          const out = this.out;
          out.x = out.y = out.z = 0;
          this.impulse(w.trial, this._bodiesCache[d]!, out, w.state);
          jx = out.x;
          jy = out.y;
          jz = out.z;
          if (!Number.isFinite(jx) || !Number.isFinite(jy) || !Number.isFinite(jz)) {
            throw new FulcrumInputError(`${this.label}: impulse() wrote a non-finite value for Body#${this._bodiesCache[d]!.id} (λ = 1 on row ${r}, the probe of a soft row's spring)`, { owner: this.typeName, prop: 'impulse' });
          }
        }
        lin += w.dInvMass[d]! * (jx * jx + jy * jy);
        ang += w.dInvI[d]! * jz * jz;
        if (jx !== 0 || jy !== 0) linear = 1;
      }
      // (Γ holds the linear part until the lever share is known.)
      w.gamma[r] = lin;
      w.angPart[r] = ang;
      w.linearRow[r] = linear;
      if (linear === 1) {
        angSum += ang;
        count++;
      }
    }
    const lever = leverShare(angSum, count);
    for (let r = 0; r < n; r++) if (w.K[r * n + r] !== 0) w.gamma[r] = g * referenceMass(w.gamma[r]!, w.angPart[r]!, lever, w.linearRow[r] === 1);
  }

  /** K + diag(Γ), in place (a soft constraint's block: softness.ts). */
  private addCompliance(K: Float64Array): void {
    if (!this.isSoftSpring()) return;
    const n = this.dimensions;
    for (let r = 0; r < n; r++) K[r * n + r] = K[r * n + r]! + this.w.gamma[r]!;
  }

  /** C at the cached pose (computed on first use). */
  private positionError(): Float64Array {
    const err = this.w.err;
    if (!this.errValid) {
      err.fill(0);
      this.position(err, this.w.state);
      checkRow(this, 'position', err, 0, this.w.state);
      this.errValid = true;
    }
    return err;
  }

  /** Velocities only: the solver's current ones into the state (and into the Body objects unless packedState). */
  private syncVelocities(ctx: StepContext): void {
    const sb = ctx.bodies;
    const st = this.w.state;
    const list = this._list;
    for (let s = 0; s < list.length; s++) {
      const b = list[s];
      if (!b) continue;
      const k = b._solverIndex;
      if (k <= 0) continue;
      const o = s * BODY_STATE_STRIDE;
      st[o + 5] = sb.vx[k]!;
      st[o + 6] = sb.vy[k]!;
      st[o + 7] = sb.w[k]!;
      if (!this.packedState) {
        sb.keepBody(k);
        b._vx = sb.vx[k]!;
        b._vy = sb.vy[k]!;
        b._w = sb.w[k]!;
      }
    }
  }

  /** @internal */
  _warmStart(ctx: StepContext, freshStiffRows = false): void {
    if (this.midStep) this.endSubstep();
    this.midStep = true;
    this.ensurePose(ctx);
    if (freshStiffRows && this._stiff) for (let r = 0; r < this.dimensions; r++) this.jAcc[r] = this.accMin[r] = this.accMax[r] = 0;
    this.applyImpulse(ctx, this.jAcc);
  }

  private endSubstep(): void {
    for (let r = 0; r < this.dimensions; r++) this.stepImp[r] = this.stepImp[r]! + this.jAcc[r]!;
  }

  /** @internal */
  _solve(ctx: StepContext, useBias: boolean): void {
    if (this.limitedCount !== 0) {
      this._solveLimited(ctx, useBias);
      return;
    }
    const n = this.dimensions;
    this.ensurePose(ctx);
    const soft = !this._stiff && !this.velocityOnly;
    const { biasRate, massScale, impulseScale } = passSoftness(soft ? this._soft : null, useBias && !this.velocityOnly, ctx.jointSoftness);
    const be = this.w.biasErr;
    if (biasRate !== 0) {
      const err = this.positionError();
      let e = 1;
      if (soft && this._maxError !== Infinity) {
        let e2 = 0;
        for (let r = 0; r < n; r++) e2 += err[r]! * err[r]!;
        const norm = Math.sqrt(e2);
        if (norm > this._maxError) e = this._maxError / norm;
      }
      for (let r = 0; r < n; r++) be[r] = soft ? biasRate * (e === 1 ? err[r]! : err[r]! * e) : stiffBias(biasRate, err[r]!);
    } else {
      for (let r = 0; r < n; r++) be[r] = 0;
    }
    const rhs = this.w.rhs;
    const vel = this.w.vel;
    for (let r = 0; r < n; r++) vel[r] = 0;
    this.velocity(vel, this.w.state);
    checkRow(this, 'velocity', vel, 0, this.w.state);
    const gamma = this.w.gamma;
    // A soft row, and a stiff one's biased pass with the joint softness, take the fixed compliance.
    const jointFixed = !soft && useBias && this.jointFixed;
    const fixed = soft || jointFixed;
    for (let r = 0; r < n; r++) rhs[r] = fixed ? softRhs(-(vel[r]! + be[r]!), gamma[r]!, this.jAcc[r]!) : -(vel[r]! + be[r]!);
    if (jointFixed) solveFactored(this.w.Kb, this.w.dinvb, rhs, n);
    else solveFactored(this.w.K, this.w.dinv, rhs, n);
    const delta = this.w.delta;
    if (!soft && !this.velocityOnly && massScale === 1 && impulseScale === 0 && this.clampIsIdle()) {
      // A stiff row without softening or clamping: the impulse is the solution itself, not the
      // difference of two accumulated impulses (two steps fewer on the chain from one joint's
      // velocities to the next; the user batch does the same, so the two stay bitwise equal).
      for (let r = 0; r < n; r++) {
        delta[r] = rhs[r]!;
        this.jAcc[r] = this.jAcc[r]! + rhs[r]!;
      }
      this.applyImpulse(ctx, delta);
      return;
    }
    const trial = this.w.trial;
    for (let r = 0; r < n; r++) trial[r] = fixed ? this.jAcc[r]! + rhs[r]! : softUpdate(this.jAcc[r]!, rhs[r]!, massScale, impulseScale);
    this.clamp(trial);
    checkRow(this, 'clamp', trial);
    if (soft || this.velocityOnly) {
      let n2 = 0;
      for (let r = 0; r < n; r++) n2 += trial[r]! * trial[r]!;
      const f = normClampFactor(n2, this._maxForce * ctx.h);
      if (f !== 1) for (let r = 0; r < n; r++) trial[r] = trial[r]! * f;
    }
    for (let r = 0; r < n; r++) {
      delta[r] = trial[r]! - this.jAcc[r]!;
      this.jAcc[r] = trial[r]!;
    }
    this.applyImpulse(ctx, delta);
  }

  /**
   * A velocity pass with limited rows: the equality rows as one block, then each finite bound of
   * each limited row as a one-sided row (the built-in joints' order), reading the velocities as
   * the rows before it left them.
   */
  private _solveLimited(ctx: StepContext, useBias: boolean): void {
    const n = this.dimensions;
    this.ensurePose(ctx);
    const soft = !this._stiff;
    const pass = passSoftness(soft ? this._soft : null, useBias, ctx.jointSoftness);
    // The sides need C at every pass (the speculative bias): at this pose, computed once.
    const err = this.positionError();
    // A soft row, and a stiff one's biased pass with the joint softness, take the fixed compliance.
    const fixed = soft || (useBias && this.jointFixed);
    if (this.limitedCount !== n) this._solveEqualityRows(ctx, pass, soft, fixed, err);
    const maxImpulse = this._maxForce * ctx.h;
    for (let r = 0; r < n; r++) {
      if (this.rowLimited[r] === 0) continue;
      const k = this.w.kDiag[r]!;
      if (k <= 0) continue;
      const c = err[r]!;
      if (this.rowMin[r]! > -Infinity) {
        const old = this.accMin[r]!;
        const next = limitSideUpdate(old, c - this.rowMin[r]!, this._limitRowRate(ctx, r), k, ctx.invH, pass, soft, this._maxError, maxImpulse, fixed ? this.w.gamma[r]! : 0);
        this.accMin[r] = next;
        this._applyLimitImpulse(ctx, r, next - old);
      }
      if (this.rowMax[r]! < Infinity) {
        const old = this.accMax[r]!;
        const next = limitSideUpdate(old, this.rowMax[r]! - c, -this._limitRowRate(ctx, r), k, ctx.invH, pass, soft, this._maxError, maxImpulse, fixed ? this.w.gamma[r]! : 0);
        this.accMax[r] = next;
        this._applyLimitImpulse(ctx, r, -(next - old));
      }
      this.jAcc[r] = this.accMin[r]! - this.accMax[r]!;
    }
  }

  /** The equality rows' block of a constraint with limited rows (the plain _solve over those rows). */
  private _solveEqualityRows(ctx: StepContext, pass: Readonly<Softness>, soft: boolean, fixed: boolean, err: Float64Array): void {
    const n = this.dimensions;
    const m = n - this.limitedCount;
    const eq = this.eqRows;
    const w = this.w;
    const vel = w.vel;
    vel.fill(0);
    this.velocity(vel, w.state);
    checkRow(this, 'velocity', vel, 0, this.w.state);
    let e = 1;
    if (pass.biasRate !== 0 && soft && this._maxError !== Infinity) {
      let e2 = 0;
      for (let a = 0; a < m; a++) e2 += err[eq[a]!]! * err[eq[a]!]!;
      const norm = Math.sqrt(e2);
      if (norm > this._maxError) e = this._maxError / norm;
    }
    const rhs = w.rhs;
    for (let a = 0; a < m; a++) {
      const r = eq[a]!;
      const x = -(vel[r]! + (pass.biasRate === 0 ? 0 : soft ? pass.biasRate * (e === 1 ? err[r]! : err[r]! * e) : stiffBias(pass.biasRate, err[r]!)));
      rhs[a] = fixed ? softRhs(x, w.gamma[r]!, this.jAcc[r]!) : x;
    }
    if (fixed && !soft) solveFactored(w.KeqB, w.dinvb, rhs, m);
    else solveFactored(w.Keq, w.dinv, rhs, m);
    let n2 = 0;
    for (let a = 0; a < m; a++) {
      const t = fixed ? this.jAcc[eq[a]!]! + rhs[a]! : softUpdate(this.jAcc[eq[a]!]!, rhs[a]!, pass.massScale, pass.impulseScale);
      rhs[a] = t;
      n2 += t * t;
    }
    const f = soft ? normClampFactor(n2, this._maxForce * ctx.h) : 1;
    const delta = w.delta;
    delta.fill(0);
    for (let a = 0; a < m; a++) {
      const r = eq[a]!;
      const t = rhs[a]! * f;
      delta[r] = t - this.jAcc[r]!;
      this.jAcc[r] = t;
    }
    this.applyImpulse(ctx, delta);
  }

  /** J_r · v of row r at the solver's current velocities (a body outside the solver reads index 0, at rest). */
  private _limitRowRate(ctx: StepContext, r: number): number {
    const sb = ctx.bodies;
    const Jd = this.collapseJacobian();
    const nd = this._bodiesCache.length;
    const base = r * 3 * nd;
    let v = 0;
    for (let d = 0; d < nd; d++) {
      const k = this.w.dSolver[d]!;
      const i = base + 3 * d;
      v += Jd[i]! * sb.vx[k]! + Jd[i + 1]! * sb.vy[k]! + Jd[i + 2]! * sb.w[k]!;
    }
    return v;
  }

  /** Apply λ along row r alone (a limit side) to the solver velocities and the body impulse sums. */
  private _applyLimitImpulse(ctx: StepContext, r: number, lambda: number): void {
    if (lambda === 0) return;
    const sb = ctx.bodies;
    const Jd = this.collapseJacobian();
    const nd = this._bodiesCache.length;
    const base = r * 3 * nd;
    for (let d = 0; d < nd; d++) {
      const i = base + 3 * d;
      const ox = Jd[i]! * lambda;
      const oy = Jd[i + 1]! * lambda;
      const oz = Jd[i + 2]! * lambda;
      this.bodyImp[3 * d] = this.bodyImp[3 * d]! + ox;
      this.bodyImp[3 * d + 1] = this.bodyImp[3 * d + 1]! + oy;
      this.bodyImp[3 * d + 2] = this.bodyImp[3 * d + 2]! + oz;
      const k = this.w.dSolver[d]!;
      if (k <= 0) continue;
      const m = sb.invMass[k]!;
      sb.vx[k] = sb.vx[k]! + m * ox;
      sb.vy[k] = sb.vy[k]! + m * oy;
      sb.w[k] = sb.w[k]! + sb.invI[k]! * oz;
    }
  }

  /**
   * The position pass with limited rows: the equality rows' block solves K Δ = −C, each violated
   * limited row is moved back to its bound (the built-in joints' rule), all applied at once.
   */
  private _solvePositionLimited(ctx: StepContext, err: Float64Array): void {
    const n = this.dimensions;
    const w = this.w;
    const K = w.K;
    const lam = w.delta;
    for (let r = 0; r < n; r++) {
      lam[r] = this.rowLimited[r] === 0 ? 0 : limitPositionImpulse(err[r]!, this.rowMin[r]!, this.rowMax[r]!, K[r * n + r]!);
    }
    const m = n - this.limitedCount;
    if (m > 0) {
      const eq = this.eqRows;
      const rhs = w.rhs;
      for (let a = 0; a < m; a++) {
        rhs[a] = -err[eq[a]!]!;
        for (let b = 0; b < m; b++) w.Keq[a * m + b] = K[eq[a]! * n + eq[b]!]!;
      }
      solveSymmetric(w.Keq, rhs, m);
      for (let a = 0; a < m; a++) lam[eq[a]!] = rhs[a]!;
    }
    this.applyPositions(ctx, lam, NaN);
  }

  /**
   * C at the solver's current positions, for a position pass: the state synced, prepare() run, C
   * checked. Every position pass moves bodies (this constraint's and its neighbours'): nothing cached.
   */
  private positionNow(ctx: StepContext): Float64Array {
    this.poseEpoch = -1;
    this.sync(ctx);
    const state = this.w.state;
    this.prepare(state);
    const err = this.w.err;
    err.fill(0);
    this.position(err, state);
    checkRow(this, 'position', err, 0, state);
    return err;
  }

  /** @internal Nape's position pass: J = −K⁻¹ C (full error), clamped, applied to positions. */
  override _solvePosition(ctx: StepContext): void {
    if (!this._stiff || this.velocityOnly) return;
    const n = this.dimensions;
    const err = this.positionNow(ctx);
    this.buildK();
    if (this.limitedCount !== 0) {
      this._solvePositionLimited(ctx, err);
      return;
    }
    const rhs = this.w.rhs;
    for (let r = 0; r < n; r++) rhs[r] = -err[r]!;
    solveSymmetric(this.w.K, rhs, n);
    this.clamp(rhs);
    checkRow(this, 'clamp', rhs);
    this.applyPositions(ctx, rhs, NaN);
  }

  /** @internal */
  _finish(ctx: StepContext): BreakReason | null {
    this._syncFromBatch();
    if (this.midStep) this.endSubstep();
    this.midStep = false;
    this.inStep = false;
    const n = this.dimensions;
    if (this._breakUnderForce) {
      let n2 = 0;
      for (let r = 0; r < n; r++) n2 += this.jAcc[r]! ** 2;
      const limit = this._maxForce * ctx.h;
      if (n2 > limit * limit) return 'force';
    }
    if (this._breakUnderError && this.errorExceeded(ctx)) return 'error';
    return null;
  }

  override _broken(): void {
    this.inStep = false;
    this.broken();
  }

  override _debugDraw(sink: DebugDraw): void {
    this.sync(null);
    this.draw(sink);
  }

  /** @internal */
  _bodySlots(): [string, Body | null][] {
    return this._list.map((b, i) => [`bodies[${i}]`, b]);
  }

  clearCache(): void {
    this.jAcc.fill(0);
    // (Called by the base constructor too, before the limit arrays exist.)
    this.accMin?.fill(0);
    this.accMax?.fill(0);
    this.stepImp.fill(0);
    this.bodyImp.fill(0);
    this._lastH = 0;
    // Called by the constructor too, before the batch fields exist.
    if (this._batch) this._batch.clearRow(this._batchRow);
  }

  /** @internal */
  _forgetWarmStart(): void {
    this.jAcc.fill(0);
    this.accMin.fill(0);
    this.accMax.fill(0);
    if (this._batch) this._batch.forgetRow(this._batchRow);
  }

  protected _stepImpulse(): Float64Array {
    this._syncFromBatch();
    return this.stepImp;
  }

  protected _bodyImpulse(body: Body, out: Vec3): void {
    this._syncFromBatch();
    const i = this._bodiesCache.indexOf(body);
    out.x = this.bodyImp[3 * i]!;
    out.y = this.bodyImp[3 * i + 1]!;
    out.z = this.bodyImp[3 * i + 2]!;
  }
}

/** The one-by-one path's working arrays for one constraint (see UserConstraint.w). */
class UserConstraintWork {
  /** C at the cached pose, V, effMass's packed output, K (n×n) and 1/D of its LDLᵀ factors. */
  readonly err: Float64Array;
  readonly vel: Float64Array;
  readonly eff: Float64Array;
  readonly K: Float64Array;
  readonly dinv: Float64Array;
  /** With limited rows: K's diagonal, and the equality rows' block (factored; dinv holds its 1/D). */
  readonly kDiag: Float64Array;
  readonly Keq: Float64Array;
  /** Soft constraints clamp C to maxError into this copy, leaving the cached C intact. */
  readonly biasErr: Float64Array;
  readonly rhs: Float64Array;
  readonly delta: Float64Array;
  readonly trial: Float64Array;
  /** A soft constraint's compliance Γ per row at the pose (softness.ts); 0 for a stiff one. */
  readonly gamma: Float64Array;
  /** Each row's angular part of K while Γ is computed (softness.ts, leverShare). */
  readonly angPart: Float64Array;
  /** Whether each row's J has a linear part, whatever the bodies' masses (softness.ts, referenceMass). */
  readonly linearRow: Uint8Array;
  /** A stiff constraint's K + diag(Γ) for its biased passes with the joint softness (all rows, or the equality rows), and 1/D of its factors. */
  readonly Kb: Float64Array;
  readonly KeqB: Float64Array;
  readonly dinvb: Float64Array;
  /** J, and J with a shared body's columns summed (J itself when no body fills several slots). */
  readonly J: Float64Array;
  readonly Jd: Float64Array;
  /** Finite differences: C at +ε and −ε, and a copy of the state to restore. */
  readonly Jp: Float64Array;
  readonly Jm: Float64Array;
  readonly savedState: Float64Array;
  /** The packed state (BODY_STATE_STRIDE per slot). */
  readonly state: Float64Array;
  /** Per distinct body, refreshed by sync(): solver index (0 = not in the solver), inverse mass and inertia. */
  readonly dSolver: Int32Array;
  readonly dInvMass: Float64Array;
  readonly dInvI: Float64Array;
  /** A position pass's Jᵀλ per distinct body (x, y, θ), before its damping. */
  readonly share: Float64Array;
  /** A row with K below this has a vanishing J (dense.ts, VANISHING_ROW_EPS); refreshed by sync(). */
  kFloor = 0;

  constructor(dim: number, slots: number, distinct: number, sharedBody: boolean) {
    this.err = new Float64Array(dim);
    this.vel = new Float64Array(dim);
    this.eff = new Float64Array((dim * (dim + 1)) >>> 1);
    this.K = new Float64Array(dim * dim);
    this.dinv = new Float64Array(dim);
    this.kDiag = new Float64Array(dim);
    this.Keq = new Float64Array(dim * dim);
    this.biasErr = new Float64Array(dim);
    this.rhs = new Float64Array(dim);
    this.delta = new Float64Array(dim);
    this.trial = new Float64Array(dim);
    this.gamma = new Float64Array(dim);
    this.angPart = new Float64Array(dim);
    this.linearRow = new Uint8Array(dim);
    this.Kb = new Float64Array(dim * dim);
    this.KeqB = new Float64Array(dim * dim);
    this.dinvb = new Float64Array(dim);
    this.J = new Float64Array(dim * 3 * slots);
    this.Jd = sharedBody ? new Float64Array(dim * 3 * distinct) : this.J;
    this.Jp = new Float64Array(dim);
    this.Jm = new Float64Array(dim);
    this.state = new Float64Array(BODY_STATE_STRIDE * slots);
    this.savedState = new Float64Array(BODY_STATE_STRIDE * slots);
    for (let s = 0; s < slots; s++) clearBodyState(this.state, s * BODY_STATE_STRIDE);
    this.dSolver = new Int32Array(distinct);
    this.dInvMass = new Float64Array(distinct);
    this.dInvI = new Float64Array(distinct);
    this.share = new Float64Array(3 * distinct);
  }
}

interface HookModes {
  /** J is needed (not Nape's effMass + impulse form). */
  jacobian: boolean;
  effMass: boolean;
  impulse: boolean;
  velocity: boolean;
  /** The user gives J (hook or override), rather than finite differences of position(). */
  ownJacobian: boolean;
  clamp: boolean;
  validate: boolean;
  prepare: boolean;
}

function checkHooks(h: unknown): UserConstraintHooks {
  if (h === null || typeof h !== 'object') fail('UserConstraint', 'hooks', h, 'must be an object of hook functions');
  for (const [k, v] of Object.entries(h as object)) {
    if (!(HOOK_NAMES as readonly string[]).includes(k)) fail('UserConstraint', `hooks.${k}`, v, `is not a hook (expected one of ${HOOK_NAMES.join(', ')})`);
    if (v !== undefined && typeof v !== 'function') fail('UserConstraint', `hooks.${k}`, v, 'must be a function');
  }
  return { ...(h as UserConstraintHooks) };
}

/** batchKernel()'s result, checked for its shape (what it computes is the user's promise). */
function checkBatchKernel(label: string, k: unknown, jSize: number): void {
  if (k === null) return;
  const what = `${label}: batchKernel()`;
  if (typeof k !== 'object' || k === undefined) throw new FulcrumInputError(`${what} must return a UserBatchKernel or null (got ${String(k)})`, { owner: 'UserConstraint', prop: 'batchKernel' });
  const kernel = k as Partial<UserBatchKernel>;
  const n = kernel.paramCount;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 0) throw new FulcrumInputError(`${what}.paramCount must be a non-negative integer (got ${String(n)})`, { owner: 'UserConstraint', prop: 'batchKernel' });
  for (const name of ['jacobian', 'position'] as const) {
    if (typeof kernel[name] !== 'function') throw new FulcrumInputError(`${what}.${name} must be a function (got ${String(kernel[name])})`, { owner: 'UserConstraint', prop: 'batchKernel' });
  }
  const both = kernel.positionAndJacobian;
  if (both !== undefined && typeof both !== 'function') throw new FulcrumInputError(`${what}.positionAndJacobian must be a function or absent (got ${String(both)})`, { owner: 'UserConstraint', prop: 'batchKernel' });
  if (kernel.source !== undefined) checkKernelSource(what, kernel.source);
  const constants = kernel.constantJacobian;
  if (constants === undefined) return;
  if (!Array.isArray(constants)) throw new FulcrumInputError(`${what}.constantJacobian must be an array of [index, value] pairs or absent (got ${String(constants)})`, { owner: 'UserConstraint', prop: 'batchKernel' });
  constants.forEach((pair: unknown, i) => {
    const [index, value] = Array.isArray(pair) ? (pair as unknown[]) : [];
    const shown = Array.isArray(pair) ? `[${pair.map(String).join(', ')}]` : String(pair);
    if (typeof index !== 'number' || !Number.isInteger(index) || index < 0 || index >= jSize) {
      throw new FulcrumInputError(`${what}.constantJacobian[${i}] must start with an entry index of J, an integer in [0, ${jSize}) (got ${shown})`, { owner: 'UserConstraint', prop: 'batchKernel' });
    }
    if (typeof value !== 'number' || !Number.isFinite(value)) throw new FulcrumInputError(`${what}.constantJacobian[${i}] must end with a finite value (got ${shown})`, { owner: 'UserConstraint', prop: 'batchKernel' });
  });
}

/** Kernel texts that compiled to functions here (each checked once; cleared when it holds 256). */
const compiledSources = new Set<string>();

/**
 * A kernel's source text (UserBatchKernel.source): both texts strings whose `new Function(text)()`
 * is a function, as a worker will make it; else the error names the constraint and the text.
 */
function checkKernelSource(what: string, source: unknown): void {
  const fail = (message: string): never => {
    throw new FulcrumInputError(`${what}.source${message}`, { owner: 'UserConstraint', prop: 'batchKernel' });
  };
  if (typeof source !== 'object' || source === null) fail(` must be { jacobian, position } as source text, or absent (got ${String(source)})`);
  for (const name of ['jacobian', 'position'] as const) {
    const text = (source as Record<string, unknown>)[name];
    if (typeof text !== 'string') fail(`.${name} must be a string of source text (got ${String(text)})`);
    if (compiledSources.has(text as string)) continue;
    let made: unknown;
    try {
      made = (new Function(text as string) as () => unknown)();
    } catch (e) {
      fail(`.${name} does not compile and run as a function body (${e instanceof Error ? e.message : String(e)})`);
    }
    if (typeof made !== 'function') fail(`.${name} must return the kernel function (\`new Function(text)()\` gave ${String(made)})`);
    if (compiledSources.size >= 256) compiledSources.clear();
    compiledSources.add(text as string);
  }
}

/**
 * A hook that writes NaN must not poison the solver: fail loudly with the constraint's name, the
 * row, and for J (`cols` > 0: cols entries per row) the column. `state`: what the hook read.
 */
function checkRow(c: UserConstraint, hook: string, row: Float64Array, cols = 0, state: Float64Array | null = null): void {
  for (let i = 0; i < row.length; i++) {
    if (Number.isFinite(row[i]!)) continue;
    if (state !== null) divergedState(c, hook, row[i]!, state);
    throw cols > 0 ? c._nonFiniteError(hook, (i / cols) | 0, i % cols, row[i]!, state) : c._nonFiniteError(hook, i, -1, row[i]!, state);
  }
}

/**
 * Above this, a state's square overflows (sqrt(Number.MAX_VALUE) ≈ 1.3e154): no formula of
 * squared distances or products of positions can be evaluated there.
 */
const OVERFLOW_SQRT = Math.sqrt(Number.MAX_VALUE);
const STATE_FIELD = ['position.x', 'position.y', 'rotation', 'cos', 'sin', 'velocity.x', 'velocity.y', 'angularVel', 'worldCenter.x', 'worldCenter.y'] as const;

/**
 * A hook's non-finite value from a state that had already left the range where it can be squared
 * is the solution's divergence, not the hook's fault: fail the step as the divergence check does
 * (FulcrumDivergenceError, naming the body and field), not as a mistake in the hook.
 */
function divergedState(c: UserConstraint, hook: string, value: number, state: Float64Array): void {
  const bodies = c.bodyList;
  for (let k = 0; k < bodies.length; k++) {
    const b = bodies[k];
    if (!b) continue;
    for (let f = 0; f < BODY_STATE_STRIDE; f++) {
      const x = state[k * BODY_STATE_STRIDE + f]!;
      if (Number.isFinite(x) && Math.abs(x) < OVERFLOW_SQRT) continue;
      throw new FulcrumDivergenceError(
        `Space.step(): Body#${b.id}'s ${STATE_FIELD[f]} was ${x} when ${c.label}'s ${hook}() read it and wrote ${value}: past 1.3e154 a number's square ` +
          'overflows, so no constraint can be evaluated there. The solution diverged (or the body was put there); the step was abandoned and the space left as it was before it',
        b.id,
        STATE_FIELD[f]!,
      );
    }
  }
}

/** What each of a body slot's three J columns is about. */
const JACOBIAN_COLUMN = ['x', 'y', 'θ'] as const;

/** The limits option: one entry per row, each null or a valid [jointMin, jointMax]. */
function checkLimitList(limits: unknown, dim: number, velocityOnly: boolean): (readonly [number, number] | null)[] {
  if (!Array.isArray(limits) || limits.length !== dim) fail('UserConstraint', 'limits', limits, `must be an array with one entry per row (dimensions = ${dim}): null or [jointMin, jointMax]`);
  const out = limits.map((l, r) => (l === null || l === undefined ? null : checkRowLimit('UserConstraint', `limits[${r}]`, l)));
  if (velocityOnly && out.some((l) => l !== null)) fail('UserConstraint', 'limits', limits, 'cannot be set on a velocityOnly constraint (it has no C to limit)');
  return out;
}
