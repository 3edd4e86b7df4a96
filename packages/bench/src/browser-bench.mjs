#!/usr/bin/env node
/**
 * Issue 4's React-layer figures, in headless Chromium (the system browser, through
 * @fulcrum/browser-testing): the built Storybook's 2000-body <InstancedBodies> story, timed by
 * the story's own FrameTimings component (storybook/stories/scenes/frame-timings.tsx):
 * - physics ms/frame: every step of the frame, useBeforeStep → useAfterStep;
 * - sync ms/frame: end of the frame's last step → end of <Physics>'s frame callback (writing
 *   interpolated poses: 2000 instance matrices);
 * medians over N frames after a warm-up, while the bodies fall and settle. Then it waits for
 * the scene to fall asleep and counts the frames rendered over 2 s (frameloop="demand": 0).
 * Also: the frame rate over the timed frames (from the time each frame's <Physics> callback
 * ended: frames per second over the spans between drops), whether the page was cross-origin
 * isolated, the main thread's work per frame (the frame's callbacks and the render call), and
 * the host's renderer ceiling (renderer-ceiling.mjs: the frame rate of three.js alone drawing as
 * many instances).
 *
 * --workers N (default 0) opens the story with the arg `workers:N` (the space's worker threads,
 * `<Physics workers>`), waits until the story says that N workers run (it fails with the reason
 * the story shows if they do not), and times only frames stepped while they ran (after a reset,
 * the remounted space starts its workers again; the frames before they run are left out).
 *
 * Usage: node src/browser-bench.mjs [--frames N] [--warmup N] [--workers N] [--out FILE]
 * Needs the built Storybook (`npm run bench:browser` builds it first).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countRenderedFrames, launchBrowser, openPage, readProbe, serveStatic, waitForProbe } from '@fulcrum/browser-testing';
import { measureRendererCeiling } from './renderer-ceiling.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const STATIC_DIR = join(here, '..', '..', '..', 'storybook', 'storybook-static');
const STORY_ID = 'scenes-instanced-bodies--two-thousand-boxes';
const COUNT = 2000;
/** The story's line under the canvas: how many workers run, or why none do. */
const WORKERS_READOUT = '[data-testid="instanced-workers"]';

const args = parseArgs(process.argv.slice(2));

if (!existsSync(join(STATIC_DIR, 'index.json'))) {
  console.error(`browser-bench: no built Storybook at storybook/storybook-static; run \`npm run bench:browser -w @fulcrum/bench\`, which builds it`);
  process.exit(2);
}

const server = await serveStatic(STATIC_DIR);
const browser = await launchBrowser();
try {
  const storyArgs = `count:${COUNT}${args.workers > 0 ? `;workers:${args.workers}` : ''}`;
  const opened = await openPage(browser, `${server.url}/iframe.html?id=${STORY_ID}&viewMode=story&args=${storyArgs}`);
  const { page } = opened;
  await waitForProbe(page, (p, n) => p.bodies >= n && p.frames > 0, { arg: COUNT + 1, timeout: 120_000 });
  const version = await page.evaluate(() => navigator.userAgent);
  const crossOriginIsolated = await page.evaluate(() => globalThis.crossOriginIsolated === true);
  const canvas = await page.evaluate(() => {
    const c = document.querySelector('canvas');
    return { width: c.width, height: c.height };
  });
  // The workers that run: as many as asked for, or one fewer than the cores (Space.parallel).
  const { text: workersStatus, running } = await waitForWorkers(page, args.workers);

  // Warm-up (JIT, buffer growth), then N timed frames while the boxes fall and settle. The
  // scene sleeps after a few dozen frames, so the story's reset button drops a fresh set of
  // 2000 boxes until N frames are collected (the remount itself is not inside any timed span).
  // Each sample is stamped as FrameTimings pushes it: the time (the end of <Physics>'s frame
  // callback), the drop it belongs to, and how many workers ran then.
  await resetTimings(page);
  await collectFrames(page, args.warmup, running);
  await resetTimings(page);
  let drops = 1;
  while ((await timedCount(page, running)) < args.frames) {
    await collectFrames(page, args.frames, running);
    if ((await timedCount(page, running)) >= args.frames) break;
    await page.click('[data-testid="reset"]');
    await page.evaluate(() => { globalThis.__benchDrop++; });
    await waitForProbe(page, (p) => p.awakeBodies > 0, { timeout: 120_000 });
    await waitForWorkers(page, args.workers);
    drops++;
  }
  const all = await page.evaluate(() => globalThis.__fulcrumTimings);
  const samples = all.filter((s) => s.workers === running).slice(0, args.frames);
  const framesWithoutWorkers = all.filter((s) => s.workers !== running).length;
  const probeDuring = await readProbe(page);

  // At rest: nothing awake, and demand mode renders nothing.
  const restStart = Date.now();
  await waitForProbe(page, (p) => p.awakeBodies === 0, { timeout: 300_000 });
  const restWaitS = (Date.now() - restStart) / 1000;
  const framesAtRest = await countRenderedFrames(page, 2000);
  opened.assertNoErrors(STORY_ID);
  await opened.close();
  // The same count drawn by three.js alone, on a canvas of the story's size: the host's ceiling.
  const ceiling = await measureRendererCeiling(browser, { count: COUNT, ...canvas, summary });

  const stepped = samples.filter((s) => s.steps > 0);
  // (A frame's render time is null in the JSON when the page was sampled before its render call.)
  const rendered = samples.filter((s) => typeof s.renderMs === 'number' && Number.isFinite(s.renderMs));
  const rate = frameRate(samples);
  const result = {
    date: new Date().toISOString(),
    browser: version,
    cpus: cpus().length,
    story: STORY_ID,
    bodies: COUNT,
    workers: running,
    ...(running < args.workers ? { workersRequested: args.workers } : {}),
    workersStatus,
    crossOriginIsolated,
    warmupFrames: args.warmup,
    drops,
    frames: samples.length,
    framesWithSteps: stepped.length,
    stepsPerFrame: { median: median(samples.map((s) => s.steps)), mean: mean(samples.map((s) => s.steps)) },
    physicsMsPerFrame: summary(samples.map((s) => s.physicsMs)),
    physicsMsPerStep: summary(stepped.map((s) => s.physicsMs / s.steps)),
    syncMsPerFrame: summary(samples.map((s) => s.syncMs)),
    physicsFrameCallbackMs: summary(samples.map((s) => s.frameMs)),
    renderCallMs: summary(rendered.map((s) => s.renderMs)),
    // The main thread's work for a frame: its callbacks and the render call (not the GPU's).
    mainThreadFrameMs: summary(rendered.map((s) => s.frameMs + s.renderMs)),
    framesPerSecond: rate.fps,
    frameIntervalMs: rate.intervals,
    framesWithoutWorkersLeftOut: framesWithoutWorkers,
    rendererCeiling: { framesPerSecond: ceiling.framesPerSecond, frameIntervalMedianMs: ceiling.frameIntervalMs.median, canvas: ceiling.canvas, antialias: ceiling.antialias },
    awakeBodiesAtEndOfSample: probeDuring?.awakeBodies ?? null,
    secondsToRestAfterSample: restWaitS,
    framesRenderedAtRestIn2s: framesAtRest,
  };

  const row = (name, s) => `| ${name.padEnd(30)} | ${fmt(s.median)} | ${fmt(s.p10)} | ${fmt(s.p90)} |`;
  const withWorkers = args.workers > 0 ? `, ${running} worker${running === 1 ? '' : 's'}${running < args.workers ? ` (of ${args.workers} asked for)` : ''}` : '';
  console.log(`\nReact layer, headless Chromium (${result.cpus} cores): ${COUNT} bodies in <InstancedBodies>${withWorkers}, ${samples.length} frames (${drops} drops) after ${args.warmup} warm-up\n`);
  console.log('| per frame (ms)                 | median | p10 | p90 |');
  console.log('|---|---|---|---|');
  console.log(row('physics (all steps)', result.physicsMsPerFrame));
  console.log(row('physics per step', result.physicsMsPerStep));
  console.log(row('sync (instance matrices)', result.syncMsPerFrame));
  console.log(row('<Physics> frame callback', result.physicsFrameCallbackMs));
  console.log(row('render call', result.renderCallMs));
  console.log(row('main thread per frame', result.mainThreadFrameMs));
  console.log(`\nsteps per frame: median ${result.stepsPerFrame.median}, mean ${fmt(result.stepsPerFrame.mean)}`);
  console.log(`at rest (after ${fmt(restWaitS)} s more): ${framesAtRest} frames rendered in 2 s (frameloop="demand")`);
  console.log(`frame rate: ${fmt(rate.fps)} fps over ${rate.intervals.n} frame intervals (interval median ${fmt(rate.intervals.median)} ms, p90 ${fmt(rate.intervals.p90)} ms)`);
  console.log(`renderer ceiling: three.js alone draws ${COUNT} instanced quads at ${fmt(ceiling.framesPerSecond)} fps on this host (${ceiling.canvas}, antialias ${ceiling.antialias}; interval median ${fmt(ceiling.frameIntervalMs.median)} ms)`);
  console.log(`workers: ${workersStatus} · crossOriginIsolated: ${crossOriginIsolated}${framesWithoutWorkers ? ` (${framesWithoutWorkers} frames stepped before the workers ran left out)` : ''}`);

  mkdirSync(dirname(args.out), { recursive: true });
  writeFileSync(args.out, JSON.stringify(result, null, 2) + '\n');
  console.log(`\nwrote ${args.out}`);
  if (framesAtRest !== 0) {
    console.error('browser-bench: the scene at rest still rendered frames in demand mode');
    process.exitCode = 1;
  }
} finally {
  await browser.close();
  await server.close();
}

/**
 * Empties the samples, and stamps each new one with the time it was pushed (the end of
 * <Physics>'s frame callback), the drop it belongs to, and the workers running then (the story's
 * probe field; 0 when none were asked for). FrameTimings pushes onto whatever array
 * `__fulcrumTimings` holds, so an own `push` on it sees every sample.
 */
async function resetTimings(page) {
  await page.evaluate(() => {
    globalThis.__benchDrop ??= 0;
    const samples = [];
    const push = Array.prototype.push;
    samples.push = function (s) {
      s.t = performance.now();
      s.drop = globalThis.__benchDrop;
      s.workers = globalThis.__fulcrum?.workersRunning ?? 0;
      return push.call(this, s);
    };
    globalThis.__fulcrumTimings = samples;
  });
}

/** Samples stepped with the workers asked for. */
async function timedCount(page, workers) {
  return page.evaluate((w) => globalThis.__fulcrumTimings.filter((s) => s.workers === w).length, workers);
}

/** Waits until `n` samples (with `workers` running) exist or the scene is at rest (no more frames would come). */
async function collectFrames(page, n, workers) {
  await page.waitForFunction(
    ({ n, w }) => (globalThis.__fulcrumTimings ?? []).filter((s) => s.workers === w).length >= n || globalThis.__fulcrum?.awakeBodies === 0,
    { n, w: workers },
    { timeout: 300_000, polling: 100 },
  );
}

/**
 * Waits until the story says that `n` workers run (its readout, and the probe), and returns the
 * readout. With n = 0, nothing to wait for. Fails with the story's reason if they do not start.
 */
async function waitForWorkers(page, n) {
  const read = () => page.evaluate((sel) => ({ text: document.querySelector(sel)?.textContent ?? '', probe: globalThis.__fulcrum ?? {} }), WORKERS_READOUT);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const { text, probe } = await read();
    if (n === 0) return { text, running: 0 };
    // All of them, or fewer with the reason (at most one fewer than the cores start).
    if (probe.workersRequested === n && probe.workersRunning > 0 && (probe.workersRunning === n || probe.workersReason)) return { text, running: probe.workersRunning };
    if (probe.workersRequested === n && probe.workersReason) {
      throw new Error(`browser-bench: ${n} worker(s) asked for, none run: ${probe.workersReason} (the story reads "${text}")`);
    }
    if (Date.now() > deadline) throw new Error(`browser-bench: ${n} worker(s) did not start within 60 s; the story reads "${text}"`);
    await page.waitForTimeout(100);
  }
}

/**
 * Frames per second over the timed frames: the intervals between consecutive samples of one drop
 * (the reset between drops, and the wait for the workers after it, are no frame interval).
 */
function frameRate(samples) {
  const intervals = [];
  for (let i = 1; i < samples.length; i++) {
    if (samples[i].drop === samples[i - 1].drop) intervals.push(samples[i].t - samples[i - 1].t);
  }
  const total = intervals.reduce((a, b) => a + b, 0);
  return { fps: total > 0 ? (1000 * intervals.length) / total : null, intervals: summary(intervals) };
}

function parseArgs(argv) {
  const out = { frames: 150, warmup: 30, workers: 0, out: null };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = inline ?? argv[++i];
    if (flag === '--frames' || flag === '--warmup') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1) usage(`${flag} must be a positive integer, got ${JSON.stringify(value)}`);
      out[flag.slice(2)] = n;
    } else if (flag === '--workers') {
      const n = Number(value);
      // The story's control goes to 4; the engine takes up to 256.
      if (!Number.isInteger(n) || n < 0 || n > 4) usage(`--workers must be an integer from 0 to 4, got ${JSON.stringify(value)}`);
      out.workers = n;
    } else if (flag === '--out') out.out = value;
    else usage(`unknown option ${JSON.stringify(argv[i])}`);
  }
  // Each worker count has its own file, so that a run with workers does not overwrite the 0 one.
  out.out ??= join(here, '..', 'results', out.workers > 0 ? `browser-workers-${out.workers}.json` : 'browser.json');
  return out;
}

function usage(message) {
  console.error(`browser-bench: ${message}\nusage: node src/browser-bench.mjs [--frames N] [--warmup N] [--workers N] [--out FILE]`);
  process.exit(2);
}

function sorted(xs) {
  return [...xs].sort((a, b) => a - b);
}
function quantile(xs, q) {
  if (xs.length === 0) return null;
  const s = sorted(xs);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))];
}
function median(xs) {
  return quantile(xs, 0.5);
}
function mean(xs) {
  return xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : null;
}
function summary(xs) {
  return { median: median(xs), p10: quantile(xs, 0.1), p90: quantile(xs, 0.9), n: xs.length };
}
function fmt(x) {
  return x == null ? '–' : x.toFixed(2);
}
