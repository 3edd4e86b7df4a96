import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, Circle, PivotJoint } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { setProbe } from '@fulcrum/browser-testing/probe';
import { createRef, useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { range } from '../support/controls';
import { Anchor, DRAG_HANDLE, Floor } from '../support/scenery';

interface Controls {
  /** Force (N) above which a bridge joint breaks. */
  maxForce: number;
  breakUnderForce: boolean;
  /** Mass factor of the falling ball. */
  ballDensity: number;
}

const PLANKS = 8;
const PLANK = 1.2;

/**
 * A rope bridge of planks joined by pivots that break under force. A heavy ball drops on it.
 * Broken joints leave the space (removeOnBreak); "reset" rebuilds the bridge.
 */
function BridgeScene({ maxForce, breakUnderForce, ballDensity }: Controls) {
  const left = useRef<EngineBody>(null);
  const right = useRef<EngineBody>(null);
  const planks = useMemo(() => Array.from({ length: PLANKS }, () => createRef<EngineBody>()), []);
  const [broken, setBroken] = useState(0);
  const x0 = (-PLANKS * PLANK) / 2;
  const links: [RefObject<EngineBody | null>, [number, number], RefObject<EngineBody | null>, [number, number]][] = [];
  links.push([left, [0, 0], planks[0]!, [-PLANK / 2, 0]]);
  for (let i = 0; i + 1 < PLANKS; i++) links.push([planks[i]!, [PLANK / 2, 0], planks[i + 1]!, [-PLANK / 2, 0]]);
  links.push([planks[PLANKS - 1]!, [PLANK / 2, 0], right, [0, 0]]);
  return (
    <>
      <Floor />
      <Anchor bodyRef={left} position={[x0, 0]} />
      <Anchor bodyRef={right} position={[-x0, 0]} />
      {planks.map((ref, i) => (
        <Body key={i} ref={ref} position={[x0 + PLANK * (i + 0.5), 0]} userData={i === 1 ? DRAG_HANDLE : undefined} linearDrag={0.6} angularDrag={1.5}>
          <Box width={PLANK} height={0.2} friction={0.8} />
        </Body>
      ))}
      {links.map(([b1, a1, b2, a2], i) => (
        <PivotJoint key={i} body1={b1} anchor1={a1} body2={b2} anchor2={a2} maxForce={maxForce} breakUnderForce={breakUnderForce} onBreak={() => setBroken((n) => n + 1)} />
      ))}
      <Body position={[0.6, 5]} linearDrag={0.3} angularDrag={2}>
        <Circle radius={0.6} density={ballDensity} friction={0.5} />
      </Body>
      <BrokenCount n={broken} />
    </>
  );
}

/** Publishes how many joints broke to the probe. */
function BrokenCount({ n }: { n: number }) {
  useEffect(() => setProbe({ brokenJoints: n }), [n]);
  return null;
}

const meta = {
  title: 'Scenes/Breaking joints',
  component: BridgeScene,
  tags: ['settles'],
  args: { maxForce: 400, breakUnderForce: true, ballDensity: 20 },
  argTypes: {
    maxForce: { ...range(50, 5000, 50), description: 'Break threshold of every bridge joint (N).' },
    breakUnderForce: { control: 'boolean' },
    ballDensity: range(1, 40, 1),
  },
} satisfies Meta<typeof BridgeScene>;

export default meta;

/** The ball snaps the bridge; raise `maxForce` and press reset, and it holds. */
export const Bridge: StoryObj<typeof meta> = {};
