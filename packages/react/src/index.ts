/**
 * @fulcrum/react: declarative React / react-three-fiber bindings for the Fulcrum 2D engine.
 * Units are the engine's (metres, seconds, radians, y up); with an orthographic camera, the
 * camera's `zoom` is pixels per metre.
 */
export { VERSION } from './version.js';

export { Physics, type PhysicsProps } from './components/Physics.js';
export { PHYSICS_FRAME_PRIORITY } from './components/FrameDriver.js';
export { Body, type BodyProps } from './components/Body.js';
export type { BodyOptionProps } from './core/body-options.js';

export { Box, Capsule, Circle, Polygon, Segment } from './shapes/shapes.js';
export type { BoxProps, CapsuleProps, CircleProps, PolygonProps, SegmentProps } from './shapes/shapes.js';
export type { CommonShapeProps } from './shapes/shape-kinds.js';
export type { ShapeLookProps } from './shapes/use-shape.js';

export { AngleJoint, DistanceJoint, LineJoint, MotorJoint, PivotJoint, PulleyJoint, WeldJoint } from './joints/joints.js';
export type {
  AngleJointProps,
  AnchorProps,
  CommonConstraintProps,
  DistanceJointProps,
  JointName,
  JointProps,
  LimitProps,
  LineJointProps,
  MotorJointProps,
  PivotJointProps,
  PulleyJointProps,
  TwoBodyProps,
  WeldJointProps,
} from './joints/joints.js';
export { UserConstraint, type UserConstraintProps } from './joints/UserConstraint.js';
// <SymbolicConstraint> is in the '@fulcrum/react/symbolic' entry (src/symbolic/), so that this one never loads @fulcrum/symbolic.

export { InstancedBodies, type InstanceProps, type InstancedBodiesProps } from './instanced/InstancedBodies.js';
export type { InstancePointerEvent, InstancePointerHandlers } from './instanced/instance-pointer.js';
export { PointerDrag, type PointerDragProps } from './drag/PointerDrag.js';
export { DragController, type DragSettings } from './drag/drag-controller.js';
export { DebugLines, type DebugLinesProps } from './debug/DebugLines.js';

export { useAfterStep, useBeforeStep, useBody, usePhysics, useSpace, type PhysicsApi } from './hooks/hooks.js';

export { FulcrumPropError, FulcrumUnmountedError } from './core/errors.js';
export type { BodyRef } from './core/body-ref.js';
export type { BodyContactEvent, BodyEventHandlers, BodyIslandEvent, ConstraintEventHandlers } from './core/event-router.js';
export type { StepCallback } from './core/physics-world.js';
export type { TimeStep } from './core/step-clock.js';

// control, sleep and queries
// (The sleep and speed-cap props are in PhysicsProps, the queries in PhysicsApi, both above; their
// result types, RayHit and ConvexCastHit, are @fulcrum/physics's.)
export type { KinematicTargetProps } from './core/body-options.js';

// contacts, contact filtering, shapes
export { Chain } from './shapes/shapes.js';
export type { ChainProps } from './shapes/shapes.js';
export type { FluidProps, FluidShapeProps } from './shapes/shape-kinds.js';
export { usePreSolve } from './hooks/use-pre-solve.js';
export type { BodyContactForceEvent, BodyPointerEvent, BodyPointerHandlers } from './core/event-router.js';
