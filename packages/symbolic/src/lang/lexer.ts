/**
 * Lexer: source text to tokens.
 *
 * - Names are `[A-Za-z_][A-Za-z0-9_]*`. A keyword is a whole name, never a prefix: `letter` and
 *   `inx` are names (nape-symbolic matched keywords as prefixes, so `inx` read as `in x`).
 * - `.` is its own token: `body1.position` is a member access (name, '.', name), which lets the
 *   checker say "unknown body field 'rotatino'" rather than "unknown name 'body1.rotatino'".
 * - Numbers are `digits[.[digits]][e[+-]digits]` or `.digits[e[+-]digits]` (`2`, `2.5`, `5.`, `.5`,
 *   `1e-3`, `5.e3`); a sign is an operator, not part of the number. A `.` right after a name, a
 *   number or a closing bracket is member access (`v.x`, `1.x`), never the start of a number.
 * - `#` starts a comment that runs to the end of the line. Newlines are plain whitespace.
 */
import { SymbolicSyntaxError, type Span } from '../errors.js';

export const KEYWORDS = [
  'body',
  'scalar',
  'vector',
  'limit',
  'constraint',
  'velocity',
  'let',
  'in',
  'dot',
  'cross',
  'outer',
  'relative',
  'unit',
  'perp',
  'inf',
  'eps',
] as const;
export type Keyword = (typeof KEYWORDS)[number];
const KEYWORD_SET: ReadonlySet<string> = new Set(KEYWORDS);

export const SYMBOLS = ['+', '-', '*', '/', '(', ')', '[', ']', '{', '}', '|', ',', ';', '=', '.'] as const;
export type Sym = (typeof SYMBOLS)[number];
const SYMBOL_SET: ReadonlySet<string> = new Set(SYMBOLS);

export type Token =
  | { kind: 'number'; value: number; text: string; span: Span }
  | { kind: 'name'; text: string; span: Span }
  | { kind: 'keyword'; text: Keyword; span: Span }
  | { kind: 'symbol'; text: Sym; span: Span }
  | { kind: 'end'; text: ''; span: Span };

export function isKeyword(text: string): text is Keyword {
  return KEYWORD_SET.has(text);
}

/** How a token is named in "expected …, found …" messages. */
export function describeToken(t: Token): string {
  switch (t.kind) {
    case 'number':
      return `number ${t.text}`;
    case 'name':
      return `name '${t.text}'`;
    case 'keyword':
      return `keyword '${t.text}'`;
    case 'symbol':
      return `'${t.text}'`;
    case 'end':
      return 'the end of the source';
  }
}

const isDigit = (c: string): boolean => c >= '0' && c <= '9';
const isNameStart = (c: string): boolean => (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c === '_';
const isNameChar = (c: string): boolean => isNameStart(c) || isDigit(c);

/** Whether a `.` after this character continues what it follows (`v.x`, `1.x`, `(a).y`), rather than starting a number (`.5`). */
const continuesOperand = (c: string): boolean => isNameChar(c) || c === ')' || c === ']' || c === '}';
/** An exponent `e3`, `E-3` at `i`. */
const isExponent = (s: string, i: number): boolean => (s[i] === 'e' || s[i] === 'E') && (isDigit(s[i + 1] ?? '') || ((s[i + 1] === '+' || s[i + 1] === '-') && isDigit(s[i + 2] ?? '')));

export function tokenize(source: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  let line = 1;
  let lineStart = 0;
  const spanAt = (start: number, length: number): Span => ({ line, column: start - lineStart + 1, offset: start, length: Math.max(1, length) });
  const fail = (reason: string, start: number, length = 1): never => {
    throw new SymbolicSyntaxError(reason, source, spanAt(start, length));
  };

  while (i < source.length) {
    const c = source[i]!;
    if (c === '\n') {
      i++;
      line++;
      lineStart = i;
      continue;
    }
    if (c === ' ' || c === '\t' || c === '\r') {
      i++;
      continue;
    }
    if (c === '#') {
      while (i < source.length && source[i] !== '\n') i++;
      continue;
    }
    const start = i;
    if (isDigit(c) || (c === '.' && isDigit(source[i + 1] ?? '') && !continuesOperand(source[i - 1] ?? ' '))) {
      while (i < source.length && isDigit(source[i]!)) i++;
      if (source[i] === '.' && (isDigit(source[i + 1] ?? '') || !isNameStart(source[i + 1] ?? ' ') || isExponent(source, i + 1))) {
        i++;
        while (i < source.length && isDigit(source[i]!)) i++;
      }
      if (source[i] === 'e' || source[i] === 'E') {
        let j = i + 1;
        if (source[j] === '+' || source[j] === '-') j++;
        if (!isDigit(source[j] ?? '')) fail(`malformed number '${source.slice(start, j)}': the exponent needs digits, as in 1e-3`, start, j - start);
        i = j;
        while (i < source.length && isDigit(source[i]!)) i++;
      }
      if (i < source.length && isNameStart(source[i]!)) {
        let j = i;
        while (j < source.length && isNameChar(source[j]!)) j++;
        fail(`malformed number '${source.slice(start, j)}': a name cannot start with a digit`, start, j - start);
      }
      const text = source.slice(start, i);
      tokens.push({ kind: 'number', value: Number(text), text, span: spanAt(start, i - start) });
      continue;
    }
    if (isNameStart(c)) {
      while (i < source.length && isNameChar(source[i]!)) i++;
      const text = source.slice(start, i);
      const span = spanAt(start, i - start);
      tokens.push(isKeyword(text) ? { kind: 'keyword', text, span } : { kind: 'name', text, span });
      continue;
    }
    if (SYMBOL_SET.has(c)) {
      i++;
      tokens.push({ kind: 'symbol', text: c as Sym, span: spanAt(start, 1) });
      continue;
    }
    const code = source.codePointAt(i)!;
    const shown = code < 0x20 || code === 0x7f ? `U+${code.toString(16).toUpperCase().padStart(4, '0')}` : String.fromCodePoint(code);
    const why = c === '\\' ? 'the language has no escapes (text copied from a PDF or out of a string literal may carry them)' : c === '"' || c === "'" || c === '`' ? 'the source is the constraint text itself, without quotes' : 'names use A-Z, a-z, 0-9 and _; operators are + - * / and the words dot, cross, outer';
    fail(`unexpected character '${shown}' (${why})`, start, code > 0xffff ? 2 : 1);
  }
  tokens.push({ kind: 'end', text: '', span: spanAt(i, 1) });
  return tokens;
}
