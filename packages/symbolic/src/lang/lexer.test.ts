import { describe, expect, it } from 'vitest';
import { SymbolicSyntaxError } from '../errors.js';
import { tokenize, type Token } from './lexer.js';

const kinds = (src: string): string[] => tokenize(src).map((t: Token) => (t.kind === 'end' ? 'end' : `${t.kind}:${t.text}`));

function syntaxError(src: string): SymbolicSyntaxError {
  try {
    tokenize(src);
  } catch (e) {
    if (e instanceof SymbolicSyntaxError) return e;
    throw e;
  }
  throw new Error(`no error for ${JSON.stringify(src)}`);
}

describe('lexer', () => {
  it('keywords are whole words, never prefixes (nape-symbolic read `inx` as `in x`)', () => {
    expect(kinds('letter = 1')).toEqual(['name:letter', 'symbol:=', 'number:1', 'end']);
    expect(kinds('inx in in_ in2')).toEqual(['name:inx', 'keyword:in', 'name:in_', 'name:in2', 'end']);
    expect(kinds('dotted dot crossing cross units unit')).toEqual(['name:dotted', 'keyword:dot', 'name:crossing', 'keyword:cross', 'name:units', 'keyword:unit', 'end']);
    expect(kinds('bodyA body')).toEqual(['name:bodyA', 'keyword:body', 'end']);
  });

  it('reads member access as name . name, and numbers with fractions and exponents', () => {
    expect(kinds('body1.position')).toEqual(['name:body1', 'symbol:.', 'name:position', 'end']);
    expect(kinds('b.velocity')).toEqual(['name:b', 'symbol:.', 'keyword:velocity', 'end']);
    const nums = tokenize('0 12 1.5 2e3 1.25e-2 3E+1').filter((t) => t.kind === 'number');
    expect(nums.map((t) => (t as Token & { kind: 'number' }).value)).toEqual([0, 12, 1.5, 2000, 0.0125, 30]);
    // A sign is an operator; `1.` is a number followed by a dot.
    expect(kinds('-1')).toEqual(['symbol:-', 'number:1', 'end']);
    expect(kinds('1.x')).toEqual(['number:1', 'symbol:.', 'name:x', 'end']);
  });

  it('skips # comments and whitespace, and tracks lines and columns (CRLF too)', () => {
    const t = tokenize('# heading\r\nbody b1 # trailing\r\n\t scalar  s');
    expect(t.map((x) => [x.text, x.span.line, x.span.column])).toEqual([
      ['body', 2, 1],
      ['b1', 2, 6],
      ['scalar', 3, 3],
      ['s', 3, 11],
      ['', 3, 12],
    ]);
  });

  it('rejects a bad character with its location, the line and a caret', () => {
    const e = syntaxError('body b1\nconstraint b1.position @ 2');
    expect(e.line).toBe(2);
    expect(e.column).toBe(24);
    expect(e.message).toBe(
      "unexpected character '@' (names use A-Z, a-z, 0-9 and _; operators are + - * / and the words dot, cross, outer) at 2:24\n" +
        '  2 | constraint b1.position @ 2\n' +
        '    |                        ^',
    );
    expect(syntaxError('scalar θ').reason).toMatch(/unexpected character 'θ'/);
    expect(syntaxError('limit \\ jointMin').reason).toBe("unexpected character '\\' (the language has no escapes (text copied from a PDF or out of a string literal may carry them))");
    expect(syntaxError('new SymbolicConstraint ("').reason).toBe(`unexpected character '"' (the source is the constraint text itself, without quotes)`);
    expect(syntaxError('scalar \u0007').reason).toMatch(/U\+0007/);
  });

  it('rejects malformed numbers', () => {
    expect(syntaxError('1e').reason).toBe("malformed number '1e': the exponent needs digits, as in 1e-3");
    expect(syntaxError('x 2abc').reason).toBe("malformed number '2abc': a name cannot start with a digit");
    expect(syntaxError('x 2abc').column).toBe(3);
  });

  it('keeps tabs in the caret line so the caret lines up', () => {
    const e = syntaxError('\t\tx $');
    expect(e.message.split('\n').slice(1)).toEqual(['  1 | \t\tx $', '    | \t\t  ^']);
  });
});

describe('lexer: numbers as nape-symbolic wrote them', () => {
  const values = (src: string): number[] => tokenize(src).flatMap((t) => (t.kind === 'number' ? [t.value] : []));

  it('accepts .5, 5. and 5.e3 beside 1e-3', () => {
    expect(values('.5 5. 0.25 1e-3 .5e2 5.e3 5.E-1 [1. .5]')).toEqual([0.5, 5, 0.25, 0.001, 50, 5000, 0.5, 1, 0.5]);
    expect(kinds('(.5)')).toEqual(['symbol:(', 'number:.5', 'symbol:)', 'end']);
    expect(kinds('2*.5')).toEqual(['number:2', 'symbol:*', 'number:.5', 'end']);
  });

  it('a dot after a name, a number or a closing bracket is still member access', () => {
    expect(kinds('v.x 1.x (a).y')).toEqual(['name:v', 'symbol:.', 'name:x', 'number:1', 'symbol:.', 'name:x', 'symbol:(', 'name:a', 'symbol:)', 'symbol:.', 'name:y', 'end']);
    expect(kinds('v.5')).toEqual(['name:v', 'symbol:.', 'number:5', 'end']);
    expect(kinds('1.e')).toEqual(['number:1', 'symbol:.', 'name:e', 'end']);
  });
});
