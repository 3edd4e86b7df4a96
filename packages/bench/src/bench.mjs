#!/usr/bin/env node
// Fulcrum benchmark: every (engine, scene) pair in a fresh Node process, the whole sweep repeated.
// Usage: node src/bench.mjs [--quick] [--repeat N] [--engines a,b] [--scenes A,C] [--timeout S] [--out FILE]
// (`npm run bench` builds the workspace packages with `tsc -b` first.) See README.md.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { ENGINES, ENGINE_IDS, engineById } from './engines/index.mjs';
import { SCENE_IDS, SCENE_INFO, SIZES, buildScene, median } from './scenes.mjs';
import { RESULT_PREFIX } from './result-prefix.mjs';
import { pairedRatios, sweepOrder } from './sweep.mjs';

const PKG_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORKER = join(PKG_DIR, 'src', 'worker.mjs');
export const SCHEMA = 'fulcrum-bench/1';

const USAGE = `usage: node src/bench.mjs [options]
  --quick           small sizes (B 20 rows, C 20x20, D 40 links, G 100 links), 20 warm-up + 60 timed steps, 1 repetition
  --repeat N        repetitions of the whole sweep (default 3; 1 with --quick), in alternating order
  --engines a,b     subset of: ${ENGINE_IDS.join(', ')}
  --scenes A,C      subset of: ${SCENE_IDS.join(', ')}
  --warmup N        warm-up steps (default 60; 20 with --quick)
  --steps N         timed steps (default 300; 60 with --quick)
  --timeout S       seconds before a pair is killed and reported as failed (default 300)
  --out FILE        JSON output (default results/latest.json, results/quick.json with --quick,
                    results/partial.json for a full-size run of a subset)`;

/**
 * The root script is `npm run bench -w @fulcrum/bench`, so `npm run bench -- --quick` at the root reaches npm
 * as `… -w @fulcrum/bench --quick`: npm keeps the option for itself and passes it on only as the environment
 * variable npm_config_quick=true (with an "Unknown cli config" warning). Accept those, for `--quick` and for
 * the `--name=value` forms (npm turns `--name value` into name=true plus a stray positional argument).
 */
function npmConfigFallbacks(values, positionals) {
  const env = process.env;
  if (!values.quick && env.npm_config_quick === 'true') values.quick = true;
  for (const k of ['repeat', 'engines', 'scenes', 'warmup', 'steps']) {
    const v = env[`npm_config_${k}`];
    if (values[k] === undefined && v !== undefined && v !== 'true' && v !== '') values[k] = v;
  }
  if (positionals.length)
    throw new Error(
      `unexpected argument(s) ${positionals.join(' ')}. Through the root script npm swallows options: ` +
        'write --repeat=3 rather than --repeat 3, or run `npm run bench -w @fulcrum/bench -- --repeat 3`.',
    );
}

/** A --scenes item as its SCENE_IDS spelling, case-insensitively ('j-user' → 'J-user'). */
function sceneId(s) {
  return SCENE_IDS.find((id) => id.toLowerCase() === s.toLowerCase()) ?? s;
}

function parseOptions(argv) {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      quick: { type: 'boolean', default: false },
      repeat: { type: 'string' },
      engines: { type: 'string' },
      scenes: { type: 'string' },
      warmup: { type: 'string' },
      steps: { type: 'string' },
      timeout: { type: 'string', default: '300' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  npmConfigFallbacks(values, positionals);
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const int = (name, v, min) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
    return n;
  };
  const list = (v, all, norm) => {
    if (v === undefined) return all;
    const items = v.split(',').map((s) => norm(s.trim())).filter(Boolean);
    for (const it of items) if (!all.includes(it)) throw new Error(`unknown ${JSON.stringify(it)}; expected some of ${all.join(',')}`);
    return all.filter((x) => items.includes(x)); // canonical order
  };
  const quick = values.quick;
  const engines = list(values.engines, ENGINE_IDS, (s) => s.toLowerCase());
  const scenes = list(values.scenes, SCENE_IDS, sceneId);
  const subset = engines.length !== ENGINE_IDS.length || scenes.length !== SCENE_IDS.length;
  const defaultOut = quick ? 'results/quick.json' : subset ? 'results/partial.json' : 'results/latest.json';
  return {
    mode: quick ? 'quick' : 'full',
    sizes: quick ? SIZES.quick : SIZES.full,
    repeat: values.repeat !== undefined ? int('repeat', values.repeat, 1) : quick ? 1 : 3,
    warmup: values.warmup !== undefined ? int('warmup', values.warmup, 0) : quick ? 20 : 60,
    steps: values.steps !== undefined ? int('steps', values.steps, 1) : quick ? 60 : 300,
    timeoutSec: int('timeout', values.timeout, 1),
    engines,
    scenes,
    out: resolve(PKG_DIR, values.out ?? defaultOut),
  };
}

// ------------------------------------------------------------------ running one pair

/** Spawns the worker for one pair; resolves to the worker's result object (never rejects). */
function runPair(job, timeoutSec) {
  return new Promise((done) => {
    const t0 = Date.now();
    const child = spawn(process.execPath, [WORKER, JSON.stringify(job)], { cwd: PKG_DIR, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    let timedOut = false;
    child.stdout.on('data', (d) => (out += d));
    child.stderr.on('data', (d) => {
      err += d;
      if (err.length > 20000) err = err.slice(-10000);
    });
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutSec * 1000);
    child.on('error', (e) => {
      clearTimeout(timer);
      done({ status: 'failed', message: `spawn failed: ${e.message}`, wallMs: Date.now() - t0 });
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      const wallMs = Date.now() - t0;
      const line = out.split('\n').findLast((l) => l.startsWith(RESULT_PREFIX));
      let res = null;
      if (line) {
        try {
          res = JSON.parse(line.slice(RESULT_PREFIX.length));
        } catch (e) {
          res = { status: 'failed', message: `unreadable worker result: ${e.message}` };
        }
      }
      if (timedOut) res = { status: 'failed', message: `timed out after ${timeoutSec} s` };
      else if (!res) {
        const tail = err.trim().split('\n').slice(-12).join('\n');
        res = { status: 'failed', message: `worker exited (code ${code}, signal ${signal}) without a result${tail ? `:\n${tail}` : ''}` };
      } else if (res.status === 'ok' && code !== 0) res = { status: 'failed', message: `worker exited with code ${code} after reporting ok` };
      done({ ...res, wallMs });
    });
  });
}

// ------------------------------------------------------------------ environment

function packageVersion(name) {
  for (let dir = PKG_DIR; ; dir = dirname(dir)) {
    const f = join(dir, 'node_modules', name, 'package.json');
    if (existsSync(f)) return JSON.parse(readFileSync(f, 'utf8')).version ?? null;
    if (dirname(dir) === dir) return null;
  }
}

function gitInfo() {
  const git = (...args) => execFileSync('git', args, { cwd: PKG_DIR, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  try {
    return { commit: git('rev-parse', 'HEAD'), physicsDirty: git('status', '--porcelain', '--', '../physics').length > 0 };
  } catch {
    return null;
  }
}

function machineInfo() {
  const cpus = os.cpus();
  return {
    cpu: cpus[0]?.model?.trim() ?? 'unknown',
    cores: cpus.length,
    availableParallelism: typeof os.availableParallelism === 'function' ? os.availableParallelism() : cpus.length,
    memGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    node: process.version,
    v8: process.versions.v8,
    platform: `${os.platform()} ${os.release()}`,
    arch: os.arch(),
  };
}

/** Does plain Node (no resolve hook) load @fulcrum/physics's dist? */
function fulcrumDistNodeLoadable() {
  try {
    execFileSync(process.execPath, ['--input-type=module', '-e', "await import('@fulcrum/physics')"], { cwd: PKG_DIR, stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

// ------------------------------------------------------------------ formatting

function displayPath(p) {
  const rel = relative(process.cwd(), p);
  return rel && !rel.startsWith('..') ? rel : p;
}

const fmtMs = (x) => (x == null || !Number.isFinite(x) ? '–' : x < 1 ? x.toFixed(3) : x < 10 ? x.toFixed(2) : x < 100 ? x.toFixed(1) : x.toFixed(0));
const fmtLen = (x) => (x == null || !Number.isFinite(x) ? 'NaN' : Math.abs(x) < 1e-3 && x !== 0 ? x.toExponential(1) : x.toFixed(Math.abs(x) < 0.1 ? 4 : 3));
const fmtSigned = (x) => (x == null || !Number.isFinite(x) ? 'NaN' : `${x >= 0 ? '+' : ''}${fmtLen(x)}`);

function table(header, rows) {
  const w = header.map((h, c) => Math.max(String(h).length, ...rows.map((r) => String(r[c]).length)));
  const line = (r) => r.map((v, c) => (c === 0 ? String(v).padEnd(w[c]) : String(v).padStart(w[c]))).join('  ');
  return [line(header), w.map((n) => '-'.repeat(n)).join('  '), ...rows.map(line)].join('\n');
}

function timeCell(r) {
  if (!r) return '';
  if (r.status === 'pending') return 'pending';
  if (r.status === 'failed') return 'FAILED';
  if (r.runs.length < 2) return fmtMs(r.medianMs);
  return `${fmtMs(r.medianMs)} [${fmtMs(r.minMs)}–${fmtMs(r.maxMs)}]`;
}

function qualityCell(r) {
  if (!r || r.status !== 'ok' || !r.quality) return r ? timeCell(r) : '';
  const q = r.quality;
  if ('worstViolation' in q) return `viol. ${fmtLen(q.worstViolation)} m`;
  if ('worstAngle' in q) return `${fmtLen(q.worstSeparation)} m, ${fmtLen(q.worstAngle)} rad`;
  if ('worstSeparation' in q) return `${fmtLen(q.worstSeparation)} m`;
  return `Δy ${fmtSigned(q.topDy)} ${q.stands ? 'stands' : 'FALLS'}`;
}

function report(doc) {
  const engines = doc.config.engines;
  const byKey = new Map(doc.results.map((r) => [`${r.scene}/${r.engine}`, r]));
  const labels = engines.map((e) => engineById(e).label);
  const out = [];
  const reps = doc.protocol.repetitions;
  out.push(
    `Fulcrum benchmark (${doc.mode}): ${doc.protocol.warmupSteps} warm-up + ${doc.protocol.timedSteps} timed steps, dt 1/60, gravity (0, -10), ` +
      `${reps} repetition${reps > 1 ? 's' : ''}, one fresh process per pair`,
  );
  out.push('');
  out.push(`ms/step: median over the timed steps${reps > 1 ? '; median of the repetition medians [min–max of them]' : ''}`);
  const rows = doc.config.scenes.map((s) => [`${s} ${doc.scenes[s].title}`, ...engines.map((e) => timeCell(byKey.get(`${s}/${e}`)))]);
  out.push(table(['scene', ...labels], rows));
  out.push('');
  out.push(
    'quality after all steps: A/B top box Δy (stands: |Δx| and |Δy| < 1 m; Δx is in the JSON); C–I worst joint-anchor separation; ' +
      'J worst violation of [0.9, 1.1] m; K worst anchor separation, worst relative angle',
  );
  const qrows = doc.config.scenes.map((s) => [s, ...engines.map((e) => qualityCell(byKey.get(`${s}/${e}`)))]);
  out.push(table(['scene', ...labels], qrows));
  const peers = engines.filter((e) => e !== 'fulcrum');
  if (engines.includes('fulcrum') && peers.length) {
    out.push('');
    out.push('Fulcrum vs peers: peer ms / Fulcrum ms (> 1: Fulcrum faster)');
    const rrows = Object.entries(doc.ratios).map(([s, m]) => [s, ...peers.map((p) => (m[p] == null ? '–' : `${m[p].toFixed(2)}x`))]);
    out.push(table(['scene', ...peers.map((p) => engineById(p).label)], rrows));
  }
  // Ratios within each repetition (the two runs back to back): median [min–max] over the repetitions.
  const pr = doc.fulcrumRatios ?? {};
  const x = (scene) => `${pr[scene].median.toFixed(2)}x [${pr[scene].min.toFixed(2)}–${pr[scene].max.toFixed(2)}]`;
  const vs = [];
  if (pr.E) vs.push(`E vs C: Fulcrum UserConstraint pivots (with their bulk kernel) take ${x('E')} the time of PivotJoints (the target is at most 1.5x)`);
  if (pr.I) vs.push(`I vs C: the same UserConstraint pivots through their hooks alone take ${x('I')}`);
  if (pr.F) vs.push(`F vs C: SymbolicConstraint pivots take ${x('F')} the time of PivotJoints (joint grid; the target is at most 2x)`);
  if (pr.H) vs.push(`H vs G: SymbolicConstraint pivots take ${x('H')} the time of PivotJoints (chain; the issue's target is at most 2x)`);
  if (pr['J-user']) vs.push(`J-user vs J: UserConstraint distance limits take ${x('J-user')} the time of DistanceJoints (issue 20's target is at most 2x)`);
  if (pr['J-sym']) vs.push(`J-sym vs J: SymbolicConstraint distance limits take ${x('J-sym')} the time of DistanceJoints (target at most 2x)`);
  if (pr['K-user']) vs.push(`K-user vs K: UserConstraint welds (with their bulk kernel) take ${x('K-user')} the time of WeldJoints (target at most 2x)`);
  if (pr['K-sym']) vs.push(`K-sym vs K: SymbolicConstraint welds take ${x('K-sym')} the time of WeldJoints (target at most 2x)`);
  if (vs.length) out.push(`\n${vs.join('\n')}\n(each ratio is taken within a repetition, from two runs back to back; median [min–max] over the repetitions)`);
  out.push('');
  out.push('engine settings (each engine’s defaults; friction 0.6, restitution 0, density 1, no damping, sleeping off):');
  for (const id of engines) {
    const en = doc.engines[id];
    out.push(`  ${engineById(id).label} ${en.version ?? '?'}: ${en.settings ? summarizeSettings(id, en.settings) : '(no successful run)'}`);
  }
  const notes = doc.results.filter((r) => r.status !== 'ok');
  if (notes.length) {
    out.push('');
    for (const r of notes) out.push(`${r.scene}/${r.engine}: ${r.status === 'pending' ? r.message : `FAILED: ${r.message.split('\n').slice(0, 6).join('\n    ')}`}`);
  }
  if (doc.environment.fulcrumDistNodeLoadable === false)
    out.push('\nERROR: plain Node cannot load @fulcrum/physics dist/ (the engine must run in Node without a bundler)');
  const m = doc.machine;
  out.push('');
  out.push(`machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, Node ${m.node}, ${m.platform} ${m.arch}; ${doc.date}` + (doc.git ? `; git ${doc.git.commit.slice(0, 10)}${doc.git.physicsDirty ? ' (packages/physics modified)' : ''}` : ''));
  return out.join('\n');
}

function summarizeSettings(id, s) {
  switch (id) {
    case 'fulcrum':
      return `${s.call}: ${s.velocityIterations} substeps (velocityIterations), ${s.positionIterations} position passes, jointIterations ${s.jointIterations}`;
    case 'planck':
      return `${s.call}: velocityIterations ${s.velocityIterations}, positionIterations ${s.positionIterations}`;
    case 'matter':
      return `${s.call}: positionIterations ${s.positionIterations}, velocityIterations ${s.velocityIterations}, constraintIterations ${s.constraintIterations}; gravity.y ${s.gravity.y} x scale ${s.gravity.scale} = 10 m/s² (y down, 1 unit = 1 m)`;
    case 'p2':
      return `${s.call}: ${s.solver} iterations ${s.iterations} (tolerance ${s.tolerance}), equation stiffness ${s.equationStiffness}, relaxation ${s.equationRelaxation}`;
    case 'rapier':
    case 'rapier-simd':
      return `${s.call}: numSolverIterations ${s.numSolverIterations}, numInternalPgsIterations ${s.numInternalPgsIterations}${s.build ? ` (${s.build})` : ''}`;
    case 'box2d':
      return `${s.call}: velocityIterations ${s.velocityIterations}, positionIterations ${s.positionIterations} (${s.build})`;
    default:
      return JSON.stringify(s);
  }
}

// ------------------------------------------------------------------ main

async function main() {
  const opt = parseOptions(process.argv.slice(2));
  const pairs = sweepOrder(opt.scenes, opt.engines);
  if (!pairs.length) throw new Error('no (engine, scene) pair to run: scenes E to K-sym are Fulcrum only');

  const started = Date.now();
  const git = gitInfo(); // at the start: the build that runs is the tree as it is now
  const distLoadable = opt.engines.includes('fulcrum') ? fulcrumDistNodeLoadable() : null;
  // The engine promises to run in plain Node: a dist/ that Node cannot load is a failure, not a note.
  if (distLoadable === false) throw new Error('plain Node cannot import @fulcrum/physics dist/ (check the relative import extensions)');
  const runs = new Map(pairs.map((p) => [`${p.scene}/${p.engine}`, []]));
  const total = pairs.length * opt.repeat;
  let n = 0;
  for (let rep = 1; rep <= opt.repeat; rep++) {
    // Every other sweep runs backwards: the host's slow spells (minutes long here) then fall on
    // different pairs in each sweep, so the median of three is less likely to hold one of them.
    for (const p of rep % 2 === 1 ? pairs : [...pairs].reverse()) {
      const job = { engine: p.engine, scene: p.scene, sizes: opt.sizes, warmup: opt.warmup, steps: opt.steps };
      const res = await runPair(job, opt.timeoutSec);
      runs.get(`${p.scene}/${p.engine}`).push(res);
      n++;
      const what = res.status === 'ok' ? `${fmtMs(res.medianMs)} ms/step` : res.status === 'pending' ? res.message : `${res.status}: ${res.message.split('\n')[0]}`;
      process.stderr.write(`[${n}/${total}] rep ${rep} ${p.scene} ${p.engine}: ${what} (${(res.wallMs / 1000).toFixed(1)} s)\n`);
    }
  }

  const engines = {};
  for (const id of opt.engines) {
    const e = engineById(id);
    const ok = [...runs.entries()].filter(([k]) => k.endsWith(`/${id}`)).flatMap(([, rs]) => rs.filter((r) => r.status === 'ok'));
    // Settings of the first successful pivot scene run (they name the joint type), else of any run.
    const withJoint = ok.find((r) => r.settings?.joint && r.joints > 0 && !/User|Symbolic/.test(r.settings.joint));
    engines[id] = { label: e.label, package: e.pkg, version: packageVersion(e.pkg), settings: (withJoint ?? ok[0])?.settings ?? null };
  }

  const results = pairs.map(({ scene, engine }) => {
    const rs = runs.get(`${scene}/${engine}`);
    const ok = rs.filter((r) => r.status === 'ok');
    const bad = rs.find((r) => r.status !== 'ok');
    const status = bad ? bad.status : 'ok';
    const medians = ok.map((r) => r.medianMs);
    const first = ok[0];
    return {
      scene,
      engine,
      status,
      ...(bad ? { message: bad.message } : {}),
      title: first?.title ?? null,
      bodies: first?.bodies ?? null,
      joints: first?.joints ?? null,
      medianMs: ok.length ? median(medians) : null,
      minMs: ok.length ? Math.min(...medians) : null,
      maxMs: ok.length ? Math.max(...medians) : null,
      spreadMs: ok.length ? Math.max(...medians) - Math.min(...medians) : null,
      quality: first?.quality ?? null,
      // The constraint the scene ran (and, for Fulcrum, the solver family that took it).
      ...(first?.settings?.joint ? { joint: first.settings.joint } : {}),
      ...(first?.settings?.solverFamily ? { solverFamily: first.settings.solverFamily } : {}),
      qualityConsistent: ok.every((r) => JSON.stringify(r.quality) === JSON.stringify(first.quality)),
      runs: rs.map((r) =>
        r.status === 'ok'
          ? { status: 'ok', medianMs: r.medianMs, meanMs: r.meanMs, minMs: r.minMs, maxMs: r.maxMs, setupMs: r.setupMs, wallMs: r.wallMs, quality: r.quality }
          : { status: r.status, message: r.message, wallMs: r.wallMs },
      ),
    };
  });

  const ratios = {};
  for (const s of opt.scenes) {
    const f = results.find((r) => r.scene === s && r.engine === 'fulcrum');
    const peers = results.filter((r) => r.scene === s && r.engine !== 'fulcrum');
    if (!f || !peers.length) continue;
    ratios[s] = {};
    for (const p of peers) ratios[s][p.engine] = f.status === 'ok' && p.status === 'ok' ? p.medianMs / f.medianMs : null;
  }

  const scenes = {};
  for (const s of opt.scenes) {
    const spec = buildScene(s, opt.sizes);
    scenes[s] = { title: spec.title, description: SCENE_INFO[s], bodies: spec.bodies.length, joints: spec.joints.length };
  }

  const doc = {
    schema: SCHEMA,
    mode: opt.mode,
    date: new Date().toISOString(),
    durationSec: Math.round((Date.now() - started) / 100) / 10,
    machine: machineInfo(),
    git,
    environment: { fulcrumDistNodeLoadable: distLoadable },
    protocol: {
      dt: 1 / 60,
      gravity: [0, -10],
      warmupSteps: opt.warmup,
      timedSteps: opt.steps,
      repetitions: opt.repeat,
      timeoutSec: opt.timeoutSec,
      timing: 'performance.now() around each step; per-run figure = median ms/step; headline = median of the repetition medians',
    },
    config: { engines: opt.engines, scenes: opt.scenes, sizes: opt.sizes },
    scenes,
    engines,
    results,
    ratios,
    fulcrumRatios: pairedRatios(results),
  };

  mkdirSync(dirname(opt.out), { recursive: true });
  writeFileSync(opt.out, `${JSON.stringify(doc, null, 2)}\n`);
  console.log(report(doc));
  console.log(`\nwrote ${displayPath(opt.out)} in ${doc.durationSec} s`);

  const failed = results.filter((r) => r.status === 'failed');
  if (failed.length) {
    console.error(`\n${failed.length} pair(s) failed: ${failed.map((r) => `${r.scene}/${r.engine}`).join(', ')}`);
    process.exitCode = 1;
  }
}

main().catch((err) => {
  console.error(err?.message ?? err);
  process.exitCode = 2;
});
