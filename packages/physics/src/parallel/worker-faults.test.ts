/**
 * A worker that fails: its kernel throws, it ends between steps, or it never finishes a chunk it
 * took (terminated or hung). The step fails with a clear error and rolls back, or does not start
 * on the workers at all; either way the space goes on, on the calling thread, with the same bits
 * as a space that never had workers. And a worker that comes late holds nobody up.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { Space } from '../space/space.js';
import type { ContactStore } from '../contact/contact-store.js';
import { PARALLEL_MIN_BODIES } from '../space/solver-bodies.js';
import { hashState, pyramid } from '../test-support/scenes.js';
import { WorkerPool } from './worker-pool.js';
import { COMMAND } from './control.js';
import { workerProgram } from './worker-program.js';
import { solverInternals } from '../test-support/solver-routing.js';

/**
 * The contacts' push speed that sets off the fault below: the test gives it to one step only
 * (it reaches the workers as the stage's MAX_BIAS).
 */
const TRIGGER = 2.5;

/** One step of `space` with the trigger's push speed. */
function triggeredStep(space: Space): void {
  const solver = solverInternals(space).contactSolver;
  const usual = solver.maxBiasVelocity;
  solver.maxBiasVelocity = TRIGGER;
  try {
    space.step(1 / 60);
  } finally {
    solver.maxBiasVelocity = usual;
  }
}

const spaces: Space[] = [];
/** The pool's options as the setup left them (every worker a test asks for starts). */
const setupDefaults = WorkerPool.defaults;
afterEach(() => {
  WorkerPool.defaults = setupDefaults;
  for (const s of spaces.splice(0)) s.dispose();
});

/** The worker program with `statement` run first in every contact pass (solve and relax), on the workers only. */
function programWith(statement: string): string {
  const program = workerProgram();
  const head = /function pass\([^)]*\) \{/.exec(program);
  expect(head, 'the contact pass in the worker program').not.toBeNull();
  return program.replace(head![0], `${head![0]} ${statement};`);
}

/** The worker program with `statement` run first in every stage a worker joins (the calling thread's own runtime unchanged). */
function programWithAtStage(statement: string): string {
  const program = workerProgram();
  const head = /function stage\(v, seq\) \{/.exec(program);
  expect(head, 'the stage in the worker program').not.toBeNull();
  return program.replace(head![0], `${head![0]} ${statement};`);
}

/** `n` steps of a space and of its reference. */
function stepBoth(space: Space, reference: Space, n: number): void {
  for (let i = 0; i < n; i++) {
    space.step(1 / 60);
    reference.step(1 / 60);
  }
}

/** The contact store's manifolds and impulses, as plain numbers. */
function contactState(space: Space): number[][] {
  const store = (space as unknown as { _contacts: { store: ContactStore } })._contacts.store;
  const n = store.count;
  return [store.pointCount.subarray(0, n), store.nx.subarray(0, n), store.px.subarray(0, 2 * n), store.separation.subarray(0, 2 * n), store.normalImpulse.subarray(0, 2 * n), store.flags.subarray(0, n)].map((a) => Array.from(a));
}

/** A pyramid big enough for its contacts to go parallel, and the same pyramid in a space without workers. */
async function pair(workers: number, rows = 30) {
  const space = new Space({ gravity: [0, -10], allowSleep: false, workers });
  const reference = new Space({ gravity: [0, -10], allowSleep: false });
  spaces.push(space, reference);
  const bodies = pyramid(space, rows);
  const refBodies = pyramid(reference, rows);
  await space.workersReady;
  return { space, reference, bodies, refBodies };
}

describe('a worker that fails', () => {
  it('whose kernel throws fails the step, which rolls back; the space then steps on with the same bits', async () => {
    WorkerPool.defaults = { ...setupDefaults, callerShare: false, program: programWith(`if (maxBias === ${TRIGGER}) throw new Error('boom')`) };
    const { space, reference, bodies, refBodies } = await pair(1);
    expect(space.parallel.workers).toBe(1);
    stepBoth(space, reference, 10);
    const before = hashState(bodies);
    expect(() => triggeredStep(space)).toThrow(/a worker's contact solve pass threw/);
    expect(hashState(bodies), 'every body as before the step').toBe(before);
    expect(space.parallel.workers, 'the workers stay: the next stage runs').toBe(1);
    stepBoth(space, reference, 20);
    expect(hashState(bodies)).toBe(hashState(refBodies));
  }, 60_000);

  it('that ends between steps is noticed before the next step, which runs on the calling thread', async () => {
    const { space, reference, bodies, refBodies } = await pair(1);
    stepBoth(space, reference, 10);
    // Terminated from outside (as a page's devtools or a crash would): the exit event arrives between steps.
    const pool = (space as unknown as { _workerPool: { workers: { terminate(): void }[]; broken: string | null } })._workerPool;
    pool.workers[0]!.terminate();
    const start = Date.now();
    while (pool.broken === null && Date.now() - start < 10_000) await new Promise((r) => setTimeout(r, 10));
    expect(pool.broken).toMatch(/a worker ended/);
    stepBoth(space, reference, 10);
    expect(space.parallel).toEqual({ requested: 1, workers: 0, reason: expect.stringMatching(/a worker ended/) });
    expect(hashState(bodies)).toBe(hashState(refBodies));
  }, 60_000);

  it('that never finishes a chunk it took (hung, or terminated mid-chunk) fails the step after the stall time, and the space goes on alone', async () => {
    WorkerPool.defaults = { ...setupDefaults, callerShare: false, program: programWith(`if (maxBias === ${TRIGGER}) for (;;) {}`), stallMs: 300 };
    const { space, reference, bodies, refBodies } = await pair(1);
    stepBoth(space, reference, 10);
    const before = hashState(bodies);
    expect(() => triggeredStep(space)).toThrow(/a worker did not finish its part of the contact solve pass .*the step was abandoned and the space left as it was before it/);
    expect(hashState(bodies), 'every body as before the step').toBe(before);
    expect(space.parallel).toEqual({ requested: 1, workers: 0, reason: expect.stringMatching(/did not finish its part/) });
    stepBoth(space, reference, 20);
    expect(hashState(bodies)).toBe(hashState(refBodies));
  }, 60_000);

  it("that hangs in the narrowphase's jobs after colliding some fails the step, which rolls the contacts back with the bodies", async () => {
    // In the triggered step's narrowphase (prm[1], the contact passes' push speed, still holds the
    // step before's), the worker collides its first chunk, writing those contacts' manifolds, and
    // hangs in its second. Every chunk is the worker's (callerShare false): the same each run.
    const program = workerProgram();
    const call = 'collide.narrowphase(v, lo, hi)';
    expect(program, 'the narrowphase call in the worker program').toContain(call);
    const hangInSecondChunk = `(prm[1] === ${TRIGGER} && (globalThis.chunks = (globalThis.chunks ?? 0) + 1) === 2 ? (() => { for (;;) {} })() : ${call})`;
    WorkerPool.defaults = { ...setupDefaults, callerShare: false, stallMs: 300, program: program.replace(call, hangInSecondChunk) };
    const { space, reference, bodies, refBodies } = await pair(1);
    stepBoth(space, reference, 10);
    triggeredStep(space);
    triggeredStep(reference);
    const bodiesBefore = hashState(bodies);
    const contactsBefore = contactState(space);
    expect(() => space.step(1 / 60)).toThrow(/a worker did not finish its part of the narrowphase .*the space left as it was before it/);
    expect(hashState(bodies), 'every body as before the step').toBe(bodiesBefore);
    expect(contactState(space), 'every contact as before the step (the first chunk had rewritten some)').toEqual(contactsBefore);
    stepBoth(space, reference, 20);
    expect(hashState(bodies)).toBe(hashState(refBodies));
    expect(space.parallel).toEqual({ requested: 1, workers: 0, reason: expect.stringMatching(/did not finish its part of the narrowphase/) });
  }, 60_000);

  /**
   * A worker that takes every chunk of `command`'s stage in the triggered step and hangs in it. The
   * stage runs after the check (write back, the contacts' store), so the calling thread does it
   * again (every body or row writes the same numbers) rather than fail the step: the step stands as
   * without workers, and the space goes on alone, saying why.
   */
  async function hangsAfterTheCheck(command: number, rows: number, reason: RegExp): Promise<void> {
    WorkerPool.defaults = { ...setupDefaults, callerShare: false, stallMs: 300, program: programWithAtStage(`if (prm[1] === ${TRIGGER} && Atomics.load(ctl, 1) === ${command}) for (;;) {}`) };
    const { space, reference, bodies, refBodies } = await pair(1, rows);
    stepBoth(space, reference, 10);
    triggeredStep(space);
    triggeredStep(reference);
    expect(hashState(bodies), 'the step stood, as without workers').toBe(hashState(refBodies));
    // What it wrote again (the stored impulses warm-start the next steps) is what they would have been.
    stepBoth(space, reference, 20);
    expect(hashState(bodies)).toBe(hashState(refBodies));
    expect(space.parallel).toEqual({ requested: 1, workers: 0, reason: expect.stringMatching(reason) });
  }

  it("that never finishes the contacts' store, which runs beside write back's shapes, leaves the step to finish it: the step stands, the space goes on alone", async () => {
    await hangsAfterTheCheck(COMMAND.CONTACT_STORE, 30, /did not finish its part of the contact store/);
  }, 60_000);

  it('that never finishes its part of write back leaves the step to write every body: the step stands, the space goes on alone', async () => {
    // A 46-row pyramid: 1,081 bodies, enough for write back's stage.
    expect((46 * 47) / 2).toBeGreaterThanOrEqual(PARALLEL_MIN_BODIES);
    await hangsAfterTheCheck(COMMAND.BODY_WRITE_BACK, 46, /did not finish its part of the write back/);
  }, 60_000);

  it('that comes late holds nobody up: the calling thread takes every chunk, the step gives the same bits, and the space steps on with the worker', async () => {
    // The worker sleeps 400 ms as it comes to each stage of the triggered step: far past the
    // stall time, which only a chunk taken and not done would reach.
    WorkerPool.defaults = { ...setupDefaults, stallMs: 200, program: programWithAtStage(`if (prm[1] === ${TRIGGER}) Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 400)`) };
    const { space, reference, bodies, refBodies } = await pair(1);
    stepBoth(space, reference, 10);
    const started = performance.now();
    triggeredStep(space);
    triggeredStep(reference);
    expect(performance.now() - started, 'the step did not wait for the sleeping worker').toBeLessThan(400);
    expect(hashState(bodies)).toBe(hashState(refBodies));
    // It wakes in stages long over, claims nothing there, and takes part again.
    await new Promise((r) => setTimeout(r, 500));
    stepBoth(space, reference, 20);
    expect(space.parallel).toEqual({ requested: 1, workers: 1, reason: null });
    expect(hashState(bodies)).toBe(hashState(refBodies));
  }, 60_000);
});
