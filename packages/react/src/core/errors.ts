/**
 * The two errors the React layer adds to the engine's `FulcrumInputError`:
 *  - `FulcrumPropError`: a component got a bad prop. Thrown during render, before anything is
 *    applied, so an error boundary can take the component out while the space keeps stepping.
 *  - `FulcrumUnmountedError`: someone used an engine object whose component has unmounted.
 */
import { FulcrumInputError } from '@fulcrum/physics';

/** Renders a prop value for a message: keeps NaN and Infinity visible, abbreviates objects. */
export function describeValue(value: unknown): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (value === null || value === undefined) return String(value);
  if (Array.isArray(value)) return `[${value.map(describeValue).join(', ')}]`;
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if ('current' in v && Object.keys(v).length === 1) return `{current: ${describeValue(v.current)}}`;
    if (typeof v.label === 'string') return v.label;
    if (typeof v.id === 'number' && v.constructor !== Object) return `${v.constructor.name}#${v.id}`;
    if ('x' in v && 'y' in v) return `{x: ${describeValue(v.x)}, y: ${describeValue(v.y)}}`;
    try {
      return JSON.stringify(value);
    } catch {
      return Object.prototype.toString.call(value);
    }
  }
  return String(value);
}

/** A component received a prop it cannot use. Names the component, the prop and the value. */
export class FulcrumPropError extends FulcrumInputError {
  readonly component: string;
  readonly prop: string;
  readonly value: unknown;
  /** What is wrong with it (the engine's message, when the engine rejected it). */
  readonly reason: string;

  constructor(component: string, prop: string, value: unknown, reason: string) {
    super(`<${component}> prop ${prop}={${describeValue(value)}} is invalid: ${reason}`);
    this.name = 'FulcrumPropError';
    this.component = component;
    this.prop = prop;
    this.value = value;
    this.reason = reason;
  }
}

/** An engine object was used after the component that owned it unmounted. */
export class FulcrumUnmountedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'FulcrumUnmountedError';
  }
}

/** Throw a FulcrumPropError for `prop`. */
export function propFail(component: string, prop: string, value: unknown, reason: string): never {
  throw new FulcrumPropError(component, prop, value, reason);
}

/**
 * Run an engine constructor on trial to validate props, and turn its `FulcrumInputError` into a
 * FulcrumPropError. The engine's messages read `Owner.prop requirement, got value`; `owners`
 * lists the owner names the trial may use, so the prop can be named (`filter.mask` → `filter`).
 */
export function validateWith<T>(component: string, props: object, owners: readonly string[], trial: () => T): T {
  try {
    return trial();
  } catch (e) {
    if (!(e instanceof FulcrumInputError)) throw e;
    const prop = propFromMessage(e.message, owners) ?? 'props';
    const value = prop in props ? (props as Record<string, unknown>)[prop] : undefined;
    throw new FulcrumPropError(component, prop, value, e.message);
  }
}

function propFromMessage(message: string, owners: readonly string[]): string | null {
  // Longest owner first, so "Polygon.box" wins over "Polygon".
  for (const owner of [...owners].sort((a, b) => b.length - a.length)) {
    if (!message.startsWith(`${owner}.`)) continue;
    const m = /^(\w+)/.exec(message.slice(owner.length + 1));
    if (m) return m[1]!;
  }
  return null;
}
