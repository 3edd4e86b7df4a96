/**
 * Hooks for code inside <Physics>.
 */
import type { Body, Space } from '@fulcrum/physics';
import { useCallback, useLayoutEffect, useRef, useSyncExternalStore } from 'react';
import { resolveBody, type BodyRef } from '../core/body-ref.js';
import { useWorld } from '../core/context.js';
import type { StepCallback } from '../core/physics-world.js';

/** What usePhysics() returns: a stable object. */
export interface PhysicsApi {
  /** The space (created on first use). */
  readonly space: Space;
  /** Step once by `dt` (default: the fixed time step), with the step callbacks, and redraw. */
  step(dt?: number): void;
  /** Request a frame (demand mode). */
  requestFrame(): void;
}

/** The enclosing <Physics>'s stable API. */
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
  ref.current = callback;
  useLayoutEffect(() => world.addStepCallback(when, ref), [world, when]);
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
