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

export { DebugColors } from './debug/debug-draw';
export type { DebugDraw, DebugDrawOptions } from './debug/debug-draw';
