import { Body, Box, useAfterStep, useBeforeStep } from '@fulcrum/react';
import type { Body as EngineBody } from '@fulcrum/physics';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef } from 'react';
import { range } from '../support/controls';
import { accent } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';

interface Controls {
  /** How far the platform travels each way from the middle, metres. */
  amplitude: number;
  /** Seconds for one trip there and back. */
  period: number;
}

const readout = createReadout('moving-platform-target');
const PLATFORM_Y = -2;

/**
 * A moving platform that carries what stands on it: a kinematic body steered to a target before
 * every step. `setVelocityFromTarget(position, rotation, dt)` (Nape's name) gives it the velocity
 * that takes it there in that step, so friction carries the crate along; setting `position`
 * instead would teleport the platform and leave the crate behind. The `<Body type="kinematic"
 * target={[x, y]}>` prop does the same from React, once per render: the body reaches each new
 * target by the end of the frame and stops there. A path known as a function of time, as here,
 * can be steered in `useBeforeStep` instead, which runs before each step with its dt, and renders
 * nothing. The readout shows the platform's x and how far the crate has slipped on it since the
 * start.
 */
function MovingPlatformScene({ amplitude, period }: Controls) {
  const platform = useRef<EngineBody>(null);
  const crate = useRef<EngineBody>(null);
  const time = useRef(0);
  const start = useRef<number | null>(null);
  useBeforeStep((_space, dt) => {
    time.current += dt;
    // From rest at −amplitude, to +amplitude and back: a smooth start, so nothing is jerked off.
    const x = -amplitude * Math.cos((2 * Math.PI * time.current) / period);
    platform.current?.setVelocityFromTarget([x, PLATFORM_Y], 0, dt);
  });
  useAfterStep(() => {
    const p = platform.current, c = crate.current;
    if (!p || !c) return;
    const offset = c.x - p.x;
    start.current ??= offset;
    const onTop = c.y > PLATFORM_Y && c.y < PLATFORM_Y + 1.5;
    readout.set(`platform x ${p.x.toFixed(2)} m; crate ${onTop ? 'on it' : 'off it'}, slipped ${Math.abs(offset - start.current).toFixed(3)} m`);
  });
  return (
    <>
      <Body type="static" position={[0, -5]}>
        <Box width={24} height={0.5} />
      </Body>
      <Body ref={platform} type="kinematic" position={[-amplitude, PLATFORM_Y]}>
        <Box width={4} height={0.3} color={accent.machine} />
      </Body>
      <Body ref={crate} position={[-amplitude, PLATFORM_Y + 0.65]} userData={{ dragHandle: true }}>
        <Box width={1} height={1} friction={0.8} color={accent.subject} />
      </Body>
    </>
  );
}

const meta = {
  title: 'Recipes/Moving platform',
  component: MovingPlatformScene,
  args: { amplitude: 4, period: 8 },
  argTypes: {
    amplitude: { ...range(1, 8, 0.5), description: 'How far the platform travels each way, m.' },
    period: { ...range(3, 12, 0.5), description: 'Seconds for a trip there and back.' },
  },
  parameters: { fulcrum: { panel: readout.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof MovingPlatformScene>;

export default meta;

export const Carried: StoryObj<typeof meta> = { name: 'Carried' };
