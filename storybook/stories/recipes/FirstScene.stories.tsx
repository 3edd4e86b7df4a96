import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, Circle, PivotJoint } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef } from 'react';

/**
 * The first scene of Getting started, as the page shows it (docs/GettingStarted.mdx): a floor, a
 * box dropped on it, and a pendulum pinned to a static body. The Storybook's frame supplies the
 * `<Canvas>` and `<Physics>` that the page's code writes out.
 */
function FirstScene() {
  const pin = useRef<EngineBody>(null);
  const bob = useRef<EngineBody>(null);
  return (
    <>
      <Body type="static" position={[0, -4]}>
        <Box width={20} height={1} />
      </Body>
      <Body position={[-2, 0]} rotation={0.3}>
        <Box width={1} height={1} friction={0.6} />
      </Body>
      <Body ref={pin} type="static" position={[0, 4]} />
      <Body ref={bob} position={[3, 4]} linearDrag={0.8} userData={{ dragHandle: true }}>
        <Circle radius={0.5} restitution={0.5} />
      </Body>
      <PivotJoint body1={pin} body2={bob} anchor2={[-3, 0]} />
    </>
  );
}

const meta = {
  title: 'Recipes/First scene',
  component: FirstScene,
  tags: ['settles'],
} satisfies Meta<typeof FirstScene>;

export default meta;

/** A box falls, a pendulum swings and slows down; then the scene sleeps and nothing is drawn. */
export const Scene: StoryObj<typeof meta> = { name: 'First scene' };
