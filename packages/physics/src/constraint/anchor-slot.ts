/**
 * One body of a joint as the solver sees it for one step: its solver index (0 = the dummy
 * static body), inverse mass and inertia, its centre of mass and angle at the start of the
 * step, and an anchor. `update()` moves the anchor by the body's position deltas so each
 * pass works with current geometry without recomputing trigonometry from angles.
 */
import type { Body } from '../body/body.js';
import type { SolverBodies } from '../space/solver-bodies.js';

export class AnchorSlot {
  body: Body | null = null;
  /** Anchor in the body's local frame (relative to its origin). */
  ax = 0;
  ay = 0;
  /** Solver index, 0 for static/sleeping/non-moving bodies (the dummy body). */
  k = 0;
  m = 0;
  i = 0;
  /** Centre of mass and angle at the start of the step. */
  cx = 0;
  cy = 0;
  a0 = 0;
  /** Anchor offset from the centre of mass at the start of the step (world frame). */
  r0x = 0;
  r0y = 0;
  /** Current anchor offset from the centre of mass, world anchor, angle (after update()). */
  rx = 0;
  ry = 0;
  px = 0;
  py = 0;
  angle = 0;
  /** Impulse applied to this slot's body over the current step (linear x, y and angular). */
  ix = 0;
  iy = 0;
  iz = 0;

  prepare(sb: SolverBodies): void {
    const b = this.body!;
    const k = b._solverIndex > 0 ? b._solverIndex : 0;
    this.k = k;
    this.m = sb.invMass[k]!;
    this.i = sb.invI[k]!;
    const c = b._c;
    const s = b._s;
    this.cx = b._x + c * b._lcx - s * b._lcy;
    this.cy = b._y + s * b._lcx + c * b._lcy;
    this.a0 = b._angle;
    const lx = this.ax - b._lcx;
    const ly = this.ay - b._lcy;
    this.r0x = c * lx - s * ly;
    this.r0y = s * lx + c * ly;
    this.ix = this.iy = this.iz = 0;
  }

  update(sb: SolverBodies): void {
    const k = this.k;
    const c = sb.dqc[k]!;
    const s = sb.dqs[k]!;
    this.rx = c * this.r0x - s * this.r0y;
    this.ry = s * this.r0x + c * this.r0y;
    this.px = this.cx + sb.dpx[k]! + this.rx;
    this.py = this.cy + sb.dpy[k]! + this.ry;
    this.angle = this.a0 + sb.dq[k]!;
  }
}
