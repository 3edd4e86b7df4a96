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

  /** `cause`: the engine's (or @fulcrum/symbolic's) error, when it rejected the prop (a SymbolicError carries the line and column). */
  constructor(component: string, prop: string, value: unknown, reason: string, cause?: Error) {
    super(`<${component}> prop ${prop}={${describeValue(value)}} is invalid: ${reason}`, { owner: component, prop });
    this.name = 'FulcrumPropError';
    if (cause !== undefined) this.cause = cause;
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
 * FulcrumPropError. The engine's error names its owner and property (`.owner`, `.prop`); when the
 * owner is one of `owners` (the names the trial may use), the prop is the property's first part
 * (`filter.mask` → `filter`). `propOf` names the prop of other errors, or of these in its own way
 * (a dotted path such as `scalars.length` is kept; the value is looked up along it); null from it
 * falls back to the above, and an error that is not a FulcrumInputError is rethrown as is.
 */
export function validateWith<T>(component: string, props: object, owners: readonly string[], trial: () => T, propOf?: (e: Error) => string | null): T {
  try {
    return trial();
  } catch (e) {
    if (!(e instanceof Error) || e instanceof FulcrumPropError) throw e;
    const prop = propOf?.(e) ?? (e instanceof FulcrumInputError ? engineProp(e, owners) : null);
    if (prop === null) throw e;
    throw new FulcrumPropError(component, prop, valueAt(props, prop), e.message, e);
  }
}

/** The prop an engine error is about: the first part of its `.prop`, when one of `owners` raised it; else 'props'. */
function engineProp(e: FulcrumInputError, owners: readonly string[]): string {
  if (e.prop === null || e.owner === null || !owners.includes(e.owner)) return 'props';
  return /^\w+/.exec(e.prop)?.[0] ?? 'props';
}

/** The value at a dotted prop path (`bodies.a`), or undefined. */
function valueAt(props: object, path: string): unknown {
  let v: unknown = props;
  for (const key of path.split('.')) {
    if (v === null || typeof v !== 'object' || !(key in v)) return undefined;
    v = (v as Record<string, unknown>)[key];
  }
  return v;
}
