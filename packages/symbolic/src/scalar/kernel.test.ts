/**
 * The compiled kernels and the interpreter give identical results: bitwise, Object.is on
 * every output, for the examples and random constraints, on random states and parameters.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSource } from '../compile.js';
import { DISTANCE, LINE, MOTOR, PIVOT, WELD } from '../examples.js';
import { params, positionSource, testBody } from '../test-support/expressions.js';
import { mulberry32, uniform } from '../test-support/random.js';
import { packState } from '../test-support/state.js';
import { ScalarGraph } from './ir.js';
import { compileKernel, interpretKernel, type Kernel } from './kernel.js';

function run(kernel: Kernel, state: Float64Array, p: Float64Array, size: number): Float64Array {
  const out = new Float64Array(size).fill(12345); // every output must be written
  kernel(state, p, out);
  return out;
}

function expectBitwiseEqual(a: Float64Array, b: Float64Array, what: string): void {
  expect(a.length).toBe(b.length);
  for (let i = 0; i < a.length; i++) {
    if (!Object.is(a[i], b[i])) throw new Error(`${what}: output ${i} differs: compiled ${a[i]} vs interpreted ${b[i]}`);
  }
}

describe('compiled and interpreted kernels are bitwise identical', () => {
  it('for the examples (main and bounds kernels), on random states and parameters', () => {
    const rand = mulberry32(42);
    for (const source of [WELD, DISTANCE, LINE, PIVOT, MOTOR]) {
      const program = compileSource(source);
      const compiled = program.kernels('function');
      const interpreted = program.kernels('interpreter');
      expect(compiled.mode).toBe('function');
      expect(interpreted.mode).toBe('interpreter');
      const mainSize = program.mainOutputs.length;
      for (let k = 0; k < 200; k++) {
        const bodies = [0, 1].map(() => ({
          px: uniform(rand, -5, 5),
          py: uniform(rand, -5, 5),
          angle: uniform(rand, -10, 10),
          lcx: uniform(rand, -1, 1),
          lcy: uniform(rand, -1, 1),
          vx: uniform(rand, -5, 5),
          vy: uniform(rand, -5, 5),
          w: uniform(rand, -5, 5),
        }));
        const state = packState(bodies);
        // Zero parameters too (a zero direction gives unit(0) = 0), and infinite limits.
        const p = Float64Array.from({ length: program.checked.paramCount }, () => (rand() < 0.1 ? 0 : rand() < 0.05 ? Infinity : uniform(rand, -3, 3)));
        expectBitwiseEqual(run(compiled.main, state, p, mainSize), run(interpreted.main, state, p, mainSize), `${source.split('\n')[0]} main`);
        const bs = program.boundsOutputs.length;
        expectBitwiseEqual(run(compiled.bounds, state, p, bs), run(interpreted.bounds, state, p, bs), `${source.split('\n')[0]} bounds`);
      }
    }
  });

  it('for random constraints', () => {
    fc.assert(
      fc.property(positionSource(3), params, fc.tuple(testBody, testBody), (source, p, bodies) => {
        const program = compileSource(source);
        const size = program.mainOutputs.length;
        const state = packState(bodies);
        expectBitwiseEqual(run(program.kernels('function').main, state, p, size), run(program.kernels('interpreter').main, state, p, size), source);
      }),
      { seed: 99, numRuns: 150 },
    );
  });

  it('for the awkward numbers: −0, ±Infinity, NaN, subnormals, and every operation', () => {
    const g = new ScalarGraph();
    const x = g.state(0);
    const y = g.param(0);
    const consts = [-0, Infinity, -Infinity, NaN, 5e-324, 0.1, -1e300, 1 / 3].map((v) => g.constant(v));
    const outputs = [
      ...consts,
      g.add(x, consts[4]!),
      g.sub(x, consts[7]!),
      g.mul(y, consts[1]!),
      g.div(x, y),
      g.neg(x),
      g.sqrt(x),
      g.abs(y),
      g.sign(y),
      g.cos(x),
      g.sin(y),
      g.safeInv(x),
      g.safeInv(y),
      g.mul(x, consts[0]!),
    ];
    const compiled = compileKernel(g, outputs);
    const interpreted = interpretKernel(g, outputs);
    for (const [sx, py] of [[2, -3], [-0, 0], [0, -0], [Infinity, NaN], [5e-324, -5e-324], [-7.5, 1e-308]] as const) {
      const s = Float64Array.of(sx);
      const p = Float64Array.of(py);
      expectBitwiseEqual(run(compiled, s, p, outputs.length), run(interpreted, s, p, outputs.length), `state ${sx}, param ${py}`);
    }
  });

  it("'auto' falls back to the interpreter when new Function throws; 'function' then fails clearly", () => {
    const program = compileSource(`${PIVOT}# a source of its own, so nothing is cached for it\n`);
    const csp = (): never => {
      throw new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not an allowed source");
    };
    expect(program.kernels('auto', csp).mode).toBe('interpreter');
    expect(() => program.kernels('function', csp)).toThrow(/compile 'function' needs `new Function`, which failed \(EvalError: Refused to evaluate/);
    expect(program.kernels('auto').mode).toBe('function');
  });
});
