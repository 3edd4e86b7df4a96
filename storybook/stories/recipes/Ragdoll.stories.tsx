import type { Body as EngineBody } from '@fulcrum/physics';
import { AngleJoint, Body, Box, Capsule, Circle, PivotJoint } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo, type RefObject } from 'react';
import { range } from '../support/controls';
import { accent } from '../support/palette';
import { Floor, SETTLE } from '../support/scenery';

interface Controls {
  /** Ragdolls dropped on the stairs. */
  count: number;
}

/** One part of the body: where its centre is and where it hinges on its parent, relative to the torso's centre. */
interface Part {
  name: string;
  parent: string | null;
  centre: [number, number];
  /** A vertical capsule's half-length between its end centres, and its radius (the torso is a box, the head a circle). */
  halfLength: number;
  radius: number;
  hinge: [number, number];
  /** The part's angle relative to its parent's, radians: the AngleJoint's jointMin and jointMax. */
  limits: [number, number];
}

const TORSO_W = 0.5;
const TORSO_H = 0.8;
const PARTS: readonly Part[] = [
  { name: 'head', parent: 'torso', centre: [0, 0.65], halfLength: 0, radius: 0.22, hinge: [0, 0.42], limits: [-0.5, 0.5] },
  { name: 'upper arm L', parent: 'torso', centre: [-0.36, 0.12], halfLength: 0.14, radius: 0.08, hinge: [-0.36, 0.34], limits: [-2.6, 2.6] },
  { name: 'forearm L', parent: 'upper arm L', centre: [-0.36, -0.3], halfLength: 0.12, radius: 0.07, hinge: [-0.36, -0.1], limits: [-2.4, 0] },
  { name: 'upper arm R', parent: 'torso', centre: [0.36, 0.12], halfLength: 0.14, radius: 0.08, hinge: [0.36, 0.34], limits: [-2.6, 2.6] },
  { name: 'forearm R', parent: 'upper arm R', centre: [0.36, -0.3], halfLength: 0.12, radius: 0.07, hinge: [0.36, -0.1], limits: [0, 2.4] },
  { name: 'thigh L', parent: 'torso', centre: [-0.13, -0.65], halfLength: 0.14, radius: 0.1, hinge: [-0.13, -0.4], limits: [-1.7, 0.5] },
  { name: 'shin L', parent: 'thigh L', centre: [-0.13, -1.15], halfLength: 0.14, radius: 0.09, hinge: [-0.13, -0.9], limits: [0, 2.4] },
  { name: 'thigh R', parent: 'torso', centre: [0.13, -0.65], halfLength: 0.14, radius: 0.1, hinge: [0.13, -0.4], limits: [-0.5, 1.7] },
  { name: 'shin R', parent: 'thigh R', centre: [0.13, -1.15], halfLength: 0.14, radius: 0.09, hinge: [0.13, -0.9], limits: [-2.4, 0] },
];

/** Every part starts with the same velocity (a push towards the stairs' foot), so the hinges start together. */
const PUSH: [number, number] = [2.5, 0];

const minus = (a: [number, number], b: [number, number]): [number, number] => [a[0] - b[0], a[1] - b[1]];

/**
 * A ragdoll: ten bodies, and between each part and its parent a PivotJoint (the hinge) and an
 * AngleJoint (how far it bends). The parts share a negative collision group, so they never
 * collide with each other (they overlap at the hinges) but do with everything else.
 */
function Ragdoll({ at, group, dragged }: { at: [number, number]; group: number; dragged: boolean }) {
  const refs = useMemo(() => Object.fromEntries(['torso', ...PARTS.map((p) => p.name)].map((n) => [n, { current: null } as RefObject<EngineBody | null>])), []);
  const filter = useMemo(() => ({ group }), [group]);
  const world = (p: [number, number]): [number, number] => [at[0] + p[0], at[1] + p[1]];
  const centreOf = (name: string): [number, number] => (name === 'torso' ? [0, 0] : PARTS.find((p) => p.name === name)!.centre);
  return (
    <>
      <Body ref={refs.torso} position={at} velocity={PUSH} userData={dragged ? { dragHandle: [0, 0.2] } : undefined} {...SETTLE}>
        <Box width={TORSO_W} height={TORSO_H} radius={0.05} filter={filter} color={accent.subject} />
      </Body>
      {PARTS.map((p) => (
        <Body key={p.name} ref={refs[p.name]} position={world(p.centre)} velocity={PUSH} {...SETTLE}>
          {p.halfLength === 0 ? (
            <Circle radius={p.radius} filter={filter} color={accent.subjectDark} />
          ) : (
            <Capsule radius={p.radius} p1={[0, p.halfLength]} p2={[0, -p.halfLength]} filter={filter} color={accent.subject} />
          )}
        </Body>
      ))}
      {PARTS.map((p) => {
        const parent = p.parent ?? 'torso';
        return (
          <group key={p.name}>
            <PivotJoint body1={refs[parent]} body2={refs[p.name]} anchor1={minus(p.hinge, centreOf(parent))} anchor2={minus(p.hinge, p.centre)} />
            <AngleJoint body1={refs[parent]} body2={refs[p.name]} jointMin={p.limits[0]} jointMax={p.limits[1]} />
          </group>
        );
      })}
    </>
  );
}

/** Ragdolls tumbling down a flight of stairs. */
function RagdollScene({ count }: Controls) {
  return (
    <>
      <Floor />
      <Body type="static">
        {Array.from({ length: 6 }, (_, i) => (
          <Box key={i} width={1.6} height={0.6 * (6 - i)} offset={[-8 + 1.6 * i, -5 + 0.3 * (6 - i)]} friction={0.8} />
        ))}
      </Body>
      {Array.from({ length: count }, (_, i) => (
        <Ragdoll key={i} at={[-8 + 1.2 * i, 1.5 + 2.8 * i]} group={-1 - i} dragged={i === 0} />
      ))}
    </>
  );
}

const meta = {
  title: 'Recipes/Ragdoll',
  component: RagdollScene,
  tags: ['settles'],
  args: { count: 2 },
  argTypes: { count: { ...range(1, 6, 1), description: 'Ragdolls dropped on the stairs (each in its own collision group).' } },
} satisfies Meta<typeof RagdollScene>;

export default meta;

/** Two ragdolls fall down the stairs and come to rest in a heap. */
export const DownTheStairs: StoryObj<typeof meta> = { name: 'Down the stairs' };
