/**
 * The solver bodies' gather, integration and write back (solver-bodies.ts), made by a factory that
 * a worker can rebuild from source text, as the contact and joint kernels are
 * (contact/contact-kernels.ts): it refers to nothing outside itself but its parameters, the shared
 * parts it calls (capSpeed and turnBody below), each of which stands alone too. Each kernel takes
 * a range of solver bodies [from, to): a body's numbers are read and written for that body alone,
 * so any split of the bodies over threads gives the same bits. The calling thread runs BODY_KERNELS, made by the same factory.
 */
/**
 * Body i slowed to maxSpeed (m/s) and maxSpin (rad/s), as Box2D v3 does (SpaceOptions.maxLinearSpeed
 * and maxRotationPerSubstep); see SolverBodies.capSpeeds for why. A body so slowed is marked in
 * atCap, and so is atCap[0] (the static stand-in, which no cap ever slows): "some body was".
 */
export function capSpeed(
  vx: Float64Array, vy: Float64Array, w: Float64Array, invMass: Float64Array, spinCapped: Uint8Array, atCap: Uint8Array, i: number, maxSpeed: number, maxSpin: number,
): void {
  const x = vx[i]!;
  const y = vy[i]!;
  const speed2 = x * x + y * y;
  if (speed2 > maxSpeed * maxSpeed && invMass[i]! > 0) {
    // hypot, not sqrt(speed2): the square overflows from 1.3e154 m/s, and 1/∞ would stop the body.
    const slow = maxSpeed / Math.hypot(x, y);
    vx[i] = x * slow;
    vy[i] = y * slow;
    atCap[i] = 1;
    atCap[0] = 1;
  }
  const spin = w[i]!;
  if ((spin > maxSpin || spin < -maxSpin) && spinCapped[i] === 1) {
    w[i] = spin > 0 ? maxSpin : -maxSpin;
    atCap[i] = 1;
    atCap[0] = 1;
  }
}

/**
 * SolverBodies.rotate on the arrays themselves: body i's accumulated turn dq, and its cos and sin
 * (dqc, dqs), turned by da. SMALL_TURN is written out: a worker runs this function from its text,
 * where no module constant is in scope (parallel/worker-program.ts; constraint/pivot-kernels.test.ts checks it).
 */
export function turnBody(dq: Float64Array, dqc: Float64Array, dqs: Float64Array, i: number, da: number): void {
  const a = dq[i]! + da;
  dq[i] = a;
  if (da < 0.125 && da > -0.125) {
    const d2 = da * da;
    const d4 = d2 * d2;
    const cd = 1 - 0.5 * d2 + d4 * (1 / 24 - (1 / 720) * d2 + d4 * (1 / 40320 - (1 / 3628800) * d2));
    const sd = da * (1 - (1 / 6) * d2 + d4 * (1 / 120 - (1 / 5040) * d2 + d4 * (1 / 362880 - (1 / 39916800) * d2)));
    const c = dqc[i]!;
    const s = dqs[i]!;
    dqc[i] = c * cd - s * sd;
    dqs[i] = s * cd + c * sd;
    return;
  }
  dqc[i] = Math.cos(a);
  dqs[i] = Math.sin(a);
}

export function bodyKernels(cap: typeof capSpeed, turn: typeof turnBody) {
  /** Substep velocity integration of bodies [from, to): v ← (v + h·a) · 1/(1 + h·drag), the factors from gather. Kinematic bodies keep theirs. */
  function integrateVelocities(
    vx: Float64Array, vy: Float64Array, w: Float64Array, dvx: Float64Array, dvy: Float64Array, dw: Float64Array,
    linearDamp: Float64Array, angularDamp: Float64Array, dynamic: Uint8Array, from: number, to: number,
  ): void {
    // (from >>> 0, here and in every kernel loop: V8 then knows the index is not negative and drops
    // checks it made on each row; a loop from a plain `from` made the 200-link chain's pass 5% slower.)
    for (let i = from >>> 0; i < to; i++) {
      if (dynamic[i] === 0) continue;
      const ld = linearDamp[i]!;
      const ad = angularDamp[i]!;
      vx[i] = (vx[i]! + dvx[i]!) * ld;
      vy[i] = (vy[i]! + dvy[i]!) * ld;
      w[i] = (w[i]! + dw[i]!) * ad;
    }
  }

  /**
   * Substep position integration of bodies [from, to) (symplectic Euler on the deltas; rotation by
   * turnBody), each body first slowed to the speed caps (capSpeed).
   */
  function integratePositions(
    vx: Float64Array, vy: Float64Array, w: Float64Array, dpx: Float64Array, dpy: Float64Array, dq: Float64Array, dqc: Float64Array, dqs: Float64Array,
    invMass: Float64Array, spinCapped: Uint8Array, atCap: Uint8Array, prm: Float64Array, from: number, to: number,
  ): void {
    // The substep and the caps come in the stage's numbers (parallel/control.ts's PARAMS), not as
    // arguments: a call with double arguments boxes them, an allocation in every substep.
    const H = 8, MAX_SPEED = 9, MAX_SPIN = 10;
    const h = prm[H]!;
    const maxSpeed = prm[MAX_SPEED]!;
    const maxSpin = prm[MAX_SPIN]!;
    const maxSpeed2 = maxSpeed * maxSpeed;
    for (let i = from >>> 0; i < to; i++) {
      const vxi = vx[i]!;
      const vyi = vy[i]!;
      const wi = w[i]!;
      // One test for both caps in the usual case (neither reached); capSpeed then does the work.
      if (vxi * vxi + vyi * vyi > maxSpeed2 || wi > maxSpin || wi < -maxSpin) cap(vx, vy, w, invMass, spinCapped, atCap, i, maxSpeed, maxSpin);
      dpx[i] = dpx[i]! + h * vx[i]!;
      dpy[i] = dpy[i]! + h * vy[i]!;
      const wn = w[i]!;
      if (wn !== 0) turn(dq, dqc, dqs, i, h * wn);
    }
  }

  /**
   * Write back of bodies [from, to): each one's velocity, and, when it moved, its pose, into its
   * slice of the space's body states (body/state-layout.ts's layout, written out). The rotation is the
   * start rotation composed with the accumulated one (cos and sin known: no trigonometry); the
   * origin follows from the moved centre of mass through the new rotation. A body that did not
   * move keeps its pose to the bit (recomputed, its origin could differ in the last bit).
   */
  function writeBack(v: WriteBackViews, from: number, to: number): void {
    const STATE = 24, Y = 1, ANGLE = 2, C = 3, S = 4, VX = 5, VY = 6, W = 7;
    const { bstate: st, bslot, vx, vy, w, dpx, dpy, dq, dqc, dqs, a0, c0, s0, cx, cy, lcx, lcy } = v;
    for (let i = from >>> 0; i < to; i++) {
      const o = bslot[i]! * STATE;
      st[o + VX] = vx[i]!;
      st[o + VY] = vy[i]!;
      st[o + W] = w[i]!;
      const px = dpx[i]!;
      const py = dpy[i]!;
      const turn = dq[i]!;
      if (px === 0 && py === 0 && turn === 0) continue;
      const c0i = c0[i]!;
      const s0i = s0[i]!;
      const dc = dqc[i]!;
      const ds = dqs[i]!;
      st[o + ANGLE] = a0[i]! + turn;
      const c = c0i * dc - s0i * ds;
      const s = s0i * dc + c0i * ds;
      st[o + C] = c;
      st[o + S] = s;
      const lx = lcx[i]!;
      const ly = lcy[i]!;
      st[o] = cx[i]! + px - (c * lx - s * ly);
      st[o + Y] = cy[i]! + py - (s * lx + c * ly);
    }
  }

  /**
   * Gather of bodies [from, to): each one's numbers from its slice of the space's body states
   * (body/state-layout.ts's layout, written out) into the solver arrays, and what integration adds
   * and multiplies by for the step (SolverBodies.dvx …). The gravity and the substep come in the
   * stage's numbers (PARAMS). SolverBodies.add chose the bodies and set their flags (dynamic, swept).
   */
  function gather(v: GatherViews, prm: Float64Array, from: number, to: number): void {
    const STATE = 24, Y = 1, ANGLE = 2, C = 3, S = 4, VX = 5, VY = 6, W = 7, FX = 9, FY = 10, TORQUE = 11, INV_MASS = 12, INV_I = 13, LCX = 14, LCY = 15,
      LINEAR_DRAG = 16, ANGULAR_DRAG = 17, GRAVITY_SCALE = 18, MIN_EXTENT = 19, MAX_EXTENT = 20;
    const STEP_H = 8, GRAVITY_X = 20, GRAVITY_Y = 21;
    // (FAST_SHARE, solver-bodies.ts: the share of its thinnest shape a body may move unswept.)
    const FAST_SHARE = 0.5;
    const h = prm[STEP_H]!;
    const gx = prm[GRAVITY_X]!;
    const gy = prm[GRAVITY_Y]!;
    const { bstate: st, bslot, vx, vy, w, dpx, dpy, dq, dqc, dqs, invMass, invI, dynamic, swept, atCap, ccdSlack, reach } = v;
    const { dvx, dvy, dw, linearDamp, angularDamp, lcx, lcy, cx, cy, a0, c0, s0 } = v;
    for (let i = from >>> 0; i < to; i++) {
      const o = bslot[i]! * STATE;
      vx[i] = st[o + VX]!;
      vy[i] = st[o + VY]!;
      w[i] = st[o + W]!;
      dpx[i] = 0;
      dpy[i] = 0;
      dq[i] = 0;
      dqc[i] = 1;
      dqs[i] = 0;
      const im = st[o + INV_MASS]!;
      const ii = st[o + INV_I]!;
      invMass[i] = im;
      invI[i] = ii;
      atCap[i] = 0;
      if (swept[i] === 1) ccdSlack[i] = FAST_SHARE * st[o + MIN_EXTENT]!;
      else ccdSlack[i] = Infinity;
      reach[i] = st[o + MAX_EXTENT]!;
      const dyn = dynamic[i] === 1;
      const gs = st[o + GRAVITY_SCALE]!;
      dvx[i] = h * (dyn && im > 0 ? st[o + FX]! * im + gx * gs : 0);
      dvy[i] = h * (dyn && im > 0 ? st[o + FY]! * im + gy * gs : 0);
      dw[i] = h * (dyn ? st[o + TORQUE]! * ii : 0);
      linearDamp[i] = 1 / (1 + h * st[o + LINEAR_DRAG]!);
      angularDamp[i] = 1 / (1 + h * st[o + ANGULAR_DRAG]!);
      const lx = st[o + LCX]!;
      const ly = st[o + LCY]!;
      lcx[i] = lx;
      lcy[i] = ly;
      const c = st[o + C]!;
      const s = st[o + S]!;
      cx[i] = st[o]! + c * lx - s * ly;
      cy[i] = st[o + Y]! + s * lx + c * ly;
      a0[i] = st[o + ANGLE]!;
      c0[i] = c;
      s0[i] = s;
    }
  }

  return { integrateVelocities, integratePositions, writeBack, gather };
}

/** What write back reads and writes (SolverBodies has them by these names, and so do a stage's views). */
export interface WriteBackViews {
  bstate: Float64Array;
  bslot: Int32Array;
  vx: Float64Array;
  vy: Float64Array;
  w: Float64Array;
  dpx: Float64Array;
  dpy: Float64Array;
  dq: Float64Array;
  dqc: Float64Array;
  dqs: Float64Array;
  a0: Float64Array;
  c0: Float64Array;
  s0: Float64Array;
  cx: Float64Array;
  cy: Float64Array;
  lcx: Float64Array;
  lcy: Float64Array;
}

/** What gather reads and writes beyond write back's (SolverBodies has them by these names, and so do a stage's views). */
export interface GatherViews extends WriteBackViews {
  invMass: Float64Array;
  invI: Float64Array;
  dynamic: Uint8Array;
  swept: Uint8Array;
  atCap: Uint8Array;
  ccdSlack: Float64Array;
  reach: Float64Array;
  dvx: Float64Array;
  dvy: Float64Array;
  dw: Float64Array;
  linearDamp: Float64Array;
  angularDamp: Float64Array;
}

/** The parts the factory takes, in its parameters' order (a worker's program passes their text). */
export const BODY_KERNEL_PARTS = [capSpeed, turnBody] as const;

/** The kernels the calling thread runs. */
export const BODY_KERNELS = bodyKernels(...BODY_KERNEL_PARTS);

export type BodyKernels = ReturnType<typeof bodyKernels>;
