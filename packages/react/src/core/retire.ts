/**
 * Retiring: what makes a ref inert after its component unmounts.
 *
 * The engine lets a removed Body or constraint live on as a detached object (that is how
 * objects are built before they join a space), so changing one after unmount would silently do
 * nothing, and a stale handle could be wired into the scene by mistake. A retired object keeps
 * its identity (events and captured references still compare equal) and its last state stays
 * readable, but every public setter and every user-facing mutating method throws a
 * FulcrumUnmountedError that says what happened. Methods the engine itself calls on its objects
 * (updateWorld, computeMass, constraint hooks, ...) are never shadowed.
 *
 * How: once per class, a "retired" prototype is built that inherits from the class's prototype
 * and overrides its public setters (the getters are kept) and its user-facing mutators with
 * throwing versions. Retiring an object stores its label and owner in one symbol-keyed own
 * property and swaps its prototype for the retired one; `instanceof`, `constructor` and every
 * read are inherited unchanged. Live objects, their prototypes and the solver's hot paths are
 * untouched: only the retired object's own hidden class changes. Retiring costs 1–3 µs and adds
 * about 0.1 kB to the object (shadowing every guarded member on the object itself, as this used
 * to do, cost 25–50 µs and 6–10 kB). The engine's objects keep their public setters and mutators
 * on their prototypes; should an object have one of those names as an own property, that one is
 * shadowed on the object itself, as before.
 */
import { FulcrumUnmountedError } from './errors.js';

/** The mutating methods of Body, Shape and the constraints that a user calls. */
const MUTATORS = [
  'applyImpulse',
  'applyAngularImpulse',
  'addShape',
  'removeShape',
  'useShapeMass',
  'invalidate',
  'setPoints',
  'registerBody',
  'bindVec2',
  'setBody',
  'setScalar',
  'setVector',
  'clearCache',
] as const;

/** What a retired object was: stored on it under RETIRED (non-enumerable, read-only). */
interface Retirement {
  readonly label: string;
  readonly owner: string;
}

const RETIRED = Symbol('fulcrum.retired');

/** A class's retired prototype, and what it guards. */
interface RetiredClass {
  readonly proto: object;
  /** The setters it overrides, each with the getter it keeps (undefined: write-only). */
  readonly setters: ReadonlyMap<string, (() => unknown) | undefined>;
  /**
   * The guarded names, to look for on each object: an own property would shadow the retired
   * prototype (`kinds[i]`: 0, a setter; 1, a mutator; 2, a mutator an inherited getter provides,
   * which the prototype cannot override).
   */
  readonly keys: readonly string[];
  readonly kinds: readonly number[];
}

/** Retired prototypes by original prototype. */
const classes = new WeakMap<object, RetiredClass>();
/** Stands for a null prototype in `classes`. */
const NULL_PROTO = {};

function unmounted(self: unknown, member: string): FulcrumUnmountedError {
  const r = typeof self === 'object' && self !== null ? (self as { [RETIRED]?: Retirement })[RETIRED] : undefined;
  const advice = 'Read the live object from the ref (ref.current) after the component mounts again.';
  if (r === undefined) {
    // Only reachable by calling a retired object's method detached from it (no `this`).
    return new FulcrumUnmountedError(`${member} of an engine object whose component has unmounted was called without the object: it is disabled. ${advice}`);
  }
  return new FulcrumUnmountedError(`${r.label} belonged to a ${r.owner} that has unmounted: it was removed from its space and ${member} is disabled. ${advice}`);
}

/** The throwing stand-ins, one per member name, shared by every class. */
const methodThrowers = new Map<string, () => never>();
const setterThrowers = new Map<string, () => never>();

/** Descriptor of `key()`'s stand-in: the shape the per-object version had (not writable, not enumerable). */
function methodDescriptor(key: string): PropertyDescriptor {
  let value = methodThrowers.get(key);
  if (value === undefined) {
    const member = `${key}()`;
    value = {
      value(this: unknown): never {
        throw unmounted(this, member);
      },
    }.value;
    methodThrowers.set(key, value);
  }
  return { configurable: true, writable: false, value };
}

/** Descriptor of the accessor that keeps `get` and throws on setting `key`. */
function accessorDescriptor(key: string, get: (() => unknown) | undefined): PropertyDescriptor {
  let set = setterThrowers.get(key);
  if (set === undefined) {
    const member = `setting ${key}`;
    set = {
      set(this: unknown): never {
        throw unmounted(this, member);
      },
    }.set;
    setterThrowers.set(key, set);
  }
  return { configurable: true, get, set };
}

/** The nearest descriptor of `key` on `proto`'s chain, stopping before Object.prototype. */
function inherited(proto: object | null, key: string): PropertyDescriptor | undefined {
  for (let p = proto; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    const d = Object.getOwnPropertyDescriptor(p, key);
    if (d) return d;
  }
  return undefined;
}

function retiredClass(original: object | null): RetiredClass {
  const key0 = original ?? NULL_PROTO;
  const cached = classes.get(key0);
  if (cached) return cached;
  // Every public setter on the chain (nearest definition wins; `_`-prefixed members are the
  // engine's internals and are never shadowed).
  const setters = new Map<string, (() => unknown) | undefined>();
  const seen = new Set<string>();
  for (let p = original; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const key of Object.getOwnPropertyNames(p)) {
      if (key.startsWith('_') || seen.has(key)) continue;
      seen.add(key);
      const d = Object.getOwnPropertyDescriptor(p, key)!;
      if (d.set) setters.set(key, d.get as (() => unknown) | undefined);
    }
  }
  // The mutators it has as methods; a setter of the same name wins (it is shadowed as a setter).
  const methods = new Set<string>();
  const dynamic: string[] = [];
  for (const key of MUTATORS) {
    if (setters.has(key)) continue;
    const d = inherited(original, key);
    if (d === undefined) continue;
    if ('value' in d) {
      if (typeof d.value === 'function') methods.add(key);
    } else {
      dynamic.push(key);
    }
  }
  const proto = Object.create(original) as object;
  for (const key of methods) Object.defineProperty(proto, key, methodDescriptor(key));
  for (const [key, get] of setters) Object.defineProperty(proto, key, accessorDescriptor(key, get));
  // Mutators first: a setter of the same name is defined after them, as it wins.
  const keys: string[] = [];
  const kinds: number[] = [];
  for (const key of MUTATORS) {
    if (setters.has(key)) continue;
    keys.push(key);
    kinds.push(dynamic.includes(key) ? 2 : 1);
  }
  for (const key of setters.keys()) {
    keys.push(key);
    kinds.push(0);
  }
  const rc: RetiredClass = { proto, setters, keys, kinds };
  classes.set(key0, rc);
  return rc;
}

const hasOwn = Object.prototype.hasOwnProperty;

export function isRetired(obj: object): boolean {
  return hasOwn.call(obj, RETIRED);
}

/**
 * Make `obj` inert. `label` names it ("Body#12"), `owner` the component ("<Body>").
 * Idempotent: retiring twice does nothing.
 */
export function retire(obj: object, label: string, owner: string): void {
  if (isRetired(obj)) return;
  const rc = retiredClass(Object.getPrototypeOf(obj) as object | null);
  const retirement: Retirement = { label, owner };
  Object.defineProperty(obj, RETIRED, { value: retirement });
  Object.setPrototypeOf(obj, rc.proto);
  // Own properties shadow the retired prototype: a guarded name found on the object itself is
  // guarded there, as before (the engine's objects have none; the tests check that).
  const { keys, kinds } = rc;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const kind = kinds[i]!;
    if (kind !== 2 && !hasOwn.call(obj, key)) continue;
    if (kind === 0) Object.defineProperty(obj, key, accessorDescriptor(key, rc.setters.get(key)));
    else if (typeof (obj as Record<string, unknown>)[key] === 'function') Object.defineProperty(obj, key, methodDescriptor(key));
  }
}
