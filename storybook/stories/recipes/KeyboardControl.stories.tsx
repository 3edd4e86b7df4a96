import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, useAfterStep, usePhysics } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useEffect, useRef } from 'react';
import { range } from '../support/controls';
import { accent } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';
import { DRAG_HANDLE, Floor } from '../support/scenery';

interface Controls {
  /** The change of velocity one key press gives, m/s. */
  push: number;
}

/** Arrow keys: the direction each one pushes in. */
const DIRECTIONS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, 1.6],
};

const readout = createReadout('keyboard-readings');

/**
 * Keyboard control under frameloop="demand". The box rests and sleeps, so nothing is drawn and
 * nothing steps; a key press still moves it. The keydown listener is outside React and outside the
 * frame loop: it applies an impulse to the engine body, which wakes it, and a wake requests a
 * frame (so does `requestFrame()`, called anyway for the edits that wake nothing). The frames then
 * go on while the box moves, and stop when it sleeps again.
 */
function KeyboardScene({ push }: Controls) {
  const box = useRef<EngineBody>(null);
  const physics = usePhysics();
  const presses = useRef(0);
  useEffect(() => {
    const onKeyDown = (e: KeyboardEvent) => {
      const direction = DIRECTIONS[e.key];
      const body = box.current;
      if (!direction || !body) return;
      e.preventDefault(); // the arrows would scroll the page
      body.applyImpulse([direction[0] * push * body.mass, direction[1] * push * body.mass]);
      physics.requestFrame();
      presses.current++;
    };
    window.addEventListener('keydown', onKeyDown);
    return () => window.removeEventListener('keydown', onKeyDown);
  }, [physics, push]);
  useAfterStep(() => {
    const b = box.current;
    if (b) readout.set(`box at x = ${b.position.x.toFixed(2)} m · key presses: ${presses.current} · ${b.isSleeping ? 'asleep' : 'awake'}`);
  });
  return (
    <>
      <Floor />
      <Body type="static">
        <Box width={0.5} height={6} offset={[-9.75, -2]} />
        <Box width={0.5} height={6} offset={[9.75, -2]} />
      </Body>
      <Body ref={box} position={[0, -3]} userData={DRAG_HANDLE}>
        <Box width={1.2} height={1.2} friction={0.5} color={accent.subject} />
      </Body>
    </>
  );
}

const meta = {
  title: 'Recipes/Keyboard control',
  component: KeyboardScene,
  tags: ['settles'],
  args: { push: 4 },
  argTypes: { push: { ...range(0.5, 10, 0.5), description: 'The change of velocity one key press gives (m/s).' } },
  parameters: { fulcrum: { panel: readout.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof KeyboardScene>;

export default meta;

/** Click the canvas, then press ← → to push the box and ↑ to make it jump. */
export const ArrowKeys: StoryObj<typeof meta> = { name: 'Arrow keys' };
