import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, Circle, useAfterStep } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useLayoutEffect, useRef, useState } from 'react';
import { range } from '../support/controls';
import { accent } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';
import { DRAG_HANDLE, Floor } from '../support/scenery';

interface Controls {
  /** Mean muzzle speed, m/s: each shot is fired at 0.8–1.2 × this (200–300 m/s by default). */
  speed: number;
  /** The shots' Body.disableCCD: no continuous collision for them, so they tunnel. */
  disableCCD: boolean;
}

const FLOOR_TOP = -5;
/** The wall: 5 cm thick, standing on the floor, its middle at x = WALL_X. */
const WALL_X = 2;
const WALL_THICKNESS = 0.05;
const WALL_TOP = 4;
/** Shots start just off the canvas's left edge (it shows x from −10 to 10). */
const MUZZLE_X = -10.5;
const SHOT_RADIUS = 0.1;
/** One shot every 15 steps (4 a second); the last 24 stay in the scene. */
const FIRE_EVERY = 15;
const MAX_SHOTS = 24;

interface Shot {
  key: number;
  position: [number, number];
  velocity: [number, number];
}

/** A repeatable spread (a sine hash): the same shots after every reset. */
const spread = (n: number, salt: number) => {
  const s = Math.sin(n * 12.9898 + salt * 78.233) * 43758.5453;
  return s - Math.floor(s);
};

/** Shot n: from a height of −3.5…3.5 m, aimed at a point of the wall between −3.5 and 3.5 m. */
function makeShot(n: number, speed: number): Shot {
  const y = -3.5 + 7 * spread(n, 1);
  const target = -3.5 + 7 * spread(n, 2);
  const v = speed * (0.8 + 0.4 * spread(n, 3));
  const a = Math.atan2(target - y, WALL_X - MUZZLE_X);
  return { key: n, position: [MUZZLE_X, y], velocity: [v * Math.cos(a), v * Math.sin(a)] };
}

const readout = createReadout('bullet-readings');

/**
 * Continuous collision: small balls fired at 200–300 m/s (3.3–5 m per 1/60 s step) at a static
 * wall 5 cm thick. Every dynamic body is swept against static ones, so none passes; the shots are
 * also `isBullet`, which sweeps them against dynamic bodies (the crate) too. Turn on `disableCCD`
 * and they tunnel: each step they jump from in front of the wall to behind it.
 */
function BulletsScene({ speed, disableCCD }: Controls) {
  const [shots, setShots] = useState<Shot[]>(() => [makeShot(0, speed)]);
  const count = useRef({ steps: 0, fired: 1, through: 0, last: shots[0]! });
  /** Where each shot was after the previous step (to see it cross the wall's plane). */
  const previous = useRef(new WeakMap<EngineBody, { x: number; y: number }>());
  useLayoutEffect(() => readout.set(''), []);

  useAfterStep((space) => {
    const c = count.current;
    const gone = new Set<number>();
    for (const b of space.bodies) {
      const shot = (b.userData as { shot?: Shot } | undefined)?.shot;
      if (!shot) continue;
      const from = previous.current.get(b) ?? { x: shot.position[0], y: shot.position[1] };
      // Crossed the wall's plane below its top this step: through the wall, not over it.
      if (from.x < WALL_X && b.x >= WALL_X) {
        const yAtWall = from.y + ((b.y - from.y) * (WALL_X - from.x)) / (b.x - from.x);
        if (yAtWall < WALL_TOP) c.through++;
      }
      previous.current.set(b, { x: b.x, y: b.y });
      if (Math.abs(b.x) > 12 || b.y < FLOOR_TOP - 3) gone.add(shot.key);
    }
    if (++c.steps % FIRE_EVERY === 0) {
      const shot = makeShot(c.fired++, speed);
      c.last = shot;
      setShots((list) => [...list.filter((s) => !gone.has(s.key)).slice(-(MAX_SHOTS - 1)), shot]);
    }
    const v = Math.hypot(...c.last.velocity);
    readout.set(
      `shots fired: ${c.fired} · through the wall: ${c.through} · last shot ${v.toFixed(0)} m/s, ${(v / 60).toFixed(1)} m per step against a ${WALL_THICKNESS * 100} cm wall · ` +
        `continuous collision: ${disableCCD ? 'off (disableCCD)' : 'on'}`,
    );
  });

  return (
    <>
      <Floor top={FLOOR_TOP} />
      <Body type="static" position={[WALL_X, (FLOOR_TOP + WALL_TOP) / 2]}>
        <Box width={WALL_THICKNESS} height={WALL_TOP - FLOOR_TOP} friction={0.8} />
      </Body>
      {/* What the wall protects. */}
      <Body position={[6, FLOOR_TOP + 0.6]} userData={DRAG_HANDLE}>
        <Box width={1.2} height={1.2} friction={0.8} color={accent.subject} />
      </Body>
      {shots.map((shot) => (
        <Body key={shot.key} position={shot.position} velocity={shot.velocity} isBullet disableCCD={disableCCD} userData={{ shot }}>
          <Circle radius={SHOT_RADIUS} density={4} friction={0.5} color={accent.projectile} />
        </Body>
      ))}
    </>
  );
}

const meta = {
  title: 'Scenes/Bullets and a thin wall',
  component: BulletsScene,
  args: { speed: 250, disableCCD: false },
  argTypes: {
    speed: { ...range(50, 400, 10), description: 'Mean muzzle speed (m/s); each shot varies by ±20%.' },
    disableCCD: { control: 'boolean', description: "The shots' Body.disableCCD: no continuous collision, so they pass through the wall." },
  },
  parameters: { fulcrum: { panel: readout.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof BulletsScene>;

export default meta;

/** No shot passes the 5 cm wall; with `disableCCD` they tunnel through it and hit the crate. */
export const ThinWall: StoryObj<typeof meta> = {};
