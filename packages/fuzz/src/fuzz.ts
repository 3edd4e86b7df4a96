/**
 * The fuzz: scenes from seeds, stepped with random valid and invalid actions between steps, every
 * check after every step; the figures of a run; determinism (a subset run twice).
 */
import type { Constraint } from '@fulcrum/physics';
import { describeError } from './errors.js';
import { deferredRejection, hookFault, inHookMutation } from './faults.js';
import { combined, hashWorld } from './hash.js';
import { invalidInput } from './invalid.js';
import { Rng, sceneSeed } from './rng.js';
import { SceneRun, Stats, type Failure } from './run.js';
import { buildScene, FAMILIES, type Family } from './scene.js';
import { napeFixups, validMutation } from './valid.js';
import { World } from './world.js';

export interface FuzzOptions {
  scenes: number;
  steps: number;
  seed: number;
  /** Every n-th scene is run twice and its final hash compared (0: none). */
  determinismEvery?: number;
  /** Only these families (default: all, picked by the scene's seed). */
  families?: readonly Family[];
  /** Progress callback, after each scene. */
  progress?: (done: number, stats: Stats) => void;
  /** Which scenes to run: index → run it (for splitting a run across workers). */
  shard?: (index: number) => boolean;
  /** Each scene's final hash, as it finishes. */
  onScene?: (index: number, hash: string) => void;
}

export interface SceneResult {
  seed: number;
  index: number;
  family: Family;
  hash: string;
  failures: Failure[];
  steps: number;
}

/** How often something happens between steps (per step, on average). */
const ACTION_RATE = 0.1;

/** One event between steps: valid mutation, invalid input, a fault, a step-parameter change. */
function action(run: SceneRun, rng: Rng): boolean {
  const what = rng.weighted([
    [50, 'valid'],
    [30, 'invalid'],
    [8, 'fault'],
    [6, 'in-hook'],
    [5, 'deferred'],
    [1, 'step-params'],
  ] as const);
  switch (what) {
    case 'valid':
      return validMutation(run, rng);
    case 'invalid': {
      // Invalid calls change nothing (when the engine is right), so they come in bursts.
      const n = rng.int(1, 4);
      for (let i = 0; i < n; i++) if (!invalidInput(run, rng)) return false;
      return true;
    }
    case 'fault':
      return hookFault(run, rng);
    case 'in-hook':
      return inHookMutation(run, rng);
    case 'deferred':
      return deferredRejection(run, rng);
    case 'step-params': {
      const w = run.w;
      w.dt = rng.weighted([[1, 1 / 30], [6, 1 / 60], [2, 1 / 120], [1, 1 / 240]] as const);
      w.vi = rng.weighted([[1, 1], [2, 2], [6, 4], [2, 8]] as const);
      w.pi = rng.weighted([[1, 0], [2, 1], [6, 2], [1, 4]] as const);
      w.trace.push({ t: 'step-params', dt: w.dt, vi: w.vi, pi: w.pi });
      run.stats.bump(run.stats.valid, 'Space.step(dt, velocityIterations, positionIterations) changed');
      return true;
    }
  }
}

/** Listeners that make valid changes when events arrive (after the step, where that is allowed). */
function listeners(run: SceneRun, rng: Rng): void {
  if (!rng.chance(0.5)) return;
  run.harness(`$evt = { n: 0 }`, 'listeners');
  if (rng.chance(0.6))
    run.valid(`$space.on('beginContact', (e) => { if (++$evt.n % 7 === 0 && e.bodyB.type === 'dynamic') e.bodyB.applyImpulse([0, 0.5 * e.bodyB.mass]); })`, 'Space.on (a listener that makes changes)');
  if (rng.chance(0.4)) run.valid(`$space.on('endContact', (e) => { if (++$evt.n % 11 === 0 && e.bodyA.type === 'dynamic') e.bodyA.angularVel = 1; })`, 'Space.on (a listener that makes changes)');
  if (rng.chance(0.4)) run.valid(`$space.on('sleep', (e) => { if (++$evt.n % 3 === 0) e.bodies[0].velocity = [0, 1]; })`, 'Space.on (a listener that makes changes)');
  if (rng.chance(0.3)) run.valid(`$space.on('wake', (e) => { $evt.n += e.bodies.length; })`, 'Space.on (a listener that makes changes)');
  if (rng.chance(0.5))
    run.valid(`$space.on('constraintBreak', (e) => { if (++$evt.n % 2 === 0 && e.constraint.space === null && e.constraint.bodies.every((b) => b.space === $space)) $space.addConstraint(e.constraint); })`, 'Space.on (a listener that makes changes)');
}

/** Counts what a scene exercised (shape kinds, constraint kinds and modes, body types). */
function coverage(run: SceneRun): void {
  const w = run.w;
  const s = run.stats;
  for (const n of w.shapes) s.bump(s.coverage, `shape ${w.shape(n).kind}`);
  for (const n of w.bodies) s.bump(s.coverage, `body ${w.body(n).type}`);
  for (const i of w.constraints) {
    const c = w.constraint(i.name) as Constraint & Record<string, unknown>;
    s.bump(s.coverage, `constraint ${i.kind}`);
    s.bump(s.coverage, `constraint ${i.kind} ${c.stiff ? 'stiff' : 'soft'}`);
    if ('jointMin' in c) s.bump(s.coverage, `constraint ${i.kind} ${c.jointMin === c.jointMax ? 'equality' : 'limited'}`);
    if (Number.isFinite(c.maxForce)) s.bump(s.coverage, `constraint ${i.kind} maxForce`);
    if (i.kind.startsWith('user:')) s.bump(s.coverage, `user constraint ${(c as unknown as { packedState: boolean }).packedState ? 'packed' : 'unpacked'}`);
  }
}

export function runScene(seed: number, index: number, steps: number, stats: Stats, opts: { families?: readonly Family[] } = {}): SceneResult {
  const rng = new Rng(seed);
  const family = rng.pick(opts.families ?? FAMILIES);
  const w = new World();
  const run = new SceneRun(w, stats, seed, index, family);
  stats.scenes++;
  try {
    buildScene(w, rng.fork(), family);
  } catch (e) {
    run.fail('unexpected-throw', `building the scene threw: ${describeError(e)}${e instanceof Error && e.stack ? `\n${e.stack.split('\n').slice(1, 6).join('\n')}` : ''}`, e);
  }
  const arng = rng.fork();
  // A Nape-form constraint (hand-written K) between two bodies that cannot move has K = 0, which
  // the engine rejects by design: deactivate it, as its user would have to.
  if (!run.dead) napeFixups(run);
  if (!run.dead) listeners(run, arng.fork());
  while (!run.dead && run.steps < steps) {
    if (arng.chance(ACTION_RATE)) {
      try {
        action(run, arng);
      } catch (e) {
        // A bug of the fuzz itself (its generators threw): report it as such, never hide it.
        run.fail('unexpected-throw', `the fuzz's own code threw: ${describeError(e)}${e instanceof Error && e.stack ? `\n${e.stack.split('\n').slice(1, 6).join('\n')}` : ''}`, e);
      }
      continue;
    }
    run.step();
  }
  coverage(run);
  let hash: string;
  try {
    hash = combined(hashWorld(w));
  } catch (e) {
    hash = `unhashable: ${describeError(e)}`;
  }
  return { seed, index, family, hash, failures: run.failures, steps: run.steps };
}

export interface FuzzResult {
  stats: Stats;
  failures: Failure[];
  /** A digest of every scene's final hash: the same seed and sizes give the same digest. */
  digest: string;
  /** Determinism mismatches: scene seed and both hashes. */
  mismatches: { seed: number; index: number; first: string; second: string }[];
}

export function runFuzz(o: FuzzOptions): FuzzResult {
  const stats = new Stats();
  const failures: Failure[] = [];
  const mismatches: FuzzResult['mismatches'] = [];
  const t0 = performance.now();
  let digest = 0x811c9dc5;
  let done = 0;
  for (let i = 0; i < o.scenes; i++) {
    if (o.shard && !o.shard(i)) continue;
    const seed = sceneSeed(o.seed, i);
    const r = runScene(seed, i, o.steps, stats, { families: o.families });
    failures.push(...r.failures);
    o.onScene?.(i, r.hash);
    for (let k = 0; k < r.hash.length; k++) digest = Math.imul(digest ^ r.hash.charCodeAt(k), 0x01000193);
    if (o.determinismEvery && i % o.determinismEvery === 0) {
      const again = runScene(seed, i, o.steps, new Stats(), { families: o.families });
      stats.determinismChecked++;
      const same = again.hash === r.hash && again.steps === r.steps && again.failures.map((f) => f.category).join() === r.failures.map((f) => f.category).join();
      if (!same) {
        stats.determinismMismatched++;
        stats.counts.nondeterministic++;
        mismatches.push({ seed, index: i, first: r.hash, second: again.hash });
        failures.push({ category: 'nondeterministic', seed, index: i, family: r.family, step: r.steps, message: `the same seed gave ${r.hash} (${r.steps} steps) and then ${again.hash} (${again.steps} steps)`, trace: [] });
      }
    }
    done++;
    o.progress?.(done, stats);
  }
  stats.elapsedMs = performance.now() - t0;
  return { stats, failures, digest: (digest >>> 0).toString(16).padStart(8, '0'), mismatches };
}

