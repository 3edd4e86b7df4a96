/**
 * Struct-of-arrays body state for one step. Awake dynamic bodies and moving kinematic bodies
 * are gathered here at the start of a step and scattered back at the end. Index 0 is a dummy
 * body with zero velocity and zero inverse mass that stands in for every static or non-moving
 * body, so the solvers need no "is static" branch (Box2D v3's trick).
 *
 * Within a step, positions are tracked as deltas from the step's start (dp, dθ), as Box2D v3
 * does: contact anchors stay fixed and the current separation is recovered from the deltas.
 */
import type { Body } from '../body/body.js';
import { resized, shareArray, type GrowableArray } from '../util/typed-arrays.js';
import type { StageViews } from '../parallel/thread-runtime.js';
import type { WorkerPool } from '../parallel/worker-pool.js';
import { COMMAND, PARAMS } from '../parallel/control.js';
import { BODY_KERNELS, capSpeed, turnBody } from './body-kernels.js';

/**
 * Below this many solver bodies, integration runs on the calling thread alone: a stage's barrier
 * would cost more than the workers save (a body's integration is a few nanoseconds).
 */
export const PARALLEL_MIN_BODIES = 1024;

/**
 * A body is swept by continuous collision when its step is more than this share of its thinnest
 * shape (Box2D's 0.5): a wall's face cannot fall between two poses that overlap by more than the rest.
 */
export const FAST_SHARE = 0.5;

/** Turns below this (rad) are composed from series, not trigonometry (see SolverBodies.rotate). */
export const SMALL_TURN = 0.125;

export class SolverBodies {
  count = 1;
  capacity = 0;
  vx = new Float64Array(0);
  vy = new Float64Array(0);
  w = new Float64Array(0);
  dpx = new Float64Array(0);
  dpy = new Float64Array(0);
  /** Accumulated rotation and its cos/sin. */
  dq = new Float64Array(0);
  dqc = new Float64Array(0);
  dqs = new Float64Array(0);
  invMass = new Float64Array(0);
  invI = new Float64Array(0);
  /**
   * What a substep's velocity integration adds and multiplies by, fixed for the step (the substep
   * h is): h·(force·invMass + gravity·scale) (0 if pinned), h·torque·invI, and the drag factors
   * 1/(1 + h·drag). Computed once at gather rather than per substep: two divisions per body and
   * substep were about 3% of a 200-link chain's step.
   */
  dvx = new Float64Array(0);
  dvy = new Float64Array(0);
  dw = new Float64Array(0);
  linearDamp = new Float64Array(0);
  angularDamp = new Float64Array(0);
  /** 1 for dynamic bodies (integrated), 0 for kinematic bodies (constant velocity). */
  dynamic = new Uint8Array(0);
  /** 1 for a body whose spin the substep rotation cap slows (Body.rotationCapped). */
  spinCapped = new Uint8Array(0);
  /**
   * Continuous collision's test (space/continuous.ts), copied from the body as it is gathered so
   * that the test over every body reads no Body object: the most a body may move in a step without
   * a sweep (FAST_SHARE of its thinnest shape; Infinity for disableCCD or a kinematic body), and
   * its farthest point from its centre of mass.
   */
  ccdSlack = new Float64Array(0);
  reach = new Float64Array(0);
  /** 1 for a body continuous collision may sweep (dynamic, not disableCCD): set by add, for gather's ccdSlack. */
  swept = new Uint8Array(0);
  /** 1 for a bullet (Body.isBullet): swept against dynamic bodies too; bullets: how many. */
  bullet = new Uint8Array(0);
  bullets = 0;
  /** 1 for a body a speed cap slowed in this step (capSpeed); atCap[0]: whether any was (anyAtCap; step.ts, anti-windup). */
  atCap = new Uint8Array(0);
  /**
   * Each solver body's slot in its space (Body._slot), and its centre of mass in its own frame
   * (Body._lcx, _lcy): what write back (body-kernels.ts) needs to write the body's state.
   */
  bslot = new Int32Array(0);
  lcx = new Float64Array(0);
  lcy = new Float64Array(0);
  /**
   * Per solver body, for write back's loop on the calling thread (which then reads no Body but
   * those whose shapes it moves): 1 when a move must refresh its shapes (some pair with
   * something, or its inert ones are not yet marked stale; write back keeps it up to date as it
   * marks them); 1 when the body may sleep (Body.allowSleep).
   */
  shapeSync = new Uint8Array(0);
  sleepy = new Uint8Array(0);
  /** The space's body states (space/body-states.ts), which write back writes: set as the step gathers. */
  bstate: Float64Array = new Float64Array(0);
  /** World centre of mass at the start of the step. */
  cx = new Float64Array(0);
  cy = new Float64Array(0);
  /** Angle at the start of the step, and its cos/sin (so finalising needs no trigonometry). */
  a0 = new Float64Array(0);
  c0 = new Float64Array(0);
  s0 = new Float64Array(0);
  /**
   * A Body written before write back (by keepBody, for a hook that reads Body objects: UserConstraint
   * with packedState: false) first has its own origin and velocity kept here (with a0, c0 and s0,
   * every field writeState writes), so that a step that throws puts them back (restoreBodies).
   * Kept only for the bodies written, so a step of other scenes pays nothing.
   */
  x0 = new Float64Array(0);
  y0 = new Float64Array(0);
  vx0 = new Float64Array(0);
  vy0 = new Float64Array(0);
  w0 = new Float64Array(0);
  private kept = new Uint8Array(0);
  private keptList: number[] = [];
  readonly bodies: (Body | null)[] = [null];

  constructor() {
    this.reserve(64);
    this.reset();
  }

  /** The state a parallel stage writes, moved into SharedArrayBuffers (it stays shared as it grows). */
  share(): void {
    this.vx = shareArray(this.vx);
    this.vy = shareArray(this.vy);
    this.w = shareArray(this.w);
    this.dpx = shareArray(this.dpx);
    this.dpy = shareArray(this.dpy);
    this.dq = shareArray(this.dq);
    this.c0 = shareArray(this.c0);
    this.dvx = shareArray(this.dvx);
    this.dvy = shareArray(this.dvy);
    this.dw = shareArray(this.dw);
    this.linearDamp = shareArray(this.linearDamp);
    this.angularDamp = shareArray(this.angularDamp);
    this.dynamic = shareArray(this.dynamic);
    this.spinCapped = shareArray(this.spinCapped);
    this.atCap = shareArray(this.atCap);
    this.s0 = shareArray(this.s0);
    this.invMass = shareArray(this.invMass);
    this.invI = shareArray(this.invI);
    this.cx = shareArray(this.cx);
    this.cy = shareArray(this.cy);
    this.dqc = shareArray(this.dqc);
    this.dqs = shareArray(this.dqs);
    this.a0 = shareArray(this.a0);
    this.bslot = shareArray(this.bslot);
    this.lcx = shareArray(this.lcx);
    this.lcy = shareArray(this.lcy);
    this.ccdSlack = shareArray(this.ccdSlack);
    this.reach = shareArray(this.reach);
    this.swept = shareArray(this.swept);
  }

  /** The arrays of `v` that are this state (their current ones: an array that grew is new). */
  writeViews(v: StageViews): void {
    v.vx = this.vx;
    v.vy = this.vy;
    v.w = this.w;
    v.c0 = this.c0;
    v.dvx = this.dvx;
    v.dvy = this.dvy;
    v.dw = this.dw;
    v.linearDamp = this.linearDamp;
    v.angularDamp = this.angularDamp;
    v.dynamic = this.dynamic;
    v.spinCapped = this.spinCapped;
    v.atCap = this.atCap;
    v.s0 = this.s0;
    v.invMass = this.invMass;
    v.invI = this.invI;
    v.cx = this.cx;
    v.cy = this.cy;
    v.dpx = this.dpx;
    v.dpy = this.dpy;
    v.dq = this.dq;
    v.dqc = this.dqc;
    v.dqs = this.dqs;
    v.a0 = this.a0;
    v.bslot = this.bslot;
    v.lcx = this.lcx;
    v.lcy = this.lcy;
    v.bstate = this.bstate;
    v.ccdSlack = this.ccdSlack;
    v.reach = this.reach;
    v.swept = this.swept;
  }

  /** The first solver body whose velocity or position delta is not finite, or 0 when every one is. */
  firstNonFinite(): number {
    const { vx, vy, w, dpx, dpy, dq } = this;
    for (let k = 1; k < this.count; k++) {
      // One sum as the filter (finite whenever its terms are, short of overflowing near 1e308),
      // then each term.
      if (Number.isFinite(vx[k]! + vy[k]! + w[k]! + dpx[k]! + dpy[k]! + dq[k]!)) continue;
      if (!(Number.isFinite(vx[k]!) && Number.isFinite(vy[k]!) && Number.isFinite(w[k]!) && Number.isFinite(dpx[k]!) && Number.isFinite(dpy[k]!) && Number.isFinite(dq[k]!))) return k;
    }
    return 0;
  }

  /** No body written mid-step yet: restoreBodies puts back only what this step wrote. */
  forgetKept(): void {
    for (const i of this.keptList) this.kept[i] = 0;
    this.keptList.length = 0;
  }

  reset(): void {
    this.clearBodies();
    this.resetStandIn();
  }

  /** No body gathered. */
  clearBodies(): void {
    // Clear, don't truncate: a shortened array gives back its store, and refilling it every step
    // reallocated it several times (a quarter of a megabyte per step for 10,000 bodies).
    for (let i = 1; i < this.count; i++) this.bodies[i] = null;
    this.count = 1;
    this.bullets = 0;
  }

  /** Index 0 as a step starts: what a step writes there (atCap[0], "some body was capped") cleared. */
  private resetStandIn(): void {
    this.forgetKept();
    // Dummy static body: identity everything, zero mass.
    this.vx[0] = this.vy[0] = this.w[0] = 0;
    this.dpx[0] = this.dpy[0] = this.dq[0] = 0;
    this.dqc[0] = 1;
    this.dqs[0] = 0;
    this.invMass[0] = this.invI[0] = 0;
    this.dynamic[0] = 0;
    this.spinCapped[0] = 0;
    this.atCap[0] = 0;
  }

  reserve(n: number): void {
    if (n <= this.capacity) return;
    let cap = Math.max(64, this.capacity);
    while (cap < n) cap *= 2;
    const grow = <T extends GrowableArray>(a: T): T => resized(a, cap);
    this.vx = grow(this.vx);
    this.vy = grow(this.vy);
    this.w = grow(this.w);
    this.dpx = grow(this.dpx);
    this.dpy = grow(this.dpy);
    this.dq = grow(this.dq);
    this.dqc = grow(this.dqc);
    this.dqs = grow(this.dqs);
    this.invMass = grow(this.invMass);
    this.invI = grow(this.invI);
    this.dvx = grow(this.dvx);
    this.dvy = grow(this.dvy);
    this.dw = grow(this.dw);
    this.linearDamp = grow(this.linearDamp);
    this.angularDamp = grow(this.angularDamp);
    this.dynamic = grow(this.dynamic);
    this.spinCapped = grow(this.spinCapped);
    this.atCap = grow(this.atCap);
    this.ccdSlack = grow(this.ccdSlack);
    this.reach = grow(this.reach);
    this.swept = grow(this.swept);
    this.bullet = grow(this.bullet);
    this.cx = grow(this.cx);
    this.cy = grow(this.cy);
    this.a0 = grow(this.a0);
    this.bslot = grow(this.bslot);
    this.shapeSync = grow(this.shapeSync);
    this.sleepy = grow(this.sleepy);
    this.lcx = grow(this.lcx);
    this.lcy = grow(this.lcy);
    this.c0 = grow(this.c0);
    this.s0 = grow(this.s0);
    this.x0 = grow(this.x0);
    this.y0 = grow(this.y0);
    this.vx0 = grow(this.vx0);
    this.vy0 = grow(this.vy0);
    this.w0 = grow(this.w0);
    this.kept = grow(this.kept);
    this.capacity = cap;
  }

  /** The gathering step's gravity and substep length (begin), which gatherStates hands its kernel. */
  private gx = 0;
  private gy = 0;
  private h = 0;

  /**
   * Start gathering the bodies of a step with gravity (gx, gy) and substep h, whose states are in
   * `states` (the space's BodyStates array): clearBodies and add each body (or keep the last
   * step's: space/steady-gather.ts), then gatherStates. Returns false when the last step's choice
   * of bodies is lost (bySlot grew).
   */
  begin(gx: number, gy: number, h: number, bodySlots: number, states: Float64Array): boolean {
    this.resetStandIn();
    this.bstate = states;
    this.gx = gx;
    this.gy = gy;
    this.h = h;
    if (this.bySlot.length >= bodySlots) return true;
    this.bySlot = new Int32Array(Math.max(bodySlots, 2 * this.bySlot.length));
    return false;
  }

  /**
   * Each body's solver index by its slot in the space (Body._slot), −1 for a body outside the
   * solver: written as the step gathers its bodies, for the passes that name bodies by slot
   * (the contact solver's preparation, from the contact store).
   */
  bySlot = new Int32Array(0);

  /**
   * Gather one body for the step begun: its solver index (returned) and the flags read from the
   * Body's own fields (those steady-gather.ts may keep for the next step). Its numbers follow in
   * gatherStates, once every body is added.
   */
  add(b: Body): number {
    const i = this.count++;
    if (i >= this.capacity) this.reserve(i + 1);
    this.bodies[i] = b;
    const dyn = b._type === 'dynamic';
    this.dynamic[i] = dyn ? 1 : 0;
    this.spinCapped[i] = b.rotationCapped ? 1 : 0;
    this.swept[i] = dyn && !b._disableCCD ? 1 : 0;
    this.bullet[i] = b._isBullet ? 1 : 0;
    if (b._isBullet) this.bullets++;
    this.bslot[i] = b._slot;
    this.shapeSync[i] = b._pairingShapes > 0 || !b._inertStale ? 1 : 0;
    this.sleepy[i] = b._allowSleep ? 1 : 0;
    b._solverIndex = i;
    this.bySlot[b._slot] = i;
    return i;
  }

  /** The gathering step's gravity and substep (PARAMS' GRAVITY_X, GRAVITY_Y and H) for gather's kernel when no worker shares the stage. */
  private readonly gatherNumbers = new Float64Array(PARAMS.LENGTH);

  /**
   * Every added body's numbers from the space's body states into the solver arrays (gather's
   * kernel, body-kernels.ts): on every thread when there are workers and bodies enough.
   */
  gatherStates(): void {
    const pool = this.pool;
    const prm = pool !== null && this.count >= PARALLEL_MIN_BODIES ? pool.prm : this.gatherNumbers;
    prm[PARAMS.H] = this.h;
    prm[PARAMS.GRAVITY_X] = this.gx;
    prm[PARAMS.GRAVITY_Y] = this.gy;
    const from = this.parallelStage(COMMAND.BODY_GATHER);
    BODY_KERNELS.gather(this, prm, from, this.count);
  }

  /** Body i is about to be written before write back: keep its state from the start of the step, once. */
  keepBody(i: number): void {
    if (this.kept[i] === 1) return;
    this.kept[i] = 1;
    this.keptList.push(i);
    const b = this.bodies[i]!;
    this.x0[i] = b._x;
    this.y0[i] = b._y;
    this.vx0[i] = b._vx;
    this.vy0[i] = b._vy;
    this.w0[i] = b._w;
  }

  /** writeState before write back (a hook reads the Body): the Body's own state is kept first. */
  writeStateMidStep(i: number): void {
    this.keepBody(i);
    this.writeState(i);
  }

  /** Every Body written before write back, back to its state at the start of the step (a step that throws). */
  restoreBodies(): void {
    for (const i of this.keptList) {
      const b = this.bodies[i]!;
      b._vx = this.vx0[i]!;
      b._vy = this.vy0[i]!;
      b._w = this.w0[i]!;
      b._x = this.x0[i]!;
      b._y = this.y0[i]!;
      b._angle = this.a0[i]!;
      b._c = this.c0[i]!;
      b._s = this.s0[i]!;
    }
  }

  /**
   * Write body i's current solver state (velocity and pose) into its Body (write back's kernel,
   * body-kernels.ts, for the one body).
   */
  writeState(i: number): void {
    BODY_KERNELS.writeBack(this, i, i + 1);
  }

  /**
   * Every solver body's state into the space's body states (write back, stage 12): on every thread
   * when there are workers and bodies enough. If the workers fail it (one lost or hung), the
   * calling thread writes every body itself: each one's numbers come from the solver arrays alone,
   * so writing them again gives the same bits, and the step stands.
   */
  writeBack(): void {
    const pool = this.pool;
    if (pool !== null && this.count >= PARALLEL_MIN_BODIES) {
      this.writeViews(pool.views);
      try {
        pool.runRange(COMMAND.BODY_WRITE_BACK, 1, this.count);
        return;
      } catch {
        // (The pool is broken and ended: the space goes on alone, and says why.)
      }
    }
    BODY_KERNELS.writeBack(this, 1, this.count);
  }

  /** Substep velocity integration (body-kernels.ts): on every thread when there are workers and bodies enough. */
  integrateVelocities(): void {
    const from = this.parallelStage(COMMAND.BODY_VELOCITIES);
    BODY_KERNELS.integrateVelocities(this.vx, this.vy, this.w, this.dvx, this.dvy, this.dw, this.linearDamp, this.angularDamp, this.dynamic, from, this.count);
  }

  /** The stage's numbers (PARAMS) integratePositions hands its kernel when no worker shares the stage (the pool's own otherwise). */
  private readonly stageNumbers = new Float64Array(PARAMS.LENGTH);

  /** Substep position integration, each body first slowed to the speed caps (body-kernels.ts): on every thread when there are workers and bodies enough. */
  integratePositions(h: number, maxSpeed: number, maxTurn: number): void {
    const pool = this.pool;
    const prm = pool !== null && this.count >= PARALLEL_MIN_BODIES ? pool.prm : this.stageNumbers;
    prm[PARAMS.H] = h;
    prm[PARAMS.MAX_SPEED] = maxSpeed;
    prm[PARAMS.MAX_SPIN] = maxTurn / h;
    const from = this.parallelStage(COMMAND.BODY_POSITIONS);
    BODY_KERNELS.integratePositions(this.vx, this.vy, this.w, this.dpx, this.dpy, this.dq, this.dqc, this.dqs, this.invMass, this.spinCapped, this.atCap, prm, from, this.count);
  }

  /** Whether a speed cap slowed some body in this step (capSpeed marks atCap[0], the static stand-in's, for "some body"). */
  get anyAtCap(): boolean {
    return this.atCap[0] === 1;
  }

  /** The workers (parallel/worker-pool.ts), or null: every body on the calling thread. */
  private pool: WorkerPool | null = null;

  /** Integrate with these workers from now on (null: alone). The arrays must have been shared. */
  attach(pool: WorkerPool | null): void {
    this.pool = pool;
  }


  /**
   * Run an integration stage on every thread when there are workers and bodies enough, and return
   * where the calling thread goes on alone: count, or 1 (every body).
   */
  private parallelStage(command: number): number {
    const pool = this.pool;
    if (pool === null || this.count < PARALLEL_MIN_BODIES) return 1;
    this.writeViews(pool.views);
    pool.runRange(command, 1, this.count);
    return this.count;
  }

  /** Every body slowed to the speed caps (after a step's last relax pass and bounces, which may exceed them). */
  capSpeeds(h: number, maxSpeed: number, maxTurn: number): void {
    const maxSpin = maxTurn / h;
    for (let i = 1, n = this.count; i < n; i++) this.capSpeed(i, maxSpeed, maxSpin);
  }

  /**
   * Body i slowed to maxSpeed (m/s) and maxSpin (rad/s), as Box2D v3 does (SpaceOptions.maxLinearSpeed
   * and maxRotationPerSubstep). Some valid scenes have no bounded motion (a bead free on a rod that
   * a kinematic body spins goes as cosh(ωt); a driver pulling a chain through the ground), and a
   * spin of more than a fraction of a turn per substep breaks the substep's linearisation; the caps
   * keep both finite. Only what the solver can change is capped: a body of infinite mass keeps the
   * velocity it was given, one of infinite inertia (or allowFastRotation) its spin.
   */
  private capSpeed(i: number, maxSpeed: number, maxSpin: number): void {
    capSpeed(this.vx, this.vy, this.w, this.invMass, this.spinCapped, this.atCap, i, maxSpeed, maxSpin);
  }


  /**
   * Turn body i by da: dq += da, and (dqc, dqs) follow. A small turn (|da| < SMALL_TURN = 1/8,
   * the usual case in substeps and position passes: 30 rad/s at 240 Hz) composes the rotation
   * with cos/sin of da from their Taylor series to the da¹⁰ and da¹¹ terms (the first term left
   * out is below 3e-20, under round-off), much cheaper than trigonometry. The series are summed
   * in pairs of terms times powers of da⁴ (Estrin's scheme) with the coefficients as products, not
   * divisions: a chain's position pass waits on each turn before the next joint, and this takes
   * about half the dependent operations of nested (Horner) form. A larger turn recomputes
   * cos/sin of the accumulated angle. The composition's round-off (~1e-16 per turn) is of the same
   * order as the trigonometry's.
   */
  rotate(i: number, da: number): void {
    turnBody(this.dq, this.dqc, this.dqs, i, da);
  }

}
