/**
 * The package's errors about a constraint's source. Every one carries the 1-based line and
 * column of the spot it is about, and its message ends with that source line and a caret
 * under the spot, so the message alone is enough to find and fix the problem:
 *
 *   cannot add scalar and vector at 4:18
 *     4 |   body1.rotation + anchor1
 *       |                  ^
 *
 * A suggestion follows the location: "unknown body field 'rotatino' at 3:24, did you mean 'rotation'?".
 *
 * Misuse of the JavaScript API (unknown names, non-finite values) is not about the source and
 * throws @fulcrum/physics' FulcrumInputError instead, like the rest of the engine.
 *
 * Like FulcrumInputError, every error names the option at fault in `.prop` (`'source'` for the
 * source's own errors, `'scalars.length'` for a limit that a scalar's value violates) and the
 * owner in `.owner`, so bindings can point at it without parsing the message.
 */

/** A place in the source: 1-based line and column (UTF-16 units), and how many characters it covers. */
export interface Span {
  readonly line: number;
  readonly column: number;
  /** Offset of the first character in the source. */
  readonly offset: number;
  /** At least 1 (a caret is always drawn). */
  readonly length: number;
}

export class SymbolicError extends Error {
  /** 1-based line of the spot. */
  readonly line: number;
  /** 1-based column of the spot. */
  readonly column: number;
  /** The message without the location and the source excerpt. */
  readonly reason: string;
  /** The source line the caret points into. */
  readonly sourceLine: string;

  /** A suggestion after the location ("did you mean 'rotation'?"), or ''. */
  readonly hint: string;
  /** The option at fault: 'source', or the parameter whose value violates a limit ('scalars.length'). */
  readonly prop: string;
  /** The object kind it is about: 'SymbolicConstraint'. */
  readonly owner: string;

  constructor(reason: string, source: string, span: Span, hint = '', where: ErrorWhere = {}) {
    const { text, excerpt } = excerptAt(source, span);
    super(`${reason} at ${span.line}:${span.column}${hint ? `, ${hint}` : ''}\n${excerpt}`);
    this.name = 'SymbolicError';
    this.line = span.line;
    this.column = span.column;
    this.reason = reason;
    this.hint = hint;
    this.sourceLine = text;
    this.prop = where.prop ?? 'source';
    this.owner = where.owner ?? 'SymbolicConstraint';
  }
}

/** Which option an error is about (default: the source of a SymbolicConstraint). */
export interface ErrorWhere {
  readonly owner?: string;
  readonly prop?: string;
}

/** The source could not be read: a bad character, a misplaced token, an unfinished expression. */
export class SymbolicSyntaxError extends SymbolicError {
  constructor(reason: string, source: string, span: Span, hint = '', where: ErrorWhere = {}) {
    super(reason, source, span, hint, where);
    this.name = 'SymbolicSyntaxError';
  }
}

/** The source reads, but does not make sense: wrong types, unknown names, a misplaced block. */
export class SymbolicTypeError extends SymbolicError {
  constructor(reason: string, source: string, span: Span, hint = '', where: ErrorWhere = {}) {
    super(reason, source, span, hint, where);
    this.name = 'SymbolicTypeError';
  }
}

/**
 * A `limit` declaration is violated by the current values; the span is the limit's, and `prop`
 * names the parameter whose value violates it (`'scalars.length'`).
 */
export class SymbolicLimitError extends SymbolicError {
  constructor(reason: string, source: string, span: Span, hint = '', where: ErrorWhere = {}) {
    super(reason, source, span, hint, where);
    this.name = 'SymbolicLimitError';
  }
}

/**
 * A hook output was not finite while the constraint was solved: the message names the
 * constraint, the hook and the row (and J's column), the sub-expression of the source that turned
 * non-finite first with its operands' values, and points at it. For J, whose terms come from the
 * derivation, it points at the written expression whose derivative holds it ("in the derivative
 * of …").
 */
export class SymbolicRuntimeError extends SymbolicError {
  /** 'position' (C), 'jacobian' (J) or 'velocity' (V of a velocity constraint). */
  readonly hook: string;
  readonly row: number;
  /** J's column (3 per body: x, y, θ), or −1 (`column` is the source's, as for every SymbolicError). */
  readonly jacobianColumn: number;
  /** The non-finite value the hook wrote. */
  readonly value: number;

  constructor(reason: string, source: string, span: Span, at: { hook: string; row: number; column: number; value: number }, where: ErrorWhere = {}) {
    super(reason, source, span, '', where);
    this.name = 'SymbolicRuntimeError';
    this.hook = at.hook;
    this.row = at.row;
    this.jacobianColumn = at.column;
    this.value = at.value;
  }
}

/** The whole source line holding `span`, and that line with a caret line under it. */
function excerptAt(source: string, span: Span): { text: string; excerpt: string } {
  let start = span.offset;
  while (start > 0 && source[start - 1] !== '\n') start--;
  let end = span.offset;
  while (end < source.length && source[end] !== '\n') end++;
  // Control characters (a stray carriage return, say) would garble the excerpt: show them as spaces.
  // eslint-disable-next-line no-control-regex
  const text = source.slice(start, end).replace(/\r$/, '').replace(/[\u0000-\u0008\u000b-\u001f\u007f]/g, ' ');
  const gutter = String(span.line);
  // Keep tabs in the caret's indentation so the caret lines up however tabs are shown.
  const indent = text.slice(0, span.offset - start).replace(/[^\t]/g, ' ');
  const width = Math.max(1, Math.min(span.length, text.length - (span.offset - start)));
  const caret = `^${'~'.repeat(width - 1)}`;
  return { text, excerpt: `  ${gutter} | ${text}\n  ${' '.repeat(gutter.length)} | ${indent}${caret}` };
}

/** A span that starts at `a` and ends where `b` ends (both in the same source). */
export function joinSpans(a: Span, b: Span): Span {
  const end = Math.max(a.offset + a.length, b.offset + b.length);
  return { line: a.line, column: a.column, offset: a.offset, length: end - a.offset };
}

/** "4:12", for messages that mention a second place. */
export function at(span: Span): string {
  return `${span.line}:${span.column}`;
}
