/**
 * The derivation against finite differences, for random well-typed constraints and random body
 * states (bodies whose centre of mass is off their origin):
 *  - V, the symbolic time derivative of C, equals the central difference of C along the
 *    bodies' motion (origin moving at its velocity, angle at ω);
 *  - J, the Jacobian the engine receives, equals the central differences of C in each body's
 *    centre-of-mass x, y and angle about the centre of mass (the engine's columns);
 *  - V = J v with the centre-of-mass velocities (what the engine computes from J);
 *  - for velocity constraints, J equals the differences of V in each body's centre-of-mass
 *    velocity and ω, and `body.velocity` is the origin's velocity, v_c + ω·perp(p − c).
 * Relative error 1e-6. A sample where C is not smooth at the difference step (a `unit` or `|v|`
 * of a near-zero vector) is recognised by two step sizes disagreeing, and skipped.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { BODY_STATE_STRIDE, BodyState } from './body-state.js';
import { compileSource } from './compile.js';
import { params, positionSource, testBody, velocitySource } from './test-support/expressions.js';
import { displaceAboutCenter, packState, type TestBody } from './test-support/state.js';

const EPS = 1e-6;
const TOL = 1e-6;

function close(sym: number, fd: number): boolean {
  return Math.abs(sym - fd) <= TOL * Math.max(1, Math.abs(sym), Math.abs(fd));
}

/** Central difference of f at step e, or null where f is not smooth enough at that scale. */
function centralDifference(f: (t: number) => Float64Array, rows: number): Float64Array | null {
  const at = (e: number): Float64Array => {
    const p = f(e);
    const m = f(-e);
    return p.map((v, i) => (v - m[i]!) / (2 * e)).subarray(0, rows);
  };
  const a = at(EPS);
  const b = at(4 * EPS);
  // Truncation error grows 16× from EPS to 4·EPS: a smooth C shows almost no change. A kink
  // straddled by both steps hides from that test but not from one-sided differences.
  const f0 = f(0);
  const fp = f(EPS);
  const fm = f(-EPS);
  for (let i = 0; i < rows; i++) {
    if (!Number.isFinite(a[i]!) || !close(a[i]!, b[i]!)) return null;
    const forward = (fp[i]! - f0[i]!) / EPS;
    const backward = (f0[i]! - fm[i]!) / EPS;
    if (Math.abs(forward - backward) > 1e-3 * Math.max(1, Math.abs(a[i]!))) return null;
  }
  return a;
}

describe('symbolic derivatives equal finite differences', () => {
  it('V = dC/dt, J about the centre of mass, and V = J v, for random constraints and states', () => {
    let checked = 0;
    let skipped = 0;
    fc.assert(
      fc.property(positionSource(3), params, fc.tuple(testBody, testBody), (source, p, bodies) => {
        const program = compileSource(source);
        const { main } = program.kernels('function');
        const n = program.rows;
        const C = (state: Float64Array): Float64Array => {
          const out = new Float64Array(n + n * program.columns);
          main(state, p, out);
          return out;
        };
        const state0 = packState(bodies);
        const out0 = C(state0);
        if (!out0.every(Number.isFinite)) {
          skipped++;
          return;
        }
        // V against d/dt
        const V = new Float64Array(n);
        program.rates()(state0, p, V);
        const dCdt = centralDifference((t) => C(packState(bodies, t)), n);
        if (dCdt === null) {
          skipped++;
          return;
        }
        for (let r = 0; r < n; r++) expect(close(V[r]!, dCdt[r]!), `row ${r}: V ${V[r]} vs finite difference ${dCdt[r]}\n${source}`).toBe(true);
        // J against displacements about the centre of mass
        for (let s = 0; s < 2; s++) {
          for (let k = 0; k < 3; k++) {
            const d = centralDifference((e) => C(displaceAboutCenter(bodies as TestBody[], s, k === 0 ? e : 0, k === 1 ? e : 0, k === 2 ? e : 0)), n);
            if (d === null) {
              skipped++;
              return;
            }
            for (let r = 0; r < n; r++) {
              const j = out0[n + r * program.columns + 3 * s + k]!;
              expect(close(j, d[r]!), `J[row ${r}][body ${s} column ${k}] ${j} vs finite difference ${d[r]}\n${source}`).toBe(true);
            }
          }
        }
        // V = J v_c
        for (let r = 0; r < n; r++) {
          let jv = 0;
          for (let s = 0; s < 2; s++) {
            const o = s * BODY_STATE_STRIDE;
            const base = n + r * program.columns + 3 * s;
            jv += out0[base]! * state0[o + BodyState.vx]! + out0[base + 1]! * state0[o + BodyState.vy]! + out0[base + 2]! * state0[o + BodyState.angularVel]!;
          }
          expect(Math.abs(jv - V[r]!)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(V[r]!)));
        }
        checked++;
      }),
      { seed: 20261122, numRuns: 300 },
    );
    // The skip rule must not hide the test: most samples are checked.
    expect(checked).toBeGreaterThan(250);
    expect(skipped).toBeLessThan(50);
  });

  it('velocity constraints: J = ∂V/∂(v_c, ω), and body.velocity is the origin velocity', () => {
    fc.assert(
      fc.property(velocitySource(2), params, fc.tuple(testBody, testBody), (source, p, bodies) => {
        const program = compileSource(source);
        const { main } = program.kernels('function');
        const n = program.rows;
        const size = n + n * program.columns;
        const V = (state: Float64Array): Float64Array => {
          const out = new Float64Array(size);
          main(state, p, out);
          return out;
        };
        const state0 = packState(bodies);
        const out0 = V(state0);
        if (!out0.every(Number.isFinite)) return;
        for (let s = 0; s < 2; s++) {
          for (const [k, offset] of [BodyState.vx, BodyState.vy, BodyState.angularVel].entries()) {
            const shifted = (e: number): Float64Array => {
              const st = state0.slice();
              st[s * BODY_STATE_STRIDE + offset] = st[s * BODY_STATE_STRIDE + offset]! + e;
              return V(st);
            };
            // V is affine in the velocities: the difference is exact up to rounding.
            const d = (shifted(1e-3)[0]! - shifted(-1e-3)[0]!) / 2e-3;
            const j = out0[n + 3 * s + k]!;
            expect(Math.abs(j - d), `J[body ${s}][${k}] ${j} vs ${d}\n${source}`).toBeLessThanOrEqual(1e-7 * Math.max(1, Math.abs(j)));
          }
        }
      }),
      { seed: 5, numRuns: 150 },
    );
    // The origin's velocity, by hand, for a body whose centre of mass is off its origin.
    const program = compileSource('body b\nvelocity { b.velocity b.angularVel }');
    const body = { px: 1, py: 2, angle: 0.3, lcx: 0.4, lcy: -0.2, vx: 0.7, vy: -1.1, w: 1.9 };
    const state = packState([body]);
    const out = new Float64Array(3 + 3 * 3);
    program.kernels('interpreter').main(state, new Float64Array(0), out);
    expect(out[0]).toBeCloseTo(body.vx, 12);
    expect(out[1]).toBeCloseTo(body.vy, 12);
    expect(out[2]).toBe(body.w);
  });
});

