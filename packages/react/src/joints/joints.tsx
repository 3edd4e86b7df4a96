/**
 * The seven joint components. Each maps its props one to one onto the engine joint's options
 * and properties; all are mutable in place (see ConstraintController). Bodies may be refs to
 * <Body> components or Body objects. The ref is the engine joint.
 */
import { AngleJoint as EngineAngleJoint, DistanceJoint as EngineDistanceJoint, LineJoint as EngineLineJoint, MotorJoint as EngineMotorJoint, PivotJoint as EnginePivotJoint, PulleyJoint as EnginePulleyJoint, WeldJoint as EngineWeldJoint } from '@fulcrum/physics';
import type { Constraint, ConstraintOptions, Vec2Like } from '@fulcrum/physics';
import type { ReactNode, Ref } from 'react';
import type { BodyRef } from '../core/body-ref.js';
import { slotBinding, type ConstraintSpec, type OptionValues } from '../core/constraint-controller.js';
import type { ConstraintEventHandlers } from '../core/event-router.js';
import { ANGLE_LIMITS, DISTANCE_LIMITS, LINE_LIMITS, type LimitDrawer } from '../debug/limits.js';
import { useConstraint } from './use-constraint.js';

/**
 * Props every constraint component takes: the engine's own ConstraintOptions (Nape's constraint
 * properties: active, stiff, frequency, damping, maxForce, maxError, breakUnderForce,
 * breakUnderError, removeOnBreak, ignore, userData), the events, and the ref.
 */
export interface CommonConstraintProps<C extends Constraint> extends ConstraintOptions, ConstraintEventHandlers {
  /** The engine constraint. */
  ref?: Ref<C | null>;
}

export interface TwoBodyProps {
  body1?: BodyRef;
  body2?: BodyRef;
}

export interface AnchorProps {
  /** On body1, body-local. Default [0, 0]. */
  anchor1?: Vec2Like;
  /** On body2, body-local. Default [0, 0]. */
  anchor2?: Vec2Like;
}

export interface LimitProps {
  jointMin?: number;
  jointMax?: number;
}

export const COMMON_CONSTRAINT_KEYS = ['active', 'stiff', 'frequency', 'damping', 'maxForce', 'maxError', 'breakUnderForce', 'breakUnderError', 'removeOnBreak', 'ignore', 'userData'] as const satisfies readonly (keyof ConstraintOptions)[];
// The list must name every engine option: a new one in ConstraintOptions fails to compile here until added.
const everyConstraintOptionListed: [Exclude<keyof ConstraintOptions, (typeof COMMON_CONSTRAINT_KEYS)[number]>] extends [never] ? true : never = true;
void everyConstraintOptionListed;

const TWO = ['body1', 'body2'] as const;

function jointSpec<C extends Constraint>(component: string, own: readonly string[], create: (o: OptionValues) => C, extra: { bodies?: readonly string[]; limits?: LimitDrawer } = {}): ConstraintSpec<C> {
  return { component, owners: [component], keys: [...own, ...COMMON_CONSTRAINT_KEYS], create, bodies: slotBinding<C>(extra.bodies ?? TWO), limits: extra.limits };
}

export const PIVOT_SPEC = jointSpec('PivotJoint', ['anchor1', 'anchor2'], (o) => new EnginePivotJoint(o));
export const WELD_SPEC = jointSpec('WeldJoint', ['anchor1', 'anchor2', 'phase'], (o) => new EngineWeldJoint(o));
export const ANGLE_SPEC = jointSpec('AngleJoint', ['jointMin', 'jointMax', 'ratio'], (o) => new EngineAngleJoint(o), { limits: ANGLE_LIMITS });
export const DISTANCE_SPEC = jointSpec('DistanceJoint', ['anchor1', 'anchor2', 'jointMin', 'jointMax'], (o) => new EngineDistanceJoint(o), { limits: DISTANCE_LIMITS });
export const LINE_SPEC = jointSpec('LineJoint', ['anchor1', 'anchor2', 'direction', 'jointMin', 'jointMax'], (o) => new EngineLineJoint(o), { limits: LINE_LIMITS });
export const MOTOR_SPEC = jointSpec('MotorJoint', ['rate', 'ratio'], (o) => new EngineMotorJoint(o));
export const PULLEY_BODIES = ['body1', 'body2', 'body3', 'body4'] as const;
export const PULLEY_SPEC = jointSpec('PulleyJoint', ['anchor1', 'anchor2', 'anchor3', 'anchor4', 'jointMin', 'jointMax', 'ratio'], (o) => new EnginePulleyJoint(o), { bodies: PULLEY_BODIES });

export type PivotJointProps = CommonConstraintProps<EnginePivotJoint> & TwoBodyProps & AnchorProps;
export interface WeldJointProps extends CommonConstraintProps<EngineWeldJoint>, TwoBodyProps, AnchorProps {
  /** Target relative angle θ2 − θ1 (default 0). */
  phase?: number;
}
export interface AngleJointProps extends CommonConstraintProps<EngineAngleJoint>, TwoBodyProps, LimitProps {
  /** Limits apply to ratio·θ2 − θ1 (default 1). */
  ratio?: number;
}
export type DistanceJointProps = CommonConstraintProps<EngineDistanceJoint> & TwoBodyProps & AnchorProps & LimitProps;
export interface LineJointProps extends CommonConstraintProps<EngineLineJoint>, TwoBodyProps, AnchorProps, LimitProps {
  /** The line's direction in body1's frame (default [1, 0]). */
  direction?: Vec2Like;
}
export interface MotorJointProps extends CommonConstraintProps<EngineMotorJoint>, TwoBodyProps {
  /** Target ratio·ω2 − ω1, rad/s (default 0). */
  rate?: number;
  ratio?: number;
}
export interface PulleyJointProps extends CommonConstraintProps<EnginePulleyJoint>, LimitProps {
  body1?: BodyRef;
  body2?: BodyRef;
  body3?: BodyRef;
  body4?: BodyRef;
  anchor1?: Vec2Like;
  anchor2?: Vec2Like;
  anchor3?: Vec2Like;
  anchor4?: Vec2Like;
  /** Limits apply to |a1a2| + ratio·|a3a4| (default 1). */
  ratio?: number;
}

/** Pins anchor1 on body1 to anchor2 on body2. */
export function PivotJoint(props: PivotJointProps): ReactNode {
  useConstraint(PIVOT_SPEC, props, undefined, TWO);
  return null;
}
/** Pins two bodies together, position and angle. */
export function WeldJoint(props: WeldJointProps): ReactNode {
  useConstraint(WELD_SPEC, props, undefined, TWO);
  return null;
}
/** Keeps ratio·θ2 − θ1 within [jointMin, jointMax]. */
export function AngleJoint(props: AngleJointProps): ReactNode {
  useConstraint(ANGLE_SPEC, props, undefined, TWO);
  return null;
}
/** Keeps the anchors' distance within [jointMin, jointMax]. */
export function DistanceJoint(props: DistanceJointProps): ReactNode {
  useConstraint(DISTANCE_SPEC, props, undefined, TWO);
  return null;
}
/** Keeps anchor2 on a line through anchor1 (a prismatic joint), within [jointMin, jointMax] along it. */
export function LineJoint(props: LineJointProps): ReactNode {
  useConstraint(LINE_SPEC, props, undefined, TWO);
  return null;
}
/** Drives ratio·ω2 − ω1 towards `rate`, with at most `maxForce`. */
export function MotorJoint(props: MotorJointProps): ReactNode {
  useConstraint(MOTOR_SPEC, props, undefined, TWO);
  return null;
}
/** Keeps |a1a2| + ratio·|a3a4| within [jointMin, jointMax]. */
export function PulleyJoint(props: PulleyJointProps): ReactNode {
  useConstraint(PULLEY_SPEC, props, undefined, PULLEY_BODIES);
  return null;
}
