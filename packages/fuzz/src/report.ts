/** The figures of a run, as text. */
import { CATEGORIES, STRICT_ATOMIC, type Failure, type Stats } from './run.js';
import type { FuzzResult } from './fuzz.js';

export function fmt(n: number): string {
  return n.toLocaleString('en-US');
}

/** "1,000 scenes × 600 steps, N valid mutations, M invalid inputs of K kinds, 0 NaN, …" */
export function summaryLine(r: FuzzResult, steps: number): string {
  const s = r.stats;
  const c = s.counts;
  const parts = [
    `${fmt(s.scenes)} scenes × ${fmt(steps)} steps (${fmt(s.steps)} steps taken)`,
    `${fmt(s.validTotal)} valid mutations of ${fmt(s.valid.size)} kinds (and ${fmt(s.queryTotal)} read-only calls)`,
    `${fmt(s.invalidTotal)} invalid inputs of ${fmt(s.invalid.size)} kinds`,
    `${fmt(c.nan)} NaN`,
    `${fmt(c.divergence)} divergence errors`,
    `${fmt(c['blow-up'])} blow-ups (${fmt(s.drivenBlowUps)} of them reached by a driver: drivers.ts)`,
    `${fmt(c['unexpected-throw'])} unexpected throws`,
    `${fmt(c['wrong-error'])} wrong errors`,
    `${fmt(c['invalid-accepted'])} invalid inputs accepted`,
    `${fmt(c['half-applied'])} half-applied`,
    `${fmt(c['query-changed-state'])} queries that changed state`,
    `${fmt(countNonAtomic(s))} non-atomic of ${fmt(s.faultSteps)} failed steps from injected hook faults (bodies changed in ${fmt(s.nonAtomicMotion)}, impulses in ${fmt(s.nonAtomicImpulses)}, sleep or contacts in ${fmt(s.nonAtomicOther)}${STRICT_ATOMIC ? '' : '; reported, not failed'})`,
    s.determinismChecked ? `determinism ${s.determinismMismatched === 0 ? 'OK' : `FAILED (${s.determinismMismatched})`} (${fmt(s.determinismChecked)} scenes run twice)` : 'determinism not checked',
  ];
  return parts.join(', ');
}

function countNonAtomic(s: Stats): number {
  let n = 0;
  for (const v of s.nonAtomicKinds.values()) n += v;
  return n;
}

export function details(r: FuzzResult): string {
  const s = r.stats;
  const lines: string[] = [];
  lines.push(`failed steps as intended: ${fmt(s.failedSteps)}; injected faults whose hook was not reached: ${fmt(s.notTriggered)}`);
  lines.push(
    `default speed caps reached (not failures: the caps keep some valid scenes finite): 400 m/s in ${fmt(s.speedCapScenes)} scenes (${fmt(s.speedCapUndriven)} undriven), π/4 rad per substep (where that is 188 rad/s or more) in ${fmt(s.spinCapScenes)} (${fmt(s.spinCapUndriven)} undriven)${s.capUndrivenSeeds.length ? `; undriven seeds: ${s.capUndrivenSeeds.join(', ')}` : ''}`,
  );
  lines.push(`non-atomic failed steps: ${fmt(countNonAtomic(s))} (bodies changed in ${fmt(s.nonAtomicMotion)}, impulses in ${fmt(s.nonAtomicImpulses)}; other state (sleep, contacts) in ${fmt(s.nonAtomicOther)})`);
  for (const [k, v] of [...s.nonAtomicKinds].sort((a, b) => b[1] - a[1])) lines.push(`    ${fmt(v).padStart(6)}  ${k}`);
  return lines.join('\n');
}

export function coverageTable(s: Stats): string {
  return [...s.coverage].sort().map(([k, v]) => `    ${fmt(v).padStart(7)}  ${k}`).join('\n');
}

export function kindsTable(m: Map<string, number>): string {
  return [...m].sort().map(([k, v]) => `    ${fmt(v).padStart(7)}  ${k}`).join('\n');
}

/** Failures grouped by category and first line. */
export function failureReport(failures: Failure[]): string {
  const groups = new Map<string, Failure[]>();
  for (const f of failures) {
    const key = `${f.category}: ${f.message.split('\n')[0]!.replace(/b\d+|c\d+|s\d+|Body#\d+|#\d+|-?\d+(\.\d+)?(e[-+]?\d+)?/g, '…')}`;
    const g = groups.get(key) ?? [];
    g.push(f);
    groups.set(key, g);
  }
  const out: string[] = [];
  for (const c of CATEGORIES) {
    for (const [key, g] of groups) {
      if (!key.startsWith(`${c}:`)) continue;
      const first = g[0]!;
      out.push(`${g.length} × ${c} (families: ${[...new Set(g.map((f) => f.family))].join(', ')})`);
      out.push(`  first: scene ${first.index}, seed ${first.seed}, step ${first.step}: ${first.message.split('\n').join('\n    ')}`);
      out.push(`  seeds: ${g.slice(0, 12).map((f) => f.seed).join(', ')}${g.length > 12 ? ', …' : ''}`);
    }
  }
  return out.join('\n');
}
