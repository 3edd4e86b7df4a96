/**
 * @fulcrum/physics: a 2D rigid-body engine with Nape's constraint semantics.
 * Units: metres, kilograms, seconds, radians; y points up.
 */
export type { Vec2, Vec2Like, Vec3 } from './math/vec2.js';
export { FulcrumDivergenceError, FulcrumInputError } from './util/validate.js';
/** "did you mean 'x'?" for a misspelt name: the engine's option errors, and the bindings' and the DSL's. */
export { didYouMean } from './util/suggest.js';
/** An options type's keys as a list checked against the type when it compiles (the bindings' prop lists use it too). */
export { optionKeys } from './util/validate.js';

export { Body } from './body/body.js';
export type { BodyOptions, BodyType } from './body/body.js';

export { Shape } from './shape/shape.js';
export type { ShapeKind, ShapeOptions, MassData } from './shape/shape.js';
export { Circle } from './shape/circle.js';
export type { CircleOptions } from './shape/circle.js';
export { Polygon } from './shape/polygon.js';
export type { PolygonOptions, PolygonShapeOptions } from './shape/polygon.js';
export { Capsule } from './shape/capsule.js';
export type { CapsuleOptions } from './shape/capsule.js';
export { Segment } from './shape/segment.js';
export type { SegmentOptions } from './shape/segment.js';
export { Chain, ChainSegment } from './shape/chain.js';
export type { ChainOptions, ChainSegmentOptions } from './shape/chain.js';
export type { CollisionFilter } from './collision/filter.js';
export { LINEAR_SLOP, SPECULATIVE_DISTANCE } from './collision/manifold.js';

export { Space } from './space/space.js';
export type { SpaceOptions, RayHit, QueryOptions } from './space/space.js';
export type { CastPose, ConvexCastHit } from './space/queries.js';
export type { ParallelStatus } from './parallel/worker-pool.js';
export { Contact } from './contact/contact.js';
export type { ContactPoint } from './contact/contact.js';
export type { PreSolveCallback, PreSolveFlag } from './space/contact-manager.js';
export type {
  ContactEvent,
  ContactForceEvent,
  IslandEvent,
  ConstraintBreakEvent,
  SpaceEventMap,
  SpaceEventType,
  SpaceEventHandler,
} from './space/events.js';

export { BASE_CONSTRAINT_OPTION_KEYS, Constraint } from './constraint/constraint.js';
export type { ConstraintOptions, BreakReason } from './constraint/constraint.js';
export { Joint } from './constraint/joint.js';
export { PivotJoint } from './constraint/joints/pivot-joint.js';
export type { PivotJointOptions } from './constraint/joints/pivot-joint.js';
export { WeldJoint } from './constraint/joints/weld-joint.js';
export type { WeldJointOptions } from './constraint/joints/weld-joint.js';
export { AngleJoint } from './constraint/joints/angle-joint.js';
export type { AngleJointOptions } from './constraint/joints/angle-joint.js';
export { DistanceJoint } from './constraint/joints/distance-joint.js';
export type { DistanceJointOptions } from './constraint/joints/distance-joint.js';
export { LineJoint } from './constraint/joints/line-joint.js';
export type { LineJointOptions } from './constraint/joints/line-joint.js';
export { MotorJoint } from './constraint/joints/motor-joint.js';
export type { MotorJointOptions } from './constraint/joints/motor-joint.js';
export { PulleyJoint } from './constraint/joints/pulley-joint.js';
export type { PulleyJointOptions } from './constraint/joints/pulley-joint.js';
export { UserConstraint } from './constraint/user-constraint.js';
export { BODY_STATE_STRIDE, BodyState } from './constraint/body-state.js';
export type { UserConstraintHooks, UserConstraintOptions } from './constraint/user-constraint.js';
export type { BatchArrays, UserBatchKernel } from './constraint/batch-kernel.js';

export { DebugColors } from './debug/debug-draw.js';
export type { DebugDraw, DebugDrawOptions } from './debug/debug-draw.js';
