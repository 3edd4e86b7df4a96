import { describe, expect, it } from 'vitest';
import { COLOURS } from '../space/graph-colouring.js';
import { COMMAND, CONTROL, HOMES, PARAMS } from './control.js';
import { openStage, threadRuntime } from './thread-runtime.js';
import { bodyKernels } from '../space/body-kernels.js';
import { workerProgram } from './worker-program.js';

/** The `NAME = number` declarations of one `const` line of `text` that declares `first`. */
function declared(text: string, first: string): Record<string, number> {
  const line = new RegExp(`const (${first} = [^;]+);`).exec(text);
  expect(line, `a const line declaring ${first}`).not.toBeNull();
  return Object.fromEntries(line![1]!.split(',').map((d) => d.split('=').map((x) => x.trim())).map(([k, v]) => [k!, Number(v)]));
}

describe("the thread runtime's and the worker's literal slots", () => {
  it('match parallel/control.ts and the colour count', () => {
    const runtime = threadRuntime.toString();
    expect(declared(runtime, 'SEQ')).toEqual({ SEQ: CONTROL.SEQ, CMD: CONTROL.CMD, OPENING: CONTROL.OPENING, FAILED: CONTROL.FAILED, THREADS: CONTROL.THREADS, STARTS: CONTROL.STARTS, SPIN: CONTROL.SPIN, DONE: CONTROL.DONE, CLAIMS: CONTROL.CLAIMS, COLOURS, HOMES });
    expect(declared(openStage.toString(), 'SEQ')).toEqual({ SEQ: CONTROL.SEQ, CMD: CONTROL.CMD, OPENING: CONTROL.OPENING, THREADS: CONTROL.THREADS, STARTS: CONTROL.STARTS, DONE: CONTROL.DONE, CLAIMS: CONTROL.CLAIMS, COLOURS, HOMES, CHUNK_BITS: 12, TAG_MASK: 0x7ffff });
    expect(declared(runtime, 'CHUNK_BITS')).toEqual({ CHUNK_BITS: 12, CHUNK_MASK: 0xfff, TAG_MASK: 0x7ffff });
    expect(declared(runtime, 'INV_H')).toEqual({ INV_H: PARAMS.INV_H, MAX_BIAS: PARAMS.MAX_BIAS, SOFT: PARAMS.SOFT, USER: PARAMS.USER, USER_POSE: PARAMS.USER_POSE });
    expect(declared(bodyKernels.toString(), 'H')).toEqual({ H: PARAMS.H, MAX_SPEED: PARAMS.MAX_SPEED, MAX_SPIN: PARAMS.MAX_SPIN });
    expect(declared(bodyKernels.toString(), 'STEP_H')).toEqual({ STEP_H: PARAMS.H, GRAVITY_X: PARAMS.GRAVITY_X, GRAVITY_Y: PARAMS.GRAVITY_Y });
    expect(declared(runtime, 'CONTACT_WARM_START')).toEqual({
      CONTACT_WARM_START: COMMAND.CONTACT_WARM_START, CONTACT_SOLVE: COMMAND.CONTACT_SOLVE, PIVOT_WARM_START: COMMAND.PIVOT_WARM_START, PIVOT_SOLVE: COMMAND.PIVOT_SOLVE, PIVOT_POSITION: COMMAND.PIVOT_POSITION, CONTACT_PREPARE: COMMAND.CONTACT_PREPARE, PIVOT_NEXT_SUBSTEP: COMMAND.PIVOT_NEXT_SUBSTEP, PIVOT_REFRESH: COMMAND.PIVOT_REFRESH, BODY_VELOCITIES: COMMAND.BODY_VELOCITIES, BODY_POSITIONS: COMMAND.BODY_POSITIONS, NARROWPHASE: COMMAND.NARROWPHASE,
      USER_WARM_START: COMMAND.USER_WARM_START, USER_NEXT_SUBSTEP: COMMAND.USER_NEXT_SUBSTEP, USER_SOLVE: COMMAND.USER_SOLVE,
      USER_POSE_STATES: COMMAND.USER_POSE_STATES, USER_POSE_GROUP: COMMAND.USER_POSE_GROUP, USER_POSE_FACTOR: COMMAND.USER_POSE_FACTOR, CONTACT_STORE: COMMAND.CONTACT_STORE, PIVOT_POSITION_CLOSE: COMMAND.PIVOT_POSITION_CLOSE, BODY_WRITE_BACK: COMMAND.BODY_WRITE_BACK, BODY_GATHER: COMMAND.BODY_GATHER,
    });
    expect(declared(workerProgram(), 'SEQ')).toEqual({ SEQ: CONTROL.SEQ, CMD: CONTROL.CMD, ACK: CONTROL.ACK, SPIN: CONTROL.SPIN, REMAP: COMMAND.REMAP, STOP: COMMAND.STOP });
    // The colour bounds fit the block before SPIN.
    expect(CONTROL.STARTS + COLOURS + 1).toBeLessThanOrEqual(CONTROL.SPIN);
    expect(CONTROL.SPIN).toBeLessThan(CONTROL.DONE);
    expect(CONTROL.DONE + COLOURS).toBeLessThanOrEqual(CONTROL.CLAIMS);
    expect(CONTROL.CLAIMS + COLOURS * HOMES).toBeLessThanOrEqual(CONTROL.LENGTH);
  });

  it('the worker program is one script that parses', () => {
    expect(() => new Function(workerProgram())).not.toThrow();
  });
});

describe('a stage whose kernel throws', () => {
  it('marks the control block, keeps the error for the calling thread, and still completes every colour', () => {
    const ctl = new Int32Array(new SharedArrayBuffer(CONTROL.LENGTH * 4));
    const prm = new Float64Array(new SharedArrayBuffer(PARAMS.LENGTH * 8));
    ctl[CONTROL.THREADS] = 1;
    // Colour 0: rows 0–9, colour 1: rows 10–19, the rest empty.
    const starts = Int32Array.from({ length: COLOURS + 1 }, (_, c) => (c === 0 ? 0 : c === 1 ? 10 : 20));
    const boom = new Error('boom');
    let calls = 0;
    const kernels = {
      contact: {
        warmStart: () => {
          calls++;
          throw boom;
        },
        pass: () => {},
      },
      pivot: {},
    } as unknown as Parameters<typeof threadRuntime>[0];
    const runtime = threadRuntime(kernels, ctl, prm, true, 0);
    const seq = openStage(ctl, COMMAND.CONTACT_WARM_START, starts, COLOURS);
    runtime.stage({} as never, seq);
    expect(ctl[CONTROL.FAILED]).toBe(1);
    expect(calls, 'no more work once a kernel failed').toBe(1);
    expect([ctl[CONTROL.DONE], ctl[CONTROL.DONE + 1], ctl[CONTROL.DONE + 2]], 'each chunk of each colour with rows counted done').toEqual([1, 1, 0]);
    expect(runtime.takeError()).toBe(boom);
    expect(runtime.takeError()).toBeNull();
  });
});

describe('a thread that comes late', () => {
  /** A runtime whose kernels record the rows they ran, by command. */
  const recorder = (ctl: Int32Array, index = 0) => {
    const ran: [number, number, number][] = [];
    const k = (cmd: number) => (...args: unknown[]) => void ran.push([cmd, args.at(-2) as number, args.at(-1) as number]);
    const kernels = { contact: { warmStart: (...a: unknown[]) => k(COMMAND.CONTACT_WARM_START)(...a.slice(0, 8)), pass: () => {} }, pivot: {} } as unknown as Parameters<typeof threadRuntime>[0];
    // (A wait that never ends throws after a second rather than hang the test.)
    return { ran, runtime: threadRuntime(kernels, ctl, new Float64Array(new SharedArrayBuffer(PARAMS.LENGTH * 8)), true, 1000, true, index) };
  };

  it("claims nothing from bounds it copied as the next stage was being opened (a colour empty in both can look full)", () => {
    const ctl = new Int32Array(new SharedArrayBuffer(CONTROL.LENGTH * 4));
    ctl[CONTROL.THREADS] = 2;
    const first = recorder(ctl);
    // Stage A in colours 0–2; stage B one range (colour 0 alone), which retags colours 0–2 (A's).
    const a = openStage(ctl, COMMAND.CONTACT_WARM_START, Int32Array.from({ length: COLOURS + 1 }, (_, c) => Math.min(c, 3) * 10), COLOURS);
    first.runtime.stage({} as never, a);
    const b = openStage(ctl, COMMAND.CONTACT_WARM_START, Int32Array.from({ length: COLOURS + 1 }, (_, c) => (c === 0 ? 0 : 40)), 3);
    first.runtime.stage({} as never, b);
    // The calling thread starts to open stage C, a range [0, 20) (it retags colour 0 only, as B and
    // C use no other): OPENING first, then the bounds, of which a late thread in B reads C's first
    // two and B's others: colour 1 is [20, 40), and its claim word still carries B's tag.
    Atomics.store(ctl, CONTROL.OPENING, b + 1);
    Atomics.store(ctl, CONTROL.CLAIMS, ((b + 1) & 0x7ffff) << 12);
    Atomics.store(ctl, CONTROL.STARTS, 0);
    Atomics.store(ctl, CONTROL.STARTS + 1, 20);
    const late = recorder(ctl);
    late.runtime.stage({} as never, b);
    expect(late.ran, 'no phantom rows').toEqual([]);
  });

  it("takes its own home's chunks first, front to back, then what is left of the others'", () => {
    const ctl = new Int32Array(new SharedArrayBuffer(CONTROL.LENGTH * 4));
    ctl[CONTROL.THREADS] = 2;
    // Colour 0: 40 rows, a chunk per thread; colour 1: 4,096 rows, eight chunks per thread (256 rows).
    const starts = Int32Array.from({ length: COLOURS + 1 }, (_, c) => (c === 0 ? 0 : c === 1 ? 40 : 40 + 4096));
    const second = recorder(ctl, 1);
    second.runtime.stage({} as never, openStage(ctl, COMMAND.CONTACT_WARM_START, starts, COLOURS));
    const chunks = (from: number, n: number) => Array.from({ length: n }, (_, k) => [COMMAND.CONTACT_WARM_START, from + 256 * k, from + 256 * (k + 1)]);
    expect(second.ran).toEqual([[COMMAND.CONTACT_WARM_START, 20, 40], [COMMAND.CONTACT_WARM_START, 0, 20], ...chunks(40 + 2048, 8), ...chunks(40, 8)]);
    // Thread 0 in the next stage, after thread 1 took two chunks of its own home in colour 1
    // (colour 0's wait ended as if the others had done their chunks).
    const first = recorder(ctl, 0);
    const seq = openStage(ctl, COMMAND.CONTACT_WARM_START, starts, COLOURS);
    Atomics.store(ctl, CONTROL.CLAIMS + HOMES + 1, Atomics.load(ctl, CONTROL.CLAIMS + HOMES + 1) + 2);
    Atomics.store(ctl, CONTROL.DONE + 1, 2);
    first.runtime.stage({} as never, seq);
    expect(first.ran).toEqual([[COMMAND.CONTACT_WARM_START, 0, 20], [COMMAND.CONTACT_WARM_START, 20, 40], ...chunks(40, 8), ...chunks(40 + 2048 + 512, 6)]);
    expect([ctl[CONTROL.DONE], ctl[CONTROL.DONE + 1]]).toEqual([2, 16]);
  });

  it('claims nothing of a stage that is over, nor of a later one it reads as it is written', () => {
    const ctl = new Int32Array(new SharedArrayBuffer(CONTROL.LENGTH * 4));
    ctl[CONTROL.THREADS] = 2;
    const starts = Int32Array.from({ length: COLOURS + 1 }, (_, c) => (c === 0 ? 0 : 40));
    const first = recorder(ctl);
    const late = recorder(ctl);
    // Stage A: the first thread takes both chunks and completes it alone.
    const a = openStage(ctl, COMMAND.CONTACT_WARM_START, starts, COLOURS);
    first.runtime.stage({} as never, a);
    expect(first.ran).toEqual([[COMMAND.CONTACT_WARM_START, 0, 20], [COMMAND.CONTACT_WARM_START, 20, 40]]);
    // The late thread comes for stage A after it ended: nothing left, and it does not wait.
    late.runtime.stage({} as never, a);
    // Stage B opens; the late thread still thinks it is in stage A: its claims carry A's tag.
    const b = openStage(ctl, COMMAND.CONTACT_WARM_START, starts, COLOURS);
    late.runtime.stage({} as never, a);
    expect(late.ran, 'no rows of A, and none of B under A').toEqual([]);
    // Caught between openStage's retagging of the claims for a stage C and its bump of SEQ (the
    // bounds it copies may be C's, half written): SEQ still says B, but the claims carry C's tag.
    // (B's chunks done by the others, so that its wait for them ends.)
    for (let k = 0; k < COLOURS * HOMES; k++) Atomics.store(ctl, CONTROL.CLAIMS + k, ((b + 1) & 0x7ffff) << 12);
    Atomics.store(ctl, CONTROL.DONE, 2);
    late.runtime.stage({} as never, b);
    expect(late.ran, 'nothing claimed under the wrong tag').toEqual([]);
    for (let k = 0; k < COLOURS * HOMES; k++) Atomics.store(ctl, CONTROL.CLAIMS + k, (b & 0x7ffff) << 12);
    Atomics.store(ctl, CONTROL.DONE, 0);
    // In stage B it takes its part as any thread does.
    late.runtime.stage({} as never, b);
    expect(late.ran).toEqual([[COMMAND.CONTACT_WARM_START, 0, 20], [COMMAND.CONTACT_WARM_START, 20, 40]]);
    expect(ctl[CONTROL.DONE]).toBe(2);
  });
});
