/**
 * The user batch on several threads: a plan of USER_COLOUR_MIN_ROWS rows or more is solved in
 * colour order, its velocity passes' colours on every thread (user-kernels.ts), and a space steps
 * bitwise the same at 0, 1 and 2 workers, whatever the rows: hooks or a bulk kernel, stiff or soft,
 * limited (solved on the calling thread, in the overflow), of two or three bodies, on static or
 * moving kinematic pins, and around a body in more constraints than there are colours.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Body } from '../body/body.js';
import { Circle } from '../shape/circle.js';
import { Space } from '../space/space.js';
import { COLOURS } from '../space/graph-colouring.js';
import { COMMAND } from '../parallel/control.js';
import { WorkerPool } from '../parallel/worker-pool.js';
import { discGrid, hashState } from '../test-support/scenes.js';
import { solverInternals } from '../test-support/solver-routing.js';
import { rope } from '../test-support/user-ropes.js';
import { BODY_STATE_STRIDE, BodyState } from './body-state.js';
import type { UserBatchKernel } from './batch-kernel.js';
import { USER_COLOUR_MIN_ROWS } from './user-batch.js';
import { UserConstraint, type UserConstraintOptions } from './user-constraint.js';

const spaces: Space[] = [];
afterEach(() => {
  for (const s of spaces.splice(0)) s.dispose();
  vi.restoreAllMocks();
});

/** A body state's world point of local (ax, ay), from st[o]. */
function point(st: Float64Array, o: number, ax: number, ay: number): [number, number] {
  const c = st[o + BodyState.cos]!;
  const s = st[o + BodyState.sin]!;
  return [st[o + BodyState.x]! + c * ax - s * ay, st[o + BodyState.y]! + s * ax + c * ay];
}

/** Pivot C = p2 − p1 (anchors a1, a2), J = [−I, −r1⊥; I, r2⊥] written for state `st` at o1, o2. */
function pivotRows(st: Float64Array, o1: number, o2: number, a: ArrayLike<number>, at: number, C: Float64Array | null, J: Float64Array | null, jo: number): void {
  const [p1x, p1y] = point(st, o1, a[at]!, a[at + 1]!);
  const [p2x, p2y] = point(st, o2, a[at + 2]!, a[at + 3]!);
  if (C !== null) {
    C[jo / 6] = p2x - p1x;
    C[jo / 6 + 1] = p2y - p1y;
  }
  if (J === null) return;
  const r1x = p1x - st[o1 + BodyState.comX]!, r1y = p1y - st[o1 + BodyState.comY]!;
  const r2x = p2x - st[o2 + BodyState.comX]!, r2y = p2y - st[o2 + BodyState.comY]!;
  J.set([-1, 0, r1y, 1, 0, -r2y, 0, -1, -r1x, 0, 1, r2x], jo);
}

const PIVOT_KERNEL: UserBatchKernel = {
  paramCount: 4,
  jacobian(from, to, { states, slotState, params, J }) {
    for (let i = from; i < to; i++) pivotRows(states, slotState[2 * i]!, slotState[2 * i + 1]!, params, 4 * i, null, J, 12 * i);
  },
  position(from, to, { states, slotState, params, C }) {
    for (let i = from; i < to; i++) pivotRows(states, slotState[2 * i]!, slotState[2 * i + 1]!, params, 4 * i, C, null, 12 * i);
  },
};

/**
 * PIVOT_KERNEL as text (UserBatchKernel.source), standing alone, the same operations in the same
 * order: a space's workers compile it and evaluate its constraints beside the calling thread.
 * (BodyState: x 0, y 1, cos 3, sin 4, comX 8, comY 9.)
 */
const PIVOT_TEXT = {
  jacobian: `"use strict"; return function textPivotJacobian(from, to, a) {
    const st = a.states, sl = a.slotState, p = a.params, J = a.J;
    for (let i = from; i < to; i++) {
      const o1 = sl[2 * i], o2 = sl[2 * i + 1], q = 4 * i, jo = 12 * i;
      const c1 = st[o1 + 3], s1 = st[o1 + 4], c2 = st[o2 + 3], s2 = st[o2 + 4];
      const p1x = st[o1] + c1 * p[q] - s1 * p[q + 1], p1y = st[o1 + 1] + s1 * p[q] + c1 * p[q + 1];
      const p2x = st[o2] + c2 * p[q + 2] - s2 * p[q + 3], p2y = st[o2 + 1] + s2 * p[q + 2] + c2 * p[q + 3];
      const r1x = p1x - st[o1 + 8], r1y = p1y - st[o1 + 9], r2x = p2x - st[o2 + 8], r2y = p2y - st[o2 + 9];
      J[jo] = -1; J[jo + 1] = 0; J[jo + 2] = r1y; J[jo + 3] = 1; J[jo + 4] = 0; J[jo + 5] = -r2y;
      J[jo + 6] = 0; J[jo + 7] = -1; J[jo + 8] = -r1x; J[jo + 9] = 0; J[jo + 10] = 1; J[jo + 11] = r2x;
    }
  };`,
  position: `"use strict"; return function textPivotPosition(from, to, a) {
    const st = a.states, sl = a.slotState, p = a.params, C = a.C;
    for (let i = from; i < to; i++) {
      const o1 = sl[2 * i], o2 = sl[2 * i + 1], q = 4 * i;
      const c1 = st[o1 + 3], s1 = st[o1 + 4], c2 = st[o2 + 3], s2 = st[o2 + 4];
      const p1x = st[o1] + c1 * p[q] - s1 * p[q + 1], p1y = st[o1 + 1] + s1 * p[q] + c1 * p[q + 1];
      const p2x = st[o2] + c2 * p[q + 2] - s2 * p[q + 3], p2y = st[o2 + 1] + s2 * p[q + 2] + c2 * p[q + 3];
      C[2 * i] = p2x - p1x;
      C[2 * i + 1] = p2y - p1y;
    }
  };`,
};
const TEXT_KERNEL: UserBatchKernel = {
  paramCount: 4,
  jacobian: new Function(PIVOT_TEXT.jacobian)() as UserBatchKernel['jacobian'],
  position: new Function(PIVOT_TEXT.position)() as UserBatchKernel['position'],
  source: PIVOT_TEXT,
};

/** A pivot through its hooks; with a `kernel`, also in bulk. */
class UserPivot extends UserConstraint {
  constructor(a: Body, b: Body, readonly anchors: [number, number, number, number], private readonly kernel: UserBatchKernel | null, extra: Partial<UserConstraintOptions> = {}) {
    super({
      dimensions: 2,
      packedState: true,
      bodies: [a, b],
      hooks: {
        position: (err, st) => pivotRows(st, 0, BODY_STATE_STRIDE, anchors, 0, err, null, 0),
        jacobian: (J, st) => pivotRows(st, 0, BODY_STATE_STRIDE, anchors, 0, null, J, 0),
      },
      ...extra,
    });
  }
  override batchKernel(): UserBatchKernel | null {
    return this.kernel;
  }
  override batchParams(out: Float64Array, at: number): void {
    out.set(this.anchors, at);
  }
}

/** Three bodies: the middle one's height is the mean of the others' (C = y_b − (y_a + y_c)/2), soft. */
function level(a: Body, b: Body, c: Body): UserConstraint {
  const y = (st: Float64Array, slot: number) => st[slot * BODY_STATE_STRIDE + BodyState.y]!;
  return new UserConstraint({
    dimensions: 1,
    packedState: true,
    bodies: [a, b, c],
    stiff: false,
    frequency: 3,
    damping: 0.7,
    hooks: {
      position: (err, st) => (err[0] = y(st, 1) - 0.5 * (y(st, 0) + y(st, 2))),
      jacobian: (J) => J.set([0, -0.5, 0, 0, 1, 0, 0, -0.5, 0]),
    },
  });
}

/**
 * An n × n net of discs joined to their right and lower neighbours by user pivots (most with a
 * bulk kernel, a closure's or one from text, every seventh through hooks alone, every 50th soft), its top row's ends pinned to
 * static bodies and its middle to a moving kinematic one; rods with limits across some cells, a
 * level constraint over some triples, and a hub disc tied by 30 rods to the bottom row (more
 * constraints on one body than there are colours).
 */
async function scene(workers: number, jointHertz = 0): Promise<{ space: Space; bodies: Body[] }> {
  const space = new Space({ gravity: [0, -10], workers, allowSleep: false, jointHertz, checkUserConstraints: false });
  spaces.push(space);
  const n = 34;
  const grid = discGrid(space, n, 0, 0);
  let k = 0;
  const joint = (a: Body, b: Body, anchors: [number, number, number, number]) => {
    const soft = k % 50 === 49 ? { stiff: false, frequency: 6, damping: 0.5 } : {};
    space.addConstraint(new UserPivot(a, b, anchors, k % 7 === 3 ? null : k % 7 === 1 ? TEXT_KERNEL : PIVOT_KERNEL, soft));
    k++;
  };
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const at = grid[i * n + j]!;
      if (i + 1 < n) joint(at, grid[(i + 1) * n + j]!, [0.5, 0, -0.5, 0]);
      if (j + 1 < n) joint(at, grid[i * n + j + 1]!, [0, -0.5, 0, 0.5]);
      if (i + 1 < n && j + 1 < n && (i + j) % 10 === 0) space.addConstraint(rope(at, grid[(i + 1) * n + j + 1]!, [0, 0], [0, 0], 1.3, 1.5));
      if (i + 2 < n && j % 9 === 4) space.addConstraint(level(at, grid[(i + 1) * n + j]!, grid[(i + 2) * n + j]!));
    }
  }
  const hub = space.addBody(new Body({ position: [n / 2, -n - 3], shapes: [new Circle({ radius: 0.5, filter: { mask: 0 } })] }));
  for (let i = 2; i < 32; i++) space.addConstraint(rope(hub, grid[i * n + n - 1]!, [0, 0], [0, 0], 0, 20));
  await space.workersReady;
  return { space, bodies: [...grid, hub] };
}

async function run(workers: number, steps: number, jointHertz = 0): Promise<{ hash: string; space: Space }> {
  const { space, bodies } = await scene(workers, jointHertz);
  for (let i = 0; i < steps; i++) space.step(1 / 60);
  expect(bodies.every((b) => Number.isFinite(b.x) && Number.isFinite(b.y))).toBe(true);
  return { hash: hashState(bodies), space };
}

describe('the user batch on several threads', () => {
  it('solves a large plan in colours, limited rows and the hub in the overflow', async () => {
    const { space } = await run(0, 2);
    const batch = solverInternals(space).userBatch;
    expect(batch.count).toBeGreaterThanOrEqual(USER_COLOUR_MIN_ROWS);
    expect(batch.coloured).toBe(true);
    const { start, used } = batch.colours;
    expect(used).toBeGreaterThan(3);
    // Rows in colour order: no solver body twice within a colour; every limited row after the colours.
    for (let c = 0; c < COLOURS; c++) {
      const seen = new Set<number>();
      for (let n = start[c]!; n < start[c + 1]!; n++) {
        expect(batch.lim[n]).toBe(0);
        for (let j = 0; j < batch.slots[n]!; j++) {
          const s = batch.slotK[batch.sOff[n]! + j]!;
          if (s === 0) continue;
          expect(seen.has(s), `body ${s} twice in colour ${c}`).toBe(false);
          seen.add(s);
        }
      }
    }
    const overflow = Array.from(batch.lim.subarray(start[COLOURS]!, batch.count));
    expect(overflow.every((limited) => limited === 1)).toBe(true);
    expect(overflow.length).toBeGreaterThanOrEqual(30);
  });

  it('is bitwise the same at 0, 1 and 2 workers, its passes on every thread', async () => {
    const runs = vi.spyOn(WorkerPool.prototype, 'open'); // every stage opens here (run, runRange, openRange)
    const serial = await run(0, 150);
    for (const workers of [1, 2]) {
      runs.mockClear();
      expect((await run(workers, 150)).hash, `${workers} workers`).toBe(serial.hash);
      const commands = runs.mock.calls.map(([command]) => command);
      // Four substeps a step (step()'s default), each a warm start (the first of the step's without
      // a substep to end), a biased pass and jointIterations (2) relax passes, on every thread.
      expect(commands.filter((c) => c === COMMAND.USER_SOLVE).length).toBe(150 * 4 * 3);
      expect(commands.filter((c) => c === COMMAND.USER_WARM_START).length).toBe(150);
      expect(commands.filter((c) => c === COMMAND.USER_NEXT_SUBSTEP).length).toBe(150 * 3);
      // Poses: at the step's start and after each substep's positions, five a step. Each takes its
      // kernel rows' states, the text kernel's group (the closure's runs on the calling thread), and
      // every row's K, on every thread.
      for (const stage of [COMMAND.USER_POSE_STATES, COMMAND.USER_POSE_GROUP, COMMAND.USER_POSE_FACTOR]) {
        expect(commands.filter((c) => c === stage).length, `stage ${stage}`).toBe(150 * 5);
      }
    }
  }, 120_000);

  it('steps on as before when workers start, change or end between steps (the rows move to shared memory mid-plan)', async () => {
    const serial = await run(0, 60);
    const { space, bodies } = await scene(0);
    for (let i = 0; i < 20; i++) space.step(1 / 60);
    space.workers = 2;
    await space.workersReady;
    for (let i = 0; i < 20; i++) space.step(1 / 60);
    space.workers = 1;
    await space.workersReady;
    for (let i = 0; i < 10; i++) space.step(1 / 60);
    space.workers = 0;
    for (let i = 0; i < 10; i++) space.step(1 / 60);
    expect(hashState(bodies)).toBe(serial.hash);
  }, 120_000);

  it('with the joint softness (jointHertz > 0), whose stiff rows take C as they come, on the calling thread', async () => {
    const runs = vi.spyOn(WorkerPool.prototype, 'open'); // every stage opens here (run, runRange, openRange)
    const serial = await run(0, 60, 30);
    runs.mockClear();
    expect((await run(2, 60, 30)).hash).toBe(serial.hash);
    const commands = runs.mock.calls.map(([command]) => command);
    // The relax passes (two a substep) still go on every thread; the biased ones do not.
    expect(commands.filter((c) => c === COMMAND.USER_SOLVE).length).toBe(60 * 4 * 2);
  }, 120_000);
});

describe("a bulk kernel's fault on a worker", () => {
  /**
   * A soft text-kernel pivot whose anchor is NaN: its C (and J) are not finite. Its group is
   * evaluated on every thread; the step fails with the error the calling thread gives alone.
   */
  async function faulty(workers: number) {
    const { space, bodies } = await scene(workers);
    for (let i = 0; i < 5; i++) space.step(1 / 60);
    const before = hashState(bodies);
    const bad = space.addConstraint(new UserPivot(bodies[40]!, bodies[41]!, [0, 0, Number.NaN, 0], TEXT_KERNEL, { stiff: false, frequency: 4, damping: 0.5 }));
    let message = '';
    try {
      space.step(1 / 60);
    } catch (e) {
      // (The label's number differs from run to run: constraints are numbered as they are made.)
      message = (e as Error).message.replace(bad.label, 'the bad pivot');
    }
    const after = hashState(bodies);
    space.removeConstraint(bad);
    for (let i = 0; i < 5; i++) space.step(1 / 60);
    return { message, before, after, end: hashState(bodies), space };
  }

  it('fails the step with the same error as without workers, leaves every body as it was, and the space steps on', async () => {
    const runs = vi.spyOn(WorkerPool.prototype, 'open'); // every stage opens here (run, runRange, openRange)
    const alone = await faulty(0);
    expect(alone.message).toBe('the bad pivot: position() wrote a non-finite value (NaN) in row 0');
    expect(alone.after).toBe(alone.before);
    runs.mockClear();
    const two = await faulty(2);
    // The failing pose ran its text kernel's group on the workers.
    expect(runs.mock.calls.some(([command]) => command === COMMAND.USER_POSE_GROUP)).toBe(true);
    expect(two.message).toBe(alone.message);
    expect(two.after).toBe(two.before);
    expect(two.end).toBe(alone.end);
    expect(two.space.parallel.workers).toBe(2);
  }, 120_000);
});
