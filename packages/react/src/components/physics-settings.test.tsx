import { Body as EngineBody, Space } from '@fulcrum/physics';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import { useStore } from '@react-three/fiber';
import { cleanup, render } from '@testing-library/react';
import { createRef, StrictMode, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Box } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import { Body } from './Body.js';
import { Physics, type PhysicsProps } from './Physics.js';
import { expectPropError } from '../test-support/render-error.js';

afterEach(cleanup);

type Setting = 'allowSleep' | 'sleepDelay' | 'sleepThreshold' | 'maxLinearSpeed' | 'maxRotationPerSubstep';

/** Each setting with two values that differ from the engine's default and from each other. */
const SETTINGS: readonly [Setting, boolean | number, boolean | number][] = [
  ['allowSleep', false, true],
  ['sleepDelay', 2, 0.1],
  ['sleepThreshold', 0.5, 0.01],
  ['maxLinearSpeed', 50, Number.POSITIVE_INFINITY],
  ['maxRotationPerSubstep', 0.1, Number.POSITIVE_INFINITY],
];

describe('<Physics> sleep settings and speed caps', () => {
  it.each(SETTINGS)('%s reaches the space it creates at mount, and changes in place (the same space)', (key, a, b) => {
    const probe = makeProbe();
    const scene = (v: boolean | number) => (
      <StrictMode>
        <Physics {...({ [key]: v } as PhysicsProps)}>
          <probe.Component />
        </Physics>
      </StrictMode>
    );
    const { rerender } = render(scene(a));
    const space = probe.space;
    expect(space[key]).toBe(a);
    rerender(scene(b));
    expect(probe.space).toBe(space);
    expect(space[key]).toBe(b);
  });

  it.each(SETTINGS)('%s: a given space keeps its own without the prop, gets the prop when it changes, and a new given space gets it too', (key, a, b) => {
    const own = new Space({ [key]: a });
    const next = new Space();
    const { rerender } = render(<Physics space={own} />);
    expect(own[key]).toBe(a); // never the default
    rerender(<Physics space={own} {...({ [key]: b } as PhysicsProps)} />);
    expect(own[key]).toBe(b);
    // Set by hand on the space: a re-render with the same prop leaves it alone.
    (own as unknown as Record<Setting, unknown>)[key] = a;
    rerender(<Physics space={own} {...({ [key]: b } as PhysicsProps)} />);
    expect(own[key]).toBe(a);
    rerender(<Physics space={next} {...({ [key]: b } as PhysicsProps)} />);
    expect(next[key]).toBe(b);
  });

  it('bad values throw a FulcrumPropError naming <Physics>, the prop and the value, with the engine\'s reason', () => {
    const cases: [ReactNode, RegExp][] = [
      [<Physics allowSleep={1 as never} />, /^<Physics> prop allowSleep=\{1\} is invalid: Space\.allowSleep must be a boolean/],
      [<Physics sleepDelay={-1} />, /^<Physics> prop sleepDelay=\{-1\} is invalid: Space\.sleepDelay/],
      [<Physics sleepThreshold={Number.NaN} />, /^<Physics> prop sleepThreshold=\{NaN\} is invalid: Space\.sleepThreshold/],
      [<Physics maxLinearSpeed={0} />, /^<Physics> prop maxLinearSpeed=\{0\} is invalid: Space\.maxLinearSpeed/],
      [<Physics maxRotationPerSubstep={-1} />, /^<Physics> prop maxRotationPerSubstep=\{-1\} is invalid: Space\.maxRotationPerSubstep/],
    ];
    for (const [ui, message] of cases) expectPropError(ui, message);
  });

  it('allowSleep={false} wakes a sleeping island and keeps it awake; true lets it sleep again', () => {
    const probe = makeProbe();
    const box = createRef<EngineBody>();
    const scene = (allowSleep: boolean) => (
      <Physics gravity={[0, -10]} allowSleep={allowSleep}>
        <probe.Component />
        <Body type="static" position={[0, -0.5]}>
          <Box width={20} height={1} />
        </Body>
        <Body ref={box} position={[0, 0.5]}>
          <Box width={1} height={1} />
        </Body>
      </Physics>
    );
    const { rerender } = render(scene(true));
    for (let i = 0; i < 300 && !box.current!.isSleeping; i++) probe.api!.step();
    expect(box.current!.isSleeping).toBe(true);
    rerender(scene(false));
    expect(box.current!.isSleeping).toBe(false);
    for (let i = 0; i < 300; i++) probe.api!.step();
    expect(box.current!.isSleeping).toBe(false);
    rerender(scene(true));
    for (let i = 0; i < 300 && !box.current!.isSleeping; i++) probe.api!.step();
    expect(box.current!.isSleeping).toBe(true);
  });

  it('sleepDelay and sleepThreshold decide when an island sleeps', () => {
    /** Steps until the body sleeps (at most 600), with these props. */
    const stepsToSleep = (props: PhysicsProps, falling: boolean): number => {
      const probe = makeProbe();
      const box = createRef<EngineBody>();
      render(
        <Physics gravity={[0, -10]} {...props}>
          <probe.Component />
          <Body type="static" position={[0, -0.5]}>
            <Box width={20} height={1} />
          </Body>
          <Body ref={box} position={[0, falling ? 1000 : 0.5]}>
            <Box width={1} height={1} />
          </Body>
        </Physics>,
      );
      let n = 0;
      while (n < 600 && !box.current!.isSleeping) {
        probe.api!.step();
        n++;
      }
      cleanup();
      return n;
    };
    // A box at rest sleeps after the delay: 0.5 s by default, 2 s, or 0.1 s.
    const normal = stepsToSleep({}, false);
    expect(stepsToSleep({ sleepDelay: 2 }, false)).toBeGreaterThanOrEqual(normal + 80);
    expect(stepsToSleep({ sleepDelay: 0.1 }, false)).toBeLessThanOrEqual(normal - 20);
    // A falling box is not at rest, unless the threshold is above its speed (10 m/s after 1 s).
    expect(stepsToSleep({}, true)).toBe(600);
    expect(stepsToSleep({ sleepThreshold: 20 }, true)).toBeLessThan(60);
  });

  it('maxLinearSpeed and maxRotationPerSubstep cap what the solver does', () => {
    const probe = makeProbe();
    const box = createRef<EngineBody>();
    const scene = (caps: PhysicsProps) => (
      <Physics gravity={[0, -10]} {...caps}>
        <probe.Component />
        <Body ref={box} position={[0, 100]}>
          <Box width={1} height={0.1} />
        </Body>
      </Physics>
    );
    const { rerender } = render(scene({ maxLinearSpeed: 2 }));
    for (let i = 0; i < 60; i++) probe.api!.step();
    expect(box.current!.velocity.y).toBeCloseTo(-2, 9); // 10 m/s without the cap
    rerender(scene({ maxLinearSpeed: 5 }));
    for (let i = 0; i < 60; i++) probe.api!.step();
    expect(box.current!.velocity.y).toBeCloseTo(-5, 9);
    // 0.01 rad a substep, 4 substeps of 1/240 s: 9.6 rad/s at most.
    box.current!.angularVel = 100;
    rerender(scene({ maxLinearSpeed: 5, maxRotationPerSubstep: 0.01 }));
    probe.api!.step(1 / 60);
    expect(Math.abs(box.current!.angularVel)).toBeLessThanOrEqual(0.01 * 240 + 1e-9);
    rerender(scene({ maxLinearSpeed: 5, maxRotationPerSubstep: Number.POSITIVE_INFINITY }));
    box.current!.angularVel = 100;
    probe.api!.step(1 / 60);
    expect(Math.abs(box.current!.angularVel)).toBeGreaterThan(90);
  });

  it('a change requests a frame', async () => {
    const store = { current: null as ReturnType<typeof useStore> | null };
    function Grab(): ReactNode {
      store.current = useStore();
      return null;
    }
    const scene = (sleepDelay: number) => (
      <Physics sleepDelay={sleepDelay}>
        <Grab />
      </Physics>
    );
    const r = await ReactThreeTestRenderer.create(scene(1));
    const invalidate = vi.fn();
    store.current!.setState({ frameloop: 'demand', invalidate });
    await r.update(scene(1));
    expect(invalidate).not.toHaveBeenCalled();
    await r.update(scene(2));
    expect(invalidate).toHaveBeenCalled();
    await r.unmount();
  });
});
