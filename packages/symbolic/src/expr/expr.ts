/**
 * Typed expressions at the language's level (scalars, 2-vectors, 2×2 matrices), built only
 * through an ExprBuilder, which simplifies as it builds:
 *
 *  - hash-consing: structurally equal expressions are the same object, so a repeated
 *    subexpression exists once (common-subexpression elimination), and `a - a` is seen to be 0;
 *  - constant folding: an operation on constants is a constant, computed as IEEE 754 does
 *    (`inf - inf` and `0 * inf` are NaN, `1 / 0` is inf);
 *  - zero and one elimination: `x + 0`, `1 * x`, `x / 1` and friends, always; `0 * x`, `x - x`,
 *    `relative 0 v` and `relative θ 0` only where IEEE agrees, that is when x (θ, v) is known to
 *    be finite (see Expr.finite): with x = ±inf they are NaN, so they are kept;
 *  - literal expansion: an operation on a literal `[a b]` works on its entries, so `[1 0] dot v`
 *    becomes `v.x` and `s * [1 0]` becomes `[s 0]`.
 *
 * Expressions are immutable DAGs; `span` (where the expression was first written) and `hint`
 * (the let name it was first bound to, for printing) are the only annotations.
 */
import type { Span } from '../errors.js';

export type Type = 'scalar' | 'vector' | 'matrix';

/**
 * Body fields. The first four are the language's; the last three exist only in the debug
 * output's K and in the centre-of-mass conversion of the Jacobian.
 */
export type Field = 'position' | 'rotation' | 'velocity' | 'angularVel' | 'worldCenter' | 'invMass' | 'invInertia';

export type Op =
  | 'num'
  | 'param'
  | 'field'
  | 'vec'
  | 'mat'
  | 'comp'
  | 'neg'
  | 'add'
  | 'sub'
  | 'mul'
  | 'div'
  | 'dot'
  | 'cross'
  | 'outer'
  | 'relative'
  | 'perp'
  | 'unit'
  | 'norm'
  | 'abs'
  | 'sign';

export interface Expr {
  readonly id: number;
  readonly op: Op;
  readonly type: Type;
  readonly args: readonly Expr[];
  /** num: the value. */
  readonly value: number;
  /** param: its name; field: the body's name. */
  readonly name: string;
  /** param: first slot in the parameter array; field: the body slot; comp: 0 (x) or 1 (y). */
  readonly index: number;
  readonly field: Field | null;
  /** 1 for a leaf. */
  readonly depth: number;
  /** A structural hash (equal structure, equal hash, in any builder): orders commutative operands. */
  readonly hash: number;
  /**
   * Known to be finite whatever the state and the parameters: body fields, vector parameters
   * (setVector takes finite components only), finite constants, and what is computed from them
   * by anything but a division (whose divisor may be 0). Not `inf`, a NaN constant or a scalar
   * parameter (scalars may be ±Infinity). Sums and products of finite values are taken to stay
   * finite: an overflow needs magnitudes near 1e154.
   */
  readonly finite: boolean;
  /** Where it was first written (null for expressions the derivation made). */
  span: Span | null;
  /** The let name it was first bound to, if any. */
  hint: string | null;
}

export const FIELD_TYPES: Readonly<Record<Field, Type>> = {
  position: 'vector',
  rotation: 'scalar',
  velocity: 'vector',
  angularVel: 'scalar',
  worldCenter: 'vector',
  invMass: 'scalar',
  invInertia: 'scalar',
};

/** The number of scalar components of a type. */
export function sizeOf(t: Type): number {
  return t === 'scalar' ? 1 : t === 'vector' ? 2 : 4;
}

/** The type of `a * b`, or null when the product is not defined. */
export function productType(a: Type, b: Type): Type | null {
  if (a === 'scalar') return b;
  if (b === 'scalar') return a;
  if (a === 'matrix') return b; // matrix·vector → vector, matrix·matrix → matrix
  return null; // vector·vector, vector·matrix
}

/** The type of `a cross b`, or null. */
export function crossType(a: Type, b: Type): Type | null {
  if (a === 'vector' && b === 'vector') return 'scalar';
  if ((a === 'scalar' && b === 'vector') || (a === 'vector' && b === 'scalar')) return 'vector';
  return null;
}

const isLiteral = (e: Expr): boolean => e.op === 'vec' || e.op === 'mat';

export class ExprBuilder {
  private readonly table = new Map<string, Expr>();
  private nextId = 0;

  /** How many distinct expressions were built (tests measure sharing with it). */
  get size(): number {
    return this.table.size;
  }

  private make(op: Op, type: Type, args: readonly Expr[], value = 0, name = '', index = 0, field: Field | null = null): Expr {
    const v = op === 'num' ? (Object.is(value, -0) ? '-0' : String(value)) : '';
    const key = `${op}|${type}|${v}|${name}|${index}|${field ?? ''}|${args.map((a) => a.id).join(',')}`;
    const found = this.table.get(key);
    if (found) return found;
    let depth = 0;
    for (const a of args) depth = Math.max(depth, a.depth);
    const hash = structuralHash(`${op}|${type}|${v}|${name}|${index}|${field ?? ''}`, args);
    const e: Expr = { id: this.nextId++, op, type, args, value, name, index, field, depth: depth + 1, hash, finite: knownFinite(op, type, args, value), span: null, hint: null };
    this.table.set(key, e);
    return e;
  }

  // ------------------------------------------------------------------ leaves and literals

  num(value: number): Expr {
    return this.make('num', 'scalar', [], value);
  }
  param(name: string, type: 'scalar' | 'vector', slot: number): Expr {
    return this.make('param', type, [], 0, name, slot);
  }
  field(body: string, slot: number, field: Field): Expr {
    return this.make('field', FIELD_TYPES[field], [], 0, body, slot, field);
  }
  vec(x: Expr, y: Expr): Expr {
    return this.make('vec', 'vector', [x, y]);
  }
  mat(a: Expr, b: Expr, c: Expr, d: Expr): Expr {
    return this.make('mat', 'matrix', [a, b, c, d]);
  }
  zero(type: Type): Expr {
    const z = this.num(0);
    return type === 'scalar' ? z : type === 'vector' ? this.vec(z, z) : this.mat(z, z, z, z);
  }
  /** A constant of the given type from its components (row-major for matrices). */
  constant(type: Type, values: readonly number[]): Expr {
    const n = values.map((v) => this.num(v));
    return type === 'scalar' ? n[0]! : type === 'vector' ? this.vec(n[0]!, n[1]!) : this.mat(n[0]!, n[1]!, n[2]!, n[3]!);
  }
  /** A literal's components as expressions (for literals) or comp nodes (vectors only). */
  private parts(e: Expr): readonly Expr[] {
    if (isLiteral(e)) return e.args;
    if (e.type === 'vector') return [this.comp(e, 0), this.comp(e, 1)];
    if (e.type === 'scalar') return [e];
    throw new Error(`internal: parts() of a ${e.type} expression that is not a literal`);
  }

  // ------------------------------------------------------------------ predicates

  isConst(e: Expr): boolean {
    return e.op === 'num' || (isLiteral(e) && e.args.every((a) => a.op === 'num'));
  }
  isZero(e: Expr): boolean {
    return (e.op === 'num' && e.value === 0) || (isLiteral(e) && e.args.every((a) => a.op === 'num' && a.value === 0));
  }
  /** A zero that an operation with `other` may absorb: 0 · x is 0 only for a finite x (IEEE: 0 · inf is NaN). */
  private absorbs(zero: Expr, other: Expr): boolean {
    return other.finite && this.isZero(zero);
  }
  private isNum(e: Expr, v: number): boolean {
    return e.op === 'num' && e.value === v;
  }
  /** The components of a constant. */
  constValues(e: Expr): number[] {
    return e.op === 'num' ? [e.value] : e.args.map((a) => a.value);
  }

  // ------------------------------------------------------------------ operations

  comp(v: Expr, i: 0 | 1): Expr {
    if (v.op === 'vec') return v.args[i]!;
    return this.make('comp', 'scalar', [v], 0, '', i);
  }

  neg(a: Expr): Expr {
    if (a.op === 'num') return this.num(a.value === 0 ? 0 : -a.value); // no −0 in the printed forms
    if (a.op === 'neg') return a.args[0]!;
    if (isLiteral(a)) return this.rebuild(a, a.args.map((x) => this.neg(x)));
    return this.make('neg', a.type, [a]);
  }

  add(a: Expr, b: Expr): Expr {
    sameType('+', a, b);
    if (a.op === 'num' && b.op === 'num') return this.num(a.value + b.value);
    if (this.isZero(a)) return b;
    if (this.isZero(b)) return a;
    if (isLiteral(a) && isLiteral(b)) return this.rebuild(a, a.args.map((x, i) => this.add(x, b.args[i]!)));
    if (b.op === 'neg') return this.sub(a, b.args[0]!);
    if (a.op === 'neg') return this.sub(b, a.args[0]!);
    return this.make('add', a.type, ordered(a, b));
  }

  sub(a: Expr, b: Expr): Expr {
    sameType('-', a, b);
    if (a.op === 'num' && b.op === 'num') return this.num(a.value - b.value);
    if (this.isZero(b)) return a;
    if (this.isZero(a)) return this.neg(b);
    if (a === b && a.finite) return this.zero(a.type); // inf - inf is NaN
    if (isLiteral(a) && isLiteral(b)) return this.rebuild(a, a.args.map((x, i) => this.sub(x, b.args[i]!)));
    if (b.op === 'neg') return this.add(a, b.args[0]!);
    return this.make('sub', a.type, [a, b]);
  }

  mul(a: Expr, b: Expr): Expr {
    const type = productType(a.type, b.type);
    if (type === null) throw new Error(`internal: ${a.type} * ${b.type}`);
    // Scalars first: v * s and m * s are s * v and s * m (the same numbers, one form to share).
    if (b.type === 'scalar' && a.type !== 'scalar') return this.mul(b, a);
    if (a.op === 'num' && b.op === 'num') return this.num(a.value * b.value);
    if (this.absorbs(a, b) || this.absorbs(b, a)) return this.zero(type);
    if (this.isNum(a, 1)) return b;
    if (this.isNum(b, 1)) return a;
    if (this.isNum(a, -1)) return this.neg(b);
    if (this.isNum(b, -1)) return this.neg(a);
    if (a.op === 'neg') return this.neg(this.mul(a.args[0]!, b));
    if (b.op === 'neg') return this.neg(this.mul(a, b.args[0]!));
    if (a.type === 'scalar') {
      if (b.type === 'scalar') return this.make('mul', 'scalar', ordered(a, b));
      if (isLiteral(b)) return this.rebuild(b, b.args.map((x) => this.mul(a, x)));
      return this.make('mul', type, [a, b]);
    }
    // matrix · vector, matrix · matrix
    if (isLiteral(a) && isLiteral(b)) {
      const [m00, m01, m10, m11] = a.args as [Expr, Expr, Expr, Expr];
      const row = (r0: Expr, r1: Expr, c0: Expr, c1: Expr): Expr => this.add(this.mul(r0, c0), this.mul(r1, c1));
      if (b.type === 'vector') {
        const [x, y] = b.args as [Expr, Expr];
        return this.vec(row(m00, m01, x, y), row(m10, m11, x, y));
      }
      const [n00, n01, n10, n11] = b.args as [Expr, Expr, Expr, Expr];
      return this.mat(row(m00, m01, n00, n10), row(m00, m01, n01, n11), row(m10, m11, n00, n10), row(m10, m11, n01, n11));
    }
    return this.make('mul', type, [a, b]);
  }

  /** `a / s`: divides every component by the scalar s. */
  div(a: Expr, s: Expr): Expr {
    if (s.type !== 'scalar') throw new Error('internal: division by a non-scalar');
    if (a.op === 'num' && s.op === 'num') return this.num(a.value / s.value);
    // 0 / s is 0 only for a divisor known to be neither 0 nor NaN (0 / 0 is NaN).
    if (this.isZero(a) && s.op === 'num' && s.value !== 0 && !Number.isNaN(s.value)) return this.zero(a.type);
    if (this.isNum(s, 1)) return a;
    if (this.isNum(s, -1)) return this.neg(a);
    if (isLiteral(a) && s.op === 'num') return this.rebuild(a, a.args.map((x) => this.div(x, s)));
    if (a.op === 'neg') return this.neg(this.div(a.args[0]!, s));
    return this.make('div', a.type, [a, s]);
  }

  dot(a: Expr, b: Expr): Expr {
    if (this.absorbs(a, b) || this.absorbs(b, a)) return this.num(0);
    if (isLiteral(a) || isLiteral(b)) {
      const [ax, ay] = this.parts(a) as [Expr, Expr];
      const [bx, by] = this.parts(b) as [Expr, Expr];
      return this.add(this.mul(ax, bx), this.mul(ay, by));
    }
    if (a.op === 'neg') return this.neg(this.dot(a.args[0]!, b));
    if (b.op === 'neg') return this.neg(this.dot(a, b.args[0]!));
    return this.make('dot', 'scalar', ordered(a, b));
  }

  /** vector × vector → scalar; scalar × vector and vector × scalar → vector (the 2D conventions). */
  cross(a: Expr, b: Expr): Expr {
    const type = crossType(a.type, b.type);
    if (type === null) throw new Error(`internal: ${a.type} cross ${b.type}`);
    if (this.absorbs(a, b) || this.absorbs(b, a)) return this.zero(type);
    if (a.type === 'scalar') {
      // s × v = s·(−v.y, v.x) = s · perp(v)
      return this.mul(a, this.perp(b));
    }
    if (b.type === 'scalar') {
      // v × s = s·(v.y, −v.x) = −s · perp(v)
      return this.neg(this.mul(b, this.perp(a)));
    }
    if (isLiteral(a) || isLiteral(b)) {
      const [ax, ay] = this.parts(a) as [Expr, Expr];
      const [bx, by] = this.parts(b) as [Expr, Expr];
      return this.sub(this.mul(ax, by), this.mul(ay, bx));
    }
    if (a.op === 'neg') return this.neg(this.cross(a.args[0]!, b));
    if (b.op === 'neg') return this.neg(this.cross(a, b.args[0]!));
    return this.make('cross', 'scalar', [a, b]);
  }

  outer(a: Expr, b: Expr): Expr {
    if (this.absorbs(a, b) || this.absorbs(b, a)) return this.zero('matrix');
    if (isLiteral(a) && isLiteral(b)) {
      const [ax, ay] = a.args as [Expr, Expr];
      const [bx, by] = b.args as [Expr, Expr];
      return this.mat(this.mul(ax, bx), this.mul(ax, by), this.mul(ay, bx), this.mul(ay, by));
    }
    if (a.op === 'neg') return this.neg(this.outer(a.args[0]!, b));
    if (b.op === 'neg') return this.neg(this.outer(a, b.args[0]!));
    return this.make('outer', 'matrix', [a, b]);
  }

  /** `relative θ v`: v rotated by θ. */
  relative(angle: Expr, v: Expr): Expr {
    // R(θ) v is (cos θ · x − sin θ · y, sin θ · x + cos θ · y): with θ or v infinite, a product is 0 · inf.
    if (this.absorbs(v, angle)) return this.zero('vector');
    if (this.absorbs(angle, v)) return v;
    if (angle.op === 'num' && this.isConst(v)) {
      const [x, y] = this.constValues(v) as [number, number];
      const c = Math.cos(angle.value);
      const s = Math.sin(angle.value);
      return this.constant('vector', [c * x - s * y, s * x + c * y]);
    }
    return this.make('relative', 'vector', [angle, v]);
  }

  /** `[v] perp` = (−v.y, v.x). */
  perp(v: Expr): Expr {
    if (v.op === 'vec') return this.vec(this.neg(v.args[1]!), v.args[0]!);
    if (v.op === 'perp') return this.neg(v.args[0]!);
    if (v.op === 'neg') return this.neg(this.perp(v.args[0]!));
    return this.make('perp', 'vector', [v]);
  }

  /** `unit v`; the unit of the zero vector is the zero vector (see README: degenerate cases). */
  unit(v: Expr): Expr {
    if (this.isZero(v)) return this.zero('vector');
    if (this.isConst(v)) {
      const [x, y] = this.constValues(v) as [number, number];
      const l = Math.sqrt(x * x + y * y);
      const inv = l > 0 ? 1 / l : 0;
      return this.constant('vector', [x * inv, y * inv]);
    }
    if (v.op === 'unit') return v;
    return this.make('unit', 'vector', [v]);
  }

  /** `|v|` of a vector: its length. */
  norm(v: Expr): Expr {
    if (this.isConst(v)) {
      const [x, y] = this.constValues(v) as [number, number];
      return this.num(Math.sqrt(x * x + y * y));
    }
    if (v.op === 'neg') return this.norm(v.args[0]!);
    return this.make('norm', 'scalar', [v]);
  }

  /** `|s|` of a scalar. */
  abs(s: Expr): Expr {
    if (s.op === 'num') return this.num(Math.abs(s.value));
    if (s.op === 'abs' || s.op === 'norm') return s;
    if (s.op === 'neg') return this.abs(s.args[0]!);
    return this.make('abs', 'scalar', [s]);
  }

  /** sign(s) ∈ {−1, 0, 1}: the derivative of |s| (only the derivation makes it). */
  sign(s: Expr): Expr {
    if (s.op === 'num') return this.num(Math.sign(s.value));
    return this.make('sign', 'scalar', [s]);
  }

  /** A literal of the same kind as `like` with new entries (simplified if they are all constant). */
  private rebuild(like: Expr, entries: readonly Expr[]): Expr {
    return like.op === 'vec' ? this.vec(entries[0]!, entries[1]!) : this.mat(entries[0]!, entries[1]!, entries[2]!, entries[3]!);
  }
}

/**
 * Operands of a commutative operation in a canonical order, so that a + b and b + a are one
 * expression. By structural hash, not by creation order, so the order (and the printed text)
 * does not depend on what happened to be built first.
 */
function ordered(a: Expr, b: Expr): [Expr, Expr] {
  if (a.hash !== b.hash) return a.hash < b.hash ? [a, b] : [b, a];
  return a.id <= b.id ? [a, b] : [b, a];
}

/** Expr.finite of a new node. */
function knownFinite(op: Op, type: Type, args: readonly Expr[], value: number): boolean {
  switch (op) {
    case 'num':
      return Number.isFinite(value);
    case 'param':
      return type !== 'scalar';
    case 'field':
      return true;
    case 'div': {
      const s = args[1]!;
      return args[0]!.finite && s.op === 'num' && s.value !== 0 && Number.isFinite(s.value);
    }
    default:
      return args.every((a) => a.finite);
  }
}

/** FNV-1a over the node's own key and its operands' hashes. */
function structuralHash(key: string, args: readonly Expr[]): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < key.length; i++) h = Math.imul(h ^ key.charCodeAt(i), 0x01000193);
  for (const a of args) h = Math.imul(h ^ a.hash, 0x01000193);
  return h >>> 0;
}

function sameType(op: string, a: Expr, b: Expr): void {
  if (a.type !== b.type) throw new Error(`internal: ${a.type} ${op} ${b.type}`);
}

/** Visit every node of a DAG once, children before parents. */
export function postorder(roots: readonly Expr[], visit: (e: Expr) => void): void {
  const seen = new Set<number>();
  const walk = (e: Expr): void => {
    if (seen.has(e.id)) return;
    seen.add(e.id);
    for (const a of e.args) walk(a);
    visit(e);
  };
  for (const r of roots) walk(r);
}

/** Whether any node under `e` satisfies `test` (memoised over the DAG). */
export function containsWhere(e: Expr, test: (e: Expr) => boolean, memo = new Map<number, boolean>()): boolean {
  const m = memo.get(e.id);
  if (m !== undefined) return m;
  const r = test(e) || e.args.some((a) => containsWhere(a, test, memo));
  memo.set(e.id, r);
  return r;
}
