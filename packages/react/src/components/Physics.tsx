/**
 * <Physics>: the provider. It owns a PhysicsWorld (created once: the context value never
 * changes), whose Space is created on first use or given through `space`. Inside a <Canvas> it
 * steps in R3F's loop; outside one (tests, headless) nothing steps until `usePhysics().step()`.
 *
 * Props are validated during render and applied in place: changing `gravity` wakes every
 * island; `checkUserConstraints` goes through the space's setter (the check runs before the
 * next step), and so do the sleep settings and speed caps (turning `allowSleep` off wakes every
 * island, as the engine's setter does); `paused`, `timeStep`, `interpolate`, the iteration counts
 * and `maxSubSteps` take effect on the next frame. Changing `space` moves the whole scene:
 * children remount into it.
 */
import { Space } from '@fulcrum/physics';
import type { DebugDrawOptions, SpaceOptions, Vec2Like } from '@fulcrum/physics';
import { Fragment, useLayoutEffect, useState, type ReactNode } from 'react';
import { useInCanvas, WorldContext } from '../core/context.js';
import { propFail, validateWith } from '../core/errors.js';
import { DEFAULT_WORLD_OPTIONS, PhysicsWorld, type WorldOptions } from '../core/physics-world.js';
import { checkPropNames, pick, propNames, sameValue, useValidated } from '../core/props.js';
import type { TimeStep } from '../core/step-clock.js';
import { checkDebugLayers, DebugLines } from '../debug/DebugLines.js';
import { PointerDrag, type PointerDragProps } from '../drag/PointerDrag.js';
import { FrameDriver } from './FrameDriver.js';

export interface PhysicsProps {
  /** m/s², y up. Default [0, -9.81]. */
  gravity?: Vec2Like;
  /** Seconds per step (default 1/60), or "vary": one step per frame of the frame's length. */
  timeStep?: TimeStep;
  /** Stop stepping (rendering and prop changes go on). */
  paused?: boolean;
  /** Draw bodies between their last two steps (default true). */
  interpolate?: boolean;
  /** Draw the engine's debug view: true, or which layers (shapes, contacts, aabbs, constraints). */
  debug?: boolean | DebugDrawOptions;
  /** Substeps per step (the engine's velocityIterations, default 4). */
  velocityIterations?: number;
  /** Position passes per step (default 2). */
  positionIterations?: number;
  /** Most steps in one frame; a longer frame slows the simulation down (default 5). */
  maxSubSteps?: number;
  /**
   * Check every user constraint's hand-written derivatives (`jacobian`, `velocity`, `effMass`,
   * `impulse`) against finite differences of its `position()`, before its first step and after
   * each change: the engine's `Space.checkUserConstraints`. A mismatch makes the step throw a
   * `FulcrumInputError` whose `prop` is the hook's name, before anything moves. For development
   * and tests: it costs about a step's worth of hook calls per check. Default false (the
   * engine's default). Applied in place through the space's setter when it changes, to a given
   * `space` too; when not given, the space keeps its own setting.
   */
  checkUserConstraints?: boolean;
  // The sleep settings and speed caps below go to the space's setters when they change, to a
  // given `space` too, like `gravity`; when not given, the space keeps its own setting.
  /** Whether islands may fall asleep (default true). Turning it off wakes every sleeping island. */
  allowSleep?: boolean;
  /** Seconds every body of an island must rest before the island sleeps (default 0.5). */
  sleepDelay?: number;
  /** Speed, m/s, under which a body counts as at rest, applied to |v| and to |ω|·extent (default 0.05). */
  sleepThreshold?: number;
  /** Speed cap, m/s, on what the solver does to a body (default 400; Infinity turns it off). */
  maxLinearSpeed?: number;
  /** Radians a body may turn in one substep (default π/4; Infinity turns it off). */
  maxRotationPerSubstep?: number;
  /**
   * Worker threads that solve the steps beside the main thread (the engine's `Space.workers`,
   * default 0). The result is bitwise the same for every count; large scenes step faster. They
   * need a cross-origin-isolated page (Cross-Origin-Opener-Policy: same-origin and
   * Cross-Origin-Embedder-Policy: require-corp); without it the space runs on one thread and
   * `usePhysics().space.parallel.reason` says why. Applied through the space's setter when it
   * changes; the workers of the space <Physics> made end when it unmounts.
   */
  workers?: number;
  /** Use this Space instead of creating one. It is not emptied on unmount. */
  space?: Space;
  /** Drag bodies with the pointer: true, or the drag joint's settings. */
  dragging?: boolean | Omit<PointerDragProps, 'children'>;
  children?: ReactNode;
}

/** The Space settings that are <Physics> props of the same name (sleep, speed caps, workers). */
export const SPACE_SETTING_PROPS = ['allowSleep', 'sleepDelay', 'sleepThreshold', 'maxLinearSpeed', 'maxRotationPerSubstep', 'workers'] as const;
type SpaceSettingProp = (typeof SPACE_SETTING_PROPS)[number];
// Each is a Space option and a settable Space property of the same name and type.
const settingsAreSpaceOptions: Pick<SpaceOptions, SpaceSettingProp> extends Partial<Pick<Space, SpaceSettingProp>> ? true : never = true;
void settingsAreSpaceOptions;

const OPTION_PROPS = ['gravity', 'timeStep', 'paused', 'interpolate', 'velocityIterations', 'positionIterations', 'maxSubSteps', 'checkUserConstraints', ...SPACE_SETTING_PROPS] as const;

interface ValidatedOptions {
  options: WorldOptions;
  /** The prop, validated; undefined when not given. */
  checkUserConstraints: boolean | undefined;
  /** The sleep and speed-cap props given, validated. */
  settings: Pick<SpaceOptions, SpaceSettingProp>;
}

/** Every prop of <Physics> (any other is an error). */
const PHYSICS_PROPS = propNames<PhysicsProps>()(['gravity', 'timeStep', 'paused', 'interpolate', 'debug', 'velocityIterations', 'positionIterations', 'maxSubSteps', 'checkUserConstraints', 'allowSleep', 'sleepDelay', 'sleepThreshold', 'maxLinearSpeed', 'maxRotationPerSubstep', 'workers', 'space', 'dragging', 'children']);

export function Physics(props: PhysicsProps): ReactNode {
  checkPropNames('Physics', props, PHYSICS_PROPS);
  const [world] = useState(() => new PhysicsWorld());
  const inCanvas = useInCanvas();
  const { options, checkUserConstraints, settings } = useValidated(pick(props as Record<string, unknown>, OPTION_PROPS) as PhysicsProps, validatePhysicsProps);
  const { space, debug, dragging } = props;
  if (space !== undefined && !(space instanceof Space)) propFail('Physics', 'space', space, 'must be a Space');
  if (debug !== undefined && typeof debug !== 'boolean' && (debug === null || typeof debug !== 'object')) propFail('Physics', 'debug', debug, 'must be a boolean or {shapes, contacts, aabbs, constraints}');
  if (typeof debug === 'object') checkDebugLayers('Physics', 'debug', debug);
  // Set during render: children's effects run before <Physics>'s and may create the space.
  world.setExternalSpace(space ?? null);
  world.initialGravity = options.gravity;
  world.initialCheckUserConstraints = checkUserConstraints;
  world.initialSettings = settings;

  useLayoutEffect(() => {
    const prev = world.options;
    world.options = options;
    // Gravity is applied when the prop changes (never from the default onto a given space).
    if (props.gravity !== undefined && !sameValue(world.appliedGravity, props.gravity)) {
      if (!sameValue(world.space.gravity, toXY(props.gravity))) world.space.gravity = props.gravity;
      world.appliedGravity = props.gravity;
    }
    // The same for the derivative check: applied when the prop changes, never when it is absent.
    let spaceChanged = false;
    if (checkUserConstraints !== undefined && world.appliedCheckUserConstraints !== checkUserConstraints) {
      if (world.space.checkUserConstraints !== checkUserConstraints) world.space.checkUserConstraints = checkUserConstraints;
      world.appliedCheckUserConstraints = checkUserConstraints;
      spaceChanged = true;
    }
    // And for the sleep settings and speed caps, through the engine's setters (allowSleep={false}
    // wakes every island there).
    const applied = world.appliedSettings;
    for (const k of SPACE_SETTING_PROPS) {
      const v = settings[k];
      if (v === undefined || applied[k] === v) continue;
      if (world.space[k] !== v) (world.space as Pick<Space, SpaceSettingProp>)[k] = v as never;
      applied[k] = v as never;
      spaceChanged = true;
    }
    if (spaceChanged || !sameValue(prev, options)) world.requestFrame();
  });
  useLayoutEffect(() => {
    world.attach();
    return () => world.dispose();
  }, [world, space]);

  return (
    <WorldContext.Provider value={world}>
      {inCanvas && <FrameDriver world={world} />}
      {inCanvas && debug ? <DebugLines options={debug === true ? undefined : debug} /> : null}
      {inCanvas && dragging ? <PointerDrag {...(dragging === true ? {} : dragging)} /> : null}
      <Fragment key={spaceKey(space)}>{props.children}</Fragment>
    </WorldContext.Provider>
  );
}

function validatePhysicsProps(p: PhysicsProps): ValidatedOptions {
  const d = DEFAULT_WORLD_OPTIONS;
  const gravity = p.gravity ?? d.gravity;
  // The engine validates what it owns (gravity, checkUserConstraints, sleep, caps) on a throwaway
  // space; workers here, since a throwaway space with workers would start them.
  const settings = pick(p as Record<string, unknown>, SPACE_SETTING_PROPS) as Pick<SpaceOptions, SpaceSettingProp>;
  const { workers, ...engineChecked } = settings;
  validateWith('Physics', p, ['Space'], () => new Space({ ...engineChecked, gravity, checkUserConstraints: p.checkUserConstraints }));
  if (workers !== undefined && (typeof workers !== 'number' || !Number.isInteger(workers) || workers < 0 || workers > 256)) {
    propFail('Physics', 'workers', workers, 'must be a whole number of worker threads from 0 to 256');
  }
  const timeStep = p.timeStep ?? d.timeStep;
  if (timeStep !== 'vary' && (typeof timeStep !== 'number' || !Number.isFinite(timeStep) || timeStep <= 0)) {
    propFail('Physics', 'timeStep', timeStep, 'must be a positive number of seconds or "vary"');
  }
  const int = (prop: 'velocityIterations' | 'positionIterations' | 'maxSubSteps', min: number, fallback: number): number => {
    const v = p[prop] ?? fallback;
    if (typeof v !== 'number' || !Number.isInteger(v) || v < min || v > 1000) propFail('Physics', prop, v, `must be an integer in [${min}, 1000]`);
    return v;
  };
  const bool = (prop: 'paused' | 'interpolate', fallback: boolean): boolean => {
    const v = p[prop] ?? fallback;
    if (typeof v !== 'boolean') propFail('Physics', prop, v, 'must be a boolean');
    return v;
  };
  return {
    options: {
      gravity,
      timeStep,
      maxSubSteps: int('maxSubSteps', 1, d.maxSubSteps),
      interpolate: bool('interpolate', d.interpolate),
      paused: bool('paused', d.paused),
      velocityIterations: int('velocityIterations', 1, d.velocityIterations),
      positionIterations: int('positionIterations', 0, d.positionIterations),
    },
    checkUserConstraints: p.checkUserConstraints,
    settings,
  };
}

const spaceKeys = new WeakMap<Space, number>();
let nextSpaceKey = 1;

/** A key per space identity, so that a new `space` prop remounts the scene into it. */
function spaceKey(space: Space | undefined): string {
  if (space === undefined) return 'own';
  let k = spaceKeys.get(space);
  if (k === undefined) spaceKeys.set(space, (k = nextSpaceKey++));
  return `space-${k}`;
}

function toXY(v: Vec2Like): { x: number; y: number } {
  return Array.isArray(v) ? { x: v[0], y: v[1] } : (v as { x: number; y: number });
}
