/**
 * Non-finite values at run time and at compile time, said about the source: the
 * SymbolicRuntimeError the engine throws for a non-finite C or J (through
 * UserConstraint._nonFiniteError), on the batched and the one-by-one path, compiled and
 * interpreted; the compile-time error for an output that is never finite (`* inf`); and IEEE
 * arithmetic with ±Infinity parameters.
 */
import { BODY_STATE_STRIDE, BodyState, Body, Circle, FulcrumInputError, Space } from '@fulcrum/physics';
import { describe, expect, it } from 'vitest';
import { compileSource } from './compile.js';
import { SymbolicError, SymbolicRuntimeError, SymbolicTypeError } from './errors.js';
import { ScalarGraph } from './scalar/ir.js';
import { compileBulkKernel, constantOutputs, interpretBulkKernel } from './scalar/kernel.js';
import { SymbolicConstraint } from './symbolic-constraint.js';

const DT = 1 / 60;
const MODES = ['function', 'interpreter'] as const;
/** The engine's user batch, and the one-by-one path (the engine's test routing). */
const PATHS = [true, false] as const;

interface Setup {
  compile: (typeof MODES)[number];
  batched: boolean;
  /** Where body2 starts (body1 is static at the origin). */
  at?: [number, number];
  scalars?: Record<string, number>;
  vectors?: Record<string, [number, number]>;
}

/** A static body1 at the origin and a dynamic body2, joined by `source`; the error of the first step. */
function firstStepError(source: string, s: Setup): { error: Error; c: SymbolicConstraint } {
  const space = new Space({ gravity: [0, -10] });
  Object.assign((space as unknown as { _pipeline: { plan: { routing: object } } })._pipeline.plan.routing, { userBatch: s.batched });
  const b1 = space.addBody(new Body({ type: 'static' }));
  const b2 = space.addBody(new Body({ position: s.at ?? [1, 0.5], shapes: [new Circle({ radius: 0.2 })] }));
  const c = space.addConstraint(new SymbolicConstraint({ source, compile: s.compile, bodies: { b1, b2 }, scalars: s.scalars, vectors: s.vectors }));
  try {
    space.step(DT);
  } catch (error) {
    // The path really taken: a position constraint is in the user batch exactly when routed there.
    const batch = (space as unknown as { _pipeline: { userBatch: { count: number } } })._pipeline.userBatch;
    expect(batch.count, source).toBe(s.batched && !c.velocityOnly ? 1 : 0);
    return { error: error as Error, c };
  }
  throw new Error(`no error for ${JSON.stringify(source)}`);
}

/** Line and column (1-based) of `text` in `source`. */
function where(source: string, text: string): [number, number] {
  const i = source.indexOf(text);
  expect(i, text).toBeGreaterThanOrEqual(0);
  const before = source.slice(0, i).split('\n');
  return [before.length, before[before.length - 1]!.length + 1];
}

/** The message's last two lines: the source line and a caret under `text`. */
function excerpt(source: string, text: string): string {
  const [line, column] = where(source, text);
  const sourceLine = source.split('\n')[line - 1]!;
  return `  ${line} | ${sourceLine}\n  ${' '.repeat(String(line).length)} | ${' '.repeat(column - 1)}^${'~'.repeat(text.length - 1)}`;
}

/** Every combination of compile mode and solver path. */
function eachPath(run: (s: { compile: (typeof MODES)[number]; batched: boolean }, label: string) => void): void {
  for (const compile of MODES) for (const batched of PATHS) run({ compile, batched }, `${compile}, ${batched ? 'batched' : 'one by one'}`);
}

describe('a non-finite C or J names the sub-expression of the source', () => {
  it('C: a division by a parameter k = 0 (position() row, the division, its operands, the place)', () => {
    const source = 'body b1, b2\nscalar k\nconstraint\n  b2.position.x - b1.position.x + 1 / k\n';
    eachPath((s, label) => {
      const { error, c } = firstStepError(source, s);
      expect(error, label).toBeInstanceOf(SymbolicRuntimeError);
      expect(error).toBeInstanceOf(SymbolicError);
      const e = error as SymbolicRuntimeError;
      const [line, column] = where(source, '1 / k');
      expect(e.message, label).toBe(`SymbolicConstraint#${c.id}: position() wrote Infinity in row 0: \`1 / k\` = Infinity, from \`1\` = 1 and \`k\` = 0 at ${line}:${column}\n${excerpt(source, '1 / k')}`);
      expect([e.hook, e.row, e.jacobianColumn, e.value, e.line, e.column, e.prop, e.owner]).toEqual(['position', 0, -1, Infinity, line, column, 'source', 'SymbolicConstraint']);
    });
    // With k ≠ 0 the same constraint steps.
    const space = new Space();
    const b2 = space.addBody(new Body({ position: [1, 0], shapes: [new Circle({ radius: 0.2 })] }));
    space.addConstraint(new SymbolicConstraint({ source, bodies: { b1: space.addBody(new Body({ type: 'static' })), b2 }, scalars: { k: 2 } }));
    space.step(DT);
    expect(b2.x).toBeCloseTo(-0.5, 6); // C = x − 0 + 1/2 = 0
  });

  it('C: a division by the length |v - w| of two equal vector parameters', () => {
    const source = 'body b1, b2\nscalar s\nvector v, w\nconstraint b2.rotation - b1.rotation + s / |v - w|\n';
    eachPath((s, label) => {
      const { error, c } = firstStepError(source, { ...s, scalars: { s: 2 }, vectors: { v: [0.3, 0.4], w: [0.3, 0.4] } });
      const [line, column] = where(source, 's / |v - w|');
      expect(error.message.split('\n')[0], label).toBe(`SymbolicConstraint#${c.id}: position() wrote Infinity in row 0: \`s / |v - w|\` = Infinity, from \`s\` = 2 and \`|v - w|\` = 0 at ${line}:${column}`);
    });
  });

  it('J: a division by k = 0, in the derivative of the written division', () => {
    const source = 'body b1, b2\nscalar k\nconstraint (b2.position.x - b1.position.x) / k\n';
    const written = '(b2.position.x - b1.position.x) / k';
    eachPath((s, label) => {
      const { error, c } = firstStepError(source, s);
      expect(error, label).toBeInstanceOf(SymbolicRuntimeError);
      const e = error as SymbolicRuntimeError;
      // ∂C/∂(b1's x velocity) = −1 / k: the derivation's own term, shown printed, at the division it is the derivative of.
      const [line, column] = where(source, written);
      expect(e.message, label).toBe(
        `SymbolicConstraint#${c.id}: jacobian() wrote -Infinity in row 0, column 0 (x of b1): in the derivative of \`${written}\`, \`-1 / k\` = -Infinity, from \`-1\` = -1 and \`k\` = 0 at ${line}:${column}\n${excerpt(source, written)}`,
      );
      expect([e.hook, e.row, e.jacobianColumn, e.value]).toEqual(['jacobian', 0, 0, -Infinity]);
    });
  });

  it('J: unit of the zero vector (coincident points) divides by their distance 0, in the derivative of unit', () => {
    const source = 'body b1, b2\nconstraint unit(b2.position - b1.position)\n';
    eachPath((s, label) => {
      const { error, c } = firstStepError(source, { ...s, at: [0, 0] });
      const e = error as SymbolicRuntimeError;
      expect(e, label).toBeInstanceOf(SymbolicRuntimeError);
      const [line, column] = where(source, 'unit(b2.position - b1.position)');
      const first = e.message.split('\n')[0]!;
      // (unit v)' = (v' − u (u·v')) / |v| with u = unit 0 = 0 and v' = −(1, 0) for b1's x velocity: (−1, 0) / 0.
      expect(first.startsWith(`SymbolicConstraint#${c.id}: jacobian() wrote -Infinity in row 0, column 0 (x of b1): in the derivative of \`unit(b2.position - b1.position)\`, `), first).toBe(true);
      expect(first).toContain('= (-Infinity, NaN), from ');
      expect(first).toContain('= (-1, 0) and `|b2.position - b1.position|` = 0');
      expect(first.endsWith(` at ${line}:${column}`)).toBe(true);
      expect([e.line, e.column]).toEqual([line, column]);
    });
    // Apart, the same constraint steps.
    const space = new Space();
    const b2 = space.addBody(new Body({ position: [1, 0], shapes: [new Circle({ radius: 0.2 })] }));
    space.addConstraint(new SymbolicConstraint({ source: 'body b1, b2\nconstraint unit(b2.position - b1.position) cross [0 1] - 1', bodies: { b1: space.addBody(new Body({ type: 'static' })), b2 } }));
    expect(() => space.step(DT)).not.toThrow();
  });

  it('C: a culprit bound by a let is pointed at in the let', () => {
    const source = 'body b1, b2\nscalar k\nconstraint\n  let q = 1 / k in\n  b2.position.x - b1.position.x + q\n';
    eachPath((s, label) => {
      const { error } = firstStepError(source, s);
      const [line, column] = where(source, '1 / k');
      expect([(error as SymbolicRuntimeError).line, (error as SymbolicRuntimeError).column], label).toEqual([line, column]);
      expect(error.message.split('\n')[0]).toMatch(/position\(\) wrote Infinity in row 0: `1 \/ k` = Infinity, from `1` = 1 and `k` = 0 at 4:11$/);
    });
  });

  it('a velocity constraint: velocity() and jacobian() name their row', () => {
    const source = 'body b1, b2\nscalar k\nvelocity b2.angularVel - b1.angularVel + 1 / k\n';
    const jSource = 'body b1, b2\nscalar k\nvelocity b2.angularVel / k - b1.angularVel\n';
    for (const compile of MODES) {
      const { error, c } = firstStepError(source, { compile, batched: true });
      const [line, column] = where(source, '1 / k');
      expect(error.message.split('\n')[0]).toBe(`SymbolicConstraint#${c.id}: velocity() wrote Infinity in row 0: \`1 / k\` = Infinity, from \`1\` = 1 and \`k\` = 0 at ${line}:${column}`);
      // J = ∂V/∂ω2 = 1 / k: V is the source here, so the derivative is of the written division.
      const j = firstStepError(jSource, { compile, batched: true });
      const [jl, jc] = where(jSource, 'b2.angularVel / k');
      expect(j.error.message.split('\n')[0]).toBe(`SymbolicConstraint#${j.c.id}: jacobian() wrote Infinity in row 0, column 5 (θ of b2, about its centre of mass): in the derivative of \`b2.angularVel / k\`, \`1 / k\` = Infinity, from \`1\` = 1 and \`k\` = 0 at ${jl}:${jc}`);
    }
  });

  it("falls back to the engine's error when the output is finite at the state given, or is not the source's", () => {
    const c = new SymbolicConstraint({ source: 'body b1, b2\nconstraint unit(b2.position - b1.position)', bodies: { b1: new Body(), b2: new Body() } });
    const apart = new Float64Array(2 * BODY_STATE_STRIDE);
    apart[BodyState.cos] = apart[BODY_STATE_STRIDE + BodyState.cos] = 1;
    apart[BODY_STATE_STRIDE + BodyState.x] = 1;
    const fallback = c._nonFiniteError('jacobian', 0, 1, NaN, apart);
    expect(fallback).toBeInstanceOf(FulcrumInputError);
    expect(fallback.message).toBe(`SymbolicConstraint#${c.id}: jacobian() wrote a non-finite value (NaN) in row 0, column 1 (y of bodies[0])`);
    expect(c._nonFiniteError('clamp', 0, -1, NaN, apart)).toBeInstanceOf(FulcrumInputError);
    // Without a state, the bodies' own: both at the origin, so J is not finite there.
    expect(c._nonFiniteError('jacobian', 0, 0, -Infinity, null)).toBeInstanceOf(SymbolicRuntimeError);
    // The same at the coincident state passed explicitly.
    const together = apart.slice();
    together[BODY_STATE_STRIDE + BodyState.x] = 0;
    const e = c._nonFiniteError('jacobian', 1, 4, NaN, together) as SymbolicRuntimeError;
    expect(e.message.split('\n')[0]).toMatch(/^SymbolicConstraint#\d+: jacobian\(\) wrote NaN in row 1, column 4 \(y of b2\): in the derivative of `unit\(b2.position - b1.position\)`, /);
  });
});

describe('`* inf`: an output never finite is an error in the source, at compile time', () => {
  it('J of `x * inf` is inf whatever the state: a SymbolicTypeError at the inf, not a batch-kernel error at the step', () => {
    const source = 'body b\nconstraint b.position.x * inf';
    const e = (() => {
      try {
        new SymbolicConstraint(source);
      } catch (error) {
        return error as SymbolicTypeError;
      }
      throw new Error('accepted');
    })();
    expect(e).toBeInstanceOf(SymbolicTypeError);
    expect(e.message).toBe(
      `J row 0, column 0 (x of b) is Infinity whatever the state: in the derivative of \`b.position.x * inf\`, \`inf\` = Infinity at 2:27, a constraint needs finite rows and derivatives: use a large finite number instead of inf\n${excerpt(source, 'inf')}`,
    );
    expect(e.message).not.toMatch(/batchKernel|constantJacobian/);
    expect(() => new SymbolicConstraint('body b\nconstraint b.rotation * inf')).toThrow(/^J row 0, column 2 \(θ of b, about its centre of mass\) is Infinity whatever the state: in the derivative of `b.rotation \* inf`/);
    expect(() => new SymbolicConstraint('body b\nconstraint { b.position.x  inf }')).toThrow(/^C row 1 is Infinity whatever the state: `inf` = Infinity at 2:28/);
  });

  it('J that is infinite only for some parameter values is left to the runtime error', () => {
    const source = 'body b1, b2\nscalar s\nconstraint b2.position.x * s - b1.position.x';
    eachPath((s, label) => {
      const { error, c } = firstStepError(source, { ...s, scalars: { s: Infinity } });
      const [line, column] = where(source, 's -');
      expect(error.message.split('\n')[0], label).toBe(`SymbolicConstraint#${c.id}: jacobian() wrote Infinity in row 0, column 3 (x of b2): in the derivative of \`b2.position.x * s\`, \`s\` = Infinity at ${line}:${column}`);
    });
  });

  it('no non-finite constant is declared to the engine (constantJacobian), and the bulk kernels write it instead', () => {
    for (const source of ['body b1, b2\nscalar s\nconstraint b2.position.x * s - b1.position.x + 2 * b2.rotation', 'body b1, b2\nvector a\nconstraint b2.position - b1.position - a']) {
      for (const compile of MODES) {
        const kernel = compileSource(source).kernels(compile).batch;
        expect(kernel.constantJacobian!.length).toBeGreaterThan(0);
        for (const [, v] of kernel.constantJacobian!) expect(Number.isFinite(v)).toBe(true);
      }
    }
    const g = new ScalarGraph();
    const outputs = [g.constant(Infinity), g.constant(2), g.state(0), g.constant(NaN)];
    expect(constantOutputs(g, outputs)).toEqual([[1, 2]]);
    for (const make of [compileBulkKernel, interpretBulkKernel]) {
      const J = new Float64Array(3).fill(7);
      make(g, outputs, 'J', { slots: 1, paramCount: 0 })(0, 1, { states: Float64Array.of(5), slotState: Int32Array.of(0), params: new Float64Array(0), J, C: new Float64Array(0) } as never);
      expect(Array.from(J)).toEqual([Infinity, 5, NaN]);
    }
  });
});

describe('IEEE: inf - inf, 0 * inf and 0 / 0 are NaN, at compile time and at run time', () => {
  it('with constants: a located SymbolicTypeError when compiling', () => {
    const cases: [string, string, string][] = [
      ['constraint b.rotation + (inf - inf)', 'C row 0 is NaN whatever the state: `(inf - inf)` = NaN', '(inf - inf)'],
      ['constraint b.rotation * (0 * inf)', 'C row 0 is NaN whatever the state: `(0 * inf)` = NaN', '(0 * inf)'],
      ['constraint { b.position  0 / 0 }', 'C row 2 is NaN whatever the state: `0 / 0` = NaN', '0 / 0'],
      ['scalar s\nlimit s (0 * inf) 1\nconstraint b.rotation', "the lower bound of 'limit s (0 * inf) 1' is NaN whatever the parameters: `(0 * inf)` = NaN", '(0 * inf)'],
      ['limit constraint (inf - inf) 1\nconstraint b.rotation', "the lower bound of row 0 in 'limit constraint (inf - inf) 1' is NaN whatever the parameters: `(inf - inf)` = NaN", '(inf - inf)'],
    ];
    for (const [body, reason, at] of cases) {
      const source = `body b\n${body}`;
      let e: SymbolicTypeError | null = null;
      try {
        compileSource(source);
      } catch (error) {
        e = error as SymbolicTypeError;
      }
      expect(e, body).toBeInstanceOf(SymbolicTypeError);
      expect(e!.reason, body).toBe(reason);
      expect([e!.line, e!.column], body).toEqual(where(source, at));
    }
    // inf itself is fine where it is meant: a bound, or a one-sided row.
    expect(() => compileSource('body b\nscalar lo\nlimit lo (-inf) inf\nlimit constraint -inf lo\nconstraint b.rotation')).not.toThrow();
  });

  it('with parameters set to ±Infinity: s - s and s * 0 are NaN at run time, not 0', () => {
    for (const [expr, value] of [['(s - s)', Infinity], ['(s - s)', -Infinity], ['s * 0', -Infinity], ['0 * s', Infinity]] as const) {
      const source = `body b1, b2\nscalar s\nconstraint b2.rotation - b1.rotation + ${expr}\n`;
      eachPath((p, label) => {
        const { error, c } = firstStepError(source, { ...p, scalars: { s: value } });
        const [line, column] = where(source, expr);
        // (A product's operands are listed in the simplifier's canonical order.)
        const operands = expr === '(s - s)' ? `\`s\` = ${value} and \`s\` = ${value}` : `\`0\` = 0 and \`s\` = ${value}`;
        expect(error.message.split('\n')[0], `${expr} = ${value}, ${label}`).toBe(`SymbolicConstraint#${c.id}: position() wrote NaN in row 0: \`${expr}\` = NaN, from ${operands} at ${line}:${column}`);
      });
      // With a finite s the term is 0 and the constraint holds the rotations together.
      const space = new Space();
      const b2 = space.addBody(new Body({ position: [1, 0], rotation: 0.3, shapes: [new Circle({ radius: 0.2 })] }));
      space.addConstraint(new SymbolicConstraint({ source, bodies: { b1: space.addBody(new Body({ type: 'static' })), b2 }, scalars: { s: 3 } }));
      for (let i = 0; i < 30; i++) space.step(DT);
      expect(Math.abs(b2.rotation)).toBeLessThan(1e-6);
    }
  });

  it('the scalar program keeps x - x and 0 * x for a parameter that may be infinite; compiled and interpreted agree', () => {
    const g = new ScalarGraph();
    const scalar = g.param(0);
    const component = g.param(1, true);
    expect(g.isConst(g.sub(scalar, scalar))).toBe(false);
    expect(g.isConst(g.mul(scalar, g.constant(0)))).toBe(false);
    expect(g.isConst(g.div(g.constant(0), scalar))).toBe(false);
    expect(g.isConst(g.sub(component, component), 0)).toBe(true);
    expect(g.isConst(g.mul(g.constant(0), component), 0)).toBe(true);
    expect(g.isConst(g.div(g.constant(0), g.constant(2)), 0)).toBe(true);
    expect(g.value[g.sub(g.constant(Infinity), g.constant(Infinity))]).toBeNaN();
    expect(g.value[g.mul(g.constant(Infinity), g.constant(0))]).toBeNaN();
    const program = compileSource('body b\nscalar s\nconstraint b.rotation + (s - s) + s * 0');
    for (const mode of MODES) {
      const out = new Float64Array(program.mainOutputs.length);
      const state = new Float64Array(BODY_STATE_STRIDE);
      state[BodyState.rotation] = 0.25;
      program.kernels(mode).main(state, Float64Array.of(-Infinity), out);
      expect(out[0], mode).toBeNaN();
      program.kernels(mode).main(state, Float64Array.of(7), out);
      expect(out[0], mode).toBe(0.25);
    }
  });
});
