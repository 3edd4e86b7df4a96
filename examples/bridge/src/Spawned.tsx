/** Renders one spawned item: a crate, a ball or a ragdoll. */
import { Body, Box, Circle } from '@fulcrum/react';
import type { ReactNode } from 'react';
import { Ragdoll } from './Ragdoll.js';
import type { SpawnedItem } from './spawner.js';

const COLORS = [0x4f9bd9, 0xd9a441, 0x66c08a, 0xc76fd1, 0xe06a5a];

export function Spawned({ item }: { item: SpawnedItem }): ReactNode {
  const color = COLORS[item.key % COLORS.length]!;
  switch (item.kind) {
    case 'box':
      return (
        <Body position={[item.x, item.y]} rotation={item.key * 0.7}>
          <Box width={0.8} height={0.8} density={0.8} friction={0.7} color={color} />
        </Body>
      );
    case 'ball':
      return (
        <Body position={[item.x, item.y]}>
          <Circle radius={0.35} density={1.5} restitution={0.3} color={color} />
        </Body>
      );
    case 'ragdoll':
      // Each ragdoll gets its own negative group: its parts ignore each other, not other ragdolls.
      return <Ragdoll x={item.x} y={item.y} group={-1 - item.key} color={color} />;
  }
}
