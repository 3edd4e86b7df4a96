/**
 * The contact solver's passes (contact-solver.ts has the derivation), made by a factory that a
 * worker can rebuild from source text: the factory refers to nothing outside itself but its
 * parameters, the shared constraint parts it calls (softUpdate of constraint/softness.ts, clamp of
 * constraint/dense.ts), so `(${contactKernels})(${softUpdate}, ${clamp})` is a working program
 * (parallel/worker-source.ts). Each pass declares its own layout constants (locals fold into the
 * code; contact-kernels.test.ts checks them against contact-solver.ts's). The calling thread runs
 * CONTACT_KERNELS, made by the same factory from the same parts: one copy of the arithmetic, on
 * every thread, and V8 inlines the parts as it does a direct call (constraint/inlining.test.ts).
 * Each pass takes a range of rows [from, to): a colour's share, or every row.
 *
 * The pass's softness comes as six numbers, `soft`: biasRate, massScale and impulseScale of the
 * space's contact spring, then those of the stiffer one against a static or kinematic side.
 */
import { clamp as sharedClamp } from '../constraint/dense.js';
import { softUpdate as sharedSoftUpdate } from '../constraint/softness.js';
import { contactRowInverse as sharedContactRowInverse } from './contact-row-inverse.js';
import type { StageViews } from '../parallel/thread-runtime.js';

export function contactKernels(softUpdate: typeof sharedSoftUpdate, clamp: typeof sharedClamp, contactRowInverse: typeof sharedContactRowInverse) {
  /**
   * Rows [from, to) from their contacts' manifolds (the contact store's slots) and their bodies'
   * state at the step's start. Row k is contact corder[k] of contact-solver.ts's list (its store
   * slot in cslots, its solver bodies in cpairs): the row's slot and bodies go into `ends` and its
   * rounding radii from the store; for a side outside the solver, prepare has written that body's
   * centre of mass in `centre`. Each row is written whole from what no row writes: any split of
   * the rows over threads gives the same bits.
   */
  function prepare(v: StageViews, from: number, to: number): void {
    const STRIDE = 32, M_A = 0, M_B = 1, I_A = 2, I_B = 3, NX = 4, NY = 5, FRICTION = 6, TANGENT_SPEED = 7, POINT = 8, POINT_STRIDE = 12, R_AX = 0, R_AY = 1, R_BX = 2, R_BY = 3, ADJ_SEP = 4, NORMAL_MASS = 5, TANGENT_MASS = 6, NORMAL_IMPULSE = 7, TANGENT_IMPULSE = 8, TOTAL_NORMAL = 9, TOTAL_TANGENT = 10, RADIUS_A = POINT + 11, RADIUS_B = POINT + POINT_STRIDE + 11;
    const order = v.corder, list = v.cslots, pairs = v.cpairs, radiusA = v.sradiusA, radiusB = v.sradiusB;
    const d = v.d, ends = v.ends, points = v.points, rigidSide = v.rigidSide, approach = v.approach, bounce = v.bounce, centre = v.centre;
    const snx = v.snx, sny = v.sny, spx = v.spx, spy = v.spy, separation = v.sseparation, normalImpulse = v.snormalImpulse, tangentImpulse = v.stangentImpulse;
    const invMass = v.invMass, invI = v.invI, cx = v.cx, cy = v.cy, vx = v.vx, vy = v.vy, w = v.w;
    // (from >>> 0, here and in every kernel loop: V8 then knows the index is not negative and drops
    // checks it made on each row; a loop from a plain `from` made the 200-link chain's pass 5% slower.)
    for (let k = from >>> 0; k < to; k++) {
      const o = k * STRIDE;
      const i = order[k]!;
      const s = list[i]!;
      const a = pairs[2 * i]!;
      const b = pairs[2 * i + 1]!;
      ends[3 * k] = s;
      ends[3 * k + 1] = a;
      ends[3 * k + 2] = b;
      d[o + RADIUS_A] = radiusA[s]!;
      d[o + RADIUS_B] = radiusB[s]!;
      const nx = snx[s]!;
      const ny = sny[s]!;
      d[o + NX] = nx;
      d[o + NY] = ny;
      d[o + FRICTION] = v.sfriction[s]!;
      bounce[k] = v.srestitution[s]!;
      d[o + TANGENT_SPEED] = v.stangentSpeed[s]!;
      const pointCount = v.spointCount[s]!;
      points[k] = pointCount;
      const mA = invMass[a]!;
      const mB = invMass[b]!;
      const iA = invI[a]!;
      const iB = invI[b]!;
      d[o + M_A] = mA;
      d[o + M_B] = mB;
      d[o + I_A] = iA;
      d[o + I_B] = iB;
      rigidSide[k] = mA === 0 || mB === 0 ? 1 : 0;
      // World centres of mass at step start (a side outside the solver: its body's, in `centre`).
      const cAx = a > 0 ? cx[a]! : centre[2 * k]!;
      const cAy = a > 0 ? cy[a]! : centre[2 * k + 1]!;
      const cBx = b > 0 ? cx[b]! : centre[2 * k]!;
      const cBy = b > 0 ? cy[b]! : centre[2 * k + 1]!;
      const vAx = vx[a]!, vAy = vy[a]!, wA = w[a]!;
      const vBx = vx[b]!, vBy = vy[b]!, wB = w[b]!;
      const tx = ny;
      const ty = -nx;
      for (let j = 0; j < pointCount; j++) {
        const p = o + POINT + POINT_STRIDE * j;
        const q = 2 * s + j;
        const px = spx[q]!;
        const py = spy[q]!;
        const rAx = px - cAx;
        const rAy = py - cAy;
        const rBx = px - cBx;
        const rBy = py - cBy;
        d[p + R_AX] = rAx;
        d[p + R_AY] = rAy;
        d[p + R_BX] = rBx;
        d[p + R_BY] = rBy;
        d[p + ADJ_SEP] = separation[q]! - ((rBx - rAx) * nx + (rBy - rAy) * ny);
        const rnA = rAx * ny - rAy * nx;
        const rnB = rBx * ny - rBy * nx;
        const kn = mA + mB + iA * rnA * rnA + iB * rnB * rnB;
        // The zero-pivot rule against the K the point would have along any direction: a body that can
        // only turn, touched along a line through its centre (a pinned circle), has kn of round-off
        // alone, whose inverse spun it up to 1e17 rad/s. Between bodies that cannot translate, a
        // near-radial lever is as bad (contactRowInverse).
        const kScale = mA + mB + iA * (rAx * rAx + rAy * rAy) + iB * (rBx * rBx + rBy * rBy);
        const turnOnly = mA + mB === 0;
        d[p + NORMAL_MASS] = contactRowInverse(kn, kScale, turnOnly);
        const rtA = rAx * ty - rAy * tx;
        const rtB = rBx * ty - rBy * tx;
        const kt = mA + mB + iA * rtA * rtA + iB * rtB * rtB;
        d[p + TANGENT_MASS] = contactRowInverse(kt, kScale, turnOnly);
        d[p + NORMAL_IMPULSE] = normalImpulse[q]!;
        d[p + TANGENT_IMPULSE] = tangentImpulse[q]!;
        d[p + TOTAL_NORMAL] = -normalImpulse[q]!;
        d[p + TOTAL_TANGENT] = -tangentImpulse[q]!;
        // Approach speed before the step, for restitution.
        const dvx = vBx - wB * rBy - (vAx - wA * rAy);
        const dvy = vBy + wB * rBx - (vAy + wA * rAx);
        approach[2 * k + j] = dvx * nx + dvy * ny;
      }
    }
  }

  /** Warm start rows [from, to): apply each point's accumulated impulse, and add it to the step's totals. */
  function warmStart(
    d: Float64Array, ends: Int32Array, points: Uint8Array, vx: Float64Array, vy: Float64Array, w: Float64Array, from: number, to: number,
  ): void {
    const STRIDE = 32, M_A = 0, M_B = 1, I_A = 2, I_B = 3, NX = 4, NY = 5, POINT = 8, POINT_STRIDE = 12, R_AX = 0, R_AY = 1, R_BX = 2, R_BY = 3, NORMAL_IMPULSE = 7, TANGENT_IMPULSE = 8, TOTAL_NORMAL = 9, TOTAL_TANGENT = 10;
    for (let k = from >>> 0; k < to; k++) {
      const o = k * STRIDE;
      const a = ends[3 * k + 1];
      const b = ends[3 * k + 2];
      const mA = d[o + M_A], mB = d[o + M_B], iA = d[o + I_A], iB = d[o + I_B];
      const nx = d[o + NX], ny = d[o + NY];
      let vAx = vx[a]!, vAy = vy[a]!, wA = w[a]!;
      let vBx = vx[b]!, vBy = vy[b]!, wB = w[b]!;
      for (let j = 0, pc = points[k]!; j < pc; j++) {
        const p = o + POINT + POINT_STRIDE * j;
        const ni = d[p + NORMAL_IMPULSE];
        const ti = d[p + TANGENT_IMPULSE];
        d[p + TOTAL_NORMAL] += ni;
        d[p + TOTAL_TANGENT] += ti;
        const Px = ni * nx + ti * ny;
        const Py = ni * ny - ti * nx;
        vAx -= mA * Px;
        vAy -= mA * Py;
        wA -= iA * (d[p + R_AX] * Py - d[p + R_AY] * Px);
        vBx += mB * Px;
        vBy += mB * Py;
        wB += iB * (d[p + R_BX] * Py - d[p + R_BY] * Px);
      }
      if (a > 0) {
        vx[a] = vAx;
        vy[a] = vAy;
        w[a] = wA;
      }
      if (b > 0) {
        vx[b] = vBx;
        vy[b] = vBy;
        w[b] = wB;
      }
    }
    }

  /**
   * One pass over rows [from, to): useBias, the biased "solve"; otherwise "relax". The manifold's
   * two points are written out rather than looped (contact-solver.ts says why).
   */
  function pass(
    d: Float64Array, ends: Int32Array, points: Uint8Array, rigidSide: Uint8Array,
    vx: Float64Array, vy: Float64Array, w: Float64Array, dpx: Float64Array, dpy: Float64Array, dqc: Float64Array, dqs: Float64Array,
    from: number, to: number, invH: number, useBias: boolean, maxBias: number, soft: Float64Array,
  ): void {
    const STRIDE = 32, M_A = 0, M_B = 1, I_A = 2, I_B = 3, NX = 4, NY = 5, FRICTION = 6, TANGENT_SPEED = 7, POINT = 8, POINT_STRIDE = 12, R_AX = 0, R_AY = 1, R_BX = 2, R_BY = 3, ADJ_SEP = 4, NORMAL_MASS = 5, TANGENT_MASS = 6, NORMAL_IMPULSE = 7, TANGENT_IMPULSE = 8, RADIUS_A = POINT + 11, RADIUS_B = POINT + POINT_STRIDE + 11;
    for (let k = from >>> 0; k < to; k++) {
      const o = k * STRIDE;
      const a = ends[3 * k + 1];
      const b = ends[3 * k + 2];
      const mA = d[o + M_A], mB = d[o + M_B], iA = d[o + I_A], iB = d[o + I_B];
      const nx = d[o + NX], ny = d[o + NY];
      const rigid = rigidSide[k] === 1;
      const biasRate = rigid ? soft[3] : soft[0], softMass = rigid ? soft[4] : soft[1], softImpulse = rigid ? soft[5] : soft[2];
      let vAx = vx[a]!, vAy = vy[a]!, wA = w[a]!;
      let vBx = vx[b]!, vBy = vy[b]!, wB = w[b]!;
      const dpAx = dpx[a]!, dpAy = dpy[a]!, cA = dqc[a]!, sA = dqs[a]!;
      const dpBx = dpx[b]!, dpBy = dpy[b]!, cB = dqc[b]!, sB = dqs[b]!;
      const pc = points[k]!;
      // The rounded parts of the anchors do not turn (roundingRadius): 0 for two sharp sides.
      const lift = d[o + RADIUS_A] * (1 - cA) + d[o + RADIUS_B] * (1 - cB);
      // Points 0 and 1 written out rather than looped (a manifold has one or two). Each point's
      // impulse reaches the velocities through factors known before the pass (m·n, i·(r × n)):
      // the next point waits on the fewest operations.
      const mAnx = mA * nx, mAny = mA * ny, mBnx = mB * nx, mBny = mB * ny;
      {
        const p = o + POINT;
        const rAx = d[p + R_AX], rAy = d[p + R_AY], rBx = d[p + R_BX], rBy = d[p + R_BY];
        // current separation from the position deltas (positions do not change within a pass)
        const prAx = cA * rAx - sA * rAy, prAy = sA * rAx + cA * rAy;
        const prBx = cB * rBx - sB * rBy, prBy = sB * rBx + cB * rBy;
        const dx = dpBx - dpAx + prBx - prAx;
        const dy = dpBy - dpAy + prBy - prAy;
        const s = dx * nx + dy * ny + d[p + ADJ_SEP] - lift;
        // softness.ts's oneSidedBias rule, as branches: a gap may close within the substep, no more
        // (speculative); an overlap is pushed out by the spring in the biased pass, and left alone
        // in the relax pass (rigid, no bias). The same rule through oneSidedBias and selects cost
        // the 210-box pyramid 3% (measured in one process against this form, bitwise equal).
        let bias = 0;
        let massScale = 1;
        let impulseScale = 0;
        if (s > 0) {
          bias = s * invH;
        } else if (useBias) {
          // max(biasRate·s, −maxBias) as a comparison, the same bits for every input (NaN and
          // signed zeros included): Math.max boxed its result here, 32 KB a step on a 60-row pyramid.
          const push = biasRate * s;
          bias = push < -maxBias ? -maxBias : push;
          massScale = softMass;
          impulseScale = softImpulse;
        }
        const gain = -d[p + NORMAL_MASS] * massScale;
        const rnA = rAx * ny - rAy * nx;
        const rnB = rBx * ny - rBy * nx;
        const vn = (vBx - vAx) * nx + (vBy - vAy) * ny + (wB * rnB - wA * rnA);
        const old = d[p + NORMAL_IMPULSE];
        const next = Math.max(softUpdate(old, vn + bias, gain, impulseScale), 0);
        const impulse = next - old;
        d[p + NORMAL_IMPULSE] = next;
        vAx -= mAnx * impulse;
        vAy -= mAny * impulse;
        wA -= iA * rnA * impulse;
        vBx += mBnx * impulse;
        vBy += mBny * impulse;
        wB += iB * rnB * impulse;
      }
      if (pc === 2) {
        const p = o + POINT + POINT_STRIDE;
        const rAx = d[p + R_AX], rAy = d[p + R_AY], rBx = d[p + R_BX], rBy = d[p + R_BY];
        // current separation from the position deltas (positions do not change within a pass)
        const prAx = cA * rAx - sA * rAy, prAy = sA * rAx + cA * rAy;
        const prBx = cB * rBx - sB * rBy, prBy = sB * rBx + cB * rBy;
        const dx = dpBx - dpAx + prBx - prAx;
        const dy = dpBy - dpAy + prBy - prAy;
        const s = dx * nx + dy * ny + d[p + ADJ_SEP] - lift;
        // softness.ts's oneSidedBias rule, as branches: a gap may close within the substep, no more
        // (speculative); an overlap is pushed out by the spring in the biased pass, and left alone
        // in the relax pass (rigid, no bias). The same rule through oneSidedBias and selects cost
        // the 210-box pyramid 3% (measured in one process against this form, bitwise equal).
        let bias = 0;
        let massScale = 1;
        let impulseScale = 0;
        if (s > 0) {
          bias = s * invH;
        } else if (useBias) {
          const push = biasRate * s;
          bias = push < -maxBias ? -maxBias : push;
          massScale = softMass;
          impulseScale = softImpulse;
        }
        const gain = -d[p + NORMAL_MASS] * massScale;
        const rnA = rAx * ny - rAy * nx;
        const rnB = rBx * ny - rBy * nx;
        const vn = (vBx - vAx) * nx + (vBy - vAy) * ny + (wB * rnB - wA * rnA);
        const old = d[p + NORMAL_IMPULSE];
        const next = Math.max(softUpdate(old, vn + bias, gain, impulseScale), 0);
        const impulse = next - old;
        d[p + NORMAL_IMPULSE] = next;
        vAx -= mAnx * impulse;
        vAy -= mAny * impulse;
        wA -= iA * rnA * impulse;
        vBx += mBnx * impulse;
        vBy += mBny * impulse;
        wB += iB * rnB * impulse;
      }
      const mu = d[o + FRICTION];
      // Friction drives the surfaces' relative tangent speed to this (0 but on a conveyor).
      const speed = d[o + TANGENT_SPEED];
      {
        const p = o + POINT;
        const rAx = d[p + R_AX], rAy = d[p + R_AY], rBx = d[p + R_BX], rBy = d[p + R_BY];
        // t = (ny, −nx): r × t = −(r · n)
        const rtA = -(rAx * nx + rAy * ny);
        const rtB = -(rBx * nx + rBy * ny);
        const vt = (vBx - vAx) * ny - (vBy - vAy) * nx + (wB * rtB - wA * rtA) - speed;
        const maxF = mu * d[p + NORMAL_IMPULSE];
        const old = d[p + TANGENT_IMPULSE];
        const next = clamp(old - d[p + TANGENT_MASS] * vt, -maxF, maxF);
        const impulse = next - old;
        d[p + TANGENT_IMPULSE] = next;
        vAx -= mAny * impulse;
        vAy += mAnx * impulse;
        wA -= iA * rtA * impulse;
        vBx += mBny * impulse;
        vBy -= mBnx * impulse;
        wB += iB * rtB * impulse;
      }
      if (pc === 2) {
        const p = o + POINT + POINT_STRIDE;
        const rAx = d[p + R_AX], rAy = d[p + R_AY], rBx = d[p + R_BX], rBy = d[p + R_BY];
        // t = (ny, −nx): r × t = −(r · n)
        const rtA = -(rAx * nx + rAy * ny);
        const rtB = -(rBx * nx + rBy * ny);
        const vt = (vBx - vAx) * ny - (vBy - vAy) * nx + (wB * rtB - wA * rtA) - speed;
        const maxF = mu * d[p + NORMAL_IMPULSE];
        const old = d[p + TANGENT_IMPULSE];
        const next = clamp(old - d[p + TANGENT_MASS] * vt, -maxF, maxF);
        const impulse = next - old;
        d[p + TANGENT_IMPULSE] = next;
        vAx -= mAny * impulse;
        vAy += mAnx * impulse;
        wA -= iA * rtA * impulse;
        vBx += mBny * impulse;
        vBy -= mBnx * impulse;
        wB += iB * rtB * impulse;
      }
      if (a > 0) {
        vx[a] = vAx;
        vy[a] = vAy;
        w[a] = wA;
      }
      if (b > 0) {
        vx[b] = vBx;
        vy[b] = vBy;
        w[b] = wB;
      }
    }
    }

  /**
   * Rows [from, to) back to the contact store (ContactSolver.store): each point's accumulated
   * impulses, for the next step's warm start, and the step's totals (the warm starts' sum plus the
   * last substep's). Row k writes only its own store slot's entries.
   */
  function store(
    d: Float64Array, ends: Int32Array, points: Uint8Array, ni: Float64Array, ti: Float64Array, tn: Float64Array, tt: Float64Array, from: number, to: number,
  ): void {
    const STRIDE = 32, POINT = 8, POINT_STRIDE = 12, NORMAL_IMPULSE = 7, TANGENT_IMPULSE = 8, TOTAL_NORMAL = 9, TOTAL_TANGENT = 10;
    for (let k = from >>> 0; k < to; k++) {
      const s = ends[3 * k]!;
      for (let j = 0, pc = points[k]!; j < pc; j++) {
        const p = k * STRIDE + POINT + POINT_STRIDE * j;
        const normal = d[p + NORMAL_IMPULSE]!;
        const tangent = d[p + TANGENT_IMPULSE]!;
        ni[2 * s + j] = normal;
        ti[2 * s + j] = tangent;
        tn[2 * s + j] = d[p + TOTAL_NORMAL]! + normal;
        tt[2 * s + j] = d[p + TOTAL_TANGENT]! + tangent;
      }
    }
  }

  return { prepare, warmStart, pass, store };
}

/** The parts contactKernels takes, in order (a worker's program passes their text). */
export const CONTACT_KERNEL_PARTS = [sharedSoftUpdate, sharedClamp, sharedContactRowInverse] as const;

/** The kernels the calling thread runs. */
export const CONTACT_KERNELS = contactKernels(...CONTACT_KERNEL_PARTS);

export type ContactKernels = ReturnType<typeof contactKernels>;
