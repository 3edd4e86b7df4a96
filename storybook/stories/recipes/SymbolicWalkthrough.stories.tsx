import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Circle } from '@fulcrum/react';
import { SymbolicConstraint, type SymbolicConstraintProps } from '@fulcrum/react/symbolic';
import { SymbolicConstraint as EngineSymbolicConstraint } from '@fulcrum/symbolic';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo, useRef } from 'react';
import { COMMON_CONSTRAINT_ARG_TYPES, COMMON_CONSTRAINT_ARGS, range } from '../support/controls';
import { accent, bodyColors, fonts, ui } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { Anchor, DRAG_HANDLE, Floor, SETTLE } from '../support/scenery';

interface Controls extends Omit<SymbolicConstraintProps, 'source' | 'bodies' | 'scalars' | 'vectors' | 'compile' | 'ref'> {
  /** The bowl's curvature k in y = k·x², 1/m: the source's `scalar k`. */
  k: number;
}

/** The constraint of the walkthrough, in @fulcrum/symbolic's language. */
export const BOWL_SOURCE = `# A bead on the wire y = k x² through the bowl's bottom
body bottom, bead
scalar k
constraint
  let d = bead.position - bottom.position in
  d.y - k * d.x * d.x
`;

const BOTTOM: [number, number] = [0, -3];
/** The bead starts on the default wire (a constant: `position` is an initial condition). */
const BEAD_START: [number, number] = [3, BOTTOM[1] + 0.35 * 9];
const WIRE_HALF_WIDTH = 5;
const WIRE_POINTS = 41;

/**
 * The bowl of the UserConstraint walkthrough written as a formula: `<SymbolicConstraint>` derives
 * V, J and K from C and compiles them. The derivation it made is printed under the canvas
 * (`debug()` of the same source).
 */
function SymbolicBowlScene({ k, ...constraint }: Controls) {
  const bottom = useRef<EngineBody>(null);
  const bead = useRef<EngineBody>(null);
  const scalars = useMemo(() => ({ k }), [k]);
  return (
    <>
      <Floor />
      <Anchor bodyRef={bottom} position={BOTTOM} />
      <Wire k={k} />
      <Body ref={bead} position={BEAD_START} userData={DRAG_HANDLE} {...SETTLE}>
        <Circle radius={0.3} color={accent.subject} />
      </Body>
      <SymbolicConstraint source={BOWL_SOURCE} bodies={{ bottom, bead }} scalars={scalars} {...constraint} />
    </>
  );
}

/** The wire, a three.js line in the constraint colour (the bottom never moves). */
function Wire({ k }: { k: number }) {
  const positions = useMemo(
    () =>
      new Float32Array(
        Array.from({ length: WIRE_POINTS }, (_, i) => {
          const x = -WIRE_HALF_WIDTH + (2 * WIRE_HALF_WIDTH * i) / (WIRE_POINTS - 1);
          return [BOTTOM[0] + x, BOTTOM[1] + k * x * x, 0];
        }).flat(),
      ),
    [k],
  );
  return (
    <line key={k}>
      <bufferGeometry>
        <bufferAttribute attach="attributes-position" args={[positions, 3]} />
      </bufferGeometry>
      <lineBasicMaterial color={bodyColors.constraint} />
    </line>
  );
}

/** What the compiler derived from the source: C, V, J and K as text (the constraint's debug()). */
function DerivationPanel() {
  const text = useMemo(() => {
    const full = new EngineSymbolicConstraint(BOWL_SOURCE).debug();
    return full.slice(full.indexOf('C ('));
  }, []);
  return (
    <pre data-testid="symbolic-derivation" style={{ margin: 0, padding: 8, maxHeight: 220, overflow: 'auto', fontFamily: fonts.code, fontSize: 11, color: ui.text, background: ui.inset, borderTop: `1px solid ${ui.border}` }}>
      {text}
    </pre>
  );
}

const meta = {
  title: 'Recipes/SymbolicConstraint walkthrough',
  component: SymbolicBowlScene,
  // The source is shown on the docs page; it is not a story.
  excludeStories: ['BOWL_SOURCE'],
  tags: ['joint', 'settles'],
  args: { ...COMMON_CONSTRAINT_ARGS, k: 0.35 },
  argTypes: { k: { ...range(0.05, 1, 0.05), description: 'The source\'s `scalar k` (setScalar, in place).' }, ...COMMON_CONSTRAINT_ARG_TYPES },
  parameters: { fulcrum: { controlChange: { k: 0.1 }, panel: DerivationPanel } satisfies FulcrumParameters },
} satisfies Meta<typeof SymbolicBowlScene>;

export default meta;

/** The same bead in the same bowl, from four lines of the constraint language. */
export const BeadInABowl: StoryObj<typeof meta> = { name: 'Bead in a bowl' };
