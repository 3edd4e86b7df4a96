/**
 * A body's numbers (its state and the settings the step reads) in a Float64Array: its own array
 * while the body is outside a space, a slice of its space's (BodyStates, space/body-states.ts)
 * while in one. Body reads and writes them through its accessors; the space's write back writes
 * every awake body's state at once, and gather reads every awake body's numbers at once, on every
 * thread when there are workers (space/body-kernels.ts): a V8 object keeps each double field in a
 * heap number of its own, and reading and writing ten thousand bodies' fields one by one was a
 * sixth of the joint grid's step with a worker (write back), then a tenth (gather).
 */

/**
 * The state's places in a body's slice: origin, angle, its cosine and sine, velocity, angular
 * velocity (the first eight: one cache line), and how long it has rested (seconds: the sleep
 * test's, which write back keeps).
 */
export const STATE_X = 0, STATE_Y = 1, STATE_ANGLE = 2, STATE_C = 3, STATE_S = 4, STATE_VX = 5, STATE_VY = 6, STATE_W = 7, STATE_SLEEP = 8;
/**
 * The settings' places, which only the body writes (its setters, its mass update) and gather reads:
 * force and torque, inverse mass and inertia, the centre of mass in the body's frame, drags,
 * gravity scale, and the thinnest shape's extent and the farthest point's distance from the centre
 * of mass (continuous collision's test).
 */
export const STATE_FX = 9, STATE_FY = 10, STATE_TORQUE = 11, STATE_INV_MASS = 12, STATE_INV_I = 13, STATE_LCX = 14, STATE_LCY = 15,
  STATE_LINEAR_DRAG = 16, STATE_ANGULAR_DRAG = 17, STATE_GRAVITY_SCALE = 18, STATE_MIN_EXTENT = 19, STATE_MAX_EXTENT = 20;
/**
 * Numbers per body: 21 used and three spare, 192 bytes, so that in an array that starts on a
 * 64-byte cache line each body's state (the first eight) fills one line of its own.
 */
export const STATE_LENGTH = 24;

/** A body's own numbers: at rest at the origin (cos 1), gravity scale 1, no shape (thinnest: Infinity). */
export function ownState(): Float64Array {
  const st = new Float64Array(STATE_LENGTH);
  st[STATE_C] = 1;
  st[STATE_GRAVITY_SCALE] = 1;
  st[STATE_MIN_EXTENT] = Infinity;
  return st;
}
