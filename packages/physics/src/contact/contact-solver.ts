/**
 * Contact solver: soft-step sequential impulses over struct-of-arrays constraint data.
 *
 * Per manifold point, with anchors rA = p − cA and rB = p − cB fixed at the start of the step
 * and n the contact normal (A → B):
 *   C   = s = dot((dpB + R(dθB)·rB) − (dpA + R(dθA)·rA), n) + (s0 − dot(rB − rA, n))   ≥ 0
 *   Ċ   = vn = dot(vB + ωB × rB − vA − ωA × rA, n)
 *   J   = [−nᵀ, −(rA × n), nᵀ, rB × n]
 *   K   = mA⁻¹ + mB⁻¹ + iA⁻¹ (rA × n)² + iB⁻¹ (rB × n)²       (normalMass = 1/K)
 *   Jᵀλ : vA −= mA⁻¹ λ n, ωA −= iA⁻¹ λ (rA × n); vB += mB⁻¹ λ n, ωB += iB⁻¹ λ (rB × n)
 * Friction uses the tangent t = (n.y, −n.x) in place of n, clamped to ±μ·λn.
 *
 * Softness (Catto's soft step): with ω = 2π·hertz, ζ the damping ratio and h the substep,
 *   a1 = 2ζ + hω, biasRate = ω/a1, massScale = hω·a1/(1 + hω·a1), impulseScale = 1/(1 + hω·a1)
 *   λ = −normalMass·massScale·(vn + biasRate·s) − impulseScale·λacc
 * The biased solve ("solve") pushes penetration out at a bounded speed; the unbiased solve
 * ("relax") then removes the velocity that push added, so stacks do not gain energy.
 * Speculative points (s > 0) allow approach up to contact: bias = s/h.
 * Restitution is applied once per step, after all substeps, from the pre-step approach speed.
 */
import type { Contact } from './contact.js';
import type { ContactStore } from './contact-store.js';
import type { SolverBodies } from '../space/solver-bodies.js';

export interface Softness {
  biasRate: number;
  massScale: number;
  impulseScale: number;
}

export function makeSoft(hertz: number, zeta: number, h: number, out: Softness): Softness {
  if (hertz === 0) {
    out.biasRate = 0;
    out.massScale = 1;
    out.impulseScale = 0;
    return out;
  }
  const omega = 2 * Math.PI * hertz;
  const a1 = 2 * zeta + h * omega;
  const a2 = h * omega * a1;
  const a3 = 1 / (1 + a2);
  out.biasRate = omega / a1;
  out.massScale = a2 * a3;
  out.impulseScale = a3;
  return out;
}

/** Speed below which a collision does not bounce (m/s). */
export const RESTITUTION_THRESHOLD = 1;
/** Maximum speed at which penetration is pushed out (m/s). */
export const CONTACT_PUSH_MAX_VELOCITY = 3;

export class ContactSolver {
  count = 0;
  private capacity = 0;
  // per constraint
  /** The contact's slot in the ContactStore (impulses go back there). */
  private slot = new Int32Array(0);
  private iA = new Int32Array(0);
  private iB = new Int32Array(0);
  private nx = new Float64Array(0);
  private ny = new Float64Array(0);
  private friction = new Float64Array(0);
  private restitution = new Float64Array(0);
  private points = new Uint8Array(0);
  /** 1 when one side has infinite mass: such contacts use stiffer softness. */
  private rigidSide = new Uint8Array(0);
  private mA = new Float64Array(0);
  private mB = new Float64Array(0);
  private iiA = new Float64Array(0);
  private iiB = new Float64Array(0);
  // per point (index 2k + j)
  private rAx = new Float64Array(0);
  private rAy = new Float64Array(0);
  private rBx = new Float64Array(0);
  private rBy = new Float64Array(0);
  private adjSep = new Float64Array(0);
  private normalMass = new Float64Array(0);
  private tangentMass = new Float64Array(0);
  private normalImpulse = new Float64Array(0);
  private tangentImpulse = new Float64Array(0);
  private maxNormalImpulse = new Float64Array(0);
  private relVel = new Float64Array(0);

  readonly soft: Softness = { biasRate: 0, massScale: 1, impulseScale: 0 };
  readonly staticSoft: Softness = { biasRate: 0, massScale: 1, impulseScale: 0 };
  maxBiasVelocity = CONTACT_PUSH_MAX_VELOCITY;

  private reserve(n: number): void {
    if (n <= this.capacity) return;
    let cap = Math.max(64, this.capacity);
    while (cap < n) cap *= 2;
    const g = <T extends Float64Array | Int32Array | Uint8Array>(a: T, m: number): T => {
      const b = new (a.constructor as { new (n: number): T })(cap * m);
      b.set(a);
      return b;
    };
    this.slot = g(this.slot, 1);
    this.iA = g(this.iA, 1);
    this.iB = g(this.iB, 1);
    this.nx = g(this.nx, 1);
    this.ny = g(this.ny, 1);
    this.friction = g(this.friction, 1);
    this.restitution = g(this.restitution, 1);
    this.points = g(this.points, 1);
    this.rigidSide = g(this.rigidSide, 1);
    this.mA = g(this.mA, 1);
    this.mB = g(this.mB, 1);
    this.iiA = g(this.iiA, 1);
    this.iiB = g(this.iiB, 1);
    this.rAx = g(this.rAx, 2);
    this.rAy = g(this.rAy, 2);
    this.rBx = g(this.rBx, 2);
    this.rBy = g(this.rBy, 2);
    this.adjSep = g(this.adjSep, 2);
    this.normalMass = g(this.normalMass, 2);
    this.tangentMass = g(this.tangentMass, 2);
    this.normalImpulse = g(this.normalImpulse, 2);
    this.tangentImpulse = g(this.tangentImpulse, 2);
    this.maxNormalImpulse = g(this.maxNormalImpulse, 2);
    this.relVel = g(this.relVel, 2);
    this.capacity = cap;
  }

  begin(): void {
    this.count = 0;
  }

  /**
   * Add one touching, non-sensor contact, whose numbers are at slot `s` of `st` (c.index).
   * Body solver indices must be assigned.
   */
  add(c: Contact, s: number, st: ContactStore, sb: SolverBodies): void {
    const k = this.count++;
    if (k >= this.capacity) this.reserve(k + 1);
    this.slot[k] = s;
    const a = c.bodyA._solverIndex > 0 ? c.bodyA._solverIndex : 0;
    const b = c.bodyB._solverIndex > 0 ? c.bodyB._solverIndex : 0;
    this.iA[k] = a;
    this.iB[k] = b;
    const nx = st.nx[s]!;
    const ny = st.ny[s]!;
    this.nx[k] = nx;
    this.ny[k] = ny;
    this.friction[k] = st.friction[s]!;
    this.restitution[k] = st.restitution[s]!;
    const pointCount = st.pointCount[s]!;
    this.points[k] = pointCount;
    const mA = sb.invMass[a]!;
    const mB = sb.invMass[b]!;
    const iA = sb.invI[a]!;
    const iB = sb.invI[b]!;
    this.mA[k] = mA;
    this.mB[k] = mB;
    this.iiA[k] = iA;
    this.iiB[k] = iB;
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
      const p = 2 * k + j;
      const q = 2 * s + j;
      const px = st.px[q]!;
      const py = st.py[q]!;
      const rAx = px - cAx;
      const rAy = py - cAy;
      const rBx = px - cBx;
      const rBy = py - cBy;
      this.rAx[p] = rAx;
      this.rAy[p] = rAy;
      this.rBx[p] = rBx;
      this.rBy[p] = rBy;
      this.adjSep[p] = st.separation[q]! - ((rBx - rAx) * nx + (rBy - rAy) * ny);
      const rnA = rAx * ny - rAy * nx;
      const rnB = rBx * ny - rBy * nx;
      const kn = mA + mB + iA * rnA * rnA + iB * rnB * rnB;
      this.normalMass[p] = kn > 0 ? 1 / kn : 0;
      const rtA = rAx * ty - rAy * tx;
      const rtB = rBx * ty - rBy * tx;
      const kt = mA + mB + iA * rtA * rtA + iB * rtB * rtB;
      this.tangentMass[p] = kt > 0 ? 1 / kt : 0;
      this.normalImpulse[p] = st.normalImpulse[q]!;
      this.tangentImpulse[p] = st.tangentImpulse[q]!;
      this.maxNormalImpulse[p] = 0;
      // Approach speed before the step, for restitution.
      const dvx = vBx - wB * rBy - (vAx - wA * rAy);
      const dvy = vBy + wB * rBx - (vAy + wA * rAx);
      this.relVel[p] = dvx * nx + dvy * ny;
    }
  }

  warmStart(sb: SolverBodies): void {
    const { vx, vy, w } = sb;
    for (let k = 0, n = this.count; k < n; k++) {
      const a = this.iA[k]!;
      const b = this.iB[k]!;
      const mA = this.mA[k]!, mB = this.mB[k]!, iA = this.iiA[k]!, iB = this.iiB[k]!;
      const nx = this.nx[k]!, ny = this.ny[k]!;
      let vAx = vx[a]!, vAy = vy[a]!, wA = w[a]!;
      let vBx = vx[b]!, vBy = vy[b]!, wB = w[b]!;
      for (let j = 0, pc = this.points[k]!; j < pc; j++) {
        const p = 2 * k + j;
        const ni = this.normalImpulse[p]!;
        const ti = this.tangentImpulse[p]!;
        const Px = ni * nx + ti * ny;
        const Py = ni * ny - ti * nx;
        vAx -= mA * Px;
        vAy -= mA * Py;
        wA -= iA * (this.rAx[p]! * Py - this.rAy[p]! * Px);
        vBx += mB * Px;
        vBy += mB * Py;
        wB += iB * (this.rBx[p]! * Py - this.rBy[p]! * Px);
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

  /** One pass over all contacts. useBias = true: "solve"; false: "relax". */
  solve(sb: SolverBodies, invH: number, useBias: boolean): void {
    const { vx, vy, w, dpx, dpy, dqc, dqs } = sb;
    const maxBias = this.maxBiasVelocity;
    for (let k = 0, n = this.count; k < n; k++) {
      const a = this.iA[k]!;
      const b = this.iB[k]!;
      const mA = this.mA[k]!, mB = this.mB[k]!, iA = this.iiA[k]!, iB = this.iiB[k]!;
      const nx = this.nx[k]!, ny = this.ny[k]!;
      const soft = this.rigidSide[k] === 1 ? this.staticSoft : this.soft;
      let vAx = vx[a]!, vAy = vy[a]!, wA = w[a]!;
      let vBx = vx[b]!, vBy = vy[b]!, wB = w[b]!;
      const dpAx = dpx[a]!, dpAy = dpy[a]!, cA = dqc[a]!, sA = dqs[a]!;
      const dpBx = dpx[b]!, dpBy = dpy[b]!, cB = dqc[b]!, sB = dqs[b]!;
      const pc = this.points[k]!;
      // Points 0 and 1 written out rather than looped (a manifold has one or two): the same
      // operations in the same order, 8% faster on the 210-box pyramid (scene A).
      {
        const p = 2 * k + 0;
        const rAx = this.rAx[p]!, rAy = this.rAy[p]!, rBx = this.rBx[p]!, rBy = this.rBy[p]!;
        // current separation from the position deltas
        const prAx = cA * rAx - sA * rAy, prAy = sA * rAx + cA * rAy;
        const prBx = cB * rBx - sB * rBy, prBy = sB * rBx + cB * rBy;
        const dx = dpBx - dpAx + prBx - prAx;
        const dy = dpBy - dpAy + prBy - prAy;
        const s = dx * nx + dy * ny + this.adjSep[p]!;
        let bias = 0;
        let massScale = 1;
        let impulseScale = 0;
        if (s > 0) {
          bias = s * invH; // speculative: close the gap, no more
        } else if (useBias) {
          bias = Math.max(soft.biasRate * s, -maxBias);
          massScale = soft.massScale;
          impulseScale = soft.impulseScale;
        }
        const dvx = vBx - wB * rBy - (vAx - wA * rAy);
        const dvy = vBy + wB * rBx - (vAy + wA * rAx);
        const vn = dvx * nx + dvy * ny;
        const old = this.normalImpulse[p]!;
        let impulse = -this.normalMass[p]! * massScale * (vn + bias) - impulseScale * old;
        const next = Math.max(old + impulse, 0);
        impulse = next - old;
        this.normalImpulse[p] = next;
        if (impulse > this.maxNormalImpulse[p]!) this.maxNormalImpulse[p] = impulse;
        const Px = impulse * nx, Py = impulse * ny;
        vAx -= mA * Px;
        vAy -= mA * Py;
        wA -= iA * (rAx * Py - rAy * Px);
        vBx += mB * Px;
        vBy += mB * Py;
        wB += iB * (rBx * Py - rBy * Px);
      }
      if (pc === 2) {
        const p = 2 * k + 1;
        const rAx = this.rAx[p]!, rAy = this.rAy[p]!, rBx = this.rBx[p]!, rBy = this.rBy[p]!;
        // current separation from the position deltas
        const prAx = cA * rAx - sA * rAy, prAy = sA * rAx + cA * rAy;
        const prBx = cB * rBx - sB * rBy, prBy = sB * rBx + cB * rBy;
        const dx = dpBx - dpAx + prBx - prAx;
        const dy = dpBy - dpAy + prBy - prAy;
        const s = dx * nx + dy * ny + this.adjSep[p]!;
        let bias = 0;
        let massScale = 1;
        let impulseScale = 0;
        if (s > 0) {
          bias = s * invH; // speculative: close the gap, no more
        } else if (useBias) {
          bias = Math.max(soft.biasRate * s, -maxBias);
          massScale = soft.massScale;
          impulseScale = soft.impulseScale;
        }
        const dvx = vBx - wB * rBy - (vAx - wA * rAy);
        const dvy = vBy + wB * rBx - (vAy + wA * rAx);
        const vn = dvx * nx + dvy * ny;
        const old = this.normalImpulse[p]!;
        let impulse = -this.normalMass[p]! * massScale * (vn + bias) - impulseScale * old;
        const next = Math.max(old + impulse, 0);
        impulse = next - old;
        this.normalImpulse[p] = next;
        if (impulse > this.maxNormalImpulse[p]!) this.maxNormalImpulse[p] = impulse;
        const Px = impulse * nx, Py = impulse * ny;
        vAx -= mA * Px;
        vAy -= mA * Py;
        wA -= iA * (rAx * Py - rAy * Px);
        vBx += mB * Px;
        vBy += mB * Py;
        wB += iB * (rBx * Py - rBy * Px);
      }
      const mu = this.friction[k]!;
      const tx = ny, ty = -nx;
      {
        const p = 2 * k + 0;
        const rAx = this.rAx[p]!, rAy = this.rAy[p]!, rBx = this.rBx[p]!, rBy = this.rBy[p]!;
        const dvx = vBx - wB * rBy - (vAx - wA * rAy);
        const dvy = vBy + wB * rBx - (vAy + wA * rAx);
        const vt = dvx * tx + dvy * ty;
        const maxF = mu * this.normalImpulse[p]!;
        const old = this.tangentImpulse[p]!;
        let next = old - this.tangentMass[p]! * vt;
        next = next < -maxF ? -maxF : next > maxF ? maxF : next;
        const impulse = next - old;
        this.tangentImpulse[p] = next;
        const Px = impulse * tx, Py = impulse * ty;
        vAx -= mA * Px;
        vAy -= mA * Py;
        wA -= iA * (rAx * Py - rAy * Px);
        vBx += mB * Px;
        vBy += mB * Py;
        wB += iB * (rBx * Py - rBy * Px);
      }
      if (pc === 2) {
        const p = 2 * k + 1;
        const rAx = this.rAx[p]!, rAy = this.rAy[p]!, rBx = this.rBx[p]!, rBy = this.rBy[p]!;
        const dvx = vBx - wB * rBy - (vAx - wA * rAy);
        const dvy = vBy + wB * rBx - (vAy + wA * rAx);
        const vt = dvx * tx + dvy * ty;
        const maxF = mu * this.normalImpulse[p]!;
        const old = this.tangentImpulse[p]!;
        let next = old - this.tangentMass[p]! * vt;
        next = next < -maxF ? -maxF : next > maxF ? maxF : next;
        const impulse = next - old;
        this.tangentImpulse[p] = next;
        const Px = impulse * tx, Py = impulse * ty;
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

  /** Once per step: bounce points that were approaching faster than the threshold. */
  applyRestitution(sb: SolverBodies): void {
    const { vx, vy, w } = sb;
    for (let k = 0, n = this.count; k < n; k++) {
      const e = this.restitution[k]!;
      if (e === 0) continue;
      const a = this.iA[k]!;
      const b = this.iB[k]!;
      const mA = this.mA[k]!, mB = this.mB[k]!, iA = this.iiA[k]!, iB = this.iiB[k]!;
      const nx = this.nx[k]!, ny = this.ny[k]!;
      let vAx = vx[a]!, vAy = vy[a]!, wA = w[a]!;
      let vBx = vx[b]!, vBy = vy[b]!, wB = w[b]!;
      for (let j = 0, pc = this.points[k]!; j < pc; j++) {
        const p = 2 * k + j;
        if (this.relVel[p]! > -RESTITUTION_THRESHOLD || this.maxNormalImpulse[p] === 0) continue;
        const rAx = this.rAx[p]!, rAy = this.rAy[p]!, rBx = this.rBx[p]!, rBy = this.rBy[p]!;
        const dvx = vBx - wB * rBy - (vAx - wA * rAy);
        const dvy = vBy + wB * rBx - (vAy + wA * rAx);
        const vn = dvx * nx + dvy * ny;
        const old = this.normalImpulse[p]!;
        const next = Math.max(old - this.normalMass[p]! * (vn + e * this.relVel[p]!), 0);
        const impulse = next - old;
        this.normalImpulse[p] = next;
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

  /** Copy accumulated impulses back to the contact store for next step's warm start. */
  store(st: ContactStore): void {
    const ni = st.normalImpulse;
    const ti = st.tangentImpulse;
    for (let k = 0, n = this.count; k < n; k++) {
      const s = this.slot[k]!;
      for (let j = 0, pc = this.points[k]!; j < pc; j++) {
        ni[2 * s + j] = this.normalImpulse[2 * k + j]!;
        ti[2 * s + j] = this.tangentImpulse[2 * k + j]!;
      }
    }
  }
}
