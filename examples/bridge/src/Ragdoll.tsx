/**
 * A ragdoll: head, torso, upper and lower arms and legs, joined by PivotJoints at the joints
 * and held in a human range of motion by AngleJoints. Its parts share a negative collision
 * group, so they never collide with each other, only with the world.
 */
import type { Body as EngineBody } from '@fulcrum/physics';
import { AngleJoint, Body, Box, Capsule, Circle, PivotJoint } from '@fulcrum/react';
import { useMemo, useRef, type ReactNode, type RefObject } from 'react';

export interface RagdollProps {
  x: number;
  y: number;
  /** A distinct negative number per ragdoll: its parts' collision group. */
  group: number;
  color: number;
}

type Ref = RefObject<EngineBody | null>;
interface Limb {
  name: string;
  /** Centre relative to the torso's centre, and length (limbs hang straight down). */
  at: readonly [number, number];
  length: number;
  radius: number;
  parent: string;
  /** The joint, relative to the torso's centre. */
  joint: readonly [number, number];
  /** Allowed rotation relative to the parent, radians. */
  range: readonly [number, number];
}

const TORSO: readonly [number, number] = [0.5, 0.9];
const LIMBS: readonly Limb[] = [
  { name: 'upperArmL', at: [-0.35, 0.1], length: 0.45, radius: 0.09, parent: 'torso', joint: [-0.35, 0.35], range: [-2.5, 2.5] },
  { name: 'lowerArmL', at: [-0.35, -0.4], length: 0.4, radius: 0.08, parent: 'upperArmL', joint: [-0.35, -0.15], range: [-2.4, 0] },
  { name: 'upperArmR', at: [0.35, 0.1], length: 0.45, radius: 0.09, parent: 'torso', joint: [0.35, 0.35], range: [-2.5, 2.5] },
  { name: 'lowerArmR', at: [0.35, -0.4], length: 0.4, radius: 0.08, parent: 'upperArmR', joint: [0.35, -0.15], range: [0, 2.4] },
  { name: 'thighL', at: [-0.13, -0.75], length: 0.45, radius: 0.11, parent: 'torso', joint: [-0.13, -0.45], range: [-1.6, 0.6] },
  { name: 'shinL', at: [-0.13, -1.3], length: 0.45, radius: 0.1, parent: 'thighL', joint: [-0.13, -1.05], range: [0, 2.3] },
  { name: 'thighR', at: [0.13, -0.75], length: 0.45, radius: 0.11, parent: 'torso', joint: [0.13, -0.45], range: [-0.6, 1.6] },
  { name: 'shinR', at: [0.13, -1.3], length: 0.45, radius: 0.1, parent: 'thighR', joint: [0.13, -1.05], range: [-2.3, 0] },
];
const HEAD_RADIUS = 0.22;
const NECK: readonly [number, number] = [0, 0.5];

export function Ragdoll({ x, y, group, color }: RagdollProps): ReactNode {
  const torso = useRef<EngineBody>(null);
  const head = useRef<EngineBody>(null);
  const limbRefs = useMemo(() => Object.fromEntries(LIMBS.map((l) => [l.name, { current: null } as Ref])), []);
  const refOf = (name: string): Ref => (name === 'torso' ? torso : limbRefs[name]!);
  const filter = useMemo(() => ({ group }), [group]);

  return (
    <>
      <Body ref={torso} position={[x, y]}>
        <Box width={TORSO[0]} height={TORSO[1]} radius={0.05} filter={filter} color={color} />
      </Body>
      <Body ref={head} position={[x, y + NECK[1] + HEAD_RADIUS]}>
        <Circle radius={HEAD_RADIUS} filter={filter} color={0xf1c9a5} />
      </Body>
      <PivotJoint body1={torso} body2={head} anchor1={NECK} anchor2={[0, -HEAD_RADIUS]} />
      <AngleJoint body1={torso} body2={head} jointMin={-0.6} jointMax={0.6} />
      {LIMBS.map((l) => (
        <Body key={l.name} ref={limbRefs[l.name]} position={[x + l.at[0], y + l.at[1]]}>
          <Capsule radius={l.radius} p1={[0, l.length / 2 - l.radius]} p2={[0, -l.length / 2 + l.radius]} filter={filter} color={color} />
        </Body>
      ))}
      {LIMBS.map((l) => {
        const parentAt = l.parent === 'torso' ? ([0, 0] as const) : LIMBS.find((p) => p.name === l.parent)!.at;
        return (
          <PivotJoint
            key={`pivot-${l.name}`}
            body1={refOf(l.parent)}
            body2={refOf(l.name)}
            anchor1={[l.joint[0] - parentAt[0], l.joint[1] - parentAt[1]]}
            anchor2={[l.joint[0] - l.at[0], l.joint[1] - l.at[1]]}
          />
        );
      })}
      {LIMBS.map((l) => (
        <AngleJoint key={`angle-${l.name}`} body1={refOf(l.parent)} body2={refOf(l.name)} jointMin={l.range[0]} jointMax={l.range[1]} />
      ))}
    </>
  );
}
