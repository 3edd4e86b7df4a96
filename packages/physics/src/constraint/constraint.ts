/**
 * Constraint base: what every joint and user constraint shares.
 *
 * - Nape's properties and defaults: active, stiff, frequency (10 Hz), damping (1), maxForce,
 *   maxError, breakUnderForce, breakUnderError, removeOnBreak, ignore, userData.
 * - The single wake path: every setter calls `invalidate()`, except that frequency/damping do
 *   not wake a stiff constraint and removeOnBreak wakes nothing (as in Nape).
 * - Read-outs: `impulse()` (the impulse applied over the last step, one entry per row) and
 *   `bodyImpulse(body)`.
 *
 * How a constraint is solved inside the soft step (see packages/physics/README.md):
 *   prepare(ctx)            once per step
 *   per substep:
 *     warmStart(ctx)        re-apply the accumulated (per-substep) impulse
 *     solve(ctx, true)      biased pass: velocity error + position error through a soft bias
 *     solve(ctx, false)     relax pass: velocity error only (springs still act)
 *   finish(ctx)             once: records the step impulse, returns a break reason or null
 * "Stiff" rows are rigid in both passes; their position drift is removed only in the biased
 * pass, with the space's joint softness. "Soft" rows are springs with the constraint's own
 * frequency and damping, applied in both passes (Catto's soft constraint: identical to Nape's
 * soft_gamma parameters, see makeSoft).
 */
import type { Body } from '../body/body.js';
import { makeSoft, rigidSoftness, type Softness } from './softness.js';
import type { DebugDraw } from '../debug/debug-draw.js';
import type { Vec3 } from '../math/vec2.js';
import type { StepContext } from '../space/step-context.js';
import type { IslandRowsView } from './joint-rows.js';
import { checkBoolean, checkNonNegative, checkNonNegativeOrInfinity, checkOptionKeys, checkPositive, fail, FulcrumInputError } from '../util/validate.js';

/** What a constraint needs from its space; implemented by Space. */
export interface ConstraintSpaceLink {
  _assertUnlocked(what: string): void;
  _invalidateConstraint(c: Constraint): void;
  _constraintIgnoreChanged(c: Constraint): void;
  _constraintBodiesChanging(c: Constraint): void;
  _constraintBodiesChanged(c: Constraint): void;
}

/** The options every constraint accepts; keys equal property names (they become JSX props). */
export interface ConstraintOptions {
  /** An inactive constraint is skipped by the solver (default true). */
  active?: boolean;
  /** Rigid (default), or a spring with `frequency` and `damping`. */
  stiff?: boolean;
  /** Spring frequency, Hz (default 10). */
  frequency?: number;
  /** Spring damping ratio (default 1). */
  damping?: number;
  /** Force limit of a soft constraint or motor; the break threshold with breakUnderForce. */
  maxForce?: number;
  /** Error a soft constraint corrects at once; the break threshold with breakUnderError. */
  maxError?: number;
  /** Break (see removeOnBreak) when the force needed exceeds maxForce (default false). */
  breakUnderForce?: boolean;
  /** Break (see removeOnBreak) when the error exceeds maxError (default false). */
  breakUnderError?: boolean;
  /** On breaking, leave the space (default) or only deactivate. */
  removeOnBreak?: boolean;
  /** The constraint's bodies do not collide with each other. */
  ignore?: boolean;
  /** Anything of the caller's; the engine never reads it. */
  userData?: unknown;
}

/**
 * Every key of ConstraintOptions, in one list for the bindings and the symbolic package (JSX props,
 * option checks). The check below fails to compile until a new option is added here.
 */
export const BASE_CONSTRAINT_OPTION_KEYS = ['active', 'stiff', 'frequency', 'damping', 'maxForce', 'maxError', 'breakUnderForce', 'breakUnderError', 'removeOnBreak', 'ignore', 'userData'] as const satisfies readonly (keyof ConstraintOptions)[];
const everyBaseOptionListed: [Exclude<keyof ConstraintOptions, (typeof BASE_CONSTRAINT_OPTION_KEYS)[number]>] extends [never] ? true : never = true;
void everyBaseOptionListed;

export type BreakReason = 'force' | 'error';

/**
 * Which solver family takes a constraint for a step (space/solver-families.ts): the joint batch
 * (typed-array rows of built-in pivots), the user batch (UserConstraints in jacobian form) or one
 * by one (each constraint solves itself through its _prepare/_warmStart/_solve/_finish).
 */
export type SolverFamilyKind = 'joint-batch' | 'user-batch' | 'one-by-one' | 'joint-island';

let nextConstraintId = 1;

export abstract class Constraint {
  readonly id: number = nextConstraintId++;
  /** @internal */ _space: ConstraintSpaceLink | null = null;
  /** @internal */ _active = true;
  /** @internal */ _ignore = false;
  /** @internal */ _stiff = true;
  /** @internal */ _frequency = 10;
  /** @internal */ _damping = 1;
  /** @internal */ _maxForce = Infinity;
  /** @internal */ _maxError = Infinity;
  /** @internal */ _breakUnderForce = false;
  /** @internal */ _breakUnderError = false;
  /** @internal */ _removeOnBreak = true;
  userData: unknown = undefined;
  /** @internal Softness of the constraint's own spring for the current substep length. */
  protected readonly _soft: Softness = rigidSoftness();
  /** @internal Substep length of the previous step, to rescale warm starting when dt changes. */
  protected _lastH = 0;

  /** Name used in error messages, e.g. "PivotJoint". */
  abstract get typeName(): string;

  /** The keys this kind's options may have (BASE_CONSTRAINT_OPTION_KEYS and its own): any other is an error. */
  protected get optionKeys(): readonly string[] {
    return BASE_CONSTRAINT_OPTION_KEYS;
  }

  /** The number of rows (Nape's "dimension"). */
  abstract get dimension(): number;

  /** The distinct non-null bodies this constraint links, in a stable order. */
  abstract get bodies(): readonly Body[];

  /** Describes this constraint in error messages: "PivotJoint#3". */
  get label(): string {
    return `${this.typeName}#${this.id}`;
  }

  get space(): unknown {
    return this._space;
  }

  /** Apply the base options (validated first by the caller's `validateBaseOptions`). */
  protected applyBaseOptions(o: ConstraintOptions): void {
    const v = this.validateBaseOptions(o);
    Object.assign(this, v);
    this.userData = o.userData;
  }

  /** Validate the base options without applying them (so joints validate everything first). */
  protected validateBaseOptions(o: ConstraintOptions): Partial<Record<string, unknown>> {
    if (o === null || typeof o !== 'object') fail(this.typeName, 'options', o, 'must be an object');
    const n = this.typeName;
    checkOptionKeys(n, o, this.optionKeys);
    const out: Record<string, unknown> = {};
    if (o.active !== undefined) out._active = checkBoolean(n, 'active', o.active);
    if (o.stiff !== undefined) out._stiff = checkBoolean(n, 'stiff', o.stiff);
    if (o.frequency !== undefined) out._frequency = checkPositive(n, 'frequency', o.frequency);
    if (o.damping !== undefined) out._damping = checkNonNegative(n, 'damping', o.damping);
    if (o.maxForce !== undefined) out._maxForce = checkNonNegativeOrInfinity(n, 'maxForce', o.maxForce);
    if (o.maxError !== undefined) out._maxError = checkNonNegativeOrInfinity(n, 'maxError', o.maxError);
    if (o.breakUnderForce !== undefined) out._breakUnderForce = checkBoolean(n, 'breakUnderForce', o.breakUnderForce);
    if (o.breakUnderError !== undefined) out._breakUnderError = checkBoolean(n, 'breakUnderError', o.breakUnderError);
    if (o.removeOnBreak !== undefined) out._removeOnBreak = checkBoolean(n, 'removeOnBreak', o.removeOnBreak);
    if (o.ignore !== undefined) out._ignore = checkBoolean(n, 'ignore', o.ignore);
    return out;
  }

  // ------------------------------------------------------------------ properties

  get active(): boolean {
    return this._active;
  }
  set active(v: boolean) {
    const a = checkBoolean(this.typeName, 'active', v);
    if (a === this._active) return;
    this._space?._assertUnlocked(`${this.typeName}.active`);
    // Wake while still active so the island that held it wakes too.
    this.invalidate();
    this._active = a;
    this.clearCache();
    this.invalidate();
  }

  get stiff(): boolean {
    return this._stiff;
  }
  set stiff(v: boolean) {
    this._stiff = checkBoolean(this.typeName, 'stiff', v);
    this.invalidate();
  }

  /** Spring frequency (Hz) of a soft constraint. Does not wake a stiff constraint. */
  get frequency(): number {
    return this._frequency;
  }
  set frequency(v: number) {
    this._frequency = checkPositive(this.typeName, 'frequency', v);
    if (!this._stiff) this.invalidate();
  }

  /** Damping ratio of a soft constraint (1 = critical). Does not wake a stiff constraint. */
  get damping(): number {
    return this._damping;
  }
  set damping(v: number) {
    this._damping = checkNonNegative(this.typeName, 'damping', v);
    if (!this._stiff) this.invalidate();
  }

  /** Largest force (N or N·m) a soft constraint may apply; with breakUnderForce, the break threshold. */
  get maxForce(): number {
    return this._maxForce;
  }
  set maxForce(v: number) {
    this._maxForce = checkNonNegativeOrInfinity(this.typeName, 'maxForce', v);
    this.invalidate();
  }

  /** Largest error a soft constraint corrects at once; with breakUnderError, the break threshold. */
  get maxError(): number {
    return this._maxError;
  }
  set maxError(v: number) {
    this._maxError = checkNonNegativeOrInfinity(this.typeName, 'maxError', v);
    this.invalidate();
  }

  get breakUnderForce(): boolean {
    return this._breakUnderForce;
  }
  set breakUnderForce(v: boolean) {
    this._breakUnderForce = checkBoolean(this.typeName, 'breakUnderForce', v);
    this.invalidate();
  }

  get breakUnderError(): boolean {
    return this._breakUnderError;
  }
  set breakUnderError(v: boolean) {
    this._breakUnderError = checkBoolean(this.typeName, 'breakUnderError', v);
    this.invalidate();
  }

  /** On breaking: true removes the constraint from its space, false only deactivates it. Wakes nothing. */
  get removeOnBreak(): boolean {
    return this._removeOnBreak;
  }
  set removeOnBreak(v: boolean) {
    this._removeOnBreak = checkBoolean(this.typeName, 'removeOnBreak', v);
  }

  /** When true, the constraint's bodies do not collide with each other. */
  get ignore(): boolean {
    return this._ignore;
  }
  set ignore(v: boolean) {
    const a = checkBoolean(this.typeName, 'ignore', v);
    if (a === this._ignore) return;
    this._space?._assertUnlocked(`${this.typeName}.ignore`);
    this._ignore = a;
    this._space?._constraintIgnoreChanged(this);
    this.invalidate();
  }

  /** True when every dynamic body of the constraint is asleep (false when not in a space). */
  get isSleeping(): boolean {
    if (!this._space || !this._active) return false;
    let any = false;
    for (const b of this.bodies) {
      if (b._type !== 'dynamic') continue;
      if (!b._sleeping) return false;
      any = true;
    }
    return any;
  }

  // ------------------------------------------------------------------ read-outs

  /** The impulse applied over the last step, one entry per row (N·s, or N·m·s for angular rows). */
  impulse(): number[] {
    return Array.from(this._stepImpulse());
  }

  /** The impulse the constraint applied to `body` over the last step: x, y linear and z angular. */
  bodyImpulse(body: Body): Vec3 {
    if (!this.bodies.includes(body)) fail(this.typeName, 'bodyImpulse(body)', body ? `Body#${body.id}` : body, 'must be one of the constraint\'s bodies');
    const out: Vec3 = { x: 0, y: 0, z: 0 };
    if (!this._active) return out;
    this._bodyImpulse(body, out);
    return out;
  }

  // ------------------------------------------------------------------ lifecycle

  /** Wake this constraint's bodies (and so their islands). The single wake path. */
  invalidate(): void {
    this._space?._invalidateConstraint(this);
  }

  /** Forget warm-start state (accumulated impulses). */
  abstract clearCache(): void;

  /**
   * @internal Anti-windup (space/step.ts, stage 11): a body of this constraint reached a speed cap
   * in the step, so the next step starts this constraint's rows from zero. Its read-outs
   * (impulse(), bodyImpulse()) stay the step's.
   */
  abstract _forgetWarmStart(): void;

  /** @internal The last step's impulse, one entry per row. */
  protected abstract _stepImpulse(): Float64Array;
  /** @internal Fill `out` with the last step's Jᵀλ for `body`. */
  protected abstract _bodyImpulse(body: Body, out: Vec3): void;

  /**
   * @internal Checked before every step: every body must be set and in this space, else a
   * clear error names the constraint. (Chosen over silently ignoring the constraint.)
   */
  _validateForStep(space: unknown): void {
    if (!this._bodiesReady(space)) {
      // Slow path only when something is wrong: find the slot to name in the message.
      for (const [name, b] of this._bodySlots()) {
        if (b === null || b === undefined) {
          throw new FulcrumInputError(`${this.label}.${name} is not set: set it before stepping, or deactivate the constraint (active = false)`, { owner: this.typeName, prop: name });
        }
        if (b._space !== space) {
          throw new FulcrumInputError(`${this.label}.${name} (Body#${b.id}) is ${b._space ? 'in another space' : 'not in the space'}: add the body to the constraint's space first`, { owner: this.typeName, prop: name });
        }
      }
    }
    this._validateParameters();
  }

  /**
   * @internal Space.checkUserConstraints: check hand-written derivatives against finite
   * differences, if this constraint has any and they have not been checked since its last change.
   */
  _checkDerivatives(): void {}

  /** @internal True when validation must run every step (a user validate() hook), not only after changes. */
  _validatesEveryStep(): boolean {
    return false;
  }

  /** @internal Allocation-free check that every body slot is set and in `space`. */
  protected _bodiesReady(space: unknown): boolean {
    for (const [, b] of this._bodySlots()) if (!b || b._space !== space) return false;
    return true;
  }

  /** @internal Body slots by property name, nulls included (for validation messages). */
  abstract _bodySlots(): [string, Body | null][];

  /** @internal Extra per-step checks (UserConstraint.validate). */
  protected _validateParameters(): void {}

  /** @internal The solver family that takes this constraint in the next step (see SolverFamilyKind). */
  _solverFamily(): SolverFamilyKind {
    return 'one-by-one';
  }

  /**
   * @internal Called once at the start of a step. Returns 'error' when breakUnderError is set and
   * the error already exceeds maxError (Nape tests this in preStep, before anything corrects it).
   */
  abstract _prepare(ctx: StepContext): BreakReason | null;
  /** @internal Whether the joint-island solver may take this constraint: rows equalities or a stiff constraint's limits, J known (joint-island.ts). */
  _islandEligible(): boolean {
    return false;
  }
  /** @internal The rows at the solver's current pose, for the joint-island solver (eligible constraints only). */
  _islandRows(ctx: StepContext): IslandRowsView {
    void ctx;
    throw new Error(`${this.typeName} is not solved in joint islands`);
  }
  /** @internal The rows at the current positions (a position pass). */
  _islandRowsNow(ctx: StepContext): IslandRowsView {
    return this._islandRows(ctx);
  }
  /** @internal Apply Jᵀλ (λ over the rows) to the solver velocities. */
  _islandApply(ctx: StepContext, lam: Float64Array): void {
    void ctx;
    void lam;
  }
  /** @internal Apply Jᵀλ·scale (λ over the rows) to the solver positions (scale: position-step.ts). */
  _islandApplyPositions(ctx: StepContext, lam: Float64Array, scale: number): void {
    void ctx;
    void lam;
    void scale;
  }
  /**
   * @internal The step ctx.step failed (Space.step is atomic): if this constraint was prepared in
   * it, put back its warm-start impulses as prepared and its read-outs (impulse(), bodyImpulse())
   * as the last step left them, both kept by its preparation.
   */
  _restoreImpulses(ctx: StepContext): void {
    void ctx;
  }
  /**
   * @internal Re-apply the accumulated impulses at the substep's start; with `freshStiffRows`, a
   * stiff constraint's rows (equalities and limit sides) start from zero instead (joint islands:
   * FRESH_STIFF_ROWS).
   */
  abstract _warmStart(ctx: StepContext, freshStiffRows?: boolean): void;
  /** @internal */
  abstract _solve(ctx: StepContext, useBias: boolean): void;
  /** @internal One position pass (after the substeps): move positions to remove error. */
  _solvePosition(ctx: StepContext): void {
    void ctx;
  }
  /** @internal Called once after the substeps; returns why the constraint broke, or null. */
  abstract _finish(ctx: StepContext): BreakReason | null;
  /** @internal The break hook (UserConstraint.broken). */
  _broken(): void {}

  /** @internal Describe the constraint to a debug sink. Joints override it. */
  _debugDraw(sink: DebugDraw): void {
    void sink;
  }

  /**
   * @internal Nape's force break test, for every constraint: breakUnderForce is set and the
   * impulse of the step's last substep (its squared norm over the rows, `impulse2`) exceeds maxForce·h.
   */
  protected _exceedsMaxForce(impulse2: number, h: number): boolean {
    const limit = this._maxForce * h;
    return this._breakUnderForce && impulse2 > limit * limit;
  }

  /** @internal Refresh this step's spring softness and rescale warm starting if dt changed. */
  protected _beginStep(ctx: StepContext): number {
    makeSoft(this._frequency, this._damping, ctx.h, this._soft);
    const ratio = this._lastH > 0 ? ctx.h / this._lastH : 1;
    this._lastH = ctx.h;
    return ratio;
  }

  /** @internal Change a body slot safely: validates, unlinks, assigns, relinks, wakes. */
  protected _swapBody(assign: () => void): void {
    this._space?._assertUnlocked(`${this.typeName} body`);
    this._space?._constraintBodiesChanging(this);
    assign();
    this.clearCache();
    this._space?._constraintBodiesChanged(this);
  }
}
