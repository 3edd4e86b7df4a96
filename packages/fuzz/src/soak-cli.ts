/**
 * `npm run soak -- [--steps N] [--every N]`: the soak (soak.ts), 100,000 steps by default, the
 * heap after GC every 10,000. Fails (exit 1) when the heap moves more than 5% from the first
 * sample, or a body goes non-finite.
 */
import { formatSample, runSoak } from './soak.js';

export const HEAP_TOLERANCE = 0.05;

function arg(name: string, fallback: number): number {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = Number(process.argv[i + 1]);
  if (!Number.isInteger(v) || v <= 0) throw new Error(`${name} needs a positive integer`);
  return v;
}

const steps = arg('--steps', 100_000);
const every = arg('--every', 10_000);
console.log(`soak: ${steps.toLocaleString('en-US')} steps, heap after GC every ${every.toLocaleString('en-US')}`);
let base = 0;
const r = runSoak({
  steps,
  sampleEvery: every,
  onSample: (s) => {
    if (base === 0) base = s.heapUsed;
    console.log(formatSample(s, base));
  },
});
const last = r.samples[r.samples.length - 1]!;
console.log(`${r.bodies} bodies, ${r.joints} pivots; ${r.beginContacts.toLocaleString('en-US')} contacts begun; fastest body ${r.maxSpeed.toFixed(1)} m/s; ${(last.elapsedMs / 1000).toFixed(1)} s (${((last.elapsedMs / steps) * 1000).toFixed(0)} µs per step)`);
console.log(`heap drift from ${every.toLocaleString('en-US')} steps on: ${(r.drift * 100).toFixed(2)}% (limit ${HEAP_TOLERANCE * 100}%)`);
const ok = r.finite && r.drift <= HEAP_TOLERANCE;
console.log(ok ? 'soak OK' : `soak FAILED${r.finite ? '' : ': a body went non-finite'}`);
process.exit(ok ? 0 : 1);
