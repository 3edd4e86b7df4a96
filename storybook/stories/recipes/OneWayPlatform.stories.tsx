import { Body, Box, Circle, useAfterStep } from '@fulcrum/react';
import type { Body as EngineBody } from '@fulcrum/physics';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { createRef, useMemo, type RefObject } from 'react';
import { range } from '../support/controls';
import { accent } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';

interface Controls {
  /** Balls thrown up from the floor. */
  balls: number;
}

const readout = createReadout('one-way');
/** The platform's top surface (y, metres): its body at y 0, its box 0.3 m tall. */
const PLATFORM_TOP = 0.15;
const BALL_RADIUS = 0.3;

/**
 * A one-way platform is one prop: `oneWay` on the platform's shape. A contact with a body below
 * the shape's top (its local +y) is ignored for as long as the two touch, so a ball thrown up from
 * the floor passes through; once it falls back onto the top from above, the platform holds it. The
 * ready-made rule is a pre-solve callback (`usePreSolve` for your own rules); `oneWay={[x, y]}`
 * picks another side. The readout counts the balls resting on the platform.
 */
function OneWayPlatformScene({ balls }: Controls) {
  const refs = useMemo(() => Array.from({ length: balls }, () => createRef<EngineBody>()), [balls]);
  useAfterStep(() => {
    let on = 0;
    for (const r of refs) {
      const b = r.current;
      if (b && b.y > PLATFORM_TOP && b.y < PLATFORM_TOP + 2 * BALL_RADIUS && Math.abs(b.velocity.y) < 0.05) on++;
    }
    readout.set(`on the platform: ${on} of ${balls}`);
  });
  return (
    <>
      <Body type="static" position={[0, -4.25]}>
        <Box width={20} height={0.5} />
      </Body>
      <Body type="static" position={[0, 0]}>
        <Box width={9} height={0.3} oneWay color={accent.machine} />
      </Body>
      {refs.map((ref, i) => (
        <Ball key={i} bodyRef={ref} x={-3 + (6 * i) / Math.max(1, balls - 1)} />
      ))}
    </>
  );
}

function Ball({ bodyRef, x }: { bodyRef: RefObject<EngineBody | null>; x: number }) {
  // From the floor at 11 m/s: it rises about 6 m, through the platform 3.7 m up, and falls back on it.
  return (
    <Body ref={bodyRef} position={[x, -3.7]} velocity={[0, 11]} angularDrag={0.5}>
      <Circle radius={BALL_RADIUS} friction={0.6} color={accent.projectile} />
    </Body>
  );
}

const meta = {
  title: 'Recipes/One-way platform',
  component: OneWayPlatformScene,
  tags: ['settles'],
  args: { balls: 3 },
  argTypes: { balls: { ...range(1, 6, 1), description: 'Balls thrown up from the floor through the platform.' } },
  parameters: { fulcrum: { panel: readout.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof OneWayPlatformScene>;

export default meta;

export const ThreeBalls: StoryObj<typeof meta> = { name: 'Three balls' };
