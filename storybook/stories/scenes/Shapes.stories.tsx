import { Body, Box, Capsule, Circle, Polygon, Segment } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { range } from '../support/controls';
import { DRAG_HANDLE } from '../support/scenery';

interface Controls {
  friction: number;
  restitution: number;
  density: number;
}

/** Every shape kind falls onto a terrain made of segments; the material is a live control. */
function ShapesScene({ friction, restitution, density }: Controls) {
  const material = { friction, restitution, density };
  return (
    <>
      <Body type="static">
        <Segment p1={[-9, 1]} p2={[-4, -3]} friction={0.6} />
        <Segment p1={[-4, -3]} p2={[4, -4]} friction={0.6} />
        <Segment p1={[4, -4]} p2={[9, 0]} friction={0.6} />
      </Body>
      <Body position={[-6, 4]} rotation={0.3} userData={DRAG_HANDLE}>
        <Box width={1.2} height={0.8} {...material} />
      </Body>
      <Body position={[-3, 5]}>
        <Circle radius={0.6} {...material} />
      </Body>
      <Body position={[0, 4]} rotation={0.7}>
        <Box width={1.4} height={0.6} radius={0.15} {...material} />
      </Body>
      <Body position={[2.5, 5]}>
        <Polygon vertices={[[0, 0.8], [-0.7, -0.4], [0.7, -0.4]]} {...material} />
      </Body>
      <Body position={[5, 4]} rotation={-0.5}>
        <Capsule radius={0.35} length={1.4} {...material} />
      </Body>
      <Body position={[-1, 7]}>
        <Capsule radius={0.25} p1={[-0.6, 0]} p2={[0.6, 0.3]} {...material} />
        <Circle radius={0.4} offset={[0, -0.6]} {...material} />
      </Body>
    </>
  );
}

const meta = {
  title: 'Scenes/Shapes and collisions',
  component: ShapesScene,
  tags: ['settles'],
  args: { friction: 0.5, restitution: 0.3, density: 1 },
  argTypes: { friction: range(0, 2, 0.05), restitution: range(0, 1, 0.05), density: range(0.1, 10, 0.1) },
} satisfies Meta<typeof ShapesScene>;

export default meta;

/** Box, rounded box, circle, polygon, both capsule forms, a compound body, segment terrain. */
export const AllShapes: StoryObj<typeof meta> = {};
