/**
 * usePreSolve: several callbacks share the world's one engine preSolve, run in mount order,
 * combine so that ignoring wins, may change the contact's material, and are removed from the
 * engine when none remain.
 */
import type { Body as EngineBody, Contact, PreSolveCallback, PreSolveFlag } from '@fulcrum/physics';
import { act, cleanup, render } from '@testing-library/react';
import { createRef, startTransition, StrictMode, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import type { PhysicsWorld } from '../core/physics-world.js';
import { Box, Chain, Circle, Polygon } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import { usePreSolve } from './use-pre-solve.js';

afterEach(cleanup);

function Filter({ callback }: { callback: PreSolveCallback }): ReactNode {
  usePreSolve(callback);
  return null;
}

/** Ground (top at y = 0) and a 1 m box resting on it, with the given filters. */
function Scene({ probe, box, filters, children }: { probe: ReturnType<typeof makeProbe>; box: { current: EngineBody | null }; filters: PreSolveCallback[]; children?: ReactNode }): ReactNode {
  return (
    <Physics gravity={[0, -10]}>
      <probe.Component />
      {filters.map((f, i) => (
        <Filter key={i} callback={f} />
      ))}
      <Body type="static" position={[0, -0.5]}>
        <Box width={20} height={1} />
      </Body>
      <Body ref={box} position={[0, 0.5]}>
        <Box width={1} height={1} />
      </Body>
      {children}
    </Physics>
  );
}

describe('usePreSolve', () => {
  it('runs every callback in mount order, and the engine callback goes when the last one unmounts', () => {
    const probe = makeProbe();
    const box = createRef<EngineBody>();
    const calls: string[] = [];
    const a = (c: Contact) => void calls.push(`a${c.bodyA.id === box.current!.id || c.bodyB.id === box.current!.id ? '' : '?'}`);
    const b = () => void calls.push('b');
    const { rerender } = render(<Scene probe={probe} box={box} filters={[a, b]} />);
    expect(probe.space.preSolve).toBeTypeOf('function');
    probe.api!.step();
    expect(calls).toEqual(['a', 'b']); // one touching contact, asked once per callback
    probe.api!.step();
    expect(calls).toEqual(['a', 'b', 'a', 'b']); // 'accept' or not, asked on every step
    rerender(<Scene probe={probe} box={box} filters={[a]} />);
    expect(probe.space.preSolve).toBeTypeOf('function');
    rerender(<Scene probe={probe} box={box} filters={[]} />);
    expect(probe.space.preSolve).toBeNull();
  });

  it('combines answers so that ignoring wins', () => {
    const fallsThrough = (answers: (PreSolveFlag | undefined)[]) => {
      const probe = makeProbe();
      const box = createRef<EngineBody>();
      render(<Scene probe={probe} box={box} filters={answers.map((x) => () => x)} />);
      for (let i = 0; i < 60; i++) probe.api!.step();
      const y = box.current!.y;
      cleanup();
      return y < -1;
    };
    expect(fallsThrough(['accept', undefined, 'acceptOnce'])).toBe(false);
    expect(fallsThrough(['accept', 'ignore'])).toBe(true);
    expect(fallsThrough(['ignoreOnce', 'accept'])).toBe(true);
    expect(fallsThrough(['accept', 'ignoreOnce', 'acceptOnce'])).toBe(true);
  });

  it('a callback’s material changes apply to the contact', () => {
    const bounce = (restitution: number | null) => {
      const probe = makeProbe();
      const ball = createRef<EngineBody>();
      const filters = restitution === null ? [] : [(c: Contact) => void (c.restitution = restitution)];
      render(
        <Scene probe={probe} box={createRef()} filters={filters}>
          <Body ref={ball} position={[5, 3]}>
            <Circle radius={0.25} />
          </Body>
        </Scene>,
      );
      let top = 0;
      let landed = false;
      for (let i = 0; i < 150; i++) {
        const falling = ball.current!.velocity.y < -1;
        probe.api!.step();
        if (falling && ball.current!.velocity.y > -1) landed = true; // the impact stopped or turned it
        if (landed) top = Math.max(top, ball.current!.y);
      }
      expect(landed).toBe(true);
      cleanup();
      return top;
    };
    expect(bounce(null)).toBeLessThan(0.3); // restitution 0: it stays down (its centre rests at 0.25)
    expect(bounce(0.9)).toBeGreaterThan(2); // bounces back up to about 0.81 of its 2.75 m fall
  });

  it('a throwing callback or a bad answer fails the step, naming the hook', () => {
    const probe = makeProbe();
    const box = createRef<EngineBody>();
    render(<Scene probe={probe} box={box} filters={[() => 'nope' as PreSolveFlag]} />);
    expect(() => probe.api!.step()).toThrow(/usePreSolve callback returned nope for the contact of Body#\d+ and Body#\d+/);
  });

  it('the latest committed callback runs: a render React discards never reaches the solver', async () => {
    const probe = makeProbe();
    const box = createRef<EngineBody>();
    const first = vi.fn();
    const discarded = vi.fn();
    const never = new Promise<never>(() => {});
    function Suspend(): ReactNode {
      throw never;
    }
    const root = createRoot(document.createElement('div'));
    await act(async () => root.render(<Scene probe={probe} box={box} filters={[first]} />));
    // A transition whose sibling suspends is never committed.
    await act(async () => startTransition(() => root.render(<Scene probe={probe} box={box} filters={[discarded]}><Suspend /></Scene>)));
    probe.api!.step();
    expect(first).toHaveBeenCalled();
    expect(discarded).not.toHaveBeenCalled();
    // A committed render's new callback replaces it.
    const committed = vi.fn();
    await act(async () => root.render(<Scene probe={probe} box={box} filters={[committed]} />));
    first.mockClear();
    probe.api!.step();
    expect(committed).toHaveBeenCalled();
    expect(first).not.toHaveBeenCalled();
    await act(async () => root.unmount());
  });

  it('throws outside <Physics>, and for a callback that is not a function', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(() => render(<Filter callback={() => {}} />)).toThrow(/<usePreSolve> must be inside <Physics>/);
      expect(() =>
        render(
          <Physics>
            <Filter callback={42 as never} />
          </Physics>,
        ),
      ).toThrow(/usePreSolve\(callback\): callback must be a function, got number/);
    } finally {
      quiet.mockRestore();
    }
  });
});

describe('lifecycle', () => {
  it('mounting and unmounting rules, callbacks and force handlers under StrictMode leaves nothing registered', () => {
    const probe = makeProbe();
    const scene = (show: boolean) => (
      <StrictMode>
        <Physics gravity={[0, -10]}>
          <probe.Component />
          {show && (
            <>
              <Filter callback={() => undefined} />
              <Body type="static" position={[0, -0.5]}>
                <Box width={20} height={1} oneWay tangentSpeed={1} />
                <Chain vertices={[[10, 1], [-10, 1]]} tangentSpeed={-1} />
              </Body>
              <Body position={[0, 2]} contactForceThreshold={10} onContactForce={() => {}}>
                <Polygon vertices={[[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]]} oneWay={[0, 1]} />
                <Circle radius={0.2} offset={[0, 3]} fluid={{}} />
              </Body>
            </>
          )}
        </Physics>
      </StrictMode>
    );
    const { rerender } = render(scene(true));
    const world = probe.api as unknown as PhysicsWorld;
    const space = probe.space;
    expect(world.preSolve.size).toBe(4); // the callback and three ruled shape components
    expect(space.preSolve).toBeTypeOf('function');
    for (let i = 0; i < 30; i++) probe.api!.step();
    rerender(scene(false));
    expect(world.preSolve.size).toBe(0);
    expect(space.preSolve).toBeNull();
    expect(space.bodies.length).toBe(0);
    expect((world.events as unknown as { forceBodies: Set<unknown>; offForce: unknown }).forceBodies.size).toBe(0);
    expect((world.events as unknown as { offForce: unknown }).offForce).toBeNull();
  });
});
