// The consumer app: the fixture template copied into a folder of its own, its package.json
// written, installed with npm, type-checked with tsc and built with Vite, one build per variant.
import { copyFileSync, cpSync, existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { childEnv, FIXTURE_DIR, run } from './workspace.mjs';

/** The app's variants: each a page of the fixture (`<name>.html`), built on its own into dist/<name>. */
export const VARIANTS = Object.freeze({
  baseline: 'React, react-dom, react-three-fiber and three only: a <Canvas> with one mesh',
  core: '@fulcrum/react: a floor and four bodies',
  symbolic: '@fulcrum/react and a <SymbolicConstraint> from @fulcrum/react/symbolic (a pendulum)',
});

/**
 * Writes the app into `appDir`: the fixture, @fulcrum/browser-testing's probe as src/probe.js
 * (copied, because the app must install nothing from the workspace) and a package.json with
 * `dependencies`.
 */
export function writeConsumerApp(appDir, dependencies) {
  cpSync(FIXTURE_DIR, appDir, { recursive: true });
  const probe = createRequire(import.meta.url).resolve('@fulcrum/browser-testing/probe');
  copyFileSync(probe, join(appDir, 'src', 'probe.js'));
  copyFileSync(probe.replace(/\.mjs$/, '.d.ts'), join(appDir, 'src', 'probe.d.ts'));
  const manifest = { name: 'fulcrum-consumer-app', version: '0.0.0', private: true, type: 'module', dependencies };
  writeFileSync(join(appDir, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`);
}

/** One `npm install` from the registry (the npm cache first) and the local tarballs. */
export const installApp = (appDir) => run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline'], { cwd: appDir });

/** `tsc --noEmit` with the app's own TypeScript and tsconfig.json. */
export const typecheckApp = (appDir) => run(join(appDir, 'node_modules', '.bin', 'tsc'), ['--noEmit', '-p', '.'], { cwd: appDir });

/**
 * `vite build` of one variant with the app's own Vite, in production mode. Returns the ids of
 * the modules the bundle took in (what the fixture's module-list plugin wrote).
 */
export async function buildVariant(appDir, variant) {
  await run(join(appDir, 'node_modules', '.bin', 'vite'), ['build', '--logLevel', 'warn'], {
    cwd: appDir,
    env: childEnv({ APP_VARIANT: variant, NODE_ENV: 'production' }),
  });
  return JSON.parse(readFileSync(join(appDir, 'dist', variant, 'modules.json'), 'utf8'));
}

/** The version of `name` installed in the app, or null. */
export function installedVersion(appDir, name) {
  const manifest = join(appDir, 'node_modules', name, 'package.json');
  return existsSync(manifest) ? JSON.parse(readFileSync(manifest, 'utf8')).version : null;
}

/** Every file under `dir`, as paths relative to it with forward slashes, sorted. */
export function listFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1).split('\\').join('/'))
    .sort();
}
