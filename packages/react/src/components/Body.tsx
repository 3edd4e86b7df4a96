/**
 * <Body>: one rigid body. Its children are shape components, plus any three.js objects that
 * should follow the body (position.xy and rotation.z, written straight to the group every
 * frame, interpolated; React never re-renders for it). Without render children, the shapes
 * draw themselves.
 *
 * Every prop is applied in place through the engine's setters (which wake the island), and a
 * frame is requested; the ref is the engine Body.
 */
import type { Body as EngineBody } from '@fulcrum/physics';
import { DebugColors } from '@fulcrum/physics';
import { useContext, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import type { Group } from 'three';
import { BodyController } from '../core/body-controller.js';
import { BODY_OPTION_KEYS, validateBodyOptions, validateTarget, type BodyOptionProps, type BodyOptionValues, type KinematicTargetProps } from '../core/body-options.js';
import { hasRenderChildren } from '../core/children.js';
import { ShapeHostContext, ShapeLookContext, useInCanvas, useWorld, type ShapeLook } from '../core/context.js';
import { propFail } from '../core/errors.js';
import { POINTER_HANDLER_KEYS, type BodyEventHandlers, type BodyPointerHandlers } from '../core/event-router.js';
import { checkPropNames, pick, propNames, useValidated } from '../core/props.js';
import { useCommitted } from '../hooks/hooks.js';

export interface BodyProps extends BodyOptionProps, KinematicTargetProps, BodyEventHandlers, BodyPointerHandlers {
  /** Shape components, and three.js children that follow the body. */
  children?: ReactNode;
  /**
   * Whether the shapes draw themselves with the default material. Default: when the body has no
   * children other than shape components.
   */
  drawShapes?: boolean;
  /** The engine Body (null before mount and after unmount). */
  ref?: Ref<EngineBody | null>;
}

const HANDLER_KEYS = ['onSleep', 'onWake', 'onBeginContact', 'onEndContact', 'onContactForce', ...POINTER_HANDLER_KEYS] as const;
/** Every prop of <Body> (any other is an error). */
const BODY_PROPS = propNames<BodyProps>()([...BODY_OPTION_KEYS, 'target', 'targetRotation', ...HANDLER_KEYS, 'children', 'drawShapes', 'ref']);

export function Body(props: BodyProps): ReactNode {
  const { children, drawShapes, ref } = props;
  const world = useWorld('Body');
  checkPropNames('Body', props, BODY_PROPS);
  const inCanvas = useInCanvas();
  // A body's group would inherit the outer body's transform: bodies are siblings, never nested.
  if (useContext(ShapeHostContext) !== null) throw new Error('<Body> cannot be inside another <Body> or <InstancedBodies>: make it a sibling (join bodies with a joint)');
  const validated = useValidated(pick(props as BodyOptionValues, BODY_OPTION_KEYS), (p) => validateBodyOptions('Body', p as BodyOptionProps));
  for (const k of HANDLER_KEYS) checkHandler('Body', k, props[k]);
  if (drawShapes !== undefined && typeof drawShapes !== 'boolean') propFail('Body', 'drawShapes', drawShapes, 'must be a boolean');

  const { target, targetRotation } = props;
  const steering = useValidated({ target, targetRotation, type: validated.trial.type }, (p) => validateTarget('Body', p, p.type));

  const handlers = useRef<BodyEventHandlers>(props);
  useCommitted(handlers, props); // in an effect: a render React discards must not reach the solver
  const [controller] = useState(() => new BodyController(world, 'Body', handlers));
  controller.setProps(validated, steering);
  const group = useRef<Group>(null);

  useLayoutEffect(() => {
    controller.commit(group.current, ref);
  });
  useLayoutEffect(() => () => controller.release(), [controller]);

  const draw = (drawShapes ?? !hasRenderChildren(children)) ? 'mesh' : false;
  const color = typeColor(validated.trial.type);
  const look = useMemo<ShapeLook>(() => ({ draw, color }), [draw, color]);
  const content = (
    <ShapeHostContext.Provider value={controller}>
      <ShapeLookContext.Provider value={look}>{children}</ShapeLookContext.Provider>
    </ShapeHostContext.Provider>
  );
  return inCanvas ? <group ref={group}>{content}</group> : content;
}

export function typeColor(type: string): number {
  return type === 'static' ? DebugColors.static : type === 'kinematic' ? DebugColors.kinematic : DebugColors.dynamic;
}

export function checkHandler(component: string, prop: string, value: unknown): void {
  if (value !== undefined && typeof value !== 'function') propFail(component, prop, value, 'must be a function');
}
