import type { Body as EngineBody } from '@fulcrum/physics';
import { AngleJoint, Body, Box, Circle, DistanceJoint, LineJoint, PivotJoint } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef } from 'react';
import { Anchor, DRAG_HANDLE, Floor, SETTLE } from '../support/scenery';

/**
 * The engine's debug view (shapes, contacts, joints with their limits) over a scene with a bit
 * of everything. The debug toggle in the toolbar starts on here.
 */
function DebugScene() {
  const hook = useRef<EngineBody>(null);
  const axle = useRef<EngineBody>(null);
  const rail = useRef<EngineBody>(null);
  const crate = useRef<EngineBody>(null);
  const arm = useRef<EngineBody>(null);
  const slider = useRef<EngineBody>(null);
  return (
    <>
      <Floor />
      <Anchor bodyRef={hook} position={[-5, 3]} />
      <Body ref={crate} position={[-3, 2]} {...SETTLE}>
        <Box width={1} height={1} />
      </Body>
      <DistanceJoint body1={hook} body2={crate} jointMin={1} jointMax={3} />

      <Anchor bodyRef={axle} position={[0, 1]} />
      <Body ref={arm} position={[1.5, 1]} userData={DRAG_HANDLE} {...SETTLE}>
        <Box width={3} height={0.3} />
      </Body>
      <PivotJoint body1={axle} body2={arm} anchor2={[-1.5, 0]} />
      <AngleJoint body1={axle} body2={arm} jointMin={-0.8} jointMax={0.4} />

      <Anchor bodyRef={rail} position={[4, 3]} />
      <Body ref={slider} position={[5, 1]} {...SETTLE}>
        <Circle radius={0.5} />
      </Body>
      <LineJoint body1={rail} body2={slider} direction={[0.6, -1]} jointMin={0.5} jointMax={4} />

      {[-1, 0, 1].map((i) => (
        <Body key={i} position={[i * 1.1, -4.5 + Math.abs(i) * 0.2]} rotation={i * 0.2}>
          <Box width={1} height={1} />
        </Body>
      ))}
    </>
  );
}

const meta = {
  title: 'Scenes/Debug view',
  component: DebugScene,
  tags: ['settles'],
  parameters: { fulcrum: { debug: true } },
} satisfies Meta<typeof DebugScene>;

export default meta;

/** Shapes, contact points and normals, joint anchors, and limits (distance range, line travel, angles). */
export const Everything: StoryObj<typeof meta> = {};
