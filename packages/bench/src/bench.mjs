#!/usr/bin/env node
// Fulcrum benchmark: every (engine, scene) pair in a fresh Node process, the whole sweep repeated.
// Usage: node src/bench.mjs [--quick] [--repeat N] [--engines a,b] [--scenes A,C] [--timeout S] [--compare REF] [--out FILE]
// (`npm run bench` builds the workspace packages with `tsc -b` first.) See README.md.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { engineById } from './engines/index.mjs';
import { SCENE_INFO, buildScene, median } from './scenes.mjs';
import { USAGE, parseOptions } from './options.mjs';
import { RESULT_PREFIX } from './result-prefix.mjs';
import { pairedRatios, sweepOrder } from './sweep.mjs';
import { repoRoot, resolveRef, withWorktree } from './worktree.mjs';

const PKG_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const WORKER = join(PKG_DIR, 'src', 'worker.mjs');
export const SCHEMA = 'fulcrum-bench/1';

// ------------------------------------------------------------------ running one pair

/** Spawns the worker for one pair; resolves to the worker's result object (never rejects). */

/** The protocol a results file records (a sweep's and a --compare run's). */
function protocolOf(opt) {
  return {
    dt: 1 / 60,
    gravity: [0, -10],
    warmupSteps: opt.warmup,
    timedSteps: opt.steps,
    repetitions: opt.repeat,
    timeoutSec: opt.timeoutSec,
    timing: 'performance.now() around each step; per-run figure = median ms/step; headline = median of the repetition medians',
  };
}

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

// ------------------------------------------------------------------ aggregation

/** One pair's repetitions: status, headline median [min–max] of the repetition medians, quality, runs. */
function aggregate(rs, runExtra = () => ({})) {
  const ok = rs.filter((r) => r.status === 'ok');
  const bad = rs.find((r) => r.status !== 'ok');
  const status = bad ? bad.status : 'ok';
  const medians = ok.map((r) => r.medianMs);
  const first = ok[0];
  return {
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
        ? { status: 'ok', medianMs: r.medianMs, meanMs: r.meanMs, minMs: r.minMs, maxMs: r.maxMs, setupMs: r.setupMs, wallMs: r.wallMs, quality: r.quality, ...runExtra(r) }
        : { status: r.status, message: r.message, wallMs: r.wallMs },
    ),
  };
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
const fmtSpeed = (x) => (x == null || !Number.isFinite(x) ? 'NaN' : x.toFixed(x < 10 ? 2 : 1));
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
  if ('standing' in q) return `${q.standing}/${q.pyramids} stand, Δy ${fmtSigned(q.worstTopDy)}`;
  if ('escaped' in q) return `${q.escaped} out, ${fmtSpeed(q.meanSpeed)} m/s`;
  if ('worstViolation' in q) return `viol. ${fmtLen(q.worstViolation)} m`;
  if ('worstAngle' in q) return `${fmtLen(q.worstSeparation)} m, ${fmtLen(q.worstAngle)} rad`;
  if ('worstSeparation' in q) return `${fmtLen(q.worstSeparation)} m`;
  return `Δy ${fmtSigned(q.topDy)} ${q.stands ? 'stands' : 'FALLS'}`;
}

function report(doc) {
  // The engines with a pair in the run (planck and p2-es have none in a run of M alone).
  const engines = doc.config.engines.filter((e) => doc.results.some((r) => r.engine === e));
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
      'J worst violation of [0.9, 1.1] m; K worst anchor separation, worst relative angle; L bodies outside the box, mean speed; ' +
      'M pyramids standing, worst top box Δy',
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
  if (pr.E) vs.push(`E vs C: Fulcrum UserConstraint pivots (with their bulk kernel) take ${x('E')} the time of PivotJoints (a reported scene; issue 20 retired its target)`);
  if (pr.I) vs.push(`I vs C: the same UserConstraint pivots through their hooks alone take ${x('I')}`);
  if (pr.F) vs.push(`F vs C: SymbolicConstraint pivots take ${x('F')} the time of PivotJoints (joint grid; a reported scene, its target retired)`);
  if (pr.H) vs.push(`H vs G: SymbolicConstraint pivots take ${x('H')} the time of PivotJoints (chain; a reported scene, its target retired)`);
  if (pr['J-user']) vs.push(`J-user vs J: UserConstraint distance limits take ${x('J-user')} the time of DistanceJoints (the goal is at most 2x)`);
  if (pr['J-sym']) vs.push(`J-sym vs J: SymbolicConstraint distance limits take ${x('J-sym')} the time of DistanceJoints (the goal is at most 2x)`);
  if (pr['K-user']) vs.push(`K-user vs K: UserConstraint welds (with their bulk kernel) take ${x('K-user')} the time of WeldJoints (the goal is at most 2x)`);
  if (pr['K-sym']) vs.push(`K-sym vs K: SymbolicConstraint welds take ${x('K-sym')} the time of WeldJoints (the goal is at most 2x)`);
  if (vs.length) out.push(`\n${vs.join('\n')}\n(each ratio is taken within a repetition, from two runs back to back; median [min–max] over the repetitions)`);
  out.push('');
  out.push('engine settings (each engine’s defaults; friction 0.6, restitution 0 (L: 1), density 1, no damping, sleeping off):');
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

// ------------------------------------------------------------------ --compare <ref>

export const COMPARE_SCHEMA = 'fulcrum-bench-compare/1';

/**
 * Fulcrum at a git ref against the working tree's build: the ref is checked out in a temporary
 * worktree and built there (src/worktree.mjs); each scene then runs `fulcrum@<ref>` and `fulcrum`
 * one after the other, in fresh processes, every other repetition in reverse order; the ratio
 * current ÷ ref is taken within each repetition. Each worker reports the physics build it loaded,
 * and a run that loaded the wrong one counts as failed.
 */
async function runCompare(opt) {
  const started = Date.now();
  const root = repoRoot(PKG_DIR);
  const { commit, short } = resolveRef(opt.compare, root);
  const out = opt.out ?? resolve(PKG_DIR, 'results', `compare-${short}.json`);
  const git = gitInfo();
  const refLabel = `fulcrum@${short}`;
  const rootReal = realpathSync(root);
  const within = (dir, p) => p === dir || p.startsWith(`${dir}${sep}`);

  process.stderr.write(`--compare ${opt.compare}: checking out ${short} in a temporary git worktree and building its packages/physics and packages/symbolic (tsc -b)…\n`);
  const doc = await withWorktree(root, commit, async ({ dir, packages }) => {
    const dirReal = realpathSync(dir);
    const builds = [
      { key: 'ref', label: refLabel, root: dir, real: dirReal, show: (p) => `<worktree of ${short}>/${relative(dirReal, p).split(sep).join('/')}` },
      { key: 'current', label: 'fulcrum', root, real: rootReal, show: (p) => relative(rootReal, p).split(sep).join('/') },
    ];
    process.stderr.write(`built ${packages.join(', ')} of ${short}\n`);
    const pairs = opt.scenes.flatMap((scene) => builds.map((build) => ({ scene, build })));
    const runs = new Map(pairs.map((p) => [`${p.scene}/${p.build.key}`, []]));
    const total = pairs.length * opt.repeat;
    let n = 0;
    for (let rep = 1; rep <= opt.repeat; rep++) {
      for (const p of rep % 2 === 1 ? pairs : [...pairs].reverse()) {
        const job = { engine: 'fulcrum', fulcrumRoot: p.build.root, scene: p.scene, sizes: opt.sizes, warmup: opt.warmup, steps: opt.steps, workers: p.build.key === 'current' ? opt.workers : 0 };
        let res = await runPair(job, opt.timeoutSec);
        if (res.status === 'ok') {
          const loaded = res.fulcrumBuild?.physicsDist;
          // The ref's run must have loaded the worktree's build, the current run the working tree's
          // (the worktree lives outside the repo, so the two cannot be confused).
          if (!loaded || !within(p.build.real, loaded) || (p.build.key === 'current' && within(dirReal, loaded)))
            res = { status: 'failed', message: `loaded @fulcrum/physics from ${loaded ?? 'an unknown place'}, not from the ${p.build.label} build`, wallMs: res.wallMs };
          else res.physicsDist = p.build.show(loaded);
        }
        runs.get(`${p.scene}/${p.build.key}`).push(res);
        n++;
        const what = res.status === 'ok' ? `${fmtMs(res.medianMs)} ms/step` : `${res.status}: ${res.message.split('\n')[0]}`;
        process.stderr.write(`[${n}/${total}] rep ${rep} ${p.scene} ${p.build.label}: ${what} (${(res.wallMs / 1000).toFixed(1)} s)\n`);
      }
    }

    const results = opt.scenes.map((scene) => {
      const ref = aggregate(runs.get(`${scene}/ref`), (r) => ({ physicsDist: r.physicsDist }));
      const current = aggregate(runs.get(`${scene}/current`), (r) => ({ physicsDist: r.physicsDist }));
      const each = [];
      for (let i = 0; i < Math.min(ref.runs.length, current.runs.length); i++) {
        if (ref.runs[i].status === 'ok' && current.runs[i].status === 'ok') each.push(current.runs[i].medianMs / ref.runs[i].medianMs);
      }
      const ratio = each.length ? { perRepetition: each, median: median(each), min: Math.min(...each), max: Math.max(...each) } : null;
      const both = ref.status === 'ok' && current.status === 'ok';
      return { scene, title: current.title ?? ref.title, ref, current, ratio, sameQuality: both ? JSON.stringify(ref.quality) === JSON.stringify(current.quality) : null };
    });

    const scenes = {};
    for (const s of opt.scenes) {
      const spec = buildScene(s, opt.sizes);
      scenes[s] = { title: spec.title, description: SCENE_INFO[s], bodies: spec.bodies.length, joints: spec.joints.length };
    }
    const physicsDistOf = (key) => results.flatMap((r) => r[key].runs).find((r) => r.physicsDist)?.physicsDist ?? null;
    return {
      schema: COMPARE_SCHEMA,
      mode: opt.mode,
      date: new Date().toISOString(),
      durationSec: Math.round((Date.now() - started) / 100) / 10,
      machine: machineInfo(),
      git,
      builds: {
        ref: { label: refLabel, ref: opt.compare, commit, packagesBuilt: packages, physicsDist: physicsDistOf('ref') },
        current: {
          label: 'fulcrum',
          commit: git?.commit ?? null,
          physicsDirty: git?.physicsDirty ?? null,
          physicsDist: physicsDistOf('current'),
          // The workers asked for (--workers) and those that ran (at most one fewer than the cores start).
          ...(opt.workers > 0 ? { workersRequested: opt.workers, workers: [...runs.values()].flat().find((r) => r.status === 'ok' && r.settings?.workers !== undefined && r.settings.workers > 0)?.settings.workers ?? null } : {}),
        },
      },
      protocol: {
        ...protocolOf(opt),
        order: 'per scene the ref then the current build, each in a fresh process; every other repetition reversed; ratio current ÷ ref within each repetition',
      },
      config: { scenes: opt.scenes, sizes: opt.sizes },
      scenes,
      results,
    };
  });

  mkdirSync(dirname(out), { recursive: true });
  writeFileSync(out, `${JSON.stringify(doc, null, 2)}\n`);
  console.log(compareReport(doc));
  console.log(`\nwrote ${displayPath(out)} in ${doc.durationSec} s`);
  const failed = doc.results.flatMap((r) => [r.ref.status === 'failed' ? `${r.scene}/${doc.builds.ref.label}` : null, r.current.status === 'failed' ? `${r.scene}/fulcrum` : null]).filter(Boolean);
  if (failed.length) {
    console.error(`\n${failed.length} pair(s) failed: ${failed.join(', ')}`);
    process.exitCode = 1;
  }
}

function compareReport(doc) {
  const reps = doc.protocol.repetitions;
  const refLabel = doc.builds.ref.label;
  const out = [];
  out.push(
    `Fulcrum ${refLabel} (${doc.builds.ref.commit.slice(0, 10)}) against the working tree (${doc.mode}): ${doc.protocol.warmupSteps} warm-up + ${doc.protocol.timedSteps} timed steps, ` +
      `${reps} repetition${reps > 1 ? 's' : ''}, the two builds alternated, one fresh process per run`,
  );
  const cur = doc.builds.current;
  if (cur.workersRequested)
    out.push(`the working tree steps with ${cur.workers ?? '?'} worker${cur.workers === 1 ? '' : 's'}${cur.workers !== cur.workersRequested ? ` (${cur.workersRequested} asked for; at most one fewer than the cores start)` : ''}, the ref without`);
  out.push('');
  const ratioCell = (r) => (!r ? '–' : reps > 1 ? `${r.median.toFixed(3)} [${r.min.toFixed(3)}–${r.max.toFixed(3)}]` : r.median.toFixed(3));
  const rows = doc.results.map((r) => [`${r.scene} ${r.title ?? ''}`.trim(), timeCell(r.ref), timeCell(r.current), ratioCell(r.ratio)]);
  out.push(`ms/step${reps > 1 ? ' (median of the repetition medians [min–max])' : ''}; current ÷ ref within each repetition (< 1: the working tree is faster)`);
  out.push(table(['scene', `${refLabel} ms`, 'current ms', 'current ÷ ref'], rows));
  out.push('');
  out.push('quality after all steps (the same figures as the sweep); "same": bitwise identical');
  const qrows = doc.results.map((r) => [r.scene, qualityCell(r.ref), qualityCell(r.current), r.sameQuality == null ? '–' : r.sameQuality ? 'same' : 'CHANGED']);
  out.push(table(['scene', refLabel, 'current', ''], qrows));
  const notes = doc.results.flatMap((r) => [[r.scene, refLabel, r.ref], [r.scene, 'fulcrum', r.current]]).filter(([, , x]) => x.status !== 'ok');
  if (notes.length) {
    out.push('');
    for (const [s, label, x] of notes) out.push(`${s}/${label}: ${x.status === 'pending' ? x.message : `FAILED: ${x.message.split('\n').slice(0, 6).join('\n    ')}`}`);
  }
  out.push('');
  out.push(`builds: ${refLabel} from ${doc.builds.ref.physicsDist ?? '?'}; current from ${doc.builds.current.physicsDist ?? '?'}${doc.builds.current.physicsDirty ? ' (packages/physics modified)' : ''}`);
  const m = doc.machine;
  out.push(`machine: ${m.cpu}, ${m.cores} cores, ${m.memGiB} GiB, Node ${m.node}, ${m.platform} ${m.arch}; ${doc.date}`);
  return out.join('\n');
}

// ------------------------------------------------------------------ main

async function main() {
  const opt = parseOptions(process.argv.slice(2), { pkgDir: PKG_DIR });
  if (opt.help) {
    console.log(USAGE);
    return;
  }
  if (opt.compare !== null) return runCompare(opt);
  const pairs = sweepOrder(opt.scenes, opt.engines);
  if (!pairs.length) throw new Error('no (engine, scene) pair to run: scenes E to L are Fulcrum only, and planck and p2-es do not run M');

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
      const job = { engine: p.engine, scene: p.scene, sizes: opt.sizes, warmup: opt.warmup, steps: opt.steps, workers: p.engine === 'fulcrum' ? opt.workers : 0 };
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

  const results = pairs.map(({ scene, engine }) => ({ scene, engine, ...aggregate(runs.get(`${scene}/${engine}`)) }));

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
    protocol: protocolOf(opt),
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
