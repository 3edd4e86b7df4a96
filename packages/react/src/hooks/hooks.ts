/**
 * Hooks for code inside <Physics>.
 */
import type { Body, Space } from '@fulcrum/physics';
import { useCallback, useInsertionEffect, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import { resolveBody, type BodyRef } from '../core/body-ref.js';
import { useWorld } from '../core/context.js';
import type { StepCallback } from '../core/physics-world.js';

/**
 * What usePhysics() returns: a stable object (the same one for the life of the <Physics>) whose
 * functions are bound, so it can be destructured: `const { rayCast, requestFrame } = usePhysics()`.
 * The queries are the engine's, with its signatures and results, on the current space.
 */
export interface PhysicsApi {
  /** The space (created on first use; a new `space` prop changes it). */
  readonly space: Space;
  /** Step once by `dt` (default: the fixed time step), with the step callbacks, and redraw. */
  readonly step: (dt?: number) => void;
  /** Request a frame (demand mode; a no-op outside a <Canvas>). */
  readonly requestFrame: () => void;
  /** The closest shape the segment from → to hits (`{ shape, body, point, normal, fraction }`), or null: `Space.rayCast`. */
  readonly rayCast: Space['rayCast'];
  /** Every shape the segment from → to hits, nearest first: `Space.rayCastAll`. */
  readonly rayCastAll: Space['rayCastAll'];
  /** The shapes that contain a world point: `Space.queryPoint`. */
  readonly queryPoint: Space['queryPoint'];
  /** The shapes whose bounding boxes overlap the box [min, max]: `Space.queryAABB`. */
  readonly queryAABB: Space['queryAABB'];
  /** The first shape a shape moved from a pose by a translation meets (`{ shape, body, time, point, normal }`), or null: `Space.convexCast`. */
  readonly convexCast: Space['convexCast'];
}

/** The enclosing <Physics>'s stable API: the space, stepping, frames and the space's queries, all bound. */
export function usePhysics(): PhysicsApi {
  return useWorld('usePhysics');
}

/** The Space of the enclosing <Physics>. */
export function useSpace(): Space {
  return useWorld('useSpace').space;
}

/** Run `callback(space, dt)` before every step. The latest callback runs; it is never re-registered. */
export function useBeforeStep(callback: StepCallback): void {
  useStepCallback('before', callback, 'useBeforeStep');
}

/** Run `callback(space, dt)` after every step (and after its events were delivered). */
export function useAfterStep(callback: StepCallback): void {
  useStepCallback('after', callback, 'useAfterStep');
}

function useStepCallback(when: 'before' | 'after', callback: StepCallback, name: string): void {
  const world = useWorld(name);
  if (typeof callback !== 'function') throw new TypeError(`${name}(callback): callback must be a function, got ${typeof callback}`);
  const ref = useRef(callback);
  useCommitted(ref, callback);
  useLayoutEffect(() => world.addStepCallback(when, ref), [world, when]);
}

/**
 * (Internal, for the components.) Point `ref` at `value` once the render that produced it
 * commits, never during render: a render React discards (an abandoned transition, a Suspense
 * retry) must not leave the solver calling a closure that was never committed. An insertion
 * effect runs before every layout effect of the commit, so whatever those do (mount a body, step)
 * already sees the new value.
 */
export function useCommitted<T>(ref: { current: T }, value: T): void {
  useInsertionEffect(() => {
    ref.current = value;
  });
}

/**
 * The live engine Body behind a ref (or a Body), or null while it is not mounted. Re-renders the
 * caller when it appears, changes (StrictMode remounts build a new one) or goes away.
 */
export function useBody(ref: BodyRef): Body | null {
  const world = useWorld('useBody');
  const subscribe = useCallback((onChange: () => void) => world.watchBodies(onChange), [world]);
  const read = () => resolveBody(ref, world.space);
  return useSyncExternalStore(subscribe, read, () => null);
}
