/**
 * One step of a space, as a list of stages (packages/physics/README.md lists the same):
 *
 *   1. begin       the step context: dt, the substep h, the stiff joints' softness for h
 *   2. broadphase  new overlapping proxy pairs become contacts            (ContactManager)
 *   3. narrowphase contacts with a simulated side; touching wakes islands (ContactManager);
 *                  a changed plan first wakes islands a constraint links to an awake body;
 *                  contacts whose boxes parted are doomed, and destroyed once the step succeeds
 *   4. gather      awake dynamic and moving kinematic bodies chosen for the solver (with workers,
 *                  while they run the narrowphase's jobs, and again after it if it woke a body);
 *                  their numbers from the body states into the solver arrays (SolverBodies), on
 *                  every thread with workers; and the shapes in fluids (space/fluids.ts)
 *   5. prepare     the pre-solve callback, once per touching solid contact (Space.preSolve);
 *                  contacts into the contact solver; constraints into their families (StepPlan)
 *   6. substeps    × velocityIterations: integrate velocities (the fluids' buoyancy and drag
 *                  too, from the substep's pose); warm start, solve (biased) each
 *                  family; integrate positions (each body first slowed to the speed caps,
 *                  maxLinearSpeed and maxRotationPerSubstep); relax the constraint families
 *                  × jointIterations, then the contacts
 *   7. restitution contacts that approached fast enough bounce, once per step; then every body
 *                  slowed to the speed caps again
 *   8. positions   × positionIterations: each family's position pass (stiff joints only); then
 *                  continuous collision: a body that moved far enough to pass through something
 *                  stops at its first time of impact (space/continuous.ts)
 *   9. check       a body whose state is no longer finite fails the step (FulcrumDivergenceError)
 *                  before any impulse is kept or any body written
 *                  (a throw in 2–10, from this check, a user hook or a lost worker, rolls the step
 *                  back: every body, constraint impulse and read-out, every contact (list,
 *                  manifolds, impulses, touching: what 2–3 changed too) and every sleeping island
 *                  as before it, and none of its events is delivered; the plan is rebuilt next step)
 *  10. finish      constraints' break tests (maxForce, maxError): a test may call a user hook,
 *                  so it runs before any impulse is kept or any body written, inside the rollback
 *  11. store       each family keeps its impulses for the next step's warm start, but for the
 *                  constraints on a body a speed cap slowed (anti-windup: they start from zero)
 *  12. write back  every solver body's pose and velocity into the space's body states, on every
 *                  thread with workers; then the contacts' store begins (the workers', with
 *                  workers) while moved bodies' shapes and proxies follow and rest times are kept
 *  13. contacts    the contacts' store done (the calling thread joins its stage); the step's
 *                  contact data (each point's impulses over the step) completes its
 *                  beginContact events and raises contactForce; the contacts doomed in stage 3
 *                  are destroyed
 *  14. breaks      the constraints that failed their test break (hook, event, removal), those
 *                  that failed it in 5 first (they were left out of the step)
 *  15. sleep       islands at rest for sleepDelay fall asleep                (Islands)
 *
 * Every family (solver-families.ts) takes stages 6, 8 and 10 the same way, so this file knows
 * nothing of what a family solves.
 */
import type { Body } from '../body/body.js';
import type { BreakReason, Constraint } from '../constraint/constraint.js';
import { makeSoft, rigidSoftness } from '../constraint/softness.js';
import { JointIslandFamily } from '../constraint/joint-island.js';
import { PivotBatch } from '../constraint/pivot-batch.js';
import { UserBatch } from '../constraint/user-batch.js';
import { ContactSolver } from '../contact/contact-solver.js';
import type { ContactManager } from './contact-manager.js';
import type { Islands } from './islands.js';
import type { BodyStates } from './body-states.js';
import { STATE_LENGTH, STATE_SLEEP } from '../body/state-layout.js';
import type { SpaceSettings } from './settings.js';
import { OneByOneFamily, UserBatchFamily, type ConstraintFamily, type SolverFamily } from './solver-families.js';
import { SolverBodies } from './solver-bodies.js';
import { ContinuousCollision } from './continuous.js';
import { Fluids } from './fluids.js';
import type { StepContext } from './step-context.js';
import { StepPlan } from './step-plan.js';
import { SteadyGather } from './steady-gather.js';
import { FulcrumDivergenceError } from '../util/validate.js';
import type { StageViews } from '../parallel/thread-runtime.js';
import type { WorkerPool } from '../parallel/worker-pool.js';

/** What a step reads of its space; the arrays are the space's own, changed in place between steps. */
export interface StepWorld {
  readonly bodies: readonly Body[];
  /** How many body slots (Body._slot) the space has handed out: every slot is below it. */
  bodySlots(): number;
  readonly constraints: readonly Constraint[];
  readonly settings: SpaceSettings;
  readonly contacts: ContactManager;
  readonly islands: Islands;
  /** Its bodies' states (pose, velocity, rest time), which write back writes. */
  readonly bodyStates: BodyStates;
  /** The space's break sequence (hook, event, removal or deactivation). */
  breakConstraint(c: Constraint, reason: BreakReason): void;
}

export class StepPipeline {
  readonly bodies = new SolverBodies();
  readonly ctx: StepContext;
  readonly contactSolver: ContactSolver;
  private readonly continuous: ContinuousCollision;
  private readonly fluids = new Fluids();
  readonly jointBatch = new PivotBatch();
  readonly userBatch = new UserBatch();
  readonly jointIslands = new JointIslandFamily();
  /** (It runs the joint islands' passes after its own: see OneByOneFamily.) */
  readonly oneByOne = new OneByOneFamily(this.jointIslands);
  readonly plan: StepPlan;
  /** Gather's choice of bodies, kept while the plan's stamp stands still (steady-gather.ts). */
  readonly steadyGather = new SteadyGather();
  /** The constraint families in solve order, then every family with the contacts last. */
  private readonly constraintFamilies: readonly ConstraintFamily[];
  private readonly families: readonly SolverFamily[];
  /** Set in write back: some body has rested long enough that its island might sleep. */
  private sleepCandidate = false;

  constructor(private readonly world: StepWorld) {
    this.ctx = { dt: 0, h: 0, invH: 0, substeps: 0, bodies: this.bodies, jointSoftness: rigidSoftness(), poseEpoch: 0, step: 0 };
    this.contactSolver = new ContactSolver(world.contacts.store);
    this.continuous = new ContinuousCollision(world.contacts);
    // User constraints first: a joint written as a UserConstraint is then solved where the
    // built-in one would be, before the pivots. Small islands of equality joints are one block
    // each (joint-island.ts), solved between the one-by-one joints and the pivot batch: the
    // one-by-one family runs their passes, so that the stages' calls over the families see four
    // classes, which V8 dispatches inline (a fifth made every such call megamorphic: +4% on a
    // 200-link chain).
    this.constraintFamilies = [new UserBatchFamily(this.userBatch), this.oneByOne, this.jointBatch];
    this.families = [...this.constraintFamilies, this.contactSolver];
    // A constraint that fails its break test while the plan is prepared leaves the plan at once, and
    // breaks at stage 14 with the others: a step that fails after it must leave it unbroken.
    this.plan = new StepPlan(this.constraintFamilies, (c, reason) => this.preparedBreaks.push(c, reason), this.jointIslands);
  }

  /**
   * Keep the arrays a parallel stage reads and writes in SharedArrayBuffers from now on (the
   * solver bodies' state, the polygons' geometry and the narrowphase's jobs, the contact store's
   * manifolds, the contact solver's, the joint batch's and the user batch's rows), and return them: the arrays
   * workers start with.
   */
  share(): StageViews {
    this.steadyGather.forget();
    this.bodies.share();
    this.contactSolver.share();
    this.jointBatch.share();
    this.userBatch.share();
    this.world.contacts.share();
    const views = {} as StageViews;
    this.bodies.writeViews(views);
    this.contactSolver.writeViews(views);
    this.world.contacts.store.writeViews(views);
    this.jointBatch.writeViews(views);
    this.userBatch.writeViews(views);
    this.world.contacts.writeViews(views);
    return views;
  }

  /** Collide polygon pairs, integrate the bodies and solve the families that have kernels (contacts, the joint batch) with these workers from now on (null: alone). */
  attach(pool: WorkerPool | null): void {
    this.bodies.attach(pool);
    this.contactSolver.attach(pool);
    this.jointBatch.attach(pool);
    this.userBatch.attach(pool);
    this.world.contacts.attach(pool);
  }

  run(dt: number, substeps: number, positionIterations: number): void {
    const w = this.world;
    const ctx = this.ctx;
    this.begin(dt, substeps);
    // What stages 2–3 change is undone by a failed step too (rollback). They run no user code, but
    // with workers the narrowphase's stage can fail (a worker lost or hung).
    w.contacts.beginStep();
    w.islands.beginStep();
    try {
      w.contacts.updatePairs();
      // With workers, the narrowphase's jobs run on them while the calling thread gathers; gather
      // reads the bodies' sleep, so it runs again if the narrowphase's last pass, or a mixed
      // island, woke a body (a step that wakes nothing, most of them, gathers once).
      const wakes = w.islands.wakes;
      w.contacts.collideBegin(w.bodies, w.bodySlots());
      let order = this.gather();
      w.contacts.collideEnd();
      if (!this.plan.steady) w.islands.wakeMixed(w.constraints);
      if (w.islands.wakes !== wakes) order = this.gather();
      this.bodies.gatherStates();
      this.fluids.gather(w.contacts, this.bodies);
      this.prepare(order);
      for (let i = 0; i < substeps; i++) this.substep();
      this.fluids.restore();
      this.contactSolver.applyRestitution(ctx);
      this.bodies.capSpeeds(ctx.h, w.settings.maxLinearSpeed, w.settings.maxRotationPerSubstep);
      for (let i = 0; i < positionIterations; i++) this.positionPass();
      this.continuous.solve(this.bodies);
      this.check();
      this.finish();
    } catch (e) {
      this.rollback();
      throw e;
    }
    w.islands.endStep();
    this.store();
    this.writeBack(dt);
    this.finishContacts(dt);
    this.applyBreaks();
    this.sleep();
  }

  /** 1. The step context; stiff joints' softness (jointHertz 0: no bias, the position passes remove drift). */
  private begin(dt: number, substeps: number): void {
    const ctx = this.ctx;
    const s = this.world.settings;
    const h = dt / substeps;
    ctx.dt = dt;
    ctx.h = h;
    ctx.invH = 1 / h;
    ctx.substeps = substeps;
    ctx.poseEpoch++;
    ctx.step++;
    // A step that fails before gather must not put back bodies the last step's hooks wrote.
    this.bodies.forgetKept();
    makeSoft(Math.min(s.jointHertz, 0.25 * ctx.invH), s.jointDamping, h, ctx.jointSoftness);
  }

  /**
   * 4. The awake dynamic bodies and moving kinematic ones into the solver (their numbers follow
   * in SolverBodies.gatherStates, on every thread); returns a hash of their ids in order (the plan
   * indexes them). Its own method, whose loop V8 optimises within
   * a few steps: inside a method that runs once per step, the loop ran unoptimised for ~200 steps.
   */
  private gather(): number {
    const sb = this.bodies;
    const s = this.world.settings;
    const stamp = this.plan.stamp;
    const flushes = this.world.contacts.inertFlushes;
    if (!sb.begin(s.gx, s.gy, this.ctx.h, this.world.bodySlots(), this.world.bodyStates.array)) this.steadyGather.forget();
    const kept = this.steadyGather.reuse(stamp, flushes);
    if (kept !== null) return kept;
    sb.clearBodies();
    const bySlot = sb.bySlot;
    let order = 0;
    // (An index, not for-of: an array iterator's results are objects wherever the loop runs
    // unoptimised, 200 KB a step for the 5,050-box pyramid after a deopt.)
    const bodies = this.world.bodies;
    for (let i = 0, n = bodies.length; i < n; i++) {
      const b = bodies[i]!;
      b._solverIndex = -1;
      bySlot[b._slot] = -1;
      if (b._sleeping) continue;
      if (b._type === 'dynamic' || (b._type === 'kinematic' && (b._vx !== 0 || b._vy !== 0 || b._w !== 0))) {
        sb.add(b);
        order = (Math.imul(order, 0x01000193) ^ b.id) | 0;
      }
    }
    this.steadyGather.keep(stamp, flushes, order);
    return order;
  }

  /** 5. Contacts into the contact solver, constraints into their families. */
  private prepare(order: number): void {
    const w = this.world;
    w.contacts.runPreSolve();
    this.contactSolver.prepare(w.contacts.contacts, this.bodies, this.ctx, w.settings.contactHertz, w.settings.contactDamping);
    this.plan.prepare(w.constraints, this.ctx, order, this.bodies.count);
  }

  /** 6. One substep. */
  private substep(): void {
    const ctx = this.ctx;
    const sb = this.bodies;
    const families = this.families;
    sb.integrateVelocities();
    if (this.fluids.count > 0) this.fluids.substep(sb, ctx.h, this.world.settings.gx, this.world.settings.gy);
    for (let f = 0; f < families.length; f++) families[f]!.warmStart(ctx);
    for (let f = 0; f < families.length; f++) families[f]!.solve(ctx);
    const s = this.world.settings;
    sb.integratePositions(ctx.h, s.maxLinearSpeed, s.maxRotationPerSubstep);
    ctx.poseEpoch++;
    // Joints are cheap next to contacts, and chains need the passes: the contacts relax once.
    const joints = this.constraintFamilies;
    for (let j = 0, n = s.jointIterations; j < n; j++) {
      for (let f = 0; f < joints.length; f++) joints[f]!.relax(ctx);
    }
    this.contactSolver.relax(ctx);
  }

  /**
   * A stage from prepare to check threw (a user hook, a non-finite value, a divergence): put back
   * what the step changed, so that it leaves the space as it found it. Bodies are written only in
   * write back, except by hooks that read Body objects (packedState: false), which saw the
   * solver's state written into them; the constraints' impulses are updated in place. A throw in
   * prepare itself leaves a plan half built: it is rebuilt at the next step.
   */
  private rollback(): void {
    this.steadyGather.forget();
    this.fluids.restore();
    this.bodies.restoreBodies();
    const joints = this.constraintFamilies;
    for (let f = 0; f < joints.length; f++) joints[f]!.restoreImpulses(this.ctx);
    this.plan.discard();
    this.preparedBreaks.length = 0;
    this.world.contacts.rollbackStep();
    this.world.islands.rollbackStep();
  }

  /** 8. One position pass over every family. */
  private positionPass(): void {
    const families = this.families;
    for (let f = 0; f < families.length; f++) families[f]!.solvePosition(this.ctx);
  }

  /**
   * 9. The last line of defence: a body whose velocity or position is no longer finite fails the
   * step here, before the contacts keep their impulses or any body is written; the rollback puts
   * the constraints' warm-start impulses back as they were.
   */
  private check(): void {
    const k = this.bodies.firstNonFinite();
    if (k === 0) return;
    const sb = this.bodies;
    const fields: [string, number][] = [['velocity.x', sb.vx[k]!], ['velocity.y', sb.vy[k]!], ['angularVel', sb.w[k]!], ['position.x', sb.dpx[k]!], ['position.y', sb.dpy[k]!], ['rotation', sb.dq[k]!]];
    const [field, value] = fields.find(([, v]) => !Number.isFinite(v)) ?? fields[0]!;
    const body = sb.bodies[k]!;
    throw new FulcrumDivergenceError(
      `Space.step(): Body#${body.id}'s ${field} would have become ${value}: the solution diverged, so the step was abandoned and the space left as it was before it. ` +
        'Look for a light body between two joints with a much heavier load beyond, or a hand-written effMass or impulse hook (Space.checkUserConstraints checks them)',
      body.id,
      field,
    );
  }

  /** 11. Every family keeps its impulses, but for the constraints on a body a speed cap slowed. */
  private store(): void {
    this.ctx.poseEpoch++;
    const joints = this.constraintFamilies;
    for (let f = 0; f < joints.length; f++) joints[f]!.store(this.ctx);
    if (this.bodies.anyAtCap) this.forgetAtCaps();
  }

  /**
   * Anti-windup: a constraint with a body that a speed cap slowed in this step starts the next
   * step from zero. Its accumulated impulses warm-start the next step as the guess that it needs
   * what this one did; but the cap threw away velocity those impulses produced, and carried over
   * they wound up: two pins fighting through a 6 cm body with anchors metres away, between bodies
   * held at the caps, grew 4× per step until they overflowed (fuzz seed 3198948351). It is
   * integrator anti-windup, which stops integrating while the actuator is saturated. Contacts keep
   * theirs: a contact pushes only, and its impulses cannot cancel each other's.
   */
  private forgetAtCaps(): void {
    const atCap = this.bodies.atCap;
    const constraints = this.world.constraints;
    for (let i = 0; i < constraints.length; i++) {
      const c = constraints[i]!;
      if (!c._active) continue;
      const bodies = c.bodies;
      for (let j = 0; j < bodies.length; j++) {
        const k = bodies[j]!._solverIndex;
        if (k > 0 && atCap[k] === 1) {
          c._forgetWarmStart();
          break;
        }
      }
    }
  }

  /**
   * 13. The contacts' store done: with workers the store stage ran while the calling thread wrote
   * back (it touches no contact), and is joined here; then what reads the stored impulses (contact
   * data) and what moves the store's slots (destroying the doomed contacts).
   */
  private finishContacts(dt: number): void {
    this.contactSolver.endStore();
    this.world.contacts.contactData(dt);
    this.world.contacts.commitStep();
  }

  /**
   * 12. Solver arrays back to the bodies (their states, space/body-states.ts); a body that moved
   * takes its shapes and proxies along; the rest times of the sleep test.
   */
  private writeBack(dt: number): void {
    const sb = this.bodies;
    const s = this.world.settings;
    const contacts = this.world.contacts;
    const thr2 = s.sleepThreshold * s.sleepThreshold;
    const allowSleep = s.allowSleep;
    const delay = s.sleepDelay;
    let candidate = false;
    contacts.lookahead = 2 * dt;
    // Every body's state first, on every thread with workers; then, while the workers store the
    // contacts' impulses (joined in stage 13), the moved bodies' shapes and the sleep times.
    sb.writeBack();
    this.contactSolver.beginStore(this.ctx);
    // From the solver's arrays and the states alone: a Body is read only to move its shapes. Its
    // shapeSync then follows the inert shapes marked stale, for the next step (which may keep it:
    // steady-gather.ts).
    const { bstate: st, bslot, dynamic, reach, shapeSync, sleepy, dpx, dpy, dq } = sb;
    for (let i = 1; i < sb.count; i++) {
      if (shapeSync[i] === 1 && (dpx[i] !== 0 || dpy[i] !== 0 || dq[i] !== 0)) {
        const b = sb.bodies[i]!;
        contacts.syncShapes(b);
        shapeSync[i] = b._pairingShapes > 0 || !b._inertStale ? 1 : 0;
      }
      if (dynamic[i] === 0) continue;
      const vx = sb.vx[i]!;
      const vy = sb.vy[i]!;
      const rim = sb.w[i]! * reach[i]!;
      const rest = bslot[i]! * STATE_LENGTH + STATE_SLEEP;
      if (allowSleep && sleepy[i] === 1 && vx * vx + vy * vy <= thr2 && rim * rim <= thr2) {
        st[rest] = st[rest]! + dt;
        if (st[rest]! >= delay) candidate = true;
      } else st[rest] = 0;
    }
    this.sleepCandidate = candidate;
  }

  /** 10. Break tests (a batched pivot has nothing to finish unless it can break); breaking waits for stage 14. */
  private finish(): void {
    const finishers = this.plan.finishers;
    const broken = this.broken;
    broken.length = 0;
    for (let i = 0; i < finishers.length; i++) {
      const c = finishers[i]!;
      const reason = c._finish(this.ctx);
      if (reason !== null) broken.push(c, reason);
    }
  }
  /** The constraints that failed their break test in finish, each followed by its reason. */
  private readonly broken: (Constraint | BreakReason)[] = [];
  /** Constraints that failed their break test in prepare (stage 5), as pairs: they break first. */
  private readonly preparedBreaks: (Constraint | BreakReason)[] = [];

  /** 14. Break what failed its test: the space's break sequence, and the plan forgets it. */
  private applyBreaks(): void {
    this.breakEach(this.preparedBreaks);
    this.breakEach(this.broken);
  }

  private breakEach(broken: (Constraint | BreakReason)[]): void {
    for (let i = 0; i < broken.length; i += 2) {
      const c = broken[i] as Constraint;
      this.world.breakConstraint(c, broken[i + 1] as BreakReason);
      this.plan.finished(c);
      this.oneByOne.remove(c);
      this.jointIslands.remove(c);
    }
    broken.length = 0;
  }

  /** 14. An island sleeps only when all its bodies rested for sleepDelay: if none did, none can. */
  private sleep(): void {
    const s = this.world.settings;
    if (!s.allowSleep || !this.sleepCandidate) return;
    const contacts = this.world.contacts;
    this.world.islands.sleepRested(this.bodies, contacts.contacts, contacts.store.flags, this.plan.active, s.sleepDelay);
  }
}
