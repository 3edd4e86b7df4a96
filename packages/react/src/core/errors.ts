/**
 * The two errors the React layer adds to the engine's `FulcrumInputError`:
 *  - `FulcrumPropError`: a component got a bad prop. Thrown during render, before anything is
 *    applied, so an error boundary can take the component out while the space keeps stepping.
 *  - `FulcrumUnmountedError`: someone used an engine object whose component has unmounted.
 */
import { FulcrumInputError } from '@fulcrum/physics';

/** Renders a prop value for a message: keeps NaN and Infinity visible, abbreviates objects. */
export function describeValue(value: unknown, depth = 0): string {
  if (typeof value === 'number') return Object.is(value, -0) ? '-0' : String(value);
  if (typeof value === 'string') return JSON.stringify(value);
  if (typeof value === 'function') return 'a function';
  if (value === null || value === undefined) return String(value);
  if (depth > 2) return '…';
  if (Array.isArray(value)) return `[${value.map((x) => describeValue(x, depth + 1)).join(', ')}]`;
  if (typeof value === 'object') {
    const v = value as Record<string, unknown>;
    if ('current' in v && Object.keys(v).length === 1) return `{current: ${describeValue(v.current, depth + 1)}}`;
    if (typeof v.label === 'string') return v.label;
    if (typeof v.id === 'number' && v.constructor !== Object) return `${v.constructor.name}#${v.id}`;
    if ('x' in v && 'y' in v) return `{x: ${describeValue(v.x, depth + 1)}, y: ${describeValue(v.y, depth + 1)}}`;
    const proto = Object.getPrototypeOf(v);
    if (proto !== Object.prototype && proto !== null) return Object.prototype.toString.call(value);
    return `{${Object.entries(v)
      .map(([k, x]) => `${k}: ${describeValue(x, depth + 1)}`)
      .join(', ')}}`;
  }
  return String(value);
}

/** A component received a prop it cannot use. Names the component, the prop and the value. */
export class FulcrumPropError extends FulcrumInputError {
  readonly component: string;
  override readonly prop: string;
  readonly value: unknown;
  /** What is wrong with it (the engine's message, when the engine rejected it). */
  readonly reason: string;

  constructor(component: string, prop: string, value: unknown, reason: string) {
    super(`<${component}> prop ${prop}={${describeValue(value)}} is invalid: ${reason}`, { owner: component, prop });
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
 * `propOf` names the prop of errors the engine's format does not cover (null: rethrow as is).
 */
export function validateWith<T>(component: string, props: object, owners: readonly string[], trial: () => T, propOf?: (e: Error) => string | null): T {
  try {
    return trial();
  } catch (e) {
    if (!(e instanceof Error) || e instanceof FulcrumPropError) throw e;
    const prop = propOf?.(e) ?? (e instanceof FulcrumInputError ? (propFromMessage(e.message, owners) ?? 'props') : null);
    if (prop === null) throw e;
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
