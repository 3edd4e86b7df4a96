/**
 * A prop a component does not take is an error, not a prop silently ignored: TypeScript catches it
 * in TSX, a JavaScript user would otherwise see the body keep its default. Every component names
 * the prop, its value and the closest prop it does take. (<PointerDrag>'s, met through
 * `<Physics dragging={…}>`, is in drag.test.tsx: it mounts only in a canvas.)
 */
import { Body as EngineBody, Space } from '@fulcrum/physics';
import { cleanup, render } from '@testing-library/react';
import { createElement, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { InstancedBodies } from '../instanced/InstancedBodies.js';
import { AngleJoint, DistanceJoint, LineJoint, MotorJoint, PivotJoint, PulleyJoint, WeldJoint } from '../joints/joints.js';
import { UserConstraint } from '../joints/UserConstraint.js';
import { Box, Capsule, Chain, Circle, Polygon, Segment } from '../shapes/shapes.js';
import { SymbolicConstraint } from '../symbolic/SymbolicConstraint.js';
import { expectPropError } from '../test-support/render-error.js';

afterEach(cleanup);

/** `type` with its props and one extra (props typed loosely: the point is a prop TypeScript would refuse). */
const el = (type: unknown, props: Record<string, unknown>, ...children: ReactNode[]): ReactNode => createElement(type as never, props as never, ...children);

const a = new EngineBody();
const b = new EngineBody();
const inBody = (shape: ReactNode) => <Physics>{el(Body, {}, shape)}</Physics>;
const joint = (type: unknown, props: Record<string, unknown>) => <Physics>{el(type, { body1: a, body2: b, ...props })}</Physics>;

// [what, the tree with one unknown prop, the message]
const CASES: [string, () => ReactNode, RegExp][] = [
  ['<Physics>', () => el(Physics, { gravty: [0, -10] }), /^<Physics> prop gravty=\{\[0, -10\]\} is invalid: <Physics> has no prop 'gravty' \(did you mean 'gravity'\?\); its props are gravity, timeStep,/],
  ['<Physics debug={…}>', () => el(Physics, { debug: { shape: true } }), /^<Physics> prop debug\.shape=\{true\} is invalid: debug has no key 'shape' \(did you mean 'shapes'\?\)/],
  ['<Physics debug={…}> with a layer not a boolean', () => el(Physics, { debug: { aabbs: 1 } }), /^<Physics> prop debug\.aabbs=\{1\} is invalid: must be a boolean/],
  ['<Body>', () => <Physics>{el(Body, { positon: [0, 1] })}</Physics>, /<Body> has no prop 'positon' \(did you mean 'position'\?\)/],
  ['<Body> given a three.js group prop', () => <Physics>{el(Body, { castShadow: true })}</Physics>, /<Body> prop castShadow=\{true\} is invalid: <Body> has no prop 'castShadow'; its props are type, position,/],
  ['<Circle>', () => inBody(el(Circle, { radius: 1, fricton: 0.1 })), /<Circle> has no prop 'fricton' \(did you mean 'friction'\?\)/],
  ['<Box>', () => inBody(el(Box, { width: 1, height: 1, widht: 2 })), /<Box> has no prop 'widht' \(did you mean 'width'\?\)/],
  ['<Polygon>', () => inBody(el(Polygon, { vertices: [[0, 0], [1, 0], [0, 1]], piecesref: null })), /<Polygon> has no prop 'piecesref' \(did you mean 'piecesRef'\?\)/],
  ['<Capsule>', () => inBody(el(Capsule, { length: 1, radius: 0.2, lenght: 2 })), /<Capsule> has no prop 'lenght' \(did you mean 'length'\?\)/],
  ['<Segment>', () => inBody(el(Segment, { p1: [0, 0], p2: [1, 0], p3: [2, 0] })), /<Segment> has no prop 'p3' \(did you mean 'p1'\?\)/],
  ['<Segment> given a prop its kind refuses: that reason, not the list', () => inBody(el(Segment, { p1: [0, 0], p2: [1, 0], fluid: {} })), /^<Segment> prop fluid=\{\{\}\} is invalid: (?!<Segment> has no prop)/],
  ['<Chain>', () => inBody(el(Chain, { vertices: [[0, 0], [1, 0]], lop: true })), /<Chain> has no prop 'lop' \(did you mean 'loop'\?\)/],
  ['<PivotJoint>', () => joint(PivotJoint, { ancor1: [0, 0] }), /<PivotJoint> has no prop 'ancor1' \(did you mean 'anchor1'\?\)/],
  ['<WeldJoint>', () => joint(WeldJoint, { phse: 1 }), /<WeldJoint> has no prop 'phse' \(did you mean 'phase'\?\)/],
  ['<AngleJoint>', () => joint(AngleJoint, { ratoi: 2 }), /<AngleJoint> has no prop 'ratoi' \(did you mean 'ratio'\?\)/],
  ['<DistanceJoint>', () => joint(DistanceJoint, { jointmax: 2 }), /<DistanceJoint> has no prop 'jointmax' \(did you mean 'jointMax'\?\)/],
  ['<LineJoint>', () => joint(LineJoint, { anchor3: [0, 0] }), /<LineJoint> has no prop 'anchor3' \(did you mean 'anchor1'\?\)/],
  ['<MotorJoint>', () => joint(MotorJoint, { onBrake: () => {} }), /<MotorJoint> has no prop 'onBrake' \(did you mean 'onBreak'\?\)/],
  ['<PulleyJoint>', () => joint(PulleyJoint, { body5: a }), /<PulleyJoint> has no prop 'body5' \(did you mean 'body1'\?\)/],
  ['<UserConstraint>', () => <Physics>{el(UserConstraint, { dimensions: 1, hook: {} })}</Physics>, /<UserConstraint> has no prop 'hook' \(did you mean 'hooks'\?\)/],
  ['<SymbolicConstraint>', () => <Physics>{el(SymbolicConstraint, { source: 'x', scalar: {} })}</Physics>, /<SymbolicConstraint> has no prop 'scalar' \(did you mean 'scalars'\?\)/],
  ['<InstancedBodies>', () => <Physics>{el(InstancedBodies, { instances: [], instance: [] })}</Physics>, /<InstancedBodies> has no prop 'instance' \(did you mean 'instances'\?\)/],
  ['an instance of <InstancedBodies>', () => <Physics>{el(InstancedBodies, { instances: [{ position: [0, 0] }, { positon: [1, 0] }] })}</Physics>, /^<InstancedBodies> prop instances\[1\]\.positon=\{\[1, 0\]\} is invalid: instances\[1\] has no key 'positon' \(did you mean 'position'\?\); its keys are type, position,/],
];

describe('a prop a component does not take', () => {
  it("lets hyphenated names pass (JSX's data-* and aria-*, which TypeScript accepts anywhere)", () => {
    render(<Physics>{el(Body, { 'data-testid': 'ball' }, el(Circle, { radius: 1, 'aria-label': 'ball' }))}</Physics>);
  });

  it.each(CASES)('%s: a FulcrumPropError naming it, its value and the closest prop', (_, tree, message) => {
    expectPropError(tree(), message);
  });

  it('leaves the space stepping: nothing of the refused element was added', () => {
    const space = new Space({ gravity: [0, -10] });
    render(
      <Physics space={space}>
        {el(Body, { position: [0, 2] }, el(Circle, { radius: 0.5 }))}
      </Physics>,
    );
    cleanup();
    expectPropError(
      <Physics space={space}>
        {el(Body, { position: [0, 2], gravtyScale: 2 }, el(Circle, { radius: 0.5 }))}
      </Physics>,
      /has no prop 'gravtyScale' \(did you mean 'gravityScale'\?\)/,
    );
    expect(space.bodies).toEqual([]);
    for (let i = 0; i < 10; i++) space.step(1 / 60);
    expect(space.stepCount).toBe(10);
  });
});
