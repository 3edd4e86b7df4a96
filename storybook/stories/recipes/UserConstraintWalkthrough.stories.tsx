import { DebugColors, type Body as EngineBody, type UserConstraint as EngineUserConstraint, type UserConstraintHooks } from '@fulcrum/physics';
import { Body, Circle, UserConstraint, type UserConstraintProps } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useLayoutEffect, useRef } from 'react';
import { COMMON_CONSTRAINT_ARG_TYPES, COMMON_CONSTRAINT_ARGS, range } from '../support/controls';
import { accent } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { Anchor, DRAG_HANDLE, Floor, SETTLE } from '../support/scenery';

type Form = 'position only' | 'position + jacobian';

interface Controls extends Omit<UserConstraintProps, 'bodies' | 'hooks' | 'dimensions' | 'ref'> {
  /** The bowl's curvature k in y = k·x², 1/m. */
  curvature: number;
  /** Which hooks define the constraint. */
  form: Form;
}

const BOTTOM: [number, number] = [0, -3];
/** The bead starts on the default wire, 3 m left of the bottom (a constant: `position` is an initial condition). */
const BEAD_START: [number, number] = [-3, BOTTOM[1] + 0.35 * 9];
/** Half-width of the drawn wire, metres, and its segments. */
const WIRE_HALF_WIDTH = 5;
const WIRE_SEGMENTS = 40;

/**
 * The constraint built step by step on the docs page (Recipes/UserConstraint walkthrough): a bead
 * on a wire bent into the parabola y = k·x² around a fixed point, the bowl's bottom.
 *   C = (y_bead − y_bottom) − k (x_bead − x_bottom)²
 * With `form` "position only" the engine takes the Jacobian by finite differences of C; with
 * "position + jacobian" it uses the one written by hand (checked against those differences,
 * since the Storybook runs with checkUserConstraints). The `draw` hook draws the wire.
 */
function BowlScene({ curvature: k, form, ...constraint }: Controls) {
  const bottom = useRef<EngineBody>(null);
  const bead = useRef<EngineBody>(null);
  const ref = useRef<EngineUserConstraint>(null);
  // The hooks read k from the latest render: a new k must wake the bead (see the README).
  useLayoutEffect(() => ref.current?.invalidate(), [k]);
  const hooks: UserConstraintHooks = {
    position(err) {
      const [b, p] = this.bodyList;
      const dx = p!.x - b!.x;
      err[0] = p!.y - b!.y - k * dx * dx;
    },
    draw(debug) {
      const b = bottom.current;
      if (!b) return;
      const at = (i: number) => {
        const x = -WIRE_HALF_WIDTH + (2 * WIRE_HALF_WIDTH * i) / WIRE_SEGMENTS;
        return [b.x + x, b.y + k * x * x] as const;
      };
      for (let i = 0; i < WIRE_SEGMENTS; i++) debug.drawSegment(...at(i), ...at(i + 1), DebugColors.constraint);
    },
  };
  if (form === 'position + jacobian') {
    // ∂C/∂(x, y, θ) of the bottom, then of the bead: the columns follow `bodies`.
    hooks.jacobian = function (J) {
      const [b, p] = this.bodyList;
      const dx = p!.x - b!.x;
      J.set([2 * k * dx, -1, 0, -2 * k * dx, 1, 0]);
    };
  }
  return (
    <>
      <Floor />
      <Anchor bodyRef={bottom} position={BOTTOM} />
      <Body ref={bead} position={BEAD_START} userData={DRAG_HANDLE} {...SETTLE}>
        <Circle radius={0.3} color={accent.subject} />
      </Body>
      <UserConstraint ref={ref} dimensions={1} bodies={[bottom, bead]} hooks={hooks} {...constraint} />
    </>
  );
}

const meta = {
  title: 'Recipes/UserConstraint walkthrough',
  component: BowlScene,
  tags: ['joint', 'settles'],
  args: { ...COMMON_CONSTRAINT_ARGS, curvature: 0.35, form: 'position + jacobian' },
  argTypes: {
    curvature: { ...range(0.05, 1, 0.05), description: 'k in y = k·x² (1/m), read by the hooks.' },
    form: { control: 'radio', options: ['position only', 'position + jacobian'] satisfies Form[], description: 'Which hooks define the constraint.' },
    ...COMMON_CONSTRAINT_ARG_TYPES,
  },
  parameters: { fulcrum: { controlChange: { curvature: 0.1 } } satisfies FulcrumParameters },
} satisfies Meta<typeof BowlScene>;

export default meta;

/** A bead sliding in a parabolic bowl, held by a one-row UserConstraint. */
export const BeadInABowl: StoryObj<typeof meta> = { name: 'Bead in a bowl' };
