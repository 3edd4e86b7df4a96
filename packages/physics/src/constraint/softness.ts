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
 * Soft rows (a joint's own spring): a fixed compliance. The update above is the implicit spring
 * solved with a compliance Γ = g·K, g = impulseScale/massScale = 1/(hω(2ζ + hω)) (`compliance`):
 *
 *   (K + Γ) Δλ = −(V + biasRate·C) − Γ·λold,   λnew = λold + Δλ
 *
 * that is, a spring of stiffness ω²/K whose mass is the row's own effective mass K⁻¹. On a lever K
 * depends on the pose (its r × n terms), so that stiffness does too, and a spring whose stiffness
 * follows the pose is not conservative: a soft WeldJoint holding a plank that carries a 5 kg ball
 * on a 15 m rod gained energy every step, to 3.9e72 m/s. So a soft row's compliance is fixed by a
 * reference K that no pose changes, Γ_r = g·Kref_r, with Kref_r = Σ invMass·|J_lin|² over the
 * row's bodies (its K with the anchors at the centres of mass) plus the constraint's lever share
 * (the mean angular part of its linear rows where that mean is the same at every pose:
 * leverShare), or Σ invI·J_ang² for a row with no linear part (referenceMass). A body on a spring
 * at its centre of mass still oscillates at the joint's frequency; a lever no longer changes the
 * spring. Every soft row solves that system
 * (softRhs, and limitSideUpdate for one side): the joint and user blocks factor K + diag(Γ) once
 * per pose. The stiff rows' joint softness in the biased pass and the contacts keep the form above:
 * their relax passes take the bias velocity back out, and they were stable.
 *
 * The functions are a few operations each so that V8 inlines them into the solvers' loops
 * (`node --trace-turbo-inlining` lists them as inlined into every pass that calls them; see
 * packages/physics/README.md).
 */

export interface Softness {
  biasRate: number;
  massScale: number;
  impulseScale: number;
  /** g = impulseScale/massScale = 1/(hω(2ζ + hω)); a soft row's compliance is g·Kref (0: rigid). */
  compliance: number;
}

/** A rigid row without bias: λnew = λold + x. */
export const RIGID: Readonly<Softness> = Object.freeze({ biasRate: 0, massScale: 1, impulseScale: 0, compliance: 0 });

/** Fresh coefficients of a rigid row, to be filled by makeSoft. */
export function rigidSoftness(): Softness {
  return { biasRate: 0, massScale: 1, impulseScale: 0, compliance: 0 };
}

/** The coefficients of a spring of `hertz` (0: RIGID) and damping ratio `zeta` over a substep h, into `out`. */
export function makeSoft(hertz: number, zeta: number, h: number, out: Softness): Softness {
  if (hertz === 0) {
    out.biasRate = 0;
    out.massScale = 1;
    out.impulseScale = 0;
    out.compliance = 0;
    return out;
  }
  const omega = 2 * Math.PI * hertz;
  const a1 = 2 * zeta + h * omega;
  const a2 = h * omega * a1;
  const a3 = 1 / (1 + a2);
  out.biasRate = omega / a1;
  out.massScale = a2 * a3;
  out.impulseScale = a3;
  out.compliance = 1 / a2;
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
 * A soft row's reference K (see the fixed compliance above), from the parts of its K: `lin`,
 * Σ invMass·|J_lin|², and `ang`, Σ invI·J_ang². A linear row (its J has a linear part, whatever
 * the bodies' masses): lin plus the constraint's lever share (leverShare), or its angular part if
 * both are 0; an angular row: its angular part. Why "whatever the masses": a body with
 * `allowMovement: false` has no linear part, and a pivot on it took each row's own angular part,
 * invI·r_y² and invI·r_x², which follow the pose: the non-conservative spring the lever share
 * removes elsewhere.
 */
export function referenceMass(lin: number, ang: number, lever: number, linear: boolean): number {
  const ref = lin + lever;
  return linear && ref > 0 ? ref : ang;
}

/**
 * The lever share of a constraint's linear rows (their J has a linear part, whatever the bodies'
 * masses): the mean of their angular parts Σ invI·J_ang², when there are at least two such rows,
 * else 0. Why: a body far from its anchor
 * turns much more easily than it moves, and with the linear part alone its turning mode was a
 * spring up to 60× the joint's frequency (a 0.02 kg ball 4.5 m from a 7 Hz pivot's anchor spun to
 * 5e5 rad/s in 8 steps, fuzz seed 2422645363). The mean is what no pose changes: a point's two rows
 * (x and y, as PivotJoint's and WeldJoint's) have angular parts invI·r_y² and invI·r_x², whose sum
 * invI·|r|² is the same at every angle. One such row alone, (r × n)², varies with the pose, and a
 * spring whose stiffness follows the pose is not conservative (above): it keeps the linear part.
 */
export function leverShare(angSum: number, count: number): number {
  return count >= 2 ? angSum / count : 0;
}

/**
 * The fastest a stiff row's joint softness (jointHertz > 0, the biased pass) pushes its error
 * out: 3 per second in the row's units (m/s for a linear row, rad/s for an angular one), as
 * contacts push overlap out (CONTACT_PUSH_MAX_VELOCITY). The bias is a spring on the error, and an
 * error that is not drift but a large violation released that spring all at once: a 6.8 kg body
 * of tiny inertia on a 7 m lever, whose rope snapped taut with the lever nearly along it, was
 * pushed back at 33 m/s per metre of stretch through its turning, overshot, and reached 1.6e9 m/s
 * (fuzz seed 1236120785). A soft row's own spring keeps its cap, biasRate·maxError (Nape).
 */
export const JOINT_PUSH_MAX_VELOCITY = 3;

/**
 * A stiff row's bias biasRate·C, pushing no faster than JOINT_PUSH_MAX_VELOCITY (written out: the
 * function stands alone, as the user batch's kernels take it as a part; stiff-bias.test.ts checks
 * the two agree).
 */
export function stiffBias(biasRate: number, C: number): number {
  const MAX = 3;
  const b = biasRate * C;
  return b > MAX ? MAX : b < -MAX ? -MAX : b;
}

/**
 * The right-hand side of a soft row's solve (K + Γ) Δλ = x − Γ·λold, from the rigid right-hand
 * side x = −(V + biasRate·C), the row's compliance Γ and its accumulated impulse λold.
 */
export function softRhs(x: number, gamma: number, old: number): number {
  return x - gamma * old;
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
 * (`pass`): a soft row (`soft`) its spring with compliance `gamma` (Γ = compliance·Kref, the fixed
 * compliance above), pushing no faster than biasRate·maxError and carrying at most `maxImpulse`; a
 * stiff row given a compliance (the joint softness of a biased pass, jointHertz > 0) the same fixed
 * compliance, pushing no faster than JOINT_PUSH_MAX_VELOCITY; a stiff row given 0, the pass's
 * coefficients.
 * The built-in joints' limits and UserConstraint's limited rows both update here.
 */
export function limitSideUpdate(old: number, C: number, cdot: number, K: number, invH: number, pass: Readonly<Softness>, soft: boolean, maxError: number, maxImpulse: number, gamma: number): number {
  const reached = C <= 0;
  const bias = oneSidedBias(C, invH, pass.biasRate, soft ? pass.biasRate * maxError : JOINT_PUSH_MAX_VELOCITY);
  if (reached && (soft || gamma > 0)) {
    const next = Math.max(old + softRhs(-(cdot + bias), gamma, old) / (K + gamma), 0);
    return soft ? Math.min(next, maxImpulse) : next;
  }
  const massScale = reached ? pass.massScale : 1;
  const impulseScale = reached ? pass.impulseScale : 0;
  const next = Math.max(softUpdate(old, cdot + bias, -massScale / K, impulseScale), 0);
  return soft ? Math.min(next, maxImpulse) : next;
}
