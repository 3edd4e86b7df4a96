/**
 * Messages for a token the parser cannot place: where a declaration was expected, or where a
 * closing bracket was, it says what the source most likely meant instead of only "expected a
 * declaration": a function call (`sin(x)`), a missing operator (`a b`), a missing comma in a
 * name list, an expression without `constraint` before it, or an equation (`a = b`).
 */
import type { Span } from '../errors.js';
import type { Declaration, Node } from './ast.js';
import type { Token } from './lexer.js';

export interface StrayContext {
  readonly source: string;
  /** The token that cannot start a declaration. */
  readonly token: Token;
  /** The tokens just before and just after it. */
  readonly before: Token | null;
  readonly after: Token;
  /** The declaration before it (null at the start of the source). */
  readonly previous: Declaration | null;
  /** The last complete operand parsed (the end of the previous declaration's expression). */
  readonly lastOperand: Node | null;
}

/** Whether a token can start an operand (so, after a complete one, an operator is missing between them). */
export function startsOperand(t: Token): boolean {
  if (t.kind === 'number' || t.kind === 'name') return true;
  if (t.kind === 'keyword') return ['inf', 'eps', 'unit', 'relative', 'let'].includes(t.text);
  return t.kind === 'symbol' && ['(', '[', '|', '{'].includes(t.text);
}

/** What the language offers instead of a function someone reached for. */
const INSTEAD: Record<string, string> = {
  sin: 'rotate vectors with relative θ v',
  cos: 'rotate vectors with relative θ v',
  tan: 'rotate vectors with relative θ v',
  atan2: 'rotate vectors with relative θ v',
  rotate: 'rotate vectors with relative θ v',
  sqrt: '|v| is the length of a vector',
  abs: '|x| is the absolute value',
  norm: '|v| is the length of a vector',
  length: '|v| is the length of a vector',
  len: '|v| is the length of a vector',
  normalize: 'unit v is the unit vector',
  normalise: 'unit v is the unit vector',
  min: 'bound the rows with limit constraint lower upper',
  max: 'bound the rows with limit constraint lower upper',
  clamp: 'bound the rows with limit constraint lower upper',
};

/** The message for `name(`: the language has no function calls. */
export function unknownFunction(name: string): string {
  const instead = INSTEAD[name.toLowerCase()];
  return `unknown function '${name}': the language has no function calls (its operations are + - * / dot cross outer, unit v, relative θ v, |x| and [v] perp${instead ? `; ${instead}` : ''}); to multiply, write ${name} * (…)`;
}

/** "missing operator between 'a' and 'b'", naming the operand before and the token after. */
export function missingOperatorReason(source: string, left: Node, right: Token): string {
  return `missing operator between '${textOf(source, left.span)}' and '${textOf(source, right.span)}'`;
}

/** The source text of a span, on one line and shortened to 40 characters. */
function textOf(source: string, span: Span): string {
  const text = source.slice(span.offset, span.offset + span.length).replace(/\s+/g, ' ');
  return text.length > 40 ? `${text.slice(0, 39)}…` : text;
}

const LIMIT_FORM = 'a limit is `limit expr lower upper`, three expressions side by side';
/** For `=` in a limit (`limit s = 1`). */
export const EQUALS_IN_LIMIT = `'=' is not an operator here: ${LIMIT_FORM} (lower ≤ expr ≤ upper)`;

/** The reason to report for a token where a declaration was expected, or null for the generic one. */
export function strayTokenReason(c: StrayContext): string | null {
  const { token: t, previous, lastOperand } = c;
  const kind = previous?.kind ?? null;
  const afterExpression = kind === 'constraint' || kind === 'velocity' || kind === 'varLimit' || kind === 'rowLimit';
  const isLimit = kind === 'varLimit' || kind === 'rowLimit';
  const sym = (text: string, x: Token = t): boolean => x.kind === 'symbol' && x.text === text;

  if (sym('=')) {
    if (kind === 'constraint' || kind === 'velocity') {
      const what = kind === 'constraint' ? 'a constraint' : 'a velocity constraint';
      return `'=' is not an operator here: ${what} is an expression that the solver drives to 0; for a = b write \`a - b\``;
    }
    if (isLimit) return EQUALS_IN_LIMIT;
    return `expected a declaration (body, scalar, vector, limit, constraint, velocity), found '='; parameters get their values from setScalar/setVector, not from the source`;
  }
  // `phase = 0.2` on a line of its own.
  if (t.kind === 'name' && sym('=', c.after) && !afterExpression) {
    return `'${t.text} = …' is not a declaration: parameters get their values from setScalar/setVector (or the options' scalars and vectors), not from the source`;
  }
  // `sin (x)`: a name, then an opening parenthesis.
  if (sym('(') && lastOperand?.kind === 'name' && c.before !== null && c.before.span.offset === lastOperand.span.offset) {
    return unknownFunction(lastOperand.name);
  }
  const newLine = c.before !== null && t.span.line > c.before.span.line;
  if (afterExpression && lastOperand && startsOperand(t) && !(isLimit && newLine)) {
    const reason = missingOperatorReason(c.source, lastOperand, t);
    if (isLimit) return `${reason} (${LIMIT_FORM})`;
    return newLine ? `${reason}; to stack rows, put them in a block { … }` : reason;
  }
  if (isLimit && sym('-') && !newLine) {
    return `a sign here starts a fourth expression, but ${LIMIT_FORM}; for a difference write \`a - b\` (a space on both sides)`;
  }
  if (afterExpression && (sym(')') || sym(']') || sym('}'))) return `unmatched '${t.text}': nothing is open here`;
  if ((kind === 'body' || kind === 'scalar' || kind === 'vector') && t.kind === 'name' && c.before !== null && t.span.line === c.before.span.line) {
    return `missing ',' between '${c.before.text}' and '${t.text}' in the ${kind} declaration`;
  }
  // (A limit is written on one line: an expression on the next one starts something else.)
  if (startsOperand(t) || sym('-')) {
    return 'an expression at the top level needs `constraint` before it (or `velocity`, for a velocity constraint)';
  }
  return null;
}
