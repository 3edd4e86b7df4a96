/**
 * A built-in joint's rows as numbers: its Jacobian J over its body slots (J[(r·S + s)·3 + {x, y, θ}]),
 * and what every solver of joint rows derives from it, written once for Joint (one joint at a
 * time) and the joint-island solver (several joints as one block).
 */
import type { StepContext } from '../space/step-context.js';
import type { AnchorSlot } from './anchor-slot.js';
import { referenceMass } from './softness.js';

/** V = J v of row r at the solver's current velocities. */
export function jointRowVelocity(J: Float64Array, slots: readonly AnchorSlot[], r: number, ctx: StepContext): number {
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
export function jointRowsK(Ja: Float64Array, slotsA: readonly AnchorSlot[], a: number, Jb: Float64Array, slotsB: readonly AnchorSlot[], b: number): number {
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

/** Row r's reference K for a soft spring (softness.ts): its linear part, or its angular part if it has no linear one. */
export function jointRowReferenceK(J: Float64Array, slots: readonly AnchorSlot[], r: number): number {
  const S = slots.length;
  let lin = 0;
  let ang = 0;
  for (let s = 0; s < S; s++) {
    const ss = slots[s]!;
    const ia = (r * S + s) * 3;
    for (let t = 0; t < S; t++) {
      if (slots[t]!.k !== ss.k) continue;
      const ib = (r * S + t) * 3;
      lin += ss.m * (J[ia]! * J[ib]! + J[ia + 1]! * J[ib + 1]!);
      ang += ss.i * J[ia + 2]! * J[ib + 2]!;
    }
  }
  return referenceMass(lin, ang);
}
