/**
 * debug(): the constraint as text. The symbolic part (C, V, J, K) depends only on the source
 * and is built once per compiled program; the header shows the instance's bodies, parameters
 * and limits as they are now.
 */
import type { Body } from '@fulcrum/physics';
import type { CompiledProgram } from './compile.js';
import { effectiveMass } from './derive.js';
import type { Expr } from './expr/expr.js';
import { Printer, printGroup } from './expr/print.js';

export interface DebugState {
  readonly bodies: readonly (Body | null)[];
  readonly params: Float64Array;
  readonly bounds: { lower: readonly number[]; upper: readonly number[] };
  /** Per row: −1 at the lower bound, +1 at the upper bound or equality, 0 slack (as of the last prepare). */
  readonly rowState: Float64Array;
}

const symbolicText = new WeakMap<CompiledProgram, string>();

export function debugText(owner: { label: string; compileMode: string }, program: CompiledProgram, s: DebugState): string {
  const c = program.checked;
  const lines: string[] = [];
  const kind = c.kind === 'position' ? 'position constraint C = 0' : 'velocity constraint V = 0';
  lines.push(`${owner.label}: ${kind}, ${c.rows} row${c.rows === 1 ? '' : 's'}, ${c.bodies.length} bod${c.bodies.length === 1 ? 'y' : 'ies'}, kernels: ${owner.compileMode === 'function' ? 'compiled function' : 'interpreter'}`);
  lines.push('bodies');
  for (const d of c.bodies) {
    const b = s.bodies[d.slot];
    lines.push(`  ${d.name} = ${b ? `Body#${b.id} (${b.type})` : 'null (not set)'}`);
  }
  if (c.scalars.length) {
    lines.push('scalars');
    for (const d of c.scalars) lines.push(`  ${d.name} = ${num(s.params[d.slot]!)}`);
  }
  if (c.vectors.length) {
    lines.push('vectors');
    for (const d of c.vectors) lines.push(`  ${d.name} = (${num(s.params[d.slot]!)}, ${num(s.params[d.slot + 1]!)})`);
  }
  if (c.variableLimits.length || c.rowLimit) {
    lines.push('limits');
    for (const l of c.variableLimits) lines.push(`  ${l.text}   (${l.span.line}:${l.span.column})`);
    if (c.rowLimit) {
      lines.push(`  ${c.rowLimit.text}   (${c.rowLimit.span.line}:${c.rowLimit.span.column})`);
      for (let r = 0; r < c.rows; r++) {
        const lo = s.bounds.lower[r]!;
        const hi = s.bounds.upper[r]!;
        const state = lo === hi ? 'equality' : s.rowState[r] === 0 ? 'slack' : s.rowState[r]! < 0 ? 'at the lower bound' : 'at the upper bound';
        lines.push(`    row ${r}: ${num(lo)} ≤ C ≤ ${num(hi)} (${state})`);
      }
    }
  }
  let text = symbolicText.get(program);
  if (text === undefined) {
    text = symbolicPart(program);
    symbolicText.set(program, text);
  }
  return `${lines.join('\n')}\n${text}`;
}

function symbolicPart(program: CompiledProgram): string {
  const c = program.checked;
  const d = program.derivation;
  const taken = [...c.bodies, ...c.scalars, ...c.vectors].map((x) => x.name);
  const lines: string[] = [];
  const ranges = partRanges(d.V);
  const rowsOf = ranges.map((r) => (r.includes('–') ? `rows ${r}:` : `row ${r}:`));
  const width = Math.max(...rowsOf.map((r) => r.length));
  /** One line per part, labelled with its rows. */
  const partLines = (printer: Printer, exprs: readonly Expr[], pad: string): void => {
    exprs.forEach((e, i) => lines.push(`${pad}${rowsOf[i]!.padEnd(width)}  ${printer.print(e)}`));
  };
  const group = (title: string, exprs: readonly Expr[]): void => {
    lines.push(title);
    const p = new Printer(exprs, taken);
    for (const l of p.bindings()) lines.push(`  ${l}`);
    partLines(p, exprs, '  ');
  };
  if (d.C) group('C (the position error; the rows of the constraint)', d.C);
  group(d.C ? 'V = dC/dt (body.velocity is the velocity of the body origin)' : 'V (the velocity error)', d.V);

  lines.push('J = ∂V/∂(velocity.x, velocity.y, angularVel) of each body');
  for (const jac of d.J) {
    const named: [string, Expr[]][] = [
      [`${jac.body}.velocity.x`, [...jac.x]],
      [`${jac.body}.velocity.y`, [...jac.y]],
      [`${jac.body}.angularVel`, [...jac.w]],
      [`${jac.body}.angularVel about the centre of mass (the engine's column)`, [...jac.wc]],
    ];
    const all = named.flatMap(([, e]) => e);
    const { lets, printer } = printGroup(all, taken);
    for (const l of lets) lines.push(`  ${l}`);
    for (const [label, parts] of named) {
      lines.push(`  ∂V/∂${label}`);
      partLines(printer, parts, '    ');
    }
  }

  const K = effectiveMass(c, d);
  lines.push('K = J M⁻¹ Jᵀ (invMass, invInertia: inverse mass and inertia; bodies assumed distinct)');
  const flat = K.flat();
  const { lets, printer } = printGroup(flat, taken);
  for (const l of lets) lines.push(`  ${l}`);
  const parts = d.V.length;
  for (let i = 0; i < parts; i++) {
    for (let j = i; j < parts; j++) {
      const label = parts === 1 ? 'K' : `K[${ranges[i]}][${ranges[j]}]`;
      lines.push(`  ${label} = ${printer.print(K[i]![j]!)}`);
    }
  }
  return lines.join('\n');
}

/** The rows of each part: "0" or "1–2". */
function partRanges(parts: readonly Expr[]): string[] {
  let r = 0;
  return parts.map((p) => {
    const first = r;
    r += p.type === 'scalar' ? 1 : 2;
    return r - first === 1 ? String(first) : `${first}–${r - 1}`;
  });
}

function num(v: number): string {
  return v === Infinity ? 'inf' : v === -Infinity ? '-inf' : String(v);
}
