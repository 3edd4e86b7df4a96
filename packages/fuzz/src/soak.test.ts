/**
 * The soak (the same as `npm run soak`): 100,000 steps of about 150 bodies, the heap after a full
 * GC every 10,000 steps, flat within 5% from 10,000 steps on.
 */
import { expect, it } from 'vitest';
import { formatSample, runSoak } from './soak.js';

export const SOAK = { steps: 100_000, sampleEvery: 10_000, tolerance: 0.05 } as const;

it(`soak: ${SOAK.steps.toLocaleString('en-US')} steps, the heap after GC flat within ${SOAK.tolerance * 100}%`, () => {
  const r = runSoak({ steps: SOAK.steps, sampleEvery: SOAK.sampleEvery });
  const base = r.samples[0]!.heapUsed;
  console.log(`soak: ${r.bodies} bodies, ${r.joints} pivots, fastest body ${r.maxSpeed.toFixed(1)} m/s\n${r.samples.map((s) => formatSample(s, base)).join('\n')}`);
  expect(r.finite).toBe(true);
  expect(r.samples).toHaveLength(SOAK.steps / SOAK.sampleEvery);
  expect(r.drift, r.samples.map((s) => formatSample(s, base)).join('\n')).toBeLessThanOrEqual(SOAK.tolerance);
});
