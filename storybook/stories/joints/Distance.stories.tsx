import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, DistanceJoint, type DistanceJointProps } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef } from 'react';
import { ANCHOR_ARG_TYPES, COMMON_CONSTRAINT_ARG_TYPES, COMMON_CONSTRAINT_ARGS, limitArgTypes } from '../support/controls';
import type { FulcrumParameters } from '../support/parameters';
import { Anchor, DRAG_HANDLE, Floor, SETTLE } from '../support/scenery';

type Controls = Omit<DistanceJointProps, 'body1' | 'body2' | 'ref'>;

/** A crate on a rope of slack length: it falls until the rope is taut, then swings. */
function RopeScene(joint: Controls) {
  const hook = useRef<EngineBody>(null);
  const crate = useRef<EngineBody>(null);
  return (
    <>
      <Floor />
      <Anchor bodyRef={hook} position={[0, 4]} />
      <Body ref={crate} position={[3, 3]} rotation={0.4} userData={DRAG_HANDLE} {...SETTLE}>
        <Box width={1.2} height={1.2} />
      </Body>
      <DistanceJoint body1={hook} body2={crate} {...joint} />
    </>
  );
}

const meta = {
  title: 'Joints/Distance',
  component: RopeScene,
  tags: ['joint', 'settles'],
  args: { ...COMMON_CONSTRAINT_ARGS, anchor1: [0, 0], anchor2: [0.5, 0.5], jointMin: 1, jointMax: 5 },
  argTypes: { ...ANCHOR_ARG_TYPES, ...limitArgTypes(0, 8, 0.1), ...COMMON_CONSTRAINT_ARG_TYPES },
  parameters: { fulcrum: { controlChange: { jointMax: 2 } } satisfies FulcrumParameters },
} satisfies Meta<typeof RopeScene>;

export default meta;

/** A rope from the hook to the crate's corner: [jointMin, jointMax] is the allowed length. */
export const Rope: StoryObj<typeof meta> = {};
