/**
 * Constraint base: the lifecycle every joint and user constraint shares (space membership,
 * bodies, `active`, `ignore`, waking) and the solver contract the space calls each step.
 *
 * Solver contract, per step (see packages/physics/README.md for the full step order):
 *   prepare(ctx)           once, after awake bodies are gathered into ctx.bodies
 *   per substep:
 *     warmStart(ctx)       apply the accumulated impulse
 *     solve(ctx, true)     biased pass: removes velocity error and corrects position error
 *     relax(ctx) ≡ solve(ctx, false)   unbiased pass
 *   finish(ctx)            once, after the substeps (breaking tests, store impulses)
 */
import type { Body } from '../body/body';
import type { DebugDraw } from '../debug/debug-draw';
import type { StepContext } from '../space/step-context';
import { checkBoolean } from '../util/validate';

/** What a constraint needs from its space; implemented by Space. */
export interface ConstraintSpaceLink {
  _assertUnlocked(what: string): void;
  _invalidateConstraint(c: Constraint): void;
  _constraintIgnoreChanged(c: Constraint): void;
}

let nextConstraintId = 1;

export abstract class Constraint {
  readonly id: number = nextConstraintId++;
  /** @internal */ _space: ConstraintSpaceLink | null = null;
  /** @internal */ _active = true;
  /** @internal */ _ignore = false;
  userData: unknown = undefined;

  /** Name used in error messages, e.g. "PivotJoint". */
  abstract get typeName(): string;

  /** The distinct bodies this constraint links (nulls excluded), in a stable order. */
  abstract get bodies(): readonly Body[];

  get space(): unknown {
    return this._space;
  }

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

  /** Wake this constraint's bodies (and so their islands). The single wake path. */
  invalidate(): void {
    this._space?._invalidateConstraint(this);
  }

  /** Forget warm-start state (accumulated impulses). */
  abstract clearCache(): void;

  /** @internal Checked when the space steps; throws a clear error if the constraint cannot be solved. */
  abstract _validateForStep(): void;
  /** @internal */
  abstract _prepare(ctx: StepContext): void;
  /** @internal */
  abstract _warmStart(ctx: StepContext): void;
  /** @internal */
  abstract _solve(ctx: StepContext, useBias: boolean): void;
  /** @internal */
  abstract _finish(ctx: StepContext): void;
  /** @internal Describe the constraint to a debug sink. Joints override it. */
  _debugDraw(sink: DebugDraw): void {
    void sink;
  }
}
