/**
 * The step plan: which constraints a step solves, and in which solver family. Building it means
 * asking every active constraint with an awake body for its family and preparing it there; that
 * costs more than solving for big scenes (gathering 20,000 joint objects per step), so a plan is
 * kept while nothing that decides it changes, as Box2D v3 keeps persistent solver sets.
 *
 * `stamp` moves on anything that can change which bodies and constraints a step solves, or how
 * (every wake path, sleeping, adding and removing, every body and constraint change). While it
 * stands still, and the gathered bodies are the same ones in the same order with the same
 * substep, a step refreshes the plan (the families re-prepare their rows' pose data) instead of
 * rebuilding it.
 */
import type { BreakReason, Constraint, SolverFamilyKind } from '../constraint/constraint.js';
import type { BreakSink, ConstraintFamily } from './solver-families.js';
import type { JointIslandFamily } from '../constraint/joint-island.js';
import type { StepContext } from './step-context.js';

/**
 * Which batches may take constraints. Both on in production; the tests turn one off to compare a
 * batch with the one-by-one path (test-support/solver-routing.ts).
 */
export interface SolverRouting {
  jointBatch: boolean;
  userBatch: boolean;
  /** Small islands of equality joints solved as one block (constraint/joint-island.ts). */
  jointIsland: boolean;
}

export class StepPlan {
  /** Moves on every change that can invalidate the plan (see the file comment). */
  stamp = 0;
  private builtAt = -1;
  private h = 0;
  private order = 0;
  private count = 0;
  private routedJoint = true;
  private routedUser = true;
  readonly routing: SolverRouting = { jointBatch: true, userBatch: true, jointIsland: true };
  private routedIsland = true;
  /** How many steps reused the plan (tests check the cache is hit and missed when it should be). */
  reuses = 0;
  /** The plan's constraints, and those of them whose _finish must run after the step. */
  readonly active: Constraint[] = [];
  readonly finishers: Constraint[] = [];

  /** Where a constraint that broke while prepared goes (the space's break sequence). */
  private readonly broke: BreakSink;
  /** The same, for a break during a refresh: it also leaves the plan (bound once, no per-step closure). */
  private readonly dropped: BreakSink;

  /** The joint-island family, which claims its joints before the plan is built. */
  private readonly islands: JointIslandFamily | null;

  constructor(
    private readonly families: readonly ConstraintFamily[],
    broke: BreakSink,
    islands: JointIslandFamily | null = null,
  ) {
    this.islands = islands;
    this.broke = broke;
    this.dropped = (c, reason) => {
      this.finished(c);
      broke(c, reason);
    };
  }

  /** Build the plan anew at the next step (a step failed, possibly while the plan was built). */
  discard(): void {
    this.builtAt = -1;
  }

  /** True when nothing that decides the plan changed since it was built. */
  get steady(): boolean {
    return this.builtAt === this.stamp;
  }

  /**
   * Stage 5 for constraints: reuse the plan if it still holds for these bodies (`order` is a hash
   * of the gathered bodies' ids, `count` their number), else build it anew from `constraints`.
   */
  prepare(constraints: readonly Constraint[], ctx: StepContext, order: number, count: number): void {
    const r = this.routing;
    if (this.steady && this.h === ctx.h && this.order === order && this.count === count && this.routedJoint === r.jointBatch && this.routedUser === r.userBatch && this.routedIsland === r.jointIsland) {
      this.reuses++;
      for (const f of this.families) f.refresh(ctx, this.dropped);
      this.islands?.refresh(ctx, this.dropped);
      return;
    }
    this.build(constraints, ctx);
    // Breaking moved the stamp: such a plan is used once and rebuilt next step.
    this.builtAt = this.stamp;
    this.h = ctx.h;
    this.order = order;
    this.count = count;
    this.routedJoint = r.jointBatch;
    this.routedUser = r.userBatch;
    this.routedIsland = r.jointIsland;
  }

  private build(constraints: readonly Constraint[], ctx: StepContext): void {
    const active = this.active;
    const finishers = this.finishers;
    active.length = 0;
    finishers.length = 0;
    const islands = this.routing.jointIsland ? this.islands : null;
    islands?.claim(constraints);
    this.islands?.begin();
    for (const f of this.families) f.begin();
    for (const c of constraints) {
      if (!c._active || !hasAwakeBody(c)) continue;
      const family = islands !== null && islands.takes(c) ? islands : this.familyOf(c._solverFamily());
      const reason: BreakReason | null = family.add(c, ctx);
      if (reason !== null) {
        this.broke(c, reason);
        continue;
      }
      active.push(c);
      if (family.finishes(c)) finishers.push(c);
    }
    for (const f of this.families) f.close(ctx);
  }

  private familyOf(kind: SolverFamilyKind): ConstraintFamily {
    const r = this.routing;
    if ((kind === 'joint-batch' && !r.jointBatch) || (kind === 'user-batch' && !r.userBatch)) kind = 'one-by-one';
    for (const f of this.families) if (f.kind === kind) return f;
    throw new Error(`StepPlan: no solver family '${kind}'`);
  }

  /** A constraint broke: it leaves the plan's lists. */
  finished(c: Constraint): void {
    removeFrom(this.active, c);
    removeFrom(this.finishers, c);
  }
}

/** Some body of the constraint is in the solver (awake dynamic, or moving kinematic). */
function hasAwakeBody(c: Constraint): boolean {
  const bodies = c.bodies;
  for (let i = 0; i < bodies.length; i++) if (bodies[i]!._solverIndex > 0) return true;
  return false;
}

function removeFrom(list: Constraint[], c: Constraint): void {
  const i = list.indexOf(c);
  if (i >= 0) list.splice(i, 1);
}
