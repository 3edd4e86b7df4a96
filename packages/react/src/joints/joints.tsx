/**
 * The seven joint components, each made from one row of JOINTS: the engine class (whose
 * constructor's parameter is the engine's options type, e.g. PivotJointOptions), its body slots,
 * its own option keys and how the debug view draws its limits. Props are the engine options
 * (TSDoc included) with the body slots as BodyRef, plus the events and the ref (the engine joint);
 * each maps one to one onto the joint's options and setters, in place (see ConstraintController).
 */
import { AngleJoint as EngineAngleJoint, BASE_CONSTRAINT_OPTION_KEYS, DistanceJoint as EngineDistanceJoint, LineJoint as EngineLineJoint, MotorJoint as EngineMotorJoint, PivotJoint as EnginePivotJoint, PulleyJoint as EnginePulleyJoint, WeldJoint as EngineWeldJoint } from '@fulcrum/physics';
import type { Constraint, ConstraintOptions } from '@fulcrum/physics';
import type { ReactNode, Ref } from 'react';
import type { BodyRef } from '../core/body-ref.js';
import { slotBinding, type ConstraintSpec, type OptionValues } from '../core/constraint-controller.js';
import type { ConstraintEventHandlers } from '../core/event-router.js';
import { ANGLE_LIMITS, DISTANCE_LIMITS, LINE_LIMITS, type LimitDrawer } from '../debug/limits.js';
import { checkPropNames } from '../core/props.js';
import { CONSTRAINT_PROPS } from './constraint-props.js';
import { useConstraint } from './use-constraint.js';

const TWO = ['body1', 'body2'] as const;
export const PULLEY_BODIES = ['body1', 'body2', 'body3', 'body4'] as const;

/** What a row of JOINTS holds. */
interface JointEntry {
  readonly engine: new (options: never) => Constraint;
  /** Body slots, in the engine's order: they become BodyRef props. */
  readonly bodies: readonly string[];
  /** The joint's own options: every engine option but the body slots and the base options. */
  readonly keys: readonly string[];
  readonly limits?: LimitDrawer;
}

/** One row per joint component; the check below keeps `keys` equal to the engine's options. */
export const JOINTS = {
  PivotJoint: { engine: EnginePivotJoint, bodies: TWO, keys: ['anchor1', 'anchor2'] },
  WeldJoint: { engine: EngineWeldJoint, bodies: TWO, keys: ['anchor1', 'anchor2', 'phase'] },
  AngleJoint: { engine: EngineAngleJoint, bodies: TWO, keys: ['jointMin', 'jointMax', 'ratio'], limits: ANGLE_LIMITS },
  DistanceJoint: { engine: EngineDistanceJoint, bodies: TWO, keys: ['anchor1', 'anchor2', 'jointMin', 'jointMax'], limits: DISTANCE_LIMITS },
  LineJoint: { engine: EngineLineJoint, bodies: TWO, keys: ['anchor1', 'anchor2', 'direction', 'jointMin', 'jointMax'], limits: LINE_LIMITS },
  MotorJoint: { engine: EngineMotorJoint, bodies: TWO, keys: ['rate', 'ratio'] },
  PulleyJoint: { engine: EnginePulleyJoint, bodies: PULLEY_BODIES, keys: ['anchor1', 'anchor2', 'anchor3', 'anchor4', 'jointMin', 'jointMax', 'ratio'] },
} as const satisfies Record<string, JointEntry>;

type Table = typeof JOINTS;
export type JointName = keyof Table;
/** The engine's options type of a joint (its constructor's parameter). */
export type JointOptions<N extends JointName> = NonNullable<ConstructorParameters<Table[N]['engine']>[0]>;
type Slot<N extends JointName> = Table[N]['bodies'][number];

/** Keys of `O` missing from `Listed`, and listed keys `O` does not have: never when the list is exact. */
export type ListMismatch<O, Listed extends PropertyKey> = Exclude<keyof O, Listed> | Exclude<Listed, keyof O>;
type Mismatch = { [N in JointName]: `${N}.${ListMismatch<JointOptions<N>, Slot<N> | Table[N]['keys'][number] | (typeof BASE_CONSTRAINT_OPTION_KEYS)[number]> & string}` }[JointName];
// Every engine option of every joint is in the table, and nothing else: an option added to e.g.
// LineJointOptions fails to compile here ("LineJoint.newOption") until it is listed.
const everyJointOptionListed: [Mismatch] extends [never] ? true : Mismatch = true;
void everyJointOptionListed;

/** Props every constraint component takes: the engine's ConstraintOptions, the events, and the ref. */
export interface CommonConstraintProps<C extends Constraint> extends ConstraintOptions, ConstraintEventHandlers {
  /** The engine constraint. */
  ref?: Ref<C | null>;
}

/** A joint's props: its engine options with the body slots as BodyRef (a ref to a <Body>, or a Body), the events and the ref. */
export type JointProps<N extends JointName> = Omit<JointOptions<N>, Slot<N>> & { [K in keyof JointOptions<N> as K extends Slot<N> ? K : never]?: BodyRef } & CommonConstraintProps<InstanceType<Table[N]['engine']>>;

export type PivotJointProps = JointProps<'PivotJoint'>;
export type WeldJointProps = JointProps<'WeldJoint'>;
export type AngleJointProps = JointProps<'AngleJoint'>;
export type DistanceJointProps = JointProps<'DistanceJoint'>;
export type LineJointProps = JointProps<'LineJoint'>;
export type MotorJointProps = JointProps<'MotorJoint'>;
export type PulleyJointProps = JointProps<'PulleyJoint'>;
export type TwoBodyProps = Pick<PivotJointProps, 'body1' | 'body2'>;
export type AnchorProps = Pick<PivotJointProps, 'anchor1' | 'anchor2'>;
export type LimitProps = Pick<DistanceJointProps, 'jointMin' | 'jointMax'>;

function jointSpec<N extends JointName>(name: N): ConstraintSpec<InstanceType<Table[N]['engine']>> {
  const e: JointEntry = JOINTS[name];
  type C = InstanceType<Table[N]['engine']>;
  return { component: name, owners: [name], keys: [...e.keys, ...BASE_CONSTRAINT_OPTION_KEYS], create: (o) => new e.engine(o as never) as C, bodies: slotBinding<C>(e.bodies), limits: e.limits };
}

/** The controller's view of each joint (exported as PIVOT_SPEC, WELD_SPEC, ...). */
export const JOINT_SPECS = Object.fromEntries(Object.keys(JOINTS).map((name) => [name, jointSpec(name as JointName)])) as { readonly [N in JointName]: ConstraintSpec<InstanceType<Table[N]['engine']>> };
export const { PivotJoint: PIVOT_SPEC, WeldJoint: WELD_SPEC, AngleJoint: ANGLE_SPEC, DistanceJoint: DISTANCE_SPEC, LineJoint: LINE_SPEC, MotorJoint: MOTOR_SPEC, PulleyJoint: PULLEY_SPEC } = JOINT_SPECS;

/** A joint component: a function named after the joint (React DevTools and docs show `PivotJoint`). */
export type JointComponent<N extends JointName> = ((props: JointProps<N>) => ReactNode) & { readonly displayName: N };

function jointComponent<N extends JointName>(name: N): JointComponent<N> {
  const spec = JOINT_SPECS[name] as ConstraintSpec<Constraint>;
  const bodies = JOINTS[name].bodies;
  // The body slots and the joint's own options (both checked against the engine's above).
  const names: readonly string[] = [...bodies, ...JOINTS[name].keys, ...CONSTRAINT_PROPS];
  function Joint(props: JointProps<N>): ReactNode {
    checkPropNames(name, props, names);
    useConstraint(spec, props as CommonConstraintProps<Constraint>, undefined, bodies);
    return null;
  }
  Object.defineProperty(Joint, 'name', { value: name });
  return Object.assign(Joint, { displayName: name });
}

/** Pins anchor1 on body1 to anchor2 on body2. */
export const PivotJoint = jointComponent('PivotJoint');
/** Pins two bodies together, position and angle (θ2 − θ1 = phase). */
export const WeldJoint = jointComponent('WeldJoint');
/** Keeps ratio·θ2 − θ1 within [jointMin, jointMax]. */
export const AngleJoint = jointComponent('AngleJoint');
/** Keeps the anchors' distance within [jointMin, jointMax]. */
export const DistanceJoint = jointComponent('DistanceJoint');
/** Keeps anchor2 on a line through anchor1 (a prismatic joint), within [jointMin, jointMax] along it. */
export const LineJoint = jointComponent('LineJoint');
/** Drives ratio·ω2 − ω1 towards `rate`, with at most `maxForce`. */
export const MotorJoint = jointComponent('MotorJoint');
/** Keeps |a1a2| + ratio·|a3a4| within [jointMin, jointMax]. */
export const PulleyJoint = jointComponent('PulleyJoint');
