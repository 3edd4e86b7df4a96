/**
 * The car: a chassis box and two wheels. Each wheel hangs on a suspension of two LineJoints
 * along the chassis' local y axis:
 * - a rigid one keeps the axle on its line and stops it at the travel limits;
 * - a soft one (jointMin = jointMax = the rest position) is the spring.
 * A MotorJoint per wheel turns it relative to the chassis. Its maxForce is the motor's
 * strength: small when coasting (rolling resistance, so a parked car comes to rest and
 * sleeps), large when braking.
 */
import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, Circle, LineJoint, MotorJoint } from '@fulcrum/react';
import { useRef, type ReactNode, type RefObject } from 'react';

/** What the driver asks for: -1 left, 0 nothing, 1 right; and the brake. */
export interface DriveInput {
  throttle: -1 | 0 | 1;
  brake: boolean;
}

export interface CarProps {
  drive: DriveInput;
  /** Top wheel speed, rad/s. */
  wheelSpeed: number;
  start: readonly [number, number];
  chassisRef: RefObject<EngineBody | null>;
}

const WHEEL_X = 1.15;
const AXLE_Y = -0.3;
const WHEEL_RADIUS = 0.45;
/** Where the wheel centre sits along the suspension line at rest (below the anchor). */
const SPRING_REST = -0.45;
const TRAVEL: readonly [number, number] = [-0.75, -0.1];
const DRIVE_FORCE = 25;
const BRAKE_FORCE = 250;
const COAST_FORCE = 4;

export function Car({ drive, wheelSpeed, start, chassisRef }: CarProps): ReactNode {
  const front = useRef<EngineBody>(null);
  const rear = useRef<EngineBody>(null);
  const [x, y] = start;
  const driving = drive.throttle !== 0 && !drive.brake;
  // The motor's target is wheel spin relative to the chassis; negative turns clockwise, driving right.
  const rate = driving ? -drive.throttle * wheelSpeed : 0;
  const maxForce = drive.brake ? BRAKE_FORCE : driving ? DRIVE_FORCE : COAST_FORCE;

  return (
    <>
      <Body ref={chassisRef} position={[x, y]}>
        <Box width={3} height={0.6} density={3} color={0xd9534f} />
        <Box width={1.4} height={0.5} offset={[-0.2, 0.55]} density={0.5} color={0xe8a33d} />
      </Body>
      {[rear, front].map((wheel, i) => {
        const side = i === 0 ? -WHEEL_X : WHEEL_X;
        const anchor1 = [side, AXLE_Y] as const;
        return (
          <WheelAssembly key={i} chassis={chassisRef} wheel={wheel} anchor1={anchor1} position={[x + side, y + AXLE_Y + SPRING_REST]} rate={rate} maxForce={maxForce} />
        );
      })}
    </>
  );
}

interface WheelAssemblyProps {
  chassis: RefObject<EngineBody | null>;
  wheel: RefObject<EngineBody | null>;
  anchor1: readonly [number, number];
  position: readonly [number, number];
  rate: number;
  maxForce: number;
}

function WheelAssembly({ chassis, wheel, anchor1, position, rate, maxForce }: WheelAssemblyProps): ReactNode {
  return (
    <>
      <Body ref={wheel} position={position}>
        {/* The default look leaves a notch in a circle, so the wheel's turning shows. */}
        <Circle radius={WHEEL_RADIUS} friction={1.2} color={0xc9ccd3} />
      </Body>
      <LineJoint body1={chassis} body2={wheel} anchor1={anchor1} direction={[0, 1]} jointMin={TRAVEL[0]} jointMax={TRAVEL[1]} ignore />
      <LineJoint
        body1={chassis}
        body2={wheel}
        anchor1={anchor1}
        direction={[0, 1]}
        jointMin={SPRING_REST}
        jointMax={SPRING_REST}
        stiff={false}
        frequency={4}
        damping={0.5}
        ignore
      />
      <MotorJoint body1={chassis} body2={wheel} rate={rate} maxForce={maxForce} />
    </>
  );
}
