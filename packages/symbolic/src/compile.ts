/**
 * From source to kernels, once per source text: parse and check, derive V and J, lower to one
 * scalar program, and build the kernels on first use. Compiled programs are cached by source,
 * so thousands of constraints written with the same source share one set of kernels.
 *
 * Kernels (all `(state, params, out)`):
 *  - main:   out = [ value rows (n) | J (n × 3·bodies, row-major) ]; the value rows are C for a
 *            position constraint and V for a velocity constraint. J's columns per body are
 *            (x, y, ω) of the centre of mass (the engine's convention).
 *  - values, jacobian: the two halves of main on their own (a constraint without limits
 *            needs J every pose but C only in position passes; J is written straight into the
 *            engine's array).
 *  - bounds: out = [ lower (n) | upper (n) | per variable limit: value, lower, upper ]; reads
 *            parameters only (no state), so it runs when a parameter changes, not every step.
 *  - rates:  out = [ V rows (n) ] for a position constraint (tests and debugging only).
 */
import { FulcrumInputError, type UserBatchKernel } from '@fulcrum/physics';
import { derive, type Derivation } from './derive.js';
import { checkOutputs } from './explain/outputs.js';
import type { Expr } from './expr/expr.js';
import { check, type CheckedProgram } from './lang/checker.js';
import { ScalarGraph } from './scalar/ir.js';
import { bulkKernelSource, compileBulkKernel2, compileBulkText, compileKernel, constantOutputs, interpretBulkKernel, interpretBulkKernel2, interpretKernel, kernelSource, type BulkLayout, type FunctionFactory, type Kernel } from './scalar/kernel.js';
import { Lowering } from './scalar/lower.js';

/** How kernels are run: a compiled JavaScript function, the interpreter, or compiled when allowed. */
export type CompileMode = 'function' | 'interpreter' | 'auto';

export interface KernelSet {
  readonly mode: 'function' | 'interpreter';
  /** [values | J] together (the common subexpressions of both computed once). */
  readonly main: Kernel;
  /** The value rows alone, and J alone: for constraints that need one without the other. */
  readonly values: Kernel;
  readonly jacobian: Kernel;
  readonly bounds: Kernel;
  /**
   * values and jacobian in bulk, in the engine's UserBatchKernel form (one object per program and
   * mode, so every constraint of the program joins one group in the engine's batch).
   */
  readonly batch: UserBatchKernel;
}

export class CompiledProgram {
  readonly checked: CheckedProgram;
  readonly derivation: Derivation;
  readonly rows: number;
  readonly bodyCount: number;
  /** Columns of J: 3 per body. */
  readonly columns: number;
  readonly graph = new ScalarGraph();
  readonly mainOutputs: readonly number[];
  readonly boundsOutputs: readonly number[];
  private ratesOutputs: readonly number[] | null = null;
  private readonly lowering = new Lowering(this.graph);
  private compiled: KernelSet | null = null;
  private compileFailure: unknown = null;
  private interpreted: KernelSet | null = null;

  constructor(readonly source: string) {
    this.checked = check(source);
    this.derivation = derive(this.checked);
    this.rows = this.checked.rows;
    this.bodyCount = this.checked.bodies.length;
    this.columns = 3 * this.bodyCount;

    const values = this.lowerRows(this.checked.kind === 'position' ? this.derivation.C! : this.derivation.V);
    const jacobian: number[] = new Array<number>(this.rows * this.columns);
    this.derivation.J.forEach((jac, s) => {
      const cols = [this.lowerRows(jac.x), this.lowerRows(jac.y), this.lowerRows(jac.wc)];
      for (let r = 0; r < this.rows; r++) for (let k = 0; k < 3; k++) jacobian[r * this.columns + 3 * s + k] = cols[k]![r]!;
    });
    this.mainOutputs = [...values, ...jacobian];

    const g = this.graph;
    const rl = this.checked.rowLimit;
    const zero = g.constant(0);
    const lower = rl ? rl.lower.map((e) => this.lowering.lower(e)[0]!) : new Array<number>(this.rows).fill(zero);
    const upper = rl ? rl.upper.map((e) => this.lowering.lower(e)[0]!) : new Array<number>(this.rows).fill(zero);
    const limits = this.checked.variableLimits.flatMap((l) => [l.expr, l.lower, l.upper].map((e) => this.lowering.lower(e)[0]!));
    this.boundsOutputs = [...lower, ...upper, ...limits];
    // A row, J entry or bound that is never finite is an error in the source, reported here.
    checkOutputs(this.checked, g, this.mainOutputs, this.boundsOutputs);
  }

  /** Scalar rows of some parts (a vector part is two rows). */
  private lowerRows(parts: readonly Expr[]): number[] {
    return parts.flatMap((p) => this.lowering.lower(p));
  }

  /** The kernels in the given mode. 'auto' compiles and falls back to the interpreter if `new Function` throws. */
  kernels(mode: CompileMode, factory?: FunctionFactory): KernelSet {
    if (mode === 'interpreter') return this.interpreter();
    let failure: unknown;
    if (factory) {
      // A custom factory (tests) is tried every time and never cached.
      try {
        return this.compile(factory);
      } catch (e) {
        failure = e;
      }
    } else {
      if (this.compiled) return this.compiled;
      if (this.compileFailure === null) {
        try {
          return (this.compiled = this.compile());
        } catch (e) {
          this.compileFailure = e;
        }
      }
      failure = this.compileFailure;
    }
    if (mode === 'auto') return this.interpreter();
    throw new FulcrumInputError(
      `SymbolicConstraint: compile 'function' needs \`new Function\`, which failed (${String(failure)}); use compile 'interpreter' or 'auto' under a Content-Security-Policy without 'unsafe-eval'`,
    );
  }

  private compile(factory?: FunctionFactory): KernelSet {
    const [values, jacobian] = this.halves();
    // The bulk kernels' text goes with them (UserBatchKernel.source): a space's workers compile it too.
    const source = {
      jacobian: bulkKernelSource(this.graph, jacobian, 'J', this.bulkLayout(), 'symbolicBulkJacobian'),
      position: bulkKernelSource(this.graph, values, 'C', this.bulkLayout(), 'symbolicBulkValues'),
    };
    return {
      mode: 'function',
      main: compileKernel(this.graph, this.mainOutputs, 'symbolicMain', factory),
      values: compileKernel(this.graph, values, 'symbolicValues', factory),
      jacobian: compileKernel(this.graph, jacobian, 'symbolicJacobian', factory),
      bounds: compileKernel(this.graph, this.boundsOutputs, 'symbolicBounds', factory),
      batch: {
        paramCount: this.checked.paramCount,
        constantJacobian: constantOutputs(this.graph, jacobian),
        jacobian: compileBulkText(source.jacobian, factory),
        position: compileBulkText(source.position, factory),
        positionAndJacobian: compileBulkKernel2(this.graph, this.mainOutputs, this.rows, this.bulkLayout(), 'symbolicBulkMain', factory),
        // (Not with a custom factory: its functions need not be what the text makes.)
        ...(factory === undefined ? { source } : {}),
      },
    };
  }

  private interpreter(): KernelSet {
    const [values, jacobian] = this.halves();
    return (this.interpreted ??= {
      mode: 'interpreter',
      main: interpretKernel(this.graph, this.mainOutputs),
      values: interpretKernel(this.graph, values),
      jacobian: interpretKernel(this.graph, jacobian),
      bounds: interpretKernel(this.graph, this.boundsOutputs),
      batch: {
        paramCount: this.checked.paramCount,
        constantJacobian: constantOutputs(this.graph, jacobian),
        jacobian: interpretBulkKernel(this.graph, jacobian, 'J', this.bulkLayout()),
        position: interpretBulkKernel(this.graph, values, 'C', this.bulkLayout()),
        positionAndJacobian: interpretBulkKernel2(this.graph, this.mainOutputs, this.rows, this.bulkLayout()),
      },
    });
  }

  /** A constraint's strides in the engine's BatchArrays: its bodies and its parameters. */
  private bulkLayout(): BulkLayout {
    return { slots: this.bodyCount, paramCount: this.checked.paramCount };
  }

  /** The outputs of the values kernel and of the Jacobian kernel. */
  private halves(): [readonly number[], readonly number[]] {
    return [this.mainOutputs.slice(0, this.rows), this.mainOutputs.slice(this.rows)];
  }

  /** V = dC/dt rows (position constraints) or V rows (velocity constraints), interpreted: for tests and debugging. */
  rates(): Kernel {
    this.ratesOutputs ??= this.lowerRows(this.derivation.V);
    return interpretKernel(this.graph, this.ratesOutputs);
  }

  /** The generated JavaScript of the main kernel (for debugging and the README). */
  mainSource(): string {
    return kernelSource(this.graph, this.mainOutputs, 'symbolicMain');
  }
}

const CACHE_LIMIT = 256;
const cache = new Map<string, CompiledProgram>();

/** The compiled program of `source`, from the cache when it was compiled before. Throws SymbolicError subclasses. */
export function compileSource(source: string): CompiledProgram {
  const hit = cache.get(source);
  if (hit) {
    // Refresh its place so the least recently used program is the one evicted.
    cache.delete(source);
    cache.set(source, hit);
    return hit;
  }
  const program = new CompiledProgram(source);
  if (cache.size >= CACHE_LIMIT) cache.delete(cache.keys().next().value!);
  cache.set(source, program);
  return program;
}
