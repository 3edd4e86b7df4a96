/**
 * The runtime error for a non-finite hook output (UserConstraint._nonFiniteError): it names the
 * constraint, the hook, the row and J's column, and says which sub-expression of the source
 * turned non-finite, with its operands' values, pointing at it:
 *
 *   SymbolicConstraint#3: position() wrote Infinity in row 0: `b.rotation / k` = Infinity, from
 *   `b.rotation` = 0.5 and `k` = 0 at 3:12
 */
import { SymbolicRuntimeError } from '../errors.js';
import type { CheckedProgram } from '../lang/checker.js';
import { describeCulprit, textOf } from './culprit.js';
import { explainJacobian, explainValue, type Explanation } from './explain.js';

const AXES = ['x', 'y', 'θ'] as const;

/** "y of body2" for J column 3·s + 1; θ is about the body's centre of mass (the engine's column). */
export function columnName(p: CheckedProgram, column: number): string {
  const body = p.bodies[(column / 3) | 0]?.name ?? `bodies[${(column / 3) | 0}]`;
  return column % 3 === 2 ? `θ of ${body}, about its centre of mass` : `${AXES[column % 3]} of ${body}`;
}

/** Where the value came from: "`x / k` = Infinity, from …", after "in the derivative of `…`," for J. */
export function detail(p: CheckedProgram, e: Explanation): string {
  const culprit = describeCulprit(e.culprit, e.trace, p.source);
  return e.derivativeOf ? `in the derivative of \`${textOf(e.derivativeOf, p.source)}\`, ${culprit}` : culprit;
}

export interface HookOutput {
  readonly hook: string;
  readonly row: number;
  /** J's column, or −1. */
  readonly column: number;
  readonly value: number;
}

/**
 * The SymbolicRuntimeError for `out`, re-evaluated at `state`; null when that output is not one
 * of the source's (a position constraint's velocity()), or is finite at this state.
 */
export function nonFiniteError(label: string, p: CheckedProgram, out: HookOutput, state: Float64Array, params: Float64Array): SymbolicRuntimeError | null {
  let e: Explanation | null = null;
  if (out.hook === 'jacobian' && out.column >= 0) e = explainJacobian(p, out.row, out.column, state, params);
  else if (out.hook === 'position' || (out.hook === 'velocity' && p.kind === 'velocity')) e = explainValue(p, out.row, state, params);
  if (!e) return null;
  const at = out.column >= 0 ? `row ${out.row}, column ${out.column} (${columnName(p, out.column)})` : `row ${out.row}`;
  const reason = `${label}: ${out.hook}() wrote ${out.value} in ${at}: ${detail(p, e)}`;
  return new SymbolicRuntimeError(reason, p.source, e.span, out, { owner: 'SymbolicConstraint', prop: 'source' });
}
