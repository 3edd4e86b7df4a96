import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Circle, DistanceJoint, useAfterStep } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef } from 'react';
import { range } from '../support/controls';
import { accent } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';
import { Anchor, DRAG_HANDLE, Floor } from '../support/scenery';

interface Controls {
  /** The rope's length: the DistanceJoint's jointMax, metres. */
  length: number;
}

const HOOK: [number, number] = [0, 4];
const readout = createReadout('rope-readings');

/**
 * A rope is a DistanceJoint with jointMin 0: it holds the distance at most `length`, and is slack
 * below it (a rod would have jointMin = jointMax). The ball starts near the hook, falls freely
 * until the rope is taut, then swings on it. Under the canvas: the distance now, and the longest
 * and shortest distances since the scene started.
 */
function RopeScene({ length }: Controls) {
  const hook = useRef<EngineBody>(null);
  const ball = useRef<EngineBody>(null);
  const extremes = useRef({ longest: 0, shortest: Infinity });
  useAfterStep(() => {
    const b = ball.current;
    if (!b) return;
    const now = Math.hypot(b.position.x - HOOK[0], b.position.y - HOOK[1]);
    const e = extremes.current;
    e.longest = Math.max(e.longest, now);
    e.shortest = Math.min(e.shortest, now);
    readout.set(`rope ${length.toFixed(2)} m · distance now ${now.toFixed(3)} m · longest ${e.longest.toFixed(3)} m · shortest ${e.shortest.toFixed(3)} m`);
  });
  return (
    <>
      <Floor />
      <Anchor bodyRef={hook} position={HOOK} />
      <Body ref={ball} position={[-1.5, 3]} velocity={[2, 3]} userData={DRAG_HANDLE} linearDrag={0.5}>
        <Circle radius={0.4} color={accent.subject} />
      </Body>
      <DistanceJoint body1={hook} body2={ball} jointMin={0} jointMax={length} />
    </>
  );
}

const meta = {
  title: 'Recipes/Rope',
  component: RopeScene,
  tags: ['settles'],
  args: { length: 4 },
  argTypes: { length: { ...range(0.5, 8, 0.1), description: "The rope's length, the DistanceJoint's jointMax (m)." } },
  parameters: { fulcrum: { panel: readout.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof RopeScene>;

export default meta;

/** Slack, then taut: the distance under the canvas never goes past the rope's length. */
export const BallOnARope: StoryObj<typeof meta> = { name: 'Ball on a rope' };
