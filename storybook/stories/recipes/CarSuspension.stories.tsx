import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, Circle, LineJoint, MotorJoint } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useRef, type RefObject } from 'react';
import { range } from '../support/controls';
import { accent } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { DRAG_HANDLE, Floor } from '../support/scenery';

type Suspension = 'rigid line + soft line' | 'one soft line (wrong)';

interface Controls {
  /** Wheel speed relative to the chassis, rad/s; positive drives right. */
  drive: number;
  /** The springs' natural frequency, Hz. */
  frequency: number;
  /** The springs' damping ratio. */
  damping: number;
  /** How each wheel hangs. */
  suspension: Suspension;
}

const WHEEL_X = 1.15;
const AXLE_Y = -0.3;
const WHEEL_RADIUS = 0.45;
/** Where the wheel's centre rests along its line, below the mount (the spring's length). */
const SPRING_REST = -0.45;
/** The wheel's travel along its line. */
const TRAVEL: [number, number] = [-0.75, -0.1];
const START: [number, number] = [-6, -1.5];

/**
 * A car whose wheels hang on two LineJoints each, along the chassis' local y axis: a rigid one
 * holds the axle on its line and stops it at the ends of its travel, and a soft one whose
 * jointMin = jointMax is the rest position is the spring. A MotorJoint turns each wheel. Pick
 * "one soft line" to see why: a soft joint is soft in every row, so one soft LineJoint with
 * limits lets the wheels lean off their line and go past the end of their travel.
 */
function CarScene({ drive, frequency, damping, suspension }: Controls) {
  const chassis = useRef<EngineBody>(null);
  const rear = useRef<EngineBody>(null);
  const front = useRef<EngineBody>(null);
  return (
    <>
      <Floor width={26} />
      <Body type="static">
        {[-1, 1.5, 4, 6.5].map((x, i) => (
          <Circle key={x} radius={0.5 + 0.15 * (i % 2)} offset={[x, -5.1]} />
        ))}
      </Body>
      <Body type="static">
        <Box width={0.5} height={4} offset={[-11.5, -3]} />
        <Box width={0.5} height={4} offset={[11.5, -3]} />
      </Body>
      <Body ref={chassis} position={START} userData={DRAG_HANDLE}>
        <Box width={3} height={0.6} density={3} color={accent.subject} />
        <Box width={1.4} height={0.5} offset={[-0.2, 0.55]} density={0.5} color={accent.subjectDark} />
      </Body>
      {[
        { wheel: rear, x: -WHEEL_X },
        { wheel: front, x: WHEEL_X },
      ].map(({ wheel, x }) => (
        <Wheel key={x} chassis={chassis} wheel={wheel} mount={[x, AXLE_Y]} drive={drive} frequency={frequency} damping={damping} suspension={suspension} />
      ))}
    </>
  );
}

interface WheelProps extends Omit<Controls, 'drive'> {
  chassis: RefObject<EngineBody | null>;
  wheel: RefObject<EngineBody | null>;
  /** The suspension's mount on the chassis (body-local). */
  mount: [number, number];
  drive: number;
}

function Wheel({ chassis, wheel, mount, drive, frequency, damping, suspension }: WheelProps) {
  const line = { body1: chassis, body2: wheel, anchor1: mount, direction: [0, 1] as [number, number], ignore: true };
  const spring = { stiff: false, frequency, damping };
  return (
    <>
      <Body ref={wheel} position={[START[0] + mount[0], START[1] + mount[1] + SPRING_REST]}>
        <Circle radius={WHEEL_RADIUS} friction={1.2} />
      </Body>
      {suspension === 'rigid line + soft line' ? (
        <>
          <LineJoint {...line} jointMin={TRAVEL[0]} jointMax={TRAVEL[1]} />
          <LineJoint {...line} jointMin={SPRING_REST} jointMax={SPRING_REST} {...spring} />
        </>
      ) : (
        <LineJoint {...line} jointMin={TRAVEL[0]} jointMax={TRAVEL[1]} {...spring} />
      )}
      {/* Negative turns the wheel clockwise, which drives the car right. */}
      <MotorJoint body1={chassis} body2={wheel} rate={-drive} maxForce={drive === 0 ? 4 : 40} />
    </>
  );
}

const meta = {
  title: 'Recipes/Car suspension',
  component: CarScene,
  tags: ['joint', 'settles'],
  args: { drive: 0, frequency: 4, damping: 0.5, suspension: 'rigid line + soft line' },
  argTypes: {
    drive: { ...range(-20, 20, 1), description: 'Wheel speed relative to the chassis (rad/s), the MotorJoints\' −rate; positive drives right.' },
    frequency: { ...range(0.5, 10, 0.1), description: "The springs' frequency (Hz), the soft LineJoints' `frequency`." },
    damping: { ...range(0, 2, 0.05), description: "The springs' damping ratio." },
    suspension: {
      control: 'radio',
      options: ['rigid line + soft line', 'one soft line (wrong)'] satisfies Suspension[],
      description: 'Two LineJoints per wheel (rigid travel, soft spring), or one soft LineJoint with limits.',
    },
  },
  // Softer springs: the car sinks on its wheels.
  parameters: { fulcrum: { controlChange: { frequency: 1 } } satisfies FulcrumParameters },
} satisfies Meta<typeof CarScene>;

export default meta;

/** Drop, bounce, settle; then drive it over the bumps with `drive`. */
export const TwoLinesPerWheel: StoryObj<typeof meta> = { name: 'Two lines per wheel' };
