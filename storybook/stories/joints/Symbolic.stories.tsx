import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box } from '@fulcrum/react';
import { SymbolicConstraint, type SymbolicConstraintProps } from '@fulcrum/react/symbolic';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useMemo, useRef } from 'react';
import { COMMON_CONSTRAINT_ARG_TYPES, COMMON_CONSTRAINT_ARGS, range, vectorControl } from '../support/controls';
import { fonts, ui } from '../support/palette';
import type { FulcrumParameters, StoryPanelProps } from '../support/parameters';
import { Anchor, DRAG_HANDLE, Floor, SETTLE } from '../support/scenery';
import { checkSource } from './symbolic-check';

const BODIES = ['hook', 'crate'];
const SCALARS = ['length'];
const VECTORS = ['anchor'];

const DEFAULT_SOURCE = `# A rope of fixed length from a point on the hook to the crate's centre
body hook, crate
vector anchor
scalar length
constraint
  let p = hook.position + relative hook.rotation anchor in
  |crate.position - p| - length
`;

interface Controls extends Omit<SymbolicConstraintProps, 'bodies' | 'scalars' | 'vectors' | 'compile' | 'ref'> {
  /** The constraint in @fulcrum/symbolic's language (editable here or under the canvas). */
  source: string;
  /** The source's `scalar length`. */
  length: number;
  /** The source's `vector anchor`. */
  anchor: [number, number];
}

/**
 * A crate on a rope whose law is written in the symbolic DSL. Edit the source live: a source
 * that does not compile, or fails the derivative check the Storybook runs with, is reported
 * under the canvas, and the scene keeps the last good one.
 */
function SymbolicRopeScene({ source, length, anchor, ...constraint }: Controls) {
  const hook = useRef<EngineBody>(null);
  const crate = useRef<EngineBody>(null);
  const lastGood = useRef(DEFAULT_SOURCE);
  const check = useMemo(() => checkSource(source, BODIES, SCALARS, VECTORS), [source]);
  if (check.ok) lastGood.current = source;
  const used = check.ok ? check : checkSource(lastGood.current, BODIES, SCALARS, VECTORS);
  const scalars = useMemo(() => pickKeys({ length }, used.scalarNames), [length, used]);
  const vectors = useMemo(() => pickKeys({ anchor }, used.vectorNames), [anchor, used]);
  return (
    <>
      <Floor />
      <Anchor bodyRef={hook} position={[0, 4]} />
      <Body ref={crate} position={[3, 2]} userData={DRAG_HANDLE} {...SETTLE}>
        <Box width={1} height={1} />
      </Body>
      <SymbolicConstraint source={lastGood.current} bodies={{ hook, crate }} scalars={scalars} vectors={vectors} {...constraint} />
    </>
  );
}

/** Only the parameters the current source declares (an undeclared one would be a prop error). */
function pickKeys<T>(values: Record<string, T>, names: readonly string[]): Record<string, T> {
  return Object.fromEntries(Object.entries(values).filter(([k]) => names.includes(k)));
}

/** The source editor and its compile status, under the canvas. */
function SourcePanel({ args, updateArgs }: StoryPanelProps) {
  const source = String(args.source ?? '');
  const check = useMemo(() => checkSource(source, BODIES, SCALARS, VECTORS), [source]);
  return (
    <div style={{ padding: 8, background: ui.surface, borderTop: `1px solid ${ui.border}` }}>
      <textarea
        data-testid="symbolic-source"
        value={source}
        spellCheck={false}
        rows={8}
        onChange={(e) => updateArgs({ source: e.target.value })}
        style={{ width: '100%', boxSizing: 'border-box', fontFamily: fonts.code, fontSize: 12, background: ui.inset, color: ui.text, border: `1px solid ${ui.border}` }}
      />
      <pre
        data-testid="symbolic-status"
        style={{ margin: 0, whiteSpace: 'pre-wrap', fontSize: 12, color: check.ok ? ui.ok : ui.error }}
      >
        {check.ok ? 'compiled' : `rejected (the scene keeps the last good source):\n${check.error}`}
      </pre>
    </div>
  );
}

const meta = {
  title: 'Joints/SymbolicConstraint',
  component: SymbolicRopeScene,
  tags: ['joint', 'settles'],
  args: { ...COMMON_CONSTRAINT_ARGS, source: DEFAULT_SOURCE, length: 3, anchor: [0, 0] },
  argTypes: {
    source: { control: 'text', description: "The constraint's source in @fulcrum/symbolic's language." },
    length: { ...range(0.5, 6, 0.1), description: 'The `length` scalar (setScalar, in place).' },
    anchor: vectorControl('The `anchor` vector on the hook (setVector, in place).'),
    ...COMMON_CONSTRAINT_ARG_TYPES,
  },
  parameters: { fulcrum: { controlChange: { length: 1.5 }, panel: SourcePanel } satisfies FulcrumParameters },
} satisfies Meta<typeof SymbolicRopeScene>;

export default meta;

/** Change `length` (in place), or rewrite the law: try `|crate.position - p| - 2 * length`. */
export const Rope: StoryObj<typeof meta> = {};
