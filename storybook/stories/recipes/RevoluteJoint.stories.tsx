import type { Body as EngineBody } from '@fulcrum/physics';
import { AngleJoint, Body, Box, Circle, MotorJoint, PivotJoint } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef } from 'react';
import { range } from '../support/controls';
import type { FulcrumParameters } from '../support/parameters';
import { Anchor, dragHandleAt, Floor } from '../support/scenery';

interface Controls {
  /** The motor's target speed of the arm relative to the post, rad/s. */
  rate: number;
  /** The motor's torque limit, N·m. */
  maxForce: number;
  /** The arm's lower and upper limit relative to the post, radians. */
  lower: number;
  upper: number;
}

/**
 * A revolute joint as Box2D and Rapier have it, made of Nape's three joints on the same two
 * bodies: a PivotJoint (the hinge), an AngleJoint (the limits) and a MotorJoint (the motor). The
 * motor turns a lever until the AngleJoint's upper limit stops it; there the motor stalls at its
 * torque limit and the scene sleeps. Reverse `rate` and it swings to the lower limit.
 */
function RevoluteScene({ rate, maxForce, lower, upper }: Controls) {
  const post = useRef<EngineBody>(null);
  const lever = useRef<EngineBody>(null);
  return (
    <>
      <Floor />
      {/* The post the hinge stands on, ending below the lever's short back end. */}
      <Body type="static" position={[0, -3.45]}>
        <Box width={0.4} height={3.1} />
      </Body>
      <Anchor bodyRef={post} position={[0, -1]} />
      <Body ref={lever} position={[0, -1]} rotation={-0.6} userData={dragHandleAt(3, 0)} angularDrag={0.5}>
        <Box width={5.6} height={0.3} offset={[2.2, 0]} />
        <Circle radius={0.45} offset={[4.8, 0]} density={3} />
      </Body>
      <PivotJoint body1={post} body2={lever} ignore />
      <AngleJoint body1={post} body2={lever} jointMin={lower} jointMax={upper} ignore />
      <MotorJoint body1={post} body2={lever} rate={rate} maxForce={maxForce} />
    </>
  );
}

const meta = {
  title: 'Recipes/Revolute joint',
  component: RevoluteScene,
  tags: ['joint', 'settles'],
  // It opens at its lower limit and turns 1.5 rad to the upper one at 0.5 rad/s: the browser tests'
  // first pictures, late under load, still see it move (at 1 rad/s, CI once saw it already still).
  args: { rate: 0.5, maxForce: 400, lower: -0.6, upper: 0.9 },
  argTypes: {
    rate: { ...range(-6, 6, 0.1), description: "The motor's target speed (rad/s): ratio·ω2 − ω1." },
    maxForce: { ...range(0, 1000, 10), description: "The motor's torque limit (N·m): it stalls above it." },
    lower: { ...range(-3.1, 0, 0.05), description: "The AngleJoint's jointMin (rad)." },
    upper: { ...range(0, 3.1, 0.05), description: "The AngleJoint's jointMax (rad)." },
  },
  // The drag (up and to the right, after the control change) lifts the lever off its lower limit.
  parameters: { fulcrum: { controlChange: { rate: -1 } } satisfies FulcrumParameters },
} satisfies Meta<typeof RevoluteScene>;

export default meta;

/** The motor lifts the lever to its upper limit and holds it there; reverse `rate` to lower it. */
export const LimitedMotorisedHinge: StoryObj<typeof meta> = { name: 'Limited, motorised hinge' };
