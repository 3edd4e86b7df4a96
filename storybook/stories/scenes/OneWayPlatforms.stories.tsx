import type { Body as EngineBody, Contact, PreSolveFlag } from '@fulcrum/physics';
import { Body, Box, Circle, useAfterStep, useSpace } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useLayoutEffect, useRef, useState } from 'react';
import { range } from '../support/controls';
import { accent } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';
import { Floor } from '../support/scenery';

interface Controls {
  /** How far above its platform's top each ball is thrown, m. */
  throwHeight: number;
}

const FLOOR_TOP = -5;
const THICKNESS = 0.3;
const WIDTH = 4;
const PLATFORMS = [
  { x: -5, y: -1.5 },
  { x: 0, y: 1 },
  { x: 5, y: -0.5 },
].map((p) => ({ ...p, top: p.y + THICKNESS / 2 }));
const BALL_RADIUS = 0.35;
/** Where the balls are thrown from, straight up under a platform, one every 24 steps (0.4 s). */
const THROWS = [-6.2, 3.8, -1.2, 6.2, -5, 0, 5, -3.8, 1.2];
const THROW_EVERY = 24;
const START_Y = FLOOR_TOP + BALL_RADIUS + 0.05;

const platformUnder = (x: number) => PLATFORMS.find((p) => Math.abs(p.x - x) < WIDTH / 2)!;
/** A platform's top, from its body's userData (undefined for anything else). */
const oneWayTop = (b: EngineBody) => (b.userData as { oneWayTop?: number } | undefined)?.oneWayTop;

/**
 * The one-way rule, as a Space.preSolve callback (Nape's PreListener). A contact with a platform
 * is ignored while it touches if the other body comes from below: its centre under the platform's
 * top, or still rising. A falling body's centre can be a step's travel into the platform when the
 * contact begins, so its lowest point would be no test. Otherwise it is accepted, and holds.
 */
function oneWay(c: Contact): PreSolveFlag | void {
  const top1 = oneWayTop(c.body1);
  const top = top1 ?? oneWayTop(c.body2);
  if (top === undefined) return;
  const other = top1 !== undefined ? c.body2 : c.body1;
  return other.worldCenter.y < top || other.velocity.y > 0 ? 'ignore' : 'accept';
}

const readout = createReadout('one-way-readings');

/**
 * One-way platforms: balls thrown up from the floor pass through the platforms and land on them.
 * The platforms are plain static boxes; the space's preSolve callback decides, contact by contact.
 */
function OneWayScene({ throwHeight }: Controls) {
  const space = useSpace();
  // Installed for the scene's lifetime, and taken out again on unmount.
  useLayoutEffect(() => {
    const before = space.preSolve;
    space.preSolve = oneWay;
    return () => {
      space.preSolve = before;
    };
  }, [space]);

  const [thrown, setThrown] = useState(1);
  const state = useRef({ steps: 0, thrown: 1, wentThrough: new Set<number>() });
  useLayoutEffect(() => readout.set(''), []);

  useAfterStep((s) => {
    const st = state.current;
    if (++st.steps % THROW_EVERY === 0 && st.thrown < THROWS.length) setThrown(++st.thrown);
    let resting = 0;
    for (const b of s.bodies) {
      const ball = (b.userData as { ball?: number } | undefined)?.ball;
      if (ball === undefined) continue;
      // Up through its platform: the whole ball above the top, within the platform's span.
      const p = platformUnder(THROWS[ball]!);
      if (b.y - BALL_RADIUS > p.top && Math.abs(b.x - p.x) < WIDTH / 2) st.wentThrough.add(ball);
      // Resting on a platform: touching one from above, not moving up or down.
      const onTop = b.contacts.some((c) => {
        if (!c.touching || c.isSensor) return false;
        const top = oneWayTop(c.body1 === b ? c.body2 : c.body1);
        return top !== undefined && b.y > top;
      });
      if (onTop && Math.abs(b.velocity.y) < 0.05) resting++;
    }
    readout.set(`thrown: ${st.thrown} / ${THROWS.length} · went up through a platform: ${st.wentThrough.size} · resting on a platform: ${resting}`);
  });

  return (
    <>
      <Floor top={FLOOR_TOP} />
      {PLATFORMS.map((p) => (
        <Body key={p.x} type="static" position={[p.x, p.y]} userData={{ oneWayTop: p.top }}>
          <Box width={WIDTH} height={THICKNESS} friction={0.8} color={0x8fb996} />
        </Body>
      ))}
      {THROWS.slice(0, thrown).map((x, i) => {
        const apex = platformUnder(x).top + BALL_RADIUS + throwHeight;
        return (
          // The throw is an initial velocity: a later throwHeight applies to the next throws.
          <BallThrow key={i} index={i} x={x} speed={Math.sqrt(2 * 9.81 * (apex - START_Y))} />
        );
      })}
    </>
  );
}

/** A ball thrown straight up; its initial velocity is fixed at mount (a control change throws no ball again). */
function BallThrow({ index, x, speed }: { index: number; x: number; speed: number }) {
  const [velocity] = useState<[number, number]>(() => [0, speed]);
  return (
    <Body position={[x, START_Y]} velocity={velocity} userData={{ ball: index, dragHandle: index === 0 }}>
      <Circle radius={BALL_RADIUS} friction={0.8} restitution={0.1} color={accent.projectile} />
    </Body>
  );
}

const meta = {
  title: 'Scenes/One-way platforms',
  component: OneWayScene,
  tags: ['settles'],
  args: { throwHeight: 1.5 },
  argTypes: { throwHeight: { ...range(0.5, 4, 0.1), description: "How high above its platform's top each ball is thrown (m); applies to the next throws (reset to throw again)." } },
  parameters: { fulcrum: { panel: readout.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof OneWayScene>;

export default meta;

/** Nine balls thrown up through three platforms land on them (the preSolve callback's one-way rule). */
export const ThrownUpThrough: StoryObj<typeof meta> = {};
