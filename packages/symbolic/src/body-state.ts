/**
 * The packed body state the compiled kernels read: per body slot s (the constraint's body
 * order), BODY_STATE_STRIDE numbers starting at s·BODY_STATE_STRIDE, at the offsets BodyState
 * names. This is @fulcrum/physics' layout: with UserConstraint's `packedState` option the engine
 * passes its own array, filled for the current substep, to the hooks.
 */
import { BODY_STATE_STRIDE, BodyState, type Body } from '@fulcrum/physics';

export { BODY_STATE_STRIDE, BodyState };

/**
 * Fill slot `slot` of `state` from the public Body getters: for hooks called outside a step
 * (by a test or a tool), where the engine passes no state. (`velocity` and `worldCenter` return
 * fresh objects; the engine's own state allocates nothing.)
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
