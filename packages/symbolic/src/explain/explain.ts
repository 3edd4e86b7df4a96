/**
 * Where a non-finite output of a constraint comes from in its source, at one state:
 *
 *  - a value row (C of a position constraint, V of a velocity constraint): the row's part is
 *    re-evaluated with every sub-expression's value recorded (trace.ts), and the culprit is the
 *    first sub-expression that turned non-finite (culprit.ts);
 *  - a Jacobian entry: J is the derivative of the part, whose own terms have no place in the
 *    source. So the part's written sub-expressions are differentiated the same way (derive.ts),
 *    smallest first, and the first whose derivative is non-finite in that column is the source
 *    expression to point at ("in the derivative of …"); the culprit is then sought inside that
 *    derivative.
 *
 * Null when the output is finite at this state (the engine read another one).
 */
import { Differentiator } from '../derive.js';
import type { Span } from '../errors.js';
import { postorder, type Expr } from '../expr/expr.js';
import type { CheckedProgram } from '../lang/checker.js';
import { findCulprit, pathTo, within } from './culprit.js';
import { Trace } from './trace.js';

export interface Explanation {
  /** The failing output's value. */
  readonly value: number;
  /** The sub-expression that turned non-finite first, and the trace holding its operands' values. */
  readonly culprit: Expr;
  readonly trace: Trace;
  /** For a Jacobian entry: the written sub-expression whose derivative holds the culprit. */
  readonly derivativeOf: Expr | null;
  /** Where to point. */
  readonly span: Span;
}

/** The part holding row `row`, and the row's component in it. */
export function rowPart(p: CheckedProgram, row: number): { part: number; component: number } {
  let r = row;
  for (let part = 0; part < p.parts.length; part++) {
    const size = p.parts[part]!.type === 'scalar' ? 1 : 2;
    if (r < size) return { part, component: r };
    r -= size;
  }
  throw new Error(`internal: row ${row} of a ${p.rows}-row constraint`);
}

/** A value row: C row `row` of a position constraint, V row `row` of a velocity constraint. */
export function explainValue(p: CheckedProgram, row: number, state: Float64Array, params: Float64Array): Explanation | null {
  const { part, component } = rowPart(p, row);
  return explainExpr(p.parts[part]!, component, state, params, p.span);
}

/** Component `component` of any expression (a limit's too); its culprit is pointed at within `declaration`. */
export function explainExpr(root: Expr, component: number, state: Float64Array, params: Float64Array, declaration: Span): Explanation | null {
  const trace = new Trace(state, params);
  trace.add(root);
  const output = [trace.ids(root)[component]!];
  if (!trace.nonFinite(output[0]!)) return null;
  const culprit = findCulprit(trace, root, output);
  if (!culprit) return null;
  return { value: trace.value(root)[component]!, culprit, trace, derivativeOf: null, span: locate(root, culprit, declaration) };
}

/** J entry (row, column): column 3·s + k is x, y or θ (about the centre of mass) of body slot s. */
export function explainJacobian(p: CheckedProgram, row: number, column: number, state: Float64Array, params: Float64Array): Explanation | null {
  const { part, component } = rowPart(p, row);
  const root = p.parts[part]!;
  const d = new Differentiator(p);
  const columns = d.columns((column / 3) | 0);
  const wrt = [columns.x, columns.y, columns.wc][column % 3]!;
  const derivative = (e: Expr): Expr => wrt(p.kind === 'position' ? d.rate(e) : e);

  const trace = new Trace(state, params);
  trace.add(root);
  // The sub-expressions the row is computed from, and which of their components it reads.
  const feeding = trace.feeding([trace.ids(root)[component]!]);
  const whole = derivative(root);
  trace.add(whole);
  const entry = trace.ids(whole)[component]!;
  if (!trace.nonFinite(entry)) return null;

  let found: { source: Expr; output: number[]; derived: Expr } | null = null;
  postorder([root], (e) => {
    if (found || e.span === null) return;
    const components = trace.ids(e).flatMap((id, k) => (feeding.has(id) ? [k] : []));
    if (components.length === 0) return;
    const de = e === root ? whole : derivative(e);
    trace.add(de);
    const output = components.map((k) => trace.ids(de)[k]!).filter((id) => trace.nonFinite(id));
    if (output.length > 0) found = { source: e, output, derived: de };
  });
  if (!found) return null;
  const { source, output, derived } = found as { source: Expr; output: number[]; derived: Expr };
  const culprit = findCulprit(trace, derived, output);
  if (!culprit) return null;
  // Point at the culprit when it is written inside the expression it is the derivative of.
  const span = culprit.span && within(culprit.span, source.span!) ? culprit.span : source.span!;
  return { value: trace.value(whole)[component]!, culprit, trace, derivativeOf: source, span };
}

/** The culprit's span, or its nearest written ancestor's, within the constraint's declaration. */
function locate(root: Expr, culprit: Expr, declaration: Span): Span {
  const path = pathTo(root, culprit);
  for (let i = path.length - 1; i >= 0; i--) {
    const span = path[i]!.span;
    if (span && within(span, declaration)) return span;
  }
  return declaration;
}
