import { describe, expect, it } from 'vitest';
import { COLOURS } from '../space/graph-colouring.js';
import { COMMAND, CONTROL, PARAMS } from './control.js';
import { threadRuntime } from './thread-runtime.js';
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
    expect(declared(runtime, 'BAR_COUNT')).toEqual({ BAR_COUNT: CONTROL.BAR_COUNT, BAR_GEN: CONTROL.BAR_GEN, FAILED: CONTROL.FAILED, THREADS: CONTROL.THREADS, STARTS: CONTROL.STARTS, SPIN: CONTROL.SPIN, CLAIMS: CONTROL.CLAIMS, COLOURS });
    expect(declared(runtime, 'INV_H')).toEqual({ INV_H: PARAMS.INV_H, MAX_BIAS: PARAMS.MAX_BIAS, SOFT: PARAMS.SOFT, USER: PARAMS.USER, USER_POSE: PARAMS.USER_POSE });
    expect(declared(bodyKernels.toString(), 'H')).toEqual({ H: PARAMS.H, MAX_SPEED: PARAMS.MAX_SPEED, MAX_SPIN: PARAMS.MAX_SPIN });
    expect(declared(runtime, 'CONTACT_WARM_START')).toEqual({
      CONTACT_WARM_START: COMMAND.CONTACT_WARM_START, CONTACT_SOLVE: COMMAND.CONTACT_SOLVE, PIVOT_WARM_START: COMMAND.PIVOT_WARM_START, PIVOT_SOLVE: COMMAND.PIVOT_SOLVE, PIVOT_POSITION: COMMAND.PIVOT_POSITION, CONTACT_PREPARE: COMMAND.CONTACT_PREPARE, PIVOT_NEXT_SUBSTEP: COMMAND.PIVOT_NEXT_SUBSTEP, PIVOT_REFRESH: COMMAND.PIVOT_REFRESH, BODY_VELOCITIES: COMMAND.BODY_VELOCITIES, BODY_POSITIONS: COMMAND.BODY_POSITIONS, NARROWPHASE: COMMAND.NARROWPHASE,
      USER_WARM_START: COMMAND.USER_WARM_START, USER_NEXT_SUBSTEP: COMMAND.USER_NEXT_SUBSTEP, USER_SOLVE: COMMAND.USER_SOLVE,
      USER_POSE_STATES: COMMAND.USER_POSE_STATES, USER_POSE_GROUP: COMMAND.USER_POSE_GROUP, USER_POSE_FACTOR: COMMAND.USER_POSE_FACTOR, CONTACT_STORE: COMMAND.CONTACT_STORE,
    });
    expect(declared(workerProgram(), 'SEQ')).toEqual({ SEQ: CONTROL.SEQ, CMD: CONTROL.CMD, ACK: CONTROL.ACK, SPIN: CONTROL.SPIN, REMAP: COMMAND.REMAP, STOP: COMMAND.STOP });
    // The colour bounds fit the block before SPIN.
    expect(CONTROL.STARTS + COLOURS + 1).toBeLessThanOrEqual(CONTROL.SPIN);
    expect(CONTROL.SPIN).toBeLessThan(CONTROL.CLAIMS);
    expect(CONTROL.CLAIMS + COLOURS).toBeLessThanOrEqual(CONTROL.LENGTH);
  });

  it('the worker program is one script that parses', () => {
    expect(() => new Function(workerProgram())).not.toThrow();
  });
});

describe('a stage whose kernel throws', () => {
  it('marks the control block, keeps the error for the calling thread, and still passes every barrier', () => {
    const ctl = new Int32Array(new SharedArrayBuffer(CONTROL.LENGTH * 4));
    const prm = new Float64Array(new SharedArrayBuffer(PARAMS.LENGTH * 8));
    ctl[CONTROL.THREADS] = 1;
    // Colour 0: rows 0–9, colour 1: rows 10–19, the rest empty.
    for (let c = 0; c <= COLOURS; c++) ctl[CONTROL.STARTS + c] = c === 0 ? 0 : c === 1 ? 10 : 20;
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
    const runtime = threadRuntime(kernels, ctl, prm, 0, true, 0);
    const generation = ctl[CONTROL.BAR_GEN]!;
    runtime.stage(COMMAND.CONTACT_WARM_START, {} as never);
    expect(ctl[CONTROL.FAILED]).toBe(1);
    expect(calls, 'no more work once a kernel failed').toBe(1);
    expect(ctl[CONTROL.BAR_GEN]! - generation, 'a barrier for each colour with rows').toBe(2);
    expect(runtime.takeError()).toBe(boom);
    expect(runtime.takeError()).toBeNull();
  });
});
