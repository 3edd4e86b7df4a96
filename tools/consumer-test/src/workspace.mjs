// Where things are, and how this package runs a command: npm, tsc and vite as child processes
// with an environment cleaned of what npm and vitest set for themselves.
import { spawn } from 'node:child_process';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This package's folder (tools/consumer-test). */
export const PKG_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '..');
/** The monorepo's root. */
export const REPO_ROOT = resolve(PKG_DIR, '..', '..');
/** The Vite app template, copied into the temp folder by the test. */
export const FIXTURE_DIR = resolve(PKG_DIR, 'fixture');

/** The published packages, in dependency order (each one's workspace folder, relative to the root). */
export const LIBRARIES = Object.freeze([
  { name: '@fulcrum/physics', dir: 'packages/physics' },
  { name: '@fulcrum/symbolic', dir: 'packages/symbolic' },
  { name: '@fulcrum/react', dir: 'packages/react' },
]);

/**
 * The environment for a child command. Variables that npm sets for the script it runs
 * (`npm_config_*`, `npm_package_*`, `INIT_CWD`, …) would make an `npm install` in the temp app
 * act on the workspace; vitest's `NODE_ENV=test` would make Vite bundle React's development build
 * and npm skip dependencies. `overrides` are set last.
 */
export function childEnv(overrides = {}) {
  const env = {};
  for (const [key, value] of Object.entries(process.env)) {
    if (/^(npm_|INIT_CWD$|NODE_ENV$|VITEST)/i.test(key)) continue;
    env[key] = value;
  }
  return { ...env, ...overrides };
}

/**
 * Runs `command args` in `cwd` and resolves with its stdout; rejects with the command, its exit
 * code and the end of its output when it fails. Output is collected, not inherited, so that a
 * passing run prints nothing.
 */
export function run(command, args, { cwd, env = childEnv() }) {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code === 0) return resolvePromise(stdout);
      const tail = (text) => text.split('\n').slice(-40).join('\n');
      reject(new Error(`\`${command} ${args.join(' ')}\` in ${cwd} exited with ${code}\n--- stdout\n${tail(stdout)}\n--- stderr\n${tail(stderr)}`));
    });
  });
}

/** Seconds since `start` (a `performance.now()` value), to one decimal. */
export const secondsSince = (start) => Math.round((performance.now() - start) / 100) / 10;
