/**
 * The rope bridge: planks joined end to end by PivotJoints, the two end planks pinned to the
 * cliffs. Neighbouring planks overlap at their corners as they swing, so each pivot ignores
 * contacts between its two planks.
 */
import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, PivotJoint } from '@fulcrum/react';
import { createRef, useMemo, type ReactNode, type RefObject } from 'react';
import { plankPoses } from './bridge-layout.js';
import { CLIFF_HEIGHT, CLIFF_WIDTH } from './Cliffs.js';

export interface RopeBridgeProps {
  planks: number;
  plankLength: number;
  /** x of the cliff edges (±) and their height. */
  edge: number;
  top: number;
  left: RefObject<EngineBody | null>;
  right: RefObject<EngineBody | null>;
}

const PLANK_THICKNESS = 0.2;

export function RopeBridge({ planks, plankLength, edge, top, left, right }: RopeBridgeProps): ReactNode {
  const poses = useMemo(() => plankPoses(planks, plankLength, 2 * edge, top), [planks, plankLength, edge, top]);
  const refs = useMemo(() => poses.map(() => createRef<EngineBody>()), [poses]);
  const half = plankLength / 2;
  return (
    <>
      {poses.map((pose, i) => (
        <Body key={i} ref={refs[i]} position={[pose.x, pose.y]} rotation={pose.rotation} linearDrag={0.05} angularDrag={0.1}>
          <Box width={plankLength} height={PLANK_THICKNESS} friction={0.9} color={i % 2 ? 0xa8774a : 0x9a6b40} />
        </Body>
      ))}
      {refs.slice(1).map((ref, i) => (
        <PivotJoint key={i} body1={refs[i]} body2={ref} anchor1={[half, 0]} anchor2={[-half, 0]} ignore />
      ))}
      {/* The end planks hang from the cliffs' inner top corners (in each cliff's own frame). */}
      <PivotJoint body1={left} body2={refs[0]} anchor1={[CLIFF_WIDTH / 2, CLIFF_HEIGHT / 2]} anchor2={[-half, 0]} ignore />
      <PivotJoint body1={right} body2={refs[refs.length - 1]} anchor1={[-CLIFF_WIDTH / 2, CLIFF_HEIGHT / 2]} anchor2={[half, 0]} ignore />
    </>
  );
}
