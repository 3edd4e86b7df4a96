/**
 * Drivers: bodies that move by a velocity nothing in the space can change, because their mass or
 * inertia is infinite on that motion: a kinematic body that moves, or a dynamic one with
 * `allowMovement: false` and a velocity, or `allowRotation: false` and an angular velocity (Nape's
 * semantics: such a body keeps what it has). A driver can feed a scene energy without bound, and
 * some such scenes do diverge by physics (a bead free on a rod that an infinite inertia spins
 * goes as r₀·cosh(ωt): `space/dynamics.test.ts` in @fulcrum/physics), while others ask the
 * impossible (a driver pulling a body through a fixed joint). The fuzz still fails a run on every
 * blow-up; this only says, for each, which drivers its constraint graph reaches, so that its
 * figures separate those from blow-ups in scenes where nothing has infinite inertia.
 */
import type { Body, Space } from '@fulcrum/physics';

/** Why `b` is a driver, or null. */
export function driverKind(b: Body): string | null {
  const v = b.velocity;
  const moving = v.x !== 0 || v.y !== 0;
  const turning = b.angularVel !== 0;
  if (b.type === 'kinematic') return moving || turning ? 'kinematic' : null;
  if (b.type !== 'dynamic') return null;
  if (!b.allowMovement && moving) return 'allowMovement: false, moving';
  if (!b.allowRotation && turning) return 'allowRotation: false, turning';
  return null;
}

/**
 * The drivers joined to `body` by a path of active constraints (contacts are not followed: a
 * driver that reaches a body only through contacts is not counted, so the split errs towards
 * calling a blow-up undriven). Each as "Body#id (why)".
 */
export function driversReaching(space: Space, body: Body): string[] {
  const seen = new Set<Body>([body]);
  const queue: Body[] = [body];
  const out: string[] = [];
  for (let i = 0; i < queue.length; i++) {
    const b = queue[i]!;
    const why = driverKind(b);
    if (why !== null) out.push(`Body#${b.id} (${why})`);
    if (b.type !== 'dynamic') continue; // a static or kinematic body passes nothing on
    for (const c of space.constraints) {
      if (!c.active || !c.bodies.includes(b)) continue;
      for (const o of c.bodies) {
        if (seen.has(o)) continue;
        seen.add(o);
        queue.push(o);
      }
    }
  }
  return out;
}
