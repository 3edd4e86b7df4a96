/** A worker thread of `npm run fuzz`: runs every scene i with i mod shards = shard. */
import { parentPort, workerData } from 'node:worker_threads';
import { runFuzz } from './fuzz.js';
import type { Family } from './scene.js';

const a = workerData as { scenes: number; steps: number; seed: number; determinism: number; families?: Family[]; shard: number; shards: number };
const digests: [number, string][] = [];
const r = runFuzz({
  scenes: a.scenes,
  steps: a.steps,
  seed: a.seed,
  determinismEvery: a.determinism,
  families: a.families,
  shard: (i) => i % a.shards === a.shard,
  progress: (done) => parentPort!.postMessage({ type: 'progress', done }),
  onScene: (index, hash) => digests.push([index, hash]),
});
parentPort!.postMessage({ type: 'result', result: { stats: r.stats.toJSON(), failures: r.failures, digests, mismatches: r.mismatches } });
