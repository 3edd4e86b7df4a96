/**
 * Shrinks a failing scene's trace to a short repro: delta debugging over the trace's entries
 * (each replayed with the fuzz's checks, minimise keeps a candidate when it fails in the same
 * category), then fewer steps, then rounder numbers.
 */
import { replay, type ReplayOutcome, type StepOverride } from './repro.js';
import type { Failure } from './run.js';
import type { TraceEntry } from './world.js';

export interface Minimized {
  trace: TraceEntry[];
  outcome: ReplayOutcome;
}

/** Replays allowed per failure (each is at most a few hundred steps of a small scene). */
const BUDGET = 4000;

export function minimize(f: Failure, budget = BUDGET): Minimized | null {
  const steps = f.step;
  const tail = Math.max(60, steps);
  let runs = 0;
  const same = (t: TraceEntry[]): ReplayOutcome | null => {
    if (runs++ > budget) return null;
    const o = replay(t, tail);
    if (o.category !== f.category) return null;
    // A throw must be the same error (a shortened trace can throw something else entirely).
    if (f.signature !== undefined && o.signature !== f.signature) return null;
    return o;
  };
  let trace = f.trace.slice();
  let outcome = same(trace);
  if (outcome === null) return null;

  // ddmin over the entries.
  let n = 2;
  while (trace.length >= 2 && runs < budget) {
    const chunk = Math.ceil(trace.length / n);
    let reduced = false;
    for (let start = 0; start < trace.length; start += chunk) {
      const candidate = [...trace.slice(0, start), ...trace.slice(start + chunk)];
      const o = same(candidate);
      if (o) {
        trace = candidate;
        outcome = o;
        n = Math.max(n - 1, 2);
        reduced = true;
        break;
      }
    }
    if (!reduced) {
      if (n >= trace.length) break;
      n = Math.min(trace.length, n * 2);
    }
  }

  // Fewer steps: the tail replaces what the steps entries did.
  for (let i = 0; i < trace.length && runs < budget; i++) {
    const e = trace[i]!;
    if (e.t !== 'steps') continue;
    for (const k of [0, 1, Math.floor(e.n / 4), Math.floor(e.n / 2)]) {
      if (k >= e.n) continue;
      const candidate = trace.slice();
      candidate[i] = { t: 'steps', n: k };
      const o = same(candidate.filter((x) => x.t !== 'steps' || x.n > 0));
      if (o) {
        trace = candidate.filter((x) => x.t !== 'steps' || x.n > 0);
        outcome = o;
        break;
      }
    }
  }

  // Rounder numbers: each distinct literal (every occurrence in its line at once, so a hook's
  // position() and jacobian() keep the same anchors) tried with 1, then 2 significant digits.
  for (let i = 0; i < trace.length && runs < budget; i++) {
    const e = trace[i]!;
    if (!('code' in e)) continue;
    const literals = [...new Set([...e.code.matchAll(/(?<![\w.])\d+\.\d+(e-?\d+)?(?![\w.])/g)].map((m) => m[0]))];
    for (const lit of literals) {
      for (const digits of [1, 2]) {
        const r = String(Number(Number(lit).toPrecision(digits)));
        if (r === lit) break;
        const current = (trace[i]! as { code: string }).code;
        const token = new RegExp(`(?<![\\w.])${lit.replace(/[.+]/g, '\\$&')}(?![\\w.])`, 'g');
        if (!token.test(current)) break;
        const candidate = trace.slice();
        candidate[i] = { ...e, code: current.replace(token, r) } as TraceEntry;
        const o = same(candidate);
        if (o) {
          trace = candidate;
          outcome = o;
          break;
        }
      }
    }
  }
  // The last steps entry: just enough steps to fail, with no tail.
  const final = replay(trace, tail);
  if (final.category === f.category && (f.signature === undefined || final.signature === f.signature)) {
    const total = final.steps;
    const counted = trace.reduce((a, e) => a + (e.t === 'steps' ? e.n : e.t === 'step-throws' ? 1 : 0), 0);
    if (total > counted) trace = [...trace, { t: 'steps', n: total - counted }];
    outcome = replay(trace, 0);
  }
  return { trace, outcome: outcome! };
}

/**
 * Which single change makes a minimised failure go away: a hint at the mechanism for whoever
 * fixes it. Each variant replays the trace changed in one way.
 */
const VARIANTS: { name: string; code?: (code: string) => string; override?: StepOverride }[] = [
  { name: 'allowMovement true', code: (c) => c.replace(/allowMovement(: |\s*=\s*)false/g, 'allowMovement$1true') },
  { name: 'every constraint stiff', code: (c) => c.replace(/stiff: false/g, 'stiff: true').replace(/\.stiff = false/g, '.stiff = true') },
  { name: 'jointHertz 0', code: (c) => c.replace(/jointHertz(: |\s*=\s*)[\d.e+-]+/g, 'jointHertz$10') },
  { name: 'no position passes', override: { positionIterations: 0 } },
  { name: '16 substeps', override: { velocityIterations: 16 } },
  { name: 'dt / 4', override: { split: 4 } },
];

export function fingerprint(m: Minimized, category: Failure['category']): string[] {
  const cured: string[] = [];
  for (const v of VARIANTS) {
    let trace = m.trace;
    if (v.code) {
      const changed = m.trace.map((e) => ('code' in e ? ({ ...e, code: v.code!(e.code) } as TraceEntry) : e));
      // A variant that changes nothing in this trace says nothing about it.
      if (changed.every((e, i) => !('code' in e) || e.code === (m.trace[i] as { code: string }).code)) continue;
      trace = changed;
    }
    // The failure, or one of its category a little later, still comes: not cured.
    if (replay(trace, 120, v.override).category !== category) cured.push(v.name);
  }
  return cured;
}
