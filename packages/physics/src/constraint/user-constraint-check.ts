/**
 * Space.checkUserConstraints: a UserConstraint's hand-written derivatives against finite
 * differences of its own C, at the bodies' current state, before its first step and after each
 * change. The hooks are the user's; C = position(err) is the one thing they cannot get wrong
 * about their own constraint, so everything else is measured against it:
 *
 *   J    central differences of C about each body's centre of mass, at two step sizes (an entry
 *        where they disagree is at a kink of C and is not judged); jacobian() must match.
 *   V    velocity() is affine in the velocities, V = J v + V₀ (V₀ a target, if any): so
 *        V(v + δ) − V(v) must equal J δ for a velocity change δ.
 *   K    effMass() must be J M⁻¹ Jᵀ (packed upper triangle).
 *   Jᵀλ  impulse(λ, body) must be body's part of Jᵀλ, for λ each unit row vector.
 *
 * A row whose J is 0 everywhere is reported too: C does not depend on any body there (a formula
 * constant by accident, such as |unit(p2 − p1)| − 1), so the row can never be solved.
 *
 * Size and packing mistakes are caught on the way: each hook gets arrays that record a write
 * past their end (err[1] of a one-row constraint, J columns for a body the constraint does not
 * list, eff[6] of a 3 × 3 K, whose packed triangle has 6 entries), and C, V and K start filled
 * with a marker, so a row or entry the hook left unwritten is named.
 * A mismatch is a FulcrumInputError naming the constraint, the hook, the row (and column or
 * body) and both values. Checking costs about a step's worth of hook calls per check.
 */
import type { Body } from '../body/body.js';
import type { Vec3 } from '../math/vec2.js';
import { FulcrumInputError } from '../util/validate.js';

/** What the check needs of a UserConstraint (its internals, lent for the check only). */
export interface DerivativeProbe {
  readonly label: string;
  readonly typeName: string;
  readonly dimensions: number;
  /** The body slots (all set: the check runs after the step's validation), and each slot's distinct body index. */
  readonly slots: readonly Body[];
  readonly distinct: readonly Body[];
  readonly slotDistinct: Int32Array;
  readonly has: { readonly jacobian: boolean; readonly velocity: boolean; readonly effMass: boolean; readonly impulse: boolean };
  /** C at the current state. */
  position(err: Float64Array): void;
  /** The user's J (only when has.jacobian). */
  jacobian(J: Float64Array): void;
  velocity(err: Float64Array): void;
  effMass(eff: Float64Array): void;
  impulse(imp: Float64Array, body: Body, out: Vec3): void;
  /**
   * Central differences of C with step `step` (rad or m) into J; and into `bend`, per entry,
   * ((C(x + step) + C(x − step)) / 2 − C(x)) / step: about C''·step/2 where C is smooth, the
   * slope's jump where C has a kink at x (|p| at p = 0), whose central difference is 0.
   */
  differences(J: Float64Array, step: number, bend: Float64Array): void;
  /** Add δ (x, y, ω per slot's body, distinct-body order) to the velocities the hooks read; undo() restores them exactly. */
  nudgeVelocities(delta: Float64Array): void;
  undoVelocities(): void;
}

/** Relative agreement demanded of a derivative (finite differences are good to about 1e-9 here). */
const TOLERANCE = 1e-5;
const STEP = 1e-6;
/**
 * A bend (see DerivativeProbe.differences) above this is a kink: a smooth C bends by C''·step/2,
 * under 1e-4 for |C''| up to 50 at the larger step 4e-6, where a kink bends by its slope's jump.
 */
const KINK = 1e-4;

/** A value no hook writes: an entry still holding it was left unwritten. */
const UNWRITTEN = -1.2345678901234567e300;

/**
 * Call `hook` with `out` (of `size` entries, prefilled with UNWRITTEN when `full`) behind a
 * guard that records writes past its end; report them, and with `full` any entry left unwritten.
 */
function guarded(p: DerivativeProbe, hook: string, size: number, full: boolean, what: string, call: (out: Float64Array) => void): Float64Array {
  const out = new Float64Array(size);
  if (full) out.fill(UNWRITTEN);
  let past = -1;
  const guard = new Proxy(out, {
    set(target, key, value) {
      if (typeof key === 'string' && /^\d+$/.test(key) && Number(key) >= target.length && past < 0) past = Number(key);
      return Reflect.set(target, key, value);
    },
    get(target, key) {
      const v = Reflect.get(target, key, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
  call(guard);
  if (past >= 0) throw mismatch(p, hook, `it wrote index ${past}, past the end of its ${size} entries (${what})`, 'has a size or packing mistake');
  if (full) {
    const left = out.indexOf(UNWRITTEN);
    if (left >= 0) throw mismatch(p, hook, `it left index ${left} of its ${size} entries (${what}) unwritten`, 'has a size or packing mistake');
  }
  return out;
}

export function checkUserConstraintDerivatives(p: DerivativeProbe): void {
  const n = p.dimensions;
  const cols = 3 * p.slots.length;
  const rowsOf = `${n} row${n === 1 ? '' : 's'}, dimensions = ${n}`;
  guarded(p, 'position', n, true, rowsOf, (err) => p.position(err));
  const J1 = new Float64Array(n * cols);
  const J2 = new Float64Array(n * cols);
  const bend = new Float64Array(n * cols);
  const bend2 = new Float64Array(n * cols);
  p.differences(J1, STEP, bend);
  p.differences(J2, 4 * STEP, bend2);
  // The reference J (columns of one body in two slots stay apart, as the hooks write them). An
  // entry is judged only where C is smooth: the two step sizes agree, and C does not bend like a
  // kink (at |p| for p = 0 both central differences are 0, yet C is not constant).
  const smooth = new Uint8Array(n * cols);
  let jScale = 0;
  for (let i = 0; i < J1.length; i++) {
    smooth[i] = agree(J1[i]!, J2[i]!, 1e-4, 1e-9) && Math.abs(bend[i]!) <= KINK && Math.abs(bend2[i]!) <= KINK ? 1 : 0;
    jScale = Math.max(jScale, Math.abs(J1[i]!));
  }
  // With no body an impulse can move (static, kinematic, pinned), the differences are not taken
  // and a row cannot be judged constant: such a constraint is inert, not wrong.
  let movable = false;
  for (let k = 0; k < cols; k++) {
    const body = p.slots[(k / 3) | 0]!;
    if ((k % 3 < 2 ? body._invMass : body._invInertia) !== 0) movable = true;
  }
  for (let r = 0; r < n && movable; r++) {
    let any = false;
    for (let k = 0; k < cols; k++) if (Math.abs(J1[r * cols + k]!) > 1e-9 || smooth[r * cols + k] === 0) any = true;
    if (!any) {
      throw new FulcrumInputError(
        `${p.label}: row ${r} of position() does not depend on any body's position here (its finite-difference derivative is 0 in every column), so the row can never be solved; check its formula (|unit(p2 − p1)| − 1, for example, is constant) (Space.checkUserConstraints)`,
        { owner: p.typeName, prop: 'position' },
      );
    }
  }
  if (p.has.jacobian) {
    // (J may leave zero entries unwritten: the engine zeroes it first.)
    const J = guarded(p, 'jacobian', n * cols, false, `${n} × ${cols}: ${n} row${n === 1 ? '' : 's'}, 3 columns for each of the ${p.slots.length} bodies listed`, (out) => p.jacobian(out));
    for (let i = 0; i < J.length; i++) {
      // A column no impulse can move (a static body's, a fixed rotation's) does not matter.
      const body = p.slots[((i % cols) / 3) | 0]!;
      if ((i % 3 < 2 ? body._invMass : body._invInertia) === 0) continue;
      if (smooth[i] === 0 || agree(J[i]!, J1[i]!, TOLERANCE, TOLERANCE * jScale)) continue;
      const r = (i / cols) | 0;
      const k = i % cols;
      throw mismatch(p, 'jacobian', `row ${r}, column ${k} (${'xyθ'[k % 3]} of bodies[${(k / 3) | 0}]): jacobian() gives ${J[i]}, the finite differences of position() give ${J1[i]}`);
    }
  }
  if (p.has.velocity) checkVelocity(p, J1, smooth, jScale);
  if (p.has.effMass) checkEffMass(p, J1);
  if (p.has.impulse) checkImpulse(p, J1);
}

/** V(v + δ) − V(v) = J δ, for a fixed velocity change δ on every body. */
function checkVelocity(p: DerivativeProbe, J: Float64Array, smooth: Uint8Array, jScale: number): void {
  const n = p.dimensions;
  const cols = 3 * p.slots.length;
  const nd = p.distinct.length;
  const delta = new Float64Array(3 * nd);
  // Distinct, non-round numbers, so that a swapped component cannot agree by accident.
  // (A component no impulse can change, a static body's, stays: its J columns are not judged.)
  for (let i = 0; i < delta.length; i++) {
    const body = p.distinct[(i / 3) | 0]!;
    delta[i] = (i % 3 < 2 ? body._invMass : body._invInertia) === 0 ? 0 : (i % 2 === 0 ? 1 : -1) * (0.37 + 0.21 * i);
  }
  const rowsOf = `${n} row${n === 1 ? '' : 's'}, dimensions = ${n}`;
  const v0 = guarded(p, 'velocity', n, true, rowsOf, (err) => p.velocity(err));
  let v1: Float64Array;
  p.nudgeVelocities(delta);
  try {
    v1 = guarded(p, 'velocity', n, true, rowsOf, (err) => p.velocity(err));
  } finally {
    p.undoVelocities();
  }
  for (let r = 0; r < n; r++) {
    let jd = 0;
    let judged = true;
    let size = 0;
    for (let k = 0; k < cols; k++) {
      const i = r * cols + k;
      const d = delta[3 * p.slotDistinct[(k / 3) | 0]! + (k % 3)]!;
      if (smooth[i] === 0 && d !== 0) judged = false;
      jd += J[i]! * d;
      size += Math.abs(J[i]! * d);
    }
    const got = v1[r]! - v0[r]!;
    if (!judged || agree(got, jd, TOLERANCE, TOLERANCE * Math.max(size, jScale))) continue;
    throw mismatch(p, 'velocity', `row ${r}: a change of the body velocities changes velocity() by ${got}, but J v by ${jd} (J from the finite differences of position()); velocity() must be J v (plus a constant target)`);
  }
}

/** effMass() = J M⁻¹ Jᵀ, packed upper triangle row by row. */
function checkEffMass(p: DerivativeProbe, J: Float64Array): void {
  const n = p.dimensions;
  const cols = 3 * p.slots.length;
  const packed = (n * (n + 1)) >>> 1;
  const eff = guarded(p, 'effMass', packed, true, `the upper triangle of the ${n} × ${n} K, row by row: n(n+1)/2 = ${packed}`, (out) => p.effMass(out));
  const K = new Float64Array(n * n);
  let scale = 0;
  for (let a = 0; a < n; a++) {
    for (let b = a; b < n; b++) {
      let k = 0;
      // Slots sharing a body add their cross terms (the body moves once).
      for (let s = 0; s < p.slots.length; s++) {
        for (let t = 0; t < p.slots.length; t++) {
          if (p.slotDistinct[s] !== p.slotDistinct[t]) continue;
          const body = p.slots[s]!;
          const ia = a * cols + 3 * s;
          const ib = b * cols + 3 * t;
          k += body._invMass * (J[ia]! * J[ib]! + J[ia + 1]! * J[ib + 1]!) + body._invInertia * J[ia + 2]! * J[ib + 2]!;
        }
      }
      K[a * n + b] = k;
      scale = Math.max(scale, Math.abs(k));
    }
  }
  let q = 0;
  for (let a = 0; a < n; a++) {
    for (let b = a; b < n; b++, q++) {
      if (agree(eff[q]!, K[a * n + b]!, 1e-4, 1e-4 * scale)) continue;
      throw mismatch(p, 'effMass', `K[${a}][${b}] (packed index ${q}): effMass() gives ${eff[q]}, J M⁻¹ Jᵀ gives ${K[a * n + b]} (J from the finite differences of position(), M from the bodies' masses and inertias)`);
    }
  }
}

/** impulse(λ, body) = body's part of Jᵀλ, for λ = each unit row vector. */
function checkImpulse(p: DerivativeProbe, J: Float64Array): void {
  const n = p.dimensions;
  const cols = 3 * p.slots.length;
  const lam = new Float64Array(n);
  const out: Vec3 = { x: 0, y: 0, z: 0 };
  let scale = 0;
  for (let i = 0; i < J.length; i++) scale = Math.max(scale, Math.abs(J[i]!));
  for (let r = 0; r < n; r++) {
    lam.fill(0);
    lam[r] = 1;
    for (let d = 0; d < p.distinct.length; d++) {
      const body = p.distinct[d]!;
      let ex = 0, ey = 0, ez = 0;
      for (let s = 0; s < p.slots.length; s++) {
        if (p.slotDistinct[s] !== d) continue;
        ex += J[r * cols + 3 * s]!;
        ey += J[r * cols + 3 * s + 1]!;
        ez += J[r * cols + 3 * s + 2]!;
      }
      out.x = out.y = out.z = 0;
      p.impulse(lam, body, out);
      const tol = 1e-4 * scale;
      // (A component no impulse can move, a static body's, does not matter.)
      const lin = body._invMass === 0;
      const ang = body._invInertia === 0;
      if ((lin || (agree(out.x, ex, 1e-4, tol) && agree(out.y, ey, 1e-4, tol))) && (ang || agree(out.z, ez, 1e-4, tol))) continue;
      throw mismatch(p, 'impulse', `row ${r}, Body#${body.id}: impulse() gives (${out.x}, ${out.y}, ${out.z}) for a unit impulse in that row, Jᵀλ gives (${ex}, ${ey}, ${ez}) (J from the finite differences of position())`);
    }
  }
}

/** |a − b| within rel·(|a| + |b|) + abs. */
function agree(a: number, b: number, rel: number, abs: number): boolean {
  return Math.abs(a - b) <= rel * (Math.abs(a) + Math.abs(b)) + abs;
}

function mismatch(p: DerivativeProbe, hook: string, what: string, verdict = 'disagrees with position()'): FulcrumInputError {
  return new FulcrumInputError(`${p.label}: ${hook}() ${verdict} (Space.checkUserConstraints): ${what}`, { owner: p.typeName, prop: hook });
}
