/**
 * Softness: the one rule by which every solver (contacts, the joint batch, the user batch and the
 * one-by-one constraints) turns a row's velocity error into an impulse. Catto's soft step, as in
 * Box2D v3: a row is a damped spring of frequency f (Hz) and damping ratio ζ, integrated implicitly
 * over the substep h. With ω = 2πf:
 *
 *   a1 = 2ζ + hω,  biasRate = ω / a1,  massScale = hω·a1 / (1 + hω·a1),  impulseScale = 1 / (1 + hω·a1)
 *
 * and a row with effective mass K, velocity error V and position error C updates its accumulated
 * impulse λ as
 *
 *   x    = −K⁻¹ (V + biasRate·C)             (the rigid solution, with the spring's bias)
 *   λnew = λold − impulseScale·λold + massScale·x
 *
 * massScale 1, impulseScale 0 and biasRate 0 is a rigid row without bias (RIGID). Which of the
 * three sets of coefficients a row uses in a pass is passSoftness's rule: its own spring if it is
 * soft; the space's joint softness in a biased pass if it is stiff; RIGID in a relax pass.
 *
 * The functions are a few operations each so that V8 inlines them into the solvers' loops
 * (`node --trace-turbo-inlining` lists them as inlined into every pass that calls them; see
 * packages/physics/README.md).
 */

export interface Softness {
  biasRate: number;
  massScale: number;
  impulseScale: number;
}

/** A rigid row without bias: λnew = λold + x. */
export const RIGID: Readonly<Softness> = Object.freeze({ biasRate: 0, massScale: 1, impulseScale: 0 });

/** The coefficients of a spring of `hertz` (0: RIGID) and damping ratio `zeta` over a substep h, into `out`. */
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

/**
 * The coefficients a row uses in one pass: a soft row its own spring (`own`), in every pass; a
 * stiff row (own = null) the space's joint softness in the biased pass (`useBias`), RIGID in a relax pass.
 */
export function passSoftness(own: Softness | null, useBias: boolean, joint: Softness): Readonly<Softness> {
  return own !== null ? own : useBias ? joint : RIGID;
}

/** True for RIGID's coefficients: the row's impulse is then the rigid solution x itself. */
export function isRigid(s: Readonly<Softness>): boolean {
  return s.biasRate === 0 && s.massScale === 1 && s.impulseScale === 0;
}

/**
 * The soft update of an accumulated impulse: λold − impulseScale·λold + massScale·x. The decayed
 * old impulse is known before the row reads any velocity, so a pass that calls this waits only
 * on massScale·x and one add (a chain's passes are bound by that wait). A caller whose x is a
 * scaled velocity error may fold the scale in: softUpdate(old, V + bias, −massScale/K, …) for a
 * one-row K is the same update.
 */
export function softUpdate(old: number, x: number, massScale: number, impulseScale: number): number {
  return old - impulseScale * old + massScale * x;
}

/**
 * The bias of a one-sided row (a contact point, a joint limit) with gap C: a gap not yet closed
 * (C > 0) may close within the substep and no further (speculative, C/h); an overlap is pushed
 * out by the spring (biasRate·C), no faster than `maxPush` (m/s, or rad/s for angular rows).
 */
export function oneSidedBias(C: number, invH: number, biasRate: number, maxPush: number): number {
  return C > 0 ? C * invH : Math.max(biasRate * C, -maxPush);
}

/**
 * One side of a limit, C ≥ 0 (C the gap to the bound, cdot = dC/dt = J·v along the side, K its
 * effective mass): the new accumulated impulse, never negative (a side only pushes). A gap not
 * yet closed uses the speculative bias without softening; an overlap uses the pass's softness
 * (`pass`). A soft row (`soft`) pushes no faster than biasRate·maxError and carries at most
 * `maxImpulse`. The built-in joints' limits and UserConstraint's limited rows both update here.
 */
export function limitSideUpdate(old: number, C: number, cdot: number, K: number, invH: number, pass: Readonly<Softness>, soft: boolean, maxError: number, maxImpulse: number): number {
  const reached = C <= 0;
  const bias = oneSidedBias(C, invH, pass.biasRate, soft ? pass.biasRate * maxError : Infinity);
  const massScale = reached ? pass.massScale : 1;
  const impulseScale = reached ? pass.impulseScale : 0;
  const next = Math.max(softUpdate(old, cdot + bias, -massScale / K, impulseScale), 0);
  return soft ? Math.min(next, maxImpulse) : next;
}
