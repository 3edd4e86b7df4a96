/**
 * The compile-time check of the outputs: a row, a Jacobian entry or a limit's bound that is not
 * finite whatever the state (a non-finite constant, such as J of `b.position.x * inf`, or a
 * NaN constant folded from `inf - inf`, `0 * inf`, `0 / 0` on the way to it) is a
 * SymbolicTypeError at the source, before any constraint exists. Nothing non-finite is ever
 * declared to the engine (UserBatchKernel.constantJacobian).
 *
 * An output that is non-finite only at some states (a division by a parameter that is 0) is
 * left to the runtime error (report.ts).
 */
import { BODY_STATE_STRIDE, BodyState } from '../body-state.js';
import { SymbolicTypeError, type Span } from '../errors.js';
import type { Expr } from '../expr/expr.js';
import type { CheckedProgram } from '../lang/checker.js';
import { Op, type ScalarGraph } from '../scalar/ir.js';
import { explainExpr, explainJacobian, explainValue, type Explanation } from './explain.js';
import { columnName, detail } from './report.js';

/** Whether node `id` is NaN whatever the inputs: it is computed from a NaN constant by operations that keep NaN. */
function alwaysNaN(g: ScalarGraph, id: number, memo: Map<number, boolean>): boolean {
  const known = memo.get(id);
  if (known !== undefined) return known;
  const op = g.op[id]!;
  let r: boolean;
  if (op === Op.CONST) r = Number.isNaN(g.value[id]!);
  else if (op === Op.STATE || op === Op.PARAM || op === Op.SAFE_INV) r = false; // SAFE_INV(NaN) is 0
  else r = alwaysNaN(g, g.a[id]!, memo) || (g.b[id]! >= 0 && alwaysNaN(g, g.b[id]!, memo));
  memo.set(id, r);
  return r;
}

/** Non-finite whatever the state: a non-finite constant, or always NaN. */
function neverFinite(g: ScalarGraph, id: number, memo: Map<number, boolean>): boolean {
  return (g.op[id] === Op.CONST && !Number.isFinite(g.value[id]!)) || alwaysNaN(g, id, memo);
}

/** A state of distinct, turned, moving bodies with their centres of mass off their origins, and parameters none of which is 0. */
function genericInputs(p: CheckedProgram): { state: Float64Array; params: Float64Array } {
  const state = new Float64Array(BODY_STATE_STRIDE * p.bodies.length);
  p.bodies.forEach((_, s) => {
    const o = s * BODY_STATE_STRIDE;
    const rotation = 0.45 + 0.8 * s;
    state[o + BodyState.x] = 0.3 + 1.7 * s;
    state[o + BodyState.y] = -0.4 + 0.9 * s;
    state[o + BodyState.rotation] = rotation;
    state[o + BodyState.cos] = Math.cos(rotation);
    state[o + BodyState.sin] = Math.sin(rotation);
    state[o + BodyState.vx] = 0.2 + 0.3 * s;
    state[o + BodyState.vy] = -0.15;
    state[o + BodyState.angularVel] = 0.7 - 0.2 * s;
    state[o + BodyState.comX] = state[o + BodyState.x]! + 0.05;
    state[o + BodyState.comY] = state[o + BodyState.y]! - 0.03;
  });
  const params = Float64Array.from({ length: p.paramCount }, (_, i) => 0.6 + 0.15 * i);
  return { state, params };
}

/** The error, at the explanation's place or, when nothing is found at the generic state, at `fallback`. */
function fail(p: CheckedProgram, what: string, value: number, whatever: string, e: Explanation | null, fallback: Span): never {
  const byInf = e !== null && e.culprit.op === 'num' && Math.abs(e.culprit.value) === Infinity;
  const hint = byInf ? 'a constraint needs finite rows and derivatives: use a large finite number instead of inf' : '';
  throw new SymbolicTypeError(`${what} is ${value} whatever the ${whatever}${e ? `: ${detail(p, e)}` : ''}`, p.source, e?.span ?? fallback, hint);
}

/**
 * Throws a SymbolicTypeError for the first output that is never finite: a value row (C or V),
 * then a Jacobian entry, then a limit's bound (NaN only: ±inf bounds are meant).
 */
export function checkOutputs(p: CheckedProgram, g: ScalarGraph, mainOutputs: readonly number[], boundsOutputs: readonly number[]): void {
  const memo = new Map<number, boolean>();
  const value = (id: number): number => (g.op[id] === Op.CONST ? g.value[id]! : NaN);
  const { state, params } = genericInputs(p);
  const n = p.rows;
  const columns = 3 * p.bodies.length;
  const rowName = p.kind === 'position' ? 'C' : 'V';
  for (let r = 0; r < n; r++) {
    const id = mainOutputs[r]!;
    if (neverFinite(g, id, memo)) fail(p, `${rowName} row ${r}`, value(id), 'state', explainValue(p, r, state, params), p.span);
  }
  for (let r = 0; r < n; r++) {
    for (let c = 0; c < columns; c++) {
      const id = mainOutputs[n + r * columns + c]!;
      if (neverFinite(g, id, memo)) fail(p, `J row ${r}, column ${c} (${columnName(p, c)})`, value(id), 'state', explainJacobian(p, r, c, state, params), p.span);
    }
  }
  // boundsOutputs: [lower (n) | upper (n) | per variable limit: value, lower, upper].
  const bounds: { at: number; e: Expr; what: string; span: Span }[] = [];
  const rl = p.rowLimit;
  if (rl) {
    rl.lower.forEach((e, r) => bounds.push({ at: r, e, what: `the lower bound of row ${r} in '${rl.text}'`, span: rl.span }));
    rl.upper.forEach((e, r) => bounds.push({ at: n + r, e, what: `the upper bound of row ${r} in '${rl.text}'`, span: rl.span }));
  }
  p.variableLimits.forEach((l, i) => {
    const at = 2 * n + 3 * i;
    bounds.push({ at, e: l.expr, what: `the limited expression of '${l.text}'`, span: l.span });
    bounds.push({ at: at + 1, e: l.lower, what: `the lower bound of '${l.text}'`, span: l.span });
    bounds.push({ at: at + 2, e: l.upper, what: `the upper bound of '${l.text}'`, span: l.span });
  });
  for (const { at, e, what, span } of bounds) {
    if (alwaysNaN(g, boundsOutputs[at]!, memo)) fail(p, what, NaN, 'parameters', explainExpr(e, 0, state, params, span), span);
  }
}
