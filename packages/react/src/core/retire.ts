/**
 * Retiring: what makes a ref inert after its component unmounts.
 *
 * The engine lets a removed Body or constraint live on as a detached object (that is how
 * objects are built before they join a space), so changing one after unmount would silently do
 * nothing, and a stale handle could be wired into the scene by mistake. A retired object keeps
 * its identity (events and captured references still compare equal) and its last state stays
 * readable, but every public setter and every user-facing mutating method throws a
 * FulcrumUnmountedError that says what happened. Own properties shadow the prototype's, so live
 * objects and the solver's hot paths are untouched. Methods the engine itself calls on its
 * objects (updateWorld, computeMass, constraint hooks, ...) are never shadowed.
 */
import { FulcrumUnmountedError } from './errors.js';

const retired = new WeakSet<object>();

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

export function isRetired(obj: object): boolean {
  return retired.has(obj);
}

/**
 * Make `obj` inert. `label` names it ("Body#12"), `owner` the component ("<Body>").
 * Idempotent: retiring twice does nothing.
 */
export function retire(obj: object, label: string, owner: string): void {
  if (retired.has(obj)) return;
  retired.add(obj);
  const fail = (member: string): never => {
    throw new FulcrumUnmountedError(
      `${label} belonged to a ${owner} that has unmounted: it was removed from its space and ${member} is disabled. ` +
        'Read the live object from the ref (ref.current) after the component mounts again.',
    );
  };
  for (const key of MUTATORS) {
    if (typeof (obj as Record<string, unknown>)[key] === 'function') {
      Object.defineProperty(obj, key, { configurable: true, writable: false, value: () => fail(`${key}()`) });
    }
  }
  const seen = new Set<string>();
  for (let proto = Object.getPrototypeOf(obj) as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      // `_`-prefixed members are the engine's internals: never shadowed.
      if (key.startsWith('_') || seen.has(key)) continue;
      seen.add(key);
      const d = Object.getOwnPropertyDescriptor(proto, key)!;
      if (!d.set) continue;
      const get = d.get;
      Object.defineProperty(obj, key, {
        configurable: true,
        get: get
          ? function (this: object) {
              return get.call(this);
            }
          : undefined,
        set: () => fail(`setting ${key}`),
      });
    }
  }
}
