import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, Circle, PivotJoint, type PivotJointProps } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef } from 'react';
import { ANCHOR_ARG_TYPES, COMMON_CONSTRAINT_ARG_TYPES, COMMON_CONSTRAINT_ARGS } from '../support/controls';
import type { FulcrumParameters } from '../support/parameters';
import { Anchor, dragHandleAt, Floor, SETTLE } from '../support/scenery';

type Controls = Omit<PivotJointProps, 'body1' | 'body2' | 'ref'>;

/** A bar pinned by one end to a fixed point swings down; a second bar hangs from its tip. */
function PendulumScene(joint: Controls) {
  const pin = useRef<EngineBody>(null);
  const bar = useRef<EngineBody>(null);
  const tail = useRef<EngineBody>(null);
  return (
    <>
      <Floor />
      <Anchor bodyRef={pin} position={[0, 3]} />
      <Body ref={bar} position={[1.5, 3]} userData={dragHandleAt(1.2, 0)} {...SETTLE}>
        <Box width={3} height={0.3} />
      </Body>
      <Body ref={tail} position={[3, 2]} {...SETTLE}>
        <Box width={0.3} height={2} />
        <Circle radius={0.35} offset={[0, -1]} />
      </Body>
      <PivotJoint body1={pin} body2={bar} {...joint} />
      <PivotJoint body1={bar} body2={tail} anchor1={[1.5, 0]} anchor2={[0, 1]} />
    </>
  );
}

const meta = {
  title: 'Joints/Pivot',
  component: PendulumScene,
  tags: ['joint', 'settles'],
  args: { ...COMMON_CONSTRAINT_ARGS, anchor1: [0, 0], anchor2: [-1.5, 0] },
  argTypes: { ...ANCHOR_ARG_TYPES, ...COMMON_CONSTRAINT_ARG_TYPES },
  parameters: { fulcrum: { controlChange: { anchor2: [0, 0] } } satisfies FulcrumParameters },
} satisfies Meta<typeof PendulumScene>;

export default meta;

/** A double pendulum. Move `anchor2` along the bar, soften the pin, or deactivate it. */
export const Pendulum: StoryObj<typeof meta> = {};
