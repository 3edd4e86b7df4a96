/**
 * Input validation for the public API. Every check throws a `FulcrumInputError` that names
 * the owner (e.g. "Body", "Circle"), the property and the offending value, so a user can
 * find the bad line from the message alone. Checks run before anything is assigned, so a
 * failed call leaves the object untouched (nothing is half-applied).
 */
import type { Vec2, Vec2Like } from '../math/vec2.js';
import { closest } from './suggest.js';

export class FulcrumInputError extends Error {
  /**
   * The offending property as the caller wrote it (`'frequency'`, `'anchor1'`, `'step(dt)'`), so
   * bindings can point at the prop without parsing the message; null where no single property is
   * at fault (e.g. stepping a space that is already stepping).
   */
  readonly prop: string | null;
  /** The object kind that rejected it ("Body", "PivotJoint", "Space"), or null. */
  readonly owner: string | null;
  constructor(message: string, where: { owner?: string; prop?: string } = {}) {
    super(message);
    this.name = 'FulcrumInputError';
    this.prop = where.prop ?? null;
    this.owner = where.owner ?? null;
  }
}

/**
 * A step that would have written a non-finite position or velocity into a body: the simulation
 * diverged (it is not a bad argument). The step is abandoned before anything is kept; `bodyId`
 * names the first such body and `field` what went non-finite.
 */
export class FulcrumDivergenceError extends Error {
  readonly bodyId: number;
  readonly field: string;
  constructor(message: string, bodyId: number, field: string) {
    super(message);
    this.name = 'FulcrumDivergenceError';
    this.bodyId = bodyId;
    this.field = field;
  }
}

/** Renders a value for an error message: keeps NaN/Infinity visible, abbreviates objects. */
export function describeValue(value: unknown): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `[${value.map(describeValue).join(', ')}]`;
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if ('x' in v && 'y' in v) return `{x: ${describeValue(v.x)}, y: ${describeValue(v.y)}}`;
    try {
      return JSON.stringify(value);
    } catch {
      return Object.prototype.toString.call(value);
    }
  }
  return String(value);
}

export function fail(owner: string, prop: string, value: unknown, requirement: string): never {
  throw new FulcrumInputError(`${owner}.${prop} ${requirement}, got ${describeValue(value)}`, { owner, prop });
}

export function checkFinite(owner: string, prop: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value)) fail(owner, prop, value, 'must be a finite number');
  return value;
}

export function checkPositive(owner: string, prop: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
    fail(owner, prop, value, 'must be a positive finite number');
  }
  return value;
}

export function checkNonNegative(owner: string, prop: string, value: unknown): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    fail(owner, prop, value, 'must be a non-negative finite number');
  }
  return value;
}

/** A number that may be +Infinity (maxForce, maxError) but not NaN or negative. */
export function checkNonNegativeOrInfinity(owner: string, prop: string, value: unknown): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value < 0) {
    fail(owner, prop, value, 'must be a non-negative number (Infinity allowed)');
  }
  return value;
}

/** A positive number that may be +Infinity (a cap that Infinity turns off). */
export function checkPositiveOrInfinity(owner: string, prop: string, value: unknown): number {
  if (typeof value !== 'number' || Number.isNaN(value) || value <= 0) {
    fail(owner, prop, value, 'must be a positive number (Infinity allowed)');
  }
  return value;
}

export function checkBoolean(owner: string, prop: string, value: unknown): boolean {
  if (typeof value !== 'boolean') fail(owner, prop, value, 'must be a boolean');
  return value;
}

export function checkInteger(owner: string, prop: string, value: unknown, min: number, max: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > max) {
    fail(owner, prop, value, `must be an integer in [${min}, ${max}]`);
  }
  return value;
}

/** Accepts `{x, y}` or `[x, y]` with finite components; returns a fresh `{x, y}`. */
export function checkVec2(owner: string, prop: string, value: unknown): Vec2 {
  let x: unknown;
  let y: unknown;
  if (Array.isArray(value)) {
    if (value.length !== 2) fail(owner, prop, value, 'must be a vector {x, y} or [x, y]');
    x = value[0];
    y = value[1];
  } else if (value !== null && typeof value === 'object') {
    x = (value as Vec2).x;
    y = (value as Vec2).y;
  } else {
    fail(owner, prop, value, 'must be a vector {x, y} or [x, y]');
  }
  if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) {
    fail(owner, prop, value, 'must be a vector with finite components');
  }
  return { x, y };
}

export type { Vec2Like };

/**
 * Every own key of `options` is one of `keys`: a misspelt option (`gravtyScale`) is an error that
 * names it, its value and the closest option, not a setting silently left at its default.
 * `aliases` maps other engines' names for an option (Box2D's `angle`) to ours, for the hint.
 */
export function checkOptionKeys(owner: string, options: object, keys: readonly string[], within = '', aliases: Readonly<Record<string, string>> = {}): void {
  const path = (key: string): string => (within ? `${within}.${key}` : key);
  for (const k of Object.keys(options)) {
    if (keys.includes(k)) continue;
    const guess = Object.hasOwn(aliases, k) ? aliases[k]! : closest(k, keys);
    const value = describeValue((options as Record<string, unknown>)[k]);
    const hint = guess !== null ? ` (did you mean '${path(guess)}'?)` : '';
    throw new FulcrumInputError(`${owner}.${path(k)} is not an option${hint}, got ${value}; the options are ${keys.map(path).join(', ')}`, { owner, prop: path(k) });
  }
}

/**
 * The keys of an options type T, as a list checked against T when it compiles:
 * `optionKeys<BodyOptions>()(['type', 'position', …])` fails to compile while a key of T is missing
 * (the missing key is named in the error), and a key T does not have is rejected too.
 */
export function optionKeys<T>() {
  return <const K extends readonly (keyof T & string)[]>(keys: K, ..._complete: [Exclude<keyof T, K[number]>] extends [never] ? [] : [missing: Exclude<keyof T, K[number]>]): K => keys;
}
