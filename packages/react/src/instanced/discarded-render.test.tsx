/**
 * Props of a render React discards never reach the engine, even where the engine objects are
 * built later from the props a component stored: a shape template copied onto a new instance of
 * <InstancedBodies>, and a <Body> (with its shapes) that a Suspense boundary hid and shows again,
 * rebuilt without rendering. (Beside hooks/committed-handlers.test.tsx, which does the same for
 * the handlers and hooks the solver calls.)
 *
 * Each case renders a transition that never commits (a sibling suspends for good), then commits
 * urgent updates in which the components that stored the discarded props do not render again:
 * their elements are memoized on the committed state, so React reuses them.
 */
import type { Body as EngineBody, Circle as EngineCircle } from '@fulcrum/physics';
import { act, cleanup } from '@testing-library/react';
import { startTransition, Suspense, use, useMemo, useState, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { Circle } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import { InstancedBodies } from './InstancedBodies.js';

afterEach(cleanup);

/** Suspends for good when `on`. */
const NEVER = new Promise<never>(() => {});
function Suspender({ on }: { on: boolean }): ReactNode {
  if (on) use(NEVER);
  return null;
}

const radiusOf = (b: EngineBody): number => (b.shapes[0] as EngineCircle).radius;

describe('props of a discarded render never reach the engine', () => {
  it('a new instance of <InstancedBodies> gets the committed shape template', async () => {
    const probe = makeProbe();
    let bodies: readonly EngineBody[] | null = null;
    let update: (s: { radius: number; count: number; suspend: boolean }) => void = () => {};
    function App(): ReactNode {
      const [s, set] = useState({ radius: 0.5, count: 1, suspend: false });
      update = set;
      const template = useMemo(() => <Circle radius={s.radius} />, [s.radius]);
      return (
        <Physics gravity={[0, 0]}>
          <probe.Component />
          <Suspense fallback={null}>
            <InstancedBodies ref={(b) => void (bodies = b)} instances={Array.from({ length: s.count }, (_, i) => ({ position: [2 * i, 0] as const }))}>
              {template}
            </InstancedBodies>
            <Suspender on={s.suspend} />
          </Suspense>
        </Physics>
      );
    }
    const root = createRoot(document.createElement('div'));
    act(() => root.render(<App />));
    // Rendered with radius 2, then abandoned.
    await act(async () => startTransition(() => update({ radius: 2, count: 1, suspend: true })));
    // A second instance, the template (radius 0.5, memoized) not rendered again.
    await act(async () => update({ radius: 0.5, count: 2, suspend: false }));
    expect(bodies!.length).toBe(2);
    expect(bodies!.map(radiusOf)).toEqual([0.5, 0.5]);
    expect(probe.space.bodies.length).toBe(2);
    act(() => root.unmount());
  });

  it('a <Body> that a Suspense boundary hid and shows again is rebuilt from its committed props', async () => {
    const probe = makeProbe();
    const state = { x: 0, drag: 0.1, target: 0, radius: 0.5 };
    let update: (s: typeof state & { suspend: boolean }) => void = () => {};
    let ball: EngineBody | null = null;
    let platform: EngineBody | null = null;
    function App(): ReactNode {
      const [s, set] = useState({ ...state, suspend: false });
      update = set;
      const bodies = useMemo(
        () => (
          <>
            <Body ref={(b) => void (ball = b)} position={[s.x, 0]} linearDrag={s.drag}>
              <Circle radius={s.radius} />
            </Body>
            {/* No position: it starts at its target. */}
            <Body ref={(b) => void (platform = b)} type="kinematic" target={[s.target, 3]}>
              <Circle radius={0.5} />
            </Body>
          </>
        ),
        [s.x, s.drag, s.target, s.radius],
      );
      return (
        <Physics gravity={[0, 0]}>
          <probe.Component />
          <Suspense fallback={null}>
            {bodies}
            <Suspender on={s.suspend} />
          </Suspense>
        </Physics>
      );
    }
    const root = createRoot(document.createElement('div'));
    act(() => root.render(<App />));
    expect([ball!.x, ball!.linearDrag, radiusOf(ball!), platform!.x]).toEqual([0, 0.1, 0.5, 0]);
    // Rendered with other props everywhere, then abandoned.
    await act(async () => startTransition(() => update({ x: 5, drag: 0.7, target: 4, radius: 2, suspend: true })));
    expect(probe.space.bodies.length).toBe(2);
    // The committed props, suspending at once: the boundary hides the bodies (they leave the space)…
    await act(async () => update({ ...state, suspend: true }));
    expect(probe.space.bodies.length).toBe(0);
    // …and shows them again without rendering them: they are rebuilt, from the committed props.
    await act(async () => update({ ...state, suspend: false }));
    expect(probe.space.bodies.length).toBe(2);
    expect([ball!.x, ball!.linearDrag, radiusOf(ball!), platform!.x]).toEqual([0, 0.1, 0.5, 0]);
    // Stepping does not move the platform off its committed target either.
    act(() => probe.api!.step());
    expect([platform!.x, platform!.y]).toEqual([0, 3]);
    // A render that commits does reach the engine.
    await act(async () => update({ x: 1, drag: 0.2, target: 2, radius: 1, suspend: false }));
    act(() => probe.api!.step());
    expect([ball!.x, ball!.linearDrag, radiusOf(ball!), platform!.x]).toEqual([1, 0.2, 1, 2]);
    act(() => root.unmount());
  });
});
