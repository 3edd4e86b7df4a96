import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, Circle, MotorJoint, PivotJoint, type MotorJointProps } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef } from 'react';
import { COMMON_CONSTRAINT_ARG_TYPES, COMMON_CONSTRAINT_ARGS, range } from '../support/controls';
import type { FulcrumParameters } from '../support/parameters';
import { Anchor, dragHandleAt, Floor } from '../support/scenery';

type Controls = Omit<MotorJointProps, 'body1' | 'body2' | 'ref'>;

/**
 * A motor-driven wheel with a crank arm. The arm starts just left of a stop post and the motor
 * turns it anticlockwise at `rate`, almost a full turn (about 3 s), until it jams against the
 * post's right side; there it stalls (at most `maxForce`) and the scene falls asleep. Reverse the
 * rate and the arm swings back to the stop's left side.
 */
function CrankScene(joint: Controls) {
  const axle = useRef<EngineBody>(null);
  const wheel = useRef<EngineBody>(null);
  return (
    <>
      <Floor />
      <Anchor bodyRef={axle} position={[0, 0]} />
      <Body type="static" position={[0, 3]}>
        <Box width={0.4} height={1.2} />
      </Body>
      <Body ref={wheel} position={[0, 0]} rotation={0.5} userData={dragHandleAt(0, 1.8)} angularDrag={0.5}>
        <Circle radius={1} />
        <Box width={0.3} height={3} offset={[0, 1.5]} />
      </Body>
      <PivotJoint body1={axle} body2={wheel} ignore />
      <MotorJoint body1={axle} body2={wheel} {...joint} />
    </>
  );
}

const meta = {
  title: 'Joints/Motor',
  component: CrankScene,
  tags: ['joint', 'settles'],
  args: { ...COMMON_CONSTRAINT_ARGS, rate: 2, ratio: 1, maxForce: 200 },
  argTypes: {
    rate: { ...range(-10, 10, 0.1), description: 'Target ratio·ω2 − ω1 (rad/s).' },
    ratio: { ...range(-4, 4, 0.1) },
    ...COMMON_CONSTRAINT_ARG_TYPES,
  },
  parameters: { fulcrum: { controlChange: { rate: -2 },
      // Once reversed, the motor holds the arm against the stop's left side: pull it away, down-left.
      dragBy: [-80, 60],
    } satisfies FulcrumParameters },
} satisfies Meta<typeof CrankScene>;

export default meta;

/** The motor's `rate` and `maxForce` set the speed and the stall torque. */
export const Crank: StoryObj<typeof meta> = {};
