/**
 * Handlers and hooks the solver calls are the committed ones: a render React discards (here, a
 * transition that never commits because a sibling suspends) must not leave its closures behind.
 */
import { Body as EngineBody } from '@fulcrum/physics';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import { act, cleanup } from '@testing-library/react';
import { startTransition, Suspense, use, useRef, useState, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { InstancedBodies } from '../instanced/InstancedBodies.js';
import { PivotJoint } from '../joints/joints.js';
import { UserConstraint } from '../joints/UserConstraint.js';
import { Box, Circle } from '../shapes/shapes.js';
import { SymbolicConstraint } from '../symbolic/SymbolicConstraint.js';
import { makeProbe } from '../test-support/probe.js';
import { useBeforeStep } from './hooks.js';

afterEach(cleanup);

/** Suspends for good when `on`. */
const NEVER = new Promise<never>(() => {});
function Suspender({ on }: { on: boolean }): ReactNode {
  if (on) use(NEVER);
  return null;
}

const ROD = `
  body a, b
  constraint
    |b.position - a.position| - 3
`;

type Log = (tag: string, what: string) => void;

function Stepper({ tag, log }: { tag: string; log: Log }): ReactNode {
  useBeforeStep(() => log(tag, 'beforeStep'));
  return null;
}

/** Every component that hands the solver a function, each calling `log(tag, what)`. */
function Scene({ tag, log, probe }: { tag: string; log: Log; probe: ReturnType<typeof makeProbe> }): ReactNode {
  const ground = useRef<EngineBody>(null);
  const ball = useRef<EngineBody>(null);
  return (
    <Physics gravity={[0, -10]}>
      <probe.Component />
      <Stepper tag={tag} log={log} />
      <Body ref={ground} type="static" position={[0, -0.5]}>
        <Box width={40} height={1} />
      </Body>
      {/* Resting on the ground: its contact begins in the first step. */}
      <Body ref={ball} position={[0, 0.5]} onBeginContact={() => log(tag, 'Body.onBeginContact')}>
        <Circle radius={0.5} />
      </Body>
      <InstancedBodies instances={[{ position: [5, 0.5] }]} onBeginContact={() => log(tag, 'InstancedBodies.onBeginContact')}>
        <Circle radius={0.5} />
      </InstancedBodies>
      {/* Far from where it wants the ball, with a tiny force limit: it breaks in the first step. */}
      <PivotJoint body1={ground} body2={ball} anchor1={[0, 10]} maxForce={0.001} breakUnderForce onBreak={() => log(tag, 'PivotJoint.onBreak')} />
      <UserConstraint
        dimensions={1}
        bodies={[ground, ball]}
        hooks={{
          position(err) {
            log(tag, 'UserConstraint.position');
            const [g, b] = this.bodyList;
            err[0] = b!.x - g!.x; // holds the ball above the ground's origin: already true
          },
        }}
      />
      <SymbolicConstraint source={ROD} bodies={{ a: ground, b: ball }} maxError={0.001} breakUnderError onBreak={() => log(tag, 'SymbolicConstraint.onBreak')} />
    </Physics>
  );
}

describe('what the solver calls comes from committed renders only', () => {
  it('a transition that never commits (a sibling suspends) leaves the committed handlers in place', async () => {
    const calls = new Set<string>();
    const log = (tag: string, what: string) => void calls.add(`${tag} ${what}`);
    const probe = makeProbe();
    const root = createRoot(document.createElement('div'));
    const app = (tag: string, suspend: boolean) => (
      <Suspense fallback={null}>
        <Scene tag={tag} log={log} probe={probe} />
        <Suspender on={suspend} />
      </Suspense>
    );
    act(() => root.render(app('A', false)));
    // Rendered with B's closures, then abandoned: the transition waits on a promise that never settles.
    await act(async () => startTransition(() => root.render(app('B', true))));
    expect(probe.space.bodies.length).toBe(3); // still the committed scene
    act(() => probe.api!.step());
    const seen = [...calls].sort();
    expect(seen.filter((c) => c.startsWith('B '))).toEqual([]);
    expect(seen).toEqual(
      [
        'A Body.onBeginContact',
        'A InstancedBodies.onBeginContact',
        'A PivotJoint.onBreak',
        'A SymbolicConstraint.onBreak',
        'A UserConstraint.position',
        'A beforeStep',
      ].sort(),
    );
    // A render that commits does reach the solver.
    calls.clear();
    act(() => root.render(app('C', false)));
    act(() => probe.api!.step());
    expect([...calls].sort()).toEqual(['C UserConstraint.position', 'C beforeStep']);
    act(() => root.unmount());
  });

  it('<PointerDrag>\'s callbacks too', async () => {
    const calls: string[] = [];
    let canvas: HTMLCanvasElement | null = null;
    const app = (tag: string, suspend: boolean) => (
      <Suspense fallback={null}>
        <Physics gravity={[0, 0]} dragging={{ onDrag: (b) => calls.push(`${tag} drag ${b === null ? 'end' : 'start'}`), filter: () => (calls.push(`${tag} filter`), true) }}>
          <Body position={[0, 0]}>
            <Circle radius={1} />
          </Body>
        </Physics>
        <Suspender on={suspend} />
      </Suspense>
    );
    const r = await ReactThreeTestRenderer.create(app('A', false), {
      width: 800,
      height: 600,
      orthographic: true,
      camera: { zoom: 40, position: [0, 0, 100] },
      beforeReturn: (c: HTMLCanvasElement) => {
        canvas = c;
        c.getBoundingClientRect = () => ({ left: 0, top: 0, width: 800, height: 600, right: 800, bottom: 600, x: 0, y: 0, toJSON() {} });
      },
    });
    await ReactThreeTestRenderer.act(async () => startTransition(() => void r.update(app('B', true))));
    canvas!.dispatchEvent(new PointerEvent('pointerdown', { clientX: 400, clientY: 300, button: 0, pointerId: 1, bubbles: true }));
    expect(calls).toEqual(['A filter', 'A drag start']);
    await r.unmount();
  });
});

describe('props the solver reads come from committed renders only', () => {
  it('a joint keeps its committed body2 when a discarded transition changed it and something else mounts later', async () => {
    const probe = makeProbe();
    const root = createRoot(document.createElement('div'));
    let showExtra: (on: boolean) => void = () => {};
    /** A body mounted by its own state: the joint does not render again when it appears. */
    function Extra(): ReactNode {
      const [on, setOn] = useState(false);
      showExtra = setOn;
      return on ? (
        <Body position={[0, 5]}>
          <Circle radius={0.5} />
        </Body>
      ) : null;
    }
    function Joined({ second }: { second: 'b' | 'c' }): ReactNode {
      const a = useRef<EngineBody>(null);
      const b = useRef<EngineBody>(null);
      const c = useRef<EngineBody>(null);
      return (
        <>
          <Body ref={a} type="static" position={[0, 0]} />
          <Body ref={b} position={[2, 0]}>
            <Circle radius={0.5} />
          </Body>
          <Body ref={c} position={[-2, 0]}>
            <Circle radius={0.5} />
          </Body>
          <PivotJoint body1={a} body2={second === 'b' ? b : c} />
        </>
      );
    }
    const app = (second: 'b' | 'c', suspend: boolean) => (
      <Physics gravity={[0, 0]}>
        <probe.Component />
        <Extra />
        <Suspense fallback={null}>
          <Joined second={second} />
          <Suspender on={suspend} />
        </Suspense>
      </Physics>
    );
    act(() => root.render(app('b', false)));
    const joint = () => probe.space.constraints[0]!;
    const bBody = joint().bodies[1]!;
    expect(bBody.x).toBe(2);
    // Rendered with body2 = c, then abandoned: the transition waits on a promise that never settles.
    await act(async () => startTransition(() => root.render(app('c', true))));
    // An unrelated body mounts in a commit of its own; the joint resolves its bodies again.
    act(() => showExtra(true));
    expect(probe.space.bodies.length).toBe(4);
    expect(joint().bodies[1]).toBe(bBody);
    act(() => root.unmount());
  });
});
