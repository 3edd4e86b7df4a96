/**
 * The value of every sub-expression at one state, computed exactly as the kernels compute them:
 * each expression is lowered (scalar/lower.ts) into a scratch scalar program of its own and
 * evaluated node by node with the interpreter's operations. So a sub-expression's value here is
 * the value the compiled and interpreted kernels compute for it (up to the sign of a zero, which
 * the two programs' simplifications may fold differently), and an output the engine found
 * non-finite is non-finite here too when the state is the one the engine read.
 */
import { postorder, type Expr } from '../expr/expr.js';
import { Op, ScalarGraph, applyOp, type OpCode } from '../scalar/ir.js';
import { Lowering } from '../scalar/lower.js';

export class Trace {
  private readonly graph = new ScalarGraph();
  private readonly lowering = new Lowering(this.graph);
  private values = new Float64Array(64);
  private evaluated = 0;

  constructor(
    private readonly state: Float64Array,
    private readonly params: Float64Array,
  ) {}

  /** Lower `root` and every sub-expression of it, and evaluate what is new. */
  add(root: Expr): void {
    postorder([root], (e) => this.lowering.lower(e));
    this.evaluate();
  }

  /** The scalar components of a sub-expression (added before): their node ids. */
  ids(e: Expr): readonly number[] {
    return this.lowering.lower(e);
  }

  /** The components' values (1 for a scalar, 2 for a vector, 4 for a matrix, row-major). */
  value(e: Expr): number[] {
    return this.ids(e).map((id) => this.values[id]!);
  }

  /** Whether node `id` is non-finite. */
  nonFinite(id: number): boolean {
    return !Number.isFinite(this.values[id]!);
  }

  isNaN(id: number): boolean {
    return Number.isNaN(this.values[id]!);
  }

  /** The nodes the components `ids` are computed from (themselves included). */
  feeding(ids: readonly number[]): ReadonlySet<number> {
    return new Set(this.graph.schedule(ids));
  }

  private evaluate(): void {
    const g = this.graph;
    if (this.values.length < g.size) {
      const grown = new Float64Array(Math.max(g.size, 2 * this.values.length));
      grown.set(this.values.subarray(0, this.evaluated));
      this.values = grown;
    }
    const v = this.values;
    for (let id = this.evaluated; id < g.size; id++) {
      const op = g.op[id]!;
      if (op === Op.CONST) v[id] = g.value[id]!;
      else if (op === Op.STATE) v[id] = this.state[g.value[id]!]!;
      else if (op === Op.PARAM) v[id] = this.params[g.value[id]!]!;
      else v[id] = applyOp(op as OpCode, v[g.a[id]!]!, g.b[id]! >= 0 ? v[g.b[id]!]! : 0);
    }
    this.evaluated = g.size;
  }
}
