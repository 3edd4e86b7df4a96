/**
 * Shape components: children of <Body> (or templates inside <InstancedBodies>). Every prop is
 * mutable: geometry, density (the body's mass follows), material, filter and sensor all update
 * the engine shape in place. The ref is the engine shape.
 */
import type { Capsule as EngineCapsule, Circle as EngineCircle, Polygon as EnginePolygon, Segment as EngineSegment, Vec2Like } from '@fulcrum/physics';
import type { ReactNode } from 'react';
import { markShape } from '../core/children.js';
import { BOX, CAPSULE, CIRCLE, POLYGON, SEGMENT, type CommonShapeProps } from './shape-kinds.js';
import { useShape, type ShapeComponentProps } from './use-shape.js';

export interface CircleProps extends CommonShapeProps, ShapeComponentProps<EngineCircle> {
  /** Metres, > 0. */
  radius: number;
}

export interface BoxProps extends CommonShapeProps, ShapeComponentProps<EnginePolygon> {
  /** Full width, metres. */
  width: number;
  /** Full height, metres. */
  height: number;
  /** Rounding radius, metres (default 0). */
  radius?: number;
}

export interface PolygonProps extends CommonShapeProps, ShapeComponentProps<EnginePolygon> {
  /** Convex outline, any winding, 3 to 64 points. */
  vertices: readonly Vec2Like[];
  /** Rounding radius, metres (default 0). */
  radius?: number;
}

export type CapsuleProps = CommonShapeProps &
  ShapeComponentProps<EngineCapsule> & { radius: number } & (
    | { /** Distance between the two centres, along the shape's x axis. */ length: number; p1?: never; p2?: never }
    | { p1: Vec2Like; p2: Vec2Like; length?: never }
  );

export interface SegmentProps extends CommonShapeProps, ShapeComponentProps<EngineSegment> {
  p1: Vec2Like;
  p2: Vec2Like;
}

export const Circle = markShape(function Circle(props: CircleProps): ReactNode {
  return useShape(CIRCLE, props);
});

export const Box = markShape(function Box(props: BoxProps): ReactNode {
  return useShape(BOX, props);
});

export const Polygon = markShape(function Polygon(props: PolygonProps): ReactNode {
  return useShape(POLYGON, props);
});

export const Capsule = markShape(function Capsule(props: CapsuleProps): ReactNode {
  return useShape(CAPSULE, props);
});

/** A two-sided line with no thickness and no mass: for static terrain and walls. */
export const Segment = markShape(function Segment(props: SegmentProps): ReactNode {
  return useShape(SEGMENT, props);
});
