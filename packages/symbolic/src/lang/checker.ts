/**
 * Checker: resolves names, checks types and turns the syntax tree into typed expressions
 * (lets are inlined; the builder shares repeated subexpressions, so nothing is duplicated).
 *
 * Types: scalar, vector (2D) and matrix (2×2). A `{ … }` block is not a value: it may only be
 * the whole constraint, a let's body that ends up there, or a limit bound.
 *
 * Rules checked here, each with an error at the offending spot:
 *  - every name is declared once (bodies, scalars and vectors share one namespace) and used
 *    with the right type; bodies are only used through their fields;
 *  - a position constraint (`constraint`) reads positions and rotations only: its velocity is
 *    derived from it; a velocity constraint (`velocity`) must be affine in the velocities;
 *  - limits depend on parameters only, and `limit constraint` bounds have the constraint's rows.
 */
import { didYouMean } from '@fulcrum/physics';
import { SymbolicTypeError, at, type Span } from '../errors.js';
import { ExprBuilder, containsWhere, crossType, productType, type Expr, type Field } from '../expr/expr.js';
import type { Declaration, Node, SyntaxTree } from './ast.js';
import { KEYWORDS } from './lexer.js';
import { parse } from './parser.js';

/** Deepest typed expression after inlining lets (each later pass recurses over it). */
export const MAX_EXPR_DEPTH = 400;
/** UserConstraint's limit on dimensions. */
export const MAX_ROWS = 64;
/** The value of `eps`. */
export const EPS = 1e-10;

export const BODY_FIELDS: readonly Field[] = ['position', 'rotation', 'velocity', 'angularVel'];

export interface Declared {
  readonly name: string;
  readonly span: Span;
  /** Bodies: the slot (declaration order). Scalars and vectors: the first slot in the parameter array. */
  readonly slot: number;
}

/** One `limit expr lower upper`: lower ≤ expr ≤ upper must hold for the parameters. */
export interface VariableLimit {
  readonly expr: Expr;
  readonly lower: Expr;
  readonly upper: Expr;
  readonly span: Span;
  /** The declaration as written, for messages. */
  readonly text: string;
  /** The parameters it reads. */
  readonly params: readonly string[];
}

/** `limit constraint lower upper`, one bound expression per row. */
export interface RowLimit {
  readonly lower: readonly Expr[];
  readonly upper: readonly Expr[];
  readonly span: Span;
  readonly text: string;
  readonly params: readonly string[];
}

export interface CheckedProgram {
  readonly source: string;
  readonly builder: ExprBuilder;
  readonly bodies: readonly Declared[];
  readonly scalars: readonly Declared[];
  readonly vectors: readonly Declared[];
  /** Length of the parameter array: one slot per scalar, two per vector. */
  readonly paramCount: number;
  /** 'position': C(x) = 0; 'velocity': V(x, v) = 0. */
  readonly kind: 'position' | 'velocity';
  /** The constraint's parts in row order (scalars and vectors). */
  readonly parts: readonly Expr[];
  /** Where each part is written. */
  readonly partSpans: readonly Span[];
  readonly rows: number;
  /** The `constraint …` / `velocity …` declaration. */
  readonly span: Span;
  readonly rowLimit: RowLimit | null;
  readonly variableLimits: readonly VariableLimit[];
}

export function check(source: string): CheckedProgram {
  return new Checker(source, parse(source)).run();
}

type Value = { kind: 'expr'; e: Expr } | { kind: 'block'; parts: Expr[]; spans: Span[] };

interface Scope {
  readonly name: string;
  readonly value: Value;
  readonly span: Span;
  readonly next: Scope | null;
}

/** What an expression may read, by where it appears. */
interface Context {
  /** 'position': no velocities; 'velocity': anything; 'parameters': no bodies. */
  readonly reads: 'position' | 'velocity' | 'parameters';
  /** For messages: "a position constraint", "a limit". */
  readonly what: string;
}

type GlobalKind = 'body' | 'scalar' | 'vector';

class Checker {
  private readonly b = new ExprBuilder();
  private readonly globals = new Map<string, { kind: GlobalKind; decl: Declared }>();
  private readonly bodies: Declared[] = [];
  private readonly scalars: Declared[] = [];
  private readonly vectors: Declared[] = [];
  private paramCount = 0;

  constructor(
    private readonly source: string,
    private readonly tree: SyntaxTree,
  ) {}

  private fail(reason: string, span: Span, hint = ''): never {
    throw new SymbolicTypeError(reason, this.source, span, hint);
  }

  run(): CheckedProgram {
    for (const d of this.tree.declarations) if (d.kind === 'body' || d.kind === 'scalar' || d.kind === 'vector') this.declare(d);

    const constraints = this.tree.declarations.filter((d): d is Declaration & { kind: 'constraint' | 'velocity' } => d.kind === 'constraint' || d.kind === 'velocity');
    if (constraints.length === 0) {
      this.fail('no constraint declared: add `constraint <expression>` (a position constraint, C = 0) or `velocity <expression>` (a velocity constraint, V = 0)', this.tree.end);
    }
    if (constraints.length > 1) this.fail(`only one constraint per source; the first is at ${at(constraints[0]!.span)}`, constraints[1]!.span);
    const decl = constraints[0]!;
    if (this.bodies.length === 0) this.fail('no body declared: add `body body1, body2` before using bodies in the constraint', decl.span);

    const kind = decl.kind === 'constraint' ? 'position' : 'velocity';
    const ctx: Context = kind === 'position' ? { reads: 'position', what: 'a position constraint' } : { reads: 'velocity', what: 'a velocity constraint' };
    const value = this.check(decl.expr, null, ctx);
    const { parts, spans } = this.constraintParts(value, decl.expr.span);
    const rows = parts.reduce((n, p) => n + (p.type === 'scalar' ? 1 : 2), 0);
    if (rows > MAX_ROWS) this.fail(`a constraint has at most ${MAX_ROWS} rows, this one has ${rows}`, decl.expr.span);

    const readsBody = (e: Expr): boolean => containsWhere(e, (x) => x.op === 'field');
    const readsVelocity = (e: Expr): boolean => containsWhere(e, (x) => x.op === 'field' && (x.field === 'velocity' || x.field === 'angularVel'));
    if (kind === 'position' && !parts.some(readsBody)) this.fail('the constraint does not read any body (use body.position or body.rotation)', decl.expr.span);
    if (kind === 'velocity') {
      if (!parts.some(readsVelocity)) this.fail('a velocity constraint must read a body velocity (body.velocity or body.angularVel)', decl.expr.span);
      parts.forEach((p, i) => this.checkAffine(p, spans[i]!));
    }

    let rowLimit: RowLimit | null = null;
    const variableLimits: VariableLimit[] = [];
    const paramCtx: Context = { reads: 'parameters', what: 'a limit' };
    for (const d of this.tree.declarations) {
      if (d.kind === 'rowLimit') {
        if (kind === 'velocity') this.fail('limit constraint applies to position constraints; a velocity constraint is bounded by maxForce instead', d.span);
        if (rowLimit) this.fail(`the constraint already has row limits at ${at(rowLimit.span)}`, d.span);
        const lower = this.rowBounds(d.lower, rows, 'lower', paramCtx);
        const upper = this.rowBounds(d.upper, rows, 'upper', paramCtx);
        rowLimit = { lower, upper, span: d.span, text: this.text(d.span), params: this.paramsOf([...lower, ...upper]) };
      } else if (d.kind === 'varLimit') {
        const expr = this.scalarOf(d.expr, 'the limited expression', paramCtx);
        const lower = this.scalarOf(d.lower, 'the lower bound', paramCtx);
        const upper = this.scalarOf(d.upper, 'the upper bound', paramCtx);
        variableLimits.push({ expr, lower, upper, span: d.span, text: this.text(d.span), params: this.paramsOf([expr, lower, upper]) });
      }
    }

    return {
      source: this.source,
      builder: this.b,
      bodies: this.bodies,
      scalars: this.scalars,
      vectors: this.vectors,
      paramCount: this.paramCount,
      kind,
      parts,
      partSpans: spans,
      rows,
      span: decl.span,
      rowLimit,
      variableLimits,
    };
  }

  private text(span: Span): string {
    return this.source.slice(span.offset, span.offset + span.length).replace(/\s+/g, ' ');
  }

  private paramsOf(es: readonly Expr[]): string[] {
    const names = new Set<string>();
    const memo = new Map<number, boolean>();
    for (const e of es) {
      containsWhere(
        e,
        (x) => {
          if (x.op === 'param') names.add(x.name);
          return false;
        },
        memo,
      );
    }
    return [...names];
  }

  // ------------------------------------------------------------------ declarations

  private declare(d: Declaration & { kind: GlobalKind }): void {
    for (const { name, span } of d.names) {
      const prev = this.globals.get(name);
      if (prev) this.fail(`'${name}' is already declared as a ${prev.kind} at ${at(prev.decl.span)}`, span);
      let decl: Declared;
      if (d.kind === 'body') {
        decl = { name, span, slot: this.bodies.length };
        this.bodies.push(decl);
      } else {
        decl = { name, span, slot: this.paramCount };
        this.paramCount += d.kind === 'scalar' ? 1 : 2;
        (d.kind === 'scalar' ? this.scalars : this.vectors).push(decl);
      }
      this.globals.set(name, { kind: d.kind, decl });
    }
  }

  // ------------------------------------------------------------------ top-level shapes

  private constraintParts(value: Value, span: Span): { parts: Expr[]; spans: Span[] } {
    if (value.kind === 'block') return { parts: value.parts, spans: value.spans };
    if (value.e.type === 'matrix') this.fail('a constraint must be a scalar, a vector or a block { … } of them, but this is a matrix', span);
    return { parts: [value.e], spans: [span] };
  }

  /** A `limit constraint` bound, as one scalar per row. */
  private rowBounds(node: Node, rows: number, which: string, ctx: Context): Expr[] {
    const v = this.check(node, null, ctx);
    const parts = v.kind === 'block' ? v.parts : [v.e];
    const out: Expr[] = [];
    for (const p of parts) {
      if (p.type === 'matrix') this.fail(`the ${which} bound of a limit must be scalars or vectors, not a matrix`, node.span);
      if (p.type === 'scalar') out.push(p);
      else out.push(this.b.comp(p, 0), this.b.comp(p, 1));
    }
    if (out.length !== rows) {
      this.fail(`the ${which} bound has ${out.length} row${out.length === 1 ? '' : 's'} but the constraint has ${rows}; give one bound per row, e.g. { lo1 lo2 }`, node.span);
    }
    return out;
  }

  private scalarOf(node: Node, what: string, ctx: Context): Expr {
    const v = this.check(node, null, ctx);
    if (v.kind === 'block') this.fail(`${what} of a limit must be a scalar, not a block`, node.span);
    if (v.e.type !== 'scalar') this.fail(`${what} of a limit must be a scalar, got ${v.e.type}${v.e.type === 'vector' ? ' (limit its length |v| instead)' : ''}`, node.span);
    return v.e;
  }

  // ------------------------------------------------------------------ expressions

  private check(node: Node, scope: Scope | null, ctx: Context): Value {
    const v = this.checkNode(node, scope, ctx);
    if (v.kind === 'expr') {
      if (v.e.span === null) v.e.span = node.span;
      if (v.e.depth > MAX_EXPR_DEPTH) this.fail(`expression too deep after expanding lets (more than ${MAX_EXPR_DEPTH} levels)`, node.span);
    }
    return v;
  }

  /** A value that must not be a block. */
  private expr(node: Node, scope: Scope | null, ctx: Context, where: string): Expr {
    const v = this.check(node, scope, ctx);
    if (v.kind === 'block') this.fail(`a block { … } cannot be used ${where}; blocks only stack the rows of a constraint or a limit`, node.span);
    return v.e;
  }

  private checkNode(node: Node, scope: Scope | null, ctx: Context): Value {
    const b = this.b;
    const ok = (e: Expr): Value => ({ kind: 'expr', e });
    switch (node.kind) {
      case 'number':
        return ok(b.num(node.value));
      case 'constant':
        return ok(b.num(node.name === 'inf' ? Infinity : EPS));
      case 'name':
        return this.resolve(node.name, node.span, scope);
      case 'member':
        return ok(this.member(node, scope, ctx));
      case 'let': {
        const g = this.globals.get(node.name);
        if (g) this.fail(`let ${node.name} would hide the ${g.kind} '${node.name}' declared at ${at(g.decl.span)}; pick another name`, node.nameSpan);
        const value = this.check(node.value, scope, ctx);
        if (value.kind === 'expr' && value.e.hint === null && value.e.op !== 'num' && value.e.op !== 'param' && value.e.op !== 'field') value.e.hint = node.name;
        return this.check(node.body, { name: node.name, value, span: node.nameSpan, next: scope }, ctx);
      }
      case 'negate':
        return ok(b.neg(this.expr(node.operand, scope, ctx, 'with unary minus')));
      case 'binary':
        return ok(this.binary(node as Node & { kind: 'binary' }, scope, ctx));
      case 'unit': {
        const v = this.expr(node.operand, scope, ctx, 'in unit');
        if (v.type !== 'vector') this.fail(`unit needs a vector, got ${v.type}`, node.operand.span);
        return ok(b.unit(v));
      }
      case 'relative': {
        const angle = this.expr(node.angle, scope, ctx, 'as an angle');
        if (angle.type !== 'scalar') this.fail(`relative needs an angle (a scalar) first, as in relative body1.rotation anchor1; got ${angle.type}`, node.angle.span);
        const v = this.expr(node.operand, scope, ctx, 'in relative');
        if (v.type !== 'vector') this.fail(`relative rotates a vector, got ${v.type}`, node.operand.span);
        return ok(b.relative(angle, v));
      }
      case 'component': {
        const v = this.expr(node.operand, scope, ctx, 'with .x or .y');
        if (v.type !== 'vector') this.fail(`only vectors have components .x and .y, this is a ${v.type}`, node.span);
        return ok(b.comp(v, node.index));
      }
      case 'perp': {
        const v = this.expr(node.operand, scope, ctx, 'in [ … ] perp');
        if (v.type !== 'vector') this.fail(`perp needs a vector, got ${v.type}`, node.operand.span);
        return ok(b.perp(v));
      }
      case 'norm': {
        const v = this.expr(node.operand, scope, ctx, 'in | … |');
        if (v.type === 'matrix') this.fail('|…| is the absolute value of a scalar or the length of a vector, not defined for a matrix', node.span);
        return ok(v.type === 'scalar' ? b.abs(v) : b.norm(v));
      }
      case 'literal': {
        const entries = node.rows.flat().map((n) => {
          const e = this.expr(n, scope, ctx, 'as a literal entry');
          if (e.type !== 'scalar') this.fail(`literal entries must be scalars, got ${e.type}`, n.span);
          return e;
        });
        return ok(entries.length === 2 ? b.vec(entries[0]!, entries[1]!) : b.mat(entries[0]!, entries[1]!, entries[2]!, entries[3]!));
      }
      case 'block': {
        const parts: Expr[] = [];
        const spans: Span[] = [];
        for (const p of node.parts) {
          const v = this.check(p, scope, ctx);
          if (v.kind === 'block') {
            parts.push(...v.parts);
            spans.push(...v.spans);
            continue;
          }
          if (v.e.type === 'matrix') this.fail('a block { … } stacks scalars and vectors; this part is a matrix', p.span);
          parts.push(v.e);
          spans.push(p.span);
        }
        return { kind: 'block', parts, spans };
      }
    }
  }

  private resolve(name: string, span: Span, scope: Scope | null): Value {
    for (let s = scope; s; s = s.next) if (s.name === name) return s.value;
    const g = this.globals.get(name);
    if (!g) this.fail(`unknown name '${name}'`, span, didYouMean(name, this.visibleNames(scope)));
    if (g.kind === 'body') this.fail(`'${name}' is a body; use one of its fields: ${BODY_FIELDS.map((f) => `${name}.${f}`).join(', ')}`, span);
    return { kind: 'expr', e: this.b.param(name, g.kind, g.decl.slot) };
  }

  private visibleNames(scope: Scope | null): string[] {
    const names = [...this.globals.keys(), ...KEYWORDS.filter((k) => k === 'inf' || k === 'eps')];
    for (let s = scope; s; s = s.next) names.push(s.name);
    return names;
  }

  private member(node: Node & { kind: 'member' }, scope: Scope | null, ctx: Context): Expr {
    const local = (() => {
      for (let s = scope; s; s = s.next) if (s.name === node.object) return s;
      return null;
    })();
    const g = local ? null : this.globals.get(node.object);
    if (!local && g?.kind === 'body') {
      const field = node.field as Field;
      if (!BODY_FIELDS.includes(field)) {
        const fields = `a body has ${BODY_FIELDS.slice(0, -1).join(', ')} and ${BODY_FIELDS[BODY_FIELDS.length - 1]}`;
        const guess = didYouMean(node.field, BODY_FIELDS);
        this.fail(`unknown body field '${node.field}'`, node.fieldSpan, guess ? `${guess} (${fields})` : fields);
      }
      if (ctx.reads === 'parameters') this.fail(`${ctx.what} cannot read ${node.object}.${field}: limits are checked on the parameters, before the step`, node.span);
      if (ctx.reads === 'position' && (field === 'velocity' || field === 'angularVel')) {
        this.fail(`${ctx.what} cannot read ${node.object}.${field}: its velocity is derived from it; declare \`velocity …\` instead of \`constraint …\` to constrain velocities`, node.span);
      }
      return this.b.field(node.object, g.decl.slot, field);
    }
    // Not a body: a vector's component.
    const base = this.expr({ kind: 'name', name: node.object, span: node.objectSpan }, scope, ctx, 'with a field');
    if (base.type !== 'vector') this.fail(`'${node.object}' is a ${base.type}; only bodies have fields and only vectors have components .x and .y`, node.fieldSpan);
    if (node.field !== 'x' && node.field !== 'y') this.fail(`a vector has components x and y, not '${node.field}'`, node.fieldSpan);
    return this.b.comp(base, node.field === 'x' ? 0 : 1);
  }

  private binary(node: Node & { kind: 'binary' }, scope: Scope | null, ctx: Context): Expr {
    const b = this.b;
    const where = `with '${node.op}'`;
    const l = this.expr(node.left, scope, ctx, where);
    const r = this.expr(node.right, scope, ctx, where);
    const fail = (reason: string): never => this.fail(reason, node.opSpan);
    switch (node.op) {
      case '+':
        if (l.type !== r.type) fail(`cannot add ${l.type} and ${r.type}`);
        return b.add(l, r);
      case '-':
        if (l.type !== r.type) fail(`cannot subtract ${r.type} from ${l.type}`);
        return b.sub(l, r);
      case '*': {
        if (productType(l.type, r.type) === null) {
          const hint = l.type === 'vector' && r.type === 'vector' ? ' (use dot, cross or outer)' : ' (only matrix * vector is defined)';
          fail(`cannot multiply ${l.type} by ${r.type}${hint}`);
        }
        return b.mul(l, r);
      }
      case '/':
        if (r.type !== 'scalar') fail(`cannot divide ${l.type} by ${r.type} (the divisor must be a scalar)`);
        return b.div(l, r);
      case 'dot':
        if (l.type !== 'vector' || r.type !== 'vector') fail(`dot needs two vectors, got ${l.type} and ${r.type}`);
        return b.dot(l, r);
      case 'cross':
        if (crossType(l.type, r.type) === null) fail(`cross needs two vectors, or a scalar and a vector, got ${l.type} and ${r.type}`);
        return b.cross(l, r);
      case 'outer':
        if (l.type !== 'vector' || r.type !== 'vector') fail(`outer needs two vectors, got ${l.type} and ${r.type}`);
        return b.outer(l, r);
    }
  }

  // ------------------------------------------------------------------ velocity constraints

  /**
   * V must be affine in the velocities (V = J v + V₀ with J independent of v): the solver applies
   * impulses along J and targets V = 0, which is exact only for an affine V. Walks the DAG and
   * reports the first node that multiplies, divides or bends a velocity-dependent term.
   */
  private checkAffine(part: Expr, partSpan: Span): void {
    const degree = new Map<number, number>(); // 0: no velocity, 1: affine
    const visit = (e: Expr): number => {
      const known = degree.get(e.id);
      if (known !== undefined) return known;
      const ds = e.args.map(visit);
      let d = Math.max(0, ...ds);
      const bad = (why: string): never => this.fail(`a velocity constraint must be affine in the body velocities, but this ${why}`, e.span ?? partSpan);
      switch (e.op) {
        case 'field':
          d = e.field === 'velocity' || e.field === 'angularVel' ? 1 : 0;
          break;
        case 'mul':
        case 'dot':
        case 'cross':
        case 'outer':
          if (ds[0]! > 0 && ds[1]! > 0) bad('multiplies two velocity-dependent terms');
          break;
        case 'div':
          if (ds[1]! > 0) bad('divides by a velocity-dependent term');
          break;
        case 'relative':
          if (ds[0]! > 0) bad('rotates by a velocity-dependent angle');
          break;
        case 'unit':
        case 'norm':
        case 'abs':
        case 'sign':
          if (d > 0) bad(`takes ${e.op === 'unit' ? 'the unit vector' : e.op === 'norm' ? 'the length' : 'the absolute value'} of a velocity-dependent term`);
          break;
        default:
          break;
      }
      degree.set(e.id, d);
      return d;
    };
    visit(part);
  }
}
