/**
 * Parser: tokens to a syntax tree (recursive descent).
 *
 * Declarations (in any order, separated by nothing but whitespace):
 *   body name {, name}          scalar name {, name}          vector name {, name}
 *   constraint expr             velocity expr
 *   limit constraint lower upper                              limit expr lower upper
 *
 * Expressions, loosest to tightest (the order of nape-symbolic):
 *   let name = expr in expr      extends as far right as it can
 *   a + b, a - b                 left-associative
 *   a outer b
 *   a dot b, a cross b           left-associative
 *   a * b, a / b                 left-associative
 *   -a, unit a                   prefix; the operand is itself a prefix expression
 *   relative θ v                 prefix; θ is a prefix expression, v extends as far right as it
 *                                can (as in nape-symbolic: relative θ a + b is relative θ (a + b))
 *   atoms: number, inf, eps, name, body.field, (expr), |expr|, [expr] perp,
 *          [a b], [a ; b], [a b ; c d], { expr expr … }, and components atom.x, atom.y
 *
 * Expressions are juxtaposed in blocks (`{ a b }`) and limits (`limit x lo hi`): an expression
 * ends at the first token that cannot continue it, or at a sign: a `-` with a space before it and
 * none after it (`limit jointMin -inf jointMax`, `{ a -b }` is two parts). Written any other way
 * (`a - b`, `a-b`) it subtracts. Literal entries are restricted for the same reason: a signed
 * number, inf, eps, a name, a body field or a parenthesised expression, so `[1 -2]` is (1, −2).
 *
 * A token that cannot continue the source gets a message about what was probably meant: a
 * function call (`sin(x)`), a missing operator, a missing `constraint` keyword, or `a = b`.
 */
import { SymbolicSyntaxError, joinSpans, type Span } from '../errors.js';
import { children, type BinaryOp, type Declaration, type Node, type SyntaxTree } from './ast.js';
import { describeToken, tokenize, type Token } from './lexer.js';
import { EQUALS_IN_LIMIT, missingOperatorReason, startsOperand, strayTokenReason, unknownFunction } from './stray.js';

/** Deepest nesting of the syntax tree; deeper sources are rejected (every later pass recurses). */
export const MAX_DEPTH = 200;

const DECLARATION_KEYWORDS = ['body', 'scalar', 'vector', 'limit', 'constraint', 'velocity'];

export function parse(source: string): SyntaxTree {
  return new Parser(source).parseProgram();
}

class Parser {
  private readonly tokens: Token[];
  private pos = 0;
  private depth = 0;
  /**
   * Whether the expression being parsed stands beside another (a block's part, a limit's
   * expression): then a sign (` -x`) ends it. Off inside brackets and a let's value.
   */
  private juxtaposed = false;
  /** The last complete operand parsed, for "missing operator between … and …". */
  private lastOperand: Node | null = null;

  constructor(private readonly source: string) {
    this.tokens = tokenize(source);
  }

  // ------------------------------------------------------------------ tokens

  private peek(offset = 0): Token {
    return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)]!;
  }
  private next(): Token {
    const t = this.peek();
    if (t.kind !== 'end') this.pos++;
    return t;
  }
  private isSymbol(text: string, t = this.peek()): boolean {
    return t.kind === 'symbol' && t.text === text;
  }
  private isKeyword(text: string, t = this.peek()): boolean {
    return t.kind === 'keyword' && t.text === text;
  }
  private fail(reason: string, span: Span): never {
    throw new SymbolicSyntaxError(reason, this.source, span);
  }
  private expected(what: string, hint = ''): never {
    const t = this.peek();
    this.fail(`expected ${what}, found ${describeToken(t)}${hint}`, t.span);
  }
  private expectSymbol(text: string, what: string): Token {
    if (!this.isSymbol(text)) this.expected(what);
    return this.next();
  }
  private expectName(what: string): Token & { kind: 'name' } {
    const t = this.peek();
    if (t.kind === 'keyword') this.fail(`expected ${what}, found keyword '${t.text}', which cannot be used as a name`, t.span);
    if (t.kind !== 'name') this.expected(what);
    this.next();
    return t as Token & { kind: 'name' };
  }
  private lastSpan(): Span {
    return this.tokens[Math.max(0, this.pos - 1)]!.span;
  }

  /** Guards every recursive descent, so a deeply nested source fails cleanly instead of overflowing the stack. */
  private enter(span: Span): void {
    if (++this.depth > MAX_DEPTH) this.fail(`expression nested too deeply (more than ${MAX_DEPTH} levels); split it up with let`, span);
  }
  private leave(): void {
    this.depth--;
  }

  // ------------------------------------------------------------------ declarations

  parseProgram(): SyntaxTree {
    const declarations: Declaration[] = [];
    while (this.peek().kind !== 'end') declarations.push(this.parseDeclaration(declarations[declarations.length - 1] ?? null));
    return { declarations, end: this.peek().span };
  }

  private parseDeclaration(previous: Declaration | null): Declaration {
    const t = this.peek();
    if (t.kind !== 'keyword' || !DECLARATION_KEYWORDS.includes(t.text)) {
      const reason = strayTokenReason({ source: this.source, token: t, before: this.tokens[this.pos - 1] ?? null, after: this.peek(1), previous, lastOperand: this.lastOperand });
      this.fail(reason ?? `expected a declaration (${DECLARATION_KEYWORDS.join(', ')}), found ${describeToken(t)}`, t.span);
    }
    this.next();
    switch (t.text) {
      case 'body':
      case 'scalar':
      case 'vector': {
        const names: { name: string; span: Span }[] = [];
        do {
          const n = this.expectName(`a ${t.text} name`);
          names.push({ name: n.text, span: n.span });
        } while (this.isSymbol(',') && this.next());
        if (this.isSymbol('=')) {
          this.fail(`a ${t.text} declaration takes names only; set values with ${t.text === 'body' ? 'setBody' : t.text === 'scalar' ? 'setScalar' : 'setVector'} (initial values are not part of the language)`, this.peek().span);
        }
        return { kind: t.text, names, span: joinSpans(t.span, this.lastSpan()) };
      }
      case 'limit': {
        // The limit's expressions stand side by side: `limit jointMin -inf jointMax`.
        const side = (what: string): Node => {
          if (this.isSymbol('=')) this.fail(EQUALS_IN_LIMIT, this.peek().span);
          return this.nested(true, () => this.parseExpr(what));
        };
        if (this.isKeyword('constraint')) {
          this.next();
          const lower = side('the lower bound of the limit');
          const upper = side('the upper bound of the limit');
          return { kind: 'rowLimit', lower, upper, span: joinSpans(t.span, upper.span) };
        }
        const expr = side('the limited expression (or the word constraint)');
        const lower = side('the lower bound of the limit');
        const upper = side('the upper bound of the limit');
        return { kind: 'varLimit', expr, lower, upper, span: joinSpans(t.span, upper.span) };
      }
      default: {
        const kind = t.text as 'constraint' | 'velocity';
        const expr = this.nested(false, () => this.parseExpr(`the ${kind} expression`));
        return { kind, expr, span: joinSpans(t.span, expr.span) };
      }
    }
  }

  // ------------------------------------------------------------------ expressions

  /** Parse with `juxtaposed` set as given, restoring it after. */
  private nested<T>(juxtaposed: boolean, parse: () => T): T {
    const saved = this.juxtaposed;
    this.juxtaposed = juxtaposed;
    try {
      return parse();
    } finally {
      this.juxtaposed = saved;
    }
  }

  /**
   * A sign that starts the next juxtaposed expression: `-` with a space before it and none after
   * it, in a block or a limit (`{ a -b }`, `limit x -inf y`).
   */
  private signStartsNext(): boolean {
    if (!this.juxtaposed || !this.isSymbol('-')) return false;
    const minus = this.peek();
    const before = this.tokens[this.pos - 1];
    const after = this.peek(1);
    if (!before || after.kind === 'end') return false;
    return before.span.offset + before.span.length < minus.span.offset && after.span.offset === minus.span.offset + 1;
  }

  /** "missing operator between 'a' and 'b'" when the next token starts another operand after `left`, else null. */
  private missingOperator(left: Node): string | null {
    const t = this.peek();
    if (!startsOperand(t)) return null;
    return missingOperatorReason(this.source, this.lastOperand ?? left, t);
  }

  /** `what` names the expression in the error when none starts here. */
  private parseExpr(what = 'an expression'): Node {
    this.enter(this.peek().span);
    try {
      if (this.isKeyword('let')) return this.parseLet();
      return this.parseBinary(0, what);
    } finally {
      this.leave();
    }
  }

  private parseLet(): Node {
    const start = this.next().span;
    const name = this.expectName('a name after let');
    this.expectSymbol('=', `'=' after 'let ${name.text}'`);
    const value = this.nested(false, () => this.parseExpr(`the value of ${name.text}`));
    if (!this.isKeyword('in')) this.expected(`'in' after the value of ${name.text}`);
    this.next();
    const body = this.parseExpr(`an expression after 'let ${name.text} = … in'`);
    return this.made({ kind: 'let', name: name.text, nameSpan: name.span, value, body, span: joinSpans(start, body.span) }, start);
  }

  private static readonly LEVELS: readonly (readonly BinaryOp[])[] = [['+', '-'], ['outer'], ['dot', 'cross'], ['*', '/']];

  private binaryOpAt(level: number): BinaryOp | null {
    const t = this.peek();
    const ops = Parser.LEVELS[level]!;
    if ((t.kind === 'symbol' || t.kind === 'keyword') && (ops as readonly string[]).includes(t.text)) return t.text as BinaryOp;
    return null;
  }

  private parseBinary(level: number, what: string): Node {
    if (level === Parser.LEVELS.length) return this.parseUnary(what);
    let left = this.parseBinary(level + 1, what);
    for (let op = this.binaryOpAt(level); op !== null && !(level === 0 && this.signStartsNext()); op = this.binaryOpAt(level)) {
      const opTok = this.next();
      const right = this.parseBinary(level + 1, `an expression after '${op}'`);
      left = this.made({ kind: 'binary', op, left, right, opSpan: opTok.span, span: joinSpans(left.span, right.span) }, opTok.span);
    }
    return left;
  }

  /**
   * Every node is made here: its depth (1 + its deepest child's) is recorded and bounded. The
   * recursion guard alone would miss left-associative chains (a + b + c …), which grow deep
   * without the parser recursing.
   */
  private made<T extends Node>(node: T, at: Span): T {
    let d = 0;
    for (const c of children(node)) d = Math.max(d, depths.get(c) ?? 0);
    if (d + 1 > MAX_DEPTH) this.fail(`expression too deep (more than ${MAX_DEPTH} nested operations); split it up with let`, at);
    depths.set(node, d + 1);
    return node;
  }

  private parseUnary(what: string): Node {
    const t = this.peek();
    this.enter(t.span);
    try {
      if (this.isSymbol('-')) {
        this.next();
        const operand = this.parseUnary(`an expression after '-'`);
        return this.made({ kind: 'negate', operand, span: joinSpans(t.span, operand.span) }, t.span);
      }
      if (this.isKeyword('unit')) {
        this.next();
        const operand = this.parseUnary(`the vector after 'unit'`);
        return this.made({ kind: 'unit', operand, span: joinSpans(t.span, operand.span) }, t.span);
      }
      if (this.isKeyword('relative')) {
        this.next();
        const angle = this.parseUnary(`the angle after 'relative' (as in relative body1.rotation anchor1)`);
        // As in nape-symbolic, the rotated vector is a whole expression: relative θ a + b is relative θ (a + b).
        const operand = this.parseExpr(`the vector after 'relative ${angle.kind === 'member' ? `${angle.object}.${angle.field}` : '…'}'`);
        return this.made({ kind: 'relative', angle, operand, span: joinSpans(t.span, operand.span) }, t.span);
      }
      if (this.isKeyword('let')) return this.parseLet();
      return this.parseAtom(what);
    } finally {
      this.leave();
    }
  }

  /** An atom and its component suffixes (`(a + b).x`, `body1.position.y`). */
  private parseAtom(what: string): Node {
    let node = this.parsePrimary(what);
    while (this.isSymbol('.')) {
      this.next();
      const f = this.peek();
      if (f.kind !== 'name' || (f.text !== 'x' && f.text !== 'y')) this.expected(`a component (x or y) after '.'`);
      this.next();
      node = this.made({ kind: 'component', operand: node, index: f.text === 'x' ? 0 : 1, span: joinSpans(node.span, f.span) }, f.span);
    }
    this.lastOperand = node;
    return node;
  }

  private parsePrimary(what: string): Node {
    const t = this.peek();
    switch (t.kind) {
      case 'number':
        this.next();
        return { kind: 'number', value: t.value, span: t.span };
      case 'name':
        return this.parseNameOrMember();
      case 'keyword':
        if (t.text === 'inf' || t.text === 'eps') {
          this.next();
          return { kind: 'constant', name: t.text, span: t.span };
        }
        break;
      case 'symbol':
        if (t.text === '(') {
          this.next();
          const inner = this.nested(false, () => this.parseExpr(`an expression after '('`));
          this.expectCloser(')', `')' to close the '(' at ${t.span.line}:${t.span.column}`, inner);
          return this.made({ ...inner, span: joinSpans(t.span, this.lastSpan()) }, t.span);
        }
        if (t.text === '|') {
          this.next();
          const operand = this.nested(false, () => this.parseExpr(`an expression after '|'`));
          this.expectCloser('|', `'|' to close the '|' at ${t.span.line}:${t.span.column}`, operand);
          return this.made({ kind: 'norm', operand, span: joinSpans(t.span, this.lastSpan()) }, t.span);
        }
        if (t.text === '[') return this.isPerpAhead() ? this.parsePerp() : this.parseLiteral();
        if (t.text === '{') return this.parseBlock();
        break;
      case 'end':
        break;
    }
    this.expected(what);
  }

  /** The closing `text` after `inner`; if another operand follows instead, says an operator is missing. */
  private expectCloser(text: string, what: string, inner: Node): void {
    if (this.isSymbol(text)) {
      this.next();
      return;
    }
    const missing = this.missingOperator(inner);
    if (missing) this.fail(missing, this.peek().span);
    this.expected(what);
  }

  private parseNameOrMember(): Node {
    const n = this.next() as Token & { kind: 'name' };
    // `sin(x)`: a name glued to '(' is meant as a call, and the language has none.
    if (this.isSymbol('(') && this.peek().span.offset === n.span.offset + n.span.length) this.fail(unknownFunction(n.text), n.span);
    if (!this.isSymbol('.')) return { kind: 'name', name: n.text, span: n.span };
    this.next();
    const f = this.peek();
    // Field names may be keywords (`velocity`), so accept any word here; the checker validates it.
    if (f.kind !== 'name' && f.kind !== 'keyword') this.expected(`a field name after '${n.text}.' (position, rotation, velocity or angularVel)`);
    this.next();
    return { kind: 'member', object: n.text, objectSpan: n.span, field: f.text, fieldSpan: f.span, span: joinSpans(n.span, f.span) };
  }

  /** `[ … ] perp`? Scan to the matching ']' and look at the token after it. */
  private isPerpAhead(): boolean {
    let depth = 0;
    for (let i = this.pos; i < this.tokens.length; i++) {
      const t = this.tokens[i]!;
      if (t.kind === 'symbol') {
        if (t.text === '[' || t.text === '(' || t.text === '{') depth++;
        else if (t.text === ']' || t.text === ')' || t.text === '}') {
          depth--;
          if (depth === 0) return t.text === ']' && this.isKeyword('perp', this.tokens[i + 1] ?? t);
          if (depth < 0) return false;
        }
      } else if (t.kind === 'end') return false;
    }
    return false;
  }

  /**
   * `[…] perp`. The brackets read as they would without `perp` when they hold literal entries
   * (`[1 -2] perp` is the perpendicular of (1, −2)); otherwise they hold one expression
   * (`[a + b] perp`). Decided by a scan of the tokens, not by trying both (which would be
   * exponential in the nesting).
   */
  private parsePerp(): Node {
    const open = this.peek();
    let operand: Node;
    if (this.bracketsHoldEntries()) operand = this.parseLiteral();
    else {
      this.next();
      operand = this.nested(false, () => this.parseExpr(`a vector after '['`));
      this.expectCloser(']', `']' to close the '[' at ${open.span.line}:${open.span.column}`, operand);
    }
    this.next(); // perp (checked by isPerpAhead)
    return this.made({ kind: 'perp', operand, span: joinSpans(open.span, this.lastSpan()) }, open.span);
  }

  /**
   * Do the brackets at the current '[' hold a literal: two or more entries (['-'…] followed by a
   * number, name, inf, eps or parenthesised group, with .field / .x suffixes), or a ';'?
   */
  private bracketsHoldEntries(): boolean {
    let i = this.pos + 1;
    const at = (k: number): Token => this.tokens[Math.min(k, this.tokens.length - 1)]!;
    let entries = 0;
    for (;;) {
      const t = at(i);
      if (t.kind === 'symbol' && t.text === ']') return entries >= 2;
      if (t.kind === 'symbol' && (t.text === ';' || t.text === ',')) return true;
      while (at(i).kind === 'symbol' && at(i).text === '-') i++;
      const e = at(i);
      if (e.kind === 'number' || e.kind === 'name' || (e.kind === 'keyword' && (e.text === 'inf' || e.text === 'eps'))) i++;
      else if (e.kind === 'symbol' && e.text === '(') {
        let depth = 0;
        for (; ; i++) {
          const u = at(i);
          if (u.kind === 'end') return false;
          if (u.kind === 'symbol' && u.text === '(') depth++;
          else if (u.kind === 'symbol' && u.text === ')' && --depth === 0) break;
        }
        i++;
      } else return false;
      while (at(i).kind === 'symbol' && at(i).text === '.' && (at(i + 1).kind === 'name' || at(i + 1).kind === 'keyword')) i += 2;
      entries++;
    }
  }

  private parseLiteral(): Node {
    const open = this.next();
    const rows: Node[][] = [[]];
    for (;;) {
      if (this.isSymbol(']')) break;
      if (this.isSymbol(';')) {
        this.next();
        rows.push([]);
        continue;
      }
      if (this.isSymbol(',')) {
        this.next();
        continue;
      }
      rows[rows.length - 1]!.push(this.parseEntry());
    }
    const close = this.next();
    const span = joinSpans(open.span, close.span);
    const shape = rows.map((r) => r.length).join(' ; ');
    const vector = (rows.length === 1 && rows[0]!.length === 2) || (rows.length === 2 && rows[0]!.length === 1 && rows[1]!.length === 1);
    const matrix = rows.length === 2 && rows[0]!.length === 2 && rows[1]!.length === 2;
    if (!vector && !matrix) {
      const hint = rows.length === 1 && rows[0]!.length === 1 ? '; for the perpendicular of a vector write [v] perp' : '';
      this.fail(`a literal must be [a b] or [a ; b] (a vector) or [a b ; c d] (a matrix), found entries shaped [${shape}]${hint}`, span);
    }
    return this.made({ kind: 'literal', rows, span }, span);
  }

  /** A literal entry: ['-'] (number | inf | eps | name | body.field | '(' expr ')'). */
  private parseEntry(): Node {
    const t = this.peek();
    this.enter(t.span);
    try {
      if (this.isSymbol('-')) {
        this.next();
        const operand = this.parseEntry();
        return this.made({ kind: 'negate', operand, span: joinSpans(t.span, operand.span) }, t.span);
      }
      if (t.kind === 'number' || t.kind === 'name' || this.isKeyword('inf') || this.isKeyword('eps') || this.isSymbol('(')) return this.nested(false, () => this.parseAtom(''));
      this.expected(`a literal entry or ']'`, ' (entries are numbers, names or parenthesised expressions)');
    } finally {
      this.leave();
    }
  }

  private parseBlock(): Node {
    const open = this.next();
    const parts: Node[] = [];
    while (!this.isSymbol('}')) {
      if (this.peek().kind === 'end') this.expected(`'}' to close the '{' at ${open.span.line}:${open.span.column}`);
      parts.push(this.nested(true, () => this.parseExpr(`an expression or '}'`)));
    }
    const close = this.next();
    const span = joinSpans(open.span, close.span);
    if (parts.length === 0) this.fail('empty block: a block { … } needs at least one expression', span);
    return this.made({ kind: 'block', parts, span }, span);
  }
}

/** Depth of every node made by a parser (see Parser.made). */
const depths = new WeakMap<Node, number>();
