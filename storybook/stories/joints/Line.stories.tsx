import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, Circle, LineJoint, type LineJointProps } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef } from 'react';
import { ANCHOR_ARG_TYPES, COMMON_CONSTRAINT_ARG_TYPES, COMMON_CONSTRAINT_ARGS, limitArgTypes, vectorControl } from '../support/controls';
import type { FulcrumParameters } from '../support/parameters';
import { DRAG_HANDLE, Floor, SETTLE } from '../support/scenery';

type Controls = Omit<LineJointProps, 'body1' | 'body2' | 'ref' | 'anchor1'>;

/**
 * A cart whose two wheels ride on suspension lines (LineJoints: each wheel's centre stays on a
 * line through the cart, between jointMin and jointMax along it). Both joints take the controls;
 * `anchor1` is each wheel's mount, so it is not a control here.
 */
function SuspensionScene(joint: Controls) {
  const cart = useRef<EngineBody>(null);
  const front = useRef<EngineBody>(null);
  const rear = useRef<EngineBody>(null);
  return (
    <>
      <Floor top={-4} />
      <Body ref={cart} position={[0, 0]} rotation={0.15} userData={DRAG_HANDLE} {...SETTLE}>
        <Box width={4} height={0.8} />
      </Body>
      <Body ref={rear} position={[-1.5, -1.2]} {...SETTLE}>
        <Circle radius={0.6} friction={1} />
      </Body>
      <Body ref={front} position={[1.5, -1.2]} {...SETTLE}>
        <Circle radius={0.6} friction={1} />
      </Body>
      <LineJoint body1={cart} body2={rear} anchor1={[-1.5, 0]} {...joint} />
      <LineJoint body1={cart} body2={front} anchor1={[1.5, 0]} {...joint} />
    </>
  );
}

const meta = {
  title: 'Joints/Line',
  component: SuspensionScene,
  tags: ['joint', 'settles'],
  args: { ...COMMON_CONSTRAINT_ARGS, stiff: false, frequency: 3, damping: 0.4, ignore: true, anchor2: [0, 0], direction: [0, 1], jointMin: -1.6, jointMax: -0.6 },
  argTypes: {
    anchor2: ANCHOR_ARG_TYPES.anchor2,
    direction: vectorControl("The line's direction in the cart's frame [x, y]."),
    ...limitArgTypes(-3, 1, 0.05),
    ...COMMON_CONSTRAINT_ARG_TYPES,
  },
  parameters: { fulcrum: { controlChange: { jointMin: -2.6, jointMax: -2.2 } } satisfies FulcrumParameters },
} satisfies Meta<typeof SuspensionScene>;

export default meta;

/** Soft suspension: lower `frequency` for a floppier ride, move the limits to raise the cart. */
export const Suspension: StoryObj<typeof meta> = {};
