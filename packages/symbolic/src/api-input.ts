/**
 * What the JavaScript API is given, checked: a name must be declared and of the right kind, a
 * value valid, a record an object. Misuse throws @fulcrum/physics' FulcrumInputError naming the
 * call, the name and the value, with `.prop` the option the name belongs in and the name
 * ('scalars.phse'), like the engine's own errors.
 */
import { FulcrumInputError, type Body, type Vec2 } from '@fulcrum/physics';

export const OWNER = 'SymbolicConstraint';
/** Where each method's names live: the option (and the React prop) an error about a name is put on. */
export const COLLECTION: Record<string, 'bodies' | 'scalars' | 'vectors'> = {
  setBody: 'bodies',
  getBody: 'bodies',
  'options.bodies': 'bodies',
  setScalar: 'scalars',
  getScalar: 'scalars',
  'options.scalars': 'scalars',
  setVector: 'vectors',
  getVector: 'vectors',
  'options.vectors': 'vectors',
  setScalars: 'scalars',
  setVectors: 'vectors',
  'set.scalars': 'scalars',
  'set.vectors': 'vectors',
};

/** `values` must be an object keyed by declared names (options.scalars, setScalars(…), set({ vectors })). */
export function checkRecord(method: string, what: 'bodies' | 'scalars' | 'vectors', values: unknown): void {
  if (values !== null && typeof values === 'object' && !Array.isArray(values)) return;
  const where = { owner: OWNER, prop: what };
  if (method === 'options') throw new FulcrumInputError(`SymbolicConstraint options.${what} must be an object keyed by declared names, got ${describe(values)}`, where);
  const call = method === 'set' ? `set({${what}: ${describe(values)}})` : `${method}(${describe(values)})`;
  throw new FulcrumInputError(`SymbolicConstraint.${call}: the ${method === 'set' ? `${what}` : 'argument'} must be an object keyed by declared ${what === 'scalars' ? 'scalar' : 'vector'} names`, where);
}

/** Body-like (duck-typed, as UserConstraint does, so a second copy of the engine still counts). */
export function isBody(v: unknown): v is Body {
  return typeof v === 'object' && v !== null && typeof (v as Body).applyImpulse === 'function';
}

export function toVec2(v: unknown): Vec2 | null {
  let x: unknown;
  let y: unknown;
  if (Array.isArray(v)) {
    if (v.length !== 2) return null;
    [x, y] = v;
  } else if (v !== null && typeof v === 'object') {
    x = (v as Vec2).x;
    y = (v as Vec2).y;
  } else return null;
  if (typeof x !== 'number' || typeof y !== 'number' || !Number.isFinite(x) || !Number.isFinite(y)) return null;
  return { x, y };
}

/**
 * "SymbolicConstraint.setScalar("phse", 1): …" or, for the options form,
 * "SymbolicConstraint options.scalars.phse = 1: …": names the method, the name and the value.
 * `.prop` is the option the name belongs in and the name: 'scalars.phse' (or 'scalars' for a
 * name that is not a string).
 */
export function apiFail(method: string, name: unknown, value: unknown, reason: string): never {
  if (method === 'set') throw new FulcrumInputError(`SymbolicConstraint.set(${describe(value)}): ${reason}`, { owner: OWNER, prop: 'set' });
  const collection = COLLECTION[method]!;
  const where = { owner: OWNER, prop: typeof name === 'string' ? `${collection}.${name}` : collection };
  const key = typeof name === 'string' && /^[A-Za-z_]\w*$/.test(name) ? name : describe(name);
  if (method === 'setScalars' || method === 'setVectors') throw new FulcrumInputError(`SymbolicConstraint.${method}({${key}: ${describe(value)}}): ${reason}`, where);
  if (method.startsWith('set.')) throw new FulcrumInputError(`SymbolicConstraint.set({${collection}: {${key}: ${describe(value)}}}): ${reason}`, where);
  if (method.startsWith('options.')) {
    const key = typeof name === 'string' && /^[A-Za-z_]\w*$/.test(name) ? `.${name}` : `[${describe(name)}]`;
    throw new FulcrumInputError(`SymbolicConstraint ${method}${key} = ${describe(value)}: ${reason}`, where);
  }
  const args = value === undefined ? describe(name) : `${describe(name)}, ${describe(value)}`;
  throw new FulcrumInputError(`SymbolicConstraint.${method}(${args}): ${reason}`, where);
}

export function describe(v: unknown): string {
  if (typeof v === 'number') return Object.is(v, -0) ? '-0' : String(v);
  if (typeof v === 'string') return JSON.stringify(v);
  if (v === null || v === undefined) return String(v);
  if (Array.isArray(v)) return `[${v.map(describe).join(', ')}]`;
  if (typeof v === 'object') {
    const o = v as Record<string, unknown>;
    if (typeof o.applyImpulse === 'function' && typeof o.id === 'number') return `Body#${o.id}`;
    if ('x' in o && 'y' in o) return `{x: ${describe(o.x)}, y: ${describe(o.y)}}`;
    try {
      return JSON.stringify(v);
    } catch {
      return Object.prototype.toString.call(v);
    }
  }
  return String(v);
}
