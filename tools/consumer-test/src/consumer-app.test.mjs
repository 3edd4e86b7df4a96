/**
 * The packages as an app gets them: the tarballs (packed by global-setup.mjs) installed into a new
 * Vite + React + TypeScript app in the system's temp folder, with the lowest React,
 * react-three-fiber and three that @fulcrum/react supports; then tsc, a Vite build of each variant
 * (baseline, core, symbolic), Chromium, and the bundle sizes. The steps run in order and share
 * the app; a step whose predecessor failed fails at once.
 */
import { canvasStats, launchBrowser, openPage, readProbe, serveStatic, waitForProbe } from '@fulcrum/browser-testing';
import { existsSync, lstatSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { addedGzipBytes, BUDGETS, measureBundle, PARSER_MARKER, RESULTS_FILE, writeResults } from './bundle-sizes.mjs';
import { buildVariant, installApp, installedVersion, listFiles, typecheckApp, VARIANTS, writeConsumerApp } from './consumer-app.mjs';
import { appDependencies, lowestVersion, PEERS, TOOLS } from './lowest-versions.mjs';
import { readmeDrift, README_FILE } from './readme-section.mjs';
import { REPO_ROOT, secondsSince } from './workspace.mjs';

const packed = inject('packed');
const APP = join(inject('consumerRoot'), 'app');
const reactManifest = JSON.parse(readFileSync(join(packed.find((p) => p.name === '@fulcrum/react').extracted, 'package.json'), 'utf8'));

/** Seconds per step, printed at the end. */
const seconds = { pack: inject('packSeconds') };
/** The steps done so far: each step requires the ones it builds on. */
const done = new Set();
function requires(...steps) {
  const missing = steps.filter((s) => !done.has(s));
  if (missing.length > 0) throw new Error(`not run: the ${missing.join(' and ')} step failed`);
}
const modules = {};

describe('a new Vite app with the packed packages', () => {
  it('installs the tarballs and the lowest supported versions, outside the workspace, with one npm install', async () => {
    expect(relative(REPO_ROOT, APP).split(sep)[0], 'the app is outside the repository').toBe('..');
    writeConsumerApp(APP, appDependencies({ appDir: APP, packed, reactPeers: reactManifest.peerDependencies }));
    const start = performance.now();
    await installApp(APP);
    seconds.install = secondsSince(start);

    for (const pkg of packed) {
      // A real directory with the tarball's files, not a link into the workspace.
      const installed = join(APP, 'node_modules', pkg.name);
      expect(lstatSync(installed).isDirectory() && !lstatSync(installed).isSymbolicLink(), `${pkg.name} is a directory`).toBe(true);
      expect(listFiles(installed)).toEqual(pkg.files);
      // One copy of each: @fulcrum/react's and @fulcrum/symbolic's ^0.1.0 use the tarball installed beside them.
      expect(existsSync(join(installed, 'node_modules')), `${pkg.name} has no node_modules of its own`).toBe(false);
    }
    for (const peer of PEERS) expect(installedVersion(APP, peer), peer).toBe(lowestVersion(reactManifest.peerDependencies[peer]));
    expect(installedVersion(APP, 'react-dom')).toBe(installedVersion(APP, 'react'));
    done.add('install');
  });

  it('type-checks with tsc --noEmit', async () => {
    requires('install');
    const start = performance.now();
    await typecheckApp(APP);
    seconds.tsc = secondsSince(start);
  });

  it('builds each variant with Vite', async () => {
    requires('install');
    const start = performance.now();
    for (const variant of Object.keys(VARIANTS)) modules[variant] = await buildVariant(APP, variant);
    seconds.build = secondsSince(start);
    done.add('build');
  });

  it('bundles modules of the app folder only: Fulcrum\'s from the packages\' dist/, @fulcrum/symbolic only where it is used', () => {
    requires('build');
    for (const [variant, ids] of Object.entries(modules)) {
      // Virtual modules start with \0; anything else must be a file of the app (an optional peer
      // a dependency lacks shows up as Vite's `__vite-optional-peer-dep:` stub and fails here too).
      expect(ids.filter((id) => !id.startsWith('\0') && !id.startsWith(APP + sep)), variant).toEqual([]);
      const fulcrum = ids.filter((id) => id.includes(`${sep}node_modules${sep}@fulcrum${sep}`));
      expect(fulcrum.filter((id) => !/[\\/]node_modules[\\/]@fulcrum[\\/][a-z]+[\\/]dist[\\/]/.test(id)), `${variant}: only dist/ files`).toEqual([]);
      const fromPackage = (name) => fulcrum.some((id) => id.includes(`${sep}@fulcrum${sep}${name}${sep}`));
      expect([fromPackage('physics'), fromPackage('react'), fromPackage('symbolic')], variant).toEqual(
        { baseline: [false, false, false], core: [true, true, false], symbolic: [true, true, true] }[variant],
      );
    }
  });
});

describe('the built app in Chromium', () => {
  let browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  /** Opens a built variant, runs `check(page)`, and fails on any console error or uncaught exception. */
  async function inBrowser(variant, check) {
    requires('build');
    const start = performance.now();
    const server = await serveStatic(join(APP, 'dist', variant));
    const opened = await openPage(browser, `${server.url}/${variant}.html`);
    try {
      await waitForProbe(opened.page, (p) => p.frames > 0 && Array.isArray(p.positions), { timeout: 30_000 });
      const stats = await canvasStats(opened.page, 'canvas', { artifact: `consumer-${variant}.png` });
      expect(stats.differing, 'pixels drawn').toBeGreaterThan(500);
      await check(opened.page);
      opened.assertNoErrors(`${variant} variant`);
    } finally {
      await opened.close();
      await server.close();
      seconds.browser = (seconds.browser ?? 0) + secondsSince(start);
    }
  }

  it('core: the canvas draws and the dropped bodies fall', () =>
    inBrowser('core', async (page) => {
      const { positions } = await readProbe(page);
      expect(positions).toHaveLength(4);
      // Some body a metre below where it was: they fall onto the floor.
      await waitForProbe(page, (p, start) => p.positions.some(([, y], i) => y < start[i][1] - 1), { arg: positions, timeout: 20_000 });
    }));

  it('symbolic: the canvas draws and the <SymbolicConstraint> swings the pendulum at its rod length', () =>
    inBrowser('symbolic', async (page) => {
      // Swung past the pin, and at the rod's length (3 m) all the way: without the rod the bob drops onto the floor.
      const probe = await waitForProbe(page, (p) => p.pendulum && p.pendulum.x < p.pendulum.pinX - 1, { timeout: 20_000 });
      expect(probe.pendulum.worstRodError).toBeLessThan(0.01);
    }));
});

describe('the bundle', () => {
  const bundles = {};
  let results;
  // Measured and written once the builds are there, whatever the checks below find: the results
  // file always has the last build's sizes.
  beforeAll(() => {
    if (!done.has('build')) return;
    for (const variant of Object.keys(VARIANTS)) bundles[variant] = measureBundle(join(APP, 'dist', variant));
    const installed = ['react', 'react-dom', '@react-three/fiber', 'three', '@types/react', '@types/react-dom', '@types/three', ...TOOLS];
    results = {
      about: 'Written by tools/consumer-test (npm test): the Vite production build of its app, one per variant, with the lowest supported versions. gzip at zlib\'s default level; kB = 1000 bytes.',
      supported: Object.fromEntries(PEERS.map((peer) => [peer, reactManifest.peerDependencies[peer]])),
      installed: Object.fromEntries(installed.map((name) => [name, installedVersion(APP, name)])),
      variants: Object.fromEntries(
        Object.entries(bundles).map(([variant, { files, minifiedBytes, gzipBytes }]) => [variant, { uses: VARIANTS[variant], files: files.length, minifiedBytes, gzipBytes }]),
      ),
    };
    writeResults(results);
    const added = addedGzipBytes(results.variants);
    const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
    console.log(
      `bundle sizes (gzip): baseline ${kB(bundles.baseline.gzipBytes)}, core ${kB(bundles.core.gzipBytes)} (+${kB(added.core)}), ` +
        `symbolic ${kB(bundles.symbolic.gzipBytes)} (+${kB(added.symbolic)}); budgets +${kB(BUDGETS.core)} and +${kB(BUDGETS.symbolic)}; written to ${relative(REPO_ROOT, RESULTS_FILE)}`,
    );
  });

  it('has @fulcrum/symbolic\'s parser only in the variant with a <SymbolicConstraint>', () => {
    requires('build');
    // The marker really is the parser's: it is in the packed parser module.
    const parser = join(APP, 'node_modules', '@fulcrum', 'symbolic', 'dist', 'lang', 'parser.js');
    expect(readFileSync(parser, 'utf8')).toContain(PARSER_MARKER);
    const withParser = Object.entries(bundles).filter(([, b]) => b.text.includes(PARSER_MARKER)).map(([variant]) => variant);
    expect(withParser).toEqual(['symbolic']);
  });

  it('stays within the budget: what @fulcrum/react and @fulcrum/symbolic each add, gzipped', () => {
    requires('build');
    const added = addedGzipBytes(results.variants);
    expect(added.core, '@fulcrum/react and @fulcrum/physics').toBeLessThanOrEqual(BUDGETS.core);
    expect(added.symbolic, '@fulcrum/symbolic and <SymbolicConstraint>').toBeLessThanOrEqual(BUDGETS.symbolic);
    // Both parts are really there (a budget met by an empty bundle proves nothing).
    expect(added.core).toBeGreaterThan(10_000);
    expect(added.symbolic).toBeGreaterThan(5_000);
  });

  it('has the README section that results/bundle-sizes.json generates (sizes within 2 %)', () => {
    requires('build');
    expect(readmeDrift(readFileSync(README_FILE, 'utf8'), results), 'run `npm run readme-sizes -w @fulcrum/consumer-test`').toEqual([]);
  });
});

afterAll(() => {
  const total = Object.values(seconds).reduce((sum, s) => sum + (s ?? 0), 0);
  const steps = Object.entries(seconds).map(([step, s]) => `${step} ${s} s`).join(', ');
  console.log(`consumer test: ${steps}; ${Math.round(total)} s in all`);
});
