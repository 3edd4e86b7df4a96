/**
 * Space: owns bodies, shapes' broadphase proxies, contacts and constraints, and steps them.
 *
 * Step order (also in packages/physics/README.md):
 *  1. validate constraints            6. substeps: integrate velocities, warm start,
 *  2. broadphase: new pairs → contacts    biased solve ×positionIterations, integrate
 *  3. narrowphase for contacts with an    positions, relax (unbiased solve)
 *     awake side; touching sleeping   7. restitution; store impulses
 *     islands wake                    8. write bodies back, refresh shapes & broadphase
 *  4. gather awake bodies (SoA)       9. constraints finish (breaking)
 *  5. prepare contacts & constraints 10. islands & sleeping; then queued events fire
 *
 * Mutations (addBody, setters, ...) are rejected with a clear error while a step runs
 * (from inside a constraint hook); event handlers run after the step and may mutate freely.
 */
import { Body } from '../body/body.js';
import type { BodySpaceLink, SleepingIsland } from '../body/body.js';
import { BroadPhase } from '../broadphase/broadphase.js';
import { collideShapes } from '../collision/collide.js';
import { shouldCollide } from '../collision/filter.js';
import { Constraint } from '../constraint/constraint.js';
import type { ConstraintSpaceLink } from '../constraint/constraint.js';
import { Contact, pairKey } from '../contact/contact.js';
import { ContactStore, DOOMED, SENSOR, TOUCHING } from '../contact/contact-store.js';
import { Manifold } from '../collision/manifold.js';
import { ContactSolver } from '../contact/contact-solver.js';
import { makeSoft } from '../constraint/softness.js';
import type { Vec2, Vec2Like } from '../math/vec2.js';
import type { RayCastOutput, Shape } from '../shape/shape.js';
import { checkInteger, checkNonNegative, checkPositive, checkVec2, fail, FulcrumInputError } from '../util/validate.js';
import { EventHub } from './events.js';
import type { SpaceEventHandler, SpaceEventType } from './events.js';
import { SolverBodies } from './solver-bodies.js';
import { PivotBatch } from '../constraint/pivot-batch.js';
import type { PivotJoint } from '../constraint/joints/pivot-joint.js';
import { UserBatch } from '../constraint/user-batch.js';
import type { UserConstraint } from '../constraint/user-constraint.js';
import type { StepContext } from './step-context.js';
import { drawSpace } from '../debug/draw-space.js';
import type { DebugDraw, DebugDrawOptions } from '../debug/debug-draw.js';

export interface SpaceOptions {
  /** m/s². Default (0, 0), as Nape. */
  gravity?: Vec2Like;
  /** Seconds every body of an island must be at rest before it sleeps. Default 0.5. */
  sleepDelay?: number;
  /** Speed (m/s) under which a body counts as at rest; applied to |v| and to |ω|·extent. Default 0.05. */
  sleepThreshold?: number;
  /** Turn sleeping off for the whole space. Default true. */
  allowSleep?: boolean;
  /** Contact stiffness (Hz) and damping ratio of the soft contact solver. Defaults 30 and 10. */
  contactHertz?: number;
  contactDampingRatio?: number;
  /**
   * Relax passes over the joints in every substep (default 2). Joints are cheap next to
   * contacts, and long chains need the iterations: Gauss-Seidel moves an impulse about one
   * joint per pass.
   */
  jointIterations?: number;
  /**
   * 0 (default, Nape's semantics): stiff joints are rigid velocity constraints with no bias, and
   * the position passes remove drift. > 0: stiff joints also remove drift softly in the biased
   * pass, with this stiffness (Hz) and `jointDampingRatio` (default 2), as Box2D v3 does.
   */
  jointHertz?: number;
  jointDampingRatio?: number;
}

export interface RayHit {
  shape: Shape;
  body: Body;
  point: Vec2;
  normal: Vec2;
  /** Fraction along from → to. */
  fraction: number;
}

export interface QueryOptions {
  /** Return false to skip a shape. */
  filter?: (shape: Shape) => boolean;
  /** Include sensor shapes (default false for ray casts, true for point/AABB queries). */
  includeSensors?: boolean;
}

export class Space implements BodySpaceLink, ConstraintSpaceLink {
  private _gx = 0;
  private _gy = 0;
  private _sleepDelay = 0.5;
  private _sleepThreshold = 0.05;
  private _allowSleep = true;
  private _contactHertz = 30;
  private _contactDamping = 10;
  private _jointIterations = 2;
  private _jointHertz = 0;
  private _jointDamping = 2;

  private readonly _bodies: Body[] = [];
  private readonly _constraints: Constraint[] = [];
  private readonly _contacts: Contact[] = [];
  /** The contacts' numbers, slot i for _contacts[i] (see ContactStore). */
  private readonly _contactStore = new ContactStore();
  /** The narrowphase writes here; the store then takes the points and carries the impulses. */
  private readonly _manifold = new Manifold();
  private readonly _contactMap = new Map<number, Contact>();
  private readonly _shapeById = new Map<number, Shape>();
  private readonly _broadphase = new BroadPhase();
  private readonly _events = new EventHub();
  private readonly _solverBodies = new SolverBodies();
  private readonly _contactSolver = new ContactSolver();
  private readonly _activeConstraints: Constraint[] = [];
  /** Active constraints not solved in a batch. */
  private readonly _looseConstraints: Constraint[] = [];
  /** Constraints whose _finish must run (loose ones and batched pivots that can break). */
  private readonly _finishers: Constraint[] = [];
  /** countAwakeIslands's scratch list. */
  private readonly _islandBodies: Body[] = [];
  /** _syncShapes's proxy box [minX, minY, maxX, maxY, dx, dy], and how far ahead it stretches (s). */
  private readonly _moveBox = new Float64Array(6);
  private _lookahead = 0;
  /** Bodies whose inert shapes have not followed them yet (see _syncShapes). */
  private readonly _staleInert: Body[] = [];
  /**
   * The step plan cache. `_planStamp` moves on anything that can change which bodies and
   * constraints a step solves, or how (every wake path, sleeping, adding and removing, every
   * body and constraint change). While it stands still, and the gathered bodies are the same
   * ones in the same order with the same substep, a step reuses the previous step's constraint
   * lists and pivot rows and only refreshes their pose data (Box2D v3 keeps persistent solver
   * sets for the same reason: gathering 20,000 joint objects per step costs more than solving them).
   */
  private _planStamp = 0;
  private _planBuiltAt = -1;
  private _planH = 0;
  private _planOrder = 0;
  private _planCount = 0;
  private _planBatchPivots = true;
  private _planBatchUsers = true;
  /** @internal How many steps reused the plan (tests check the cache is hit and missed when it should be). */
  _planReuses = 0;
  private readonly _pivotBatch = new PivotBatch();
  /** Solve pivots through the typed-array batch (false: each joint solves itself; for tests). */
  _batchPivots = true;
  /** UserConstraints in jacobian form are solved together from typed arrays (user-batch.ts). */
  private readonly _userBatch = new UserBatch();
  /** @internal Tests turn this off to compare the batch with the one-by-one path. */
  _batchUsers = true;
  private readonly _ctx: StepContext;
  private _locked = false;
  /** False after any change that could invalidate a constraint's bodies (see step()). */
  private _constraintsValid = false;
  /** Constraints that validate before every step (user hooks), collected at the last full validation. */
  private readonly _validatedEveryStep: Constraint[] = [];
  /** Set by _finalizeBodies: some body has rested long enough that its island might sleep. */
  private _sleepCandidate = false;
  private _time = 0;
  private _stepCount = 0;
  private readonly _pairCallback = (a: number, b: number): void => this._addPair(a, b);
  // island scratch
  private _parent = new Int32Array(64);
  private _minSleep = new Float64Array(64);

  constructor(options: SpaceOptions = {}) {
    if (options === null || typeof options !== 'object') fail('Space', 'options', options, 'must be an object');
    const g = options.gravity !== undefined ? checkVec2('Space', 'gravity', options.gravity) : { x: 0, y: 0 };
    const sd = options.sleepDelay !== undefined ? checkNonNegative('Space', 'sleepDelay', options.sleepDelay) : 0.5;
    const st = options.sleepThreshold !== undefined ? checkNonNegative('Space', 'sleepThreshold', options.sleepThreshold) : 0.05;
    const as = options.allowSleep !== undefined ? checkBool('allowSleep', options.allowSleep) : true;
    const ch = options.contactHertz !== undefined ? checkPositive('Space', 'contactHertz', options.contactHertz) : 30;
    const cd = options.contactDampingRatio !== undefined ? checkNonNegative('Space', 'contactDampingRatio', options.contactDampingRatio) : 10;
    const ji = options.jointIterations !== undefined ? checkInteger('Space', 'jointIterations', options.jointIterations, 1, 1000) : 2;
    const jh = options.jointHertz !== undefined ? checkNonNegative('Space', 'jointHertz', options.jointHertz) : 0;
    const jd = options.jointDampingRatio !== undefined ? checkNonNegative('Space', 'jointDampingRatio', options.jointDampingRatio) : 2;
    this._gx = g.x;
    this._gy = g.y;
    this._sleepDelay = sd;
    this._sleepThreshold = st;
    this._allowSleep = as;
    this._contactHertz = ch;
    this._contactDamping = cd;
    this._jointIterations = ji;
    this._jointHertz = jh;
    this._jointDamping = jd;
    this._ctx = {
      dt: 0,
      h: 0,
      invH: 0,
      substeps: 0,
      bodies: this._solverBodies,
      jointSoftness: { biasRate: 0, massScale: 1, impulseScale: 0 },
      poseEpoch: 0,
    };
  }

  // ------------------------------------------------------------------ settings

  get gravity(): Vec2 {
    return { x: this._gx, y: this._gy };
  }
  set gravity(v: Vec2Like) {
    const g = checkVec2('Space', 'gravity', v);
    this._assertUnlocked('Space.gravity');
    this._gx = g.x;
    this._gy = g.y;
    this.wakeAll();
  }
  get sleepDelay(): number {
    return this._sleepDelay;
  }
  set sleepDelay(v: number) {
    this._sleepDelay = checkNonNegative('Space', 'sleepDelay', v);
  }
  get sleepThreshold(): number {
    return this._sleepThreshold;
  }
  set sleepThreshold(v: number) {
    this._sleepThreshold = checkNonNegative('Space', 'sleepThreshold', v);
  }
  get allowSleep(): boolean {
    return this._allowSleep;
  }
  set allowSleep(v: boolean) {
    this._allowSleep = checkBool('allowSleep', v);
    if (!this._allowSleep) this.wakeAll();
  }

  get jointIterations(): number {
    return this._jointIterations;
  }
  set jointIterations(v: number) {
    this._jointIterations = checkInteger('Space', 'jointIterations', v, 1, 1000);
  }
  get jointHertz(): number {
    return this._jointHertz;
  }
  set jointHertz(v: number) {
    this._jointHertz = checkNonNegative('Space', 'jointHertz', v);
  }
  get jointDampingRatio(): number {
    return this._jointDamping;
  }
  set jointDampingRatio(v: number) {
    this._jointDamping = checkNonNegative('Space', 'jointDampingRatio', v);
  }

  /** Simulated seconds so far. */
  get time(): number {
    return this._time;
  }
  /** Steps taken so far. */
  get stepCount(): number {
    return this._stepCount;
  }
  /** True while `step()` runs. */
  get isStepping(): boolean {
    return this._locked;
  }

  get bodies(): readonly Body[] {
    return this._bodies;
  }
  get constraints(): readonly Constraint[] {
    return this._constraints;
  }
  /** Number of live contacts (pairs of shapes whose fat AABBs overlap). */
  get contactCount(): number {
    return this._contacts.length;
  }

  // ------------------------------------------------------------------ events

  /** Subscribe to an event; returns the unsubscribe function. */
  on<K extends SpaceEventType>(type: K, handler: SpaceEventHandler<K>): () => void {
    if (!this._events.isEventType(type)) fail('Space', 'on(type)', type, "must be 'beginContact', 'endContact', 'sleep', 'wake' or 'constraintBreak'");
    if (typeof handler !== 'function') fail('Space', 'on(handler)', handler, 'must be a function');
    return this._events.on(type, handler);
  }

  // ------------------------------------------------------------------ bodies

  addBody(body: Body): Body {
    if (!(body instanceof Body)) fail('Space', 'addBody(body)', body, 'must be a Body');
    this._assertUnlocked('Space.addBody');
    if (body._space === this) fail('Space', 'addBody(body)', `Body#${body.id}`, 'is already in this space');
    if (body._space !== null) fail('Space', 'addBody(body)', `Body#${body.id}`, 'is in another space; remove it there first');
    this._constraintsValid = false;
    body._space = this;
    body._sleeping = false;
    body._island = null;
    body._sleepTime = 0;
    body._solverIndex = -1;
    this._bodies.push(body);
    for (const s of body._shapes) this._createProxy(body, s);
    return body;
  }

  removeBody(body: Body): void {
    if (!(body instanceof Body)) fail('Space', 'removeBody(body)', body, 'must be a Body');
    this._assertUnlocked('Space.removeBody');
    if (body._space !== this) fail('Space', 'removeBody(body)', `Body#${body.id}`, 'is not in this space');
    this._constraintsValid = false;
    this._invalidateBody(body);
    for (const s of body._shapes) this._destroyProxy(s);
    const i = this._bodies.indexOf(body);
    this._bodies.splice(i, 1);
    body._space = null;
    body._sleeping = false;
    body._island = null;
    body._solverIndex = -1;
  }

  // ------------------------------------------------------------------ constraints

  addConstraint<C extends Constraint>(c: C): C {
    if (!(c instanceof Constraint)) fail('Space', 'addConstraint(constraint)', c, 'must be a Constraint');
    this._assertUnlocked('Space.addConstraint');
    if (c._space === this) fail('Space', 'addConstraint(constraint)', `${c.typeName}#${c.id}`, 'is already in this space');
    if (c._space !== null) fail('Space', 'addConstraint(constraint)', `${c.typeName}#${c.id}`, 'is in another space; remove it there first');
    this._constraintsValid = false;
    c._space = this;
    this._constraints.push(c);
    this._linkConstraint(c);
    c.clearCache();
    this._invalidateConstraint(c);
    return c;
  }

  removeConstraint(c: Constraint): void {
    if (!(c instanceof Constraint)) fail('Space', 'removeConstraint(constraint)', c, 'must be a Constraint');
    this._assertUnlocked('Space.removeConstraint');
    if (c._space !== this) fail('Space', 'removeConstraint(constraint)', `${c.typeName}#${c.id}`, 'is not in this space');
    this._invalidateConstraint(c);
    this._unlinkConstraint(c);
    this._constraints.splice(this._constraints.indexOf(c), 1);
    c._space = null;
    c.clearCache();
    if (c._ignore) this._touchBodies(c.bodies);
  }

  /** @internal A constraint's bodies are about to change (called by joints). */
  _constraintBodiesChanging(c: Constraint): void {
    this._invalidateConstraint(c);
    this._unlinkConstraint(c);
    if (c._ignore) this._touchBodies(c.bodies);
  }
  /** @internal A constraint's bodies changed (called by joints). */
  _constraintBodiesChanged(c: Constraint): void {
    this._constraintsValid = false;
    this._linkConstraint(c);
    this._invalidateConstraint(c);
  }

  private _linkConstraint(c: Constraint): void {
    for (const b of c.bodies) (b._constraints as Constraint[]).push(c);
    if (c._ignore) this._destroyIgnoredContacts(c);
  }
  private _unlinkConstraint(c: Constraint): void {
    for (const b of c.bodies) {
      const list = b._constraints as Constraint[];
      const i = list.indexOf(c);
      if (i >= 0) list.splice(i, 1);
    }
  }

  // ------------------------------------------------------------------ stepping

  /**
   * Advance the simulation by dt seconds.
   * @param velocityIterations substeps per step (default 4): each substep integrates, warm
   *   starts, solves, moves bodies and relaxes.
   * @param positionIterations position passes after the substeps (default 2): stiff joints
   *   project out their remaining error by moving positions directly (Nape's position passes).
   */
  step(dt: number, velocityIterations = 4, positionIterations = 2): void {
    if (typeof dt !== 'number' || !Number.isFinite(dt) || dt <= 0) fail('Space', 'step(dt)', dt, 'must be a positive finite number of seconds');
    checkInteger('Space', 'step(velocityIterations)', velocityIterations, 1, 1000);
    checkInteger('Space', 'step(positionIterations)', positionIterations, 0, 1000);
    if (this._locked) throw new FulcrumInputError('Space.step() cannot be called while the space is already stepping');
    // Validate before locking so a bad constraint leaves the space untouched and steppable.
    // Built-in joints only need it after a topology change; user validate() hooks run every step.
    if (!this._constraintsValid) {
      const every = this._validatedEveryStep;
      every.length = 0;
      for (const c of this._constraints) {
        if (c._validatesEveryStep()) every.push(c);
        if (c._active) c._validateForStep(this);
      }
    } else {
      for (const c of this._validatedEveryStep) if (c._active) c._validateForStep(this);
    }
    this._constraintsValid = true;
    this._locked = true;
    this._events.deferring = true;
    try {
      this._step(dt, velocityIterations, positionIterations);
    } finally {
      this._locked = false;
      this._events.deferring = false;
    }
    this._events.flush();
  }

  private _step(dt: number, substeps: number, positionIterations: number): void {
    const ctx = this._ctx;
    const h = dt / substeps;
    ctx.dt = dt;
    ctx.h = h;
    ctx.invH = 1 / h;
    ctx.substeps = substeps;
    ctx.poseEpoch++;
    // Contact stiffness is capped at a quarter of the substep rate for stability.
    const hertz = Math.min(this._contactHertz, 0.25 * ctx.invH);
    const cs = this._contactSolver;
    makeSoft(hertz, this._contactDamping, h, cs.soft);
    makeSoft(2 * hertz, this._contactDamping, h, cs.staticSoft);
    // jointHertz 0 (default): stiff joints get no velocity bias; the position passes remove drift.
    makeSoft(Math.min(this._jointHertz, 0.25 * ctx.invH), this._jointDamping, h, ctx.jointSoftness);

    // 2. broadphase
    this._broadphase.updatePairs(this._pairCallback);
    // 3. narrowphase
    this._collide();

    // Nothing that decides the plan changed since the last one was built (see _planStamp).
    const stampSteady = this._planBuiltAt === this._planStamp;

    // A constraint links an island: if any of its bodies is awake, all of them are. (Only a
    // change can create such a mixed island, so a steady stamp skips the walk.)
    if (!stampSteady) {
      for (const c of this._constraints) {
        if (!c._active) continue;
        const bodies = c.bodies;
        let awake = false;
        let asleep = false;
        for (let i = 0; i < bodies.length; i++) {
          const b = bodies[i]!;
          if (b._type !== 'dynamic') continue;
          if (b._sleeping) asleep = true;
          else awake = true;
        }
        if (awake && asleep) for (const b of bodies) if (b._sleeping) this._wakeIsland(b);
      }
    }

    // 4. gather awake bodies (and fingerprint their order: the cached plan indexes them)
    const sb = this._solverBodies;
    const order = this._gatherBodies();

    // 5. prepare contacts and constraints
    this._prepareContacts();
    const store = this._contactStore;
    const active = this._activeConstraints;
    const batch = this._pivotBatch;
    const loose = this._looseConstraints;
    const finishers = this._finishers;
    const users = this._userBatch;
    const batchPivots = this._batchPivots;
    const batchUsers = this._batchUsers;
    const reuse =
      stampSteady &&
      this._planH === h &&
      this._planOrder === order &&
      this._planCount === sb.count &&
      this._planBatchPivots === batchPivots &&
      this._planBatchUsers === batchUsers;
    if (reuse) {
      // Same constraints, same rows: refresh the pivots' pose data; the others prepare as usual.
      this._planReuses++;
      batch.refresh(sb);
      users.refresh();
      for (let i = 0; i < loose.length; i++) {
        const c = loose[i]!;
        const reason = c._prepare(ctx);
        if (reason === null) continue;
        this._breakConstraint(c, reason);
        loose.splice(i--, 1);
        active.splice(active.indexOf(c), 1);
        finishers.splice(finishers.indexOf(c), 1);
      }
    } else {
      // Active constraints with an awake body: pivots go to the typed-array batch (which
      // prepares them itself), everything else prepares through its own _prepare.
      active.length = 0;
      loose.length = 0;
      finishers.length = 0;
      batch.begin();
      users.begin();
      for (const c of this._constraints) {
        if (!c._active) continue;
        const bodies = c.bodies;
        let awake = false;
        for (let i = 0; i < bodies.length; i++) {
          if (bodies[i]!._solverIndex > 0) {
            awake = true;
            break;
          }
        }
        if (!awake) continue;
        if (batchPivots && !c._breakUnderError && (c as Partial<PivotJoint>)._batchedPivot === true) {
          batch.add(c as PivotJoint, ctx);
          active.push(c);
          if (c._breakUnderForce) finishers.push(c);
          continue;
        }
        if (batchUsers && (c as Partial<UserConstraint>)._batchable?.() === true) {
          const u = c as UserConstraint;
          users.add(u, u.dimensions, u.bodyList.length, ctx);
          active.push(c);
          if (c._breakUnderForce) finishers.push(c);
          continue;
        }
        const reason = c._prepare(ctx);
        if (reason !== null) {
          this._breakConstraint(c, reason);
          continue;
        }
        active.push(c);
        loose.push(c);
        finishers.push(c);
      }
      // Breaking moved the stamp: such a plan is used once and rebuilt next step.
      this._planBuiltAt = this._planStamp;
      this._planH = h;
      this._planOrder = order;
      this._planCount = sb.count;
      this._planBatchPivots = batchPivots;
      this._planBatchUsers = batchUsers;
    }

    // 6. substeps
    for (let i = 0; i < substeps; i++) {
      sb.integrateVelocities(h);
      // (The batched user constraints go first: a joint written as a UserConstraint is then
      // solved in the place the built-in one would be, before the pivots.)
      users.warmStart(ctx);
      for (const c of loose) c._warmStart(ctx);
      batch.warmStart(sb);
      cs.warmStart(sb);
      users.solve(ctx, true);
      for (const c of loose) c._solve(ctx, true);
      batch.solve(ctx, true);
      cs.solve(sb, ctx.invH, true);
      sb.integratePositions(h);
      ctx.poseEpoch++;
      for (let j = 0; j < this._jointIterations; j++) {
        users.solve(ctx, false);
        for (const c of loose) c._solve(ctx, false);
        batch.solve(ctx, false);
      }
      cs.solve(sb, ctx.invH, false);
    }
    // 7. restitution, warm-start cache
    cs.applyRestitution(sb);
    cs.store(store);
    // 7b. position passes: stiff joints project out their remaining error (positions only).
    for (let i = 0; i < positionIterations; i++) {
      users.solvePosition(ctx);
      for (const c of loose) c._solvePosition(ctx);
      batch.solvePosition(sb);
    }
    ctx.poseEpoch++;
    batch.store();
    users.store();

    // 8. write back
    this._finalizeBodies(dt);
    // 9. constraints: break tests
    // (Batched pivots have nothing to finish unless they can break: they are not finishers.)
    for (let i = 0; i < finishers.length; i++) {
      const c = finishers[i]!;
      const reason = c._finish(ctx);
      if (reason === null) continue;
      this._breakConstraint(c, reason);
      finishers.splice(i--, 1);
      active.splice(active.indexOf(c), 1);
      const l = loose.indexOf(c);
      if (l >= 0) loose.splice(l, 1);
    }
    // 10. islands
    this._updateSleep();

    this._time += dt;
    this._stepCount++;
  }

  /**
   * Step 4: the awake dynamic bodies and moving kinematic ones into the solver arrays; returns a
   * hash of their ids in order. (Its own method, whose loop V8 optimises within a few steps:
   * inside _step, which runs once per step, the loop ran unoptimised for the first ~200 steps.)
   */
  private _gatherBodies(): number {
    const sb = this._solverBodies;
    sb.reset();
    const gx = this._gx;
    const gy = this._gy;
    let order = 0;
    for (const b of this._bodies) {
      b._solverIndex = -1;
      if (b._sleeping) continue;
      if (b._type === 'dynamic' || (b._type === 'kinematic' && (b._vx !== 0 || b._vy !== 0 || b._w !== 0))) {
        sb.add(b, gx, gy);
        order = (Math.imul(order, 0x01000193) ^ b.id) | 0;
      }
    }
    return order;
  }

  /** Step 5, contacts: every touching, non-sensor contact with a body in the solver into the contact solver. */
  private _prepareContacts(): void {
    const cs = this._contactSolver;
    const sb = this._solverBodies;
    const contacts = this._contacts;
    const store = this._contactStore;
    const flags = store.flags;
    cs.begin();
    for (let k = 0; k < contacts.length; k++) {
      if (flags[k] !== TOUCHING) continue; // not touching, or a sensor
      const c = contacts[k]!;
      if (c.bodyA._solverIndex < 0 && c.bodyB._solverIndex < 0) continue;
      cs.add(c, k, store, sb);
    }
  }

  /** Nape's break sequence: broken() hook, event, then remove (removeOnBreak) or deactivate. */
  private _breakConstraint(c: Constraint, reason: 'force' | 'error'): void {
    c._broken();
    if (this._events.has('constraintBreak')) this._events.emit({ type: 'constraintBreak', constraint: c, reason });
    this._invalidateConstraint(c);
    if (c._removeOnBreak) {
      this._unlinkConstraint(c);
      this._constraints.splice(this._constraints.indexOf(c), 1);
      c._space = null;
      if (c._ignore) this._touchBodies(c.bodies);
    } else {
      c._active = false;
    }
    c.clearCache();
  }

  private _finalizeBodies(dt: number): void {
    const sb = this._solverBodies;
    const thr2 = this._sleepThreshold * this._sleepThreshold;
    const allowSleep = this._allowSleep;
    const delay = this._sleepDelay;
    let candidate = false;
    this._lookahead = 2 * dt;
    for (let i = 1; i < sb.count; i++) {
      const b = sb.bodies[i]!;
      const vx = sb.vx[i]!;
      const vy = sb.vy[i]!;
      const w = sb.w[i]!;
      const moved = sb.dpx[i] !== 0 || sb.dpy[i] !== 0 || sb.dq[i] !== 0;
      if (moved) {
        sb.writeState(i);
        this._syncShapes(b);
      } else {
        b._vx = vx;
        b._vy = vy;
        b._w = w;
      }
      if (b._type === 'dynamic') {
        const rim = w * b._maxExtent;
        if (allowSleep && vx * vx + vy * vy <= thr2 && rim * rim <= thr2) {
          b._sleepTime += dt;
          if (b._sleepTime >= delay) candidate = true;
        } else b._sleepTime = 0;
      }
    }
    this._sleepCandidate = candidate;
  }

  /** Union-find over awake dynamic bodies; islands at rest for sleepDelay fall asleep. */
  private _updateSleep(): void {
    // An island sleeps only when all its bodies rested for sleepDelay: none did, none can.
    if (!this._allowSleep || !this._sleepCandidate) return;
    const sb = this._solverBodies;
    const n = sb.count;
    if (this._parent.length < n) {
      this._parent = new Int32Array(n * 2);
      this._minSleep = new Float64Array(n * 2);
    }
    const parent = this._parent;
    for (let i = 0; i < n; i++) parent[i] = i;
    const find = this._find;
    const union = this._union;
    const contacts = this._contacts;
    const flags = this._contactStore.flags;
    for (let k = 0; k < contacts.length; k++) {
      if (flags[k] !== TOUCHING) continue; // not touching, or a sensor
      const c = contacts[k]!;
      const a = c.bodyA._solverIndex;
      const b = c.bodyB._solverIndex;
      if (a <= 0 || b <= 0) {
        // A moving kinematic body keeps what it touches awake.
        if (a > 0 && sb.dynamic[a] === 0 && c.bodyB._type === 'dynamic') c.bodyB._sleepTime = 0;
        if (b > 0 && sb.dynamic[b] === 0 && c.bodyA._type === 'dynamic') c.bodyA._sleepTime = 0;
        continue;
      }
      const dynA = sb.dynamic[a] === 1;
      const dynB = sb.dynamic[b] === 1;
      if (dynA && dynB) union(a, b);
      else if (dynA) c.bodyA._sleepTime = 0;
      else if (dynB) c.bodyB._sleepTime = 0;
    }
    for (const c of this._activeConstraints) {
      let first = -1;
      for (const b of c.bodies) {
        const i = b._solverIndex;
        if (i <= 0 || sb.dynamic[i] === 0) continue;
        if (first < 0) first = i;
        else union(first, i);
      }
    }
    const minSleep = this._minSleep;
    for (let i = 1; i < n; i++) minSleep[i] = Infinity;
    for (let i = 1; i < n; i++) {
      if (sb.dynamic[i] === 0) continue;
      const r = find(i);
      const t = sb.bodies[i]!._sleepTime;
      if (t < minSleep[r]!) minSleep[r] = t;
    }
    let islands: Map<number, Body[]> | null = null;
    for (let i = 1; i < n; i++) {
      if (sb.dynamic[i] === 0) continue;
      const r = find(i);
      if (minSleep[r]! < this._sleepDelay) continue;
      islands ??= new Map();
      let list = islands.get(r);
      if (!list) islands.set(r, (list = []));
      list.push(sb.bodies[i]!);
    }
    if (!islands) return;
    this._planStamp++;
    for (const bodies of islands.values()) {
      bodies.sort((p, q) => p.id - q.id);
      const island: SleepingIsland = { bodies };
      for (const b of bodies) {
        b._sleeping = true;
        b._island = island;
        b._vx = b._vy = b._w = 0;
        b._sleepTime = 0;
      }
      if (this._events.has('sleep')) this._events.emit({ type: 'sleep', bodies });
    }
  }

  /** Union-find with path halving over `_parent` (methods, not closures: no per-step allocation). */
  private readonly _find = (i: number): number => {
    const parent = this._parent;
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  };
  private readonly _union = (a: number, b: number): void => {
    const ra = this._find(a);
    const rb = this._find(b);
    // The smaller index becomes the root, so islands never depend on discovery order.
    if (ra < rb) this._parent[rb] = ra;
    else if (rb < ra) this._parent[ra] = rb;
  };

  // ------------------------------------------------------------------ contacts

  private _addPair(idA: number, idB: number): void {
    // Most reported pairs already have their contact (a proxy moved near its old partners):
    // check that first, before the two shape look-ups.
    const key = pairKey(idA, idB);
    if (this._contactMap.has(key)) return;
    const sA = this._shapeById.get(idA);
    const sB = this._shapeById.get(idB);
    if (!sA || !sB) return;
    const bA = sA.body as Body;
    const bB = sB.body as Body;
    if (bA === bB) return;
    if (bA._type !== 'dynamic' && bB._type !== 'dynamic') return;
    if (!shouldCollide(sA, sB)) return;
    if (bodiesIgnoreEachOther(bA, bB)) return;
    // Order shapes by id so the pair's orientation never depends on discovery order.
    const store = this._contactStore;
    const c = sA.id < sB.id ? new Contact(sA, sB, bA, bB, key, store) : new Contact(sB, sA, bB, bA, key, store);
    this._contacts.push(c); // at c.index, the store's new last slot
    this._contactMap.set(key, c);
    (bA._contacts as Contact[]).push(c);
    (bB._contacts as Contact[]).push(c);
  }

  private _collide(): void {
    const contacts = this._contacts;
    const store = this._contactStore;
    const m = this._manifold;
    let destroyed = false;
    for (let i = 0; i < contacts.length; i++) {
      const c = contacts[i]!;
      const bA = c.bodyA;
      const bB = c.bodyB;
      if (!isSimulated(bA) && !isSimulated(bB)) continue;
      if (!this._broadphase.testOverlap(c.shapeA.proxyId, c.shapeB.proxyId)) {
        store.flags[i] |= DOOMED; // destroyed below, once the loop is done
        destroyed = true;
        continue;
      }
      collideShapes(c.shapeA, c.shapeB, m);
      store.update(i, m);
      const flags = store.flags[i]!;
      const sensor = (flags & SENSOR) !== 0;
      let touching = m.pointCount > 0;
      if (touching && sensor) touching = minSeparation(m) < 0;
      if (touching !== ((flags & TOUCHING) !== 0)) {
        store.flags[i] = flags ^ TOUCHING;
        this._emitContact(touching ? 'beginContact' : 'endContact', c);
      }
      if (touching && !sensor) {
        if (bA._sleeping) this._wakeIsland(bA);
        if (bB._sleeping) this._wakeIsland(bB);
      }
    }
    if (destroyed) {
      // Compact the list and the store alike, keeping the order.
      let w = 0;
      for (let r = 0; r < contacts.length; r++) {
        const c = contacts[r]!;
        if ((store.flags[r]! & DOOMED) !== 0) {
          store.flags[r] &= ~DOOMED;
          this._detachContact(c);
          c.index = -1;
          continue;
        }
        if (w !== r) {
          store.moveSlot(r, w);
          c.index = w;
          contacts[w] = c;
        }
        w++;
      }
      contacts.length = w;
      store.truncate(w);
    }
  }

  private _emitContact(type: 'beginContact' | 'endContact', c: Contact): void {
    if (!this._events.has(type)) return;
    this._events.emit({ type, shapeA: c.shapeA, shapeB: c.shapeB, bodyA: c.bodyA, bodyB: c.bodyB });
  }

  /** Remove a contact from the maps and body lists (not from _contacts); end event if touching. */
  private _detachContact(c: Contact): void {
    this._contactMap.delete(c.key);
    removeFrom(c.bodyA._contacts, c);
    removeFrom(c.bodyB._contacts, c);
    const flags = this._contactStore.flags;
    if ((flags[c.index]! & TOUCHING) !== 0) {
      flags[c.index] &= ~TOUCHING;
      this._emitContact('endContact', c);
    }
  }

  /** Destroy every contact of a shape (shape removed, or its filter changed). */
  private _destroyShapeContacts(shape: Shape): void {
    const body = shape.body as Body | null;
    if (!body) return;
    const list = (body._contacts as Contact[]).filter((c) => c.shapeA === shape || c.shapeB === shape);
    for (const c of list) this._destroyContact(c);
  }

  private _destroyContact(c: Contact): void {
    // Wake both sides: something they were resting on may be gone.
    if (c.touching) {
      this._invalidateBody(c.bodyA);
      this._invalidateBody(c.bodyB);
    }
    this._detachContact(c);
    const contacts = this._contacts;
    const store = this._contactStore;
    const i = c.index;
    const last = contacts.pop()!;
    if (last !== c) {
      contacts[i] = last;
      last.index = i;
      store.moveSlot(contacts.length, i);
    }
    store.truncate(contacts.length);
    c.index = -1;
  }

  private _destroyIgnoredContacts(c: Constraint): void {
    const bodies = c.bodies;
    for (const b of bodies) {
      for (const k of (b._contacts as Contact[]).slice()) {
        const other = k.bodyA === b ? k.bodyB : k.bodyA;
        if (bodies.includes(other)) this._destroyContact(k);
      }
    }
  }

  private _touchBodies(bodies: readonly Body[]): void {
    for (const b of bodies) for (const s of b._shapes) if (s.proxyId >= 0) this._broadphase.touchProxy(s.proxyId);
  }

  // ------------------------------------------------------------------ proxies

  private _createProxy(body: Body, s: Shape): void {
    s.updateWorld(body._x, body._y, body._c, body._s);
    s.proxyId = this._broadphase.createProxy(s.aabbMinX, s.aabbMinY, s.aabbMaxX, s.aabbMaxY, s.id);
    s._inert = pairsWithNothing(s);
    if (s._inert) this._broadphase.setInert(s.proxyId, true);
    this._shapeById.set(s.id, s);
  }

  private _destroyProxy(s: Shape): void {
    this._destroyShapeContacts(s);
    if (s.proxyId >= 0) this._broadphase.destroyProxy(s.proxyId);
    s.proxyId = -1;
    this._shapeById.delete(s.id);
  }

  /**
   * Refresh shapes and proxies after a step. A proxy that must be re-inserted is stretched
   * along the body's motion over `_lookahead` seconds (Box2D 2.4's predictive AABBs), so bodies
   * in steady motion are not re-inserted every step.
   */
  private _syncShapes(b: Body): void {
    // The numbers go to the broadphase in one array: a call with six doubles boxed each of
    // them (about half a megabyte per step in the 5050-box pyramid).
    const box = this._moveBox;
    const lookahead = this._lookahead;
    let stale = false;
    for (const s of b._shapes) {
      // A shape that pairs with nothing matters only to queries and debug draws: refreshed then.
      if (s._inert) {
        stale = true;
        continue;
      }
      s.updateWorld(b._x, b._y, b._c, b._s);
      box[0] = s.aabbMinX;
      box[1] = s.aabbMinY;
      box[2] = s.aabbMaxX;
      box[3] = s.aabbMaxY;
      box[4] = b._vx * lookahead;
      box[5] = b._vy * lookahead;
      this._broadphase.moveProxyBox(s.proxyId, box);
    }
    if (stale && !b._inertStale) {
      b._inertStale = true;
      this._staleInert.push(b);
    }
  }

  /** Bring the inert shapes of bodies that moved up to date (world cache and tree proxy). */
  private _flushInert(): void {
    const list = this._staleInert;
    for (let i = 0; i < list.length; i++) {
      const b = list[i]!;
      b._inertStale = false;
      if (b._space !== this) continue;
      for (const s of b._shapes) {
        if (!s._inert || s.proxyId < 0) continue;
        s.updateWorld(b._x, b._y, b._c, b._s);
        this._broadphase.moveProxy(s.proxyId, s.aabbMinX, s.aabbMinY, s.aabbMaxX, s.aabbMaxY);
      }
    }
    list.length = 0;
  }

  // ------------------------------------------------------------------ BodySpaceLink

  /** @internal */
  _assertUnlocked(what: string): void {
    if (this._locked) {
      throw new FulcrumInputError(
        `${what} cannot be changed while the space is stepping (called from inside a constraint hook?); ` +
          'change it from an event handler or between steps',
      );
    }
  }

  /** @internal The single wake path for bodies. */
  _invalidateBody(body: Body): void {
    if (body._space !== this) return;
    this._planStamp++;
    if (body._sleeping) this._wakeIsland(body);
    body._sleepTime = 0;
    if (body._type !== 'dynamic') {
      // A static or kinematic body changed: what rests on it must re-evaluate.
      for (const c of body._contacts as Contact[]) {
        const other = c.bodyA === body ? c.bodyB : c.bodyA;
        if (other._sleeping) this._wakeIsland(other);
        other._sleepTime = 0;
      }
    }
  }

  /** @internal */
  _bodyTransformChanged(body: Body): void {
    if (body._space !== this) return;
    for (const s of body._shapes) {
      s.updateWorld(body._x, body._y, body._c, body._s);
      this._broadphase.moveProxy(s.proxyId, s.aabbMinX, s.aabbMinY, s.aabbMaxX, s.aabbMaxY);
      this._broadphase.touchProxy(s.proxyId);
    }
    this._invalidateBody(body);
  }

  /** @internal */
  _shapeAdded(body: Body, shape: Shape): void {
    this._createProxy(body, shape);
  }
  /** @internal */
  _shapeRemoved(body: Body, shape: Shape): void {
    void body;
    this._destroyProxy(shape);
  }
  /** @internal */
  _shapeChanged(body: Body, shape: Shape, geometry: boolean): void {
    if (geometry) {
      this._bodyTransformChanged(body);
    } else {
      // Filter or sensor may have changed: re-pair from scratch (from an up-to-date world cache,
      // which an inert shape's may not be).
      this._flushInert();
      this._destroyShapeContacts(shape);
      if (shape.proxyId >= 0) {
        shape._inert = pairsWithNothing(shape);
        this._broadphase.setInert(shape.proxyId, shape._inert);
        this._broadphase.touchProxy(shape.proxyId);
      }
    }
  }

  // ------------------------------------------------------------------ ConstraintSpaceLink

  /** @internal */
  _invalidateConstraint(c: Constraint): void {
    this._planStamp++;
    // Any constraint change (activation included) gets a full validation before the next step.
    this._constraintsValid = false;
    for (const b of c.bodies) this._invalidateBody(b);
  }
  /** @internal */
  _constraintIgnoreChanged(c: Constraint): void {
    if (c._ignore) this._destroyIgnoredContacts(c);
    else this._touchBodies(c.bodies);
  }

  // ------------------------------------------------------------------ sleeping

  private _wakeIsland(body: Body): void {
    this._planStamp++;
    const island = body._island;
    const woken: Body[] = [];
    if (island === null) {
      body._sleeping = false;
      body._sleepTime = 0;
      woken.push(body);
    } else {
      for (const b of island.bodies) {
        if (b._island !== island) continue;
        b._sleeping = false;
        b._island = null;
        b._sleepTime = 0;
        if (b._space === this) woken.push(b);
      }
    }
    if (woken.length > 0 && this._events.has('wake')) this._events.emit({ type: 'wake', bodies: woken });
  }

  /**
   * How many islands are awake: awake dynamic bodies, linked by a touching solid contact between
   * two of them or by an active constraint, the same rule by which islands fall asleep (static and
   * kinematic bodies join no island). 0 means the scene is at rest. A pass over the bodies,
   * contacts and constraints, for an overlay or a test; the solver does not need it.
   */
  countAwakeIslands(): number {
    const awake = this._islandBodies;
    awake.length = 0;
    for (const b of this._bodies) {
      if (b._type !== 'dynamic' || b._sleeping) continue;
      b._islandIndex = awake.length;
      awake.push(b);
    }
    const n = awake.length;
    if (n === 0) return 0;
    if (this._parent.length < n) {
      this._parent = new Int32Array(n * 2);
      this._minSleep = new Float64Array(n * 2);
    }
    const parent = this._parent;
    for (let i = 0; i < n; i++) parent[i] = i;
    for (const c of this._contacts) {
      if (c.touching && !c.isSensor && awakeDynamic(c.bodyA) && awakeDynamic(c.bodyB)) this._union(c.bodyA._islandIndex, c.bodyB._islandIndex);
    }
    for (const c of this._constraints) {
      if (!c._active) continue;
      let first = -1;
      for (const b of c.bodies) {
        if (!awakeDynamic(b)) continue;
        if (first < 0) first = b._islandIndex;
        else this._union(first, b._islandIndex);
      }
    }
    let islands = 0;
    for (let i = 0; i < n; i++) if (this._find(i) === i) islands++;
    awake.length = 0;
    return islands;
  }

  /** Wake every sleeping body. */
  wakeAll(): void {
    for (const b of this._bodies) if (b._sleeping) this._wakeIsland(b);
  }

  // ------------------------------------------------------------------ queries

  /** Shapes that contain the world point. */
  queryPoint(point: Vec2Like, options: QueryOptions = {}): Shape[] {
    this._flushInert();
    const p = checkVec2('Space', 'queryPoint(point)', point);
    const out: Shape[] = [];
    this._broadphase.query(p.x, p.y, p.x, p.y, (proxy) => {
      const s = this._shapeFromProxy(proxy);
      if (s && accepts(s, options, true) && s.containsPoint(p.x, p.y)) out.push(s);
      return true;
    });
    return out.sort((a, b) => a.id - b.id);
  }

  /** Shapes whose bounding box overlaps the box [min, max]. */
  queryAABB(min: Vec2Like, max: Vec2Like, options: QueryOptions = {}): Shape[] {
    this._flushInert();
    const lo = checkVec2('Space', 'queryAABB(min)', min);
    const hi = checkVec2('Space', 'queryAABB(max)', max);
    if (lo.x > hi.x || lo.y > hi.y) fail('Space', 'queryAABB(min, max)', [lo, hi], 'needs min ≤ max on both axes');
    const out: Shape[] = [];
    this._broadphase.query(lo.x, lo.y, hi.x, hi.y, (proxy) => {
      const s = this._shapeFromProxy(proxy);
      if (s && accepts(s, options, true) && s.aabbMinX <= hi.x && s.aabbMaxX >= lo.x && s.aabbMinY <= hi.y && s.aabbMaxY >= lo.y) out.push(s);
      return true;
    });
    return out.sort((a, b) => a.id - b.id);
  }

  /** The closest shape hit by the segment from → to, or null. */
  rayCast(from: Vec2Like, to: Vec2Like, options: QueryOptions = {}): RayHit | null {
    this._flushInert();
    const hits = this._rayCast(from, to, options, true);
    return hits[0] ?? null;
  }

  /** Every shape hit by the segment from → to, nearest first. */
  rayCastAll(from: Vec2Like, to: Vec2Like, options: QueryOptions = {}): RayHit[] {
    this._flushInert();
    return this._rayCast(from, to, options, false);
  }

  private _rayCast(from: Vec2Like, to: Vec2Like, options: QueryOptions, closest: boolean): RayHit[] {
    const a = checkVec2('Space', 'rayCast(from)', from);
    const b = checkVec2('Space', 'rayCast(to)', to);
    const hits: RayHit[] = [];
    const out: RayCastOutput = { fraction: 0, normalX: 0, normalY: 0 };
    if (a.x === b.x && a.y === b.y) return hits;
    this._broadphase.rayCast(a.x, a.y, b.x, b.y, 1, (proxy, p1x, p1y, p2x, p2y, maxFraction) => {
      const s = this._shapeFromProxy(proxy);
      if (!s || !accepts(s, options, false)) return -1;
      if (!s.rayCast(p1x, p1y, p2x, p2y, maxFraction, out)) return -1;
      const f = out.fraction;
      const hit: RayHit = {
        shape: s,
        body: s.body as Body,
        point: { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f },
        normal: { x: out.normalX, y: out.normalY },
        fraction: f,
      };
      if (closest) {
        hits[0] = hit;
        return f; // clip the ray: only closer hits from now on
      }
      hits.push(hit);
      return maxFraction;
    });
    return hits.sort((p, q) => p.fraction - q.fraction || p.shape.id - q.shape.id);
  }

  private _shapeFromProxy(proxy: number): Shape | undefined {
    return this._shapeById.get(this._broadphase.getUserData(proxy));
  }

  // ------------------------------------------------------------------ debug

  /** Describe the space to a DebugDraw sink (shapes, contacts, AABBs, constraints). */
  debugDraw(sink: DebugDraw, options: DebugDrawOptions = {}): void {
    this._flushInert();
    drawSpace(this, this._contacts, sink, options);
  }
}

function isSimulated(b: Body): boolean {
  return !b._sleeping && b._type !== 'static';
}

function minSeparation(m: Manifold): number {
  let s = Infinity;
  for (let i = 0; i < m.pointCount; i++) s = Math.min(s, m.separation[i]!);
  return s;
}

function bodiesIgnoreEachOther(a: Body, b: Body): boolean {
  for (const c of a._constraints as Constraint[]) {
    if (c._ignore && c.bodies.includes(b)) return true;
  }
  return false;
}

function removeFrom(list: unknown[], item: unknown): void {
  const i = list.indexOf(item);
  if (i >= 0) list.splice(i, 1);
}

function accepts(s: Shape, o: QueryOptions, sensorsByDefault: boolean): boolean {
  if (s.sensor && !(o.includeSensors ?? sensorsByDefault)) return false;
  return o.filter ? o.filter(s) !== false : true;
}

function checkBool(prop: string, v: unknown): boolean {
  if (typeof v !== 'boolean') fail('Space', prop, v, 'must be a boolean');
  return v;
}

/**
 * A shape whose filter rejects every other filter never forms a pair: mask 0 or category 0,
 * unless a positive group (which always collides within the group) overrides the bits.
 */
/** A body that belongs to an awake island. */
function awakeDynamic(b: Body): boolean {
  return b._type === 'dynamic' && !b._sleeping;
}

function pairsWithNothing(s: Shape): boolean {
  const f = s.filter;
  return (f.mask === 0 || f.category === 0) && f.group <= 0;
}
