import { Body as EngineBody, Space } from '@fulcrum/physics';
import { act, cleanup, render } from '@testing-library/react';
import { createRef, memo, StrictMode, useState, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { Circle } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import { useAfterStep, useBeforeStep, useBody, useSpace } from './hooks.js';

afterEach(cleanup);

describe('useBeforeStep / useAfterStep', () => {
  it('run around every step with (space, dt), always the latest callback, until unmount', () => {
    const probe = makeProbe();
    const calls: string[] = [];
    function Hooked({ tag }: { tag: string }): ReactNode {
      useBeforeStep((space, dt) => calls.push(`before ${tag} ${space.stepCount} ${dt}`));
      useAfterStep((space, dt) => calls.push(`after ${tag} ${space.stepCount} ${dt}`));
      return null;
    }
    const scene = (tag: string | null) => (
      <StrictMode>
        <Physics timeStep={0.02}>
          <probe.Component />
          {tag !== null && <Hooked tag={tag} />}
        </Physics>
      </StrictMode>
    );
    const { rerender } = render(scene('a'));
    probe.api!.step();
    rerender(scene('b'));
    probe.api!.step(0.5);
    rerender(scene(null));
    probe.api!.step();
    expect(calls).toEqual(['before a 0 0.02', 'after a 1 0.02', 'before b 1 0.5', 'after b 2 0.5']);
  });
});

describe('useBody', () => {
  it('returns the live body behind a ref, re-rendering when it mounts and unmounts', () => {
    const ref = createRef<EngineBody>();
    const seen: (EngineBody | null)[] = [];
    function Watcher(): ReactNode {
      seen.push(useBody(ref));
      return null;
    }
    const scene = (show: boolean) => (
      <Physics>
        <Watcher />
        {show && (
          <Body ref={ref}>
            <Circle radius={1} />
          </Body>
        )}
      </Physics>
    );
    const { rerender } = render(scene(true));
    expect(seen[0]).toBeNull();
    expect(seen[seen.length - 1]).toBe(ref.current);
    expect(ref.current).toBeInstanceOf(EngineBody);
    rerender(scene(false));
    expect(seen[seen.length - 1]).toBeNull();
  });
});

describe('context', () => {
  it('hooks outside <Physics> throw a clear error', () => {
    function Lost(): ReactNode {
      useSpace();
      return null;
    }
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    expect(() => render(<Lost />)).toThrow(/<useSpace> must be inside <Physics>/);
    quiet.mockRestore();
  });

  it('a fresh gravity array on every render does not re-render consumers; the space keeps its identity', () => {
    let renders = 0;
    let space: Space | null = null;
    const Consumer = memo(function Consumer(): ReactNode {
      renders++;
      space = useSpace();
      return null;
    });
    let bump: () => void = () => {};
    function App(): ReactNode {
      const [n, setN] = useState(0);
      bump = () => setN((x) => x + 1);
      return (
        <Physics gravity={[0, -10 - (n > 2 ? 1 : 0)]}>
          <Consumer />
        </Physics>
      );
    }
    render(<App />);
    const first = space!;
    for (let i = 0; i < 5; i++) act(() => bump());
    expect(renders).toBe(1);
    expect(space).toBe(first);
    expect(first.gravity).toEqual({ x: 0, y: -11 });
  });
});
