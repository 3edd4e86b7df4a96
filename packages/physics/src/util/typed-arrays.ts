/** Growing the solvers' typed arrays: a copy of the old contents in a longer array of the same type. */

export type GrowableArray = Float64Array | Int32Array | Uint8Array;

/**
 * A new array of `a`'s type, `length` long, starting with a copy of `a`. An array over a
 * SharedArrayBuffer (the parallel step's, see shareArray) grows into a new shared one.
 */
export function resized<T extends GrowableArray>(a: T, length: number): T {
  const Type = a.constructor as new (b: ArrayBufferLike | number) => T;
  const b = isShared(a) ? new Type(new SharedArrayBuffer(length * a.BYTES_PER_ELEMENT)) : new Type(length);
  b.set(a);
  return b;
}

/** Whether `a` lives in a SharedArrayBuffer. */
export function isShared(a: GrowableArray): boolean {
  return typeof SharedArrayBuffer !== 'undefined' && a.buffer instanceof SharedArrayBuffer;
}

/** `a`'s contents in an array of its type over a new SharedArrayBuffer (the same length). */
export function shareArray<T extends GrowableArray>(a: T): T {
  if (isShared(a)) return a;
  const Type = a.constructor as new (b: ArrayBufferLike) => T;
  const b = new Type(new SharedArrayBuffer(a.length * a.BYTES_PER_ELEMENT));
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
