import type { Body as EngineBody } from '@fulcrum/physics';
import { AngleJoint, Body, Box, Circle, DistanceJoint, PivotJoint, useAfterStep, type AngleJointProps } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef, useState } from 'react';
import { COMMON_CONSTRAINT_ARG_TYPES, COMMON_CONSTRAINT_ARGS, range } from '../support/controls';
import type { FulcrumParameters } from '../support/parameters';
import { Anchor, dragHandleAt, Floor, SETTLE } from '../support/scenery';

interface Controls extends Omit<AngleJointProps, 'body1' | 'body2' | 'ref' | 'jointMin' | 'jointMax' | 'ratio'> {
  /** The angle between two teeth (rad): how far the wheel may slip back. */
  tooth: number;
}

const WHEEL_RADIUS = 1.4;
const TEETH_DRAWN = 12;

/**
 * A ratchet: a wheel on a fixed axle with an AngleJoint from the axle (C = θ of the wheel) whose
 * lower limit follows the wheel forward one tooth at a time, the pawl. The wheel turns
 * anticlockwise freely (wind it with the mouse) but slips back at most to the last tooth, so the
 * load hanging from its right side, which pulls it clockwise, stays up. The pawl is the jointMin prop, changed in place from
 * React state after each step that passes a tooth.
 */
function RatchetScene({ tooth, ...joint }: Controls) {
  const axle = useRef<EngineBody>(null);
  const wheel = useRef<EngineBody>(null);
  const load = useRef<EngineBody>(null);
  const [pawl, setPawl] = useState(0);
  useAfterStep(() => {
    const w = wheel.current;
    if (!w) return;
    const passed = Math.floor(w.rotation / tooth);
    if (passed > pawl) setPawl(passed);
  });
  return (
    <>
      <Floor />
      <Anchor bodyRef={axle} position={[0, 1]} />
      <Body ref={wheel} position={[0, 1]} userData={dragHandleAt(-0.8 * WHEEL_RADIUS, 0)} {...SETTLE}>
        <Circle radius={WHEEL_RADIUS} />
        {Array.from({ length: TEETH_DRAWN }, (_, i) => {
          const a = (2 * Math.PI * i) / TEETH_DRAWN;
          return <Box key={i} width={0.35} height={0.2} angle={a} offset={[(WHEEL_RADIUS + 0.1) * Math.cos(a), (WHEEL_RADIUS + 0.1) * Math.sin(a)]} />;
        })}
      </Body>
      <Body ref={load} position={[WHEEL_RADIUS + 1.8, 0]} {...SETTLE}>
        <Box width={0.9} height={0.9} density={2} />
      </Body>
      <PivotJoint body1={axle} body2={wheel} ignore />
      <DistanceJoint body1={wheel} body2={load} anchor1={[WHEEL_RADIUS, 0]} anchor2={[0, 0.45]} jointMin={0} jointMax={2.8} />
      <AngleJoint body1={axle} body2={wheel} jointMin={pawl * tooth} jointMax={Infinity} ignore {...joint} />
    </>
  );
}

const meta = {
  title: 'Joints/Angle ratchet',
  component: RatchetScene,
  tags: ['joint', 'settles'],
  args: { ...COMMON_CONSTRAINT_ARGS, tooth: 0.35, ignore: true },
  argTypes: {
    tooth: { ...range(0.05, 1.5, 0.05), description: "The angle between two teeth (rad): the pawl's limit is the last tooth passed." },
    ...COMMON_CONSTRAINT_ARG_TYPES,
  },
  // Lifting the pawl (active = false) lets the load run the wheel back. The drag winds the wheel
  // forward (anticlockwise): the handle starts on the wheel's left, or on top once the released
  // wheel has run back, and down-and-left turns it anticlockwise from either.
  parameters: { fulcrum: { controlChange: { active: false }, dragBy: [-70, 70] } satisfies FulcrumParameters },
} satisfies Meta<typeof RatchetScene>;

export default meta;

/** Wind the wheel anticlockwise with the mouse: it keeps what you wind, one tooth at a time. */
export const Ratchet: StoryObj<typeof meta> = {};
