/**
 * A pulley lift: two buckets hang from a static beam on one rope over two wheels, a
 * PulleyJoint (|rope 1| + |rope 2| ≤ length, slack allowed). The left bucket starts loaded with
 * a counterweight, so it sinks and lifts the right one until it lands.
 */
import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, Circle, PulleyJoint } from '@fulcrum/react';
import { useRef, type ReactNode, type RefObject } from 'react';
import { RopeLine } from './RopeLine.js';

export interface PulleyLiftProps {
  /** x of the two wheels, and the beam's height. */
  wheels: readonly [number, number];
  beamY: number;
  /** How far below the beam both buckets start. */
  hang: number;
}

const WHEEL_RADIUS = 0.3;
const BUCKET = { width: 1.6, wall: 0.15, depth: 0.7 };

export function PulleyLift({ wheels, beamY, hang }: PulleyLiftProps): ReactNode {
  const beam = useRef<EngineBody>(null);
  const left = useRef<EngineBody>(null);
  const right = useRef<EngineBody>(null);
  const [lx, rx] = wheels;
  const mid = (lx + rx) / 2;
  // Anchors in the beam's frame: the bottoms of the two wheels.
  const wheelL = [lx - mid, -WHEEL_RADIUS] as const;
  const wheelR = [rx - mid, -WHEEL_RADIUS] as const;
  const handle = [0, BUCKET.depth + 0.3] as const;
  const bucketY = beamY - WHEEL_RADIUS - hang;
  return (
    <>
      <Body ref={beam} type="static" position={[mid, beamY]}>
        <Box width={rx - lx + 1.2} height={0.3} offset={[0, 0.45]} color={0x6b7384} />
        <Circle radius={WHEEL_RADIUS} offset={[lx - mid, 0]} color={0x9aa3b5} />
        <Circle radius={WHEEL_RADIUS} offset={[rx - mid, 0]} color={0x9aa3b5} />
      </Body>
      <Bucket body={left} x={lx} y={bucketY} color={0x5aa4c8} />
      <Bucket body={right} x={rx} y={bucketY} color={0x7bc47f} />
      {/* The counterweight. */}
      <Body position={[lx, bucketY + 0.5]}>
        <Box width={0.8} height={0.6} density={8} color={0x4a4f5c} />
      </Body>
      <PulleyJoint body1={beam} anchor1={wheelL} body2={left} anchor2={handle} body3={beam} anchor3={wheelR} body4={right} anchor4={handle} jointMin={0} jointMax={2 * (hang - handle[1])} />
      <RopeLine from={beam} fromAnchor={wheelL} to={left} toAnchor={handle} />
      <RopeLine from={beam} fromAnchor={wheelR} to={right} toAnchor={handle} />
    </>
  );
}

function Bucket({ body, x, y, color }: { body: RefObject<EngineBody | null>; x: number; y: number; color: number }): ReactNode {
  const { width, wall, depth } = BUCKET;
  return (
    // Drag damps the swinging, so the lift comes to rest.
    <Body ref={body} position={[x, y]} linearDrag={0.3} angularDrag={0.8}>
      <Box width={width} height={wall} offset={[0, wall / 2]} color={color} />
      <Box width={wall} height={depth} offset={[-(width - wall) / 2, depth / 2]} color={color} />
      <Box width={wall} height={depth} offset={[(width - wall) / 2, depth / 2]} color={color} />
    </Body>
  );
}
