/**
 * What a constraint sees of the current step. One object per space, reused every step.
 */
import type { SolverBodies } from './solver-bodies';
import type { Softness } from '../contact/contact-solver';

export interface StepContext {
  /** Full step. */
  dt: number;
  /** Substep length and its inverse. */
  h: number;
  invH: number;
  substeps: number;
  bodies: SolverBodies;
  /** Softness that makes "stiff" joints converge without overshoot (Box2D v3 joint softness). */
  jointSoftness: Softness;
}
