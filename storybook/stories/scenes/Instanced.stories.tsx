import { Body, Box, InstancedBodies, type InstanceProps } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo } from 'react';
import { range } from '../support/controls';
import { bodyColors } from '../support/palette';
import { FrameTimings } from './frame-timings';

interface Controls {
  count: number;
  restitution: number;
}

const WIDTH = 44;
const SIZE = 0.3;

/** `count` small boxes, drawn by one InstancedMesh, dropped into a wide tray. */
function InstancedScene({ count, restitution }: Controls) {
  const instances = useMemo<InstanceProps[]>(() => {
    const perRow = Math.floor((WIDTH - 2) / (SIZE * 1.5));
    return Array.from({ length: count }, (_, i) => ({
      position: [-(WIDTH - 2) / 2 + (i % perRow) * SIZE * 1.5 + (Math.floor(i / perRow) % 2) * 0.1, -6 + Math.floor(i / perRow) * SIZE * 1.4] as [number, number],
      rotation: (i * 0.37) % 1,
      // The tests drag the last box, which lands on top of the pile.
      ...(i === count - 1 ? { userData: { dragHandle: true } } : {}),
    }));
  }, [count]);
  return (
    <>
      <Body type="static" position={[0, -8]}>
        <Box width={WIDTH + 1} height={1} friction={0.9} />
        <Box width={1} height={6} offset={[-(WIDTH + 1) / 2, 3]} />
        <Box width={1} height={6} offset={[(WIDTH + 1) / 2, 3]} />
      </Body>
      <InstancedBodies instances={instances} linearDrag={0.5} angularDrag={1}>
        <Box width={SIZE} height={SIZE} friction={0.9} restitution={restitution} />
        <meshBasicMaterial color={bodyColors.dynamic} />
      </InstancedBodies>
      <FrameTimings />
    </>
  );
}

const meta = {
  title: 'Scenes/Instanced bodies',
  component: InstancedScene,
  tags: ['settles', 'heavy'],
  args: { count: 2000, restitution: 0 },
  argTypes: { count: range(100, 4000, 100), restitution: range(0, 1, 0.05) },
  parameters: { fulcrum: { zoom: 17, center: [0, -1] } },
} satisfies Meta<typeof InstancedScene>;

export default meta;

/** 2000 boxes in one `<InstancedBodies>`; `count` adds or removes instances by key. */
export const TwoThousandBoxes: StoryObj<typeof meta> = {};
