/**
 * Packed body states for tests, built from what a body is (origin, angle, local centre of mass,
 * origin velocity, ω), so that moving a body along its velocity for a time t gives the state
 * at t exactly: the basis of the finite-difference checks.
 */
import { BODY_STATE_STRIDE, BodyState } from '../body-state.js';

export interface TestBody {
  /** Origin. */
  px: number;
  py: number;
  angle: number;
  /** Centre of mass in the body frame. */
  lcx: number;
  lcy: number;
  /** Velocity of the origin, and ω. */
  vx: number;
  vy: number;
  w: number;
}

/** The packed state of `bodies` after moving each for time t (origin along its velocity, angle by ω·t). */
export function packState(bodies: readonly TestBody[], t = 0, out = new Float64Array(BODY_STATE_STRIDE * bodies.length)): Float64Array {
  bodies.forEach((b, s) => {
    const o = s * BODY_STATE_STRIDE;
    const px = b.px + b.vx * t;
    const py = b.py + b.vy * t;
    const a = b.angle + b.w * t;
    const c = Math.cos(a);
    const sn = Math.sin(a);
    const cx = px + c * b.lcx - sn * b.lcy;
    const cy = py + sn * b.lcx + c * b.lcy;
    out[o + BodyState.x] = px;
    out[o + BodyState.y] = py;
    out[o + BodyState.rotation] = a;
    out[o + BodyState.cos] = c;
    out[o + BodyState.sin] = sn;
    // Centre-of-mass velocity: v_c = v_o + ω × (c − p)
    out[o + BodyState.vx] = b.vx - b.w * (cy - py);
    out[o + BodyState.vy] = b.vy + b.w * (cx - px);
    out[o + BodyState.angularVel] = b.w;
    out[o + BodyState.comX] = cx;
    out[o + BodyState.comY] = cy;
  });
  return out;
}

/**
 * The packed state after displacing body `slot`'s centre of mass by (dx, dy) and turning the body
 * by dθ about its centre of mass: the engine's Jacobian columns (x, y, θ about the centre of mass).
 */
export function displaceAboutCenter(bodies: readonly TestBody[], slot: number, dx: number, dy: number, dTheta: number): Float64Array {
  const moved = bodies.map((b, s) => {
    if (s !== slot) return b;
    const c = Math.cos(b.angle);
    const sn = Math.sin(b.angle);
    const cx = b.px + c * b.lcx - sn * b.lcy + dx;
    const cy = b.py + sn * b.lcx + c * b.lcy + dy;
    const a = b.angle + dTheta;
    const c2 = Math.cos(a);
    const s2 = Math.sin(a);
    return { ...b, angle: a, px: cx - (c2 * b.lcx - s2 * b.lcy), py: cy - (s2 * b.lcx + c2 * b.lcy) };
  });
  return packState(moved);
}
