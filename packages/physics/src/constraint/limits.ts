/**
 * Limits, shared by every constraint with them (the built-in joints and UserConstraint's limited
 * rows): jointMin / jointMax validation, and the position pass's correction of a limited row.
 * (A limit side's velocity update is softness.ts's limitSideUpdate.)
 */
import { fail } from '../util/validate.js';

/** Validate a jointMin/jointMax pair (either may be ±Infinity; NaN and min > max rejected). */
export function checkLimits(owner: string, min: unknown, max: unknown, allowNegative: boolean): [number, number] {
  const check = (name: string, v: unknown): number => {
    if (typeof v !== 'number' || Number.isNaN(v)) fail(owner, name, v, 'must be a number (±Infinity allowed)');
    if (!allowNegative && v < 0) fail(owner, name, v, 'must be ≥ 0');
    return v;
  };
  const lo = check('jointMin', min);
  const hi = check('jointMax', max);
  if (lo > hi) fail(owner, 'jointMin', lo, `must not exceed jointMax (${hi})`);
  if (lo === Infinity) fail(owner, 'jointMin', lo, 'must be below +Infinity');
  if (hi === -Infinity) fail(owner, 'jointMax', hi, 'must be above -Infinity');
  return [lo, hi];
}

/** One row's limits as given to UserConstraint: [jointMin, jointMax], validated like checkLimits (negative allowed). */
export function checkRowLimit(owner: string, prop: string, value: unknown): [number, number] {
  if (!Array.isArray(value) || value.length !== 2) fail(owner, prop, value, 'must be [jointMin, jointMax] (or null for an equality row)');
  const [lo, hi] = value as unknown[];
  const bad = (v: unknown): boolean => typeof v !== 'number' || Number.isNaN(v);
  if (bad(lo)) fail(owner, `${prop}[0]`, lo, 'must be a number (jointMin; -Infinity allowed)');
  if (bad(hi)) fail(owner, `${prop}[1]`, hi, 'must be a number (jointMax; +Infinity allowed)');
  const min = lo as number;
  const max = hi as number;
  if (min > max) fail(owner, prop, value, 'must have jointMin ≤ jointMax');
  if (min === Infinity) fail(owner, `${prop}[0]`, min, 'must be below +Infinity');
  if (max === -Infinity) fail(owner, `${prop}[1]`, max, 'must be above -Infinity');
  return [min, max];
}

/**
 * Position pass: the λ along a limited row (value c, effective mass K) that moves it back to
 * [lo, hi]; 0 inside the bounds or when the row cannot move (K ≤ 0).
 */
export function limitPositionImpulse(c: number, lo: number, hi: number, K: number): number {
  if (K <= 0) return 0;
  return c < lo ? (lo - c) / K : c > hi ? (hi - c) / K : 0;
}
