/**
 * <SymbolicConstraint>: a constraint written as a formula, from @fulcrum/symbolic.
 *
 *   <SymbolicConstraint source={rope} bodies={{ a: hook, b: crate }} scalars={{ length: 2 }} />
 *
 * `bodies` maps the source's declared body names to refs or Body objects; `scalars` and
 * `vectors` set its declared parameters. Parameters and the common constraint props are
 * updated in place (setScalar, setVector and the setters wake the constraint); bodies resolve
 * like any joint's. `source` (and `compile`) define the constraint itself: changing them builds
 * a new one, and the ref follows. A source that does not compile is a bad `source` prop.
 *
 * The class comes from @fulcrum/symbolic and is looked up when the constraint is built, so this
 * package also builds against a @fulcrum/symbolic that does not provide it yet.
 */
import { FulcrumInputError } from '@fulcrum/physics';
import type { Body, Constraint, Vec2Like } from '@fulcrum/physics';
import * as symbolic from '@fulcrum/symbolic';
import type { ReactNode } from 'react';
import { checkBodyRef, type BodyRef } from '../core/body-ref.js';
import type { BodyBinding, ConstraintSpec, OptionValues } from '../core/constraint-controller.js';
import { propFail } from '../core/errors.js';
import { changedKeys, pick, sameValue } from '../core/props.js';
import { COMMON_CONSTRAINT_KEYS, type CommonConstraintProps } from './joints.js';
import { useConstraint } from './use-constraint.js';

/** The part of @fulcrum/symbolic's SymbolicConstraint this component uses. */
export interface SymbolicConstraintLike extends Constraint {
  readonly source: string;
  /** Declared body names (when the class reports them, a missing body is a prop error). */
  readonly bodyNames?: readonly string[];
  setBody(name: string, body: Body | null): unknown;
  getBody(name: string): Body | null;
  setScalar(name: string, value: number): unknown;
  getScalar(name: string): number;
  setVector(name: string, value: Vec2Like): unknown;
  getVector(name: string): { x: number; y: number };
}

export type SymbolicConstraintClass = new (options: {
  source: string;
  compile?: string;
  scalars?: Record<string, number>;
  vectors?: Record<string, Vec2Like>;
  [option: string]: unknown;
}) => SymbolicConstraintLike;

export interface SymbolicConstraintProps extends CommonConstraintProps<SymbolicConstraintLike> {
  /** The constraint in @fulcrum/symbolic's language. */
  source: string;
  /** Declared body name → a ref to a <Body>, or a Body. */
  bodies?: Readonly<Record<string, BodyRef>>;
  /** Declared scalar name → value. */
  scalars?: Readonly<Record<string, number>>;
  /** Declared vector name → value. */
  vectors?: Readonly<Record<string, Vec2Like>>;
  /** How the kernels run: "auto" (default), "function" or "interpreter". */
  compile?: 'auto' | 'function' | 'interpreter';
}

const COMPONENT = 'SymbolicConstraint';
/** Option carrying the declared body names given in `bodies` (checked on the trial, not passed on). */
const BODY_NAMES = 'bodyNames';

type Named<T> = Readonly<Record<string, T>>;

/** Bodies by declared name, through setBody / getBody. */
const NAMED_BINDING: BodyBinding<SymbolicConstraintLike> = {
  refs: (props) => Object.values((props.bodies as Named<BodyRef> | undefined) ?? {}),
  assign(c, bodies, props) {
    const names = Object.keys((props.bodies as Named<BodyRef> | undefined) ?? {});
    let changed = false;
    names.forEach((name, i) => {
      const b = bodies[i] ?? null;
      if (c.getBody(name) === b) return;
      c.setBody(name, b);
      changed = true;
    });
    return changed;
  },
};

/** Which prop an error from the symbolic package is about. */
function propOf(e: Error): string | null {
  if (!(e instanceof FulcrumInputError)) return e.name.startsWith('Symbolic') ? 'source' : null;
  const m = /^SymbolicConstraint\.(setBody|setScalar|setVector)\(/.exec(e.message);
  if (m) return { setBody: 'bodies', setScalar: 'scalars', setVector: 'vectors' }[m[1] as 'setBody'];
  const o = /^SymbolicConstraint(?: options: unknown option '|\.| options\.)(\w+)/.exec(e.message);
  return o ? o[1]! : null;
}

function makeSpec(getClass: () => SymbolicConstraintClass | undefined): ConstraintSpec<SymbolicConstraintLike> {
  return {
    component: COMPONENT,
    owners: [COMPONENT],
    keys: COMMON_CONSTRAINT_KEYS,
    identityKeys: ['source', 'compile'],
    extraKeys: ['scalars', 'vectors', BODY_NAMES],
    create(o) {
      const Class = getClass();
      if (!Class) throw new Error(`<${COMPONENT}> needs SymbolicConstraint from @fulcrum/symbolic, which the installed @fulcrum/symbolic does not export`);
      const { [BODY_NAMES]: names, ...options } = o;
      const c = new Class(options as never);
      const given = (names as string[] | undefined) ?? [];
      for (const name of given) c.setBody(name, null); // throws for a name the source does not declare
      const missing = c.bodyNames?.filter((n) => !given.includes(n)) ?? [];
      if (missing.length > 0) {
        throw new FulcrumInputError(`SymbolicConstraint.setBody(${JSON.stringify(missing[0])}): every declared body needs an entry in bodies (missing: ${missing.join(', ')})`);
      }
      return c;
    },
    bodies: NAMED_BINDING,
    applyExtra(c, prev, next) {
      const ps = (prev.scalars ?? {}) as Named<number>;
      const ns = (next.scalars ?? {}) as Named<number>;
      for (const name of changedKeys(Object.keys(ns), ps, ns)) c.setScalar(name, ns[name]!);
      const pv = (prev.vectors ?? {}) as Named<Vec2Like>;
      const nv = (next.vectors ?? {}) as Named<Vec2Like>;
      for (const name of Object.keys(nv)) if (!sameValue(pv[name], nv[name])) c.setVector(name, nv[name]!);
    },
    propOf,
  };
}

/** Build the component around a SymbolicConstraint class (the real one, or a stand-in in tests). */
export function createSymbolicConstraintComponent(getClass: () => SymbolicConstraintClass | undefined): (props: SymbolicConstraintProps) => ReactNode {
  const spec = makeSpec(getClass);
  return function SymbolicConstraint(props: SymbolicConstraintProps): ReactNode {
    const { source, bodies, scalars, vectors } = props;
    if (typeof source !== 'string') propFail(COMPONENT, 'source', source, 'must be a string');
    if (bodies !== undefined && (bodies === null || typeof bodies !== 'object')) propFail(COMPONENT, 'bodies', bodies, 'must be an object: declared name → Body ref');
    for (const [name, ref] of Object.entries(bodies ?? {})) checkBodyRef(COMPONENT, `bodies.${name}`, ref);
    if (scalars !== undefined && (scalars === null || typeof scalars !== 'object')) propFail(COMPONENT, 'scalars', scalars, 'must be an object: declared name → number');
    if (vectors !== undefined && (vectors === null || typeof vectors !== 'object')) propFail(COMPONENT, 'vectors', vectors, 'must be an object: declared name → vector');
    const options: OptionValues = {
      ...pick(props as unknown as OptionValues, [...COMMON_CONSTRAINT_KEYS, 'source', 'compile', 'scalars', 'vectors']),
      [BODY_NAMES]: Object.keys(bodies ?? {}),
    };
    useConstraint(spec, props, options);
    return null;
  };
}

/** The component, with @fulcrum/symbolic's class. */
export const SymbolicConstraint = createSymbolicConstraintComponent(() => (symbolic as Record<string, unknown>).SymbolicConstraint as SymbolicConstraintClass | undefined);
