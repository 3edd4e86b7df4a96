/**
 * What every thread of a parallel step runs, the calling one and each worker alike: the barrier,
 * and a stage over the colours of a family's rows (space/graph-colouring.ts): the contact
 * solver's, the joint batch's stiff pivots (constraint/pivot-kernels.ts), or the user batch's
 * rows (constraint/user-kernels.ts). A factory
 * that refers to nothing outside its parameters, so that a worker is built from its text
 * (worker-program.ts), and the calling thread runs the same code.
 *
 *   stage    for each colour with rows, in colour order: this thread's part of the colour's rows,
 *            then the barrier. A large colour's rows go in chunks, each claimed by whichever
 *            thread comes for it (a counter per colour, Atomics.add), so that a thread that runs
 *            late takes fewer rather than holding the others at the barrier; a small colour's in
 *            even shares. The rows of a colour touch disjoint bodies, so any split gives the same
 *            bits. The overflow is not a stage's: the calling thread solves it alone, after
 *            (worker-pool.ts).
 *   barrier  a counter and a generation in the control block (Atomics): the last thread to arrive
 *            resets the counter and moves the generation on; the others spin on the generation,
 *            then wait (Atomics.wait), where the thread may block: a worker, or Node's main thread.
 *            The browser's main thread may not, so it only spins.
 *   failure  a kernel that throws marks the control block (FAILED) and its thread goes on
 *            arriving at the stage's barriers without work, so that no thread is left waiting; the
 *            calling thread then fails the step (worker-pool.ts), which rolls it back.
 *   stall    a thread that never arrives (a worker terminated, or crashed, mid-step) would leave
 *            the others waiting for ever: the calling thread gives up after `stallMs` without a
 *            barrier passing, and throws; its pool then ends every worker (worker-pool.ts).
 *
 * The control block's slots are literals here, matching parallel/control.ts (checked by
 * thread-runtime.test.ts).
 */
import type { ContactKernels } from '../contact/contact-kernels.js';
import type { PivotKernels } from '../constraint/pivot-kernels.js';
import type { BodyKernels } from '../space/body-kernels.js';
import type { CollideKernels } from '../collision/collide-kernels.js';
import type { UserKernels, UserRowViews } from '../constraint/user-kernels.js';
import type { UserBatchKernelSource, UserPoseKernels, UserPoseViews } from '../constraint/user-pose-kernels.js';

/**
 * The arrays a stage reads and writes, all shared: the contact solver's rows, the joint batch's
 * (p…), the user batch's (u…), and the solver bodies' state.
 */
export interface StageViews extends UserRowViews, UserPoseViews {
  d: Float64Array;
  ends: Int32Array;
  points: Uint8Array;
  rigidSide: Uint8Array;
  /** The contact rows' approach speeds (2 per row), restitutions, and a side outside the solver's centre (2 per row). */
  approach: Float64Array;
  bounce: Float64Array;
  centre: Float64Array;
  /** The contact store's (contact/contact-store.ts): what the contact rows are prepared from. */
  snx: Float64Array;
  sny: Float64Array;
  sfriction: Float64Array;
  srestitution: Float64Array;
  stangentSpeed: Float64Array;
  spointCount: Uint8Array;
  spx: Float64Array;
  spy: Float64Array;
  sseparation: Float64Array;
  snormalImpulse: Float64Array;
  stangentImpulse: Float64Array;
  sid: Int32Array;
  stotalNormalImpulse: Float64Array;
  stotalTangentImpulse: Float64Array;
  /** The narrowphase's: the space's polygon geometry pool (collision/geometry-pool.ts), and its jobs (slot, block A, block B). */
  geo: Float64Array;
  njobs: Int32Array;
  pd: Float64Array;
  pcold: Float64Array;
  pkept: Float64Array;
  pends: Int32Array;
  psoft: Uint8Array;
  vx: Float64Array;
  vy: Float64Array;
  w: Float64Array;
  c0: Float64Array;
  dvx: Float64Array;
  dvy: Float64Array;
  dw: Float64Array;
  linearDamp: Float64Array;
  angularDamp: Float64Array;
  dynamic: Uint8Array;
  spinCapped: Uint8Array;
  atCap: Uint8Array;
  s0: Float64Array;
  invMass: Float64Array;
  invI: Float64Array;
  cx: Float64Array;
  cy: Float64Array;
  dpx: Float64Array;
  dpy: Float64Array;
  dq: Float64Array;
  dqc: Float64Array;
  dqs: Float64Array;
  a0: Float64Array;
}

/** The kernels a stage runs: every family's that has them. */
export interface StageKernels {
  contact: ContactKernels;
  pivot: PivotKernels;
  body: BodyKernels;
  collide: CollideKernels;
  user: UserKernels;
  userPose: UserPoseKernels;
}

export function threadRuntime(kernels: StageKernels, ctl: Int32Array, prm: Float64Array, thread: number, canWait: boolean, stallMs: number) {
  // Slots and commands of parallel/control.ts.
  const BAR_COUNT = 2, BAR_GEN = 3, FAILED = 5, THREADS = 6, STARTS = 7, SPIN = 32, CLAIMS = 40, COLOURS = 24;
  /** The rows from which a colour is shared in claimed chunks rather than even shares (see stage). */
  const CLAIM_MIN_ROWS = 1024;
  const INV_H = 0, MAX_BIAS = 1, SOFT = 2, USER = 12, USER_POSE = 18;
  const CONTACT_WARM_START = 1, CONTACT_SOLVE = 2, PIVOT_WARM_START = 4, PIVOT_SOLVE = 5, PIVOT_POSITION = 6, CONTACT_PREPARE = 7, PIVOT_NEXT_SUBSTEP = 8, PIVOT_REFRESH = 11, BODY_VELOCITIES = 12, BODY_POSITIONS = 13, NARROWPHASE = 14, USER_WARM_START = 15, USER_NEXT_SUBSTEP = 16, USER_SOLVE = 17, USER_POSE_STATES = 18, USER_POSE_GROUP = 19, USER_POSE_FACTOR = 20, CONTACT_STORE = 21;
  const contact = kernels.contact;
  const pivot = kernels.pivot;
  const body = kernels.body;
  const collide = kernels.collide;
  const user = kernels.user;
  const userPose = kernels.userPose;
  /**
   * How long (ms) a thread that may block spins at a barrier before it waits: a colour lasts
   * microseconds, and a wait's wake-up costs tens of them (more on a virtual machine).
   */
  const SPIN_MS = 0.2;
  const soft = prm.subarray(SOFT, SOFT + 6);
  /** A user-batch pass's numbers (user-kernels.ts, USER_PASS). */
  const userPass = prm.subarray(USER, USER + 6);
  /**
   * The user batch's bulk kernels, compiled on this thread from their text (UserBatchKernel.source),
   * by jacobian text, then position text. Every thread compiles the same text, so every thread
   * computes the same bits.
   */
  const bulkKernels = new Map<string, Map<string, { jacobian: (from: number, to: number, a: unknown) => void; position: (from: number, to: number, a: unknown) => void }>>();
  function bulkKernel(source: UserBatchKernelSource) {
    let byPosition = bulkKernels.get(source.jacobian);
    if (byPosition === undefined) {
      // (A page that makes programs without end does not grow this without end.)
      if (bulkKernels.size >= 256) bulkKernels.clear();
      bulkKernels.set(source.jacobian, (byPosition = new Map()));
    }
    let k = byPosition.get(source.position);
    if (k === undefined) {
      k = { jacobian: new Function(source.jacobian)(), position: new Function(source.position)() };
      byPosition.set(source.position, k!);
    }
    return k!;
  }
  /** The first error a kernel threw on this thread in the current stage (read by the calling thread's pool). */
  let error: unknown = null;

  function barrier(threads: number): void {
    const gen = Atomics.load(ctl, BAR_GEN);
    if (Atomics.add(ctl, BAR_COUNT, 1) === threads - 1) {
      Atomics.store(ctl, BAR_COUNT, 0);
      Atomics.add(ctl, BAR_GEN, 1);
      Atomics.notify(ctl, BAR_GEN);
      return;
    }
    let spins = 0;
    let since = 0;
    while (Atomics.load(ctl, BAR_GEN) === gen) {
      // The clock is read once every 256 spins.
      if ((++spins & 255) !== 0) continue;
      const now = performance.now();
      if (since === 0) since = now;
      else if (stallMs > 0 && now - since > stallMs) throw new Error(`no thread arrived at the barrier within ${stallMs} ms`);
      else if (canWait && (now - since > SPIN_MS || ctl[SPIN] === 0)) Atomics.wait(ctl, BAR_GEN, gen, 5);
    }
  }

  /** The stage's colour bounds, copied as it starts (see stage). */
  const starts = new Int32Array(COLOURS + 1);

  /**
   * One command's stage on this thread, over `v` (a family's rows and the solver bodies).
   * Everything it reads of the control block is read as it starts, while the calling thread
   * waits at the first barrier: after its last barrier a thread may be descheduled for as long as
   * the calling thread takes to reach the next stage and write that stage's colours, and it
   * must not read those for the empty colours it still has to skip.
   */
  function stage(cmd: number, v: StageViews): void {
    const threads = ctl[THREADS]!;
    const invH = prm[INV_H]!;
    const maxBias = prm[MAX_BIAS]!;
    for (let c = 0; c <= COLOURS; c++) starts[c] = ctl[STARTS + c]!;
    for (let c = 0; c < COLOURS; c++) {
      const s = starts[c]!;
      const e = starts[c + 1]!;
      if (e === s) continue;
      // A large colour in chunks claimed in turn, about eight per thread: a thread that runs late
      // (descheduled, or slower) takes fewer, and the others do not wait for its even share at the
      // barrier. A small one in even shares: the claims cost more than they balance (a 20-row
      // pyramid's step was 20% slower in chunks), and the first thread there took every chunk.
      const n = e - s;
      const claimed = n >= CLAIM_MIN_ROWS;
      const chunk = claimed ? Math.ceil(n / (8 * threads)) : 0;
      for (let k = 0; ; k++) {
        let lo: number;
        let hi: number;
        if (claimed) {
          lo = s + Atomics.add(ctl, CLAIMS + c, chunk);
          if (lo >= e) break;
          hi = lo + chunk < e ? lo + chunk : e;
        } else {
          if (k > 0) break;
          lo = s + Math.floor((n * thread) / threads);
          hi = s + Math.floor((n * (thread + 1)) / threads);
          if (hi === lo) break;
        }
        if (Atomics.load(ctl, FAILED) !== 0) continue;
        try {
          if (cmd === PIVOT_SOLVE) pivot.solveStiff(v.pd, v.pends, v.vx, v.vy, v.w, v.dqc, v.dqs, lo, hi);
          else if (cmd === PIVOT_WARM_START || cmd === PIVOT_NEXT_SUBSTEP) pivot.warmStart(v.pd, v.pcold, v.pends, v.vx, v.vy, v.w, v.dqc, v.dqs, lo, hi, cmd === PIVOT_NEXT_SUBSTEP);
          else if (cmd === PIVOT_POSITION) pivot.position(v.pd, v.pends, v.psoft, v.dpx, v.dpy, v.dq, v.dqc, v.dqs, lo, hi);
          else if (cmd === CONTACT_PREPARE) contact.prepare(v, lo, hi);
          else if (cmd === CONTACT_STORE) contact.store(v.d, v.ends, v.points, v.snormalImpulse, v.stangentImpulse, v.stotalNormalImpulse, v.stotalTangentImpulse, lo, hi);
          else if (cmd === NARROWPHASE) collide.narrowphase(v, lo, hi);
          else if (cmd === USER_SOLVE) user.pass(v, v.vx, v.vy, v.w, v.invMass, v.invI, userPass, lo, hi);
          else if (cmd === USER_POSE_FACTOR) userPose.factor(v, v.invMass, v.invI, prm[USER_POSE]!, lo, hi);
          else if (cmd === USER_POSE_STATES) userPose.states(v, v, lo, hi);
          else if (cmd === USER_POSE_GROUP) {
            const g = v.ugroups[prm[USER_POSE + 1]!]!;
            userPose.group(v, bulkKernel(g.source!), g, lo, hi);
          } else if (cmd === USER_WARM_START || cmd === USER_NEXT_SUBSTEP) user.warmStart(v, v.vx, v.vy, v.w, v.invMass, v.invI, lo, hi, cmd === USER_NEXT_SUBSTEP);
          else if (cmd === BODY_VELOCITIES) body.integrateVelocities(v.vx, v.vy, v.w, v.dvx, v.dvy, v.dw, v.linearDamp, v.angularDamp, v.dynamic, lo, hi);
          else if (cmd === BODY_POSITIONS) body.integratePositions(v.vx, v.vy, v.w, v.dpx, v.dpy, v.dq, v.dqc, v.dqs, v.invMass, v.spinCapped, v.atCap, prm, lo, hi);
          else if (cmd === PIVOT_REFRESH) pivot.refresh(v.pd, v.pcold, v.pkept, v.pends, v.c0, v.s0, v.cx, v.cy, lo, hi);
          else if (cmd === CONTACT_WARM_START) contact.warmStart(v.d, v.ends, v.points, v.vx, v.vy, v.w, lo, hi);
          else contact.pass(v.d, v.ends, v.points, v.rigidSide, v.vx, v.vy, v.w, v.dpx, v.dpy, v.dqc, v.dqs, lo, hi, invH, cmd === CONTACT_SOLVE, maxBias, soft);
        } catch (e) {
          if (error === null) error = e;
          Atomics.store(ctl, FAILED, 1);
        }
      }
      barrier(threads);
    }
  }

  /** The error this thread's kernel threw in the last stage, cleared as it is read. */
  function takeError(): unknown {
    const e = error;
    error = null;
    return e;
  }

  return { barrier, stage, takeError };
}

export type ThreadRuntime = ReturnType<typeof threadRuntime>;
