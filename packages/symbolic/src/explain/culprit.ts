/**
 * Which sub-expression made an output non-finite: the first one, children before parents, whose
 * value is non-finite in a component the output is computed from. Infinite inputs (`inf`, a
 * scalar set to ±Infinity) do not count by themselves, since limits use them legitimately: the
 * culprit is then the operation that turned one into a non-finite output (`jointMin * 0`), or the
 * input itself when it is the whole output. A NaN constant (`inf - inf`, folded) is a culprit
 * on its own.
 */
import type { Span } from '../errors.js';
import type { Expr } from '../expr/expr.js';
import { Printer } from '../expr/print.js';
import type { Trace } from './trace.js';

const isLeaf = (e: Expr): boolean => e.args.length === 0;

/**
 * The culprit under `root` (traced), among the components that feed `output` (node ids of the
 * trace), or null when nothing there is non-finite.
 */
export function findCulprit(trace: Trace, root: Expr, output: readonly number[]): Expr | null {
  const feeding = trace.feeding(output);
  const seen = new Set<number>();
  let found: Expr | null = null;
  const walk = (e: Expr): void => {
    if (found || seen.has(e.id)) return;
    seen.add(e.id);
    for (const a of e.args) walk(a);
    if (found) return;
    const ids = trace.ids(e).filter((id) => feeding.has(id));
    if (!ids.some((id) => trace.nonFinite(id))) return;
    if (isLeaf(e) && e !== root && !ids.some((id) => trace.isNaN(id))) return; // an infinite input
    found = e;
  };
  walk(root);
  return found;
}

/** The nodes from `root` down to `target` (both included), or [] when `target` is not under it. */
export function pathTo(root: Expr, target: Expr): Expr[] {
  const seen = new Set<number>();
  const path: Expr[] = [];
  const walk = (e: Expr): boolean => {
    if (seen.has(e.id)) return false;
    seen.add(e.id);
    path.push(e);
    if (e === target || e.args.some(walk)) return true;
    path.pop();
    return false;
  };
  walk(root);
  return path;
}

/** Whether `inner` lies within `outer`. */
export function within(inner: Span, outer: Span): boolean {
  return inner.offset >= outer.offset && inner.offset + inner.length <= outer.offset + outer.length;
}

/** How a sub-expression is shown: its source text when it has one, else printed (a derivative's own terms); one line, at most 60 characters. */
export function textOf(e: Expr, source: string): string {
  const text = e.span ? source.slice(e.span.offset, e.span.offset + e.span.length) : new Printer([]).print(e);
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > 60 ? `${line.slice(0, 59)}…` : line;
}

/** A value as the language writes it: 0.5, (1, 0), [1 0 ; 0 1]. */
export function formatValue(v: readonly number[]): string {
  const n = v.map(String);
  if (n.length === 1) return n[0]!;
  if (n.length === 2) return `(${n[0]}, ${n[1]})`;
  return `[${n[0]} ${n[1]} ; ${n[2]} ${n[3]}]`;
}

/** "`k / d` = Infinity, from `k` = 1 and `d` = 0" (or "`s` = Infinity" for an input). */
export function describeCulprit(e: Expr, trace: Trace, source: string): string {
  const own = `\`${textOf(e, source)}\` = ${formatValue(trace.value(e))}`;
  if (isLeaf(e)) return own;
  const operands = e.args.map((a) => `\`${textOf(a, source)}\` = ${formatValue(trace.value(a))}`);
  return `${own}, from ${operands.length === 1 ? operands[0] : `${operands.slice(0, -1).join(', ')} and ${operands[operands.length - 1]}`}`;
}
