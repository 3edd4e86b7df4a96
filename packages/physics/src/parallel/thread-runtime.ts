/**
 * What every thread of a parallel step runs, the calling one and each worker alike: a stage over
 * the colours of a family's rows (space/graph-colouring.ts): the contact solver's, the joint
 * batch's stiff pivots (constraint/pivot-kernels.ts), or the user batch's rows
 * (constraint/user-kernels.ts). A factory that refers to nothing outside its parameters, so that a
 * worker is built from its text (worker-program.ts), and the calling thread runs the same code.
 *
 *   stage    for each colour with rows, in colour order: the colour's rows in chunks, each
 *            claimed by one thread (a compare-and-swap on a claim word), then a wait until every
 *            chunk of the colour is done (its done count). A large colour goes in about eight
 *            chunks per thread, a small one in one per thread. The chunks are split into homes,
 *            one per thread, in thread order: a thread claims its own home's chunks first, front
 *            to back, then the other homes' that are left. So a thread takes the same rows in
 *            every stage of a step, and their data stay in its core's cache; and as a colour
 *            keeps its family's order (contacts as they were found, joints as they were added),
 *            in which neighbours tend to follow each other, it mostly meets the bodies it wrote in
 *            the colour before. Claimed from one sequence, the threads took alternate chunks,
 *            and the 5,050-box pyramid and the joint grid stepped 9–13% slower with a worker. A
 *            thread that comes late (descheduled, or woken late) finds its home taken and holds
 *            nobody up: a stage waits for its work, never for a thread's arrival, as Box2D v3's
 *            stages do. The rows of a colour touch disjoint bodies, so any split gives the same
 *            bits. The overflow is not a stage's: the calling thread solves it alone, after
 *            (worker-pool.ts).
 *   late     the calling thread opens each stage (openStage): it writes the stage's sequence
 *            number to OPENING, retags the claim words of the colours in use (in this stage or
 *            the one before) with it, then writes the bounds and the command, then bumps SEQ. A
 *            thread copies a stage's command and bounds, then checks that SEQ and OPENING still
 *            name that stage: if the next stage's opening had begun, its copy may mix both
 *            stages' bounds, and it claims nothing (a mix once showed a colour empty in both as
 *            full, whose claim word neither retagged, and a late worker ran those phantom rows: a
 *            rare divergence of the user batch's net, about one run in forty). A thread still in
 *            an earlier stage, with that stage's own bounds, claims with its stage's tag and fails:
 *            no thread runs rows of one stage with the bounds or command of another. What a kernel reads beside its rows (the stage's numbers) stays put while any
 *            chunk is claimed and not done. (A tag comes round again after 2^19 stages, some five
 *            thousand steps: a thread would have to stall that long between checking SEQ and
 *            claiming for a claim to pass that should not.)
 *   waiting  a thread that may block (a worker, or Node's main thread) spins a while, then waits
 *            (Atomics.wait) on the colour's done count, which the thread that finishes the last
 *            chunk notifies. The browser's main thread may not block, so it only spins.
 *   failure  a kernel that throws marks the control block (FAILED), and its chunk still counts as
 *            done; no thread runs another chunk of the stage, and the calling thread then fails
 *            the step (worker-pool.ts), which rolls it back.
 *   stall    a chunk that is never done (its thread terminated, crashed or hung mid-chunk) would
 *            leave the calling thread waiting for ever: it gives up after `stallMs` and throws;
 *            its pool then ends every worker (worker-pool.ts). A worker that is gone between
 *            chunks holds nothing up.
 *
 * The control block's slots are literals here, matching parallel/control.ts (checked by
 * thread-runtime.test.ts).
 */
import type { ContactKernels } from '../contact/contact-kernels.js';
import type { PivotKernels } from '../constraint/pivot-kernels.js';
import type { BodyKernels, GatherViews } from '../space/body-kernels.js';
import type { CollideKernels } from '../collision/collide-kernels.js';
import type { UserKernels, UserRowViews } from '../constraint/user-kernels.js';
import type { UserBatchKernelSource, UserPoseKernels, UserPoseViews } from '../constraint/user-pose-kernels.js';

/**
 * The arrays a stage reads and writes, all shared: the contact solver's rows, the joint batch's
 * (p…), the user batch's (u…), and the solver bodies' state and the space's body states (those
 * gather and write back take: GatherViews).
 */
export interface StageViews extends UserRowViews, UserPoseViews, GatherViews {
  d: Float64Array;
  ends: Int32Array;
  points: Uint8Array;
  rigidSide: Uint8Array;
  /** The contact rows' approach speeds (2 per row), restitutions, and a side outside the solver's centre (2 per row). */
  approach: Float64Array;
  bounce: Float64Array;
  centre: Float64Array;
  /** The contact solver's list of the contacts to solve (store slots, solver bodies in pairs), and each row's place in it. */
  cslots: Int32Array;
  cpairs: Int32Array;
  corder: Int32Array;
  /** The contact store's (contact/contact-store.ts): what the contact rows are prepared from. */
  sradiusA: Float64Array;
  sradiusB: Float64Array;
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
  spinCapped: Uint8Array;
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

/**
 * Open a stage on the calling thread: the claim words of colours [0, retag) retagged with the
 * stage's sequence number (and their done counts zeroed) before the bounds and the command are
 * written, then SEQ bumped and the workers woken. `retag` must cover every colour with rows in
 * this stage or the one before (a late thread may still read the one before's bounds). Returns
 * the stage's sequence number (stage's `seq`). Literal slots, as threadRuntime's.
 */
export function openStage(ctl: Int32Array, command: number, starts: Int32Array, retag: number): number {
  const SEQ = 0, CMD = 1, OPENING = 2, THREADS = 6, STARTS = 7, DONE = 64, CLAIMS = 88, COLOURS = 24, HOMES = 16, CHUNK_BITS = 12, TAG_MASK = 0x7ffff;
  const seq = (Atomics.load(ctl, SEQ) + 1) | 0;
  Atomics.store(ctl, OPENING, seq);
  const word = (seq & TAG_MASK) << CHUNK_BITS;
  const threads = ctl[THREADS]!;
  const homes = threads < HOMES ? threads : HOMES;
  for (let c = 0; c < retag; c++) {
    for (let h = 0; h < homes; h++) Atomics.store(ctl, CLAIMS + c * HOMES + h, word);
    Atomics.store(ctl, DONE + c, 0);
  }
  for (let c = 0; c <= COLOURS; c++) Atomics.store(ctl, STARTS + c, starts[c]!);
  Atomics.store(ctl, CMD, command);
  Atomics.store(ctl, SEQ, seq);
  Atomics.notify(ctl, SEQ);
  return seq;
}

/** The colours [0, n) that hold every colour with rows of `starts` (COLOURS + 1 bounds). */
export function coloursInUse(starts: Int32Array): number {
  let n = starts.length - 1;
  while (n > 0 && starts[n - 1] === starts[n]) n--;
  return n;
}

/**
 * `claims`: whether this thread takes chunks at all (every worker does; the calling thread too,
 * unless a test leaves the work to the workers, to know which thread runs it). `index`: the
 * thread's place, 0 for the calling thread and 1… for the workers, which names its home.
 */
export function threadRuntime(kernels: StageKernels, ctl: Int32Array, prm: Float64Array, canWait: boolean, stallMs: number, claims = true, index = 0) {
  // Slots and commands of parallel/control.ts.
  const SEQ = 0, CMD = 1, OPENING = 2, FAILED = 5, THREADS = 6, STARTS = 7, SPIN = 32, DONE = 64, CLAIMS = 88, COLOURS = 24, HOMES = 16;
  /**
   * A claim word: the stage's tag (its sequence number's low 19 bits) above the chunks claimed
   * (12 bits: at most eight chunks per thread, and at most 257 threads).
   */
  const CHUNK_BITS = 12, CHUNK_MASK = 0xfff, TAG_MASK = 0x7ffff;
  /** The rows from which a colour goes in about eight chunks per thread rather than one (see stage). */
  const CLAIM_MIN_ROWS = 1024;
  const INV_H = 0, MAX_BIAS = 1, SOFT = 2, USER = 12, USER_POSE = 18;
  const CONTACT_WARM_START = 1, CONTACT_SOLVE = 2, PIVOT_WARM_START = 4, PIVOT_SOLVE = 5, PIVOT_POSITION = 6, CONTACT_PREPARE = 7, PIVOT_NEXT_SUBSTEP = 8, PIVOT_REFRESH = 11, BODY_VELOCITIES = 12, BODY_POSITIONS = 13, NARROWPHASE = 14, USER_WARM_START = 15, USER_NEXT_SUBSTEP = 16, USER_SOLVE = 17, USER_POSE_STATES = 18, USER_POSE_GROUP = 19, USER_POSE_FACTOR = 20, CONTACT_STORE = 21, PIVOT_POSITION_CLOSE = 22, BODY_WRITE_BACK = 23, BODY_GATHER = 24;
  const contact = kernels.contact;
  const pivot = kernels.pivot;
  const body = kernels.body;
  const collide = kernels.collide;
  const user = kernels.user;
  const userPose = kernels.userPose;
  /**
   * How long (ms) a thread that may block spins for a colour's last chunks before it waits: a
   * colour lasts microseconds, and a wait's wake-up costs tens of them (more on a virtual machine).
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

  /**
   * The next of the `chunks` chunks of claim word `slot` in the stage tagged `tag`, claimed for
   * this thread; −1 when every one is claimed, or when the word carries another tag (the stage is
   * over: a later one retagged it).
   */
  function claim(slot: number, tag: number, chunks: number): number {
    for (;;) {
      const word = Atomics.load(ctl, slot);
      if (word >>> CHUNK_BITS !== tag) return -1;
      const k = word & CHUNK_MASK;
      if (k >= chunks) return -1;
      if (Atomics.compareExchange(ctl, slot, word, word + 1) === word) return k;
    }
  }

  /**
   * The next chunk of colour c (of `chunks`, split into `homes` homes) for this thread, whose
   * home is `home`: its own home's first, then the next homes' round; −1 when none is left.
   */
  function claimChunk(c: number, tag: number, chunks: number, homes: number, home: number): number {
    for (let i = 0, h = home; i < homes; i++, h = h + 1 < homes ? h + 1 : 0) {
      const first = ((h * chunks) / homes) | 0;
      const k = claim(CLAIMS + c * HOMES + h, tag, (((h + 1) * chunks) / homes | 0) - first);
      if (k >= 0) return first + k;
    }
    return -1;
  }

  /**
   * Wait until all `chunks` chunks of colour c are done; false when stage `seq` ended first (this
   * thread came late: the calling thread opened another). The calling thread gives up after
   * `stallMs` (a chunk whose thread is gone), and throws.
   */
  function colourDone(c: number, chunks: number, seq: number): boolean {
    let spins = 0;
    let since = 0;
    for (;;) {
      const done = Atomics.load(ctl, DONE + c);
      if (done === chunks) return true;
      if (Atomics.load(ctl, SEQ) !== seq) return false;
      // The clock is read once every 256 spins.
      if ((++spins & 255) !== 0) continue;
      const now = performance.now();
      if (since === 0) since = now;
      else if (stallMs > 0 && now - since > stallMs) throw new Error(`a colour's chunks were not all done within ${stallMs} ms`);
      else if (canWait && (now - since > SPIN_MS || ctl[SPIN] === 0)) Atomics.wait(ctl, DONE + c, done, 5);
    }
  }

  /** The stage's colour bounds, copied as it starts (see stage). */
  const starts = new Int32Array(COLOURS + 1);

  /**
   * Stage `seq` on this thread, over `v` (a family's rows and the solver bodies). Its command,
   * thread count and colour bounds are copied as it starts; a thread that comes late may copy a
   * later stage's as they are written, and then claims nothing (openStage retags the claims
   * first).
   */
  function stage(v: StageViews, seq: number): void {
    const cmd = Atomics.load(ctl, CMD);
    const threads = Atomics.load(ctl, THREADS);
    for (let c = 0; c <= COLOURS; c++) starts[c] = Atomics.load(ctl, STARTS + c);
    // Bounds copied while the next stage was being opened may be partly its: a colour empty in
    // both could look full, whose claim word neither retagged (openStage retags only the colours
    // these two use), and its phantom rows would run. OPENING, written before any of the next
    // stage's numbers, says whether the copy is this stage's alone (a seqlock's check).
    if (Atomics.load(ctl, SEQ) !== seq || Atomics.load(ctl, OPENING) !== seq) return;
    const tag = seq & TAG_MASK;
    const homes = threads < HOMES ? threads : HOMES;
    const home = index % homes;
    const invH = prm[INV_H]!;
    const maxBias = prm[MAX_BIAS]!;
    for (let c = 0; c < COLOURS; c++) {
      const s = starts[c]!;
      const e = starts[c + 1]!;
      if (e === s) continue;
      // A large colour in about eight chunks per thread: a thread that runs late (descheduled, or
      // slower) takes fewer. A small one in a chunk per thread: more claims cost more than they
      // balance (a 20-row pyramid's step was 20% slower in small chunks).
      const n = e - s;
      const chunk = n >= CLAIM_MIN_ROWS ? Math.ceil(n / (8 * threads)) : Math.ceil(n / threads);
      const chunks = Math.ceil(n / chunk);
      while (claims) {
        const k = claimChunk(c, tag, chunks, homes, home);
        if (k < 0) break;
        const lo = s + k * chunk;
        const hi = lo + chunk < e ? lo + chunk : e;
        if (Atomics.load(ctl, FAILED) === 0) {
          try {
            if (cmd === PIVOT_SOLVE) pivot.solveStiff(v.pd, v.pends, v.vx, v.vy, v.w, v.dqc, v.dqs, lo, hi);
            else if (cmd === PIVOT_WARM_START || cmd === PIVOT_NEXT_SUBSTEP) pivot.warmStart(v.pd, v.pcold, v.pends, v.vx, v.vy, v.w, v.dqc, v.dqs, lo, hi, cmd === PIVOT_NEXT_SUBSTEP);
            else if (cmd === PIVOT_POSITION || cmd === PIVOT_POSITION_CLOSE) pivot.position(v.pd, v.pcold, v.pends, v.psoft, v.dpx, v.dpy, v.dq, v.dqc, v.dqs, lo, hi, cmd === PIVOT_POSITION_CLOSE);
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
            else if (cmd === BODY_WRITE_BACK) body.writeBack(v, lo, hi);
            else if (cmd === BODY_GATHER) body.gather(v, prm, lo, hi);
            else if (cmd === PIVOT_REFRESH) pivot.refresh(v.pd, v.pcold, v.pkept, v.pends, v.c0, v.s0, v.cx, v.cy, lo, hi);
            else if (cmd === CONTACT_WARM_START) contact.warmStart(v.d, v.ends, v.points, v.vx, v.vy, v.w, lo, hi);
            else contact.pass(v.d, v.ends, v.points, v.rigidSide, v.vx, v.vy, v.w, v.dpx, v.dpy, v.dqc, v.dqs, lo, hi, invH, cmd === CONTACT_SOLVE, maxBias, soft);
          } catch (e) {
            if (error === null) error = e;
            Atomics.store(ctl, FAILED, 1);
          }
        }
        if (Atomics.add(ctl, DONE + c, 1) === chunks - 1) Atomics.notify(ctl, DONE + c);
      }
      if (!colourDone(c, chunks, seq)) return;
    }
  }

  /** The error this thread's kernel threw in the last stage, cleared as it is read. */
  function takeError(): unknown {
    const e = error;
    error = null;
    return e;
  }

  return { stage, takeError };
}

export type ThreadRuntime = ReturnType<typeof threadRuntime>;
