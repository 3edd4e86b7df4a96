/**
 * Test scene: a ball held on the unit circle around the origin by a <UserConstraint> whose
 * hand-written jacobian has a sign slipped into ∂C/∂x (the engine README's example). At the
 * ball's start, (1, 0), it gives −1 where the finite differences of position() give 1, so a space
 * with checkUserConstraints on throws before its first step.
 */
import type { Body as EngineBody, UserConstraint as EngineUserConstraint } from '@fulcrum/physics';
import { useRef, type ReactNode, type RefObject } from 'react';
import { Body } from '../components/Body.js';
import { UserConstraint } from '../joints/UserConstraint.js';
import { Circle } from '../shapes/shapes.js';

export function WrongJacobian({ ball }: { ball: RefObject<EngineBody | null> }): ReactNode {
  const ground = useRef<EngineBody>(null);
  return (
    <>
      <Body ref={ground} type="static" />
      <Body ref={ball} position={[1, 0]}>
        <Circle radius={0.1} />
      </Body>
      <UserConstraint
        dimensions={1}
        bodies={[ground, ball]}
        hooks={{
          position(this: EngineUserConstraint, err) {
            const b = this.bodyList[1]!;
            err[0] = Math.hypot(b.x, b.y) - 1;
          },
          jacobian(this: EngineUserConstraint, J) {
            const b = this.bodyList[1]!;
            const L = Math.hypot(b.x, b.y);
            J.set([0, 0, 0, -b.x / L, b.y / L, 0]);
          },
        }}
      />
    </>
  );
}
