/**
 * Solver families. Every row the solver sees belongs to one family, and every family takes the
 * same stages of a step, so that Space.step is one list of stages over the families
 * (space/step.ts) with no knowledge of what a family solves:
 *
 *   warmStart      apply last step's impulses (once per substep)
 *   solve          the biased pass: removes velocity error and pushes position error out
 *   relax          the unbiased pass: removes the velocity the push added
 *   solvePosition  a position pass (after the substeps): stiff rows move positions directly
 *   store          keep the impulses for the next step's warm start
 *
 * and, around them, restoreImpulses: a step that throws puts back what its preparation kept (the
 * warm-start impulses as prepared, and the read-outs of the last step that impulse() and
 * bodyImpulse() report), so that it leaves the space as it found it.
 *
 * Constraint families also take part in the step's plan: `begin` starts a new plan, `add`
 * prepares one constraint into it (or reports why it broke), `refresh` prepares the same plan
 * for a new step. Which family takes a constraint is the constraint's own answer
 * (Constraint._solverFamily): the joint batch (built-in pivots, constraint/pivot-batch.ts), the
 * user batch (UserConstraints in jacobian form, constraint/user-batch.ts) or one by one (each
 * constraint solves itself, below). Contacts are the fourth family (contact/contact-solver.ts).
 */
import type { BreakReason, Constraint, SolverFamilyKind } from '../constraint/constraint.js';
import type { UserBatch } from '../constraint/user-batch.js';
import type { UserConstraint } from '../constraint/user-constraint.js';
import type { StepContext } from './step-context.js';

export interface SolverFamily {
  warmStart(ctx: StepContext): void;
  solve(ctx: StepContext): void;
  relax(ctx: StepContext): void;
  solvePosition(ctx: StepContext): void;
  store(ctx: StepContext): void;
}

/** Where a family reports a constraint that broke while it was prepared. */
export type BreakSink = (c: Constraint, reason: BreakReason) => void;

export interface ConstraintFamily extends SolverFamily {
  readonly kind: SolverFamilyKind;
  /** Start a new plan (the previous plan's rows hand their impulses back first). */
  begin(): void;
  /** Prepare one active constraint with an awake body into the plan; a reason if it broke instead. */
  add(c: Constraint, ctx: StepContext): BreakReason | null;
  /** The plan is built: what add took is complete (the joint batch then orders and fills its rows). */
  close(ctx: StepContext): void;
  /** Prepare the same plan for a new step; constraints that break leave the family and go to `broke`. */
  refresh(ctx: StepContext, broke: BreakSink): void;
  /** Whether `c` must run its _finish after the step (break tests, impulse bookkeeping). */
  finishes(c: Constraint): boolean;
  /**
   * The step ctx.step threw: whatever add or refresh prepared in it takes back the impulses as
   * prepared and the last step's read-outs, which they kept (rows they did not reach are as they were).
   */
  restoreImpulses(ctx: StepContext): void;
}

/** Constraints that solve themselves, one after another (every kind can; the batches are faster). */
export class OneByOneFamily implements ConstraintFamily {
  readonly kind = 'one-by-one';
  private readonly list: Constraint[] = [];

  /**
   * The joint islands' passes run after this family's own (the step plan fills the islands). The
   * step calls four families; a fifth would make its calls over them megamorphic.
   */
  constructor(private readonly islands: ConstraintFamily | null = null) {}

  begin(): void {
    this.list.length = 0;
  }
  add(c: Constraint, ctx: StepContext): BreakReason | null {
    const reason = c._prepare(ctx);
    if (reason === null) this.list.push(c);
    return reason;
  }
  /** (Each constraint prepared itself in add.) */
  close(): void {}
  refresh(ctx: StepContext, broke: BreakSink): void {
    const list = this.list;
    for (let i = 0; i < list.length; i++) {
      const c = list[i]!;
      const reason = c._prepare(ctx);
      if (reason === null) continue;
      list.splice(i--, 1);
      broke(c, reason);
    }
  }
  finishes(): boolean {
    return true;
  }
  /** A constraint broke in its _finish: it leaves the plan. */
  remove(c: Constraint): void {
    const i = this.list.indexOf(c);
    if (i >= 0) this.list.splice(i, 1);
  }
  warmStart(ctx: StepContext): void {
    for (const c of this.list) c._warmStart(ctx);
    this.islands?.warmStart(ctx);
  }
  solve(ctx: StepContext): void {
    for (const c of this.list) c._solve(ctx, true);
    this.islands?.solve(ctx);
  }
  relax(ctx: StepContext): void {
    for (const c of this.list) c._solve(ctx, false);
    this.islands?.relax(ctx);
  }
  solvePosition(ctx: StepContext): void {
    for (const c of this.list) c._solvePosition(ctx);
    this.islands?.solvePosition(ctx);
  }
  store(ctx: StepContext): void {
    this.islands?.store(ctx);
  }
  restoreImpulses(ctx: StepContext): void {
    for (const c of this.list) c._restoreImpulses(ctx);
    this.islands?.restoreImpulses(ctx);
  }
}

/** The user batch (constraint/user-batch.ts) as a family. */
export class UserBatchFamily implements ConstraintFamily {
  readonly kind = 'user-batch';
  constructor(readonly batch: UserBatch) {}

  begin(): void {
    this.batch.begin();
  }
  add(c: Constraint): BreakReason | null {
    // Routed here by its own _solverFamily(), so it is a batchable UserConstraint.
    this.batch.add(c as UserConstraint);
    return null;
  }
  /** The plan's constraints become the batch's rows, in their solve order. */
  close(ctx: StepContext): void {
    this.batch.close(ctx);
  }
  refresh(ctx: StepContext): void {
    this.batch.refresh(ctx);
  }
  finishes(c: Constraint): boolean {
    return c._breakUnderForce;
  }
  warmStart(ctx: StepContext): void {
    this.batch.warmStart(ctx);
  }
  solve(ctx: StepContext): void {
    this.batch.solve(ctx, true);
  }
  relax(ctx: StepContext): void {
    this.batch.solve(ctx, false);
  }
  solvePosition(ctx: StepContext): void {
    this.batch.solvePosition(ctx);
  }
  store(): void {
    this.batch.store();
  }
  restoreImpulses(ctx: StepContext): void {
    this.batch.restoreImpulses(ctx);
  }
}
