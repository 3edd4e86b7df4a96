/**
 * What a constraint sees of the current step. One object per space, reused every step.
 */
import type { SolverBodies } from './solver-bodies.js';
import type { Softness } from '../constraint/softness.js';

export interface StepContext {
  /** Full step. */
  dt: number;
  /** Substep length and its inverse. */
  h: number;
  invH: number;
  substeps: number;
  bodies: SolverBodies;
  /**
   * How stiff joints remove position drift in the biased pass: rigid (massScale 1, impulseScale 0,
   * so no load-dependent stretch) with bias velocity biasRate·C.
   */
  jointSoftness: Softness;
  /**
   * Changes whenever body poses may have changed (a new step, each substep's position
   * integration, the position passes), so a constraint can keep pose-dependent work (J, K)
   * across the velocity passes of one substep.
   */
  poseEpoch: number;
  /** Counts the steps begun: what a failed step puts back is what its preparation kept at this count. */
  step: number;
}
