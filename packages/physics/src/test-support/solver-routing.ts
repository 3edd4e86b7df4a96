/**
 * Test access to a space's solver: route constraints away from a batch (to compare the batch
 * with the one-by-one path), and read the step's internal state. Not part of the public API.
 */
import type { Space } from '../space/space.js';
import type { SolverRouting } from '../space/step-plan.js';

/** Let (true) or keep (false) the joint batch or the user batch from taking constraints. */
export function setSolverRouting(space: Space, routing: Partial<SolverRouting>): void {
  Object.assign(space._pipeline.plan.routing, routing);
}

/** The step's internals, for white-box tests. */
export function solverInternals(space: Space) {
  const p = space._pipeline;
  return { plan: p.plan, userBatch: p.userBatch, jointBatch: p.jointBatch, solverBodies: p.bodies, contactSolver: p.contactSolver, steadyGather: p.steadyGather };
}
