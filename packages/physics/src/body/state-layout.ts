/**
 * A body's state (pose, velocity and rest time) as nine numbers in a Float64Array: its own array while the
 * body is outside a space, a slice of its space's (BodyStates, space/body-states.ts) while in one.
 * Body reads and writes them through its accessors; the space's write back writes every awake
 * body's slice at once, on every thread when there are workers (space/body-kernels.ts): a V8
 * object keeps each double field in a heap number of its own, and reading and writing ten
 * thousand bodies' fields one by one was a sixth of the joint grid's step with a worker.
 */

/**
 * The numbers' places in a body's slice: origin, angle, its cosine and sine, velocity, angular
 * velocity, and how long it has rested (seconds: the sleep test's, which write back keeps).
 */
export const STATE_X = 0, STATE_Y = 1, STATE_ANGLE = 2, STATE_C = 3, STATE_S = 4, STATE_VX = 5, STATE_VY = 6, STATE_W = 7, STATE_SLEEP = 8;
/** Numbers per body. */
export const STATE_LENGTH = 9;

/** A body's own state, at rest at the origin (cos 1). */
export function ownState(): Float64Array {
  const st = new Float64Array(STATE_LENGTH);
  st[STATE_C] = 1;
  return st;
}
