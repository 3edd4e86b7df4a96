// The bundle budget: what each variant of the consumer app ships, minified and gzipped, and how
// much the Fulcrum packages add to an app that has React, react-three-fiber and three already.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { PKG_DIR } from './workspace.mjs';

/** Written by the consumer test on every run; the root README's section is generated from it. */
export const RESULTS_FILE = join(PKG_DIR, 'results', 'bundle-sizes.json');

/**
 * Most that each part may add, gzipped, in bytes (kB = 1000 bytes, as Vite counts). About a
 * quarter above the sizes when the budget was set (75 kB and 38 kB): room for features, not for
 * a dependency or a second copy of the engine slipping in.
 */
export const BUDGETS = Object.freeze({
  /** @fulcrum/react and @fulcrum/physics: the core variant over the baseline. */
  core: 95_000,
  /** @fulcrum/symbolic and <SymbolicConstraint>: the symbolic variant over the core one. */
  symbolic: 50_000,
});

/**
 * A string that only @fulcrum/symbolic's parser (src/lang/parser.ts) contains: the app bundles
 * the parser exactly when this is in its JavaScript. The test checks that the packed parser has it.
 */
export const PARSER_MARKER = 'the limited expression (or the word constraint)';

/**
 * The JavaScript a built variant ships (every .js file under `distDir`): `{ files, minifiedBytes,
 * gzipBytes, text }`. Gzip at zlib's default level, as a server compresses on the fly.
 */
export function measureBundle(distDir) {
  const files = readdirSync(distDir, { recursive: true }).filter((f) => String(f).endsWith('.js')).sort();
  if (files.length === 0) throw new Error(`measureBundle: no .js file in ${distDir}`);
  const contents = files.map((f) => readFileSync(join(distDir, f)));
  return {
    files,
    minifiedBytes: contents.reduce((sum, c) => sum + c.length, 0),
    gzipBytes: contents.reduce((sum, c) => sum + gzipSync(c).length, 0),
    text: contents.map((c) => c.toString('utf8')).join('\n'),
  };
}

/** What each part adds, gzipped: `{ core, symbolic }` in bytes, from the variants' results. */
export function addedGzipBytes(variants) {
  return {
    core: variants.core.gzipBytes - variants.baseline.gzipBytes,
    symbolic: variants.symbolic.gzipBytes - variants.core.gzipBytes,
  };
}

/** Writes the results document. Nothing in it depends on the run's time, so it changes only when the sizes or versions do. */
export function writeResults(results) {
  writeFileSync(RESULTS_FILE, `${JSON.stringify(results, null, 2)}\n`);
}

export const readResults = (file = RESULTS_FILE) => JSON.parse(readFileSync(file, 'utf8'));
