import { BODY_STATE_STRIDE, BodyState, DebugColors, type Body as EngineBody, type UserConstraint as EngineUserConstraint } from '@fulcrum/physics';
import { Body, Circle, UserConstraint, type UserConstraintProps } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useLayoutEffect, useRef } from 'react';
import { COMMON_CONSTRAINT_ARG_TYPES, COMMON_CONSTRAINT_ARGS, range } from '../support/controls';
import type { FulcrumParameters } from '../support/parameters';
import { Anchor, DRAG_HANDLE, Floor, SETTLE } from '../support/scenery';

interface Controls extends Omit<UserConstraintProps, 'bodies' | 'hooks' | 'dimensions' | 'ref'> {
  /** The ellipse's half-width (m). */
  semiAxisX: number;
  /** The ellipse's half-height (m). */
  semiAxisY: number;
}

const S = BODY_STATE_STRIDE;
/** Segments of the drawn wire. */
const WIRE_SEGMENTS = 64;

/**
 * A bead kept on an ellipse around a fixed centre by a one-row constraint defined only by its
 * `position` hook (the engine takes the Jacobian by finite differences), and drawn by its `draw`
 * hook:
 * C = √((dx/a)² + (dy/b)²) − 1, scaled by √(ab) so that it is roughly metres.
 */
function EllipseBeadScene({ semiAxisX, semiAxisY, ...constraint }: Controls) {
  const centre = useRef<EngineBody>(null);
  const bead = useRef<EngineBody>(null);
  const ref = useRef<EngineUserConstraint>(null);
  // The hook reads the semi-axes from the latest render, so changing them must wake the island.
  useLayoutEffect(() => ref.current?.invalidate(), [semiAxisX, semiAxisY]);
  return (
    <>
      <Floor />
      <Anchor bodyRef={centre} position={[0, 0.5]} />
      <Body ref={bead} position={[semiAxisX, 0.5]} userData={DRAG_HANDLE} {...SETTLE}>
        <Circle radius={0.35} />
      </Body>
      <UserConstraint
        ref={ref}
        dimensions={1}
        bodies={[centre, bead]}
        hooks={{
          position(err, st) {
            const dx = (st[S + BodyState.x] - st[BodyState.x]) / semiAxisX;
            const dy = (st[S + BodyState.y] - st[BodyState.y]) / semiAxisY;
            err[0] = (Math.hypot(dx, dy) - 1) * Math.sqrt(semiAxisX * semiAxisY);
          },
          // The wire itself, through the debug sink (drawn with the story's constraint layer).
          draw(debug) {
            const c = centre.current;
            if (!c) return;
            for (let i = 0; i < WIRE_SEGMENTS; i++) {
              const t0 = (2 * Math.PI * i) / WIRE_SEGMENTS;
              const t1 = (2 * Math.PI * (i + 1)) / WIRE_SEGMENTS;
              debug.drawSegment(
                c.x + semiAxisX * Math.cos(t0),
                c.y + semiAxisY * Math.sin(t0),
                c.x + semiAxisX * Math.cos(t1),
                c.y + semiAxisY * Math.sin(t1),
                DebugColors.constraint,
              );
            }
          },
        }}
        {...constraint}
      />
    </>
  );
}

const meta = {
  title: 'Joints/UserConstraint',
  component: EllipseBeadScene,
  tags: ['joint', 'settles'],
  args: { ...COMMON_CONSTRAINT_ARGS, semiAxisX: 4, semiAxisY: 2.5 },
  argTypes: {
    semiAxisX: { ...range(0.5, 8, 0.1), description: "The ellipse's half-width (read by the position hook)." },
    semiAxisY: { ...range(0.5, 5, 0.1), description: "The ellipse's half-height (read by the position hook)." },
    ...COMMON_CONSTRAINT_ARG_TYPES,
  },
  parameters: { fulcrum: { controlChange: { semiAxisY: 1 } } satisfies FulcrumParameters },
} satisfies Meta<typeof EllipseBeadScene>;

export default meta;

/** A bead on an elliptic wire: it slides down and settles at the bottom. Reshape the wire live. */
export const EllipseBead: StoryObj<typeof meta> = {};
