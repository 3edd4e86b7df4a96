/**
 * A worker's whole program, as source text: the contact kernels' factory and its shared parts
 * (contact/contact-kernels.ts), the narrowphase's (collision/collide-kernels.ts), the joint batch's (constraint/pivot-kernels.ts), the user
 * batch's (constraint/user-kernels.ts), the thread
 * runtime (thread-runtime.ts) and workerMain below, each
 * from its own `toString()`. Built from text rather than loaded from a file, so that no bundler has
 * to find a worker file inside a package, and tests run it from source as users do from a build.
 * Node runs it with `new Worker(text, { eval: true })`, a browser from a Blob URL.
 */
import { CONTACT_KERNEL_PARTS, contactKernels } from '../contact/contact-kernels.js';
import { PIVOT_KERNEL_PARTS, pivotKernels } from '../constraint/pivot-kernels.js';
import { BODY_KERNEL_PARTS, bodyKernels } from '../space/body-kernels.js';
import { COLLIDE_KERNEL_PARTS, collideKernels } from '../collision/collide-kernels.js';
import { USER_KERNEL_PARTS, userKernels } from '../constraint/user-kernels.js';
import { USER_POSE_KERNEL_PARTS, userPoseKernels } from '../constraint/user-pose-kernels.js';
import { threadRuntime } from './thread-runtime.js';

/**
 * The worker's loop, for Node's worker_threads and for Web Workers. It takes `init` (the control
 * block, the stage's numbers, the stage's arrays) and `views` (the arrays again, after one grew)
 * messages; between them it waits on the control block's SEQ for a command: a stage (run it), REMAP
 * (return to the event loop, where the new arrays are waiting as a message), or STOP.
 */
function workerMain(kernels: unknown, makeRuntime: typeof threadRuntime): void {
  // Slots and commands of parallel/control.ts.
  const SEQ = 0, CMD = 1, ACK = 4, SPIN = 32, REMAP = 9, STOP = 10;
  /**
   * How long (ms) a worker spins for the next command before it waits. Within a step the stages
   * follow each other within tens to hundreds of microseconds (the calling thread integrates and
   * runs the serial families between them), and a wait's wake-up costs tens of microseconds: so
   * a worker stays awake through a step's stages, and sleeps between steps.
   */
  const SPIN_MS = 1;
  type Port = { post(m: unknown): void; close(): void };
  const g = globalThis as unknown as {
    process?: { getBuiltinModule?(id: string): unknown };
    postMessage?(m: unknown): void;
    close?(): void;
    onmessage?: ((e: { data: unknown }) => void) | null;
  };
  const node = g.process?.getBuiltinModule?.('node:worker_threads') as
    | { parentPort: { on(t: 'message', f: (m: unknown) => void): void; postMessage(m: unknown): void; close(): void } }
    | undefined;
  let port: Port;
  const onMessage = (handle: (m: unknown) => void): void => {
    if (node) node.parentPort.on('message', handle);
    else g.onmessage = (e) => handle(e.data);
  };
  if (node) port = { post: (m) => node.parentPort.postMessage(m), close: () => node.parentPort.close() };
  else port = { post: (m) => g.postMessage!(m), close: () => g.close!() };

  let ctl: Int32Array;
  let runtime: ReturnType<typeof makeRuntime>;
  let views: Parameters<ReturnType<typeof makeRuntime>['stage']>[0];
  let lastSeq = 0;

  function loop(): void {
    for (;;) {
      let spins = 0;
      let since = 0;
      while (Atomics.load(ctl, SEQ) === lastSeq) {
        if ((++spins & 255) !== 0) continue; // the clock once every 256 spins
        const now = performance.now();
        if (since === 0) since = now;
        else if (now - since > SPIN_MS || ctl[SPIN] === 0) Atomics.wait(ctl, SEQ, lastSeq);
      }
      // The newest command: a worker that woke late skips the stages it missed (they are done).
      const seq = Atomics.load(ctl, SEQ);
      lastSeq = seq;
      const cmd = Atomics.load(ctl, CMD);
      if (cmd === STOP) {
        port.close();
        return;
      }
      // The new arrays wait as a message, which names the REMAP's sequence number.
      if (cmd === REMAP) return;
      runtime.stage(views, seq);
    }
  }

  onMessage((raw) => {
    const m = raw as { type: string; ctl: SharedArrayBuffer; prm: SharedArrayBuffer; seq: number; index: number; views: typeof views };
    if (m.type === 'init') {
      ctl = new Int32Array(m.ctl);
      // A worker never gives up waiting: the calling thread does (the pool then ends it).
      runtime = makeRuntime(kernels as Parameters<typeof makeRuntime>[0], ctl, new Float64Array(m.prm), true, 0, true, m.index);
      views = m.views;
      lastSeq = Atomics.load(ctl, SEQ);
      port.post({ type: 'ready' });
      loop();
    } else if (m.type === 'views') {
      views = m.views;
      // Past the REMAP (a worker that read its command early, as it was written, would otherwise
      // take the same REMAP again and wait for a message that never comes).
      lastSeq = m.seq;
      Atomics.add(ctl, ACK, 1);
      Atomics.notify(ctl, ACK);
      loop();
    }
  });
}

/** The program text, built once. */
let program: string | null = null;

export function workerProgram(): string {
  program ??= [
    '"use strict";',
    `const kernels = { contact: ${factoryCall(contactKernels, CONTACT_KERNEL_PARTS)}, pivot: ${factoryCall(pivotKernels, PIVOT_KERNEL_PARTS)}, body: ${factoryCall(bodyKernels, BODY_KERNEL_PARTS)}, collide: ${factoryCall(collideKernels, COLLIDE_KERNEL_PARTS)}, user: ${factoryCall(userKernels, USER_KERNEL_PARTS)}, userPose: ${factoryCall(userPoseKernels, USER_POSE_KERNEL_PARTS)} };`,
    `(${workerMain.toString()})(kernels, (${threadRuntime.toString()}));`,
  ].join('\n');
  return program;
}

/** `(factory)(part, ...)` as text: a kernel factory called with its parts, each standing alone. */
function factoryCall(factory: (...parts: never[]) => unknown, parts: readonly ((...args: never[]) => unknown)[]): string {
  return `(${factory.toString()})(${parts.map((f) => `(${f.toString()})`).join(', ')})`;
}
