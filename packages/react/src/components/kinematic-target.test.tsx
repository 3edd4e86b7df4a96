import { Body as EngineBody } from '@fulcrum/physics';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import { useStore } from '@react-three/fiber';
import { cleanup, render } from '@testing-library/react';
import { createRef, StrictMode, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Box } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import { Body, type BodyProps } from './Body.js';
import { Physics } from './Physics.js';
import { useAfterStep } from '../hooks/hooks.js';
import { expectPropError } from '../test-support/render-error.js';

afterEach(cleanup);

const STEP = 1 / 60;

/** A kinematic platform (4 × 0.5, top at y = 0.25) with a 1 × 1 box resting on it. */
function platformScene(probe: ReturnType<typeof makeProbe>, platform: React.RefObject<EngineBody | null>, box: React.RefObject<EngineBody | null>, props: Partial<BodyProps>): ReactNode {
  return (
    <StrictMode>
      <Physics gravity={[0, -10]}>
        <probe.Component />
        <Body ref={platform} type="kinematic" {...props}>
          <Box width={4} height={0.5} friction={1} />
        </Body>
        <Body ref={box} position={[0, 0.75]}>
          <Box width={1} height={1} friction={1} />
        </Body>
      </Physics>
    </StrictMode>
  );
}

function settle(probe: ReturnType<typeof makeProbe>, box: React.RefObject<EngineBody | null>): void {
  for (let i = 0; i < 300 && !box.current!.isSleeping; i++) probe.api!.step();
  expect(box.current!.isSleeping).toBe(true);
}

describe('<Body target>', () => {
  it('a platform whose target moves sideways every frame carries the box on it; once the target stops, the platform stops', () => {
    const probe = makeProbe();
    const platform = createRef<EngineBody>();
    const box = createRef<EngineBody>();
    const { rerender } = render(platformScene(probe, platform, box, { target: [0, 0] }));
    settle(probe, box);
    const speed = 1.5; // m/s
    let x = 0;
    for (let frame = 0; frame < 60; frame++) {
      x += speed * STEP;
      rerender(platformScene(probe, platform, box, { target: [x, 0] }));
      probe.api!.step();
      // It reaches every target exactly, in one step, by velocity.
      expect(platform.current!.x).toBeCloseTo(x, 12);
      expect(platform.current!.velocity.x).toBeCloseTo(speed, 9);
    }
    expect(box.current!.velocity.x).toBeGreaterThan(0.95 * speed);
    expect(box.current!.velocity.x).toBeLessThan(1.05 * speed);
    expect(box.current!.x).toBeGreaterThan(0.5 * x); // carried along, not left behind
    // The target stays: the next step takes the velocity back, and the platform stays put.
    probe.api!.step();
    expect(platform.current!.velocity).toEqual({ x: 0, y: 0 });
    expect(platform.current!.angularVel).toBe(0);
    for (let i = 0; i < 30; i++) probe.api!.step();
    expect(platform.current!.x).toBeCloseTo(x, 12);
    expect(platform.current!.velocity).toEqual({ x: 0, y: 0 });
  });

  it('a target change wakes a sleeping island at once, and the platform arrives in one step', () => {
    const probe = makeProbe();
    const platform = createRef<EngineBody>();
    const box = createRef<EngineBody>();
    const { rerender } = render(platformScene(probe, platform, box, { target: [0, 0] }));
    settle(probe, box);
    rerender(platformScene(probe, platform, box, { target: [0.1, 0] }));
    expect(box.current!.isSleeping).toBe(false);
    probe.api!.step();
    expect(platform.current!.x).toBeCloseTo(0.1, 12);
    expect(box.current!.velocity.x).toBeGreaterThan(0);
  });

  it('a teleport through position does not carry, and is not undone by the unchanged target', () => {
    const probe = makeProbe();
    const platform = createRef<EngineBody>();
    const box = createRef<EngineBody>();
    const { rerender } = render(platformScene(probe, platform, box, { position: [0, 0], target: [0, 0] }));
    settle(probe, box);
    rerender(platformScene(probe, platform, box, { position: [0.1, 0], target: [0, 0] }));
    expect(platform.current!.x).toBe(0.1);
    probe.api!.step();
    expect(platform.current!.x).toBe(0.1);
    expect(platform.current!.velocity).toEqual({ x: 0, y: 0 });
    // Carried by a 0.1 m move in a step, the box would be moving at about 6 m/s.
    expect(Math.abs(box.current!.velocity.x)).toBeLessThan(1e-3);
    expect(Math.abs(box.current!.x)).toBeLessThan(1e-3);
  });

  it('targetRotation turns the body in one step, then it stops; without position the body starts at its target', () => {
    const probe = makeProbe();
    const ref = createRef<EngineBody>();
    const scene = (props: Partial<BodyProps>) => (
      <Physics gravity={[0, 0]}>
        <probe.Component />
        <Body ref={ref} type="kinematic" {...props}>
          <Box width={2} height={0.2} />
        </Body>
      </Physics>
    );
    const { rerender } = render(scene({ target: [3, 4], targetRotation: 0.5 }));
    expect(ref.current!.position).toEqual({ x: 3, y: 4 });
    expect(ref.current!.rotation).toBe(0.5);
    expect(ref.current!.velocity).toEqual({ x: 0, y: 0 });
    rerender(scene({ target: [3, 4], targetRotation: 1.5 }));
    probe.api!.step(0.1);
    expect(ref.current!.rotation).toBeCloseTo(1.5, 12);
    expect(ref.current!.angularVel).toBeCloseTo(10, 9); // 1 rad in a step of 0.1 s
    expect(ref.current!.x).toBeCloseTo(3, 12);
    probe.api!.step(0.1);
    expect(ref.current!.angularVel).toBe(0);
    expect(ref.current!.rotation).toBeCloseTo(1.5, 12);
    // targetRotation alone keeps the position; dropping the target leaves the body where it is.
    rerender(scene({ targetRotation: 2 }));
    probe.api!.step(0.1);
    expect(ref.current!.rotation).toBeCloseTo(2, 12);
    expect(ref.current!.x).toBeCloseTo(3, 12);
    rerender(scene({}));
    probe.api!.step(0.1);
    expect(ref.current!.angularVel).toBe(0);
    expect(ref.current!.rotation).toBeCloseTo(2, 12);
  });

  it('bad targets throw a FulcrumPropError naming <Body>, the prop and the value', () => {
    const cases: [ReactNode, RegExp][] = [
      [<Body target={[1, 2]} />, /^<Body> prop target=\{\[1, 2\]\} is invalid: needs type="kinematic", the body is dynamic/],
      [<Body type="static" targetRotation={1} />, /^<Body> prop targetRotation=\{1\} is invalid: needs type="kinematic", the body is static/],
      [<Body type="kinematic" target={[Number.NaN, 1]} />, /^<Body> prop target=\{\[NaN, 1\]\} is invalid: Body\.setVelocityFromTarget\(position\) must be a vector with finite components/],
      [<Body type="kinematic" target={{ x: 1, y: Number.POSITIVE_INFINITY }} />, /^<Body> prop target=\{\{x: 1, y: Infinity\}\} is invalid/],
      [<Body type="kinematic" target={[0, 0]} targetRotation={Number.NEGATIVE_INFINITY} />, /^<Body> prop targetRotation=\{-Infinity\} is invalid: Body\.setVelocityFromTarget\(rotation\) must be a finite number/],
      [<Body type="kinematic" target={'here' as never} />, /^<Body> prop target=\{"here"\} is invalid/],
    ];
    for (const [ui, message] of cases) expectPropError(<Physics>{ui}</Physics>, message);
  });
});

describe('<Body target> in demand mode', () => {
  it('a target change requests frames until the body has arrived and stopped, then none', async () => {
    const probe = makeProbe();
    const store = { current: null as ReturnType<typeof useStore> | null };
    function Grab(): ReactNode {
      store.current = useStore();
      return null;
    }
    const ref = createRef<EngineBody>();
    const scene = (x: number) => (
      <Physics gravity={[0, 0]}>
        <Grab />
        <probe.Component />
        <Body ref={ref} type="kinematic" target={[x, 0]}>
          <Box width={1} height={1} />
        </Body>
      </Physics>
    );
    const r = await ReactThreeTestRenderer.create(scene(0));
    const invalidate = vi.fn();
    store.current!.setState({ frameloop: 'demand', invalidate });
    await ReactThreeTestRenderer.act(() => r.advanceFrames(3, STEP));
    invalidate.mockClear();
    await r.update(scene(2));
    expect(invalidate).toHaveBeenCalled();
    // The first frame after idle may bank less than a step: the body is still on its way, and
    // the frame asks for another.
    invalidate.mockClear();
    await ReactThreeTestRenderer.act(() => r.advanceFrames(1, STEP / 2));
    expect(invalidate).toHaveBeenCalled();
    for (let i = 0; i < 4; i++) await ReactThreeTestRenderer.act(() => r.advanceFrames(1, STEP));
    expect(ref.current!.x).toBeCloseTo(2, 12);
    expect(ref.current!.velocity).toEqual({ x: 0, y: 0 });
    invalidate.mockClear();
    await ReactThreeTestRenderer.act(() => r.advanceFrames(5, STEP));
    expect(invalidate).not.toHaveBeenCalled();
    await r.unmount();
  });
});

describe('<Body target> over a frame of several steps', () => {
  it('spreads a new target evenly over the frame\'s steps, arriving at its last, rather than moving in one step and stopping', async () => {
    const ref = createRef<EngineBody>();
    const xs: number[] = [];
    function Recorder(): ReactNode {
      useAfterStep(() => void xs.push(ref.current!.x));
      return null;
    }
    const scene = (x: number) => (
      <Physics gravity={[0, 0]}>
        <Recorder />
        <Body ref={ref} type="kinematic" target={[x, 0]}>
          <Box width={1} height={1} />
        </Body>
      </Physics>
    );
    const r = await ReactThreeTestRenderer.create(scene(0));
    await ReactThreeTestRenderer.act(() => r.advanceFrames(1, STEP));
    await r.update(scene(3));
    xs.length = 0;
    // One frame of three steps (a 20 Hz frame at a 60 Hz time step).
    await ReactThreeTestRenderer.act(() => r.advanceFrames(1, 3 * STEP));
    expect(xs).toHaveLength(3);
    expect(xs[0]).toBeCloseTo(1, 12);
    expect(xs[1]).toBeCloseTo(2, 12);
    expect(xs[2]).toBeCloseTo(3, 12);
    // Arrived: the next step stops it there.
    await ReactThreeTestRenderer.act(() => r.advanceFrames(1, STEP));
    expect(ref.current!.x).toBeCloseTo(3, 12);
    expect(ref.current!.velocity).toEqual({ x: 0, y: 0 });
    await r.unmount();
  });
});
