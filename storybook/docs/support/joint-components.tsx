/**
 * The seven joint components, typed one by one, for the props tables (`<ArgTypes of={PivotJoint}>`).
 *
 * Why: react-docgen-typescript documents a file's exports and the members of its exported
 * objects, caching each by file and name. In @fulcrum/react's joints.tsx the table `JOINTS` (a
 * row per joint, named PivotJoint, WeldJoint, ...) comes first, so the rows take the cache
 * entries and the components of the same names get no docs. Here each export is the package's
 * own component (the same function object: the docs attach to it) with its props type, so the
 * tables list the engine options with their TSDoc, as the package's types do.
 */
import {
  AngleJoint as FulcrumAngleJoint,
  DistanceJoint as FulcrumDistanceJoint,
  LineJoint as FulcrumLineJoint,
  MotorJoint as FulcrumMotorJoint,
  PivotJoint as FulcrumPivotJoint,
  PulleyJoint as FulcrumPulleyJoint,
  WeldJoint as FulcrumWeldJoint,
  type AngleJointProps,
  type DistanceJointProps,
  type LineJointProps,
  type MotorJointProps,
  type PivotJointProps,
  type PulleyJointProps,
  type WeldJointProps,
} from '@fulcrum/react';
import type { ReactNode } from 'react';

export const PivotJoint: (props: PivotJointProps) => ReactNode = FulcrumPivotJoint;
export const WeldJoint: (props: WeldJointProps) => ReactNode = FulcrumWeldJoint;
export const AngleJoint: (props: AngleJointProps) => ReactNode = FulcrumAngleJoint;
export const DistanceJoint: (props: DistanceJointProps) => ReactNode = FulcrumDistanceJoint;
export const LineJoint: (props: LineJointProps) => ReactNode = FulcrumLineJoint;
export const MotorJoint: (props: MotorJointProps) => ReactNode = FulcrumMotorJoint;
export const PulleyJoint: (props: PulleyJointProps) => ReactNode = FulcrumPulleyJoint;
