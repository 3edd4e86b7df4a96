/**
 * One scene's run: the checked step, and the ways an action is applied and judged (a valid call
 * that must succeed, an invalid one that must be rejected without a trace, a step meant to fail).
 * Every failure is recorded with the scene's seed and its trace, and ends the scene.
 */
import { Space, type Body } from '@fulcrum/physics';
import { describeError, isDocumented, matches, signature, type Expected } from './errors.js';
import { driversReaching } from './drivers.js';
import { combined, hashDiff, hashEqual, hashWorld, type StateHash } from './hash.js';
import type { Family } from './scene.js';
import type { TraceEntry, World } from './world.js';

/**
 * A step that throws because a hook threw or wrote NaN (injected on purpose) must leave every
 * body, constraint impulse and read-out, the contacts and the sleep state as before it
 * (packages/physics/README.md, the step's stage 10): one that does not fails the run. False
 * counts and reports them only.
 */
export const STRICT_ATOMIC = true;

/** Speeds that no valid scene reaches. */
export const BLOW_UP_SPEED = 1e6;
export const BLOW_UP_SPIN = 1e9;
/** How many seeds of undriven scenes at a speed cap a run keeps for its report. */
const CAP_SEEDS_KEPT = 8;
/** A speed within this fraction of a cap is at it (the cap scales the velocity: round-off). */
const AT_CAP = 1 - 1e-9;
/**
 * A diagnostic switch (`npm run fuzz -- --caps-fail`): an undriven scene whose body reaches a default
 * speed cap fails as a blow-up, so that it is written out, shrunk and replayed like one.
 */
export const capsFail = (): boolean => typeof process !== 'undefined' && process.env.FUZZ_CAPS_FAIL === '1';
/**
 * Whether body b, which the solver moves, is at a default speed cap after a step of dt in vi
 * substeps: 400 m/s, or π/4 rad per substep where that is 188 rad/s or more (with one substep at
 * 30 Hz it is 24 rad/s, which the scenes' own initial spins nearly reach).
 */
export function atDefaultCap(b: Body, dt: number, vi: number): { speed: boolean; spin: boolean } {
  if (b.type !== 'dynamic') return { speed: false, spin: false };
  const v = b.velocity;
  const spinCap = (DEFAULT_CAPS.turn * vi) / dt;
  return {
    speed: b.allowMovement && Math.hypot(v.x, v.y) >= DEFAULT_CAPS.speed * AT_CAP,
    spin: b.rotationCapped && spinCap >= DEFAULT_CAPS.turn * SUBSTEP_RATE_COUNTED * AT_CAP && Math.abs(b.angularVel) >= spinCap * AT_CAP,
  };
}
/** The substep rate (1/s) below which the rotation cap is not counted: 4 substeps at 60 Hz, the defaults. */
const SUBSTEP_RATE_COUNTED = 4 * 60;
/** The engine's default caps: maxLinearSpeed (m/s) and maxRotationPerSubstep (rad). */
const DEFAULT_CAPS = (() => {
  const s = new Space();
  return { speed: s.maxLinearSpeed, turn: s.maxRotationPerSubstep };
})();

export type Category =
  | 'nan'
  | 'divergence'
  | 'blow-up'
  | 'unexpected-throw'
  | 'wrong-error'
  | 'invalid-accepted'
  | 'half-applied'
  | 'query-changed-state'
  | 'non-atomic'
  | 'nondeterministic';

export const CATEGORIES: readonly Category[] = ['nan', 'divergence', 'blow-up', 'unexpected-throw', 'wrong-error', 'invalid-accepted', 'half-applied', 'query-changed-state', 'non-atomic', 'nondeterministic'];

export interface Failure {
  category: Category;
  seed: number;
  index: number;
  family: Family;
  /** Steps taken when it happened. */
  step: number;
  message: string;
  /** For a throw: the error's signature (errors.ts), which a minimised repro must reproduce. */
  signature?: string;
  trace: TraceEntry[];
}

/** A failed step whose cause was injected, and what it left behind. */
export interface FaultRecord {
  kind: string;
  /** Bodies' pose or velocity differ from before the step. */
  motion: boolean;
  /** Constraints' impulse read-outs differ. */
  impulses: boolean;
  /** Anything else observable differs (sleep flags, contact count). */
  other: string[];
}

export class Stats {
  scenes = 0;
  steps = 0;
  valid = new Map<string, number>();
  /** Read-only calls (queries, read-outs, debugDraw): valid, and must change nothing. */
  queries = new Map<string, number>();
  invalid = new Map<string, number>();
  coverage = new Map<string, number>();
  counts = Object.fromEntries(CATEGORIES.map((c) => [c, 0])) as Record<Category, number>;
  /** Steps meant to fail (deferred rejections, injected faults) that did. */
  failedSteps = 0;
  /** Injected faults that were armed but whose hook was not called (asleep, batched, inactive). */
  notTriggered = 0;
  /** Failed steps caused by a hook (injected): those that left bodies or impulses changed. */
  faultSteps = 0;
  nonAtomicMotion = 0;
  nonAtomicImpulses = 0;
  nonAtomicOther = 0;
  nonAtomicKinds = new Map<string, number>();
  determinismChecked = 0;
  determinismMismatched = 0;
  /** Blow-ups whose body a driver reaches through constraints (drivers.ts); counted in counts['blow-up'] too. */
  drivenBlowUps = 0;
  /**
   * Scenes in which a body reached a speed cap (Space.maxLinearSpeed, maxRotationPerSubstep): not
   * failures, since the caps are what keeps some valid scenes finite, but the trace of what they
   * hold back. Undriven ones (no driver reaches the body) are where the solver, not the scene,
   * wanted to go faster; their seeds (the first few) are kept for a look.
   */
  speedCapScenes = 0;
  speedCapUndriven = 0;
  spinCapScenes = 0;
  spinCapUndriven = 0;
  capUndrivenSeeds: number[] = [];
  elapsedMs = 0;

  bump(map: Map<string, number>, key: string, n = 1): void {
    map.set(key, (map.get(key) ?? 0) + n);
  }

  get validTotal(): number {
    let n = 0;
    for (const v of this.valid.values()) n += v;
    return n;
  }
  get queryTotal(): number {
    let n = 0;
    for (const v of this.queries.values()) n += v;
    return n;
  }
  get invalidTotal(): number {
    let n = 0;
    for (const v of this.invalid.values()) n += v;
    return n;
  }
  /** Failures that fail the run. */
  get failing(): number {
    return CATEGORIES.reduce((a, c) => a + (c === 'non-atomic' && !STRICT_ATOMIC ? 0 : this.counts[c]), 0);
  }

  merge(o: Stats): void {
    this.scenes += o.scenes;
    this.steps += o.steps;
    for (const [k, v] of o.valid) this.bump(this.valid, k, v);
    for (const [k, v] of o.queries) this.bump(this.queries, k, v);
    for (const [k, v] of o.invalid) this.bump(this.invalid, k, v);
    for (const [k, v] of o.coverage) this.bump(this.coverage, k, v);
    for (const c of CATEGORIES) this.counts[c] += o.counts[c];
    this.failedSteps += o.failedSteps;
    this.drivenBlowUps += o.drivenBlowUps;
    this.speedCapScenes += o.speedCapScenes;
    this.speedCapUndriven += o.speedCapUndriven;
    this.spinCapScenes += o.spinCapScenes;
    this.spinCapUndriven += o.spinCapUndriven;
    for (const seed of o.capUndrivenSeeds) if (this.capUndrivenSeeds.length < CAP_SEEDS_KEPT) this.capUndrivenSeeds.push(seed);
    this.notTriggered += o.notTriggered;
    this.faultSteps += o.faultSteps;
    this.nonAtomicMotion += o.nonAtomicMotion;
    this.nonAtomicImpulses += o.nonAtomicImpulses;
    this.nonAtomicOther += o.nonAtomicOther;
    for (const [k, v] of o.nonAtomicKinds) this.bump(this.nonAtomicKinds, k, v);
    this.determinismChecked += o.determinismChecked;
    this.determinismMismatched += o.determinismMismatched;
  }

  toJSON(): unknown {
    const m = (x: Map<string, number>): Record<string, number> => Object.fromEntries([...x].sort());
    return { ...this, valid: m(this.valid), queries: m(this.queries), invalid: m(this.invalid), coverage: m(this.coverage), nonAtomicKinds: m(this.nonAtomicKinds) };
  }

  static fromJSON(j: Record<string, unknown>): Stats {
    const s = new Stats();
    const map = (x: unknown): Map<string, number> => new Map(Object.entries(x as Record<string, number>));
    Object.assign(s, j, { valid: map(j.valid), queries: map(j.queries), invalid: map(j.invalid), coverage: map(j.coverage), nonAtomicKinds: map(j.nonAtomicKinds) });
    return s;
  }
}

export class SceneRun {
  readonly failures: Failure[] = [];
  /** Steps taken (successful or not). */
  steps = 0;
  /** A failure ended the scene. */
  dead = false;
  readonly faults: FaultRecord[] = [];

  constructor(
    readonly w: World,
    readonly stats: Stats,
    readonly seed: number,
    readonly index: number,
    readonly family: Family,
  ) {
    w.F.hashState = () => combined(hashWorld(w));
  }

  fail(category: Category, message: string, error?: unknown): void {
    this.stats.counts[category]++;
    this.failures.push({ category, seed: this.seed, index: this.index, family: this.family, step: this.steps, message, signature: error === undefined ? undefined : signature(error), trace: this.w.trace.slice() });
    if (category !== 'non-atomic') this.dead = true;
  }

  /** A call that must succeed. */
  valid(code: string, kind: string, counted: Map<string, number> | null = this.stats.valid): boolean {
    if (this.dead) return false;
    if (counted) this.stats.bump(counted, kind);
    try {
      this.w.run(code, kind);
    } catch (e) {
      this.fail('unexpected-throw', `a valid call threw (${kind}): ${describeError(e)}\n  ${code}`, e);
      return false;
    }
    return true;
  }

  /** The fuzz's own line (arming the fault injector): recorded, not counted as a call of the API. */
  harness(code: string, label: string): boolean {
    return this.valid(code, label, null);
  }

  /** A call that must succeed and change nothing observable (queries, read-outs). */
  query(code: string, kind: string): boolean {
    const before = hashWorld(this.w);
    if (!this.valid(code, kind, this.stats.queries)) return false;
    const after = hashWorld(this.w);
    if (!hashEqual(before, after)) {
      this.fail('query-changed-state', `a read-only call changed the state (${kind}; ${hashDiff(before, after).join(', ')}):\n  ${code}`);
      return false;
    }
    return true;
  }

  /** A call that must be rejected with `expected` and leave the observable state unchanged. */
  reject(code: string, kind: string, expected: Expected): boolean {
    if (this.dead) return false;
    this.stats.bump(this.stats.invalid, kind);
    this.w.trace.push({ t: 'reject', code, label: kind });
    const before = hashWorld(this.w);
    let error: unknown;
    let threw = false;
    try {
      this.w.exec(code);
    } catch (e) {
      threw = true;
      error = e;
    }
    if (!threw) {
      this.fail('invalid-accepted', `an invalid call was accepted (${kind}):\n  ${code}`);
      return false;
    }
    if (!this.judgeError(error, expected, kind, code)) return false;
    const after = hashWorld(this.w);
    if (!hashEqual(before, after)) {
      this.fail('half-applied', `a rejected call changed the state (${kind}; ${hashDiff(before, after).join(', ')}): ${describeError(error)}\n  ${code}`);
      return false;
    }
    return true;
  }

  private judgeError(error: unknown, expected: Expected, kind: string, code: string): boolean {
    if (matches(error, expected)) return true;
    if (isDocumented(error)) this.fail('wrong-error', `expected ${expected}, got ${describeError(error)} (${kind})\n  ${code}`);
    else this.fail('unexpected-throw', `an undocumented error (${kind}): ${describeError(error)}\n  ${code}${error instanceof Error && error.stack ? `\n${stackHead(error.stack)}` : ''}`);
    return false;
  }

  /** One step that must succeed, then the checks. */
  step(): boolean {
    if (this.dead) return false;
    const w = this.w;
    this.steps++;
    this.stats.steps++;
    try {
      w.space.step(w.dt, w.vi, w.pi);
    } catch (e) {
      w.recordSteps(1);
      if (matches(e, 'divergence')) this.fail('divergence', `a valid step diverged: ${describeError(e)}`, e);
      else this.fail('unexpected-throw', `a valid step threw: ${describeError(e)}${e instanceof Error && e.stack ? `\n${stackHead(e.stack)}` : ''}`, e);
      return false;
    }
    w.recordSteps(1);
    return this.checkBodies() && this.checkHookResult();
  }

  /** Each body's pose after the last successful step (a position pass can move a body without a velocity). */
  private lastPose = new Map<Body, [number, number, number]>();

  /**
   * After every successful step: every body finite, no body faster than a valid scene allows,
   * whether by its velocity or by how far the step moved it (the position passes move bodies
   * directly: a jump of 1e6·dt metres or 1e9·dt radians in one step is a blow-up too).
   */
  checkBodies(): boolean {
    const w = this.w;
    const space = w.space;
    const dt = w.dt;
    for (const n of w.bodies) {
      const b = w.v[n] as Body;
      const v = b.velocity;
      const values = [b.x, b.y, b.rotation, v.x, v.y, b.angularVel];
      if (!values.every(Number.isFinite)) {
        this.fail('nan', `${n} (Body#${b.id}) is not finite after step ${this.steps}: position (${b.x}, ${b.y}), rotation ${b.rotation}, velocity (${v.x}, ${v.y}), angularVel ${b.angularVel}`);
        return false;
      }
      if (b.space !== space) continue;
      const speed = Math.hypot(v.x, v.y);
      if (speed > BLOW_UP_SPEED || Math.abs(b.angularVel) > BLOW_UP_SPIN) {
        this.blowUp(b, `${n} (Body#${b.id}, ${b.type}, ${b.mass.toPrecision(3)} kg) reached ${speed.toPrecision(3)} m/s, ${b.angularVel.toPrecision(3)} rad/s at step ${this.steps}`);
        return false;
      }
      this.noteCaps(b);
      if (this.dead) return false;
      const last = this.lastPose.get(b);
      if (last !== undefined) {
        const moved = Math.hypot(b.x - last[0], b.y - last[1]);
        const turned = Math.abs(b.rotation - last[2]);
        if (moved > BLOW_UP_SPEED * dt || turned > BLOW_UP_SPIN * dt) {
          this.blowUp(b, `${n} (Body#${b.id}, ${b.type}, ${b.mass.toPrecision(3)} kg) jumped ${moved.toPrecision(3)} m and ${turned.toPrecision(3)} rad in step ${this.steps} (at ${speed.toPrecision(3)} m/s, ${b.angularVel.toPrecision(3)} rad/s)`);
          return false;
        }
        last[0] = b.x;
        last[1] = b.y;
        last[2] = b.rotation;
      } else this.lastPose.set(b, [b.x, b.y, b.rotation]);
    }
    return true;
  }

  private sawSpeedCap = false;
  private sawSpinCap = false;

  /** Counts the scene once for each speed cap a body the solver moves reached (Stats.speedCapScenes). */
  private noteCaps(b: Body): void {
    const at = atDefaultCap(b, this.w.dt, this.w.vi);
    const atSpeedCap = at.speed && !this.sawSpeedCap;
    const atSpinCap = at.spin && !this.sawSpinCap;
    if (!atSpeedCap && !atSpinCap) return;
    const undriven = driversReaching(this.w.space, b).length === 0;
    if (undriven && !this.sawSpeedCap && !this.sawSpinCap && this.stats.capUndrivenSeeds.length < CAP_SEEDS_KEPT) this.stats.capUndrivenSeeds.push(this.seed);
    if (undriven && capsFail()) this.blowUp(b, `${atSpeedCap ? `reached the speed cap, ${DEFAULT_CAPS.speed} m/s` : 'reached the rotation cap'} at step ${this.steps} (${b.type}, ${b.mass.toPrecision(3)} kg, ${b.angularVel.toPrecision(3)} rad/s)`);
    if (atSpeedCap) {
      this.sawSpeedCap = true;
      this.stats.speedCapScenes++;
      if (undriven) this.stats.speedCapUndriven++;
    }
    if (atSpinCap) {
      this.sawSpinCap = true;
      this.stats.spinCapScenes++;
      if (undriven) this.stats.spinCapUndriven++;
    }
  }

  /** A blow-up of `b`, with the drivers its constraints reach (drivers.ts) named in the message. */
  private blowUp(b: Body, message: string): void {
    const drivers = driversReaching(this.w.space, b);
    if (drivers.length) this.stats.drivenBlowUps++;
    this.fail('blow-up', `${message}; ${drivers.length ? `driven by ${drivers.join(', ')}` : 'no driver reaches it'}`);
  }

  /** An armed in-hook action that fired during a successful step: judge what it did. */
  private checkHookResult(): boolean {
    const F = this.w.F;
    const pending = this.pendingHook;
    if (pending === null || !F.fired) return true;
    this.pendingHook = null;
    const r = F.result;
    if (pending.mode === 'valid') {
      if (r.error !== undefined) {
        this.fail('unexpected-throw', `a change the docs allow from inside a hook threw (${pending.kind}): ${describeError(r.error)}`, r.error);
        return false;
      }
      return true;
    }
    if (pending.mode === 'mutate-caught') {
      if (r.accepted) {
        this.fail('invalid-accepted', `a mutation from inside a hook while the space steps was accepted (${pending.kind})`);
        return false;
      }
      if (!this.judgeError(r.error, 'input', pending.kind, '(inside a hook)')) return false;
      if (r.changed) {
        this.fail('half-applied', `a mutation rejected inside a hook changed the state (${pending.kind}): ${describeError(r.error)}`);
        return false;
      }
    }
    return true;
  }

  /** An armed in-hook action ('valid' or 'mutate-caught') to judge after the next step. */
  pendingHook: { mode: 'valid' | 'mutate-caught'; kind: string } | null = null;

  /**
   * One step that must fail with `expected` (a deferred rejection, an injected fault).
   * `atomic`: 'strict' when the docs promise nothing moved (validation before the step), 'hook'
   * when the failure comes from inside the step (the known gap: counted, not failed).
   * Returns 'failed' (as it should), 'ran' (the fault did not fire: a normal checked step), or
   * 'dead'.
   */
  stepExpectingFailure(kind: string, expected: Expected, atomic: 'strict' | 'hook', fired: () => boolean = () => true): 'failed' | 'ran' | 'dead' {
    if (this.dead) return 'dead';
    const w = this.w;
    this.stats.bump(this.stats.invalid, kind);
    const before = hashWorld(w);
    this.steps++;
    this.stats.steps++;
    let error: unknown;
    let threw = false;
    try {
      w.space.step(w.dt, w.vi, w.pi);
    } catch (e) {
      threw = true;
      error = e;
    }
    if (!threw) {
      w.recordSteps(1);
      if (fired()) {
        this.fail('invalid-accepted', `a step that should have failed (${kind}) succeeded`);
        return 'dead';
      }
      this.stats.notTriggered++;
      return this.checkBodies() && this.checkHookResult() ? 'ran' : 'dead';
    }
    w.trace.push({ t: 'step-throws', label: kind });
    if (!this.judgeError(error, expected, kind, '(step)')) return 'dead';
    this.stats.failedSteps++;
    const after = hashWorld(w);
    if (atomic === 'strict') {
      if (!hashEqual(before, after)) {
        this.fail('half-applied', `a step rejected before anything moves changed the state (${kind}; ${hashDiff(before, after).join(', ')}): ${describeError(error)}`);
        return 'dead';
      }
      return 'failed';
    }
    this.recordFault(kind, before, after, error);
    return this.dead ? 'dead' : 'failed';
  }

  private recordFault(kind: string, before: StateHash, after: StateHash, error: unknown): void {
    const s = this.stats;
    s.faultSteps++;
    const motion = before.motion !== after.motion;
    const impulses = before.impulses !== after.impulses;
    const other = hashDiff(before, after).filter((k) => k !== 'motion' && k !== 'impulses');
    if (motion) s.nonAtomicMotion++;
    if (impulses) s.nonAtomicImpulses++;
    if (other.length) s.nonAtomicOther++;
    if (motion || impulses || other.length) {
      const what = [motion && 'bodies', impulses && 'impulses', other.length > 0 && `other state (${other.join(', ')}: sleep, contacts)`].filter(Boolean);
      s.bump(s.nonAtomicKinds, `${kind}${what.map((w) => ` [${w}]`).join('')}`);
      this.faults.push({ kind, motion, impulses, other });
      if (STRICT_ATOMIC) this.fail('non-atomic', `a failed step left ${what.join(' and ')} changed (${kind}): ${describeError(error)}`);
    }
  }
}

function stackHead(stack: string): string {
  return stack
    .split('\n')
    .slice(1, 6)
    .map((l) => `    ${l.trim()}`)
    .join('\n');
}
