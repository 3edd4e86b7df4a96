import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, useAfterStep, useBeforeStep } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useLayoutEffect, useRef, useState } from 'react';
import { range } from '../support/controls';
import { accent } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';
import { DRAG_HANDLE, Floor } from '../support/scenery';

interface Controls {
  /** Half the platform's travel, m. */
  amplitude: number;
  /** Seconds for one trip there and back. */
  period: number;
}

const PLATFORM_Y = -1;
const PLATFORM_WIDTH = 5;
const PLATFORM_THICKNESS = 0.4;
const TOP = PLATFORM_Y + PLATFORM_THICKNESS / 2;
/** The boxes, platform-local [x, y of the centre, size]: two cubes, and a small stack of two. */
const BOXES: [number, number, number][] = [
  [-1.6, TOP - PLATFORM_Y + 0.5, 1],
  [0, TOP - PLATFORM_Y + 0.4, 0.8],
  [0, TOP - PLATFORM_Y + 1.1, 0.6],
  [1.6, TOP - PLATFORM_Y + 0.5, 1],
];
/** How fast an amplitude change is followed, m/s (a jump would fling the boxes off). */
const AMPLITUDE_RATE = 0.5;
/** Boxes slip from where they sit after this many steps (they land first). */
const SETTLE_STEPS = 60;

const readout = createReadout('platform-readings');

/**
 * A kinematic platform moving back and forth, x = −amplitude·cos(2πt/period), driven before each
 * step with Body.setVelocityFromTarget (Nape's name): it arrives at each target exactly, and its
 * velocity is what friction carries the boxes with. (Setting its position would teleport it from
 * under them.) It starts at rest at one end, so the boxes are never asked for more than
 * amplitude·(2π/period)² of acceleration: 4.4 m/s² at the defaults, within friction's 0.8·g.
 */
function MovingPlatformScene({ amplitude, period }: Controls) {
  const platform = useRef<EngineBody>(null);
  const [start] = useState<[number, number]>(() => [-amplitude, PLATFORM_Y]);
  const motion = useRef({ phase: 0, amplitude });

  useBeforeStep((_, dt) => {
    const p = platform.current;
    if (!p) return;
    const m = motion.current;
    m.amplitude += Math.max(-AMPLITUDE_RATE * dt, Math.min(AMPLITUDE_RATE * dt, amplitude - m.amplitude));
    m.phase += (2 * Math.PI * dt) / period;
    p.setVelocityFromTarget([-m.amplitude * Math.cos(m.phase), PLATFORM_Y], 0, dt);
  });

  const boxes = useRef<(EngineBody | null)[]>([]);
  const watch = useRef({ steps: 0, minX: Infinity, maxX: -Infinity, turns: 0, lastVx: 0, rest: [] as { x: number; y: number }[], slip: 0 });
  useLayoutEffect(() => readout.set(''), []);

  useAfterStep(() => {
    const p = platform.current;
    if (!p) return;
    const w = watch.current;
    w.steps++;
    w.minX = Math.min(w.minX, p.x);
    w.maxX = Math.max(w.maxX, p.x);
    const vx = p.velocity.x;
    if (w.lastVx !== 0 && Math.sign(vx) !== Math.sign(w.lastVx)) w.turns++;
    if (vx !== 0) w.lastVx = vx;
    let on = 0;
    boxes.current.forEach((b, i) => {
      if (!b) return;
      const local = p.worldPointToLocal(b.position);
      if (Math.abs(local.x) < PLATFORM_WIDTH / 2 && local.y > 0 && local.y < 3) on++;
      if (w.steps === SETTLE_STEPS) w.rest[i] = local;
      const r = w.rest[i];
      if (r) w.slip = Math.max(w.slip, Math.hypot(local.x - r.x, local.y - r.y));
    });
    readout.set(
      `platform at x = ${p.x.toFixed(2)} m · travel ${(w.maxX - w.minX).toFixed(1)} m, turned ${w.turns} times · ` +
        `boxes on the platform: ${on} / ${BOXES.length} · the most a box slipped on it: ${w.slip.toFixed(2)} m`,
    );
  });

  return (
    <>
      <Floor />
      <Body ref={platform} type="kinematic" position={start}>
        <Box width={PLATFORM_WIDTH} height={PLATFORM_THICKNESS} friction={0.8} />
      </Body>
      {BOXES.map(([x, y, size], i) => (
        <Body
          key={i}
          ref={(b: EngineBody | null) => {
            boxes.current[i] = b;
          }}
          position={[start[0] + x, PLATFORM_Y + y]}
          userData={i === 0 ? DRAG_HANDLE : undefined}
        >
          <Box width={size} height={size} friction={0.8} color={accent.subject} />
        </Body>
      ))}
    </>
  );
}

const meta = {
  title: 'Scenes/Moving platform',
  component: MovingPlatformScene,
  args: { amplitude: 4, period: 6 },
  argTypes: {
    amplitude: { ...range(0.5, 6, 0.5), description: "Half the platform's travel (m)." },
    period: { ...range(2, 12, 0.5), description: 'Seconds there and back. Below about 4.5 s (at amplitude 4) friction cannot hold the boxes.' },
  },
  parameters: { fulcrum: { panel: readout.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof MovingPlatformScene>;

export default meta;

/** A kinematic platform (setVelocityFromTarget in useBeforeStep) carries four boxes by friction. */
export const CarriedBoxes: StoryObj<typeof meta> = {};
