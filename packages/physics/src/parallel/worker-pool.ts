/**
 * The calling thread's side of the parallel step: it starts the workers (Node's worker_threads, or
 * Web Workers), owns the control block, hands the workers the stage's arrays again whenever one
 * grew (REMAP), and runs a stage on every thread, its own share included (thread-runtime.ts).
 * A stage can also be opened for the workers and joined later (open, join), so that the calling
 * thread does serial work meanwhile: the contacts' store runs so while it writes back (step.ts).
 * Everything here is outside the step's arithmetic: a stage gives the same bits on any number of
 * threads, so the pool only decides how fast.
 */
import { COLOURS } from '../space/graph-colouring.js';
import { CONTACT_KERNELS } from '../contact/contact-kernels.js';
import { PIVOT_KERNELS } from '../constraint/pivot-kernels.js';
import { BODY_KERNELS } from '../space/body-kernels.js';
import { COLLIDE_KERNELS } from '../collision/collide-kernels.js';
import { USER_KERNELS } from '../constraint/user-kernels.js';
import { USER_POSE_KERNELS } from '../constraint/user-pose-kernels.js';
import { COMMAND, CONTROL, PARAMS } from './control.js';
import { coloursInUse, openStage, threadRuntime, type StageViews, type ThreadRuntime } from './thread-runtime.js';
import { workerProgram } from './worker-program.js';

/** What a space's workers are doing: `workers` running of `requested`, and why fewer run when fewer do. */
export interface ParallelStatus {
  readonly requested: number;
  readonly workers: number;
  readonly reason: string | null;
}

/** What puts its current arrays into a stage's views (a family, the solver bodies). */
interface ViewWriter {
  writeViews(v: StageViews): void;
}

/** A worker, whatever made it. */
interface WorkerHandle {
  post(message: unknown): void;
  terminate(): void;
}

type NodeWorkerThreads = {
  Worker: new (code: string, options: { eval: true }) => {
    postMessage(m: unknown): void;
    terminate(): Promise<number>;
    unref(): void;
    once(e: 'message', f: (m: unknown) => void): void;
    once(e: 'error', f: (err: Error) => void): void;
    on(e: 'error', f: (err: Error) => void): void;
    on(e: 'exit', f: (code: number) => void): void;
    off(e: 'error', f: (err: Error) => void): void;
  };
};

/** Why workers cannot run here, or null when they can. */
export function parallelUnavailable(): string | null {
  const g = globalThis as { crossOriginIsolated?: boolean; Worker?: unknown; process?: { getBuiltinModule?(id: string): unknown } };
  if (typeof SharedArrayBuffer === 'undefined') {
    return g.crossOriginIsolated === false
      ? 'SharedArrayBuffer is unavailable: the page is not cross-origin isolated (serve it with the headers Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy: require-corp)'
      : 'SharedArrayBuffer is unavailable in this environment';
  }
  if (typeof Atomics === 'undefined') return 'Atomics is unavailable in this environment';
  if (nodeWorkerThreads() === null && typeof g.Worker !== 'function') return 'this environment has no Worker (neither Web Workers nor Node worker_threads)';
  return null;
}

function nodeWorkerThreads(): NodeWorkerThreads | null {
  const p = (globalThis as { process?: { versions?: { node?: string }; getBuiltinModule?(id: string): unknown } }).process;
  if (!p?.versions?.node || typeof p.getBuiltinModule !== 'function') return null;
  return (p.getBuiltinModule('node:worker_threads') as NodeWorkerThreads | undefined) ?? null;
}

/**
 * One worker started with `program`, resolved once it has taken its `init` and said it is ready.
 * Once it runs, `lost` hears of its end or crash (the pool's own terminate included: it ignores that).
 */
function startWorker(init: unknown, program: string, lost: (reason: string) => void): Promise<WorkerHandle> {
  const wt = nodeWorkerThreads();
  if (wt !== null) {
    const w = new wt.Worker(program, { eval: true });
    // A space's workers never keep a Node process alive: they only serve its steps.
    w.unref();
    return new Promise((resolve, reject) => {
      w.once('error', reject);
      w.once('message', () => {
        w.off('error', reject);
        w.on('error', (e) => lost(`a worker crashed: ${e.message}`));
        w.on('exit', (code) => lost(`a worker ended (exit code ${code})`));
        resolve({ post: (m) => w.postMessage(m), terminate: () => void w.terminate() });
      });
      w.postMessage(init);
    });
  }
  const url = URL.createObjectURL(new Blob([program], { type: 'text/javascript' }));
  const w = new Worker(url);
  return new Promise((resolve, reject) => {
    w.onerror = (e) => reject(new Error(e.message || 'the worker failed to start'));
    w.onmessage = () => {
      URL.revokeObjectURL(url);
      w.onmessage = null;
      w.onerror = (e) => lost(`a worker crashed: ${e.message || 'an error'}`);
      resolve({ post: (m) => w.postMessage(m), terminate: () => w.terminate() });
    };
    w.postMessage(init);
  });
}

/**
 * How a pool starts (tests change them): the workers' program, how long the calling thread waits
 * for a colour's chunks before it gives up, and the cores the machine is taken to have (what the
 * environment reports, unless set: the tests set more, to run more threads than cores).
 */
export interface PoolOptions {
  program?: string;
  stallMs?: number;
  cores?: number;
  /** Whether the calling thread takes chunks of a stage too (default true; the fault tests leave every chunk to the workers). */
  callerShare?: boolean;
}

/**
 * How long (ms) the calling thread waits for a worker's chunk before it gives up: a stage
 * lasts micro- to milliseconds, so only a worker that is gone (or a machine stalled for seconds)
 * takes this long.
 */
export const STALL_MS = 5000;

/**
 * How many of `requested` workers to start: at most one fewer than the cores, since the calling
 * thread takes a share of every stage. A thread beyond the cores only takes turns with the others,
 * and each stage waits for the slowest: with three threads on two cores, scenes B and C stepped
 * 1.23× and 1.17× faster than alone, against 1.47× and 1.34× with two (2026-12-05).
 */
export function workersToStart(requested: number, options: PoolOptions = WorkerPool.defaults): { count: number; reason: string | null } {
  const cores = options.cores ?? coreCount();
  const count = Math.max(0, Math.min(requested, cores - 1));
  if (count === requested) return { count, reason: null };
  const asked = `${requested} worker${requested === 1 ? '' : 's'} asked for, ${count} started`;
  return {
    count,
    reason: `${asked}: this machine reports ${cores} core${cores === 1 ? '' : 's'}, and the calling thread takes a share of every stage (a thread beyond the cores would only take turns with the others)`,
  };
}

/** The processors this thread's environment reports (1 when it reports none). */
function coreCount(): number {
  const g = globalThis as { navigator?: { hardwareConcurrency?: number }; process?: { getBuiltinModule?(id: string): unknown } };
  const os = g.process?.getBuiltinModule?.('node:os') as { availableParallelism?(): number } | undefined;
  return os?.availableParallelism?.() ?? g.navigator?.hardwareConcurrency ?? 1;
}

/** Whether this thread may block on Atomics.wait: not a browser's main thread. */
function mayBlock(): boolean {
  const g = globalThis as { process?: { versions?: { node?: string } }; document?: unknown };
  return g.process?.versions?.node !== undefined || g.document === undefined;
}

export class WorkerPool {
  readonly ctl = new Int32Array(new SharedArrayBuffer(CONTROL.LENGTH * 4));
  readonly prm = new Float64Array(new SharedArrayBuffer(PARAMS.LENGTH * 8));
  private readonly runtime: ThreadRuntime;
  private workers: WorkerHandle[] = [];
  /**
   * Why this pool can no longer run a stage (a worker ended, crashed or stalled), or null. The
   * space then ends it and steps alone (Space.parallel says why).
   */
  broken: string | null = null;
  /**
   * The arrays of the next stage: each family writes its current ones (an array that grew is a
   * new one) before it runs a stage.
   */
  readonly views: StageViews;
  /** The colours with rows in the last stage opened (their claim words are retagged at the next). */
  private lastUsed = COLOURS;
  /** The arrays the workers hold (by identity): a stage whose arrays differ remaps first. */
  private posted: StageViews | null = null;
  private disposed = false;

  private constructor(views: StageViews, stallMs: number, callerShare: boolean) {
    this.views = { ...views };
    this.runtime = threadRuntime({ contact: CONTACT_KERNELS, pivot: PIVOT_KERNELS, body: BODY_KERNELS, collide: COLLIDE_KERNELS, user: USER_KERNELS, userPose: USER_POSE_KERNELS }, this.ctl, this.prm, mayBlock(), stallMs, callerShare);
  }

  /** Start `count` workers (count ≥ 1); rejects when one fails to start (the pool is then disposed). */
  /** @internal What a pool starts with when its caller says nothing (the tests' fault injection). */
  static defaults: PoolOptions = {};

  static async start(count: number, views: StageViews, options: PoolOptions = WorkerPool.defaults): Promise<WorkerPool> {
    const pool = new WorkerPool(views, options.stallMs ?? STALL_MS, options.callerShare ?? true);
    const program = options.program ?? workerProgram();
    const lost = (reason: string): void => {
      if (!pool.disposed && pool.broken === null) pool.broken = reason;
    };
    pool.ctl[CONTROL.THREADS] = count + 1;
    pool.ctl[CONTROL.SPIN] = count + 1 <= (options.cores ?? coreCount()) ? 1 : 0;
    try {
      pool.workers = await Promise.all(
        Array.from({ length: count }, (_, i) => startWorker({ type: 'init', ctl: pool.ctl.buffer, prm: pool.prm.buffer, index: i + 1, views }, program, lost)),
      );
    } catch (e) {
      pool.dispose();
      throw e;
    }
    pool.posted = { ...views };
    return pool;
  }

  get threads(): number {
    return this.workers.length + 1;
  }

  /**
   * One stage (a contact preparation, a contact or pivot warm start, pass or position pass) over
   * the colours whose bounds are `starts` (GraphColouring.start: COLOURS + 1 entries, the last
   * the overflow's start), on every thread, over `views`. The overflow is the caller's, after. Throws when a
   * kernel threw on some thread.
   */
  run(command: number, starts: Int32Array): void {
    this.join(command, this.open(command, starts));
  }

  /**
   * Open a stage for the workers, as run does, and return its sequence number: the calling thread
   * takes its share when it joins it (join), and may do serial work meanwhile that neither reads
   * what the stage writes nor writes what it reads. No other stage may open before the join.
   */
  open(command: number, starts: Int32Array): number {
    if (this.disposed) throw new Error('the space was disposed');
    if (this.broken !== null) throw new Error(`Space.step(): ${this.broken}`);
    const views = this.views;
    if (!sameViews(views, this.posted)) this.remap(views);
    const used = coloursInUse(starts);
    const seq = openStage(this.ctl, command, starts, used > this.lastUsed ? used : this.lastUsed);
    this.lastUsed = used;
    return seq;
  }

  /** Open a stage over items [from, to) (see runRange), which the calling thread joins later (join). */
  openRange(command: number, from: number, to: number): number {
    const starts = this.range;
    starts[0] = from;
    starts.fill(to, 1);
    return this.open(command, starts);
  }

  /**
   * The calling thread's part of stage `seq` (what the workers have not claimed yet), then the
   * wait for the rest. Throws when a kernel threw on some thread, or a chunk was never done.
   */
  join(command: number, seq: number): void {
    const ctl = this.ctl;
    try {
      this.runtime.stage(this.views, seq);
    } catch {
      // A chunk that its worker never finished: the worker is gone, or hung. Every worker ends;
      // the step fails and rolls back, and the space goes on alone.
      this.broken = `a worker did not finish its part of the ${commandName(command)} (it was terminated, crashed or hung)`;
      this.dispose();
      throw new Error(`Space.step(): ${this.broken}: the step was abandoned and the space left as it was before it; it steps on the calling thread from now on`);
    }
    if (Atomics.load(ctl, CONTROL.FAILED) !== 0) {
      Atomics.store(ctl, CONTROL.FAILED, 0);
      const own = this.runtime.takeError();
      throw own instanceof Error ? own : new Error(`a worker's ${commandName(command)} threw`);
    }
  }

  /**
   * A family's stage over its colours (`start`: GraphColouring.start): the family's arrays and the
   * solver bodies' into the views, then run; returns the overflow's start, where the calling thread
   * goes on alone.
   */
  runColours(command: number, start: Int32Array, family: ViewWriter, bodies: ViewWriter): number {
    family.writeViews(this.views);
    bodies.writeViews(this.views);
    this.run(command, start);
    return start[COLOURS]!;
  }

  /**
   * One stage over items [from, to) shared among the threads (run's colour 0 alone): for the
   * stages whose items each write only their own numbers (the contact rows' preparation, the joint
   * batch's refresh, integration), which need no colouring.
   */
  runRange(command: number, from: number, to: number): void {
    this.join(command, this.openRange(command, from, to));
  }

  /** runRange's stage bounds. */
  private readonly range = new Int32Array(COLOURS + 1);

  /** Hand the workers the arrays again (one grew) and wait until each has taken them. */
  private remap(views: StageViews): void {
    const ctl = this.ctl;
    Atomics.store(ctl, CONTROL.ACK, 0);
    const seq = (Atomics.load(ctl, CONTROL.SEQ) + 1) | 0;
    for (const w of this.workers) w.post({ type: 'views', views, seq });
    Atomics.store(ctl, CONTROL.CMD, COMMAND.REMAP);
    Atomics.store(ctl, CONTROL.SEQ, seq);
    Atomics.notify(ctl, CONTROL.SEQ);
    const canWait = mayBlock();
    while (Atomics.load(ctl, CONTROL.ACK) !== this.workers.length) {
      if (canWait) Atomics.wait(ctl, CONTROL.ACK, Atomics.load(ctl, CONTROL.ACK), 5);
    }
    this.posted = { ...views };
  }

  /** End the workers. */
  dispose(): void {
    if (this.disposed) return;
    this.disposed = true;
    const ctl = this.ctl;
    Atomics.store(ctl, CONTROL.CMD, COMMAND.STOP);
    Atomics.add(ctl, CONTROL.SEQ, 1);
    Atomics.notify(ctl, CONTROL.SEQ);
    for (const w of this.workers) w.terminate();
    this.workers = [];
  }
}

function sameViews(a: StageViews, b: StageViews | null): boolean {
  if (b === null) return false;
  for (const key in a) if (a[key as keyof StageViews] !== b[key as keyof StageViews]) return false;
  return true;
}

const COMMAND_NAMES: Record<number, string> = {
  [COMMAND.CONTACT_PREPARE]: 'contact preparation',
  [COMMAND.CONTACT_WARM_START]: 'contact warm start',
  [COMMAND.CONTACT_SOLVE]: 'contact solve pass',
  [COMMAND.CONTACT_RELAX]: 'contact relax pass',
  [COMMAND.CONTACT_STORE]: 'contact store',
  [COMMAND.NARROWPHASE]: 'narrowphase',
  [COMMAND.PIVOT_WARM_START]: 'pivot warm start',
  [COMMAND.PIVOT_NEXT_SUBSTEP]: 'pivot warm start',
  [COMMAND.PIVOT_REFRESH]: 'pivot refresh',
  [COMMAND.BODY_VELOCITIES]: 'velocity integration',
  [COMMAND.BODY_POSITIONS]: 'position integration',
  [COMMAND.BODY_WRITE_BACK]: 'write back',
  [COMMAND.BODY_GATHER]: 'gather',
  [COMMAND.PIVOT_SOLVE]: 'pivot pass',
  [COMMAND.PIVOT_POSITION]: 'pivot position pass',
  [COMMAND.PIVOT_POSITION_CLOSE]: 'pivot position pass',
  [COMMAND.USER_WARM_START]: 'user constraint warm start',
  [COMMAND.USER_NEXT_SUBSTEP]: 'user constraint warm start',
  [COMMAND.USER_SOLVE]: 'user constraint pass',
  [COMMAND.USER_POSE_STATES]: 'user constraint pose (body states)',
  [COMMAND.USER_POSE_GROUP]: 'user constraint pose (bulk kernel)',
  [COMMAND.USER_POSE_FACTOR]: 'user constraint pose (K factors)',
};

function commandName(command: number): string {
  return COMMAND_NAMES[command] ?? `command ${command}`;
}
