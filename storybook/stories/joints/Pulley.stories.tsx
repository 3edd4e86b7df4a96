import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, PulleyJoint, type PulleyJointProps } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef } from 'react';
import { COMMON_CONSTRAINT_ARG_TYPES, COMMON_CONSTRAINT_ARGS, limitArgTypes, range, vectorControl } from '../support/controls';
import type { FulcrumParameters } from '../support/parameters';
import { Anchor, DRAG_HANDLE, Floor, SETTLE } from '../support/scenery';

type Controls = Omit<PulleyJointProps, 'body1' | 'body2' | 'body3' | 'body4' | 'ref'>;

/**
 * A rope over two pulleys: |a1a2| + ratio·|a3a4| ≤ jointMax. The heavy counterweight on the
 * left sinks onto a pedestal and lifts the light load on the right.
 */
function LiftScene(joint: Controls) {
  const left = useRef<EngineBody>(null);
  const right = useRef<EngineBody>(null);
  const weight = useRef<EngineBody>(null);
  const load = useRef<EngineBody>(null);
  return (
    <>
      <Floor />
      {/* The counterweight lands here, before the load reaches its pulley. */}
      <Body type="static" position={[-3, -2.7]}>
        <Box width={2} height={1} />
      </Body>
      <Anchor bodyRef={left} position={[-3, 5]} />
      <Anchor bodyRef={right} position={[3, 5]} />
      <Body ref={weight} position={[-3, 1]} {...SETTLE}>
        <Box width={1.4} height={1.4} density={3} />
      </Body>
      <Body ref={load} position={[3, 1]} userData={DRAG_HANDLE} {...SETTLE}>
        <Box width={1.2} height={0.8} density={1} />
      </Body>
      <PulleyJoint body1={left} body2={weight} body3={right} body4={load} {...joint} />
    </>
  );
}

const meta = {
  title: 'Joints/Pulley',
  component: LiftScene,
  tags: ['joint', 'settles'],
  args: { ...COMMON_CONSTRAINT_ARGS, anchor1: [0, 0], anchor2: [0, 0.7], anchor3: [0, 0], anchor4: [0, 0.4], jointMin: 0, jointMax: 7.2, ratio: 1 },
  argTypes: {
    anchor1: vectorControl('Pulley 1 on the left support [x, y].'),
    anchor2: vectorControl('Rope end on the counterweight [x, y].'),
    anchor3: vectorControl('Pulley 2 on the right support [x, y].'),
    anchor4: vectorControl('Rope end on the load [x, y].'),
    ...limitArgTypes(0, 14, 0.1),
    ratio: { ...range(0.2, 4, 0.1), description: 'Block and tackle: the limits apply to |a1a2| + ratio·|a3a4|.' },
    ...COMMON_CONSTRAINT_ARG_TYPES,
  },
  parameters: { fulcrum: { controlChange: { jointMax: 9 } } satisfies FulcrumParameters },
} satisfies Meta<typeof LiftScene>;

export default meta;

/** Lengthen the rope (`jointMax`) and the load drops; raise `ratio` for a block and tackle. */
export const Lift: StoryObj<typeof meta> = {};
