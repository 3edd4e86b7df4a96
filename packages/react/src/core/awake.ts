/**
 * Whether anything in a space can still move on its own, which decides whether demand mode
 * asks R3F for another frame. Through the public API this is a scan: a dynamic body that is not
 * asleep, or a kinematic body with a velocity. It stops at the first awake body, so it costs a
 * full pass only in the frame where everything has just fallen asleep.
 */
import type { Space } from '@fulcrum/physics';

export function anyAwake(space: Space): boolean {
  const bodies = space.bodies;
  for (let i = 0; i < bodies.length; i++) {
    const b = bodies[i]!;
    if (b.isDynamic) {
      if (!b.isSleeping) return true;
    } else if (b.isKinematic) {
      if (b.angularVel !== 0) return true;
      const v = b.velocity;
      if (v.x !== 0 || v.y !== 0) return true;
    }
  }
  return false;
}
