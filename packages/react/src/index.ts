/**
 * @fulcrum/react: declarative React / react-three-fiber bindings for the Fulcrum 2D engine.
 */
export { VERSION } from './version.js';
export { Physics, type PhysicsProps } from './components/Physics.js';
export { PHYSICS_FRAME_PRIORITY } from './components/FrameDriver.js';
export { Body, type BodyProps } from './components/Body.js';
export { Box, Capsule, Circle, Polygon, Segment } from './shapes/shapes.js';
export type { BoxProps, CapsuleProps, CircleProps, PolygonProps, SegmentProps } from './shapes/shapes.js';
export type { CommonShapeProps } from './shapes/shape-kinds.js';
export { useAfterStep, useBeforeStep, useBody, usePhysics, useSpace, type PhysicsApi } from './hooks/hooks.js';
export { FulcrumPropError, FulcrumUnmountedError } from './core/errors.js';
export type { BodyRef } from './core/body-ref.js';
export type { BodyContactEvent, BodyEventHandlers, BodyIslandEvent, ConstraintEventHandlers } from './core/event-router.js';
export type { StepCallback } from './core/physics-world.js';
export type { TimeStep } from './core/step-clock.js';
