import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Body } from '../body/body.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { PivotJoint } from '../constraint/joints/pivot-joint.js';
import { Space } from '../space/space.js';
import { PARALLEL_MIN_ROWS } from '../contact/contact-solver.js';
import { PIVOT_COLOUR_MIN_ROWS } from '../constraint/pivot-batch.js';
import { PARALLEL_MIN_BODIES } from '../space/solver-bodies.js';
import { discGrid, hashState, mixedScene, pyramid } from '../test-support/scenes.js';
import { solverInternals } from '../test-support/solver-routing.js';
import { TEST_CORES } from '../test-support/threads-beyond-cores.js';
import { WorkerPool, workersToStart } from './worker-pool.js';
import { COMMAND } from './control.js';
import { ContactManager } from '../space/contact-manager.js';

const spaces: Space[] = [];
afterEach(() => {
  for (const s of spaces.splice(0)) s.dispose();
});

/**
 * Mixed scenes in one space, large enough for the contacts and the pivots to go parallel: a
 * 30-row pyramid, the determinism test's boxes and circles dropped beside it, a kinematic paddle
 * sweeping through them, a pendulum of pivots, a fan (a box that touches more bodies than there
 * are colours would be in the overflow), and a net of 2,112 pivots (some soft) hanging from
 * three pins, one of them kinematic and moving.
 */
async function scene(workers: number): Promise<{ space: Space; bodies: Body[] }> {
  // allowSleep false: every contact is solved in every step, the pyramid's included.
  const space = new Space({ gravity: [0, -10], workers, allowSleep: false });
  spaces.push(space);
  const bodies = pyramid(space, 30);
  for (const b of mixedScene(space)) {
    b.position = [b.x + 40, b.y];
    bodies.push(b);
  }
  const paddle = space.addBody(new Body({ type: 'kinematic', position: [34, 1], velocity: [1.5, 0], angularVel: 0.5, shapes: [Polygon.box(4, 0.3)] }));
  bodies.push(paddle);
  const pin = space.addBody(new Body({ type: 'static', position: [-40, 20] }));
  let prev = pin;
  for (let i = 0; i < 10; i++) {
    const link = space.addBody(new Body({ position: [-40 + i + 1, 20], shapes: [new Circle({ radius: 0.3 })] }));
    space.addConstraint(new PivotJoint({ body1: prev, body2: link, anchor1: i === 0 ? [0, 0] : [0.5, 0], anchor2: [-0.5, 0] }));
    bodies.push(link);
    prev = link;
  }
  bodies.push(...net(space, 33, 80, 40));
  await space.workersReady;
  return { space, bodies };
}

/** An n × n net of discs joined to their right and lower neighbours, its top row's ends and middle pinned. */
function net(space: Space, n: number, x0: number, y0: number): Body[] {
  const grid = discGrid(space, n, x0, y0);
  let k = 0;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const at = grid[i * n + j]!;
      // Every 50th joint soft: the velocity passes then take the general loop, the position pass the kernel.
      const soft = () => (k++ % 50 === 49 ? { stiff: false, frequency: 6, damping: 0.5 } : {});
      if (i + 1 < n) space.addConstraint(new PivotJoint({ body1: at, body2: grid[(i + 1) * n + j]!, anchor1: [0.5, 0], anchor2: [-0.5, 0], ...soft() }));
      if (j + 1 < n) space.addConstraint(new PivotJoint({ body1: at, body2: grid[i * n + j + 1]!, anchor1: [0, -0.5], anchor2: [0, 0.5], ...soft() }));
    }
  }
  return grid;
}

async function run(workers: number, steps: number): Promise<{ hash: string; space: Space }> {
  const { space, bodies } = await scene(workers);
  for (let i = 0; i < steps; i++) space.step(1 / 60);
  return { hash: hashState(bodies), space };
}

describe('parallel step', () => {
  it('starts the workers it is asked for, in Node', async () => {
    const { space } = await scene(2);
    expect(space.parallel).toEqual({ requested: 2, workers: 2, reason: null });
  });

  it('starts at most one fewer workers than the cores, and says why it started fewer', async () => {
    expect(workersToStart(3, { cores: 8 })).toEqual({ count: 3, reason: null });
    expect(workersToStart(7, { cores: 8 })).toEqual({ count: 7, reason: null });
    expect(workersToStart(8, { cores: 8 })).toEqual({
      count: 7,
      reason: '8 workers asked for, 7 started: this machine reports 8 cores, and the calling thread takes a share of every stage (a thread beyond the cores would only take turns with the others)',
    });
    expect(workersToStart(1, { cores: 1 }).count).toBe(0);
    expect(workersToStart(1, { cores: 1 }).reason).toMatch(/^1 worker asked for, 0 started: this machine reports 1 core, /);
    // Unset, the pool takes the cores the environment reports (this setup sets more).
    expect(workersToStart(3, {}).count).toBe(Math.min(3, availableParallelism() - 1));
    expect(WorkerPool.defaults.cores).toBe(TEST_CORES);
    const setup = WorkerPool.defaults;
    try {
      WorkerPool.defaults = { ...setup, cores: 2 };
      const capped = await run(3, 200);
      expect(capped.space.parallel).toEqual({ requested: 3, workers: 1, reason: workersToStart(3, { cores: 2 }).reason });
      WorkerPool.defaults = { ...setup, cores: 1 };
      const alone = await run(1, 200);
      expect(alone.space.parallel).toEqual({ requested: 1, workers: 0, reason: workersToStart(1, { cores: 1 }).reason });
      WorkerPool.defaults = setup;
      const serial = await run(0, 200);
      expect(capped.hash).toBe(serial.hash);
      expect(alone.hash).toBe(serial.hash);
    } finally {
      WorkerPool.defaults = setup;
    }
  }, 60_000);

  it('is bitwise the same at 0, 1 and 2 workers over 1,000 steps of mixed scenes', async () => {
    const serial = await run(0, 1000);
    // The contacts did go parallel: more rows than the threshold, in several colours.
    const solver = solverInternals(serial.space).contactSolver;
    expect(solver.count).toBeGreaterThan(PARALLEL_MIN_ROWS);
    expect(solver.colours.used).toBeGreaterThan(3);
    // So did the pivots: a coloured plan.
    const batch = solverInternals(serial.space).jointBatch;
    expect(batch.count).toBeGreaterThanOrEqual(PIVOT_COLOUR_MIN_ROWS);
    expect(batch.coloured).toBe(true);
    expect(batch.colours.used).toBeGreaterThan(2);
    for (const workers of [1, 2]) expect((await run(workers, 1000)).hash, `${workers} workers`).toBe(serial.hash);
  }, 120_000);

  it("writes the bodies' states back on every thread, then stores the contacts' impulses on the workers while the calling thread moves the shapes, and finishes before the contact data", async () => {
    /** A pyramid (enough bodies for write back's stage) whose every contact raises contactForce, and what its events carried, step by step. */
    async function forces(workers: number) {
      const space = new Space({ gravity: [0, -10], workers, allowSleep: false });
      spaces.push(space);
      const bodies = pyramid(space, 46);
      expect(bodies.length).toBeGreaterThanOrEqual(PARALLEL_MIN_BODIES);
      for (const b of bodies) b.contactForceThreshold = 0;
      await space.workersReady;
      const seen: number[] = [];
      space.on('contactForce', (e) => seen.push(e.normalImpulse));
      for (let i = 0; i < 20; i++) space.step(1 / 60);
      return { space, seen, poses: bodies.map((b) => [b.position.x, b.position.y, b.rotation, b.velocity.x, b.velocity.y, b.angularVel]) };
    }
    const alone = await forces(0);
    const open = vi.spyOn(WorkerPool.prototype, 'open');
    const join = vi.spyOn(WorkerPool.prototype, 'join');
    const syncShapes = vi.spyOn(ContactManager.prototype, 'syncShapes');
    const contactData = vi.spyOn(ContactManager.prototype, 'contactData');
    try {
      const withWorker = await forces(1);
      // The same impulses (the store was done before the contact data read it), and the same bodies.
      expect(withWorker.seen.length).toBeGreaterThan(500);
      expect(withWorker.seen).toEqual(alone.seen);
      expect(withWorker.poses).toEqual(alone.poses);
      // In each step: write back's stage opens and is joined; then the store's stage opens, the
      // calling thread moves the shapes, joins the store's stage, and only then is the contact data
      // read; no other stage opens while the store's is open.
      const at = (spy: typeof open | typeof join, k: number) => spy.mock.invocationCallOrder[k]!;
      const calls = (spy: typeof open | typeof join, command: number) => spy.mock.calls.flatMap(([c], k) => (c === command ? [at(spy, k)] : []));
      const backJoins = calls(join, COMMAND.BODY_WRITE_BACK);
      const storeOpens = calls(open, COMMAND.CONTACT_STORE);
      const storeJoins = calls(join, COMMAND.CONTACT_STORE);
      expect(backJoins).toHaveLength(20);
      expect(storeOpens).toHaveLength(20);
      expect(storeJoins).toHaveLength(20);
      for (let i = 0; i < 20; i++) {
        expect(backJoins[i]!).toBeLessThan(storeOpens[i]!);
        expect(syncShapes.mock.invocationCallOrder.filter((o) => o > storeOpens[i]! && o < storeJoins[i]!).length).toBeGreaterThan(0);
        expect(storeJoins[i]!).toBeLessThan(contactData.mock.invocationCallOrder[i]!);
        expect(open.mock.invocationCallOrder.filter((o) => o > storeOpens[i]! && o < storeJoins[i]!)).toEqual([]);
      }
    } finally {
      for (const spy of [open, join, syncShapes, contactData]) spy.mockRestore();
    }
  }, 60_000);

  // More threads than this machine's 2 cores: threads are descheduled mid-stage, which is how a
  // race shows (one did: a thread that read the next stage's colours after its last barrier).
  it('is bitwise the same with more workers than cores', async () => {
    const serial = await run(0, 300);
    expect((await run(3, 300)).hash).toBe(serial.hash);
  }, 120_000);

  it('steps on the calling thread until the workers are ready, with the same result', async () => {
    const space = new Space({ gravity: [0, -10], workers: 2 });
    spaces.push(space);
    const bodies = pyramid(space, 30);
    for (let i = 0; i < 5; i++) space.step(1 / 60); // before the workers are ready
    await space.workersReady;
    for (let i = 0; i < 55; i++) space.step(1 / 60);
    const reference = new Space({ gravity: [0, -10] });
    const refBodies = pyramid(reference, 30);
    for (let i = 0; i < 60; i++) reference.step(1 / 60);
    expect(space.parallel.workers).toBe(2);
    expect(hashState(bodies)).toBe(hashState(refBodies));
  }, 60_000);

  it('goes on alone after dispose, and rejects dispose during a step', async () => {
    const { space, bodies } = await scene(1);
    for (let i = 0; i < 30; i++) space.step(1 / 60);
    let thrown: unknown = null;
    space.preSolve = () => {
      try {
        space.dispose();
      } catch (e) {
        thrown = e;
      }
    };
    space.step(1 / 60);
    expect(String(thrown)).toMatch(/dispose\(\) cannot be called while the space is stepping/);
    space.preSolve = null;
    space.dispose();
    expect(space.parallel).toEqual({ requested: 1, workers: 0, reason: 'the space was disposed' });
    for (let i = 0; i < 30; i++) space.step(1 / 60);
    expect(bodies.every((b) => Number.isFinite(b.x) && Number.isFinite(b.y))).toBe(true);
  }, 60_000);

  it('changes its workers through the setter, between steps only, with the same result', async () => {
    const space = new Space({ gravity: [0, -10], allowSleep: false });
    spaces.push(space);
    const bodies = pyramid(space, 30);
    const reference = new Space({ gravity: [0, -10], allowSleep: false });
    const refBodies = pyramid(reference, 30);
    const both = (n: number) => {
      for (let i = 0; i < n; i++) {
        space.step(1 / 60);
        reference.step(1 / 60);
      }
    };
    both(20);
    space.workers = 2;
    expect(space.workers).toBe(2);
    expect((await space.workersReady).workers).toBe(2);
    both(20);
    space.workers = 1;
    both(5); // before the new one is ready: on the calling thread
    expect((await space.workersReady).workers).toBe(1);
    both(20);
    let thrown: unknown = null;
    space.preSolve = () => {
      try {
        space.workers = 0;
      } catch (e) {
        thrown = e;
      }
    };
    both(1);
    space.preSolve = null;
    expect(String(thrown)).toMatch(/Space\.workers/);
    expect(space.parallel.workers).toBe(1);
    space.workers = 0;
    expect(space.parallel).toEqual({ requested: 0, workers: 0, reason: null });
    both(10);
    expect(hashState(bodies)).toBe(hashState(refBodies));
    // A start that dispose overtakes ends its workers when it resolves.
    space.workers = 2;
    const ready = space.workersReady;
    space.dispose();
    await ready;
    expect(space.parallel).toEqual({ requested: 2, workers: 0, reason: 'the space was disposed' });
    expect(() => (space.workers = -2)).toThrow(/workers/);
  }, 60_000);

  it('caps speeds on every thread as on one: the same bits, the same bodies marked for anti-windup', async () => {
    // 1,200 discs thrown at up to 12 m/s with a cap of 5 m/s and a spin cap, some joined in pairs
    // (anti-windup forgets their warm start when a cap slowed a body).
    const capped = async (workers: number) => {
      const space = new Space({ gravity: [0, -10], workers, allowSleep: false, maxLinearSpeed: 5, maxRotationPerSubstep: 0.05 });
      spaces.push(space);
      const bodies: Body[] = [];
      for (let k = 0; k < 1200; k++) {
        const a = 2.399963 * k;
        const b = space.addBody(new Body({ position: [(k % 40) * 1.5, Math.floor(k / 40) * 1.5], velocity: [12 * Math.cos(a), 12 * Math.sin(a)], angularVel: 30 * Math.sin(3 * a), shapes: [new Circle({ radius: 0.3, filter: { mask: 0 } })] }));
        if (k % 2 === 1) space.addConstraint(new PivotJoint({ body1: bodies[k - 1]!, body2: b, anchor1: [0.75, 0], anchor2: [-0.75, 0] }));
        bodies.push(b);
      }
      await space.workersReady;
      let marked = 0;
      for (let i = 0; i < 60; i++) {
        space.step(1 / 60);
        if (solverInternals(space).solverBodies.anyAtCap) marked++;
      }
      return { hash: hashState(bodies), marked };
    };
    const serial = await capped(0);
    expect(serial.marked, 'the caps slowed bodies').toBeGreaterThan(0);
    expect(await capped(1)).toEqual(serial);
  }, 60_000);

  it('rejects a workers count that is not a whole number from 0, naming it', () => {
    expect(() => new Space({ workers: -1 })).toThrow(/workers/);
    expect(() => new Space({ workers: 1.5 })).toThrow(/workers/);
    expect(() => new Space({ workers: Number.NaN })).toThrow(/workers/);
  });
});
