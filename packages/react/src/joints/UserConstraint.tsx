/**
 * <UserConstraint>: the engine's UserConstraint in object form. `hooks` takes Nape's hooks
 * (position, velocity, effMass, impulse, clamp, prepare, validate, broken, draw), or `jacobian`
 * (with position), or `position` alone, as the engine does.
 *
 * The hooks are read through a ref: a new `hooks` object on every render (inline functions)
 * neither recreates the constraint nor touches the engine; the engine holds stable delegates
 * that call the latest functions. Only adding or removing a hook installs new delegates (the
 * engine then re-derives which form the constraint uses). `dimensions` and `velocityOnly` are
 * fixed at construction in the engine: changing one builds a new constraint (the ref follows).
 */
import { BASE_CONSTRAINT_OPTION_KEYS, UserConstraint as EngineUserConstraint } from '@fulcrum/physics';
import type { Body, UserConstraintHooks } from '@fulcrum/physics';
import { useMemo, useRef, type ReactNode } from 'react';
import { checkBodyRef, type BodyRef } from '../core/body-ref.js';
import type { BodyBinding, ConstraintSpec, OptionValues } from '../core/constraint-controller.js';
import { propFail } from '../core/errors.js';
import { checkPropNames, pick, propNames } from '../core/props.js';
import { useCommitted } from '../hooks/hooks.js';
import { CONSTRAINT_PROPS } from './constraint-props.js';
import type { CommonConstraintProps } from './joints.js';
import { useConstraint } from './use-constraint.js';

export interface UserConstraintProps extends CommonConstraintProps<EngineUserConstraint> {
  /** Number of rows (1 to 64). Fixed per engine object. */
  dimensions: number;
  /** A velocity-only constraint (a motor). Fixed per engine object. */
  velocityOnly?: boolean;
  /** The bodies, in the order the hooks' Jacobian columns use: refs or Body objects. */
  bodies?: readonly BodyRef[];
  /**
   * The constraint as functions (UserConstraint's hooks: position for C(x), jacobian or
   * velocity, effMass and impulse as needed); the latest ones are called, committed renders only.
   */
  hooks?: UserConstraintHooks;
}

type AnyHook = (this: EngineUserConstraint, a?: unknown, b?: unknown, c?: unknown, d?: unknown) => unknown;

/** Bodies as a list (the engine's `bodyList`). */
export const LIST_BINDING: BodyBinding<EngineUserConstraint> = {
  refs: (props) => [...((props.bodies as BodyRef[] | undefined) ?? [])],
  assign(c, bodies) {
    const cur = c.bodyList;
    if (cur.length === bodies.length && cur.every((b, i) => b === bodies[i])) return false;
    c.bodyList = bodies.slice() as (Body | null)[];
    return true;
  },
};

export const USER_CONSTRAINT_SPEC: ConstraintSpec<EngineUserConstraint> = {
  component: 'UserConstraint',
  owners: ['UserConstraint'],
  keys: [...BASE_CONSTRAINT_OPTION_KEYS, 'hooks'],
  identityKeys: ['dimensions', 'velocityOnly'],
  create: (o) => new EngineUserConstraint(o as never),
  bodies: LIST_BINDING,
};

/**
 * Delegates for the hooks present in `hooks` (a stable object while the set of hook names stays
 * the same). Anything that is not a function is passed through, so the engine rejects it.
 */
export function useHookDelegates(hooks: UserConstraintHooks | undefined, component: string): UserConstraintHooks | undefined {
  if (hooks !== undefined && (hooks === null || typeof hooks !== 'object')) propFail(component, 'hooks', hooks, 'must be an object of hook functions');
  // The delegates call the committed hooks: a render React discards never reaches the solver.
  const latest = useRef(hooks);
  useCommitted(latest, hooks);
  const signature = hooks === undefined ? null : Object.keys(hooks).map((k) => `${k}:${typeof (hooks as Record<string, unknown>)[k]}`).sort().join(',');
  return useMemo(() => {
    if (signature === null || hooks === undefined) return undefined;
    const out: Record<string, unknown> = {};
    for (const [name, fn] of Object.entries(hooks)) {
      if (typeof fn !== 'function') {
        if (fn !== undefined) out[name] = fn;
        continue;
      }
      // Fixed arity: a rest parameter would allocate on every call inside the solver.
      out[name] = function delegate(this: EngineUserConstraint, a?: unknown, b?: unknown, c?: unknown, d?: unknown): unknown {
        return ((latest.current as Record<string, AnyHook>)[name] as AnyHook).call(this, a, b, c, d);
      };
    }
    return out as UserConstraintHooks;
    // The delegates read `latest` when called, so they only change with the set of hooks.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [signature]);
}

/** Every prop of <UserConstraint> (any other is an error). */
const USER_CONSTRAINT_PROPS = propNames<UserConstraintProps>()([...CONSTRAINT_PROPS, 'dimensions', 'velocityOnly', 'bodies', 'hooks']);

export function UserConstraint(props: UserConstraintProps): ReactNode {
  checkPropNames('UserConstraint', props, USER_CONSTRAINT_PROPS);
  const { bodies } = props;
  if (bodies !== undefined && !Array.isArray(bodies)) propFail('UserConstraint', 'bodies', bodies, 'must be an array of Body refs or Body objects');
  bodies?.forEach((b, i) => checkBodyRef('UserConstraint', `bodies[${i}]`, b));
  const hooks = useHookDelegates(props.hooks, 'UserConstraint');
  const options: OptionValues = { ...pick(props as unknown as OptionValues, [...BASE_CONSTRAINT_OPTION_KEYS, 'dimensions', 'velocityOnly']), ...(hooks ? { hooks } : {}) };
  useConstraint(USER_CONSTRAINT_SPEC, props, options);
  return null;
}
