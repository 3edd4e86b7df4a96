/**
 * The engine files whose opening comments hold the joints' derivations, as text (Vite's `?raw`):
 * the docs pages render the comment itself (joint-math.ts), so they cannot drift from the code.
 */
import angle from '../../../packages/physics/src/constraint/joints/angle-joint.ts?raw';
import distance from '../../../packages/physics/src/constraint/joints/distance-joint.ts?raw';
import line from '../../../packages/physics/src/constraint/joints/line-joint.ts?raw';
import motor from '../../../packages/physics/src/constraint/joints/motor-joint.ts?raw';
import pivot from '../../../packages/physics/src/constraint/joints/pivot-joint.ts?raw';
import pulley from '../../../packages/physics/src/constraint/joints/pulley-joint.ts?raw';
import weld from '../../../packages/physics/src/constraint/joints/weld-joint.ts?raw';
import userConstraint from '../../../packages/physics/src/constraint/user-constraint.ts?raw';

export interface JointSource {
  /** The file, from the repository root (shown on the page, and named in errors). */
  file: string;
  text: string;
}

const at = (name: string, text: string): JointSource => ({ file: `packages/physics/src/constraint/${name}`, text });

/** By the joint's name. SymbolicConstraint runs as a UserConstraint in its Jacobian form: its page shows that file. */
export const JOINT_SOURCES = {
  PivotJoint: at('joints/pivot-joint.ts', pivot),
  WeldJoint: at('joints/weld-joint.ts', weld),
  AngleJoint: at('joints/angle-joint.ts', angle),
  DistanceJoint: at('joints/distance-joint.ts', distance),
  LineJoint: at('joints/line-joint.ts', line),
  MotorJoint: at('joints/motor-joint.ts', motor),
  PulleyJoint: at('joints/pulley-joint.ts', pulley),
  UserConstraint: at('user-constraint.ts', userConstraint),
} as const satisfies Record<string, JointSource>;

export type JointName = keyof typeof JOINT_SOURCES;
