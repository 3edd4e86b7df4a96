/**
 * Shape components: children of <Body> (or templates inside <InstancedBodies>). Every prop is
 * mutable: geometry, density (the body's mass follows), material, filter, sensor, fluid and the
 * contact rules all update the engine shapes in place (a <Chain>'s points excepted: see
 * shape-kinds.ts). The ref is the engine shape.
 */
import type {
  Capsule as EngineCapsule,
  Chain as EngineChain,
  Circle as EngineCircle,
  Polygon as EnginePolygon,
  Segment as EngineSegment,
  Vec2Like,
} from '@fulcrum/physics';
import { useLayoutEffect, useRef, type ReactNode, type Ref } from 'react';
import { markShape } from '../core/children.js';
import { RefSlot } from '../core/ref-slot.js';
import { BOX, CAPSULE, CHAIN, CIRCLE, POLYGON, SEGMENT, type CommonShapeProps, type FluidShapeProps, type ShapeKind } from './shape-kinds.js';
import { useShape, type ShapeComponentProps } from './use-shape.js';
import { checkPropNames, propNames } from '../core/props.js';

export interface CircleProps extends CommonShapeProps, FluidShapeProps, ShapeComponentProps<EngineCircle> {
  /** Metres, > 0. */
  radius: number;
}

export interface BoxProps extends CommonShapeProps, FluidShapeProps, ShapeComponentProps<EnginePolygon> {
  /** Full width, metres. */
  width: number;
  /** Full height, metres. */
  height: number;
  /** Rounding radius, metres (default 0). */
  radius?: number;
}

export interface PolygonProps extends CommonShapeProps, FluidShapeProps, ShapeComponentProps<EnginePolygon> {
  /**
   * The outline, any winding, not crossing itself. A strictly convex outline of 3 to 64 points is
   * one engine Polygon (the `ref`); any other (concave, more points, straight corners) is split by
   * the engine's `Polygon.decompose` into convex pieces with the same props (the ref is then null:
   * see `piecesRef`).
   */
  vertices: readonly Vec2Like[];
  /** Rounding radius, metres (default 0). */
  radius?: number;
  /** Every engine Polygon of the outline: one for a convex outline, the pieces of a concave one (null inside <InstancedBodies>). */
  piecesRef?: Ref<readonly EnginePolygon[] | null>;
}

export type CapsuleProps = CommonShapeProps &
  FluidShapeProps &
  ShapeComponentProps<EngineCapsule> & { /** Metres, > 0: the rounding around the core segment. */ radius: number } & (
    | { /** Distance between the two centres, along the shape's x axis. */ length: number; p1?: never; p2?: never }
    | { /** One end of the core segment, body-local. */ p1: Vec2Like; /** The other end. */ p2: Vec2Like; length?: never }
  );

export interface SegmentProps extends CommonShapeProps, ShapeComponentProps<EngineSegment> {
  /** One end, body-local metres. */
  p1: Vec2Like;
  /** The other end. */
  p2: Vec2Like;
}

export interface ChainProps extends Omit<CommonShapeProps, 'density'>, ShapeComponentProps<EngineChain> {
  /**
   * The chain's points, body frame (before `offset` and `angle`): at least 2, or 3 for a loop. It
   * collides on the right of each segment p1 → p2: list ground points right to left; a
   * counter-clockwise loop is solid inside.
   */
  vertices: readonly Vec2Like[];
  /** A closed loop (a segment from the last point back to the first). Default false. */
  loop?: boolean;
}

/** The props every shape component takes; each kind's list adds its own (any other prop is an error). */
const SHAPE_PROPS = ['offset', 'angle', 'density', 'friction', 'restitution', 'filter', 'sensor', 'userData', 'oneWay', 'tangentSpeed', 'color', 'ref'] as const;
const CIRCLE_PROPS = propNames<CircleProps>()([...SHAPE_PROPS, 'fluid', 'radius']);
const BOX_PROPS = propNames<BoxProps>()([...SHAPE_PROPS, 'fluid', 'width', 'height', 'radius']);
const POLYGON_PROPS = propNames<PolygonProps>()([...SHAPE_PROPS, 'fluid', 'vertices', 'radius', 'piecesRef']);
const CAPSULE_PROPS = propNames<CapsuleProps>()([...SHAPE_PROPS, 'fluid', 'radius', 'length', 'p1', 'p2']);
const SEGMENT_PROPS = propNames<SegmentProps>()([...SHAPE_PROPS, 'p1', 'p2']);
const CHAIN_PROPS = propNames<ChainProps>()(['offset', 'angle', 'friction', 'restitution', 'filter', 'sensor', 'userData', 'oneWay', 'tangentSpeed', 'color', 'ref', 'vertices', 'loop']);
/** The names each shape checks: its props, and the common ones its kind refuses with a reason of its own (a chain's density: it has no area). */
const namesOf = (props: readonly string[], kind: ShapeKind): readonly string[] => [...props, ...Object.keys(kind.refuses ?? {})];
const CIRCLE_NAMES = namesOf(CIRCLE_PROPS, CIRCLE);
const BOX_NAMES = namesOf(BOX_PROPS, BOX);
const POLYGON_NAMES = namesOf(POLYGON_PROPS, POLYGON);
const CAPSULE_NAMES = namesOf(CAPSULE_PROPS, CAPSULE);
const SEGMENT_NAMES = namesOf(SEGMENT_PROPS, SEGMENT);
const CHAIN_NAMES = namesOf(CHAIN_PROPS, CHAIN);

export const Circle = markShape(function Circle(props: CircleProps): ReactNode {
  checkPropNames('Circle', props, CIRCLE_NAMES);
  return useShape(CIRCLE, props);
});

export const Box = markShape(function Box(props: BoxProps): ReactNode {
  checkPropNames('Box', props, BOX_NAMES);
  return useShape(BOX, props);
});

/** A polygon; a concave outline becomes several convex engine Polygons (see PolygonProps.vertices). */
export const Polygon = markShape(function Polygon(props: PolygonProps): ReactNode {
  checkPropNames('Polygon', props, POLYGON_NAMES);
  const pieces = useRef<{ slot: RefSlot<readonly EnginePolygon[]>; list: readonly EnginePolygon[] | null } | null>(null);
  pieces.current ??= { slot: new RefSlot(), list: null };
  const { piecesRef } = props;
  useLayoutEffect(() => () => pieces.current!.slot.clear(), []);
  return useShape(POLYGON, props, (shapes) => {
    const p = pieces.current!;
    // The same list while the pieces are the same objects, so a callback ref is not called again.
    if (shapes[0] === null) p.list = null;
    else if (p.list === null || p.list.length !== shapes.length || p.list.some((s, i) => s !== shapes[i])) p.list = Object.freeze(shapes.slice() as EnginePolygon[]);
    p.slot.set(piecesRef, p.list);
  });
});

export const Capsule = markShape(function Capsule(props: CapsuleProps): ReactNode {
  checkPropNames('Capsule', props, CAPSULE_NAMES);
  return useShape(CAPSULE, props);
});

/** A two-sided line with no thickness and no mass: for static terrain and walls. */
export const Segment = markShape(function Segment(props: SegmentProps): ReactNode {
  checkPropNames('Segment', props, SEGMENT_NAMES);
  return useShape(SEGMENT, props);
});

/**
 * Terrain as a polyline of one-sided, smooth segments (the engine's Chain): bodies roll and slide
 * across its inner points without catching. No mass. The ref is the engine Chain; a new
 * `vertices` or `loop` builds a new one (the engine's chain points are fixed), the other props
 * update its segments in place.
 */
export const Chain = markShape(function Chain(props: ChainProps): ReactNode {
  checkPropNames('Chain', props, CHAIN_NAMES);
  return useShape(CHAIN, props);
});
