/** Growing the solvers' typed arrays: a copy of the old contents in a longer array of the same type. */

export type GrowableArray = Float64Array | Int32Array | Uint8Array;

/** A new array of `a`'s type, `length` long, starting with a copy of `a`. */
export function resized<T extends GrowableArray>(a: T, length: number): T {
  const b = new (a.constructor as new (n: number) => T)(length);
  b.set(a);
  return b;
}

/** `a`, or a copy at least `need` long (capacity doubles, from 64). */
export function grown<T extends GrowableArray>(a: T, need: number): T {
  if (need <= a.length) return a;
  let cap = Math.max(64, a.length);
  while (cap < need) cap *= 2;
  return resized(a, cap);
}
