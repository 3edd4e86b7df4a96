import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, Circle, MotorJoint, PivotJoint, useAfterStep, useSpace } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useLayoutEffect, useRef } from 'react';
import { range } from '../support/controls';
import { accent } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';
import { Anchor, DRAG_HANDLE, Floor } from '../support/scenery';

interface Controls {
  /** Space.maxLinearSpeed, m/s (the engine's default is 400). */
  maxLinearSpeed: number;
  /** Space.maxRotationPerSubstep, rad (the engine's default is π/4). */
  maxRotationPerSubstep: number;
  /** The motors' target spin, rad/s. */
  motorRate: number;
}

/** The readings under the canvas: the scene writes them after steps, the panel shows them. */
const readings = createReadout('speed-readings');

/**
 * The space's speed caps. A ball falls from the top: it speeds up at g until maxLinearSpeed,
 * then falls no faster. Two boxes on axles are driven by the same motor: the plain one spins no
 * faster than maxRotationPerSubstep per substep (× 4 substeps × 60 steps a second), the one
 * with allowFastRotation reaches the motor's rate.
 */
function SpeedCapsScene({ maxLinearSpeed, maxRotationPerSubstep, motorRate }: Controls) {
  const space = useSpace();
  // Applied in place through the space's setters (they take effect at the next substep).
  useLayoutEffect(() => {
    space.maxLinearSpeed = maxLinearSpeed;
    space.maxRotationPerSubstep = maxRotationPerSubstep;
  }, [space, maxLinearSpeed, maxRotationPerSubstep]);
  const ball = useRef<EngineBody>(null);
  const capped = useRef<EngineBody>(null);
  const fast = useRef<EngineBody>(null);
  const axle1 = useRef<EngineBody>(null);
  const axle2 = useRef<EngineBody>(null);
  useAfterStep((s, dt) => {
    const b = ball.current;
    const [c, f] = [capped.current, fast.current];
    if (!b || !c || !f) return;
    const cap = (s.maxRotationPerSubstep * 4) / dt;
    readings.set(
      `falling ball: ${Math.hypot(b.velocity.x, b.velocity.y).toFixed(1)} m/s (cap ${s.maxLinearSpeed} m/s) · ` +
        `box: ${Math.abs(c.angularVel).toFixed(1)} rad/s (cap ${cap.toFixed(1)}) · box with allowFastRotation: ${Math.abs(f.angularVel).toFixed(1)} rad/s`,
    );
  });
  return (
    <>
      <Floor />
      <Body ref={ball} position={[-6, 5.5]} userData={DRAG_HANDLE}>
        <Circle radius={0.4} friction={0.8} color={accent.projectile} />
      </Body>
      {[
        { x: 0, ref: capped, axle: axle1, allowFastRotation: false },
        { x: 5, ref: fast, axle: axle2, allowFastRotation: true },
      ].map(({ x, ref, axle, allowFastRotation }) => (
        <group key={x}>
          <Anchor bodyRef={axle} position={[x, 1]} />
          <Body ref={ref} position={[x, 1]} allowFastRotation={allowFastRotation}>
            <Box width={3} height={0.3} color={allowFastRotation ? accent.contrast : accent.subject} />
          </Body>
          <PivotJoint body1={axle} body2={ref} />
          <MotorJoint body1={axle} body2={ref} rate={motorRate} maxForce={500} />
        </group>
      ))}
    </>
  );
}

const meta = {
  title: 'Scenes/Speed caps',
  component: SpeedCapsScene,
  args: { maxLinearSpeed: 4, maxRotationPerSubstep: 0.02, motorRate: 12 },
  argTypes: {
    maxLinearSpeed: { ...range(1, 400, 1), description: 'Space.maxLinearSpeed (m/s): no body the solver moves goes faster. Engine default 400.' },
    maxRotationPerSubstep: { ...range(0.005, 0.8, 0.005), description: 'Space.maxRotationPerSubstep (rad): the turn per substep no body goes past, unless allowFastRotation or a free ball. Engine default π/4.' },
    motorRate: range(0, 40, 1),
  },
  parameters: { fulcrum: { panel: readings.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof SpeedCapsScene>;

export default meta;

/**
 * Low caps, to see them: the ball falls at 4 m/s, the orange box turns at 4.8 rad/s while the
 * blue one (allowFastRotation) turns at the motor's 12 rad/s. Raise the caps and both go free.
 */
export const Caps: StoryObj<typeof meta> = {};
