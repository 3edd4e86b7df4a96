/**
 * The packed body state the compiled kernels read: per body slot s (the constraint's body
 * order), ten numbers starting at 10·s. The layout is the one @fulcrum/physics is adopting for
 * UserConstraint's `packedState` option (BODY_STATE_STRIDE, BodyState), so that the engine can
 * hand its own array to the hooks.
 */
import type { Body } from '@fulcrum/physics';

export const BODY_STATE_STRIDE = 10;

/** Offsets inside one body's block of the state array. */
export const BodyState = {
  /** Origin (Body.position). */
  x: 0,
  y: 1,
  rotation: 2,
  cos: 3,
  sin: 4,
  /** Centre-of-mass velocity (Body.constraintVelocity). */
  vx: 5,
  vy: 6,
  angularVel: 7,
  /** World centre of mass. */
  comX: 8,
  comY: 9,
} as const;

/**
 * Fill slot `slot` of `state` from the public Body getters. Used until the engine passes the
 * state to the hooks itself. (`velocity` and `worldCenter` return fresh objects: the only
 * allocations on the hook path, and they go away with the engine's packed state.)
 */
export function readBodyState(body: Body, state: Float64Array, slot: number): void {
  const o = slot * BODY_STATE_STRIDE;
  const rotation = body.rotation;
  const v = body.velocity;
  const c = body.worldCenter;
  state[o + BodyState.x] = body.x;
  state[o + BodyState.y] = body.y;
  state[o + BodyState.rotation] = rotation;
  state[o + BodyState.cos] = Math.cos(rotation);
  state[o + BodyState.sin] = Math.sin(rotation);
  state[o + BodyState.vx] = v.x;
  state[o + BodyState.vy] = v.y;
  state[o + BodyState.angularVel] = body.angularVel;
  state[o + BodyState.comX] = c.x;
  state[o + BodyState.comY] = c.y;
}
