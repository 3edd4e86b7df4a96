// The command line of src/bench.mjs: options, their defaults, and npm's ways of passing them.
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { ENGINE_IDS } from './engines/index.mjs';
import { DEFAULT_SCENE_IDS, OPT_IN_SCENES, SCENE_IDS, SIZES } from './scenes.mjs';

/** `--compare`'s default scenes: those both builds have had since the baseline (Fulcrum's A–D, and G). */
export const COMPARE_SCENES = ['A', 'B', 'C', 'D', 'G'];

export const USAGE = `usage: node src/bench.mjs [options]
  --quick           small sizes (B 20 rows, C/J/K 20x20, D 40 links, G 100 links, L 100 bodies, M 5x5 pyramids),
                    20 warm-up + 60 timed steps, 1 repetition
  --repeat N        repetitions of the whole sweep (default 3; 1 with --quick), in alternating order
  --engines a,b     subset of: ${ENGINE_IDS.join(', ')}
  --scenes A,C      subset of: ${SCENE_IDS.join(', ')}
                    (default: all but ${OPT_IN_SCENES.join(', ')}, run only when named: --scenes M)
  --warmup N        warm-up steps (default 60; 20 with --quick)
  --steps N         timed steps (default 300; 60 with --quick)
  --timeout S       seconds before a pair is killed and reported as failed (default 300)
  --compare REF     Fulcrum at git REF against the working tree: REF is built in a temporary git worktree,
                    and each scene runs both builds alternately (default scenes ${COMPARE_SCENES.join(', ')})
  --workers N       the working tree's Fulcrum steps with N workers (Space.workers; default 0); with
                    --compare, the ref steps without, so the ratio is the parallel step's speed-up
  --out FILE        JSON output (default results/latest.json, results/quick.json with --quick,
                    results/partial.json for a full-size run of a subset, results/compare-<ref>.json with --compare)`;

/**
 * The root script is `npm run bench -w @fulcrum/bench`, so `npm run bench -- --quick` at the root reaches npm
 * as `… -w @fulcrum/bench --quick`: npm keeps the option for itself and passes it on only as the environment
 * variable npm_config_quick=true (with an "Unknown cli config" warning). Accept those, for `--quick` and for
 * the `--name=value` forms (npm turns `--name value` into name=true plus a stray positional argument).
 */
function npmConfigFallbacks(values, positionals, env) {
  if (!values.quick && env.npm_config_quick === 'true') values.quick = true;
  for (const k of ['repeat', 'engines', 'scenes', 'warmup', 'steps', 'compare', 'workers']) {
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

/**
 * The options of `argv` (without node and the script). `pkgDir` anchors relative --out paths;
 * `env` supplies npm's npm_config_* fallbacks. Throws on a usage error; `help: true` asks for USAGE.
 * With --compare, `out` is null unless given (the caller names it after the resolved ref).
 */
export function parseOptions(argv, { pkgDir = process.cwd(), env = process.env } = {}) {
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
      compare: { type: 'string' },
      workers: { type: 'string' },
      out: { type: 'string' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  npmConfigFallbacks(values, positionals, env);
  if (values.help) return { help: true };
  const int = (name, v, min) => {
    const n = Number(v);
    if (!Number.isInteger(n) || n < min) throw new Error(`--${name} must be an integer >= ${min}, got ${JSON.stringify(v)}`);
    return n;
  };
  const list = (v, all, norm, byDefault = all) => {
    if (v === undefined) return byDefault;
    const items = v.split(',').map((s) => norm(s.trim())).filter(Boolean);
    for (const it of items) if (!all.includes(it)) throw new Error(`unknown ${JSON.stringify(it)}; expected some of ${all.join(',')}`);
    return all.filter((x) => items.includes(x)); // canonical order
  };
  const quick = values.quick;
  const compare = values.compare ?? null;
  if (compare !== null) {
    if (!compare.trim() || compare.startsWith('-')) throw new Error(`--compare needs a git ref (a commit, branch or tag), got ${JSON.stringify(compare)}`);
    if (values.engines !== undefined) throw new Error('--compare runs Fulcrum only (the ref against the working tree): leave out --engines');
  }
  const engines = compare !== null ? ['fulcrum'] : list(values.engines, ENGINE_IDS, (s) => s.toLowerCase());
  const scenes = list(values.scenes, SCENE_IDS, sceneId, DEFAULT_SCENE_IDS);
  const effectiveScenes = compare !== null && values.scenes === undefined ? COMPARE_SCENES : scenes;
  // results/latest.json is the run of every engine on the default scenes, no more and no less (an
  // opt-in scene, M, goes to partial.json like any other subset).
  const subset = engines.length !== ENGINE_IDS.length || scenes.join() !== DEFAULT_SCENE_IDS.join();
  const defaultOut = compare !== null ? null : quick ? 'results/quick.json' : subset ? 'results/partial.json' : 'results/latest.json';
  const out = values.out ?? defaultOut;
  return {
    mode: quick ? 'quick' : 'full',
    sizes: quick ? SIZES.quick : SIZES.full,
    repeat: values.repeat !== undefined ? int('repeat', values.repeat, 1) : quick ? 1 : 3,
    warmup: values.warmup !== undefined ? int('warmup', values.warmup, 0) : quick ? 20 : 60,
    steps: values.steps !== undefined ? int('steps', values.steps, 1) : quick ? 60 : 300,
    timeoutSec: int('timeout', values.timeout, 1),
    engines,
    scenes: effectiveScenes,
    compare: compare?.trim() ?? null,
    workers: values.workers !== undefined ? int('workers', values.workers, 0) : 0,
    out: out === null ? null : resolve(pkgDir, out),
  };
}
