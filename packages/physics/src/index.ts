/**
 * @fulcrum/physics: a 2D rigid-body engine with Nape's constraint semantics.
 * Units: metres, kilograms, seconds, radians; y points up.
 */
export type { Vec2, Vec2Like, Vec3 } from './math/vec2';
export { FulcrumInputError } from './util/validate';

export { Body } from './body/body';
export type { BodyOptions, BodyType } from './body/body';

export { Shape } from './shape/shape';
export type { ShapeKind, ShapeOptions, MassData } from './shape/shape';
export { Circle } from './shape/circle';
export type { CircleOptions } from './shape/circle';
export { Polygon } from './shape/polygon';
export type { PolygonOptions, PolygonShapeOptions } from './shape/polygon';
export { Capsule } from './shape/capsule';
export type { CapsuleOptions } from './shape/capsule';
export { Segment } from './shape/segment';
export type { SegmentOptions } from './shape/segment';
export type { CollisionFilter } from './collision/filter';
export { LINEAR_SLOP, SPECULATIVE_DISTANCE } from './collision/manifold';

export { Space } from './space/space';
export type { SpaceOptions, RayHit, QueryOptions } from './space/space';
export type {
  ContactEvent,
  IslandEvent,
  ConstraintBreakEvent,
  SpaceEventMap,
  SpaceEventType,
  SpaceEventHandler,
} from './space/events';

export { Constraint } from './constraint/constraint';
export type { ConstraintOptions, BreakReason } from './constraint/constraint';
export { Joint } from './constraint/joint';
export { PivotJoint } from './constraint/joints/pivot-joint';
export type { PivotJointOptions } from './constraint/joints/pivot-joint';
export { WeldJoint } from './constraint/joints/weld-joint';
export type { WeldJointOptions } from './constraint/joints/weld-joint';
export { AngleJoint } from './constraint/joints/angle-joint';
export type { AngleJointOptions } from './constraint/joints/angle-joint';
export { DistanceJoint } from './constraint/joints/distance-joint';
export type { DistanceJointOptions } from './constraint/joints/distance-joint';
export { LineJoint } from './constraint/joints/line-joint';
export type { LineJointOptions } from './constraint/joints/line-joint';
export { MotorJoint } from './constraint/joints/motor-joint';
export type { MotorJointOptions } from './constraint/joints/motor-joint';
export { PulleyJoint } from './constraint/joints/pulley-joint';
export type { PulleyJointOptions } from './constraint/joints/pulley-joint';
export { UserConstraint } from './constraint/user-constraint';
export type { UserConstraintHooks, UserConstraintOptions } from './constraint/user-constraint';

export { DebugColors } from './debug/debug-draw';
export type { DebugDraw, DebugDrawOptions } from './debug/debug-draw';
