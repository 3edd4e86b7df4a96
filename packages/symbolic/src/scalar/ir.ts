/**
 * The scalar program: every vector and matrix expression lowered to plain numbers, as a
 * hash-consed DAG of arithmetic on the body state and the parameters. This is what both the
 * compiler (to a JavaScript function) and the interpreter run, node by node in the same order
 * with the same operations, which is why their results are bitwise identical.
 *
 * The builder simplifies once more at this level (constant folding, x+0, 1·x, −(−x), and 0·x,
 * x−x, 0/x where IEEE 754 agrees: for an operand known to be finite, as in expr.ts) and, by
 * hash-consing, computes every common subexpression once.
 */

export const Op = {
  CONST: 0,
  /** state[index] */
  STATE: 1,
  /** params[index] */
  PARAM: 2,
  ADD: 3,
  SUB: 4,
  MUL: 5,
  DIV: 6,
  NEG: 7,
  SQRT: 8,
  ABS: 9,
  SIGN: 10,
  COS: 11,
  SIN: 12,
  /** x > 0 ? 1 / x : 0 (the inverse length in `unit`, so that unit(0) = 0) */
  SAFE_INV: 13,
} as const;
export type OpCode = (typeof Op)[keyof typeof Op];

/** Evaluate one operation; shared by constant folding and the interpreter. */
export function applyOp(op: OpCode, a: number, b: number): number {
  switch (op) {
    case Op.ADD:
      return a + b;
    case Op.SUB:
      return a - b;
    case Op.MUL:
      return a * b;
    case Op.DIV:
      return a / b;
    case Op.NEG:
      return -a;
    case Op.SQRT:
      return Math.sqrt(a);
    case Op.ABS:
      return Math.abs(a);
    case Op.SIGN:
      return Math.sign(a);
    case Op.COS:
      return Math.cos(a);
    case Op.SIN:
      return Math.sin(a);
    case Op.SAFE_INV:
      return a > 0 ? 1 / a : 0;
    default:
      throw new Error(`internal: applyOp(${op})`);
  }
}

const COMMUTATIVE: ReadonlySet<number> = new Set([Op.ADD, Op.MUL]);

export class ScalarGraph {
  readonly op: OpCode[] = [];
  /** Operand node ids (−1 when unused). */
  readonly a: number[] = [];
  readonly b: number[] = [];
  /** CONST: the value; STATE and PARAM: the index. */
  readonly value: number[] = [];
  /** Known to be finite whatever the inputs (see Expr.finite): decides which zero rules apply. */
  readonly finite: boolean[] = [];
  private readonly table = new Map<string, number>();

  get size(): number {
    return this.op.length;
  }

  private node(op: OpCode, a: number, b: number, value: number): number {
    if (COMMUTATIVE.has(op) && b < a) [a, b] = [b, a];
    const key = op === Op.CONST ? `c${Object.is(value, -0) ? '-0' : value}` : `${op},${a},${b},${value}`;
    const found = this.table.get(key);
    if (found !== undefined) return found;
    const id = this.op.length;
    this.op.push(op);
    this.a.push(a);
    this.b.push(b);
    this.value.push(value);
    this.finite.push(this.knownFinite(op, a, b, value));
    this.table.set(key, id);
    return id;
  }

  /** Finite inputs give finite results, except a division (its divisor may be 0); PARAM nodes are marked by param(). */
  private knownFinite(op: OpCode, a: number, b: number, value: number): boolean {
    switch (op) {
      case Op.CONST:
        return Number.isFinite(value);
      case Op.STATE:
        return true;
      case Op.PARAM:
        return false; // until param() says otherwise
      case Op.DIV:
        return this.finite[a]! && this.isConst(b) && this.value[b] !== 0 && Number.isFinite(this.value[b]!);
      case Op.SAFE_INV:
        return true;
      default:
        return this.finite[a]! && (b < 0 || this.finite[b]!);
    }
  }

  /** A zero `zero` that absorbs `other` in a product: only a finite `other` (IEEE: 0 · inf is NaN). */
  private absorbs(zero: number, other: number): boolean {
    return this.isConst(zero, 0) && this.finite[other]!;
  }

  isConst(id: number, v?: number): boolean {
    return this.op[id] === Op.CONST && (v === undefined || this.value[id] === v);
  }
  private constOf(id: number): number {
    return this.value[id]!;
  }

  constant(v: number): number {
    return this.node(Op.CONST, -1, -1, v);
  }
  state(index: number): number {
    return this.node(Op.STATE, -1, -1, index);
  }
  /** params[index]; `finite` for a vector's component (setVector takes finite values only), not a scalar's (±Infinity is allowed). */
  param(index: number, finite = false): number {
    const id = this.node(Op.PARAM, -1, -1, index);
    if (finite) this.finite[id] = true;
    return id;
  }

  private unary(op: OpCode, x: number): number {
    if (this.isConst(x)) return this.constant(applyOp(op, this.constOf(x), 0));
    return this.node(op, x, -1, 0);
  }

  neg(x: number): number {
    if (this.op[x] === Op.NEG) return this.a[x]!;
    return this.unary(Op.NEG, x);
  }
  sqrt(x: number): number {
    return this.unary(Op.SQRT, x);
  }
  abs(x: number): number {
    if (this.op[x] === Op.ABS || this.op[x] === Op.SQRT) return x;
    return this.unary(Op.ABS, x);
  }
  sign(x: number): number {
    return this.unary(Op.SIGN, x);
  }
  cos(x: number): number {
    return this.unary(Op.COS, x);
  }
  sin(x: number): number {
    return this.unary(Op.SIN, x);
  }
  safeInv(x: number): number {
    return this.unary(Op.SAFE_INV, x);
  }

  add(x: number, y: number): number {
    if (this.isConst(x) && this.isConst(y)) return this.constant(this.constOf(x) + this.constOf(y));
    if (this.isConst(x, 0)) return y;
    if (this.isConst(y, 0)) return x;
    if (this.op[y] === Op.NEG) return this.sub(x, this.a[y]!);
    if (this.op[x] === Op.NEG) return this.sub(y, this.a[x]!);
    return this.node(Op.ADD, x, y, 0);
  }
  sub(x: number, y: number): number {
    if (this.isConst(x) && this.isConst(y)) return this.constant(this.constOf(x) - this.constOf(y));
    if (this.isConst(y, 0)) return x;
    if (this.isConst(x, 0)) return this.neg(y);
    if (x === y && this.finite[x]) return this.constant(0); // inf - inf is NaN
    if (this.op[y] === Op.NEG) return this.add(x, this.a[y]!);
    return this.node(Op.SUB, x, y, 0);
  }
  mul(x: number, y: number): number {
    if (this.isConst(x) && this.isConst(y)) return this.constant(this.constOf(x) * this.constOf(y));
    if (this.absorbs(x, y) || this.absorbs(y, x)) return this.constant(0);
    if (this.isConst(x, 1)) return y;
    if (this.isConst(y, 1)) return x;
    if (this.isConst(x, -1)) return this.neg(y);
    if (this.isConst(y, -1)) return this.neg(x);
    if (this.op[x] === Op.NEG) return this.neg(this.mul(this.a[x]!, y));
    if (this.op[y] === Op.NEG) return this.neg(this.mul(x, this.a[y]!));
    return this.node(Op.MUL, x, y, 0);
  }
  div(x: number, y: number): number {
    if (this.isConst(x) && this.isConst(y)) return this.constant(this.constOf(x) / this.constOf(y));
    // 0 / y is 0 only for a divisor known to be neither 0 nor NaN (0 / 0 is NaN).
    if (this.isConst(x, 0) && this.isConst(y) && this.constOf(y) !== 0 && !Number.isNaN(this.constOf(y))) return this.constant(0);
    if (this.isConst(y, 1)) return x;
    if (this.isConst(y, -1)) return this.neg(x);
    if (this.op[x] === Op.NEG) return this.neg(this.div(this.a[x]!, y));
    return this.node(Op.DIV, x, y, 0);
  }

  /**
   * The nodes `outputs` need, in an order where every node comes after its operands (node ids
   * already have that order: a node is made after its operands).
   */
  schedule(outputs: readonly number[]): number[] {
    const needed = new Uint8Array(this.size);
    const stack = [...outputs];
    while (stack.length) {
      const id = stack.pop()!;
      if (needed[id]) continue;
      needed[id] = 1;
      if (this.a[id]! >= 0) stack.push(this.a[id]!);
      if (this.b[id]! >= 0) stack.push(this.b[id]!);
    }
    const order: number[] = [];
    for (let i = 0; i < this.size; i++) if (needed[i]) order.push(i);
    return order;
  }
}
