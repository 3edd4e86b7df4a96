/**
 * The simplifier (the expression builder) and the printer: constant folding, zero and one
 * elimination, literal expansion, common subexpressions shared, and printed text that parses
 * back to the same expression.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSource } from '../compile.js';
import { DISTANCE, LINE, PIVOT, WELD } from '../examples.js';
import { check } from '../lang/checker.js';
import { HEADER, positionSource } from '../test-support/expressions.js';
import { Printer } from './print.js';

const H = 'body b1, b2\nscalar s, t\nvector v, w\n';
/** The constraint expression, printed. */
function simplified(expr: string): string {
  const p = check(`${H}constraint ${expr}`);
  return new Printer(p.parts).printParts(p.parts);
}

describe('simplifier', () => {
  /** `input` simplifies to what `expected` (already simplest) is. */
  const same = (input: string, expected: string): void => expect(simplified(input)).toBe(simplified(expected));

  it('folds constants', () => {
    same('b1.rotation + (2 * 3 - 1)', 'b1.rotation + 5');
    // No reassociation: (x + 6) - 1 is not x + 5 in floating point.
    same('b1.rotation + 2 * 3 - 1', 'b1.rotation + 6 - 1');
    expect(simplified('b1.rotation + 2 * 3 - 1')).not.toBe(simplified('b1.rotation + 5'));
    same('b1.position + ([1 2] * 2 - [0.5 0])', 'b1.position + [1.5 4]');
    same('b1.position + [1 2 ; 3 4] * [1 1]', 'b1.position + [3 7]');
    same('b1.position + ([1 0] outer [0 2]) * [1 1]', 'b1.position + [2 0]');
    same('b1.rotation + (|[3 4]| + eps * 0)', 'b1.rotation + 5');
    same('b1.position + (relative 0 v) + unit [0 2]', 'b1.position + v + [0 1]');
  });

  it('eliminates zeros and ones, and x - x', () => {
    expect(simplified('0 * b2.rotation + 1 * b1.rotation * 1 / 1')).toBe('b1.rotation');
    expect(simplified('b1.position + 0 * v - [0 0] + w * 0')).toBe('b1.position');
    expect(simplified('b1.rotation + (v.x - v.x)')).toBe('b1.rotation');
    same('b1.rotation - -s', 'b1.rotation + s');
    expect(simplified('(-1) * b1.rotation')).toBe('-b1.rotation');
    expect(simplified('b1.position + 0 cross v + ([0 0] dot w) * [1 1]')).toBe('b1.position');
  });

  it('follows IEEE 754: inf - inf, 0 * inf and 0 / 0 fold to NaN, 1 / 0 to inf', () => {
    /** The constant a scalar constant expression folds to (the checker alone: the compiler would reject NaN). */
    const folded = (expr: string): number => {
      const part = check(`${H}constraint { b1.rotation  ${expr} }`).parts[1]!;
      expect(part.op, expr).toBe('num');
      return part.value;
    };
    for (const nan of ['inf - inf', '(-inf) + inf', 'inf * 0', '0 * inf', '0 * (-inf)', '0 / 0', 'inf / inf', '(0 * inf) * 0', '|[inf 0]| - inf', '[inf 1] dot [0 1]', '(0 cross [inf 1]).y']) {
      expect(folded(nan), nan).toBeNaN();
    }
    expect(folded('1 / 0')).toBe(Infinity);
    expect(folded('-1 / 0')).toBe(-Infinity);
    expect(folded('inf + inf')).toBe(Infinity);
    expect(folded('0 / inf')).toBe(0);
    expect(folded('(unit [inf 0]).x')).toBeNaN(); // inf · (1 / |v|) = inf · 0, as the kernels compute unit
    expect(folded('(unit [inf 0]).y')).toBe(0);
  });

  it('keeps x - x, 0 * x and 0 / x for an x that may be infinite (a scalar parameter, inf, a division); folds them for a finite x', () => {
    // Scalars may be ±Infinity: s - s is NaN then, not 0.
    for (const kept of ['s - s', 's * 0', '0 * s', '0 / s', '(b1.rotation / s) * 0', '(b1.rotation / s - b1.rotation / s)', '0 / b1.rotation']) {
      expect(simplified(`b1.rotation + (${kept})`), kept).not.toBe('b1.rotation');
    }
    same('b1.position + (relative s [0 0])', 'b1.position + (relative s [0 0])');
    expect(simplified('b1.position + (relative s [0 0])')).not.toBe('b1.position');
    expect(simplified('b1.position + relative 0 [s 1]')).not.toBe('b1.position + [s 1]');
    // Body fields, vector parameters (finite by setVector) and finite constants: folded.
    for (const gone of ['v.x - v.x', 'b2.rotation * 0', '0 * |b2.position - v|', '0 / 2', '(b2.rotation / 2) * 0', 'w dot [0 0]']) {
      expect(simplified(`b1.rotation + (${gone})`), gone).toBe('b1.rotation');
    }
    expect(simplified('b1.position + (relative b2.rotation [0 0]) + relative 0 v')).toBe('b1.position + v');
  });

  it('expands literals into their entries', () => {
    expect(simplified('[1 0] dot b1.position')).toBe('b1.position.x');
    expect(simplified('b1.position cross [0 1]')).toBe('b1.position.x');
    same('b1.position + v.y * [1 0]', 'b1.position + [v.y 0]');
    same('b1.position + [s t] perp', 'b1.position + [-t s]');
    same('b1.rotation + [s t].y', 'b1.rotation + t');
    same('b1.position + 1 cross v', 'b1.position + [v] perp');
    expect(simplified('b1.position + [v] perp')).not.toBe(simplified('b1.position + v'));
  });

  it('shares common subexpressions: equal expressions are one object', () => {
    const p = check(`${H}constraint { |b2.position - b1.position| + s   (b2.position - b1.position) * |b2.position - b1.position| }`);
    const norm = p.parts[0]!.args.find((a) => a.op === 'norm')!;
    const product = p.parts[1]!;
    expect(product.args).toContain(norm);
    expect(product.args.some((a) => a === norm.args[0])).toBe(true);
    // Commutative operands are ordered, so a + b and b + a are shared too.
    const q = check(`${H}constraint { b1.rotation + s   s + b1.rotation }`);
    expect(q.parts[0]).toBe(q.parts[1]);
  });

  it('prints shared subexpressions as lets, named after the user\'s let', () => {
    const p = check(`${H}constraint let d = b2.position - b1.position in d * (d dot d) + d`);
    const printer = new Printer(p.parts);
    expect(printer.bindings()).toEqual(['let d = b2.position - b1.position in']);
    expect(printer.printParts(p.parts)).toMatch(/^(\(d dot d\) \* d \+ d|d \+ \(d dot d\) \* d)$/);
  });

  it('the printed C of the examples and of random constraints parses back to the same expression', () => {
    const roundTrip = (source: string): void => {
      const p = check(source);
      const printer = new Printer(p.parts);
      const text = `${printer.bindings().join('\n')}\n${printer.printParts(p.parts)}`;
      const header = source.slice(0, source.indexOf('constraint'));
      const again = check(`${header}constraint ${text}`);
      const reprinted = new Printer(again.parts);
      expect(`${reprinted.bindings().join('\n')}\n${reprinted.printParts(again.parts)}`).toBe(text);
    };
    for (const src of [WELD, PIVOT]) roundTrip(src);
    for (const src of [DISTANCE, LINE]) roundTrip(src.slice(0, src.indexOf('limit constraint')));
    fc.assert(fc.property(positionSource(3), (src) => roundTrip(src)), { seed: 7, numRuns: 150 });
    expect(HEADER.startsWith('body')).toBe(true);
  });
});

describe('relative θ v: v extends as far right as it can (nape-symbolic)', () => {
  /** C of a one-body source at rotation θ = π/2 (cos 0, sin 1), with v = (1, 0) and w = (0, 1). */
  const valueAt = (expr: string): number[] => {
    const program = compileSource(`body b1\nvector v, w\nconstraint b1.position + ${expr}`);
    const state = new Float64Array(10);
    state[2] = Math.PI / 2;
    state[4] = 1; // sin; cos stays 0
    const out = new Float64Array(program.mainOutputs.length);
    program.kernels('interpreter').main(state, Float64Array.of(1, 0, 0, 1), out);
    return [out[0]!, out[1]!];
  };

  it('rotates the whole sum, not only its first term', () => {
    // R(π/2) (v + w) = R(π/2) (1, 1) = (−1, 1), while R(π/2) v + w = (0, 1) + (0, 1) = (0, 2).
    expect(valueAt('relative b1.rotation v + w')).toEqual([-1, 1]);
    expect(valueAt('(relative b1.rotation v) + w')).toEqual([0, 2]);
    expect(valueAt('w + relative b1.rotation v')).toEqual([0, 2]);
  });

  it('prints so that the text parses back to the same grouping', () => {
    const printed = (expr: string): string => {
      const p = check(`${H}constraint ${expr}`);
      return new Printer(p.parts).printParts(p.parts);
    };
    for (const expr of ['relative b1.rotation v + w', '(relative b1.rotation v) + w', 'relative b1.rotation v * s', '(relative b1.rotation v) * s', '-relative b1.rotation v + w', 'unit relative b1.rotation v + w', '[relative b1.rotation v + w] perp']) {
      const text = printed(`b1.position + (${expr})`);
      expect(printed(text), expr).toBe(text);
    }
    expect(printed('b1.position + ((relative b1.rotation v) + w)')).not.toBe(printed('b1.position + (relative b1.rotation v + w)'));
  });
});

describe('scalar program', () => {
  it('computes a common subexpression once in the generated code', () => {
    const src = `${H}constraint let d = b2.position - b1.position in { |d| + s   |d| * t   |d| * |d| }`;
    const js = compileSource(src).mainSource();
    expect(js.match(/Math\.sqrt/g)).toHaveLength(1);
    // cos and sin of a body's rotation come from the state, not from Math.
    const pivot = compileSource(PIVOT).mainSource();
    expect(pivot).not.toMatch(/Math\.(cos|sin)/);
  });
});
