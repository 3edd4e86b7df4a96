/**
 * The packed body state a UserConstraint's hooks receive: per body slot s (the constraint's
 * `bodyList` order), ten numbers at `s * BODY_STATE_STRIDE`. Reading plain numbers from one
 * Float64Array lets a hook (or compiled code, as @fulcrum/symbolic generates) run with no getter
 * calls and no allocation, and with `packedState: true` the engine need not write each substep's
 * state back into the Body objects at all.
 *
 * Velocities are the centre of mass's (Body.constraintVelocity), the same columns the Jacobian uses.
 */
import type { Body } from '../body/body.js';
import type { SolverBodies } from '../space/solver-bodies.js';

export const BODY_STATE_STRIDE = 10;

/** Offsets within one body's slot of the packed state. */
export const BodyState = Object.freeze({
  /** Body origin (Body.position). */
  x: 0,
  y: 1,
  rotation: 2,
  cos: 3,
  sin: 4,
  /** Centre-of-mass velocity and angular velocity (Body.constraintVelocity). */
  vx: 5,
  vy: 6,
  angularVel: 7,
  /** World centre of mass (Body.worldCenter). */
  comX: 8,
  comY: 9,
} as const);

/**
 * Write body `b`'s current state at `base`. Inside a step a body gathered into the solver
 * (solver index k > 0) is read from the solver arrays (its pose is the step's start composed with
 * the accumulated deltas, as SolverBodies.writeState does); any other body from its fields.
 */
export function fillBodyState(state: Float64Array, base: number, b: Body, sb: SolverBodies | null): void {
  const k = sb === null ? -1 : b._solverIndex;
  if (k > 0) {
    fillSolverBodyState(state, base, sb!, k, b._lcx, b._lcy);
    return;
  }
  const c = b._c;
  const s = b._s;
  state[base] = b._x;
  state[base + 1] = b._y;
  state[base + 2] = b._angle;
  state[base + 3] = c;
  state[base + 4] = s;
  state[base + 5] = b._vx;
  state[base + 6] = b._vy;
  state[base + 7] = b._w;
  state[base + 8] = b._x + c * b._lcx - s * b._lcy;
  state[base + 9] = b._y + s * b._lcx + c * b._lcy;
}

/**
 * The state of solver body k (its centre of mass at (lcx, lcy) in its own frame): the pose is the
 * step's start composed with the accumulated deltas, as SolverBodies.writeState computes it.
 */
export function fillSolverBodyState(state: Float64Array, base: number, sb: SolverBodies, k: number, lcx: number, lcy: number): void {
  fillSolverBodyPose(state, base, sb, k, lcx, lcy);
  fillSolverBodyMotion(state, base, sb, k);
}

/** What fillSolverBodyPose and fillSolverBodyMotion read of the solver bodies (SolverBodies, or a parallel stage's views of them). */
export type SolverBodyArrays = Record<'c0' | 's0' | 'dqc' | 'dqs' | 'cx' | 'cy' | 'dpx' | 'dpy' | 'a0' | 'dq' | 'vx' | 'vy' | 'w', Float64Array>;

/**
 * fillSolverBodyState's other fields: the angle and the velocities. (It and fillSolverBodyPose
 * stand alone: the user batch's pose kernels take them as parts, constraint/user-pose-kernels.ts.)
 */
export function fillSolverBodyMotion(state: Float64Array, base: number, sb: SolverBodyArrays, k: number): void {
  state[base + 2] = sb.a0[k]! + sb.dq[k]!;
  state[base + 5] = sb.vx[k]!;
  state[base + 6] = sb.vy[k]!;
  state[base + 7] = sb.w[k]!;
}

/**
 * fillSolverBodyState's pose fields: the origin, cos/sin and the world centre of mass.
 */
export function fillSolverBodyPose(state: Float64Array, base: number, sb: SolverBodyArrays, k: number, lcx: number, lcy: number): void {
  const c0 = sb.c0[k]!;
  const s0 = sb.s0[k]!;
  const dc = sb.dqc[k]!;
  const ds = sb.dqs[k]!;
  const c = c0 * dc - s0 * ds;
  const s = s0 * dc + c0 * ds;
  const cx = sb.cx[k]! + sb.dpx[k]!;
  const cy = sb.cy[k]! + sb.dpy[k]!;
  state[base] = cx - (c * lcx - s * lcy);
  state[base + 1] = cy - (s * lcx + c * lcy);
  state[base + 3] = c;
  state[base + 4] = s;
  state[base + 8] = cx;
  state[base + 9] = cy;
}

/** An empty slot (no body yet): identity rotation, everything else zero. */
export function clearBodyState(state: Float64Array, base: number): void {
  state.fill(0, base, base + BODY_STATE_STRIDE);
  state[base + 3] = 1;
}
