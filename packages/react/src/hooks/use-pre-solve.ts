/**
 * usePreSolve: contact filtering from a component (the engine's `space.preSolve`, Nape's
 * PreListener), shared with every other usePreSolve and the shapes' `oneWay` / `tangentSpeed`
 * props through the world's PreSolveRouter (core/pre-solve-router.ts).
 */
import type { PreSolveCallback } from '@fulcrum/physics';
import { useLayoutEffect, useRef } from 'react';
import { useWorld } from '../core/context.js';

/**
 * Call `callback(contact)` for every touching solid contact with an awake body, during each step,
 * before the contact is solved. It may read the contact, set its `friction`, `restitution` and
 * `tangentSpeed` (they apply from this step on), and return 'ignore' (leave the contact out while
 * it touches), 'ignoreOnce' (out of this step), or 'accept' / 'acceptOnce' / nothing (keep it for
 * this step: every callback is asked again on the next one).
 *
 * Several components may register: the shapes' `oneWay` and `tangentSpeed` rules run first, then
 * the callbacks in mount order, and any 'ignore' or 'ignoreOnce' wins. The callback may not change
 * the space (the space is stepping); a throw fails the step. The latest committed callback runs;
 * it is never re-registered.
 */
export function usePreSolve(callback: PreSolveCallback): void {
  const world = useWorld('usePreSolve');
  if (typeof callback !== 'function') throw new TypeError(`usePreSolve(callback): callback must be a function, got ${typeof callback}`);
  const ref = useRef(callback);
  // Updated in an effect, not during render: a render React discards (an abandoned transition)
  // must never reach the solver.
  useLayoutEffect(() => {
    ref.current = callback;
  });
  useLayoutEffect(() => world.preSolve.add(ref), [world]);
}
