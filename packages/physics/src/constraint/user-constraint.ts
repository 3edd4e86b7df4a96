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
 * Hook call order within one step (the soft step, not Nape's; see packages/physics/README.md):
 *   validate()                                        once, before the step (may throw)
 *   per substep:  warm start: [J or impulse(jAcc, body, out) per body]
 *                 biased pass: prepare(), position(err) (unless velocityOnly), effMass/jacobian,
 *                              velocity(err), clamp(jAcc), impulse(Δ, body, out)
 *                 relax pass ×jointIterations: the same without the bias (soft constraints keep
 *                              their spring, so prepare/position run again)
 *   position passes (stiff, not velocityOnly): prepare(), position(err), effMass/jacobian,
 *                              clamp(Δ), impulse(Δ, body, out) applied to positions
 *   at the end:   prepare(), position(err) for breakUnderError; broken() if it breaks
 * Bodies read in hooks (position, rotation, constraintVelocity, ...) show the current substep's
 * state. Changing anything in a space from a hook throws.
 */
import type { Body } from '../body/body.js';
import type { DebugDraw } from '../debug/debug-draw.js';
import type { Vec2, Vec3 } from '../math/vec2.js';
import type { StepContext } from '../space/step-context.js';
import { checkFinite, checkInteger, fail } from '../util/validate.js';
import { Constraint, type BreakReason, type ConstraintOptions } from './constraint.js';
import { solveSymmetric } from './dense.js';

export interface UserConstraintHooks {
  validate?(this: UserConstraint): void;
  prepare?(this: UserConstraint): void;
  position?(this: UserConstraint, err: Float64Array): void;
  velocity?(this: UserConstraint, err: Float64Array): void;
  effMass?(this: UserConstraint, eff: Float64Array): void;
  impulse?(this: UserConstraint, imp: Float64Array, body: Body, out: Vec3): void;
  jacobian?(this: UserConstraint, J: Float64Array): void;
  clamp?(this: UserConstraint, jAcc: Float64Array): void;
  broken?(this: UserConstraint): void;
  draw?(this: UserConstraint, debug: DebugDraw): void;
}

export interface UserConstraintOptions extends ConstraintOptions {
  dimensions: number;
  /** A velocity-only constraint (a motor): no position error, no position passes. */
  velocityOnly?: boolean;
  /** The bodies, in the order the Jacobian's columns use. */
  bodies?: (Body | null)[];
  hooks?: UserConstraintHooks;
}

const HOOK_NAMES = ['validate', 'prepare', 'position', 'velocity', 'effMass', 'impulse', 'jacobian', 'clamp', 'broken', 'draw'] as const;

const FD_STEP = 1e-6;

export class UserConstraint extends Constraint {
  readonly dimensions: number;
  readonly velocityOnly: boolean;
  private _hooks: UserConstraintHooks = {};
  /** Bodies in Jacobian order (may contain nulls until set). */
  private _list: (Body | null)[] = [];
  private _refCounts = new Map<Body, number>();
  private _bodiesCache: Body[] = [];

  // solver state
  private readonly jAcc: Float64Array;
  private readonly stepImp: Float64Array;
  private readonly err: Float64Array;
  private readonly vel: Float64Array;
  private readonly eff: Float64Array;
  private readonly K: Float64Array;
  private readonly rhs: Float64Array;
  private readonly delta: Float64Array;
  private readonly trial: Float64Array;
  private J = new Float64Array(0);
  private Jp = new Float64Array(0);
  private Jm = new Float64Array(0);
  private readonly out: Vec3 = { x: 0, y: 0, z: 0 };
  private bodyImp: Float64Array = new Float64Array(0);
  private midStep = false;

  constructor(dimensionsOrOptions: number | UserConstraintOptions, velocityOnly = false) {
    super();
    const o: UserConstraintOptions = typeof dimensionsOrOptions === 'number' ? { dimensions: dimensionsOrOptions, velocityOnly } : dimensionsOrOptions;
    if (o === null || typeof o !== 'object') fail('UserConstraint', 'options', o, 'must be a number of dimensions or an options object');
    const dim = checkInteger('UserConstraint', 'dimensions', o.dimensions, 1, 64);
    const vOnly = o.velocityOnly ?? false;
    if (typeof vOnly !== 'boolean') fail('UserConstraint', 'velocityOnly', vOnly, 'must be a boolean');
    const base = this.validateBaseOptions(o);
    const hooks = o.hooks !== undefined ? checkHooks(o.hooks) : {};
    const bodies = o.bodies !== undefined ? this.checkBodyList(o.bodies) : [];
    this.dimensions = dim;
    this.velocityOnly = vOnly;
    Object.assign(this, base);
    this.userData = o.userData;
    this._hooks = hooks;
    this.jAcc = new Float64Array(dim);
    this.stepImp = new Float64Array(dim);
    this.err = new Float64Array(dim);
    this.vel = new Float64Array(dim);
    this.eff = new Float64Array((dim * (dim + 1)) >>> 1);
    this.K = new Float64Array(dim * dim);
    this.rhs = new Float64Array(dim);
    this.delta = new Float64Array(dim);
    this.trial = new Float64Array(dim);
    if (bodies.length) this.setBodyList(bodies);
    // A subclass's impulse(imp, body, out) hook must not hide the impulse() read-out.
    const own = Object.getPrototypeOf(this).impulse as UserConstraint['impulse'];
    if (own !== UserConstraint.prototype.impulse) {
      this.impulse = (imp?: Float64Array, body?: Body, out?: Vec3) =>
        imp === undefined ? Constraint.prototype.impulse.call(this) : own.call(this, imp, body, out);
      this._hookImpulseOverridden = true;
    }
  }
  private _hookImpulseOverridden = false;

  get typeName(): string {
    return 'UserConstraint';
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
    this._jacobianMode = null;
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
    for (const b of this._list) if (b && !out.includes(b)) out.push(b);
    this._bodiesCache = out;
    const cols = 3 * this._list.length;
    this.J = new Float64Array(this.dimensions * cols);
    this.Jp = new Float64Array(this.dimensions);
    this.Jm = new Float64Array(this.dimensions);
    this.bodyImp = new Float64Array(3 * out.length);
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

  validate(): void {
    this._hooks.validate?.call(this);
  }
  prepare(): void {
    this._hooks.prepare?.call(this);
  }
  position(err: Float64Array): void {
    if (this._hooks.position) this._hooks.position.call(this, err);
    else fail('UserConstraint', 'position', undefined, 'must be provided (override position(err) or pass hooks.position) unless velocityOnly');
  }
  velocity(err: Float64Array): void {
    if (this._hooks.velocity) this._hooks.velocity.call(this, err);
    else this.velocityFromJacobian(err);
  }
  effMass(eff: Float64Array): void {
    if (this._hooks.effMass) this._hooks.effMass.call(this, eff);
    else this.effMassFromJacobian(eff);
  }
  /**
   * Two roles, told apart by the arguments (Nape called the hook `__impulse`):
   *  - `impulse()`: the read-out every constraint has, the impulse of the last step per row;
   *  - `impulse(imp, body, out)`: the hook, writing Jᵀ·imp for `body` into out.
   * A subclass overrides the hook form; the read-out keeps working (see the constructor).
   * In TypeScript, declare the override as
   *   `override impulse(imp?: Float64Array, body?: Body, out?: Vec3): any`
   * so the subclass still type-checks as a Constraint (whose read-out takes no arguments).
   */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override impulse(imp?: Float64Array, body?: Body, out?: Vec3): any {
    if (imp === undefined) return super.impulse();
    if (this._hooks.impulse) this._hooks.impulse.call(this, imp, body!, out!);
    else this.impulseFromJacobian(imp, body!, out!);
  }
  /** Fill J (dimensions × 3·bodies). Default: central differences of position(). */
  jacobian(J: Float64Array): void {
    if (this._hooks.jacobian) this._hooks.jacobian.call(this, J);
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

  // ------------------------------------------------------------------ Jacobian-derived defaults

  /** Nape's effMass + impulse given? Otherwise K and Jᵀλ come from J. Cached: asked every pass. */
  private _jacobianMode: boolean | null = null;
  private usesJacobian(): boolean {
    if (this._jacobianMode === null) {
      const effOverridden = this.effMass !== UserConstraint.prototype.effMass || this._hooks.effMass !== undefined;
      const impOverridden = this._hookImpulseOverridden || this._hooks.impulse !== undefined;
      this._jacobianMode = !(effOverridden && impOverridden);
    }
    return this._jacobianMode;
  }

  private velocityFromJacobian(err: Float64Array): void {
    const cols = 3 * this._list.length;
    err.fill(0);
    this._list.forEach((b, s) => {
      if (!b) return;
      const v = b.constraintVelocity;
      for (let r = 0; r < this.dimensions; r++) {
        const i = r * cols + 3 * s;
        err[r] = err[r]! + this.J[i]! * v.x + this.J[i + 1]! * v.y + this.J[i + 2]! * v.z;
      }
    });
  }

  private effMassFromJacobian(eff: Float64Array): void {
    const n = this.dimensions;
    const cols = 3 * this._list.length;
    let p = 0;
    for (let a = 0; a < n; a++) {
      for (let b = a; b < n; b++) {
        let k = 0;
        // Σ over distinct bodies of m (J_a,lin · J_b,lin) + i J_a,ang J_b,ang, columns of the same body summed first
        for (const body of this._bodiesCache) {
          let ax = 0, ay = 0, az = 0, bx = 0, by = 0, bz = 0;
          this._list.forEach((x, s) => {
            if (x !== body) return;
            const ia = a * cols + 3 * s;
            const ib = b * cols + 3 * s;
            ax += this.J[ia]!; ay += this.J[ia + 1]!; az += this.J[ia + 2]!;
            bx += this.J[ib]!; by += this.J[ib + 1]!; bz += this.J[ib + 2]!;
          });
          k += body.constraintMass * (ax * bx + ay * by) + body.constraintInertia * az * bz;
        }
        eff[p++] = k;
      }
    }
  }

  private impulseFromJacobian(imp: Float64Array, body: Body, out: Vec3): void {
    const cols = 3 * this._list.length;
    out.x = out.y = out.z = 0;
    this._list.forEach((b, s) => {
      if (b !== body) return;
      for (let r = 0; r < this.dimensions; r++) {
        const i = r * cols + 3 * s;
        const l = imp[r]!;
        out.x += this.J[i]! * l;
        out.y += this.J[i + 1]! * l;
        out.z += this.J[i + 2]! * l;
      }
    });
  }

  /** Central differences of position() in x, y and θ (about the centre of mass) of each body. */
  private finiteDifferenceJacobian(J: Float64Array): void {
    const n = this.dimensions;
    const cols = 3 * this._list.length;
    J.fill(0);
    this._list.forEach((b, s) => {
      if (!b || (b.constraintMass === 0 && b.constraintInertia === 0)) return;
      const x0 = b._x, y0 = b._y, a0 = b._angle;
      const cx = b._x + b._c * b._lcx - b._s * b._lcy;
      const cy = b._y + b._s * b._lcx + b._c * b._lcy;
      for (let d = 0; d < 3; d++) {
        for (const sign of [1, -1]) {
          if (d === 0) b._x = x0 + sign * FD_STEP;
          else if (d === 1) b._y = y0 + sign * FD_STEP;
          else {
            b._setAngle(a0 + sign * FD_STEP);
            b._x = cx - (b._c * b._lcx - b._s * b._lcy);
            b._y = cy - (b._s * b._lcx + b._c * b._lcy);
          }
          const row = sign > 0 ? this.Jp : this.Jm;
          this.position(row);
          checkRow(this, 'position', row);
          b._x = x0;
          b._y = y0;
          if (d === 2) b._setAngle(a0);
        }
        for (let r = 0; r < n; r++) J[r * cols + 3 * s + d] = (this.Jp[r]! - this.Jm[r]!) / (2 * FD_STEP);
      }
    });
  }

  // ------------------------------------------------------------------ solver

  /** Write the solver's current substep state into the bodies, so hooks read live values. */
  private sync(ctx: StepContext): void {
    const sb = ctx.bodies;
    const list = this._bodiesCache;
    for (let i = 0; i < list.length; i++) {
      const b = list[i]!;
      const k = b._solverIndex;
      if (k > 0) sb.writeState(k);
    }
  }

  private computeJacobian(): void {
    this.jacobian(this.J);
    checkRow(this, 'jacobian', this.J);
  }

  /** K from effMass (packed) or the Jacobian, unpacked into this.K (n×n). */
  private buildK(): void {
    const n = this.dimensions;
    if (this.usesJacobian()) this.computeJacobian();
    this.effMass(this.eff);
    let p = 0;
    for (let a = 0; a < n; a++) {
      for (let b = a; b < n; b++) {
        const v = this.eff[p++]!;
        if (!Number.isFinite(v)) throw new Error(`${this.label}: effMass wrote a non-finite value (${v}) at packed index ${p - 1}`);
        this.K[a * n + b] = v;
        this.K[b * n + a] = v;
      }
    }
  }

  /** Apply λ (row vector) to the solver velocities (or positions) of every body. */
  private applyImpulse(ctx: StepContext, lam: Float64Array, toPositions: boolean): void {
    const sb = ctx.bodies;
    const list = this._bodiesCache;
    for (let bi = 0; bi < list.length; bi++) {
      const b = list[bi]!;
      const out = this.out;
      out.x = out.y = out.z = 0;
      this.impulse(lam, b, out);
      if (!Number.isFinite(out.x) || !Number.isFinite(out.y) || !Number.isFinite(out.z)) {
        throw new Error(`${this.label}: impulse() wrote a non-finite value for Body#${b.id}`);
      }
      const k = b._solverIndex;
      if (k <= 0) continue;
      const m = sb.invMass[k]!;
      const i = sb.invI[k]!;
      if (toPositions) {
        sb.dpx[k] = sb.dpx[k]! + m * out.x;
        sb.dpy[k] = sb.dpy[k]! + m * out.y;
        if (i !== 0 && out.z !== 0) {
          const a = sb.dq[k]! + i * out.z;
          sb.dq[k] = a;
          sb.dqc[k] = Math.cos(a);
          sb.dqs[k] = Math.sin(a);
        }
        continue;
      }
      this.bodyImp[3 * bi] = this.bodyImp[3 * bi]! + out.x;
      this.bodyImp[3 * bi + 1] = this.bodyImp[3 * bi + 1]! + out.y;
      this.bodyImp[3 * bi + 2] = this.bodyImp[3 * bi + 2]! + out.z;
      sb.vx[k] = sb.vx[k]! + m * out.x;
      sb.vy[k] = sb.vy[k]! + m * out.y;
      sb.w[k] = sb.w[k]! + i * out.z;
    }
  }

  override _validatesEveryStep(): boolean {
    return true;
  }

  protected override _validateParameters(): void {
    if (!this.velocityOnly && this.position === UserConstraint.prototype.position && !this._hooks.position) {
      throw new Error(`${this.label}: position(err) must be provided unless the constraint is velocityOnly`);
    }
    if (this.velocityOnly && this.usesJacobian() && this.jacobian === UserConstraint.prototype.jacobian && !this._hooks.jacobian) {
      throw new Error(`${this.label}: a velocityOnly constraint needs jacobian(J), or effMass and impulse`);
    }
    this.validate();
  }

  /** @internal */
  _prepare(ctx: StepContext): BreakReason | null {
    const ratio = this._beginStep(ctx);
    for (let r = 0; r < this.dimensions; r++) this.jAcc[r] = this.jAcc[r]! * ratio;
    this.stepImp.fill(0);
    this.bodyImp.fill(0);
    this.midStep = false;
    return this._breakUnderError && this.errorExceeded(ctx) ? 'error' : null;
  }

  /** C at the current state exceeds maxError (breakUnderError). */
  private errorExceeded(ctx: StepContext): boolean {
    if (this.velocityOnly) return false;
    this.sync(ctx);
    this.prepare();
    this.err.fill(0);
    this.position(this.err);
    let e2 = 0;
    for (let r = 0; r < this.dimensions; r++) e2 += this.err[r]! ** 2;
    return Math.sqrt(e2) > this._maxError;
  }

  /** @internal */
  _warmStart(ctx: StepContext): void {
    if (this.midStep) this.endSubstep();
    this.midStep = true;
    this.sync(ctx);
    this.prepare();
    if (this.usesJacobian()) this.computeJacobian();
    this.applyImpulse(ctx, this.jAcc, false);
  }

  private endSubstep(): void {
    for (let r = 0; r < this.dimensions; r++) this.stepImp[r] = this.stepImp[r]! + this.jAcc[r]!;
  }

  /** @internal */
  _solve(ctx: StepContext, useBias: boolean): void {
    const n = this.dimensions;
    this.sync(ctx);
    this.prepare();
    let biasRate = 0;
    let massScale = 1;
    let impulseScale = 0;
    const soft = !this._stiff && !this.velocityOnly;
    if (soft) ({ biasRate, massScale, impulseScale } = this._soft);
    else if (useBias && !this.velocityOnly) ({ biasRate, massScale, impulseScale } = ctx.jointSoftness);
    const err = this.err;
    for (let r = 0; r < n; r++) err[r] = 0;
    if (biasRate !== 0) {
      this.position(err);
      checkRow(this, 'position', err);
      if (soft && this._maxError !== Infinity) {
        let e2 = 0;
        for (let r = 0; r < n; r++) e2 += err[r]! * err[r]!;
        const e = Math.sqrt(e2);
        if (e > this._maxError) for (let r = 0; r < n; r++) err[r] = (err[r]! * this._maxError) / e;
      }
    }
    this.buildK();
    for (let r = 0; r < n; r++) this.vel[r] = 0;
    this.velocity(this.vel);
    checkRow(this, 'velocity', this.vel);
    const rhs = this.rhs;
    for (let r = 0; r < n; r++) rhs[r] = -(this.vel[r]! + biasRate * err[r]!);
    solveSymmetric(this.K, rhs, n);
    const trial = this.trial;
    for (let r = 0; r < n; r++) trial[r] = this.jAcc[r]! + massScale * rhs[r]! - impulseScale * this.jAcc[r]!;
    this.clamp(trial);
    if (soft || this.velocityOnly) {
      const max = this._maxForce * ctx.h;
      let n2 = 0;
      for (let r = 0; r < n; r++) n2 += trial[r]! * trial[r]!;
      if (n2 > max * max) {
        const s = max / Math.sqrt(n2);
        for (let r = 0; r < n; r++) trial[r] = trial[r]! * s;
      }
    }
    const delta = this.delta;
    for (let r = 0; r < n; r++) {
      delta[r] = trial[r]! - this.jAcc[r]!;
      this.jAcc[r] = trial[r]!;
    }
    this.applyImpulse(ctx, delta, false);
  }

  /** @internal Nape's position pass: J = −K⁻¹ C (full error), clamped, applied to positions. */
  override _solvePosition(ctx: StepContext): void {
    if (!this._stiff || this.velocityOnly) return;
    const n = this.dimensions;
    this.sync(ctx);
    this.prepare();
    const err = this.err;
    err.fill(0);
    this.position(err);
    checkRow(this, 'position', err);
    this.buildK();
    const rhs = this.rhs;
    for (let r = 0; r < n; r++) rhs[r] = -err[r]!;
    solveSymmetric(this.K, rhs, n);
    this.clamp(rhs);
    this.applyImpulse(ctx, rhs, true);
  }

  /** @internal */
  _finish(ctx: StepContext): BreakReason | null {
    if (this.midStep) this.endSubstep();
    this.midStep = false;
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
    this.broken();
  }

  override _debugDraw(sink: DebugDraw): void {
    this.draw(sink);
  }

  /** @internal */
  _bodySlots(): [string, Body | null][] {
    return this._list.map((b, i) => [`bodies[${i}]`, b]);
  }

  clearCache(): void {
    this.jAcc.fill(0);
    this.stepImp.fill(0);
    this.bodyImp.fill(0);
    this._lastH = 0;
  }

  protected _stepImpulse(): Float64Array {
    return this.stepImp;
  }

  protected _bodyImpulse(body: Body, out: Vec3): void {
    const i = this._bodiesCache.indexOf(body);
    out.x = this.bodyImp[3 * i]!;
    out.y = this.bodyImp[3 * i + 1]!;
    out.z = this.bodyImp[3 * i + 2]!;
  }
}

function checkHooks(h: unknown): UserConstraintHooks {
  if (h === null || typeof h !== 'object') fail('UserConstraint', 'hooks', h, 'must be an object of hook functions');
  for (const [k, v] of Object.entries(h as object)) {
    if (!(HOOK_NAMES as readonly string[]).includes(k)) fail('UserConstraint', `hooks.${k}`, v, `is not a hook (expected one of ${HOOK_NAMES.join(', ')})`);
    if (v !== undefined && typeof v !== 'function') fail('UserConstraint', `hooks.${k}`, v, 'must be a function');
  }
  return { ...(h as UserConstraintHooks) };
}

/** A hook that writes NaN must not poison the solver: fail loudly with the constraint's name. */
function checkRow(c: UserConstraint, hook: string, row: Float64Array): void {
  for (let r = 0; r < row.length; r++) {
    if (!Number.isFinite(row[r]!)) throw new Error(`${c.label}: ${hook}() wrote a non-finite value (${row[r]}) in row ${r}`);
  }
}
