import { Body, Box, Circle, Segment, type BodyContactEvent } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useLayoutEffect, useRef } from 'react';
import { range } from '../support/controls';
import { accent } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';

interface Controls {
  /** Balls on the ramp (a new one starts at the top). */
  balls: number;
}

const readout = createReadout('goal-count');
const RAMP: [[number, number], [number, number]] = [
  [-9, 3],
  [2.5, -2],
];
const BALL_RADIUS = 0.35;

/** A point on the ramp's surface at x, lifted by the ball's radius along its normal. */
function onRamp(x: number): [number, number] {
  const [[x1, y1], [x2, y2]] = RAMP;
  const slope = (y2 - y1) / (x2 - x1);
  const lift = BALL_RADIUS * Math.hypot(1, slope);
  return [x, y1 + slope * (x - x1) + lift];
}

/**
 * A goal that counts: a static body with a sensor shape sits in a cup at the foot of a ramp. A
 * sensor reports contacts but never collides, so each ball rolls down, drops into the cup, passes
 * into the sensor and settles in it; the goal's `onBeginContact` adds the ball to the count under
 * the canvas. Each ball counts once: the handler keeps the ids of the bodies it has seen (a ball
 * bouncing out and back in would begin a second contact).
 */
function SensorGoalScene({ balls }: Controls) {
  const scored = useRef(new Set<number>());
  useLayoutEffect(() => readout.set(`goals: ${scored.current.size}`), []);
  const onBeginContact = (e: BodyContactEvent) => {
    if (e.other.type !== 'dynamic') return;
    scored.current.add(e.other.id);
    readout.set(`goals: ${scored.current.size}`);
  };
  return (
    <>
      <Body type="static">
        <Segment p1={RAMP[0]} p2={RAMP[1]} friction={0.6} />
        {/* The cup: a floor, a low front wall and a tall back wall. */}
        <Box width={5} height={0.4} offset={[6, -4.7]} />
        <Box width={0.3} height={1.6} offset={[3.65, -3.7]} />
        <Box width={0.3} height={5} offset={[8.35, -2.5]} />
      </Body>
      <Body type="static" position={[6, -3.75]} onBeginContact={onBeginContact}>
        <Box width={4.4} height={1.5} sensor />
      </Body>
      {Array.from({ length: balls }, (_, i) => (
        <Ball key={i} start={onRamp(-8.5 + 1.1 * i)} dragHandle={i === 0} />
      ))}
    </>
  );
}

function Ball({ start, dragHandle }: { start: [number, number]; dragHandle: boolean }) {
  return (
    <Body position={start} angularDrag={0.3} linearDrag={0.1} userData={dragHandle ? { dragHandle: true } : undefined}>
      <Circle radius={BALL_RADIUS} friction={0.6} restitution={0.2} color={accent.projectile} />
    </Body>
  );
}

const meta = {
  title: 'Recipes/Sensor goal',
  component: SensorGoalScene,
  tags: ['settles'],
  args: { balls: 3 },
  argTypes: { balls: { ...range(1, 8, 1), description: 'Balls on the ramp; a new one starts at the top and scores too.' } },
  parameters: { fulcrum: { panel: readout.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof SensorGoalScene>;

export default meta;

/** Three balls roll into the goal; the count under the canvas reaches 3. */
export const ThreeBalls: StoryObj<typeof meta> = { name: 'Three balls' };
