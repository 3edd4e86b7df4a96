/**
 * How far one position pass may turn a body: every solver's position pass (the one-by-one joints,
 * the joint batch, the joint islands, UserConstraint and the user batch) damps its step by this
 * one rule.
 *
 * A position pass solves K λ = −C with J and C taken at the current pose, and moves each body by
 * M⁻¹Jᵀλ. That step is exact for translations, to which C is linear, but not for rotations: turning
 * a body by θ moves an anchor at lever r by r·θ along J's tangent and r·(1 − cos θ) ≈ r·θ²/2 off it,
 * so the linear step misses by about θ/2 of its length. For a small θ the next pass takes up the
 * rest. For a large one (a small body far from its joint's anchor, nearly dependent rows, a range
 * that cannot be met) the step overshoots, and the next overshoots further: valid fuzz scenes threw
 * bodies 1e5 m, and turned them 1e6 rad, in one step that way.
 *
 * So a pass that would turn some body by more than MAX_POSITION_TURN keeps its direction and
 * shortens its length (a damped Newton step): every body's correction in the pass is scaled by the
 * same factor, which brings the largest turn down to the limit. A pass whose turns are all within
 * it is unchanged, bit for bit. At 0.25 rad the linear step misses by about an eighth of itself,
 * and the next pass takes up the rest; a larger error is removed over a few passes (and steps), as
 * Box2D v2 limits its position corrections per pass (b2_maxAngularCorrection).
 *
 * What it costs: a joint that needs larger turns to close a large error closes it more slowly. The
 * benchmark's 100 × 100 net hanging from 7 discs (scene C), stretched 43% at its worst joint, turns
 * its discs up to 0.5 rad per step: after 6 s its worst anchor gap is 0.62 m instead of 0.43 m.
 * Chains (scenes D and G) are bitwise unchanged. What it buys: the fuzz's full run (1,000 scenes)
 * went from 105 blow-ups to 87 (95 with a limit of 0.5 or 1 rad, which also let one of the issue's
 * dense soft scenes diverge in soft-rows.test.ts).
 */

/** The largest turn one position pass gives a body, in radians. */
export const MAX_POSITION_TURN = 0.25;

/**
 * The pass's step factor so far (start from 1), lowered if a body's turn `turn` (radians, at
 * factor 1) would pass MAX_POSITION_TURN at that factor.
 */
export function limitTurn(scale: number, turn: number): number {
  // MAX_POSITION_TURN written out: a worker runs this function from its text, where no module
  // constant is in scope (parallel/worker-program.ts; position-step.test.ts checks the two agree).
  const a = Math.abs(turn);
  return a * scale > 0.25 ? 0.25 / a : scale;
}
