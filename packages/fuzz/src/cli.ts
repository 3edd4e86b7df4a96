/**
 * `npm run fuzz -- [--scenes N] [--steps N] [--seed S] [--determinism N] [--family a,b]
 *                  [--workers N] [--scene SEED] [--minimize] [--out DIR] [--verbose] [--caps-fail]
 *                  [--fingerprint]`
 *
 * Runs the fuzz and prints its figures. Exit code 1 when a check failed. With --scene, runs the one
 * scene of that seed and writes its trace as a standalone script; with --minimize, every distinct
 * failure is shrunk to a short script (out/ by default). --caps-fail counts an undriven scene at
 * a default speed cap as a blow-up (run.ts, capsFail), to shrink and replay those too; --fingerprint
 * replays every blow-up, NaN and divergence with one change at a time without shrinking it first.
 */
import { mkdirSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { runFuzz, runScene, type FuzzResult } from './fuzz.js';
import { fingerprint, minimize } from './minimize.js';
import { coverageTable, details, failureReport, fmt, kindsTable, summaryLine } from './report.js';
import { printRepro } from './repro.js';
import { Stats, type Failure } from './run.js';
import { FAMILIES, type Family } from './scene.js';

interface Args {
  scenes: number;
  steps: number;
  seed: number;
  determinism: number;
  families?: Family[];
  workers: number;
  scene?: number;
  minimize: boolean;
  /** Replay each solver failure with one change at a time, unshrunk (fast; --minimize does it on the shrunk trace). */
  fingerprint: boolean;
  out: string;
  verbose: boolean;
}

const HERE = dirname(fileURLToPath(import.meta.url));

/**
 * When the engine's builds were last written (the newest file of each dist/ folder). Printed with
 * the figures, and checked again at the end: a build written during the run (another `tsc -b`)
 * means the figures mix two builds of the engine.
 */
function builds(): string {
  const newest = (dir: string): number => {
    let t = 0;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      t = Math.max(t, e.isDirectory() ? newest(p) : statSync(p).mtimeMs);
    }
    return t;
  };
  return ['@fulcrum/physics', '@fulcrum/symbolic']
    .map((name) => {
      const dist = dirname(fileURLToPath(import.meta.resolve(name)));
      return `${name} built ${new Date(newest(dist)).toISOString()}`;
    })
    .join(', ');
}

function parse(argv: string[]): Args {
  const a: Args = { scenes: 1000, steps: 600, seed: 1, determinism: 10, workers: Math.min(2, availableParallelism()), minimize: false, fingerprint: false, out: join(HERE, '..', 'out'), verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i]!;
    const next = (): string => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${k} needs a value`);
      return v;
    };
    const int = (): number => {
      const v = Number(next());
      if (!Number.isInteger(v) || v < 0) throw new Error(`${k} needs a non-negative integer`);
      return v;
    };
    if (k === '--scenes') a.scenes = int();
    else if (k === '--steps') a.steps = int();
    else if (k === '--seed') a.seed = int();
    else if (k === '--determinism') a.determinism = int();
    else if (k === '--workers') a.workers = Math.max(1, int());
    else if (k === '--scene') a.scene = int();
    else if (k === '--minimize') a.minimize = true;
    else if (k === '--fingerprint') a.fingerprint = true;
    else if (k === '--out') a.out = next();
    else if (k === '--verbose') a.verbose = true;
    // Read by run.ts when it loads, here and in the workers (which inherit the environment).
    else if (k === '--caps-fail') process.env.FUZZ_CAPS_FAIL = '1';
    else if (k === '--family') {
      const f = next().split(',');
      for (const x of f) if (!(FAMILIES as readonly string[]).includes(x)) throw new Error(`unknown family ${x} (${FAMILIES.join(', ')})`);
      a.families = f as Family[];
    } else throw new Error(`unknown argument ${k}`);
  }
  return a;
}

/** Runs the fuzz in `workers` worker threads (scene i in worker i mod workers) and merges. */
async function runParallel(a: Args): Promise<FuzzResult> {
  if (a.workers <= 1) return runFuzz({ scenes: a.scenes, steps: a.steps, seed: a.seed, determinismEvery: a.determinism, families: a.families, progress: progress(a) });
  const t0 = performance.now();
  const parts = await Promise.all(
    Array.from({ length: a.workers }, (_, k) =>
      new Promise<{ stats: unknown; failures: Failure[]; digests: [number, string][]; mismatches: FuzzResult['mismatches'] }>((resolve, reject) => {
        const worker = new Worker(join(HERE, 'worker.js'), { workerData: { ...a, shard: k, shards: a.workers } });
        worker.on('message', (m: { type: string; done?: number; result?: never }) => {
          if (m.type === 'progress' && k === 0 && process.stderr.isTTY) process.stderr.write(`\r  ${fmt(m.done! * a.workers)} / ${fmt(a.scenes)} scenes`);
          if (m.type === 'result') resolve(m.result!);
        });
        worker.on('error', reject);
      }),
    ),
  );
  if (process.stderr.isTTY) process.stderr.write('\r');
  const stats = new Stats();
  const failures: Failure[] = [];
  const mismatches: FuzzResult['mismatches'] = [];
  const digests: [number, string][] = [];
  for (const p of parts) {
    stats.merge(Stats.fromJSON(p.stats as Record<string, unknown>));
    failures.push(...p.failures);
    mismatches.push(...p.mismatches);
    digests.push(...p.digests);
  }
  failures.sort((x, y) => x.index - y.index);
  digests.sort((x, y) => x[0] - y[0]);
  let digest = 0x811c9dc5;
  for (const [, h] of digests) for (let i = 0; i < h.length; i++) digest = Math.imul(digest ^ h.charCodeAt(i), 0x01000193);
  stats.elapsedMs = performance.now() - t0;
  return { stats, failures, mismatches, digest: (digest >>> 0).toString(16).padStart(8, '0') };
}

function progress(a: Args): ((done: number) => void) | undefined {
  if (!process.stderr.isTTY) return undefined;
  return (done) => {
    if (done % 10 === 0) process.stderr.write(`\r  ${fmt(done)} / ${fmt(a.scenes)} scenes`);
  };
}

async function main(): Promise<number> {
  const a = parse(process.argv.slice(2));
  if (a.scene !== undefined) return oneScene(a, a.scene);
  console.log(`fuzz: ${fmt(a.scenes)} scenes × ${fmt(a.steps)} steps, seed ${a.seed}, ${a.workers} worker${a.workers > 1 ? 's' : ''}, every ${a.determinism}th scene run twice`);
  const engine = builds();
  console.log(`engine: ${engine}`);
  const r = await runParallel(a);
  if (builds() !== engine) console.log(`WARNING: the engine was rebuilt during the run (now ${builds()}): the figures mix two builds`);
  const s = r.stats;
  console.log(summaryLine(r, a.steps));
  console.log(details(r));
  console.log(`time: ${(s.elapsedMs / 1000).toFixed(1)} s; run digest ${r.digest} (the same seed and sizes give the same digest)`);
  if (a.verbose) {
    console.log(`coverage:\n${coverageTable(s)}`);
    console.log(`valid mutations:\n${kindsTable(s.valid)}`);
    console.log(`read-only calls:\n${kindsTable(s.queries)}`);
    console.log(`invalid inputs:\n${kindsTable(s.invalid)}`);
  }
  if (r.failures.length) {
    console.log(`\nfailures:\n${failureReport(r.failures)}`);
    writeFailures(a, r.failures);
  }
  return s.failing > 0 ? 1 : 0;
}

/** Writes each distinct failure's trace as a script (minimised with --minimize). */
function writeFailures(a: Args, failures: Failure[]): void {
  mkdirSync(a.out, { recursive: true });
  const seen = new Set<string>();
  const byFingerprint = new Map<string, number[]>();
  for (const f of failures) {
    if (!f.trace.length) continue;
    // Every blow-up, NaN and divergence may have its own cause: each gets its script.
    const solver = f.category === 'blow-up' || f.category === 'nan' || f.category === 'divergence';
    const key = solver ? `${f.seed}` : `${f.category} ${f.family} ${f.message.split('\n')[0]!.replace(/[\d.e+-]+/g, '')}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const header = [`fuzz failure: ${f.category} in ${f.index >= 0 ? `scene ${f.index} ` : ''}(seed ${f.seed}, family ${f.family}) at step ${f.step}`, ...f.message.split('\n')];
    const file = join(a.out, `${f.category}-${f.seed}.mjs`);
    writeFileSync(file, printRepro(f.trace, header));
    if (a.minimize) {
      const m = minimize(f);
      if (m) {
        const cured = solver ? fingerprint(m, f.category) : [];
        const mf = join(a.out, `${f.category}-${f.seed}.min.mjs`);
        const lines = [...header, `minimised: ${m.outcome.category} at step ${m.outcome.steps}: ${m.outcome.message}`];
        if (solver) {
          lines.push(`gone with one change: ${cured.length ? cured.join('; ') : 'none of the fingerprint variants'} (see minimize.ts)`);
          const key = `${f.category} gone with: ${cured.join('; ') || 'nothing tried'}`;
          byFingerprint.set(key, [...(byFingerprint.get(key) ?? []), f.seed]);
        }
        writeFileSync(mf, printRepro(m.trace, lines));
        console.log(`  wrote ${mf}${solver ? ` (gone with: ${cured.join('; ') || 'nothing tried'})` : ''}`);
      }
    }
    console.log(`  wrote ${file}`);
    if (a.fingerprint && !a.minimize && solver) {
      const cured = fingerprint({ trace: f.trace, outcome: { category: f.category, message: f.message, steps: f.step } }, f.category);
      const key = `${f.category} gone with: ${cured.join('; ') || 'nothing tried'}`;
      byFingerprint.set(key, [...(byFingerprint.get(key) ?? []), f.seed]);
    }
  }
  if (byFingerprint.size) {
    console.log(`\n${a.minimize ? 'minimised ' : ''}failures by the one change that makes them go away:`);
    for (const [k, seeds] of [...byFingerprint].sort((x, y) => y[1].length - x[1].length)) console.log(`  ${String(seeds.length).padStart(4)} × ${k}: seeds ${seeds.join(', ')}`);
  }
}

function oneScene(a: Args, seed: number): number {
  const stats = new Stats();
  const r = runScene(seed, -1, a.steps, stats, { families: a.families });
  console.log(`scene seed ${seed} (${r.family}): ${fmt(r.steps)} steps, hash ${r.hash}`);
  console.log(`  ${fmt(stats.validTotal)} valid mutations, ${fmt(stats.invalidTotal)} invalid inputs, ${fmt(stats.faultSteps)} failed steps from injected faults`);
  if (a.verbose) console.log(kindsTable(stats.invalid));
  mkdirSync(a.out, { recursive: true });
  for (const f of r.failures) {
    console.log(`${f.category} at step ${f.step}: ${f.message}`);
  }
  writeFailures(a, r.failures);
  return stats.failing > 0 ? 1 : 0;
}

main().then(
  (code) => process.exit(code),
  (e) => {
    console.error(e);
    process.exit(2);
  },
);
