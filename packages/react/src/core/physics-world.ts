/**
 * PhysicsWorld: everything one <Physics> owns, behind the stable object its context provides.
 *
 * - The Space, created on first use (so children that mount before <Physics>'s own effects can
 *   register), or the one given through the `space` prop. An owned space is emptied when
 *   <Physics> unmounts; a given one keeps whatever it held before.
 * - The frame: StepClock plans the steps, the world runs them between the before/after-step
 *   callbacks, then writes every registered three.js target, interpolated. Nothing here
 *   re-renders React.
 * - Demand mode: after a frame, another is requested only while something is awake; a wake
 *   event (any setter on a sleeping island) or a prop change requests one.
 * - Bookkeeping that ties components together: body watchers (joints waiting for their bodies),
 *   and the event router.
 */
import { Space } from '@fulcrum/physics';
import type { DebugDraw, SpaceOptions, Vec2Like } from '@fulcrum/physics';
import { anyAwake } from './awake.js';
import { CowList } from './cow-list.js';
import { EventRouter } from './event-router.js';
import { PreSolveRouter } from './pre-solve-router.js';
import { StepClock, type TimeStep } from './step-clock.js';

/** Called before or after every physics step. */
export type StepCallback = (space: Space, dt: number) => void;

/** Something drawn at a body's pose: a <Body>'s group, or the instances of <InstancedBodies>. */
export interface TransformTarget {
  /** Remember the current pose as the previous one (called before the last step of a frame). */
  snapshot(): void;
  /** Draw at previous + alpha · (current − previous). */
  write(alpha: number): void;
}

/** What a frame needs from R3F's state. */
export interface FrameState {
  frameloop: string;
  invalidate(): void;
}

export interface WorldOptions {
  gravity: Vec2Like;
  timeStep: TimeStep;
  maxSubSteps: number;
  interpolate: boolean;
  paused: boolean;
  velocityIterations: number;
  positionIterations: number;
}

export const DEFAULT_WORLD_OPTIONS: Readonly<WorldOptions> = Object.freeze({
  gravity: [0, -9.81] as const,
  timeStep: 1 / 60,
  maxSubSteps: 5,
  interpolate: true,
  paused: false,
  velocityIterations: 4,
  positionIterations: 2,
});

export class PhysicsWorld {
  options: WorldOptions = { ...DEFAULT_WORLD_OPTIONS };
  /** Gravity for a space created on first use (set by <Physics> during render). */
  initialGravity: Vec2Like = DEFAULT_WORLD_OPTIONS.gravity;
  /** The last `gravity` prop applied to the space. */
  appliedGravity: Vec2Like | null = null;
  /**
   * checkUserConstraints for a space created on first use (set by <Physics> during render);
   * undefined leaves the engine's default.
   */
  initialCheckUserConstraints: boolean | undefined = undefined;
  /** The last `checkUserConstraints` prop applied to the space. */
  appliedCheckUserConstraints: boolean | null = null;
  /** Sleep and speed-cap settings for a space created on first use (set by <Physics> during render). */
  initialSettings: SpaceOptions = {};
  /** The sleep and speed-cap props last applied to the space (emptied for a new space). */
  appliedSettings: SpaceOptions = {};
  readonly events = new EventRouter();
  /** The space's one preSolve callback, shared by usePreSolve and the shapes' contact rules. */
  readonly preSolve = new PreSolveRouter();
  readonly clock = new StepClock();
  /**
   * While a frame steps: how many of its steps are left, this one included (1 outside a frame and
   * for a manual step). A kinematic target set by a render is reached by the frame's last step,
   * not its first (BodyController.steer): a frame of several steps would otherwise move the
   * body the whole way in one step and stop it for the rest, in bursts that jerk off what it carries.
   */
  stepsLeftInFrame = 1;

  private owned: Space | null = null;
  private external: Space | null = null;
  private attachedTo: Space | null = null;
  private detachEvents: (() => void) | null = null;

  private readonly targets = new CowList<TransformTarget>();
  private readonly before = new CowList<{ readonly current: StepCallback }>();
  private readonly after = new CowList<{ readonly current: StepCallback }>();
  private readonly afterFrame = new CowList<() => void>();
  private readonly bodyWatchers = new CowList<() => void>();
  private readonly pending = new CowList<() => void>();
  /** Extra debug drawing (joint limits), run by the debug view after the engine's own. */
  readonly overlays = new CowList<(sink: DebugDraw) => void>();
  private requester: (() => void) | null = null;
  /** Demand mode: true once a frame ended without requesting another. */
  private idle = true;

  constructor() {
    this.events.onAnyWake = () => this.requestFrame();
  }

  // ------------------------------------------------------------------ the space

  /** The space children register with; created on first use unless one was given. */
  get space(): Space {
    return this.external ?? (this.owned ??= new Space({ ...this.initialSettings, gravity: this.initialGravity, checkUserConstraints: this.initialCheckUserConstraints }));
  }

  /** Whether `space` is the world's own (emptied on unmount) rather than a given one. */
  get ownsSpace(): boolean {
    return this.external === null;
  }

  /** Use a given space (the `space` prop), or null for the world's own. */
  setExternalSpace(space: Space | null): void {
    if (space === this.external) return;
    this.external = space;
    // The props given so far were applied to the old space: apply them to this one too.
    this.appliedGravity = null;
    this.appliedCheckUserConstraints = null;
    this.appliedSettings = {};
    this.clock.reset();
  }

  /** Route the space's events to components (from <Physics>'s mount effect). */
  attach(): void {
    const space = this.space;
    if (this.attachedTo === space) return;
    // The world's own space ended its workers when <Physics> unmounted; StrictMode mounts it again.
    if (this.external === null && space.parallel.reason === 'the space was disposed') space.workers = space.workers;
    this.detachEvents?.();
    const offEvents = this.events.attach(space);
    const offPreSolve = this.preSolve.attach(space);
    this.detachEvents = () => {
      offEvents();
      offPreSolve();
    };
    this.attachedTo = space;
  }

  /**
   * <Physics> unmounted. An owned space is emptied (constraints, then bodies), so nothing it
   * held can be stepped again through a stale reference; a given space is left as it is (its
   * components remove their own objects). The Space object itself is kept, because StrictMode
   * mounts <Physics> again straight away and consumers may hold it.
   */
  dispose(): void {
    this.detachEvents?.();
    this.detachEvents = null;
    this.attachedTo = null;
    const s = this.owned;
    if (s && this.external === null) {
      for (const c of s.constraints.slice()) s.removeConstraint(c);
      for (const b of s.bodies.slice()) s.removeBody(b);
      // Its workers too: threads are not collected with the space.
      s.dispose();
    }
    this.clock.reset();
    this.idle = true;
  }

  // ------------------------------------------------------------------ registration

  addTarget(t: TransformTarget): void {
    this.targets.add(t);
  }
  removeTarget(t: TransformTarget): void {
    this.targets.remove(t);
  }
  addStepCallback(when: 'before' | 'after', cb: { readonly current: StepCallback }): () => void {
    return (when === 'before' ? this.before : this.after).add(cb);
  }
  /** Run after each frame's transforms are written (the debug view). */
  addAfterFrame(fn: () => void): () => void {
    return this.afterFrame.add(fn);
  }

  /** Listen for bodies mounting or unmounting (joints resolve their body refs). */
  watchBodies(fn: () => void): () => void {
    return this.bodyWatchers.add(fn);
  }
  /** A body mounted or unmounted. */
  bodiesChanged(): void {
    const list = this.bodyWatchers.items;
    for (let i = 0; i < list.length; i++) list[i]!();
  }
  /** Run `fn` before every step until removed (a joint still waiting for a body). */
  addPending(fn: () => void): void {
    this.pending.add(fn);
  }
  removePending(fn: () => void): void {
    this.pending.remove(fn);
  }

  // ------------------------------------------------------------------ frames

  /** Set by the frame driver inside a <Canvas>: how to ask R3F for a frame. */
  setFrameRequester(fn: (() => void) | null): void {
    this.requester = fn;
  }

  /** Ask for a frame (demand mode); a no-op outside a <Canvas>. Bound: usePhysics() hands it out. */
  readonly requestFrame = (): void => {
    this.requester?.();
  };

  /** One R3F frame of `delta` seconds. */
  frame(delta: number, state: FrameState): void {
    const o = this.options;
    const demand = state.frameloop === 'demand';
    this.clock.begin(delta, o, demand && this.idle);
    const steps = this.clock.steps;
    if (steps > 0) {
      const space = this.space;
      for (let i = 0; i < steps; i++) {
        if (i === steps - 1) this.snapshot();
        this.stepsLeftInFrame = steps - i;
        this.runStep(space, this.clock.dt);
      }
      this.stepsLeftInFrame = 1;
    }
    this.writeTargets(this.clock.alpha);
    if (demand) {
      const awake = !o.paused && anyAwake(this.space);
      if (awake) state.invalidate();
      this.idle = !awake;
    }
  }

  /**
   * Step once by hand (`dt` defaults to the fixed time step, or 1/60 with "vary"), with the
   * step callbacks, and draw the result. Works paused and outside a <Canvas>. Bound:
   * usePhysics() hands it out.
   */
  readonly step = (dt?: number): void => {
    const ts = this.options.timeStep;
    const h = dt ?? (ts === 'vary' ? 1 / 60 : ts);
    this.snapshot();
    this.runStep(this.space, h);
    this.writeTargets(1);
    this.requestFrame();
  };

  // ------------------------------------------------------------------ queries

  // The space's queries, bound and reading the current space (which a new `space` prop changes),
  // so that `const { rayCast } = usePhysics()` works.
  readonly rayCast: Space['rayCast'] = (from, to, options) => this.space.rayCast(from, to, options);
  readonly rayCastAll: Space['rayCastAll'] = (from, to, options) => this.space.rayCastAll(from, to, options);
  readonly queryPoint: Space['queryPoint'] = (point, options) => this.space.queryPoint(point, options);
  readonly queryAABB: Space['queryAABB'] = (min, max, options) => this.space.queryAABB(min, max, options);
  readonly convexCast: Space['convexCast'] = (shape, pose, translation, options) => this.space.convexCast(shape, pose, translation, options);

  private runStep(space: Space, dt: number): void {
    const pending = this.pending.items;
    for (let i = 0; i < pending.length; i++) pending[i]!();
    const before = this.before.items;
    for (let i = 0; i < before.length; i++) before[i]!.current(space, dt);
    space.step(dt, this.options.velocityIterations, this.options.positionIterations);
    const after = this.after.items;
    for (let i = 0; i < after.length; i++) after[i]!.current(space, dt);
  }

  private snapshot(): void {
    const targets = this.targets.items;
    for (let i = 0; i < targets.length; i++) targets[i]!.snapshot();
  }

  private writeTargets(alpha: number): void {
    const targets = this.targets.items;
    for (let i = 0; i < targets.length; i++) targets[i]!.write(alpha);
    const after = this.afterFrame.items;
    for (let i = 0; i < after.length; i++) after[i]!();
  }
}
