/**
 * Body props → engine Body: validation and in-place updates, shared by <Body> and
 * <InstancedBodies>.
 *
 * Validation builds a trial Body from the props, so the engine's own checks (and messages)
 * apply, and it happens during render: a bad prop throws before anything is touched. Updates
 * then go through the engine's setters, each of which wakes the body's island. The initial
 * conditions (position, rotation, velocity, angularVel) are applied when their value changes;
 * when such a prop is dropped, the body keeps its state. Every other prop falls back to the
 * engine default when dropped.
 */
import { Body } from '@fulcrum/physics';
import type { BodyOptions, BodyType, Vec2Like } from '@fulcrum/physics';
import { propFail, validateWith } from './errors.js';
import { changedKeys, pick } from './props.js';

/** The Body props that map to engine options: the engine's own option type, minus shapes (children). */
export type BodyOptionProps = Omit<BodyOptions, 'shapes'>;

export const BODY_OPTION_KEYS = [
  'type',
  'position',
  'rotation',
  'velocity',
  'angularVel',
  'force',
  'torque',
  'mass',
  'inertia',
  'allowMovement',
  'allowRotation',
  'allowFastRotation',
  'allowSleep',
  'isBullet',
  'disableCCD',
  'contactForceThreshold',
  'linearDrag',
  'angularDrag',
  'gravityScale',
  'userData',
] as const satisfies readonly (keyof BodyOptionProps)[];

type Key = (typeof BODY_OPTION_KEYS)[number];
// The list must name every engine option: a new one in BodyOptions fails to compile here until added.
const everyOptionListed: [Exclude<keyof BodyOptionProps, Key>] extends [never] ? true : never = true;
void everyOptionListed;
export type BodyOptionValues = Partial<Record<Key, unknown>>;

const INITIAL_CONDITIONS = ['position', 'rotation', 'velocity', 'angularVel'] as const;
const SIMPLE = ['force', 'torque', 'allowMovement', 'allowRotation', 'allowFastRotation', 'allowSleep', 'isBullet', 'disableCCD', 'contactForceThreshold', 'linearDrag', 'angularDrag', 'gravityScale'] as const;

export interface ValidatedBody {
  options: BodyOptionValues;
  /** A detached Body built from the options: every property at its target value. */
  trial: Body;
}

/** Validate body props (throws FulcrumPropError naming `component`). */
export function validateBodyOptions(component: string, props: BodyOptionProps): ValidatedBody {
  const options = pick(props as BodyOptionValues, BODY_OPTION_KEYS);
  const trial = validateWith(component, props, ['Body'], () => new Body(options as BodyOptions));
  return { options, trial };
}

/** What an update did: whether the body was teleported (interpolation must not smear it). */
export interface BodyUpdate {
  changed: boolean;
  moved: boolean;
}

/** Apply the options that changed from `prev` to `next` through the engine's setters. */
export function applyBodyOptions(body: Body, prev: BodyOptionValues, next: ValidatedBody): BodyUpdate {
  const o = next.options;
  const changed = changedKeys(BODY_OPTION_KEYS, prev, o);
  if (changed.length === 0) return { changed: false, moved: false };
  const has = (k: Key) => changed.includes(k);
  const t = next.trial;
  // Type first: it decides what the other setters accept (a static body takes no velocity).
  if (has('type')) body.type = t.type;
  if (has('mass') || has('inertia')) {
    if (o.mass === undefined || o.inertia === undefined) body.useShapeMass();
    if (o.mass !== undefined) body.mass = o.mass as number;
    if (o.inertia !== undefined) body.inertia = o.inertia as number;
  }
  let moved = false;
  for (const k of INITIAL_CONDITIONS) {
    if (!has(k) || o[k] === undefined) continue;
    (body as unknown as Record<string, unknown>)[k] = o[k];
    if (k === 'position' || k === 'rotation') moved = true;
  }
  for (const k of SIMPLE) if (has(k)) (body as unknown as Record<string, unknown>)[k] = (t as unknown as Record<string, unknown>)[k];
  if (has('userData')) body.userData = o.userData;
  return { changed: true, moved };
}

// ------------------------------------------------------------------ kinematic targets (<Body> only)

/** <Body>'s kinematic target props: where a kinematic body should go, moved there by velocity. */
export interface KinematicTargetProps {
  /**
   * Where a kinematic body's origin should be. Before every step it gets the velocity that takes it
   * there in that step (the engine's `setVelocityFromTarget`), so it arrives exactly and carries
   * what rests on it, which a teleport through `position` does not. Once it is there, and while
   * the target stays the same, its velocity is 0. Only for `type="kinematic"`.
   */
  target?: Vec2Like;
  /** The angle a kinematic body should turn to, radians (not wrapped). Default: the angle it has. */
  targetRotation?: number;
}

/** A validated target: a missing part keeps the body's own position or angle. */
export interface BodyTarget {
  readonly x: number | undefined;
  readonly y: number | undefined;
  readonly rotation: number | undefined;
}

/**
 * Validate the target props (throws FulcrumPropError naming `component`): null when there is no
 * target. The values are checked by the engine's own setVelocityFromTarget, on a trial kinematic
 * body; a target on a body of another type is an error.
 */
export function validateTarget(component: string, props: KinematicTargetProps, type: BodyType): BodyTarget | null {
  const { target, targetRotation } = props;
  if (target === undefined && targetRotation === undefined) return null;
  validateWith(component, props, [], () => new Body({ type: 'kinematic' }).setVelocityFromTarget(target ?? [0, 0], targetRotation ?? 0, 1), targetPropOf);
  const prop = target !== undefined ? 'target' : 'targetRotation';
  if (type !== 'kinematic') propFail(component, prop, props[prop], `needs type="kinematic", the body is ${type}: a target moves a kinematic body (move a dynamic one with forces or a joint, a static one with position)`);
  const p = target === undefined ? undefined : Array.isArray(target) ? { x: target[0] as number, y: target[1] as number } : (target as { x: number; y: number });
  return { x: p?.x, y: p?.y, rotation: targetRotation };
}

/** The prop a setVelocityFromTarget error is about. */
function targetPropOf(e: Error): string | null {
  const prop = (e as { prop?: unknown }).prop;
  if (prop === 'setVelocityFromTarget(position)') return 'target';
  if (prop === 'setVelocityFromTarget(rotation)') return 'targetRotation';
  return null;
}
