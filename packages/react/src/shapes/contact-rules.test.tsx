/**
 * The shapes' contact rules, run by the world's pre-solve callback: `oneWay` platforms and
 * `tangentSpeed` conveyors. Each updates in place (the engine shape stays), wakes what rests on
 * the shape, and is validated.
 */
import type { Body as EngineBody, Polygon as EnginePolygon, Vec2Like } from '@fulcrum/physics';
import { cleanup, render } from '@testing-library/react';
import { createRef, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { usePreSolve } from '../hooks/use-pre-solve.js';
import { makeProbe } from '../test-support/probe.js';
import { Box, Circle } from './shapes.js';

afterEach(cleanup);

type Probe = ReturnType<typeof makeProbe>;

const steps = (probe: Probe, n: number) => {
  for (let i = 0; i < n; i++) probe.api!.step();
};

const sleepNow = (probe: Probe, body: EngineBody) => {
  for (let i = 0; i < 300 && !body.isSleeping; i++) probe.api!.step();
  expect(body.isSleeping).toBe(true);
};

/**
 * A thin platform (top at y = 0.1) and a ball thrown up at it from below (or dropped on it).
 * `ballFirst` mounts the ball first: its shape then has the lower id, and the engine makes it the
 * contact's shape1, the platform shape2.
 */
function Platform({ probe, ball, oneWay, rotation = 0, from = 'below', ballFirst = false }: { probe: Probe; ball: { current: EngineBody | null }; oneWay?: boolean | Vec2Like; rotation?: number; from?: 'below' | 'above'; ballFirst?: boolean }): ReactNode {
  const platform = (
    <Body key="platform" type="static" rotation={rotation}>
      <Box width={4} height={0.2} {...(oneWay === undefined ? {} : { oneWay })} />
    </Body>
  );
  const thrown = (
    <Body key="ball" ref={ball} position={from === 'below' ? [0, -2] : [0, 2]} velocity={from === 'below' ? [0, 9] : [0, 0]}>
      <Circle radius={0.25} />
    </Body>
  );
  return (
    <Physics gravity={[0, -10]}>
      <probe.Component />
      {ballFirst ? [thrown, platform] : [platform, thrown]}
    </Physics>
  );
}

describe('oneWay', () => {
  it.each([false, true])('a ball thrown up from below passes through, lands on top, and stays (ball first: %s)', (ballFirst) => {
    const probe = makeProbe();
    const ball = createRef<EngineBody>();
    render(<Platform probe={probe} ball={ball} oneWay ballFirst={ballFirst} />);
    const platformShape = probe.space.bodies.find((b) => b.type === 'static')!.shapes[0]!;
    expect(platformShape.id < ball.current!.shapes[0]!.id).toBe(!ballFirst);
    let top = -Infinity;
    for (let i = 0; i < 240; i++) {
      probe.api!.step();
      top = Math.max(top, ball.current!.y);
    }
    expect(top).toBeGreaterThan(1.5); // it went through, up to about 2 m
    expect(ball.current!.y).toBeCloseTo(0.35, 2); // on the platform's top
    expect(Math.abs(ball.current!.velocity.y)).toBeLessThan(0.05);
    // Without it, the platform stops the ball from below.
    cleanup();
    const solid = makeProbe();
    const other = createRef<EngineBody>();
    render(<Platform probe={solid} ball={other} />);
    steps(solid, 240);
    expect(other.current!.y).toBeLessThan(-1);
  });

  it('a direction in the body frame picks the side that collides, and turns with the body', () => {
    const finalY = (props: { oneWay: boolean | Vec2Like; rotation?: number; from: 'below' | 'above' }) => {
      const probe = makeProbe();
      const ball = createRef<EngineBody>();
      render(<Platform probe={probe} ball={ball} {...props} />);
      steps(probe, 240);
      const y = ball.current!.y;
      cleanup();
      return y;
    };
    // [0, -1]: solid from below, open from above.
    expect(finalY({ oneWay: [0, -1], from: 'below' })).toBeLessThan(-1);
    expect(finalY({ oneWay: { x: 0, y: -1 }, from: 'above' })).toBeLessThan(-1);
    expect(finalY({ oneWay: [0, 1], from: 'above' })).toBeCloseTo(0.35, 2);
    // `true` on a body turned upside down: its local +y points down.
    expect(finalY({ oneWay: true, rotation: Math.PI, from: 'above' })).toBeLessThan(-1);
    expect(finalY({ oneWay: true, rotation: Math.PI, from: 'below' })).toBeLessThan(-1);
  });

  it('updates in place: the same engine shape, and what sleeps on it wakes and follows the new rule', () => {
    const probe = makeProbe();
    const box = createRef<EngineBody>();
    const shape = createRef<EnginePolygon>();
    const scene = (oneWay?: Vec2Like) => (
      <Physics gravity={[0, -10]}>
        <probe.Component />
        <Body type="static">
          <Box ref={shape} width={4} height={0.2} {...(oneWay ? { oneWay } : {})} />
        </Body>
        <Body ref={box} position={[0, 0.35]}>
          <Box width={0.5} height={0.5} />
        </Body>
      </Physics>
    );
    const { rerender } = render(scene());
    const engineShape = shape.current;
    const body = box.current!;
    sleepNow(probe, body);
    rerender(scene([0, -1])); // now it only collides from below: the box on top falls through
    expect(shape.current).toBe(engineShape);
    expect(box.current).toBe(body);
    expect(body.isSleeping).toBe(false);
    steps(probe, 60);
    expect(body.y).toBeLessThan(-1);
  });
});

/** A long static conveyor (top at y = 0) and a box resting on it (mounted first: the contact's shape1). */
function Conveyor({ probe, box, speed, belt, boxFirst = false }: { probe: Probe; box: { current: EngineBody | null }; speed?: number; belt?: { current: EnginePolygon | null }; boxFirst?: boolean }): ReactNode {
  const conveyor = (
    <Body key="belt" type="static" position={[0, -0.5]}>
      <Box ref={belt} width={60} height={1} {...(speed === undefined ? {} : { tangentSpeed: speed })} />
    </Body>
  );
  const crate = (
    <Body key="box" ref={box} position={[-20, 0.5]}>
      <Box width={1} height={1} />
    </Body>
  );
  return (
    <Physics gravity={[0, -10]}>
      <probe.Component />
      {boxFirst ? [crate, conveyor] : [conveyor, crate]}
    </Physics>
  );
}

describe('tangentSpeed', () => {
  it.each([
    [2, false],
    [-1.5, false],
    [2, true],
  ])('a box on a tangentSpeed={%d} belt ends up moving at that speed along +x (box first: %s)', (speed, boxFirst) => {
    const probe = makeProbe();
    const box = createRef<EngineBody>();
    render(<Conveyor probe={probe} box={box} speed={speed} boxFirst={boxFirst} />);
    steps(probe, 120);
    const v = box.current!.velocity;
    expect(Math.abs(v.x - speed) / Math.abs(speed)).toBeLessThan(0.02);
    expect(Math.abs(v.y)).toBeLessThan(0.01);
  });

  it('updates in place, wakes what sleeps on the belt, and stops carrying it when dropped', () => {
    const probe = makeProbe();
    const box = createRef<EngineBody>();
    const belt = createRef<EnginePolygon>();
    const { rerender } = render(<Conveyor probe={probe} box={box} belt={belt} />);
    const engineBelt = belt.current;
    sleepNow(probe, box.current!);
    rerender(<Conveyor probe={probe} box={box} belt={belt} speed={2} />);
    expect(belt.current).toBe(engineBelt);
    expect(box.current!.isSleeping).toBe(false);
    steps(probe, 120);
    expect(box.current!.velocity.x).toBeCloseTo(2, 1);
    rerender(<Conveyor probe={probe} box={box} belt={belt} speed={0.5} />);
    steps(probe, 120);
    expect(box.current!.velocity.x).toBeCloseTo(0.5, 1);
    // Dropped: the contact's speed goes with it (it would persist on the contact otherwise).
    rerender(<Conveyor probe={probe} box={box} belt={belt} />);
    steps(probe, 120);
    expect(Math.abs(box.current!.velocity.x)).toBeLessThan(0.01);
    expect(probe.space.preSolve).toBeNull(); // nothing asks any more
  });

  it('runs before usePreSolve callbacks, which may override it', () => {
    const probe = makeProbe();
    const box = createRef<EngineBody>();
    function Override(): ReactNode {
      usePreSolve((c) => void (c.tangentSpeed = -c.tangentSpeed));
      return null;
    }
    render(
      <Physics gravity={[0, -10]}>
        <probe.Component />
        <Override />
        <Body type="static" position={[0, -0.5]}>
          <Box width={60} height={1} tangentSpeed={1} />
        </Body>
        <Body ref={box} position={[0, 0.5]}>
          <Box width={1} height={1} />
        </Body>
      </Physics>,
    );
    steps(probe, 120);
    expect(box.current!.velocity.x).toBeCloseTo(-1, 1);
  });
});

describe('contact rule errors', () => {
  it('name the component, the prop and the value', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const error = (ui: ReactNode): string => {
      try {
        render(
          <Physics>
            <Body>{ui}</Body>
          </Physics>,
        );
      } catch (e) {
        return (e as Error).message;
      } finally {
        cleanup();
      }
      return 'no error';
    };
    try {
      expect(error(<Box width={1} height={1} oneWay={'up' as never} />)).toMatch(/^<Box> prop oneWay=\{"up"\} is invalid: must be true, false, or the colliding side/);
      expect(error(<Circle radius={1} oneWay={[0, 0]} />)).toMatch(/^<Circle> prop oneWay=\{\[0, 0\]\} is invalid/);
      expect(error(<Circle radius={1} oneWay={[Number.NaN, 1]} />)).toMatch(/^<Circle> prop oneWay=\{\[NaN, 1\]\} is invalid/);
      expect(error(<Circle radius={1} tangentSpeed={Number.POSITIVE_INFINITY} />)).toMatch(/^<Circle> prop tangentSpeed=\{Infinity\} is invalid: must be a finite number/);
      expect(error(<Circle radius={1} tangentSpeed={'2' as never} />)).toMatch(/^<Circle> prop tangentSpeed=\{"2"\} is invalid/);
    } finally {
      quiet.mockRestore();
    }
  });
});
