/**
 * jointMin / jointMax validation shared by every joint with limits (and by Joint's setters).
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
