/**
 * useConstraint: what every joint and constraint component does (validate during render,
 * create once, update in place, resolve bodies, retire on unmount). See ConstraintController.
 */
import type { Constraint } from '@fulcrum/physics';
import { useInsertionEffect, useLayoutEffect, useRef, useState, type Ref } from 'react';
import { checkBodyRef } from '../core/body-ref.js';
import { ConstraintController, validateConstraint, type ConstraintSpec, type OptionValues } from '../core/constraint-controller.js';
import { useWorld } from '../core/context.js';
import { propFail } from '../core/errors.js';
import type { ConstraintEventHandlers } from '../core/event-router.js';
import { pick, useValidated } from '../core/props.js';
import { useCommitted } from '../hooks/hooks.js';

export function useConstraint<C extends Constraint>(
  spec: ConstraintSpec<C>,
  props: ConstraintEventHandlers & { ref?: Ref<C | null> },
  options: OptionValues = pick(props as OptionValues, [...spec.keys, ...(spec.identityKeys ?? []), ...(spec.extraKeys ?? [])]),
  bodyProps: readonly string[] = [],
): void {
  const world = useWorld(spec.component);
  const validated = useValidated(options, (o) => validateConstraint(spec, props, o));
  const all = props as OptionValues;
  for (const name of bodyProps) checkBodyRef(spec.component, name, all[name]);
  if (props.onBreak !== undefined && typeof props.onBreak !== 'function') propFail(spec.component, 'onBreak', props.onBreak, 'must be a function');
  const handlers = useRef<ConstraintEventHandlers>(props);
  useCommitted(handlers, props); // in an effect: a render React discards must not reach the solver
  const [controller] = useState(() => new ConstraintController(world, spec, handlers));
  // Also in an effect: a discarded render's props (a body2 of a transition that never committed)
  // must not rewire the joint when something else mounts.
  useInsertionEffect(() => controller.setProps(validated, all));
  useLayoutEffect(() => {
    controller.commit(props.ref);
  });
  useLayoutEffect(() => () => controller.release(), [controller]);
}
