// Runs ONE (engine, scene) pair in this process and prints one result line:
//   @@fulcrum-bench-result@@{"status":"ok", ...}
// Usage: node src/worker.mjs '{"engine":"fulcrum","scene":"C","sizes":{...},"warmup":60,"steps":300}'
// With "fulcrumRoot": "<checkout>" (--compare), Fulcrum is loaded from that checkout's
// packages/physics/dist (and packages/symbolic/dist) instead of the working tree's @fulcrum/physics;
// the result then says which directory it loaded (fulcrumBuild.physicsDist).
// The line is prefixed so that anything an engine prints on stdout cannot be mistaken for the result.
import { performance } from 'node:perf_hooks';
import { loadFulcrumFrom } from './engines/fulcrum-adapter.mjs';
import { loadAdapter } from './engines/index.mjs';
import { RESULT_PREFIX } from './result-prefix.mjs';
import { buildScene, measureQuality, summarize } from './scenes.mjs';

function emit(obj) {
  process.stdout.write(`\n${RESULT_PREFIX}${JSON.stringify(obj)}\n`);
}

async function run(job) {
  const spec = buildScene(job.scene, job.sizes);
  const fromDir = job.fulcrumRoot != null;
  if (fromDir && job.engine !== 'fulcrum') throw new Error('fulcrumRoot is for the fulcrum engine only');
  const adapter = fromDir ? await loadFulcrumFrom(job.fulcrumRoot) : await loadAdapter(job.engine);
  const t0 = performance.now();
  const sim = await adapter.create(spec, job.workers ? { workers: job.workers } : undefined);
  const setupMs = performance.now() - t0;
  if (sim.pending) return { status: 'pending', message: sim.pending };

  for (let i = 0; i < job.warmup; i++) sim.step();
  const times = new Float64Array(job.steps);
  for (let i = 0; i < job.steps; i++) {
    const t = performance.now();
    sim.step();
    times[i] = performance.now() - t;
  }
  const s = summarize(times);
  const quality = measureQuality(spec, sim.pose, sim.velocity); // velocity: scene L's (Fulcrum's adapter has it)
  return {
    status: 'ok',
    title: spec.title,
    bodies: spec.bodies.length,
    joints: spec.joints.length,
    medianMs: s.median,
    meanMs: s.mean,
    minMs: s.min,
    maxMs: s.max,
    setupMs,
    quality,
    settings: sim.settings,
    ...(fromDir ? { fulcrumBuild: { physicsDist: adapter.physicsDist } } : {}),
  };
}


const job = JSON.parse(process.argv[2] ?? '{}');
try {
  emit(await run(job));
} catch (err) {
  emit({ status: 'failed', message: String(err?.stack ?? err) });
  process.exitCode = 1;
}
