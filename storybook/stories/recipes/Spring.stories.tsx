import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, DistanceJoint, useAfterStep } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useLayoutEffect, useRef } from 'react';
import { range } from '../support/controls';
import { accent } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';
import { Anchor, DRAG_HANDLE, Floor } from '../support/scenery';

interface Controls {
  /** The spring's natural frequency, Hz (the joint's `frequency`). */
  frequency: number;
  /** Its damping ratio (the joint's `damping`): 0 none, 1 critical. */
  damping: number;
}

const HOOK: [number, number] = [0, 4];
const REST_LENGTH = 3;
/** How far below its rest length the block starts, metres. */
const PULL = 1.5;
/** Tops of the bounce kept for the measurement. */
const TOPS = 6;

const readout = createReadout('spring-readings');

/**
 * A spring is a soft DistanceJoint whose jointMin = jointMax is the rest length: `stiff={false}`
 * makes the joint a spring of natural frequency `frequency` and damping ratio `damping`, whatever
 * the masses (its stiffness follows the effective mass). A block hangs from it, pulled down and let
 * go. Under the canvas: the frequency measured from the times of the last tops of its bounce (in
 * simulated time), and the one a damped oscillator has, f·√(1 − ζ²).
 */
function SpringScene({ frequency, damping }: Controls) {
  const hook = useRef<EngineBody>(null);
  const block = useRef<EngineBody>(null);
  const clock = useRef({ time: 0, lastVy: 0, tops: [] as number[] });
  // A new spring starts a new measurement.
  useLayoutEffect(() => {
    clock.current.tops = [];
  }, [frequency, damping]);
  useAfterStep((_space, dt) => {
    const b = block.current;
    if (!b) return;
    const c = clock.current;
    const vy = b.velocity.y;
    // A top: the vertical velocity goes from up to down; interpolate the moment it was 0.
    if (c.lastVy > 0 && vy <= 0) {
      c.tops.push(c.time + (dt * c.lastVy) / (c.lastVy - vy));
      if (c.tops.length > TOPS) c.tops.shift();
    }
    c.lastVy = vy;
    c.time += dt;
    const expected = frequency * Math.sqrt(Math.max(0, 1 - damping * damping));
    const periods = c.tops.length - 1;
    const measured = periods > 0 ? periods / (c.tops[periods]! - c.tops[0]!) : NaN;
    readout.set(
      `spring ${frequency.toFixed(2)} Hz, damping ${damping.toFixed(2)} · damped frequency f·√(1 − ζ²) = ${expected.toFixed(3)} Hz · ` +
        (periods > 0 ? `measured ${measured.toFixed(3)} Hz over ${periods} period${periods === 1 ? '' : 's'}` : 'measuring…'),
    );
  });
  return (
    <>
      <Floor />
      <Anchor bodyRef={hook} position={HOOK} />
      <Body ref={block} position={[HOOK[0], HOOK[1] - REST_LENGTH - PULL]} userData={DRAG_HANDLE}>
        <Box width={1.2} height={0.8} color={accent.subject} />
      </Body>
      <DistanceJoint body1={hook} body2={block} jointMin={REST_LENGTH} jointMax={REST_LENGTH} stiff={false} frequency={frequency} damping={damping} />
    </>
  );
}

const meta = {
  title: 'Recipes/Spring',
  component: SpringScene,
  tags: ['settles'],
  args: { frequency: 1.5, damping: 0.05 },
  argTypes: {
    frequency: { ...range(0.2, 5, 0.1), description: "The spring's natural frequency (Hz): the soft joint's `frequency`." },
    damping: { ...range(0, 1.5, 0.01), description: 'The damping ratio: the soft joint\'s `damping` (1 is critical).' },
  },
  parameters: { fulcrum: { panel: readout.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof SpringScene>;

export default meta;

/** A block bouncing on a spring at the frequency the joint is given. */
export const BouncingBlock: StoryObj<typeof meta> = { name: 'Bouncing block' };
