import type { Body as EngineBody } from '@fulcrum/physics';
import { AngleJoint, Body, Box, Circle, PivotJoint, type AngleJointProps } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef } from 'react';
import { COMMON_CONSTRAINT_ARG_TYPES, COMMON_CONSTRAINT_ARGS, limitArgTypes, range } from '../support/controls';
import type { FulcrumParameters } from '../support/parameters';
import { Anchor, dragHandleAt, Floor, SETTLE } from '../support/scenery';

type Controls = Omit<AngleJointProps, 'body1' | 'body2' | 'ref'>;

/**
 * Two wheels on fixed axles, geared by an AngleJoint (ratio·θ2 − θ1 within [jointMin, jointMax]).
 * The left wheel carries a weight on an arm, so it swings down and drives the right one; the
 * gap between the limits is backlash.
 */
function GearsScene(joint: Controls) {
  const axleA = useRef<EngineBody>(null);
  const axleB = useRef<EngineBody>(null);
  const driver = useRef<EngineBody>(null);
  const driven = useRef<EngineBody>(null);
  return (
    <>
      <Floor />
      <Anchor bodyRef={axleA} position={[-3, 0.5]} />
      <Anchor bodyRef={axleB} position={[3, 0.5]} />
      <Body ref={driver} position={[-3, 0.5]} userData={dragHandleAt(2.4, 0)} {...SETTLE}>
        <Circle radius={1.2} />
        <Box width={2.4} height={0.3} offset={[1.2, 0]} />
        <Circle radius={0.4} offset={[2.4, 0]} density={4} />
      </Body>
      <Body ref={driven} position={[3, 0.5]} {...SETTLE}>
        <Box width={2.6} height={0.5} />
        <Box width={0.5} height={1.6} offset={[1.05, 0.55]} />
      </Body>
      <PivotJoint body1={axleA} body2={driver} ignore />
      <PivotJoint body1={axleB} body2={driven} ignore />
      <AngleJoint body1={driver} body2={driven} {...joint} />
    </>
  );
}

const meta = {
  title: 'Joints/Angle',
  component: GearsScene,
  tags: ['joint', 'settles'],
  args: { ...COMMON_CONSTRAINT_ARGS, jointMin: -0.2, jointMax: 0.2, ratio: 2, ignore: true },
  argTypes: {
    ...limitArgTypes(-3.2, 3.2, 0.05),
    ratio: { ...range(-4, 4, 0.1), description: 'Gear ratio: the limits apply to ratio·θ2 − θ1.' },
    ...COMMON_CONSTRAINT_ARG_TYPES,
  },
  parameters: { fulcrum: { controlChange: { ratio: -1 } } satisfies FulcrumParameters },
} satisfies Meta<typeof GearsScene>;

export default meta;

/** A gear pair with backlash. Try a negative ratio, or jointMin = jointMax for no backlash. */
export const Gears: StoryObj<typeof meta> = {};
