import { Body as EngineBody, Chain } from '@fulcrum/physics';
import { Body, Circle, useAfterStep, usePhysics, useSpace } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { range } from '../support/controls';
import { accent, bodyColors } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';
import { DRAG_HANDLE } from '../support/scenery';

interface Controls {
  /** How hilly the terrain is: the height of its largest wave, m. */
  hills: number;
  /** The ball's speed at the start, m/s, to the right. */
  push: number;
}

/** The terrain: 200 points from x = −10 to 10 (a point every 10 cm), a sum of gentle waves. */
const POINTS = 200;
const LEFT = -10;
const RIGHT = 10;

function terrain(hills: number): [number, number][] {
  const out: [number, number][] = [];
  // Right to left: a chain is solid on the right of each segment p1 → p2, so listed right to left
  // the solid side is below and balls roll on top.
  for (let i = POINTS - 1; i >= 0; i--) {
    const x = LEFT + ((RIGHT - LEFT) * i) / (POINTS - 1);
    out.push([x, -3 + hills * (0.6 * Math.sin(0.35 * x) + 0.3 * Math.sin(0.9 * x + 1) + 0.03 * Math.sin(2.1 * x))]);
  }
  return out;
}

const readout = createReadout('chain-readings');
const G = 10;
const DT = 1 / 60;

/**
 * Chain terrain: a 200-point Chain (one-sided smooth segments with ghost vertices, as Box2D v3's)
 * and a ball rolling over it. Plain Segments meeting at a vertex catch a body that crosses it;
 * a chain's do not. The readout gives the largest change of the ball's speed in one step beyond
 * what gravity alone can do (g·dt): a snag would show as a jump.
 */
function ChainTerrainScene({ hills, push }: Controls) {
  const points = useMemo(() => terrain(hills), [hills]);
  const ball = useRef<EngineBody>(null);
  const stats = useRef({ worst: 0, last: null as { x: number; y: number } | null, steps: 0 });
  useLayoutEffect(() => {
    stats.current = { worst: 0, last: null, steps: 0 };
    readout.set('');
  }, [points, push]);

  useAfterStep(() => {
    const b = ball.current;
    if (!b) return;
    const s = stats.current;
    const v = b.velocity;
    if (s.last) {
      const jump = Math.hypot(v.x - s.last.x, v.y - s.last.y);
      // The first steps settle the ball onto the chain.
      if (s.steps > 30) s.worst = Math.max(s.worst, jump - G * DT);
    }
    s.last = v;
    s.steps++;
    readout.set(`ball at x ${b.x.toFixed(1)} m, ${Math.hypot(v.x, v.y).toFixed(1)} m/s · worst speed jump in a step beyond g·dt: ${Math.max(0, s.worst).toFixed(3)} m/s · on the chain: ${b.contacts.length > 0 ? 'yes' : 'no'}`);
  });

  return (
    <>
      <Terrain points={points} />
      <Body key={`${hills}-${push}`} ref={ball} position={[LEFT + 1, points[points.length - 2]![1] + 0.6]} velocity={[push, 0]} allowSleep={false} userData={DRAG_HANDLE}>
        <Circle radius={0.3} friction={0.9} color={accent.subject} />
      </Body>
    </>
  );
}

/**
 * The terrain: a static body whose shapes are a Chain's segments (no React component takes a
 * chain), added at mount and removed at unmount, drawn as a line.
 */
function Terrain({ points }: { points: [number, number][] }) {
  const space = useSpace();
  const physics = usePhysics();
  useLayoutEffect(() => {
    // Walls at both ends (points beyond the terrain), so the ball rolls back and forth.
    const first = points[0]!;
    const last = points[points.length - 1]!;
    const vertices: [number, number][] = [[first[0], first[1] + 6], ...points, [last[0], last[1] + 6]];
    const body = space.addBody(new EngineBody({ type: 'static', shapes: new Chain({ vertices, friction: 0.9 }).segments }));
    physics.requestFrame();
    return () => {
      // <Physics> empties its space on unmount, maybe first.
      if (body.space === space) space.removeBody(body);
    };
  }, [space, points, physics]);
  const positions = useMemo(() => new Float32Array(points.flatMap(([x, y]) => [x, y, 0])), [points]);
  return (
    <line>
      <bufferGeometry>
        <bufferAttribute attach="attributes-position" args={[positions, 3]} />
      </bufferGeometry>
      <lineBasicMaterial color={bodyColors.static} />
    </line>
  );
}

const meta = {
  title: 'Scenes/Chain terrain',
  component: ChainTerrainScene,
  args: { hills: 0.5, push: 4 },
  argTypes: {
    hills: { ...range(0, 1.5, 0.1), description: 'The height of the terrain\'s largest wave (m). At the default the slopes stay under 15°; hillier, a fast ball can leave a crest and land (a jump the readout counts).' },
    push: { ...range(0, 10, 0.5), description: "The ball's speed at the start (m/s), to the right." },
  },
  parameters: { fulcrum: { panel: readout.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof ChainTerrainScene>;

export default meta;

/** A ball rolls over 200 chain vertices and never snags: its speed changes no faster than gravity allows. */
export const RollingBall: StoryObj<typeof meta> = {};
