/**
 * The inverse of a contact row's K: the zero-pivot rule, and the turn-only rule for a row between
 * two bodies that cannot translate. One function that stands alone, so that the contact kernels
 * (contact-kernels.ts) take it as a part, on every thread.
 */

/**
 * The smallest lever share, (r × n)² / |r|² summed over the sides, at which a contact row between
 * two bodies that cannot translate still gets an impulse. Such a row moves its point only by
 * turning, so the impulse that holds it grows as 1/(r × n)²: at a lever of 0.1% of |r| (a box
 * corner of a body with allowMovement: false, pressed nearly along its radius by the ground) it
 * took 1e8 N·s, kept as the warm start, which the next step's lever (4% of |r|) turned into
 * 5e5 rad/s (fuzz seed 201194648). Under 1% of |r| the point is treated as on the line through
 * the centre, as the zero-pivot rule treats an exact one: it cannot be pushed along n.
 */
export const TURN_ONLY_LEVER_EPS = 1e-4;

/**
 * 1/k for a contact row whose K along any direction would be at most kScale: 0 by the zero-pivot
 * rule, and, when neither side can translate (turnOnly), 0 under TURN_ONLY_LEVER_EPS too.
 */
export function contactRowInverse(k: number, kScale: number, turnOnly: boolean): number {
  // TURN_ONLY_LEVER_EPS and pivotInverse's zero-pivot rule (ZERO_PIVOT_EPS = 1e-12) written out: a
  // worker runs this function from its text, where no module constant is in scope
  // (contact-kernels.ts; contact-solver.test.ts checks both rules).
  if (turnOnly) return k > 1e-4 * kScale ? 1 / k : 0;
  return Math.abs(k) > 1e-12 * (kScale > 0 ? kScale : 1) ? 1 / k : 0;
}
