/**
 * Prop comparison and validation caching.
 *
 * Props are compared by value: `position={[0, 1]}` written inline is a fresh array on every
 * render, and must not count as a change (it would teleport the body back every render).
 * Arrays and plain objects compare element by element; anything else (engine objects, refs,
 * functions) by identity.
 */
import { didYouMean } from '@fulcrum/physics';
import { useRef } from 'react';
import { propFail } from './errors.js';

export function sameValue(a: unknown, b: unknown, depth = 0): boolean {
  if (Object.is(a, b)) return true;
  // Deeper than any prop shape needs (and safe from cycles, e.g. in userData): identity only.
  if (depth > 3 || typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a)) {
    if (!Array.isArray(b) || a.length !== b.length) return false;
    for (let i = 0; i < a.length; i++) if (!sameValue(a[i], b[i], depth + 1)) return false;
    return true;
  }
  if (Array.isArray(b) || !isPlain(a) || !isPlain(b)) return false;
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  for (const k of ka) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) return false;
    if (!sameValue((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k], depth + 1)) return false;
  }
  return true;
}

function isPlain(o: object): boolean {
  const p = Object.getPrototypeOf(o);
  return p === Object.prototype || p === null;
}

/** Keys of `keys` whose values differ between `prev` and `next`. */
export function changedKeys<K extends string>(keys: readonly K[], prev: Partial<Record<K, unknown>>, next: Partial<Record<K, unknown>>): K[] {
  const out: K[] = [];
  for (const k of keys) if (!sameValue(prev[k], next[k])) out.push(k);
  return out;
}

/** Copy the defined entries of `props` listed in `keys` (an options object for the engine). */
export function pick<K extends string>(props: Partial<Record<K, unknown>>, keys: readonly K[]): Partial<Record<K, unknown>> {
  const out: Partial<Record<K, unknown>> = {};
  for (const k of keys) if (props[k] !== undefined) out[k] = props[k];
  return out;
}

/**
 * Validate during render, and only when the input changed: `validate(input)` throws on bad
 * props (before anything is applied), and its result is cached with the input it was made from.
 */
export function useValidated<I, R>(input: I, validate: (input: I) => R): R {
  const cache = useRef<{ input: I; result: R } | null>(null);
  const c = cache.current;
  if (c !== null && sameValue(c.input, input)) return c.result;
  const result = validate(input);
  cache.current = { input, result };
  return result;
}

/**
 * Every prop of `props` is one the component takes: a misspelt one (`positon`) is a
 * FulcrumPropError naming it and the closest prop, not a prop silently ignored. (TypeScript catches
 * these in TSX; JavaScript does not.) A hyphenated name (`data-testid`) passes: TypeScript accepts
 * one on any element, as JSX's convention for data and aria attributes, and none is a misspelling
 * of a camelCase prop.
 */
export function checkPropNames(component: string, props: object, names: readonly string[], within?: string): void {
  for (const k of Object.keys(props)) {
    if (names.includes(k) || k.includes('-')) continue;
    const guess = didYouMean(k, names);
    const whose = within === undefined ? `<${component}> has no prop` : `${within} has no key`;
    propFail(component, within === undefined ? k : `${within}.${k}`, (props as Record<string, unknown>)[k], `${whose} '${k}'${guess ? ` (${guess})` : ''}; its ${within === undefined ? 'props' : 'keys'} are ${names.join(', ')}`);
  }
}

/**
 * The prop names of a props type P, checked against P when it compiles: `propNames<BodyProps>()([…])`
 * fails to compile while a prop of P is missing, or a listed one is not P's (the engine's optionKeys).
 */
export { optionKeys as propNames } from '@fulcrum/physics';
