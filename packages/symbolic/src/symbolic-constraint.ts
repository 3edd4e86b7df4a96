/**
 * SymbolicConstraint: a UserConstraint written as a position constraint C(x) (or a velocity
 * constraint V(x, v)) in the constraint language; everything else is derived and compiled.
 *
 * It uses UserConstraint's Jacobian mode with the engine's packed body state: the hooks are
 *   validate  variable limits (`limit expr lo hi`) hold, else a SymbolicLimitError;
 *   position  C per row, from the compiled kernel (minus the bound of a row whose bounds coincide);
 *   jacobian  J (rows × 3·bodies, x, y, ω of each body's centre of mass), from the compiled kernel;
 *   prepare, velocity  (velocity constraints only) V = J v + V₀, with the velocities of the moment.
 * The engine derives V = J v, K = J M⁻¹ Jᵀ and Jᵀλ from J, so softness, breaking, maxForce and
 * waking behave as for any UserConstraint, and its kernels write C and J straight into the
 * engine's arrays (in bulk, when the space batches the constraint).
 *
 * Row limits (`limit constraint lo hi`) are the engine's limited rows (UserConstraint.setLimit): a
 * row with lo < hi is held within its bounds by two one-sided rows, exactly as the built-in joints'
 * limits are (speculative, slack between the bounds); a row with lo = hi is an equality, C − lo = 0
 * (as Nape's joints make a limit whose bounds coincide). Whenever a parameter moves the bounds, the
 * engine's limits follow.
 */
import { BASE_CONSTRAINT_OPTION_KEYS, DebugColors, didYouMean, FulcrumInputError, UserConstraint, type Body, type ConstraintOptions, type DebugDraw, type UserBatchKernel, type Vec2, type Vec2Like } from '@fulcrum/physics';
import { BODY_STATE_STRIDE, BodyState, readBodyState } from './body-state.js';
import { compileSource, type CompileMode, type CompiledProgram } from './compile.js';
import { debugText } from './debug-text.js';
import { SymbolicLimitError, type ErrorWhere } from './errors.js';
import { nonFiniteError } from './explain/report.js';
import type { Declared } from './lang/checker.js';
import type { Kernel } from './scalar/kernel.js';
import { OWNER, apiFail, checkRecord, describe, isBody, toVec2 } from './api-input.js';

export interface SymbolicConstraintOptions extends ConstraintOptions {
  /** The constraint in the constraint language (see the package README). */
  source: string;
  /** Bodies by their declared names. */
  bodies?: Record<string, Body | null>;
  /** Scalars by their declared names. */
  scalars?: Record<string, number>;
  /** Vectors by their declared names, as {x, y} or [x, y]. */
  vectors?: Record<string, Vec2Like>;
  /** 'auto' (default): a compiled function, or the interpreter where `new Function` is forbidden. */
  compile?: CompileMode;
}

/** The options of this class on top of ConstraintOptions (whose keys are @fulcrum/physics' BASE_CONSTRAINT_OPTION_KEYS). */
export const SYMBOLIC_OPTION_KEYS = ['source', 'bodies', 'scalars', 'vectors', 'compile'] as const satisfies readonly (keyof SymbolicConstraintOptions)[];
// A new option in SymbolicConstraintOptions fails to compile here until listed.
const everyOptionListed: [Exclude<keyof SymbolicConstraintOptions, (typeof SYMBOLIC_OPTION_KEYS)[number] | keyof ConstraintOptions>] extends [never] ? true : never = true;
void everyOptionListed;
const OWN_OPTIONS: readonly string[] = SYMBOLIC_OPTION_KEYS;
const BASE_OPTIONS: readonly string[] = BASE_CONSTRAINT_OPTION_KEYS;
/** The setters whose limit errors suggest setting the other parameters in the same call. */
const SETTERS: readonly string[] = ['setScalar', 'setVector', 'setScalars', 'setVectors', 'set'];

/** Several parameters at once: see SymbolicConstraint.set. */
export interface SymbolicParameters {
  scalars?: Record<string, number>;
  vectors?: Record<string, Vec2Like>;
}
const COMPILE_MODES: readonly CompileMode[] = ['function', 'interpreter', 'auto'];

export class SymbolicConstraint extends UserConstraint {
  /** The source it was built from. */
  readonly source: string;
  /** How its kernels run: a compiled function or the interpreter. */
  readonly compileMode: 'function' | 'interpreter';

  private readonly program: CompiledProgram;
  private readonly main: Kernel;
  private readonly valuesKernel: Kernel;
  private readonly jacobianKernel: Kernel;
  private readonly boundsKernel: Kernel;
  private readonly bulk: UserBatchKernel;
  /** A position constraint: C and J go straight from their kernels into the engine's arrays. */
  private readonly direct: boolean;
  /** The engine's J as last filled (direct mode: velocity() reads it). */
  private lastJ: Float64Array | null = null;
  /** J for a velocity() called before any jacobian() (outside the engine's order): a view into values. */
  private readonly ownJacobian: Float64Array;
  private readonly params: Float64Array;
  /** The state the last prepare() read: the engine's packed state, or ownState outside a step. */
  private lastState: Float64Array;
  /** Filled from the bodies when a hook is called without the engine's state. */
  private readonly ownState: Float64Array;
  /** Main kernel output: [values (n) | J (n × columns)]. */
  private readonly values: Float64Array;
  /** Bounds kernel output: [lower (n) | upper (n) | (value, lower, upper) per variable limit]. */
  private readonly bounds: Float64Array;
  /** Velocity constraints, per row: V₀ = V − J v at the last prepare(). */
  private readonly velocityOffset: Float64Array;
  /** Per row: the bound C is measured from (lo of a row whose bounds coincide, else 0), and whether any is non-zero. */
  private readonly offset: Float64Array;
  private hasOffset = false;
  /** The bounds array and the limit checks are out of date (a parameter changed). */
  private boundsStale = true;
  private readonly boundVectors = new Map<string, Vec2>();

  constructor(sourceOrOptions: string | SymbolicConstraintOptions) {
    const o = normalizeOptions(sourceOrOptions);
    const program = compileSource(o.source);
    const base: Record<string, unknown> = {};
    for (const k of BASE_OPTIONS) if (k in o) base[k] = (o as unknown as Record<string, unknown>)[k];
    super({
      ...(base as ConstraintOptions),
      dimensions: program.rows,
      velocityOnly: program.checked.kind === 'velocity',
      // The hooks read bodies only through the packed state the engine passes (the fast path).
      packedState: true,
      bodies: new Array<Body | null>(program.bodyCount).fill(null),
    });
    this.source = o.source;
    this.program = program;
    const kernels = aboutOption('compile', () => program.kernels(o.compile ?? 'auto'));
    this.compileMode = kernels.mode;
    this.main = kernels.main;
    this.valuesKernel = kernels.values;
    this.jacobianKernel = kernels.jacobian;
    this.bulk = kernels.batch;
    this.boundsKernel = kernels.bounds;
    this.direct = program.checked.kind === 'position';
    const n = program.rows;
    this.params = new Float64Array(program.checked.paramCount);
    this.ownState = new Float64Array(BODY_STATE_STRIDE * program.bodyCount);
    this.lastState = this.ownState;
    this.values = new Float64Array(n + n * program.columns);
    this.ownJacobian = this.values.subarray(n);
    this.bounds = new Float64Array(program.boundsOutputs.length);
    this.velocityOffset = new Float64Array(n);
    this.offset = new Float64Array(n);
    this.applyInitialValues(o);
  }

  override get typeName(): string {
    return 'SymbolicConstraint';
  }

  /** Declared names, in declaration order. */
  get bodyNames(): readonly string[] {
    return this.program.checked.bodies.map((d) => d.name);
  }
  get scalarNames(): readonly string[] {
    return this.program.checked.scalars.map((d) => d.name);
  }
  get vectorNames(): readonly string[] {
    return this.program.checked.vectors.map((d) => d.name);
  }

  // ------------------------------------------------------------------ bodies and parameters

  /** Set a declared body (or null). Wakes the old and new bodies. */
  setBody(name: string, body: Body | null): this {
    const d = this.declared('setBody', name, body, 'body');
    if (body !== null && !isBody(body)) apiFail('setBody', name, body, 'the value must be a Body or null');
    const list = this.bodyList.slice();
    list[d.slot] = body;
    this.bodyList = list;
    return this;
  }
  getBody(name: string): Body | null {
    return this.bodyList[this.declared('getBody', name, undefined, 'body').slot] ?? null;
  }

  /** Set a declared scalar; checks the limits that read it, then wakes the constraint. */
  setScalar(name: string, value: number): this {
    const d = this.declared('setScalar', name, value, 'scalar');
    if (typeof value !== 'number' || Number.isNaN(value)) apiFail('setScalar', name, value, 'the value must be a number (not NaN; ±Infinity is allowed, for limits)');
    this.assign([[d.slot, value]], [name], 'setScalar');
    this.invalidate();
    return this;
  }
  getScalar(name: string): number {
    return this.params[this.declared('getScalar', name, undefined, 'scalar').slot]!;
  }

  /**
   * Set several declared scalars at once: all are assigned, then the limits that read any of
   * them are checked once, so `setScalars({ jointMin: 2, jointMax: 3 })` moves a range that
   * setScalar('jointMin', 2) alone could not (it would be above the old jointMax). On a violation,
   * or a bad name or value, it throws and changes nothing. Wakes the constraint.
   */
  setScalars(values: Record<string, number>): this {
    return this.setMany('setScalars', values, undefined);
  }

  /** Set several declared vectors at once (copied), checked once as setScalars. */
  setVectors(values: Record<string, Vec2Like>): this {
    return this.setMany('setVectors', undefined, values);
  }

  /** Set scalars and vectors at once (a limit may read both), checked once as setScalars. */
  set(values: SymbolicParameters): this {
    if (values === null || typeof values !== 'object') apiFail('set', undefined, values, 'the argument must be { scalars?, vectors? }');
    for (const k of Object.keys(values)) {
      if (k !== 'scalars' && k !== 'vectors') {
        const guess = didYouMean(k, ['scalars', 'vectors']);
        throw new FulcrumInputError(`SymbolicConstraint.set(${describe(values)}): unknown key '${k}'${guess ? `, ${guess}` : ''} (set takes { scalars, vectors })`, { owner: OWNER, prop: k });
      }
    }
    return this.setMany('set', values.scalars, values.vectors);
  }

  private setMany(method: string, scalars: Record<string, number> | undefined, vectors: Record<string, Vec2Like> | undefined): this {
    const { writes, names } = this.collect(method, scalars, vectors);
    if (writes.length) this.assign(writes, names, method);
    this.invalidate();
    return this;
  }

  /** Set a declared vector (copied); checks the limits that read it, then wakes the constraint. */
  setVector(name: string, value: Vec2Like): this {
    const d = this.declared('setVector', name, value, 'vector');
    const v = toVec2(value);
    if (v === null) apiFail('setVector', name, value, 'the value must be a vector {x, y} or [x, y] with finite components');
    this.assign([[d.slot, v.x], [d.slot + 1, v.y]], [name], 'setVector');
    this.invalidate();
    return this;
  }
  /** A live view of a declared vector: setting its x or y is a setVector (checked, wakes). */
  getVector(name: string): Vec2 {
    const d = this.declared('getVector', name, undefined, 'vector');
    let view = this.boundVectors.get(name);
    if (!view) {
      const owner = this;
      const params = this.params;
      const set = (k: 0 | 1, v: number): void => {
        const next = k === 0 ? { x: v, y: params[d.slot + 1]! } : { x: params[d.slot]!, y: v };
        owner.setVector(name, next);
      };
      view = {
        get x() {
          return params[d.slot]!;
        },
        set x(v: number) {
          set(0, v);
        },
        get y() {
          return params[d.slot + 1]!;
        },
        set y(v: number) {
          set(1, v);
        },
      };
      this.boundVectors.set(name, view);
    }
    return view;
  }

  /** C, V, J and K as text, with the current bodies, parameters and limits. */
  debug(): string {
    return debugText(this, this.program, {
      bodies: this.bodyList,
      params: this.params,
      bounds: this.currentBounds(),
      rowState: this.rowStates(),
    });
  }

  /** Per row, from the last step's impulse: −1 pushed from the lower bound, +1 from the upper, 0 slack. */
  private rowStates(): Float64Array {
    const imp = this.impulse() as Float64Array;
    return imp.map((v) => (v > 0 ? -1 : v < 0 ? 1 : 0));
  }

  /** A new constraint with the same source, bodies, parameters and settings (not userData or impulses). */
  override copy(): SymbolicConstraint {
    const c = this.program.checked;
    return new SymbolicConstraint({
      source: this.source,
      compile: this.compileMode,
      bodies: Object.fromEntries(c.bodies.map((d) => [d.name, this.bodyList[d.slot] ?? null])),
      scalars: Object.fromEntries(c.scalars.map((d) => [d.name, this.params[d.slot]!])),
      vectors: Object.fromEntries(c.vectors.map((d) => [d.name, { x: this.params[d.slot]!, y: this.params[d.slot + 1]! }])),
      active: this.active,
      stiff: this.stiff,
      frequency: this.frequency,
      damping: this.damping,
      maxForce: this.maxForce,
      maxError: this.maxError,
      breakUnderForce: this.breakUnderForce,
      breakUnderError: this.breakUnderError,
      removeOnBreak: this.removeOnBreak,
      ignore: this.ignore,
    });
  }

  // ------------------------------------------------------------------ UserConstraint hooks

  override validate(): void {
    if (this.boundsStale) this.refreshBounds(null, 'step');
  }

  /**
   * @internal The bounds go stale only through setScalar/setVector, which invalidate() (and so
   * get a validation before the next step): no need to validate every step.
   */
  override _validatesEveryStep(): boolean {
    return false;
  }

  /**
   * @internal Direct mode's velocity() is exactly J·v and its clamp() does nothing (limits are the
   * engine's), so the engine may solve it in its user batch (no hook call per velocity pass).
   */
  protected override _plainJacobianRows(): boolean {
    return this.direct;
  }

  /**
   * Direct mode's jacobian() and position() are the program's kernels: the engine may run them in
   * bulk over every constraint of this program (the same operations, so the same bits). Not while
   * some row is measured from a non-zero bound (the kernel's C is not that row's).
   */
  override batchKernel(): UserBatchKernel | null {
    return this.direct && !this.hasOffset ? this.bulk : null;
  }

  /**
   * The debug view of a symbolic constraint: the language says nothing of anchors, so it links its
   * bodies' origins in declaration order, a segment between each declared body and the next, with
   * a point at each. (A subclass may draw something better.)
   */
  override draw(debug: DebugDraw): void {
    const list = this.bodyList;
    for (let s = 0; s < list.length; s++) {
      const b = list[s];
      if (!b) continue;
      debug.drawPoint(b.x, b.y, 0.08, DebugColors.constraint);
      const next = list[s + 1];
      if (next) debug.drawSegment(b.x, b.y, next.x, next.y, DebugColors.constraint);
    }
  }

  /** The parameters the kernels read (scalars and vectors, in slot order). */
  override batchParams(out: Float64Array, at: number): void {
    out.set(this.params, at);
  }

  /** @internal Direct mode's prepare() only remembers the state for velocity(), which the batch never calls. */
  protected override _batchNeedsPrepare(): boolean {
    return !this.direct;
  }

  override prepare(state?: Float64Array): void {
    state ??= this.readState();
    this.lastState = state;
    if (this.direct) return;
    // A velocity constraint: values = V at the current velocities; keep V₀ = V − J v for velocity().
    this.main(state, this.params, this.values);
    const n = this.dimensions;
    for (let r = 0; r < n; r++) this.velocityOffset[r] = this.values[r]! - this.rowVelocity(r, state);
  }

  /** dC_r/dt = J_r · v (centre-of-mass velocities). */
  private rowVelocity(r: number, state: Float64Array): number {
    const n = this.dimensions;
    const cols = this.program.columns;
    const values = this.values;
    const base = n + r * cols;
    let v = 0;
    for (let s = 0, o = 0; s < cols; s += 3, o += BODY_STATE_STRIDE) {
      v += values[base + s]! * state[o + BodyState.vx]! + values[base + s + 1]! * state[o + BodyState.vy]! + values[base + s + 2]! * state[o + BodyState.angularVel]!;
    }
    return v;
  }

  override position(err: Float64Array, state?: Float64Array): void {
    // (Only position constraints have one: the engine calls none for a velocityOnly constraint.)
    // The engine always passes its state; a call from outside reads the bodies.
    this.valuesKernel(state ?? this.readState(), this.params, err);
    if (this.hasOffset) for (let r = 0, n = this.dimensions; r < n; r++) err[r] = err[r]! - this.offset[r]!;
  }

  override jacobian(J: Float64Array, state?: Float64Array): void {
    if (this.direct) {
      this.jacobianKernel(state ?? this.readState(), this.params, J);
      this.lastJ = J;
      return;
    }
    const n = this.dimensions;
    const cols = this.program.columns;
    const values = this.values;
    for (let i = 0, e = n * cols; i < e; i++) J[i] = values[n + i]!;
  }

  override velocity(err: Float64Array, state?: Float64Array): void {
    const n = this.dimensions;
    state ??= this.lastState;
    if (this.direct) {
      // V = J v from the J the engine holds (filled by jacobian() for this pose).
      let J = this.lastJ;
      if (J === null) {
        J = this.ownJacobian;
        this.jacobianKernel(state, this.params, J);
      }
      const cols = this.program.columns;
      for (let r = 0; r < n; r++) {
        let v = 0;
        const base = r * cols;
        for (let k = 0, o = 0; k < cols; k += 3, o += BODY_STATE_STRIDE) {
          v += J[base + k]! * state[o + BodyState.vx]! + J[base + k + 1]! * state[o + BodyState.vy]! + J[base + k + 2]! * state[o + BodyState.angularVel]!;
        }
        err[r] = v;
      }
      return;
    }
    // V is affine in the velocities: V(v) = J v + V₀, with V₀ found in prepare(). The engine
    // calls prepare() once per pose but velocity() every pass, with the velocities of the moment.
    for (let r = 0; r < n; r++) err[r] = this.velocityOffset[r]! + this.rowVelocity(r, state);
  }


  /**
   * @internal The engine's error for a non-finite hook output (C row `row`, or J entry (row,
   * column)), said about the source: the output is re-evaluated at `state` (the state the hook
   * read; the bodies' own when null) with every sub-expression's value recorded, and the error
   * names the sub-expression that turned non-finite first, with its operands' values, and points
   * at it (for J, at the written expression whose derivative holds it). When nothing there is
   * non-finite (the state moved on), or the output is not one of the source's, the engine's own
   * error.
   */
  override _nonFiniteError(hook: string, row: number, column: number, value: number, state: Float64Array | null): Error {
    let explained: Error | null = null;
    try {
      explained = nonFiniteError(this.label, this.program.checked, { hook, row, column, value }, state ?? this.readState(), this.params);
    } catch {
      explained = null; // an explanation that fails must not hide the engine's error
    }
    return explained ?? super._nonFiniteError(hook, row, column, value, state);
  }

  /** @internal Checked before every step: without allocating (the base class walks _bodySlots()). */
  protected override _bodiesReady(space: unknown): boolean {
    const list = this.bodyList;
    for (let s = 0; s < list.length; s++) {
      const b = list[s];
      if (!b || b.space !== space) return false;
    }
    return true;
  }

  /** @internal Slots named as declared, so "body2 is not set" names the DSL's body. */
  override _bodySlots(): [string, Body | null][] {
    return this.program.checked.bodies.map((d) => [d.name, this.bodyList[d.slot] ?? null]);
  }

  // ------------------------------------------------------------------ internals

  /** The packed state read from the bodies, for a hook called without the engine's state. */
  private readState(): Float64Array {
    const list = this.bodyList;
    for (let s = 0; s < list.length; s++) {
      const b = list[s];
      if (b) readBodyState(b, this.ownState, s);
    }
    return this.ownState;
  }

  private declared(method: string, name: unknown, value: unknown, kind: 'body' | 'scalar' | 'vector'): Declared {
    const c = this.program.checked;
    const lists = { body: c.bodies, scalar: c.scalars, vector: c.vectors };
    if (typeof name !== 'string') apiFail(method, name, value, 'the name must be a string');
    const d = lists[kind].find((x) => x.name === name);
    if (d) return d;
    const other = (['body', 'scalar', 'vector'] as const).find((k) => lists[k].some((x) => x.name === name));
    const setter = { body: 'setBody', scalar: 'setScalar', vector: 'setVector' };
    if (other) {
      const collection = other === 'body' ? 'bodies' : `${other}s`;
      const instead = method.startsWith('options.')
        ? `put it in options.${collection}`
        : method.startsWith('set.')
          ? `put it in ${collection}`
          : method === 'setScalars' || method === 'setVectors'
            ? other === 'body' ? 'use setBody' : `use set${other === 'scalar' ? 'Scalars' : 'Vectors'}`
            : `use ${method.startsWith('get') ? setter[other].replace('set', 'get') : setter[other]}`;
      apiFail(method, name, value, `'${name}' is a ${other}, not a ${kind}; ${instead}`);
    }
    const declared = lists[kind].map((x) => x.name);
    const guess = didYouMean(name, declared);
    apiFail(method, name, value, `no ${kind} '${name}' is declared${guess ? `, ${guess}` : ''} (declared ${kind === 'body' ? 'bodies' : `${kind}s`}: ${declared.length ? declared.join(', ') : 'none'})`);
  }

  /**
   * Write parameter slots, then check every limit that reads one of `names`; on a violation the
   * old values are restored and a SymbolicLimitError thrown, so a failed set changes nothing.
   */
  private assign(writes: [number, number][], names: readonly string[], method: string): void {
    const old = writes.map(([slot]) => this.params[slot]!);
    for (const [slot, v] of writes) this.params[slot] = v;
    this.boundsStale = true;
    try {
      this.refreshBounds(names, method);
    } catch (e) {
      writes.forEach(([slot], i) => (this.params[slot] = old[i]!));
      this.boundsStale = true;
      throw e;
    }
  }

  /**
   * Evaluate the bounds and check the limits. `only` restricts the check to limits reading one
   * of those parameters (a setter checks what it changed); null checks every limit (before a step).
   * The bounds are marked fresh only when everything passed.
   */
  private refreshBounds(only: readonly string[] | null, when: string): void {
    const c = this.program.checked;
    const n = this.dimensions;
    const b = this.bounds;
    this.boundsKernel(this.ownState, this.params, b); // reads parameters only
    const reads = (params: readonly string[]): boolean => only === null || params.some((p) => only.includes(p));
    let allGood = true;
    c.variableLimits.forEach((l, i) => {
      const value = b[2 * n + 3 * i]!;
      const lo = b[2 * n + 3 * i + 1]!;
      const hi = b[2 * n + 3 * i + 2]!;
      if (lo <= value && value <= hi) return;
      allGood = false;
      if (!reads(l.params)) return;
      const which = !(lo <= value) ? `below its lower bound ${fmt(lo)}` : `above its upper bound ${fmt(hi)}`;
      const values = l.params.map((p) => `${p} = ${this.describeParam(p)}`).join(', ');
      throw new SymbolicLimitError(`${this.label}: limit '${l.text}' is violated${when === 'step' ? ' before the step' : ` by ${when}`}: the value ${fmt(value)} is ${which} (${values})`, c.source, l.span, this.togetherHint(l.params, only, when), this.limitWhere(l.params, only));
    });
    if (c.rowLimit) {
      for (let r = 0; r < n; r++) {
        const lo = b[r]!;
        const hi = b[n + r]!;
        const bad = !(lo <= hi) || lo === Infinity || hi === -Infinity;
        if (bad) {
          allGood = false;
          if (!reads(c.rowLimit.params)) continue;
          const values = c.rowLimit.params.map((p) => `${p} = ${this.describeParam(p)}`).join(', ');
          throw new SymbolicLimitError(`${this.label}: limit '${c.rowLimit.text}' has row ${r} bounds [${fmt(lo)}, ${fmt(hi)}], which no value satisfies${when === 'step' ? '' : ` (after ${when})`}${values ? ` (${values})` : ''}`, c.source, c.rowLimit.span, this.togetherHint(c.rowLimit.params, only, when), this.limitWhere(c.rowLimit.params, only));
        }
      }
      if (allGood) this.applyRowLimits();
    }
    if (allGood) this.boundsStale = false;
    else if (only === null) throw new Error(`internal: a violated limit was not reported`);
  }

  /**
   * The bounds (all valid) into the engine: a row with lo < hi becomes a limited row, a row with
   * lo = hi an equality measured from lo. The engine's setLimit wakes the constraint on a change.
   */
  private applyRowLimits(): void {
    const n = this.dimensions;
    const b = this.bounds;
    let hasOffset = false;
    for (let r = 0; r < n; r++) {
      const lo = b[r]!;
      const hi = b[n + r]!;
      const limited = lo !== hi;
      this.offset[r] = limited ? 0 : lo;
      hasOffset ||= !limited && lo !== 0;
      this.setLimit(r, limited ? [lo, hi] : null);
    }
    if (hasOffset !== this.hasOffset) {
      this.hasOffset = hasOffset;
      this.invalidate(); // batchKernel() changes: re-plan
    }
  }

  /**
   * For a setter whose change violates a limit that also reads parameters it did not set: the
   * call that sets them together ("set both at once with setScalars({ jointMin: 2, jointMax: … })").
   */
  private togetherHint(params: readonly string[], only: readonly string[] | null, method: string): string {
    if (only === null || !SETTERS.includes(method) || params.every((p) => only.includes(p))) return '';
    const c = this.program.checked;
    const isScalar = (p: string): boolean => c.scalars.some((d) => d.name === p);
    // The values as JavaScript: the ones just set, and … for the others.
    const entry = (p: string): string => {
      if (!only.includes(p)) return `${p}: …`;
      const s = c.scalars.find((d) => d.name === p);
      if (s) return `${p}: ${describe(this.params[s.slot]!)}`;
      const v = c.vectors.find((d) => d.name === p)!;
      return `${p}: [${describe(this.params[v.slot]!)}, ${describe(this.params[v.slot + 1]!)}]`;
    };
    const scalars = params.filter(isScalar);
    const vectors = params.filter((p) => !isScalar(p));
    const call =
      vectors.length === 0
        ? `setScalars({ ${scalars.map(entry).join(', ')} })`
        : scalars.length === 0
          ? `setVectors({ ${vectors.map(entry).join(', ')} })`
          : `set({ scalars: { ${scalars.map(entry).join(', ')} }, vectors: { ${vectors.map(entry).join(', ')} } })`;
    return `set ${params.length === 2 ? 'both' : 'them'} at once with ${call}`;
  }

  /** The parameter a violated limit is put on: the first it reads among those just set (`only`), else its first. */
  private limitWhere(params: readonly string[], only: readonly string[] | null): ErrorWhere {
    const name = params.find((p) => only === null || only.includes(p)) ?? params[0];
    if (name === undefined) return { owner: OWNER, prop: 'source' };
    const scalar = this.program.checked.scalars.some((d) => d.name === name);
    return { owner: OWNER, prop: `${scalar ? 'scalars' : 'vectors'}.${name}` };
  }

  private describeParam(name: string): string {
    const c = this.program.checked;
    const s = c.scalars.find((d) => d.name === name);
    if (s) return fmt(this.params[s.slot]!);
    const v = c.vectors.find((d) => d.name === name)!;
    return `(${fmt(this.params[v.slot]!)}, ${fmt(this.params[v.slot + 1]!)})`;
  }

  private currentBounds(): { lower: number[]; upper: number[] } {
    const n = this.dimensions;
    this.boundsKernel(this.ownState, this.params, this.bounds);
    return { lower: Array.from(this.bounds.subarray(0, n)), upper: Array.from(this.bounds.subarray(n, 2 * n)) };
  }

  private applyInitialValues(o: SymbolicConstraintOptions): void {
    const { writes, names } = this.collect('options', o.scalars, o.vectors);
    const list = this.bodyList.slice();
    if (o.bodies !== undefined) {
      checkRecord('options', 'bodies', o.bodies);
      for (const [name, v] of Object.entries(o.bodies)) {
        const d = this.declared('options.bodies', name, v, 'body');
        if (v !== null && !isBody(v)) apiFail('options.bodies', name, v, 'the value must be a Body or null');
        list[d.slot] = v;
      }
    }
    if (writes.length) this.assign(writes, names, 'the options');
    if (o.bodies !== undefined) this.bodyList = list;
  }

  /**
   * The parameter slots to write for `scalars` and `vectors` (each checked: declared, of the
   * right kind, a valid value), and the names set. `method` names the call in errors: 'options',
   * 'set', 'setScalars' or 'setVectors'. Nothing is written here.
   */
  private collect(method: string, scalars: Record<string, number> | undefined, vectors: Record<string, Vec2Like> | undefined): { writes: [number, number][]; names: string[] } {
    const names: string[] = [];
    const writes: [number, number][] = [];
    const methodFor = (what: 'scalars' | 'vectors'): string => (method === 'options' || method === 'set' ? `${method}.${what}` : method);
    if (scalars !== undefined) {
      checkRecord(method, 'scalars', scalars);
      const m = methodFor('scalars');
      for (const [name, v] of Object.entries(scalars)) {
        const d = this.declared(m, name, v, 'scalar');
        if (typeof v !== 'number' || Number.isNaN(v)) apiFail(m, name, v, 'the value must be a number (not NaN; ±Infinity is allowed, for limits)');
        writes.push([d.slot, v]);
        names.push(name);
      }
    }
    if (vectors !== undefined) {
      checkRecord(method, 'vectors', vectors);
      const m = methodFor('vectors');
      for (const [name, v] of Object.entries(vectors)) {
        const d = this.declared(m, name, v, 'vector');
        const p = toVec2(v);
        if (p === null) apiFail(m, name, v, 'the value must be a vector {x, y} or [x, y] with finite components');
        writes.push([d.slot, p.x], [d.slot + 1, p.y]);
        names.push(name);
      }
    }
    return { writes, names };
  }
}

function normalizeOptions(arg: unknown): SymbolicConstraintOptions {
  if (typeof arg === 'string') return { source: arg };
  if (arg === null || typeof arg !== 'object') {
    throw new FulcrumInputError(`SymbolicConstraint needs a source string or an options object { source, bodies, scalars, vectors, … }, got ${describe(arg)}`, { owner: OWNER, prop: 'options' });
  }
  const o = arg as Record<string, unknown>;
  for (const k of Object.keys(o)) {
    if (!OWN_OPTIONS.includes(k) && !BASE_OPTIONS.includes(k)) {
      const guess = didYouMean(k, [...OWN_OPTIONS, ...BASE_OPTIONS]);
      throw new FulcrumInputError(`SymbolicConstraint options: unknown option '${k}'${guess ? `, ${guess}` : ''} (options: ${[...OWN_OPTIONS, ...BASE_OPTIONS].join(', ')})`, { owner: OWNER, prop: k });
    }
  }
  if (typeof o.source !== 'string') throw new FulcrumInputError(`SymbolicConstraint options.source must be a string, got ${describe(o.source)}`, { owner: OWNER, prop: 'source' });
  if (o.compile !== undefined && !COMPILE_MODES.includes(o.compile as CompileMode)) {
    throw new FulcrumInputError(`SymbolicConstraint options.compile must be one of ${COMPILE_MODES.map((m) => `'${m}'`).join(', ')}, got ${describe(o.compile)}`, { owner: OWNER, prop: 'compile' });
  }
  return o as unknown as SymbolicConstraintOptions;
}

/** Run `f`; a FulcrumInputError from it that names no option is about `prop`. */
function aboutOption<T>(prop: string, f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof FulcrumInputError && e.prop === null) throw new FulcrumInputError(e.message, { owner: OWNER, prop });
    throw e;
  }
}

function fmt(v: number): string {
  return v === Infinity ? 'inf' : v === -Infinity ? '-inf' : String(v);
}
