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
 *
 * Usage: node src/browser-bench.mjs [--frames N] [--warmup N] [--out FILE]
 * Needs the built Storybook (`npm run bench:browser` builds it first).
 */
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { cpus } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { countRenderedFrames, launchBrowser, openPage, readProbe, serveStatic, waitForProbe } from '@fulcrum/browser-testing';

const here = dirname(fileURLToPath(import.meta.url));
const STATIC_DIR = join(here, '..', '..', '..', 'storybook', 'storybook-static');
const STORY_ID = 'scenes-instanced-bodies--two-thousand-boxes';
const COUNT = 2000;

const args = parseArgs(process.argv.slice(2));

if (!existsSync(join(STATIC_DIR, 'index.json'))) {
  console.error(`browser-bench: no built Storybook at storybook/storybook-static; run \`npm run bench:browser -w @fulcrum/bench\`, which builds it`);
  process.exit(2);
}

const server = await serveStatic(STATIC_DIR);
const browser = await launchBrowser();
try {
  const opened = await openPage(browser, `${server.url}/iframe.html?id=${STORY_ID}&viewMode=story&args=count:${COUNT}`);
  const { page } = opened;
  await waitForProbe(page, (p, n) => p.bodies >= n && p.frames > 0, { arg: COUNT + 1, timeout: 120_000 });
  const version = await page.evaluate(() => navigator.userAgent);

  // Warm-up (JIT, buffer growth), then N timed frames while the boxes fall and settle. The
  // scene sleeps after a few dozen frames, so the story's reset button drops a fresh set of
  // 2000 boxes until N frames are collected (the remount itself is not inside any timed span).
  await page.evaluate(() => { globalThis.__fulcrumTimings = []; });
  await collectFrames(page, args.warmup);
  await page.evaluate(() => { globalThis.__fulcrumTimings = []; });
  let drops = 1;
  while ((await page.evaluate(() => globalThis.__fulcrumTimings.length)) < args.frames) {
    await collectFrames(page, args.frames);
    if ((await page.evaluate(() => globalThis.__fulcrumTimings.length)) >= args.frames) break;
    await page.click('[data-testid="reset"]');
    await waitForProbe(page, (p) => p.awakeBodies > 0, { timeout: 120_000 });
    drops++;
  }
  const samples = (await page.evaluate(() => globalThis.__fulcrumTimings)).slice(0, args.frames);
  const probeDuring = await readProbe(page);

  // At rest: nothing awake, and demand mode renders nothing.
  const restStart = Date.now();
  await waitForProbe(page, (p) => p.awakeBodies === 0, { timeout: 300_000 });
  const restWaitS = (Date.now() - restStart) / 1000;
  const framesAtRest = await countRenderedFrames(page, 2000);
  opened.assertNoErrors(STORY_ID);
  await opened.close();

  const stepped = samples.filter((s) => s.steps > 0);
  const result = {
    date: new Date().toISOString(),
    browser: version,
    cpus: cpus().length,
    story: STORY_ID,
    bodies: COUNT,
    warmupFrames: args.warmup,
    drops,
    frames: samples.length,
    framesWithSteps: stepped.length,
    stepsPerFrame: { median: median(samples.map((s) => s.steps)), mean: mean(samples.map((s) => s.steps)) },
    physicsMsPerFrame: summary(samples.map((s) => s.physicsMs)),
    physicsMsPerStep: summary(stepped.map((s) => s.physicsMs / s.steps)),
    syncMsPerFrame: summary(samples.map((s) => s.syncMs)),
    physicsFrameCallbackMs: summary(samples.map((s) => s.frameMs)),
    awakeBodiesAtEndOfSample: probeDuring?.awakeBodies ?? null,
    secondsToRestAfterSample: restWaitS,
    framesRenderedAtRestIn2s: framesAtRest,
  };

  const row = (name, s) => `| ${name.padEnd(30)} | ${fmt(s.median)} | ${fmt(s.p10)} | ${fmt(s.p90)} |`;
  console.log(`\nReact layer, headless Chromium (${result.cpus} cores): ${COUNT} bodies in <InstancedBodies>, ${samples.length} frames (${drops} drops) after ${args.warmup} warm-up\n`);
  console.log('| per frame (ms)                 | median | p10 | p90 |');
  console.log('|---|---|---|---|');
  console.log(row('physics (all steps)', result.physicsMsPerFrame));
  console.log(row('physics per step', result.physicsMsPerStep));
  console.log(row('sync (instance matrices)', result.syncMsPerFrame));
  console.log(row('<Physics> frame callback', result.physicsFrameCallbackMs));
  console.log(`\nsteps per frame: median ${result.stepsPerFrame.median}, mean ${fmt(result.stepsPerFrame.mean)}`);
  console.log(`at rest (after ${fmt(restWaitS)} s more): ${framesAtRest} frames rendered in 2 s (frameloop="demand")`);

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

/** Waits until `n` samples exist or the scene is at rest (no more frames would come). */
async function collectFrames(page, n) {
  await page.waitForFunction(
    (n) => (globalThis.__fulcrumTimings?.length ?? 0) >= n || globalThis.__fulcrum?.awakeBodies === 0,
    n,
    { timeout: 300_000, polling: 100 },
  );
}

function parseArgs(argv) {
  const out = { frames: 150, warmup: 30, out: join(here, '..', 'results', 'browser.json') };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split('=', 2);
    const value = inline ?? argv[++i];
    if (flag === '--frames' || flag === '--warmup') {
      const n = Number(value);
      if (!Number.isInteger(n) || n < 1) usage(`${flag} must be a positive integer, got ${JSON.stringify(value)}`);
      out[flag.slice(2)] = n;
    } else if (flag === '--out') out.out = value;
    else usage(`unknown option ${JSON.stringify(argv[i])}`);
  }
  return out;
}

function usage(message) {
  console.error(`browser-bench: ${message}\nusage: node src/browser-bench.mjs [--frames N] [--warmup N] [--out FILE]`);
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
