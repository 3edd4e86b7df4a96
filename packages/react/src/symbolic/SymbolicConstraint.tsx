/**
 * <SymbolicConstraint>: a constraint written as a formula, with @fulcrum/symbolic's class.
 *
 *   import { SymbolicConstraint } from '@fulcrum/react/symbolic';
 *   <SymbolicConstraint source={rope} bodies={{ a: hook, b: crate }} scalars={{ length: 2 }} />
 *
 * `bodies` maps the source's declared body names to refs or Body objects; `scalars` and
 * `vectors` set its declared parameters. Parameters and the common constraint props are
 * updated in place, all changed ones at once (set({ scalars, vectors }), which wakes the constraint); bodies resolve
 * like any joint's. `source` (and `compile`) define the constraint itself: changing them builds
 * a new one, and the ref follows. An error names its prop through the error's `.prop` (a source
 * that does not compile is a bad `source`, an undeclared scalar a bad `scalars.name`).
 *
 * This module is the package's `./symbolic` entry, so that @fulcrum/react itself never loads
 * @fulcrum/symbolic (an optional peer dependency).
 */
import { BASE_CONSTRAINT_OPTION_KEYS, FulcrumInputError } from '@fulcrum/physics';
import { SymbolicConstraint as EngineSymbolicConstraint, SymbolicError, type SymbolicConstraintOptions } from '@fulcrum/symbolic';
import type { ReactNode, Ref } from 'react';
import { checkBodyRef, type BodyRef } from '../core/body-ref.js';
import type { BodyBinding, ConstraintSpec, OptionValues } from '../core/constraint-controller.js';
import { propFail } from '../core/errors.js';
import type { ConstraintEventHandlers } from '../core/event-router.js';
import { changedKeys, checkPropNames, pick, propNames, sameValue } from '../core/props.js';
import { CONSTRAINT_PROPS } from '../joints/constraint-props.js';
import { useConstraint } from '../joints/use-constraint.js';

/**
 * The engine's SymbolicConstraintOptions (TSDoc included) with `bodies` as refs to <Body>
 * components or Body objects, plus the events and the ref (the engine's SymbolicConstraint).
 */
export interface SymbolicConstraintProps extends Omit<SymbolicConstraintOptions, 'bodies'>, ConstraintEventHandlers {
  /** Declared body name → a ref to a <Body>, or a Body. Every declared body needs an entry. */
  bodies?: Readonly<Record<string, BodyRef>>;
  /** The engine constraint. */
  ref?: Ref<EngineSymbolicConstraint | null>;
}

const COMPONENT = 'SymbolicConstraint';
/** The options on top of the base ones, and what the component does with each. */
const IDENTITY = ['source', 'compile'] as const;
const PARAMETERS = ['scalars', 'vectors'] as const;
const OWN_OPTIONS = [...IDENTITY, ...PARAMETERS, 'bodies'] as const satisfies readonly (keyof SymbolicConstraintOptions)[];
// Every engine option is a prop: a new one in SymbolicConstraintOptions fails to compile here until handled.
const everyOptionHandled: [Exclude<keyof SymbolicConstraintOptions, (typeof OWN_OPTIONS)[number] | (typeof BASE_CONSTRAINT_OPTION_KEYS)[number]>] extends [never] ? true : never = true;
void everyOptionHandled;
/** Option carrying the declared body names given in `bodies` (the bodies resolve later). */
const BODY_NAMES = 'bodyNames';

type Named<T> = Readonly<Record<string, T>>;

/** Bodies by declared name, through setBody / getBody. */
const NAMED_BINDING: BodyBinding<EngineSymbolicConstraint> = {
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

/** The option an error from the engine or @fulcrum/symbolic is about: its `.prop` ('source', 'scalars.length'). */
function propOf(e: Error): string | null {
  return e instanceof SymbolicError || e instanceof FulcrumInputError ? e.prop : null;
}

const SPEC: ConstraintSpec<EngineSymbolicConstraint> = {
  component: COMPONENT,
  owners: [COMPONENT],
  keys: BASE_CONSTRAINT_OPTION_KEYS,
  identityKeys: IDENTITY,
  extraKeys: [...PARAMETERS, BODY_NAMES],
  create(o) {
    const { [BODY_NAMES]: names, ...options } = o;
    const given = (names as string[] | undefined) ?? [];
    // Every given name must be declared (the bodies themselves resolve later).
    const bodies = Object.fromEntries(given.map((name) => [name, null]));
    const c = new EngineSymbolicConstraint({ ...(options as unknown as SymbolicConstraintOptions), bodies });
    const missing = c.bodyNames.filter((n) => !given.includes(n));
    if (missing.length > 0) {
      throw new FulcrumInputError(`every declared body needs an entry in bodies (missing: ${missing.join(', ')})`, { owner: COMPONENT, prop: 'bodies' });
    }
    return c;
  },
  bodies: NAMED_BINDING,
  applyExtra(c, prev, next) {
    const ps = (prev.scalars ?? {}) as Named<number>;
    const ns = (next.scalars ?? {}) as Named<number>;
    const pv = (prev.vectors ?? {}) as Named<SymbolicConstraintOptions['vectors']>;
    const nv = (next.vectors ?? {}) as NonNullable<SymbolicConstraintOptions['vectors']>;
    const scalars: Record<string, number> = {};
    const vectors: NonNullable<SymbolicConstraintOptions['vectors']> = {};
    for (const name of changedKeys(Object.keys(ns), ps, ns)) scalars[name] = ns[name]!;
    for (const name of Object.keys(nv)) if (!sameValue(pv[name], nv[name])) vectors[name] = nv[name]!;
    // All at once, the limits checked once: a prop change that moves jointMin and jointMax together
    // is valid even when one of them alone would cross the other.
    if (Object.keys(scalars).length > 0 || Object.keys(vectors).length > 0) c.set({ scalars, vectors });
  },
  propOf,
};

/** A constraint written in @fulcrum/symbolic's language; the ref is the engine's SymbolicConstraint. */
/** Every prop of <SymbolicConstraint> (any other is an error). */
const SYMBOLIC_CONSTRAINT_PROPS = propNames<SymbolicConstraintProps>()([...CONSTRAINT_PROPS, ...OWN_OPTIONS]);

export function SymbolicConstraint(props: SymbolicConstraintProps): ReactNode {
  checkPropNames(COMPONENT, props, SYMBOLIC_CONSTRAINT_PROPS);
  const { source, bodies, scalars, vectors } = props;
  if (typeof source !== 'string') propFail(COMPONENT, 'source', source, 'must be a string');
  if (bodies !== undefined && (bodies === null || typeof bodies !== 'object')) propFail(COMPONENT, 'bodies', bodies, 'must be an object: declared name → Body ref');
  for (const [name, ref] of Object.entries(bodies ?? {})) checkBodyRef(COMPONENT, `bodies.${name}`, ref);
  if (scalars !== undefined && (scalars === null || typeof scalars !== 'object')) propFail(COMPONENT, 'scalars', scalars, 'must be an object: declared name → number');
  if (vectors !== undefined && (vectors === null || typeof vectors !== 'object')) propFail(COMPONENT, 'vectors', vectors, 'must be an object: declared name → vector');
  const options: OptionValues = {
    ...pick(props as unknown as OptionValues, [...BASE_CONSTRAINT_OPTION_KEYS, ...IDENTITY, ...PARAMETERS]),
    [BODY_NAMES]: Object.keys(bodies ?? {}),
  };
  useConstraint(SPEC, props, options);
  return null;
}
