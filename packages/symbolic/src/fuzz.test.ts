/**
 * Bad input: thousands of random and mutated sources through the whole front end (lexer,
 * parser, checker, derivation and lowering). Each one either compiles or throws one of the
 * package's SymbolicErrors, with a location inside the source and the caret excerpt; never a
 * TypeError, a RangeError (stack overflow) or anything else, and never slowly.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CompiledProgram } from './compile.js';
import { SymbolicError } from './errors.js';
import { DISTANCE, LINE, MOTOR, PIVOT, WELD } from './examples.js';
import { KEYWORDS, SYMBOLS } from './lang/lexer.js';
import { positionSource } from './test-support/expressions.js';

let accepted = 0;
let rejected = 0;
const rejectedBy = new Map<string, number>();

function expectCleanOutcome(source: string): void {
  try {
    new CompiledProgram(source); // not the cache: the fuzz sources would flood it
    accepted++;
  } catch (e) {
    if (!(e instanceof SymbolicError)) throw new Error(`not a SymbolicError for ${JSON.stringify(source)}: ${(e as Error)?.stack ?? String(e)}`);
    const lines = source.split('\n');
    expect(e.line).toBeGreaterThanOrEqual(1);
    expect(e.line).toBeLessThanOrEqual(lines.length);
    expect(e.column).toBeGreaterThanOrEqual(1);
    expect(e.column).toBeLessThanOrEqual(lines[e.line - 1]!.length + 1);
    expect(e.message).toContain(` at ${e.line}:${e.column}`);
    expect(e.message).toMatch(/\n {2}\d+ \| .*\n {2} +\| [\t ]*\^~*$/);
    rejected++;
    rejectedBy.set(e.name, (rejectedBy.get(e.name) ?? 0) + 1);
  }
}

const WORDS = [...KEYWORDS, ...SYMBOLS, 'body1', 'body2', 'anchor1', 'phase', 'position', 'rotation', 'velocity', 'angularVel', 'x', 'y', '1', '0.5', '2e3', '#c\n', '\n', '\t', '|', '[', ']'];
const CHARS = [...'abxyz019 \n\t.#+-*/()[]{}|,;=_eE', 'θ', '@', '\r', '\u0000'];

const randomTokens = fc.array(fc.constantFrom(...WORDS), { minLength: 0, maxLength: 40 }).map((ws) => ws.join(' '));
const randomChars = fc.array(fc.constantFrom(...CHARS), { minLength: 0, maxLength: 80 }).map((cs) => cs.join(''));

const SEEDS = [WELD, DISTANCE, LINE, PIVOT, MOTOR];

/** A valid source with a few random edits: deletions, insertions, replacements, duplications. */
const mutated = fc
  .tuple(
    fc.oneof(fc.constantFrom(...SEEDS), positionSource(2)),
    fc.array(
      fc.tuple(fc.constantFrom('delete', 'insert', 'replace', 'duplicate', 'swap'), fc.nat(), fc.nat({ max: 12 }), fc.constantFrom(...WORDS, ...CHARS)),
      { minLength: 1, maxLength: 4 },
    ),
  )
  .map(([source, edits]) => {
    let s = source;
    for (const [kind, at, len, text] of edits) {
      const i = s.length === 0 ? 0 : at % s.length;
      if (kind === 'delete') s = s.slice(0, i) + s.slice(i + len);
      else if (kind === 'insert') s = s.slice(0, i) + text + s.slice(i);
      else if (kind === 'replace') s = s.slice(0, i) + text + s.slice(i + Math.max(1, len));
      else if (kind === 'duplicate') s = s.slice(0, i + len) + s.slice(i, i + len) + s.slice(i + len);
      else {
        const j = (at * 7 + len) % Math.max(1, s.length);
        const [a, b] = i < j ? [i, j] : [j, i];
        s = s.slice(0, a) + s.slice(b, b + len) + s.slice(a + len, b) + s.slice(a, a + len) + s.slice(b + len);
      }
    }
    return s;
  });

describe('fuzz: the front end only ever throws SymbolicErrors with a location', () => {
  it('random token sequences', () => {
    fc.assert(fc.property(randomTokens, expectCleanOutcome), { seed: 1, numRuns: 2000 });
  });

  it('random characters', () => {
    fc.assert(fc.property(randomChars, expectCleanOutcome), { seed: 2, numRuns: 1500 });
  });

  it('mutated valid sources', () => {
    fc.assert(fc.property(mutated, expectCleanOutcome), { seed: 3, numRuns: 2500 });
  });

  it('deep and long inputs', () => {
    for (const n of [10, 150, 1000, 20000]) {
      expectCleanOutcome(`body b\nconstraint ${'('.repeat(n)}b.rotation${')'.repeat(n)}`);
      expectCleanOutcome(`body b\nconstraint ${'['.repeat(n)}b.position${'] perp'.repeat(n)}`);
      expectCleanOutcome(`body b\nconstraint ${'-'.repeat(n)}b.rotation`);
      expectCleanOutcome(`body b\nconstraint ${'unit '.repeat(n)}b.position`);
      expectCleanOutcome(`body b\nconstraint ${'|'.repeat(n)}b.rotation${'|'.repeat(n)}`);
      expectCleanOutcome(`body b\nconstraint ${Array.from({ length: n }, () => 'b.rotation').join(' * ')}`);
      expectCleanOutcome(`body b\nconstraint ${Array.from({ length: n }, (_, i) => `let a${i} = b.rotation * ${i} in`).join(' ')} a0`);
      expectCleanOutcome(`body b\nconstraint { ${'b.position '.repeat(n)}}`);
      expectCleanOutcome(`${'body b\n'.repeat(Math.min(n, 2000))}constraint b.rotation`);
    }
  });

  // No timing assertion (speed is the benchmarks' business): a hang fails by vitest's test timeout.
  it('saw both outcomes', () => {
    // The fuzzers reach the checker and beyond, not just the lexer.
    expect(accepted).toBeGreaterThan(100);
    expect(rejected).toBeGreaterThan(3000);
    expect(rejectedBy.get('SymbolicSyntaxError')).toBeGreaterThan(1000);
    expect(rejectedBy.get('SymbolicTypeError')).toBeGreaterThan(300);
  });
});
