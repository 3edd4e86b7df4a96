/**
 * Contact solver: soft-step sequential impulses over flat typed-array constraint data.
 *
 * Per manifold point, with anchors rA = p − cA and rB = p − cB fixed at the start of the step
 * and n the contact normal (A → B):
 *   C   = s = dot((dpB + R(dθB)·rB) − (dpA + R(dθA)·rA), n) + (s0 − dot(rB − rA, n))   ≥ 0
 *   Ċ   = vn = dot(vB + ωB × rB − vA − ωA × rA, n)
 *   J   = [−nᵀ, −(rA × n), nᵀ, rB × n]
 *   K   = mA⁻¹ + mB⁻¹ + iA⁻¹ (rA × n)² + iB⁻¹ (rB × n)²       (normalMass = 1/K)
 *   Jᵀλ : vA −= mA⁻¹ λ n, ωA −= iA⁻¹ λ (rA × n); vB += mB⁻¹ λ n, ωB += iB⁻¹ λ (rB × n)
 * Friction uses the tangent t = (n.y, −n.x) in place of n, clamped to ±μ·λn, and drives the
 * relative tangent speed vt to the contact's tangentSpeed (0 but on a conveyor): the row's
 * velocity error is vt − tangentSpeed.
 *
 * Softness (Catto's soft step, constraint/softness.ts): the normal row is a spring of the space's
 * contactHertz (twice that against a static or kinematic side),
 *   λ = −normalMass·massScale·(vn + biasRate·s) − impulseScale·λacc
 * The biased solve ("solve") pushes penetration out at a bounded speed; the unbiased solve
 * ("relax") then removes the velocity that push added, so stacks do not gain energy.
 * Speculative points (s > 0) allow approach up to contact: bias = s/h.
 * Restitution is applied once per step, after all substeps, from the pre-step approach speed.
 */
import type { Contact } from './contact.js';
import type { Circle } from '../shape/circle.js';
import type { PolyShape } from '../shape/poly-shape.js';
import type { Shape } from '../shape/shape.js';
import { isSolved, type ContactStore } from './contact-store.js';
import type { SolverBodies } from '../space/solver-bodies.js';
import type { SolverFamily } from '../space/solver-families.js';
import type { StepContext } from '../space/step-context.js';
import { resized } from '../util/typed-arrays.js';
import { makeSoft, rigidSoftness, softUpdate, type Softness } from '../constraint/softness.js';
import { pivotInverse } from '../constraint/dense.js';
import { clamp } from '../constraint/dense.js';

/** Speed below which a collision does not bounce (m/s). */
export const RESTITUTION_THRESHOLD = 1;
/** Maximum speed at which penetration is pushed out (m/s). */
export const CONTACT_PUSH_MAX_VELOCITY = 3;

/**
 * Layout of a manifold's numbers in ContactSolver.data: the manifold's, then its two points'
 * (POINT + POINT_STRIDE·j), four cache lines per manifold.
 */
const STRIDE = 32;
const M_A = 0, M_B = 1, I_A = 2, I_B = 3, NX = 4, NY = 5, FRICTION = 6, TANGENT_SPEED = 7;
const POINT = 8;
const POINT_STRIDE = 12;
/** Anchors from the centres of mass (fixed for the step), separation less the anchors' part, 1/K. */
const R_AX = 0, R_AY = 1, R_BX = 2, R_BY = 3, ADJ_SEP = 4, NORMAL_MASS = 5, TANGENT_MASS = 6;
/**
 * Accumulated impulses, and the impulses applied so far in the step, less the last substep's
 * (the contact data, see `approach`).
 */
const NORMAL_IMPULSE = 7, TANGENT_IMPULSE = 8, TOTAL_NORMAL = 9, TOTAL_TANGENT = 10;
/** The two sides' rounding radii (circle, capsule, rounded polygon), in the points' spare slots. */
const RADIUS_A = POINT + 11, RADIUS_B = POINT + POINT_STRIDE + 11;

/**
 * A side's rounding radius: its surface is its core (a circle's centre, a capsule's segment, a
 * polygon's outline) pushed out by it. The contact point's anchors turn with the bodies within a
 * step, but the part of an anchor that is the radius along the normal does not: a ball's lowest
 * point stays its lowest point however it spins. Turned with the ball, that part lifted the point
 * by r(1 − cos θ), a gap the speculative rule then let the ball close: a 5 cm ball rolling at
 * 10 m/s sank 1.8 cm into the ground. The solver takes r(1 − cos θ) back out (pass).
 */
function roundingRadius(shape: Shape): number {
  return shape.kind === 'circle' ? (shape as Circle).radius : (shape as PolyShape).radius;
}

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
  if (turnOnly) return k > TURN_ONLY_LEVER_EPS * kScale ? 1 / k : 0;
  return pivotInverse(k, kScale);
}

/** The contact solver family: every touching solid contact with a body in the solver. */
export class ContactSolver implements SolverFamily {
  count = 0;
  private capacity = 0;
  /**
   * Per manifold k: its numbers at k·STRIDE in `data` (array of structures: a pass reads one
   * stream, not some twenty arrays), its store slot and solver bodies at 3k in `ends`.
   */
  private data = new Float64Array(0);
  private ends = new Int32Array(0);
  private points = new Uint8Array(0);
  /** 1 when one side has infinite mass: such contacts use stiffer softness. */
  private rigidSide = new Uint8Array(0);
  /**
   * Per point (2k + j): the approach speed along the normal before the step, read only by the
   * bounce, so kept apart from `data`, whose four cache lines per manifold are full. Its slot
   * there holds what every warm start adds to: the impulse each point applied over the step (the
   * contact data, ContactStore's totals). A substep applies a point's accumulated impulse as it
   * ends it (warm start and increments), so the step's total is the sum of the substeps' final
   * impulses, plus the bounce. Each warm start adds the impulse it applies (the last substep's
   * final), prepare subtracts the previous step's (the first substep's start), and store adds
   * the last (TOTAL_NORMAL, TOTAL_TANGENT: next to the impulses the warm start reads).
   */
  private approach = new Float64Array(0);
  /** Per manifold: its restitution, read only by the bounce (its slot in `data` is the tangent speed's). */
  private restitution = new Float64Array(0);

  readonly soft: Softness = rigidSoftness();
  readonly staticSoft: Softness = rigidSoftness();
  maxBiasVelocity = CONTACT_PUSH_MAX_VELOCITY;

  /** The contacts' numbers: points and warm-start impulses in, impulses back out (store). */
  constructor(private readonly target: ContactStore) {}

  /**
   * Stage 5 for contacts: this step's softness (stiffness capped at a quarter of the substep
   * rate for stability; twice as stiff against a static or kinematic side), and every touching,
   * non-sensor contact with a body in the solver.
   */
  prepare(contacts: readonly Contact[], sb: SolverBodies, ctx: StepContext, hertz: number, dampingRatio: number): void {
    const capped = Math.min(hertz, 0.25 * ctx.invH);
    makeSoft(capped, dampingRatio, ctx.h, this.soft);
    makeSoft(2 * capped, dampingRatio, ctx.h, this.staticSoft);
    const store = this.target;
    const flags = store.flags;
    this.count = 0;
    for (let k = 0; k < contacts.length; k++) {
      if (!isSolved(flags[k]!)) continue; // not touching, a sensor, or ignored by the pre-solve callback
      const c = contacts[k]!;
      if (c.bodyA._solverIndex < 0 && c.bodyB._solverIndex < 0) continue;
      this.add(c, k, store, sb);
    }
  }

  private reserve(n: number): void {
    if (n <= this.capacity) return;
    let cap = Math.max(64, this.capacity);
    while (cap < n) cap *= 2;
    this.data = resized(this.data, cap * STRIDE);
    this.ends = resized(this.ends, cap * 3);
    this.points = resized(this.points, cap);
    this.rigidSide = resized(this.rigidSide, cap);
    this.approach = resized(this.approach, cap * 2);
    this.restitution = resized(this.restitution, cap);
    this.capacity = cap;
  }

  /**
   * Add one touching, non-sensor contact, whose numbers are at slot `s` of `st` (c.index).
   * Body solver indices must be assigned.
   */
  private add(c: Contact, s: number, st: ContactStore, sb: SolverBodies): void {
    const k = this.count++;
    if (k >= this.capacity) this.reserve(k + 1);
    const d = this.data;
    const o = k * STRIDE;
    this.ends[3 * k] = s;
    const a = c.bodyA._solverIndex > 0 ? c.bodyA._solverIndex : 0;
    const b = c.bodyB._solverIndex > 0 ? c.bodyB._solverIndex : 0;
    this.ends[3 * k + 1] = a;
    this.ends[3 * k + 2] = b;
    const nx = st.nx[s]!;
    const ny = st.ny[s]!;
    d[o + NX] = nx;
    d[o + NY] = ny;
    d[o + FRICTION] = st.friction[s]!;
    this.restitution[k] = st.restitution[s]!;
    d[o + TANGENT_SPEED] = st.tangentSpeed[s]!;
    d[o + RADIUS_A] = roundingRadius(c.shapeA);
    d[o + RADIUS_B] = roundingRadius(c.shapeB);
    const pointCount = st.pointCount[s]!;
    this.points[k] = pointCount;
    const mA = sb.invMass[a]!;
    const mB = sb.invMass[b]!;
    const iA = sb.invI[a]!;
    const iB = sb.invI[b]!;
    d[o + M_A] = mA;
    d[o + M_B] = mB;
    d[o + I_A] = iA;
    d[o + I_B] = iB;
    this.rigidSide[k] = mA === 0 || mB === 0 ? 1 : 0;
    // World centres of mass at step start (bodies not in the solver read theirs directly).
    // Written out rather than through a helper call, whose double result was boxed.
    let cAx: number, cAy: number, cBx: number, cBy: number;
    if (a > 0) {
      cAx = sb.cx[a]!;
      cAy = sb.cy[a]!;
    } else {
      const bA = c.bodyA;
      cAx = bA._x + bA._c * bA._lcx - bA._s * bA._lcy;
      cAy = bA._y + bA._s * bA._lcx + bA._c * bA._lcy;
    }
    if (b > 0) {
      cBx = sb.cx[b]!;
      cBy = sb.cy[b]!;
    } else {
      const bB = c.bodyB;
      cBx = bB._x + bB._c * bB._lcx - bB._s * bB._lcy;
      cBy = bB._y + bB._s * bB._lcx + bB._c * bB._lcy;
    }
    const vAx = sb.vx[a]!, vAy = sb.vy[a]!, wA = sb.w[a]!;
    const vBx = sb.vx[b]!, vBy = sb.vy[b]!, wB = sb.w[b]!;
    const tx = ny;
    const ty = -nx;
    for (let j = 0; j < pointCount; j++) {
      const p = o + POINT + POINT_STRIDE * j;
      const q = 2 * s + j;
      const px = st.px[q]!;
      const py = st.py[q]!;
      const rAx = px - cAx;
      const rAy = py - cAy;
      const rBx = px - cBx;
      const rBy = py - cBy;
      d[p + R_AX] = rAx;
      d[p + R_AY] = rAy;
      d[p + R_BX] = rBx;
      d[p + R_BY] = rBy;
      d[p + ADJ_SEP] = st.separation[q]! - ((rBx - rAx) * nx + (rBy - rAy) * ny);
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
      d[p + NORMAL_IMPULSE] = st.normalImpulse[q]!;
      d[p + TANGENT_IMPULSE] = st.tangentImpulse[q]!;
      d[p + TOTAL_NORMAL] = -st.normalImpulse[q]!;
      d[p + TOTAL_TANGENT] = -st.tangentImpulse[q]!;
      // Approach speed before the step, for restitution.
      const dvx = vBx - wB * rBy - (vAx - wA * rAy);
      const dvy = vBy + wB * rBx - (vAy + wA * rAx);
      this.approach[2 * k + j] = dvx * nx + dvy * ny;
    }
  }

  warmStart(ctx: StepContext): void {
    const { vx, vy, w } = ctx.bodies;
    const d = this.data;
    for (let k = 0, n = this.count; k < n; k++) {
      const o = k * STRIDE;
      const a = this.ends[3 * k + 1];
      const b = this.ends[3 * k + 2];
      const mA = d[o + M_A], mB = d[o + M_B], iA = d[o + I_A], iB = d[o + I_B];
      const nx = d[o + NX], ny = d[o + NY];
      let vAx = vx[a]!, vAy = vy[a]!, wA = w[a]!;
      let vBx = vx[b]!, vBy = vy[b]!, wB = w[b]!;
      for (let j = 0, pc = this.points[k]!; j < pc; j++) {
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

  solve(ctx: StepContext): void {
    this.pass(ctx.bodies, ctx.invH, true);
  }

  relax(ctx: StepContext): void {
    this.pass(ctx.bodies, ctx.invH, false);
  }

  /** Contacts have no position pass: the soft normal rows push overlap out in the velocity passes. */
  solvePosition(): void {}

  /** One pass over all contacts. useBias = true: "solve"; false: "relax". */
  private pass(sb: SolverBodies, invH: number, useBias: boolean): void {
    const { vx, vy, w, dpx, dpy, dqc, dqs } = sb;
    const maxBias = this.maxBiasVelocity;
    const d = this.data;
    for (let k = 0, n = this.count; k < n; k++) {
      const o = k * STRIDE;
      const a = this.ends[3 * k + 1];
      const b = this.ends[3 * k + 2];
      const mA = d[o + M_A], mB = d[o + M_B], iA = d[o + I_A], iB = d[o + I_B];
      const nx = d[o + NX], ny = d[o + NY];
      const soft = this.rigidSide[k] === 1 ? this.staticSoft : this.soft;
      const biasRate = soft.biasRate, softMass = soft.massScale, softImpulse = soft.impulseScale;
      let vAx = vx[a]!, vAy = vy[a]!, wA = w[a]!;
      let vBx = vx[b]!, vBy = vy[b]!, wB = w[b]!;
      const dpAx = dpx[a]!, dpAy = dpy[a]!, cA = dqc[a]!, sA = dqs[a]!;
      const dpBx = dpx[b]!, dpBy = dpy[b]!, cB = dqc[b]!, sB = dqs[b]!;
      const pc = this.points[k]!;
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
          bias = Math.max(biasRate * s, -maxBias);
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
          bias = Math.max(biasRate * s, -maxBias);
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

  /** Once per step: bounce points that were approaching faster than the threshold. */
  applyRestitution(ctx: StepContext): void {
    const { vx, vy, w } = ctx.bodies;
    const d = this.data;
    for (let k = 0, n = this.count; k < n; k++) {
      const o = k * STRIDE;
      const e = this.restitution[k]!;
      if (e === 0) continue;
      const a = this.ends[3 * k + 1];
      const b = this.ends[3 * k + 2];
      const mA = d[o + M_A], mB = d[o + M_B], iA = d[o + I_A], iB = d[o + I_B];
      const nx = d[o + NX], ny = d[o + NY];
      let vAx = vx[a]!, vAy = vy[a]!, wA = w[a]!;
      let vBx = vx[b]!, vBy = vy[b]!, wB = w[b]!;
      for (let j = 0, pc = this.points[k]!; j < pc; j++) {
        const p = o + POINT + POINT_STRIDE * j;
        // Only a point that pushed in the step bounces (a speculative point that never touched does not).
        const approach = this.approach[2 * k + j]!;
        if (approach > -RESTITUTION_THRESHOLD || d[p + TOTAL_NORMAL] + d[p + NORMAL_IMPULSE] === 0) continue;
        const rAx = d[p + R_AX], rAy = d[p + R_AY], rBx = d[p + R_BX], rBy = d[p + R_BY];
        const dvx = vBx - wB * rBy - (vAx - wA * rAy);
        const dvy = vBy + wB * rBx - (vAy + wA * rAx);
        const vn = dvx * nx + dvy * ny;
        const old = d[p + NORMAL_IMPULSE];
        const next = Math.max(old - d[p + NORMAL_MASS] * (vn + e * approach), 0);
        const impulse = next - old;
        d[p + NORMAL_IMPULSE] = next;
        const Px = impulse * nx, Py = impulse * ny;
        vAx -= mA * Px;
        vAy -= mA * Py;
        wA -= iA * (rAx * Py - rAy * Px);
        vBx += mB * Px;
        vBy += mB * Py;
        wB += iB * (rBx * Py - rBy * Px);
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

  /** Copy accumulated impulses back to the contact store for next step's warm start, and the step's totals. */
  store(): void {
    const st = this.target;
    const ni = st.normalImpulse;
    const ti = st.tangentImpulse;
    const tn = st.totalNormalImpulse;
    const tt = st.totalTangentImpulse;
    const d = this.data;
    for (let k = 0, n = this.count; k < n; k++) {
      const o = k * STRIDE;
      const s = this.ends[3 * k];
      for (let j = 0, pc = this.points[k]!; j < pc; j++) {
        const normal = d[o + POINT + POINT_STRIDE * j + NORMAL_IMPULSE];
        const tangent = d[o + POINT + POINT_STRIDE * j + TANGENT_IMPULSE];
        ni[2 * s + j] = normal;
        ti[2 * s + j] = tangent;
        tn[2 * s + j] = d[o + POINT + POINT_STRIDE * j + TOTAL_NORMAL] + normal;
        tt[2 * s + j] = d[o + POINT + POINT_STRIDE * j + TOTAL_TANGENT] + tangent;
      }
    }
  }
}
