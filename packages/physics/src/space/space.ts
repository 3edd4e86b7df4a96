/**
 * Space: the public facade of a simulation. It owns the bodies and constraints, validates every
 * change, and steps. The work is done by its parts, each in its own file:
 *
 *   step.ts             the step, as a list of stages (the list is there and in the README)
 *   step-plan.ts        which constraints a step solves, in which solver family; kept across steps
 *   solver-families.ts  the stages every solver family takes (contacts, joint batch, user batch,
 *                       one by one)
 *   contact-manager.ts  proxies, pairs, the narrowphase, contacts
 *   islands.ts          islands, sleeping and waking
 *   queries.ts          point, box and ray queries
 *   settings.ts         SpaceOptions, their defaults and checks
 *
 * Mutations (addBody, setters, ...) are rejected with a clear error while a step runs
 * (from inside a constraint hook); event handlers run after the step and may mutate freely.
 */
import { Body } from '../body/body.js';
import type { BodySpaceLink } from '../body/body.js';
import { Constraint } from '../constraint/constraint.js';
import type { BreakReason, ConstraintSpaceLink } from '../constraint/constraint.js';
import type { Contact } from '../contact/contact.js';
import type { Vec2, Vec2Like } from '../math/vec2.js';
import type { Shape } from '../shape/shape.js';
import { checkBoolean, checkInteger, checkNonNegative, checkPositiveOrInfinity, checkVec2, fail, FulcrumInputError } from '../util/validate.js';
import { drawSpace } from '../debug/draw-space.js';
import { checkDebugDrawOptions, type DebugDraw, type DebugDrawOptions } from '../debug/debug-draw.js';
import { ContactManager, type PreSolveCallback } from './contact-manager.js';
import { EventHub } from './events.js';
import type { SpaceEventHandler, SpaceEventType } from './events.js';
import { Islands } from './islands.js';
import { SpaceQueries, type CastPose, type ConvexCastHit, type QueryOptions, type RayHit } from './queries.js';
import { readSpaceOptions, type SpaceOptions, type SpaceSettings } from './settings.js';
import { StepPipeline } from './step.js';
import { BodyStates } from './body-states.js';
import { parallelUnavailable, WorkerPool, workersToStart, type ParallelStatus } from '../parallel/worker-pool.js';

export type { SpaceOptions } from './settings.js';
export type { QueryOptions, RayHit } from './queries.js';

export class Space implements BodySpaceLink, ConstraintSpaceLink {
  private readonly _settings: SpaceSettings;
  private readonly _bodies: Body[] = [];
  private readonly _constraints: Constraint[] = [];
  private readonly _events = new EventHub();
  private readonly _islands: Islands;
  private readonly _contacts: ContactManager;
  private readonly _queries: SpaceQueries;
  /** @internal The step and its solver state (tests reach it through test-support/solver-routing.ts). */
  readonly _pipeline: StepPipeline;
  private _locked = false;
  /** False after any change that could invalidate a constraint's bodies (see step()). */
  private _constraintsValid = false;
  /** Constraints that validate before every step (user hooks), collected at the last full validation. */
  private readonly _validatedEveryStep: Constraint[] = [];
  private _time = 0;
  private _stepCount = 0;

  constructor(options: SpaceOptions = {}) {
    this._settings = readSpaceOptions(options);
    this._islands = new Islands(this._events, () => this._planChanged(), this);
    this._contacts = new ContactManager(this._events, {
      wake: (b) => this._islands.wake(b),
      invalidateBody: (b) => this._invalidateBody(b),
      space: this,
    });
    this._queries = new SpaceQueries(this._contacts);
    this._pipeline = new StepPipeline({
      bodies: this._bodies,
      bodySlots: () => this._bodySlots,
      constraints: this._constraints,
      settings: this._settings,
      contacts: this._contacts,
      islands: this._islands,
      bodyStates: this._bodyStates,
      breakConstraint: (c, reason) => this._breakConstraint(c, reason),
    });
    this._workersReady = this._startWorkers(this._settings.workers);
  }

  // ------------------------------------------------------------------ workers (the parallel step)

  /** Body slots (Body._slot) handed out so far, and those given back by removed bodies. */
  private _bodySlots = 0;
  private readonly _freeBodySlots: number[] = [];
  /** The bodies' states (pose and velocity), each at its slot. */
  private readonly _bodyStates = new BodyStates();

  private _workerPool: WorkerPool | null = null;
  private _parallel: ParallelStatus = { requested: 0, workers: 0, reason: null };
  private _workersReady: Promise<ParallelStatus> = Promise.resolve(this._parallel);
  /** Bumped by every change of workers: a start that a later change overtook ends its pool. */
  private _workersEpoch = 0;

  /**
   * Worker threads that solve this space's steps beside the calling thread (SpaceOptions.workers).
   * Setting it ends the running workers and starts that many (asynchronously: `workersReady`);
   * the space steps on the calling thread meanwhile, with bitwise the same result. Rejected
   * during a step.
   */
  get workers(): number {
    return this._parallel.requested;
  }
  set workers(n: number) {
    checkInteger('Space', 'workers', n, 0, 256);
    this._assertUnlocked('Space.workers');
    this._workersReady = this._startWorkers(n);
  }

  /**
   * Settles once the workers asked for run, or once it is known that they cannot (then
   * `parallel.reason` says why). Never rejects. The space steps meanwhile, on the calling thread,
   * with bitwise the same result.
   */
  get workersReady(): Promise<ParallelStatus> {
    return this._workersReady;
  }

  /**
   * How many workers solve this space's steps, of how many were asked for, and why fewer run when
   * fewer do: at most one fewer than the machine's cores start (the calling thread takes a share).
   */
  get parallel(): ParallelStatus {
    return this._parallel;
  }

  private _startWorkers(requested: number): Promise<ParallelStatus> {
    const epoch = ++this._workersEpoch;
    this._pipeline.attach(null);
    this._workerPool?.dispose();
    this._workerPool = null;
    this._parallel = { requested, workers: 0, reason: null };
    if (requested === 0) return Promise.resolve(this._parallel);
    const unavailable = parallelUnavailable();
    if (unavailable !== null) {
      this._parallel = { requested, workers: 0, reason: unavailable };
      return Promise.resolve(this._parallel);
    }
    const { count, reason } = workersToStart(requested);
    if (count === 0) {
      this._parallel = { requested, workers: 0, reason };
      return Promise.resolve(this._parallel);
    }
    this._bodyStates.share();
    const views = this._pipeline.share();
    return WorkerPool.start(count, views).then(
      (pool) => {
        if (epoch !== this._workersEpoch) {
          pool.dispose();
          return this._parallel;
        }
        this._workerPool = pool;
        this._pipeline.attach(pool);
        this._parallel = { requested, workers: count, reason };
        return this._parallel;
      },
      (e: unknown) => {
        if (epoch === this._workersEpoch) this._parallel = { requested, workers: 0, reason: `a worker failed to start: ${e instanceof Error ? e.message : String(e)}` };
        return this._parallel;
      },
    );
  }

  /**
   * A pool that lost a worker (it ended or crashed between steps, or never reached a barrier in
   * one) is ended: the space steps on the calling thread, with the same bits, and `parallel`
   * says why.
   */
  private _checkWorkers(): void {
    const pool = this._workerPool;
    if (pool === null || pool.broken === null) return;
    pool.dispose();
    this._workerPool = null;
    this._pipeline.attach(null);
    this._parallel = { requested: this._parallel.requested, workers: 0, reason: pool.broken };
    this._workersReady = Promise.resolve(this._parallel);
  }

  /**
   * End this space's workers. The space goes on stepping on the calling thread, with the same
   * result (`workers` can start them again). Rejected during a step.
   */
  dispose(): void {
    if (this._locked) throw new FulcrumInputError('Space.dispose() cannot be called while the space is stepping', { owner: 'Space', prop: 'dispose' });
    this._workersEpoch++; // a start still under way ends its pool when it resolves
    this._pipeline.attach(null);
    this._workerPool?.dispose();
    this._workerPool = null;
    if (this._parallel.requested > 0) this._parallel = { requested: this._parallel.requested, workers: 0, reason: 'the space was disposed' };
    this._workersReady = Promise.resolve(this._parallel);
  }

  // ------------------------------------------------------------------ settings

  get gravity(): Vec2 {
    return { x: this._settings.gx, y: this._settings.gy };
  }
  set gravity(v: Vec2Like) {
    const g = checkVec2('Space', 'gravity', v);
    this._assertUnlocked('Space.gravity');
    this._settings.gx = g.x;
    this._settings.gy = g.y;
    this.wakeAll();
  }
  get sleepDelay(): number {
    return this._settings.sleepDelay;
  }
  set sleepDelay(v: number) {
    this._assertUnlocked('Space.sleepDelay');
    this._settings.sleepDelay = checkNonNegative('Space', 'sleepDelay', v);
  }
  get sleepThreshold(): number {
    return this._settings.sleepThreshold;
  }
  set sleepThreshold(v: number) {
    this._assertUnlocked('Space.sleepThreshold');
    this._settings.sleepThreshold = checkNonNegative('Space', 'sleepThreshold', v);
  }
  get allowSleep(): boolean {
    return this._settings.allowSleep;
  }
  set allowSleep(v: boolean) {
    this._assertUnlocked('Space.allowSleep');
    this._settings.allowSleep = checkBoolean('Space', 'allowSleep', v);
    if (!v) this.wakeAll();
  }
  get jointIterations(): number {
    return this._settings.jointIterations;
  }
  set jointIterations(v: number) {
    this._assertUnlocked('Space.jointIterations');
    this._settings.jointIterations = checkInteger('Space', 'jointIterations', v, 1, 1000);
  }
  get jointHertz(): number {
    return this._settings.jointHertz;
  }
  set jointHertz(v: number) {
    this._assertUnlocked('Space.jointHertz');
    this._settings.jointHertz = checkNonNegative('Space', 'jointHertz', v);
  }
  /** See SpaceOptions.maxLinearSpeed. */
  get maxLinearSpeed(): number {
    return this._settings.maxLinearSpeed;
  }
  set maxLinearSpeed(v: number) {
    this._assertUnlocked('Space.maxLinearSpeed');
    this._settings.maxLinearSpeed = checkPositiveOrInfinity('Space', 'maxLinearSpeed', v);
  }
  /** See SpaceOptions.maxRotationPerSubstep. */
  get maxRotationPerSubstep(): number {
    return this._settings.maxRotationPerSubstep;
  }
  set maxRotationPerSubstep(v: number) {
    this._assertUnlocked('Space.maxRotationPerSubstep');
    this._settings.maxRotationPerSubstep = checkPositiveOrInfinity('Space', 'maxRotationPerSubstep', v);
  }
  get jointDampingRatio(): number {
    return this._settings.jointDamping;
  }
  set jointDampingRatio(v: number) {
    this._assertUnlocked('Space.jointDampingRatio');
    this._settings.jointDamping = checkNonNegative('Space', 'jointDampingRatio', v);
  }

  /** See SpaceOptions.checkUserConstraints. Turning it on checks every user constraint before the next step. */
  get checkUserConstraints(): boolean {
    return this._settings.checkUserConstraints;
  }
  set checkUserConstraints(v: boolean) {
    this._assertUnlocked('Space.checkUserConstraints');
    this._settings.checkUserConstraints = checkBoolean('Space', 'checkUserConstraints', v);
    this._constraintsValid = false;
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
    return this._contacts.contacts.length;
  }

  // ------------------------------------------------------------------ events

  /** Subscribe to an event; returns the unsubscribe function. */
  on<K extends SpaceEventType>(type: K, handler: SpaceEventHandler<K>): () => void {
    if (!this._events.isEventType(type)) fail('Space', 'on(type)', type, "must be 'beginContact', 'endContact', 'contactForce', 'sleep', 'wake' or 'constraintBreak'");
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
    body._slot = this._freeBodySlots.pop() ?? this._bodySlots++;
    this._bodyStates.adopt(body);
    this._bodies.push(body);
    // (Which bodies a step gathers changed: space/steady-gather.ts relies on the stamp for it.)
    this._planChanged();
    for (const s of body._shapes) this._contacts.addProxy(body, s);
    return body;
  }

  removeBody(body: Body): void {
    if (!(body instanceof Body)) fail('Space', 'removeBody(body)', body, 'must be a Body');
    this._assertUnlocked('Space.removeBody');
    if (body._space !== this) fail('Space', 'removeBody(body)', `Body#${body.id}`, 'is not in this space');
    this._constraintsValid = false;
    this._invalidateBody(body);
    for (const s of body._shapes) this._contacts.removeProxy(s);
    const i = this._bodies.indexOf(body);
    this._bodies.splice(i, 1);
    this._bodyStates.release(body);
    this._freeBodySlots.push(body._slot);
    body._slot = -1;
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
    this._detachConstraint(c);
  }

  /** @internal A constraint's bodies are about to change (called by joints). */
  _constraintBodiesChanging(c: Constraint): void {
    this._invalidateConstraint(c);
    this._unlinkConstraint(c);
    if (c._ignore) this._contacts.touchBodies(c.bodies);
  }
  /** @internal A constraint's bodies changed (called by joints). */
  _constraintBodiesChanged(c: Constraint): void {
    this._constraintsValid = false;
    this._linkConstraint(c);
    this._invalidateConstraint(c);
  }

  private _linkConstraint(c: Constraint): void {
    for (const b of c.bodies) (b._constraints as Constraint[]).push(c);
    if (c._ignore) this._contacts.destroyIgnoredContacts(c);
  }
  private _unlinkConstraint(c: Constraint): void {
    for (const b of c.bodies) {
      const list = b._constraints as Constraint[];
      const i = list.indexOf(c);
      if (i >= 0) list.splice(i, 1);
    }
  }
  /** Take a constraint out of the space (removed, or broken with removeOnBreak). */
  private _detachConstraint(c: Constraint): void {
    this._unlinkConstraint(c);
    this._constraints.splice(this._constraints.indexOf(c), 1);
    c._space = null;
    c.clearCache();
    if (c._ignore) this._contacts.touchBodies(c.bodies);
  }

  // ------------------------------------------------------------------ stepping

  /**
   * Advance the simulation by dt seconds (the stages are listed in step.ts).
   * @param velocityIterations substeps per step (default 4): each substep integrates, warm
   *   starts, solves, moves bodies and relaxes.
   * @param positionIterations position passes after the substeps (default 2): stiff joints
   *   project out their remaining error by moving positions directly (Nape's position passes).
   */
  step(dt: number, velocityIterations = 4, positionIterations = 2): void {
    if (typeof dt !== 'number' || !Number.isFinite(dt) || dt <= 0) fail('Space', 'step(dt)', dt, 'must be a positive finite number of seconds');
    checkInteger('Space', 'step(velocityIterations)', velocityIterations, 1, 1000);
    checkInteger('Space', 'step(positionIterations)', positionIterations, 0, 1000);
    if (this._locked) throw new FulcrumInputError('Space.step() cannot be called while the space is already stepping', { owner: 'Space' });
    this._validateConstraints();
    this._checkWorkers();
    this._locked = true;
    this._events.deferring = true;
    try {
      this._pipeline.run(dt, velocityIterations, positionIterations);
    } catch (e) {
      this._events.discardQueued();
      this._checkWorkers();
      throw e;
    } finally {
      this._locked = false;
      this._events.deferring = false;
    }
    this._time += dt;
    this._stepCount++;
    this._events.flush();
  }

  /**
   * Validate before locking, so a bad constraint leaves the space untouched and steppable.
   * Built-in joints only need it after a topology change; user validate() hooks run every step.
   */
  private _validateConstraints(): void {
    if (!this._constraintsValid) {
      const every = this._validatedEveryStep;
      every.length = 0;
      const check = this._settings.checkUserConstraints;
      for (const c of this._constraints) {
        if (c._validatesEveryStep()) every.push(c);
        if (!c._active) continue;
        c._validateForStep(this);
        if (!check) continue;
        // The check calls the user's hooks: a hook that changes the space is rejected here too.
        this._locked = true;
        try {
          c._checkDerivatives();
        } finally {
          this._locked = false;
        }
      }
    } else {
      for (const c of this._validatedEveryStep) if (c._active) c._validateForStep(this);
    }
    this._constraintsValid = true;
  }

  /** Nape's break sequence: broken() hook, event, then remove (removeOnBreak) or deactivate. */
  private _breakConstraint(c: Constraint, reason: BreakReason): void {
    c._broken();
    if (this._events.has('constraintBreak')) this._events.emit({ type: 'constraintBreak', constraint: c, reason });
    this._invalidateConstraint(c);
    if (c._removeOnBreak) {
      this._detachConstraint(c);
    } else {
      c._active = false;
      c.clearCache();
    }
  }

  // ------------------------------------------------------------------ BodySpaceLink

  /** @internal */
  _assertUnlocked(what: string): void {
    if (this._locked) {
      // `what` is "Owner.prop" (Body.position, PivotJoint.active) or "Owner something" (PivotJoint body).
      const dot = /^(\w+)\.(\w+)$/.exec(what);
      throw new FulcrumInputError(
        `${what} cannot be changed while the space is stepping (called from inside a constraint hook?); ` +
          'change it from an event handler or between steps',
        dot ? { owner: dot[1]!, prop: dot[2]! } : { owner: /^\w+/.exec(what)?.[0] ?? 'Space' },
      );
    }
  }

  /** Anything that decides the step plan changed. */
  private _planChanged(): void {
    this._pipeline.plan.stamp++;
  }

  /** @internal The single wake path for bodies. */
  _invalidateBody(body: Body): void {
    if (body._space !== this) return;
    this._planChanged();
    if (body._sleeping) this._islands.wake(body);
    body._sleepTime = 0;
    if (body._type !== 'dynamic') {
      // A static or kinematic body changed: what rests on it must re-evaluate.
      for (const c of body._contacts as Contact[]) {
        const other = c.bodyA === body ? c.bodyB : c.bodyA;
        if (other._sleeping) this._islands.wake(other);
        other._sleepTime = 0;
      }
    }
  }

  /**
   * The pre-solve callback (Nape's PreListener), or null: called during each step, once for each
   * touching solid contact with an awake body, before it is solved, in the order of the space's
   * contacts. It may read the contact (shapes, normal, points), set its friction, restitution and
   * tangentSpeed for this step on, and return a PreSolveFlag: 'ignoreOnce' to leave the contact
   * out of this step, 'ignore' to leave it out while it touches (a one-way platform), 'accept' to
   * keep it and not be asked again while it touches, 'acceptOnce' or nothing to keep it for this
   * step. It may not change the space (the space is stepping). A throw, or another return value,
   * fails the step and leaves the space as it was. Setting it (null too) forgets every contact's
   * earlier answer.
   */
  get preSolve(): PreSolveCallback | null {
    return this._contacts.preSolve;
  }
  set preSolve(cb: PreSolveCallback | null) {
    if (cb !== null && typeof cb !== 'function') fail('Space', 'preSolve', cb, 'must be a function (contact) => flag, or null');
    this._assertUnlocked('Space.preSolve');
    this._contacts.preSolve = cb;
  }

  /** @internal */
  _bodyTypeChanged(body: Body): void {
    this._contacts.bodyTypeChanged(body);
  }

  /** @internal */
  _assertContactMutable(what: string): void {
    if (this._locked && !this._contacts.inPreSolve) {
      const prop = what.replace(/^\w+\./, '');
      throw new FulcrumInputError(`${what} cannot be changed while the space is stepping, but from its preSolve callback`, { owner: 'Contact', prop });
    }
  }

  /** @internal Body.sleep(): the body's island sleeps now. */
  _sleepBody(body: Body): void {
    const no = (why: string): never => {
      throw new FulcrumInputError(`Body.sleep(): Body#${body.id} cannot sleep: ${why}`, { owner: 'Body', prop: 'sleep' });
    };
    if (!this._settings.allowSleep) no("the space's allowSleep is false");
    if (body._sleeping) return;
    const keeper = this._islands.sleepIslandOf(body, this._bodies, this._contacts.contacts, this._constraints);
    if (keeper !== null) no(`Body#${keeper.id}, in its island, has allowSleep false`);
  }

  /** @internal */
  _bodyTransformChanged(body: Body): void {
    if (body._space !== this) return;
    this._contacts.bodyMoved(body);
    this._invalidateBody(body);
  }

  /** @internal */
  _shapeAdded(body: Body, shape: Shape): void {
    this._contacts.addProxy(body, shape);
  }
  /** @internal */
  _shapeRemoved(body: Body, shape: Shape): void {
    void body;
    this._contacts.removeProxy(shape);
  }
  /** @internal */
  _shapeChanged(body: Body, shape: Shape, geometry: boolean): void {
    if (geometry) this._bodyTransformChanged(body);
    else this._contacts.shapeFilterChanged(shape);
  }

  // ------------------------------------------------------------------ ConstraintSpaceLink

  /** @internal */
  _invalidateConstraint(c: Constraint): void {
    this._planChanged();
    // Any constraint change (activation included) gets a full validation before the next step.
    this._constraintsValid = false;
    for (const b of c.bodies) this._invalidateBody(b);
  }
  /** @internal */
  _constraintIgnoreChanged(c: Constraint): void {
    if (c._ignore) this._contacts.destroyIgnoredContacts(c);
    else this._contacts.touchBodies(c.bodies);
  }

  // ------------------------------------------------------------------ sleeping

  /**
   * How many islands are awake: awake dynamic bodies, linked by a touching solid contact between
   * two of them or by an active constraint, the same rule by which islands fall asleep (static and
   * kinematic bodies join no island). 0 means the scene is at rest. A pass over the bodies,
   * contacts and constraints, for an overlay or a test; the solver does not need it.
   */
  countAwakeIslands(): number {
    return this._islands.countAwake(this._bodies, this._contacts.contacts, this._constraints);
  }

  /** Wake every sleeping body. */
  wakeAll(): void {
    for (const b of this._bodies) if (b._sleeping) this._islands.wake(b);
  }

  // ------------------------------------------------------------------ queries

  /** Shapes that contain the world point. */
  queryPoint(point: Vec2Like, options: QueryOptions = {}): Shape[] {
    return this._queries.queryPoint(point, options);
  }

  /** Shapes whose bounding box overlaps the box [min, max]. */
  queryAABB(min: Vec2Like, max: Vec2Like, options: QueryOptions = {}): Shape[] {
    return this._queries.queryAABB(min, max, options);
  }

  /** The closest shape hit by the segment from → to, or null. */
  rayCast(from: Vec2Like, to: Vec2Like, options: QueryOptions = {}): RayHit | null {
    return this._queries.rayCast(from, to, options, true)[0] ?? null;
  }

  /** Every shape hit by the segment from → to, nearest first. */
  rayCastAll(from: Vec2Like, to: Vec2Like, options: QueryOptions = {}): RayHit[] {
    return this._queries.rayCast(from, to, options, false);
  }

  /**
   * Nape's convexCast: move `shape` from `pose` by `translation` without turning, and return the
   * first shape it meets ({ shape, body, time, point, normal }: time the fraction of the
   * translation travelled, point on the hit shape's surface, normal the hit surface's, towards
   * the cast shape), or null. The shape need not be in the space: its geometry is its body's frame
   * (or its own offset and angle, without a body) placed at pose.position turned by
   * pose.rotation. Its own body's shapes are never hit, nor sensors unless includeSensors. A shape
   * it already touches is hit at time 0, unless the translation leads away from it. For moving a
   * character: cast, then move it by time·translation.
   */
  convexCast(shape: Shape, pose: CastPose, translation: Vec2Like, options: QueryOptions = {}): ConvexCastHit | null {
    return this._queries.convexCast(shape, pose, translation, options);
  }

  // ------------------------------------------------------------------ debug

  /** Describe the space to a DebugDraw sink (shapes, contacts, AABBs, constraints). */
  debugDraw(sink: DebugDraw, options: DebugDrawOptions = {}): void {
    checkDebugDrawOptions(options);
    this._contacts.flushInert();
    drawSpace(this, this._contacts.contacts, sink, options);
  }
}
