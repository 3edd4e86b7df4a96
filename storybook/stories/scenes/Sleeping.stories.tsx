import { Body, Box, Circle } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useState } from 'react';
import { range } from '../support/controls';
import { accent } from '../support/palette';
import { DRAG_HANDLE, Floor } from '../support/scenery';

const AWAKE = accent.subject;
const ASLEEP = accent.contrast;

/** A box coloured by its own island state, from the body's onSleep / onWake events. */
function SleepyBox({ position, handle }: { position: [number, number]; handle?: boolean }) {
  const [asleep, setAsleep] = useState(false);
  return (
    <Body position={position} userData={handle ? DRAG_HANDLE : undefined} onSleep={() => setAsleep(true)} onWake={() => setAsleep(false)}>
      <Box width={0.9} height={0.9} friction={0.8} color={asleep ? ASLEEP : AWAKE} />
    </Body>
  );
}

interface Controls {
  /** Boxes per stack. */
  height: number;
}

/**
 * Three stacks (three islands): each box is orange while awake and blue once its island sleeps.
 * Drag one stack and only that island wakes; a ball dropped on the middle stack wakes it later.
 */
function StacksScene({ height }: Controls) {
  const stacks = [-5, 0, 5];
  return (
    <>
      <Floor />
      {stacks.map((x, s) =>
        Array.from({ length: height }, (_, i) => <SleepyBox key={`${s}-${i}`} position={[x + (i % 2) * 0.05, -4.5 + i * 0.95]} handle={s === 0 && i === 0} />),
      )}
      <BallOnTheWay />
    </>
  );
}

function BallOnTheWay() {
  const [asleep, setAsleep] = useState(false);
  return (
    <Body position={[0, 9]} onSleep={() => setAsleep(true)} onWake={() => setAsleep(false)}>
      <Circle radius={0.4} density={2} color={asleep ? ASLEEP : accent.projectile} />
    </Body>
  );
}

const meta = {
  title: 'Scenes/Sleeping',
  component: StacksScene,
  tags: ['settles'],
  args: { height: 5 },
  argTypes: { height: range(1, 10, 1) },
  parameters: { fulcrum: { center: [0, 0] } },
} satisfies Meta<typeof StacksScene>;

export default meta;

/** Islands fall asleep: orange = awake, blue = asleep (onSleep / onWake). */
export const IslandColours: StoryObj<typeof meta> = {};
