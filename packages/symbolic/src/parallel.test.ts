/**
 * SymbolicConstraints in a space with workers: their rows join the user batch's colours, whose
 * velocity passes run on every thread (@fulcrum/physics, constraint/user-kernels.ts), and a space
 * steps bitwise the same at 0, 1 and 2 workers. The net mixes what a user writes: pivots (compiled,
 * and interpreted: another kernel group), welds of three rows, soft pivots, distance limits (the
 * calling thread's, in the overflow) and a velocity motor (outside the batch).
 */
import { availableParallelism } from 'node:os';
import { afterEach, describe, expect, it } from 'vitest';
import { Body, Circle, Space } from '@fulcrum/physics';
import { SymbolicConstraint } from './symbolic-constraint.js';
import { DISTANCE, MOTOR, PIVOT, WELD } from './examples.js';

const spaces: Space[] = [];
afterEach(() => {
  for (const s of spaces.splice(0)) s.dispose();
});

/** The exact bits of every body's pose and velocity, folded (FNV-1a over the doubles' words). */
function hash(bodies: readonly Body[]): string {
  const f = new Float64Array(6 * bodies.length);
  bodies.forEach((b, i) => f.set([b.x, b.y, b.rotation, b.velocity.x, b.velocity.y, b.angularVel], 6 * i));
  let h = 0x811c9dc5;
  for (const w of new Uint32Array(f.buffer)) h = Math.imul(h ^ w, 0x01000193) >>> 0;
  return h.toString(16);
}

async function net(workers: number): Promise<{ space: Space; bodies: Body[] }> {
  const space = new Space({ gravity: [0, -10], workers, allowSleep: false });
  spaces.push(space);
  const n = 34;
  const grid: Body[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const pinned = j === 0 && (i === 0 || i === n - 1 || i === n >> 1);
      grid.push(space.addBody(new Body({ type: pinned ? 'static' : 'dynamic', position: [i, -j], shapes: [new Circle({ radius: 0.3, filter: { mask: 0 } })] })));
    }
  }
  let k = 0;
  const join = (a: Body, b: Body, anchor1: [number, number], anchor2: [number, number]) => {
    const at = k++;
    const bodies = { body1: a, body2: b };
    const vectors = { anchor1, anchor2 };
    if (at % 11 === 5) return space.addConstraint(new SymbolicConstraint({ source: WELD, bodies, vectors, scalars: { phase: 0 } }));
    const soft = at % 40 === 39 ? { stiff: false, frequency: 5, damping: 0.6 } : {};
    return space.addConstraint(new SymbolicConstraint({ source: PIVOT, bodies, vectors, compile: at % 5 === 2 ? 'interpreter' : 'auto', ...soft }));
  };
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const at = grid[i * n + j]!;
      if (i + 1 < n) join(at, grid[(i + 1) * n + j]!, [0.5, 0], [-0.5, 0]);
      if (j + 1 < n) join(at, grid[i * n + j + 1]!, [0, -0.5], [0, 0.5]);
      if (i + 1 < n && j + 1 < n && (i + j) % 8 === 0) {
        space.addConstraint(new SymbolicConstraint({ source: DISTANCE, bodies: { body1: at, body2: grid[(i + 1) * n + j + 1]! }, vectors: { anchor1: [0, 0], anchor2: [0, 0] }, scalars: { jointMin: 1.3, jointMax: 1.5 } }));
      }
    }
  }
  space.addConstraint(new SymbolicConstraint({ source: MOTOR, bodies: { body1: grid[n * 5 + 5]!, body2: grid[n * 6 + 5]! }, scalars: { rate: 1, ratio: 1 } }));
  await space.workersReady;
  return { space, bodies: grid };
}

describe('SymbolicConstraints with workers', () => {
  it('step bitwise the same at 0, 1 and 2 workers', async () => {
    const run = async (workers: number) => {
      const { space, bodies } = await net(workers);
      // At most one fewer workers than the cores start (the calling thread takes a share).
      expect(space.parallel.workers).toBe(Math.min(workers, availableParallelism() - 1));
      for (let i = 0; i < 120; i++) space.step(1 / 60);
      expect(bodies.every((b) => Number.isFinite(b.x) && Number.isFinite(b.y))).toBe(true);
      return hash(bodies);
    };
    const serial = await run(0);
    for (const workers of [1, 2]) expect(await run(workers), `${workers} workers`).toBe(serial);
  }, 120_000);
});
