/**
 * The quick fuzz (the full one is `npm run fuzz`): a fixed seed, every check of the full run, and
 * its figures printed. Each failing check names the seeds; `npm run fuzz -- --scene SEED
 * --minimize` writes a short repro of one.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { JOINT_KINDS, SYMBOLIC_KINDS, USER_KINDS } from './constraints.js';
import { runFuzz, type FuzzResult } from './fuzz.js';
import { INVALID_KINDS } from './invalid.js';
import { details, failureReport, summaryLine } from './report.js';
import { STRICT_ATOMIC, type Category } from './run.js';

export const QUICK = { scenes: 150, steps: 300, seed: 1, determinismEvery: 5 } as const;

/**
 * The quick run's scenes that still blow up (seeds), on the engine as of this list's commit; the
 * README says what each family is. None today.
 */
export const KNOWN_BLOW_UPS: readonly number[] = [];

/**
 * The quick run's undriven scenes in which a body reached a default speed cap (400 m/s; π/4 rad
 * per substep where that is 188 rad/s or more): what the caps hold back where no driver explains
 * it (run.ts, noteCaps). Not failures, but a ratchet: more fails the test, and so do fewer (lower
 * the figure). The scenes are chaotic, so a correct change elsewhere moves them too: rolling
 * contacts made exact (c3c95db) added one at the rotation cap (seed 1484251341, a 25 g body
 * between motors, gone with 16 substeps), and the full runs' counts moved by a few either way;
 * the anti-windup at the caps (space/step.ts) moved one scene from the speed cap to the rotation cap;
 * continuous collision added one at the speed cap (and changed two at the rotation cap: seeds
 * 2830525739 and 3637747661 stay under it with disableCCD on every body). It stops a fast body of
 * a joint web at its time of impact while its partners go on, and the joints then pull it back.
 * Solving the contacts in graph-colour order (issue 24's parallel step) took one scene off the
 * rotation cap.
 */
export const KNOWN_CAPPED_UNDRIVEN = { speed: 2, spin: 6 } as const;

describe(`fuzz, quick: ${QUICK.scenes} scenes × ${QUICK.steps} steps, seed ${QUICK.seed}`, () => {
  let r: FuzzResult;
  beforeAll(() => {
    r = runFuzz({ ...QUICK });
    console.log(`${summaryLine(r, QUICK.steps)}\n${details(r)}\ntime: ${(r.stats.elapsedMs / 1000).toFixed(1)} s, run digest ${r.digest}`);
  });

  const zero = (category: Category, what: string): void => {
    it(`${what}: 0`, () => {
      const failures = r.failures.filter((f) => f.category === category);
      expect(failures.length, failureReport(failures)).toBe(0);
    });
  };
  zero('nan', 'bodies that went non-finite after a successful step');
  zero('divergence', 'valid steps that threw FulcrumDivergenceError');
  // The blow-ups the engine still has (packages/physics/README.md, "Known gaps") that the quick
  // run's scenes meet: KNOWN_BLOW_UPS (none today). A ratchet: a new blow-up fails, and so does a
  // listed one that no longer happens (take it off the list).
  it('blow-ups (a body faster than 1e6 m/s or 1e9 rad/s): only the known ones', () => {
    const seeds = [...new Set(r.failures.filter((f) => f.category === 'blow-up').map((f) => f.seed))].sort((a, b) => a - b);
    expect(seeds, failureReport(r.failures.filter((f) => f.category === 'blow-up'))).toEqual([...KNOWN_BLOW_UPS].sort((a, b) => a - b));
  });
  it('undriven scenes at a default speed cap: only as many as known', () => {
    expect({ speed: r.stats.speedCapUndriven, spin: r.stats.spinCapUndriven }, `undriven seeds: ${r.stats.capUndrivenSeeds.join(', ')}`).toEqual(KNOWN_CAPPED_UNDRIVEN);
  });
  zero('unexpected-throw', 'valid calls that threw, and errors of no documented class');
  zero('wrong-error', 'invalid calls rejected with another documented error than theirs');
  zero('invalid-accepted', 'invalid calls that were accepted');
  zero('half-applied', 'rejected calls that changed the observable state');
  zero('query-changed-state', 'read-only calls that changed the observable state');
  zero('nondeterministic', 'scenes whose second run hashed differently');
  if (STRICT_ATOMIC) zero('non-atomic', 'failed steps that left bodies, impulses, sleep or contacts changed');

  it('ran the determinism check', () => {
    expect(r.stats.determinismChecked).toBe(Math.ceil(QUICK.scenes / QUICK.determinismEvery));
  });

  it('built every shape kind, all seven joints, every user constraint form and every symbolic source', () => {
    const c = r.stats.coverage;
    const missing = [
      ...['circle', 'polygon', 'capsule', 'segment'].map((k) => `shape ${k}`),
      ...['dynamic', 'static', 'kinematic'].map((k) => `body ${k}`),
      ...[...JOINT_KINDS, ...USER_KINDS, ...SYMBOLIC_KINDS].map((k) => `constraint ${k}`),
      ...JOINT_KINDS.filter((k) => k !== 'MotorJoint').flatMap((k) => [`constraint ${k} stiff`, `constraint ${k} soft`]),
      ...['AngleJoint', 'DistanceJoint', 'LineJoint', 'PulleyJoint'].flatMap((k) => [`constraint ${k} limited`, `constraint ${k} equality`]),
      'constraint MotorJoint maxForce',
      'user constraint packed',
      'user constraint unpacked',
    ].filter((k) => !c.has(k));
    expect(missing).toEqual([]);
  });

  it('made every kind of invalid call, and failed steps on purpose', () => {
    const missing = INVALID_KINDS.filter((k) => !r.stats.invalid.has(k));
    expect(missing).toEqual([]);
    expect(r.stats.failedSteps).toBeGreaterThan(50);
    expect(r.stats.faultSteps).toBeGreaterThan(20);
  });
});
