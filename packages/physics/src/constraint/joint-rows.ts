/**
 * A built-in joint's rows as numbers: its Jacobian J over its body slots (J[(r·S + s)·3 + {x, y, θ}]),
 * and what every solver of joint rows derives from it, written once for Joint (one joint at a
 * time) and the joint-island solver (several joints as one block).
 */
import type { StepContext } from '../space/step-context.js';
import { leverShare, referenceMass, type Softness } from './softness.js';

/** One body column of a row block: its solver index (0: none), inverse mass and inverse inertia (an AnchorSlot is one). */
export interface RowColumn {
  k: number;
  m: number;
  i: number;
}

/**
 * A constraint's rows as the joint-island solver reads them (joint-island.ts): live views of the
 * constraint's own arrays, valid at the pose the last _islandRows call brought them to.
 */
export interface IslandRowsView {
  dim: number;
  /**
   * ROW_EQUALITY (joint.ts) for a row the island solves as an equality, ROW_LIMIT for a limit row
   * (built-in joints only: C is then the row's value, kept within [lo, hi]); any other kind is skipped.
   */
  kind: Uint8Array;
  C: Float64Array;
  /** J[(r · columns + c) · 3 + {x, y, θ}] over the columns. */
  J: Float64Array;
  acc: Float64Array;
  slots: readonly RowColumn[];
  /** The constraint's own spring for this step (soft constraints). */
  soft: Readonly<Softness>;
  /** A limit row's bounds (±Infinity: no such side); present where `kind` may hold ROW_LIMIT. */
  lo?: Float64Array;
  hi?: Float64Array;
  /** A limit row's side impulses, each ≥ 0: the lower side pushes along +J, the upper along −J. */
  accLo?: Float64Array;
  accHi?: Float64Array;
}

/**
 * The turn that moving by M⁻¹Jᵀλ gives column s: i · Σ_r J_r,s,θ · λ[at + r] over the `dim` rows
 * (a position pass's step, limited by position-step.ts).
 */
export function columnTurn(J: Float64Array, slots: readonly RowColumn[], s: number, dim: number, lam: Float64Array, at: number): number {
  const S = slots.length;
  const i = slots[s]!.i;
  if (i === 0 || slots[s]!.k === 0) return 0;
  let pz = 0;
  for (let r = 0; r < dim; r++) {
    const l = lam[at + r]!;
    if (l === 0) continue;
    pz += J[(r * S + s) * 3 + 2]! * l;
  }
  return i * pz;
}

/** V = J v of row r at the solver's current velocities. */
export function jointRowVelocity(J: Float64Array, slots: readonly RowColumn[], r: number, ctx: StepContext): number {
  const { vx, vy, w } = ctx.bodies;
  const S = slots.length;
  let v = 0;
  for (let s = 0; s < S; s++) {
    const k = slots[s]!.k;
    const i = (r * S + s) * 3;
    v += J[i]! * vx[k]! + J[i + 1]! * vy[k]! + J[i + 2]! * w[k]!;
  }
  return v;
}

/**
 * J_a M⁻¹ J_bᵀ for row a of one joint (Ja over slotsA) and row b of another or the same (Jb over
 * slotsB): Σ over slot pairs on the same body of m (J_a · J_b)_lin + i J_a,ang J_b,ang.
 */
export function jointRowsK(Ja: Float64Array, slotsA: readonly RowColumn[], a: number, Jb: Float64Array, slotsB: readonly RowColumn[], b: number): number {
  const Sa = slotsA.length;
  const Sb = slotsB.length;
  let sum = 0;
  for (let s = 0; s < Sa; s++) {
    const ss = slotsA[s]!;
    if (ss.m === 0 && ss.i === 0) continue;
    const ia = (a * Sa + s) * 3;
    for (let t = 0; t < Sb; t++) {
      if (slotsB[t]!.k !== ss.k) continue;
      const ib = (b * Sb + t) * 3;
      sum += ss.m * (Ja[ia]! * Jb[ib]! + Ja[ia + 1]! * Jb[ib + 1]!) + ss.i * Ja[ia + 2]! * Jb[ib + 2]!;
    }
  }
  return sum;
}

/**
 * Row r's linear and angular parts of K (softness.ts, referenceMass), and whether its J has a
 * linear part at all (whatever the bodies' masses), into `out` as [lin, ang, linear ? 1 : 0].
 */
function rowParts(J: Float64Array, slots: readonly RowColumn[], r: number, out: Float64Array): void {
  const S = slots.length;
  let lin = 0;
  let ang = 0;
  let linear = 0;
  for (let s = 0; s < S; s++) {
    const ss = slots[s]!;
    const ia = (r * S + s) * 3;
    if (J[ia] !== 0 || J[ia + 1] !== 0) linear = 1;
    for (let t = 0; t < S; t++) {
      if (slots[t]!.k !== ss.k) continue;
      const ib = (r * S + t) * 3;
      lin += ss.m * (J[ia]! * J[ib]! + J[ia + 1]! * J[ib + 1]!);
      ang += ss.i * J[ia + 2]! * J[ib + 2]!;
    }
  }
  out[0] = lin;
  out[1] = ang;
  out[2] = linear;
}
const parts = new Float64Array(3);

/** Row r's reference K for a soft spring (softness.ts): its linear part and the lever share, or its angular part if it has no linear one. */
export function jointRowReferenceK(J: Float64Array, slots: readonly RowColumn[], r: number, lever: number): number {
  rowParts(J, slots, r, parts);
  return referenceMass(parts[0]!, parts[1]!, lever, parts[2] === 1);
}

/** The lever share (softness.ts) of a constraint's `dim` rows, skipping those of kind `skip`. */
export function jointLeverShare(J: Float64Array, slots: readonly RowColumn[], dim: number, kind: Uint8Array, skip: number): number {
  let sum = 0;
  let count = 0;
  for (let r = 0; r < dim; r++) {
    if (kind[r] === skip) continue;
    rowParts(J, slots, r, parts);
    if (parts[2] === 1) {
      sum += parts[1]!;
      count++;
    }
  }
  return leverShare(sum, count);
}
