/**
 * Numbers and vectors as source text. Generated values are rounded to 4 significant digits
 * before they are used, so the printed repro is exactly what ran and stays readable.
 */

/** x rounded to `digits` significant digits (exact as printed). */
export function round(x: number, digits = 4): number {
  if (!Number.isFinite(x) || x === 0) return x;
  return Number(x.toPrecision(digits));
}

/** A number as a JavaScript literal (NaN, Infinity, -Infinity and -0 included). */
export function lit(x: number): string {
  if (Object.is(x, -0)) return '-0';
  return String(x);
}

export function v2(x: number, y: number): string {
  return `[${lit(x)}, ${lit(y)}]`;
}

/** An object literal from entries whose value is already source text (undefined entries left out). */
export function obj(entries: Record<string, string | undefined>): string {
  const parts = Object.entries(entries)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}: ${v}`);
  return `{ ${parts.join(', ')} }`;
}
