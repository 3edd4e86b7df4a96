import { Body as EngineBody, UserConstraint as EngineUserConstraint } from '@fulcrum/physics';
import { cleanup, render } from '@testing-library/react';
import { createRef, StrictMode, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { FulcrumPropError, FulcrumUnmountedError } from '../core/errors.js';
import { Circle } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import { UserConstraint } from './UserConstraint.js';

afterEach(cleanup);

/** Pins body slot 0's x to `target`: C = x − target, given as position() alone (finite differences). */
function pinX(target: number) {
  return {
    position(this: EngineUserConstraint, err: Float64Array) {
      err[0] = this.bodyList[0]!.x - target;
    },
  };
}

describe('<UserConstraint>', () => {
  it('a new hooks object on every render neither recreates the constraint nor re-installs hooks; the latest closure runs', () => {
    const probe = makeProbe();
    const a = createRef<EngineBody>();
    const ref = createRef<EngineUserConstraint>();
    const scene = (target: number) => (
      <StrictMode>
        <Physics gravity={[0, 0]}>
          <probe.Component />
          <Body ref={a} position={[0, 0]}>
            <Circle radius={0.5} />
          </Body>
          <UserConstraint ref={ref} dimensions={1} bodies={[a]} hooks={pinX(target)} />
        </Physics>
      </StrictMode>
    );
    const { rerender } = render(scene(1));
    const c = ref.current!;
    const installed = c.hooks;
    expect(probe.space.constraints).toEqual([c]);
    for (let i = 0; i < 30; i++) probe.api!.step();
    expect(a.current!.x).toBeCloseTo(1, 3);
    rerender(scene(-2));
    expect(ref.current).toBe(c);
    expect(c.hooks).toBe(installed);
    c.invalidate(); // the hook's parameters live in a closure: wake by hand (documented)
    for (let i = 0; i < 30; i++) probe.api!.step();
    expect(a.current!.x).toBeCloseTo(-2, 3);
  });

  it('supports the jacobian form and mutable common props in place', () => {
    const a = createRef<EngineBody>();
    const ref = createRef<EngineUserConstraint>();
    const hooks = {
      position(this: EngineUserConstraint, err: Float64Array) {
        err[0] = this.bodyList[0]!.y - 2;
      },
      jacobian(J: Float64Array) {
        J[0] = 0;
        J[1] = 1;
        J[2] = 0;
      },
    };
    const scene = (stiff: boolean) => (
      <Physics gravity={[0, -10]}>
        <Body ref={a}>
          <Circle radius={0.5} />
        </Body>
        <UserConstraint ref={ref} dimensions={1} bodies={[a]} hooks={hooks} stiff={stiff} frequency={2} />
      </Physics>
    );
    const { rerender } = render(scene(true));
    const c = ref.current!;
    rerender(scene(false));
    expect(ref.current).toBe(c);
    expect(c.stiff).toBe(false);
    expect(c.frequency).toBe(2);
  });

  it('adding a hook installs new delegates on the same constraint; changing dimensions builds a new one', () => {
    const a = createRef<EngineBody>();
    const ref = createRef<EngineUserConstraint>();
    const scene = (dimensions: number, withClamp: boolean) => (
      <Physics>
        <Body ref={a}>
          <Circle radius={0.5} />
        </Body>
        <UserConstraint ref={ref} dimensions={dimensions} bodies={[a]} hooks={{ ...pinX(0), ...(withClamp ? { clamp() {} } : {}) }} />
      </Physics>
    );
    const { rerender } = render(scene(1, false));
    const c = ref.current!;
    const before = c.hooks;
    rerender(scene(1, true));
    expect(ref.current).toBe(c);
    expect(c.hooks).not.toBe(before);
    expect(Object.keys(c.hooks).sort()).toEqual(['clamp', 'position']);
    rerender(scene(2, true));
    expect(ref.current).not.toBe(c);
    expect(ref.current!.dimensions).toBe(2);
    expect(() => c.invalidate()).toThrow(FulcrumUnmountedError);
  });

  it('bad props name the component and the prop', () => {
    const cases: [ReactNode, RegExp][] = [
      [<UserConstraint dimensions={0} />, /^<UserConstraint> prop dimensions=\{0\} is invalid/],
      [<UserConstraint dimensions={1} hooks={{ positon() {} } as never} />, /^<UserConstraint> prop hooks=.* is invalid: UserConstraint\.hooks\.positon is not a hook/],
      [<UserConstraint dimensions={1} bodies={[5] as never} />, /^<UserConstraint> prop bodies\[0\]=\{5\} is invalid/],
    ];
    for (const [ui, message] of cases) {
      let err: unknown = null;
      const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        render(<Physics>{ui}</Physics>);
      } catch (e) {
        err = e;
      } finally {
        quiet.mockRestore();
        cleanup();
      }
      expect(err).toBeInstanceOf(FulcrumPropError);
      expect((err as Error).message).toMatch(message);
    }
  });
});
