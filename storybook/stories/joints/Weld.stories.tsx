import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, Circle, WeldJoint, type WeldJointProps } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef } from 'react';
import { ANCHOR_ARG_TYPES, COMMON_CONSTRAINT_ARG_TYPES, COMMON_CONSTRAINT_ARGS, range } from '../support/controls';
import type { FulcrumParameters } from '../support/parameters';
import { Anchor, DRAG_HANDLE, Floor, SETTLE } from '../support/scenery';

type Controls = Omit<WeldJointProps, 'body1' | 'body2' | 'ref'>;

const PLUCK = 0.45;
/** The board's centre when its left end (2.5 m from the centre) sits on the wall's anchor at (-4, 1). */
const PLUCKED_POSITION: [number, number] = [-4 + 2.5 * Math.cos(PLUCK), 1 + 2.5 * Math.sin(PLUCK)];

/**
 * A diving board welded to a wall by a soft weld, with a weight at its tip. It starts bent up by
 * PLUCK radians and is let go, so the weld visibly springs back, overshoots and wobbles (a board
 * that starts level only sags a little, and sleeps within a second, before a user has looked).
 */
function DivingBoardScene(joint: Controls) {
  const wall = useRef<EngineBody>(null);
  const board = useRef<EngineBody>(null);
  return (
    <>
      <Floor />
      <Anchor bodyRef={wall} position={[-4, 1]} size={0.6} />
      <Body ref={board} position={PLUCKED_POSITION} rotation={PLUCK} userData={DRAG_HANDLE} {...SETTLE}>
        <Box width={5} height={0.3} />
        <Circle radius={0.4} offset={[2.2, 0.55]} density={3} />
      </Body>
      <WeldJoint body1={wall} body2={board} {...joint} />
    </>
  );
}

const meta = {
  title: 'Joints/Weld',
  component: DivingBoardScene,
  tags: ['joint', 'settles'],
  args: { ...COMMON_CONSTRAINT_ARGS, stiff: false, frequency: 2, damping: 0.1, anchor1: [0, 0], anchor2: [-2.5, 0], phase: 0 },
  argTypes: { ...ANCHOR_ARG_TYPES, phase: { ...range(-3.2, 3.2, 0.05), description: 'Target angle of the board relative to the wall (rad).' }, ...COMMON_CONSTRAINT_ARG_TYPES },
  parameters: { fulcrum: { controlChange: { phase: 0.8 } } satisfies FulcrumParameters },
} satisfies Meta<typeof DivingBoardScene>;

export default meta;

/** A soft weld: raise `frequency` or tick `stiff` to stiffen the board, turn `phase` to tilt it. */
export const DivingBoard: StoryObj<typeof meta> = {};
