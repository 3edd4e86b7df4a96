/**
 * The space's settings: SpaceOptions, their defaults and their checks. One object per space,
 * read by the step's stages and written only by Space's validated setters.
 */
import type { Vec2Like } from '../math/vec2.js';
import { checkBoolean, checkInteger, checkNonNegative, checkOptionKeys, checkPositive, checkPositiveOrInfinity, checkVec2, fail, optionKeys } from '../util/validate.js';

export interface SpaceOptions {
  /** m/s². Default (0, 0), as Nape. */
  gravity?: Vec2Like;
  /** Seconds every body of an island must be at rest before it sleeps. Default 0.5. */
  sleepDelay?: number;
  /** Speed (m/s) under which a body counts as at rest; applied to |v| and to |ω|·extent. Default 0.05. */
  sleepThreshold?: number;
  /** Turn sleeping off for the whole space. Default true. */
  allowSleep?: boolean;
  /** Contact stiffness (Hz) and damping ratio of the soft contact solver. Defaults 30 and 10. */
  contactHertz?: number;
  contactDampingRatio?: number;
  /**
   * Relax passes over the joints in every substep (default 2). Joints are cheap next to
   * contacts, and long chains need the iterations: Gauss-Seidel moves an impulse about one
   * joint per pass.
   */
  jointIterations?: number;
  /**
   * 0 (default, Nape's semantics): stiff joints are rigid velocity constraints with no bias, and
   * the position passes remove drift. > 0: stiff joints also remove drift softly in the biased
   * pass, with this stiffness (Hz) and `jointDampingRatio` (default 2), as Box2D v3 does.
   */
  jointHertz?: number;
  jointDampingRatio?: number;
  /**
   * m/s. A body that constraints and contacts would move faster is slowed to this speed before it
   * moves, in every substep, and once more at the end of the step, as Box2D v3 does (its default too). Some valid scenes have no bounded
   * motion: a bead free on a rod that a kinematic body spins speeds up as cosh(ωt), and a kinematic
   * body or one with `allowMovement: false` can pull a chain through the ground. The cap keeps
   * them finite. Bodies of infinite mass keep the velocity they are given. Default 400; Infinity
   * turns the cap off.
   */
  maxLinearSpeed?: number;
  /**
   * Radians a body may turn in one substep (default π/4, Box2D v3's): a faster spin is slowed to
   * it before the body moves, and once more at the end of the step. Constraints and contacts are
   * linearised at the start of each substep, and a larger turn makes that linearisation wrong
   * enough to feed the spin. In rad/s the cap is maxRotationPerSubstep · velocityIterations / dt:
   * 188 rad/s (30 turns a second) at 60 Hz and 4 substeps. A body with allowFastRotation is not
   * capped, nor one that nothing can turn (allowRotation false, kinematic). Infinity turns it off.
   */
  maxRotationPerSubstep?: number;
  /**
   * Check every UserConstraint's hand-written derivatives (jacobian, velocity, effMass, impulse)
   * against finite differences of its position(), before its first step and after each change;
   * a mismatch throws, naming the hook and the row. For development and tests. Default false.
   */
  checkUserConstraints?: boolean;
  /**
   * Worker threads that solve the step beside the calling thread (default 0): Node's
   * worker_threads, or Web Workers on a cross-origin-isolated page. The result is bitwise the same
   * for every count, 0 included; the workers only make large scenes faster. They start
   * asynchronously (`space.workersReady`), and the space steps on the calling thread until they
   * are ready. Where they cannot run (no SharedArrayBuffer without cross-origin isolation, no
   * Worker), the space runs on one thread and `space.parallel.reason` says why. Any count is
   * allowed, but at most one fewer than the machine's cores start, since the calling thread takes
   * a share of every stage (`space.parallel` says how many run, and why not more). `space.dispose()`
   * ends them.
   */
  workers?: number;
}

export interface SpaceSettings {
  gx: number;
  gy: number;
  sleepDelay: number;
  sleepThreshold: number;
  allowSleep: boolean;
  contactHertz: number;
  contactDamping: number;
  jointIterations: number;
  jointHertz: number;
  jointDamping: number;
  maxLinearSpeed: number;
  maxRotationPerSubstep: number;
  checkUserConstraints: boolean;
  /** Fixed when the space is made. */
  workers: number;
}

/**
 * The default of checkUserConstraints for spaces made from now on. The test suites turn it on
 * (test-support/check-user-constraints.ts); not part of the public API.
 */
export const settingDefaults = { checkUserConstraints: false };

/** Validate every option first, so a bad one leaves nothing half-built. */
/** Every key of SpaceOptions: a misspelt one is an error (checkOptionKeys). */
const SPACE_OPTION_KEYS = optionKeys<SpaceOptions>()(['gravity', 'sleepDelay', 'sleepThreshold', 'allowSleep', 'contactHertz', 'contactDampingRatio', 'jointIterations', 'jointHertz', 'jointDampingRatio', 'maxLinearSpeed', 'maxRotationPerSubstep', 'checkUserConstraints', 'workers']);

export function readSpaceOptions(options: SpaceOptions): SpaceSettings {
  if (options === null || typeof options !== 'object') fail('Space', 'options', options, 'must be an object');
  checkOptionKeys('Space', options, SPACE_OPTION_KEYS);
  const g = options.gravity !== undefined ? checkVec2('Space', 'gravity', options.gravity) : { x: 0, y: 0 };
  return {
    gx: g.x,
    gy: g.y,
    sleepDelay: options.sleepDelay !== undefined ? checkNonNegative('Space', 'sleepDelay', options.sleepDelay) : 0.5,
    sleepThreshold: options.sleepThreshold !== undefined ? checkNonNegative('Space', 'sleepThreshold', options.sleepThreshold) : 0.05,
    allowSleep: options.allowSleep !== undefined ? checkBoolean('Space', 'allowSleep', options.allowSleep) : true,
    contactHertz: options.contactHertz !== undefined ? checkPositive('Space', 'contactHertz', options.contactHertz) : 30,
    contactDamping: options.contactDampingRatio !== undefined ? checkNonNegative('Space', 'contactDampingRatio', options.contactDampingRatio) : 10,
    jointIterations: options.jointIterations !== undefined ? checkInteger('Space', 'jointIterations', options.jointIterations, 1, 1000) : 2,
    jointHertz: options.jointHertz !== undefined ? checkNonNegative('Space', 'jointHertz', options.jointHertz) : 0,
    jointDamping: options.jointDampingRatio !== undefined ? checkNonNegative('Space', 'jointDampingRatio', options.jointDampingRatio) : 2,
    maxLinearSpeed: options.maxLinearSpeed !== undefined ? checkPositiveOrInfinity('Space', 'maxLinearSpeed', options.maxLinearSpeed) : 400,
    maxRotationPerSubstep: options.maxRotationPerSubstep !== undefined ? checkPositiveOrInfinity('Space', 'maxRotationPerSubstep', options.maxRotationPerSubstep) : Math.PI / 4,
    checkUserConstraints: options.checkUserConstraints !== undefined ? checkBoolean('Space', 'checkUserConstraints', options.checkUserConstraints) : settingDefaults.checkUserConstraints,
    workers: options.workers !== undefined ? checkInteger('Space', 'workers', options.workers, 0, 256) : 0,
  };
}
