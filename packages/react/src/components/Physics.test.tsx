import { Body as EngineBody, Circle as EngineCircle, FulcrumInputError, Space } from '@fulcrum/physics';
import { cleanup, render } from '@testing-library/react';
import { createRef, StrictMode, type ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { FulcrumPropError } from '../core/errors.js';
import type { BodyContactEvent, BodyIslandEvent } from '../core/event-router.js';
import { Box, Circle } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import { WrongJacobian } from '../test-support/wrong-jacobian.js';
import { Body } from './Body.js';
import { Physics } from './Physics.js';
import { expectPropError } from '../test-support/render-error.js';

afterEach(cleanup);

describe('<Physics>', () => {
  it('creates its space on first use, keeps it through StrictMode, and empties it on unmount', () => {
    const probe = makeProbe();
    const { unmount } = render(
      <StrictMode>
        <Physics gravity={[1, -3]}>
          <probe.Component />
          <Body>
            <Circle radius={1} />
          </Body>
        </Physics>
      </StrictMode>,
    );
    const space = probe.space;
    expect(space.gravity).toEqual({ x: 1, y: -3 });
    expect(space.bodies.length).toBe(1);
    space.addBody(new EngineBody()); // added by hand: emptied too
    unmount();
    expect(space.bodies.length).toBe(0);
    expect(space.constraints.length).toBe(0);
  });

  it('does not step outside a <Canvas>; step() steps by hand', () => {
    const probe = makeProbe();
    render(
      <Physics>
        <probe.Component />
      </Physics>,
    );
    expect(probe.space.stepCount).toBe(0);
    probe.api!.step();
    probe.api!.step(0.1);
    expect(probe.space.stepCount).toBe(2);
    expect(probe.space.time).toBeCloseTo(1 / 60 + 0.1, 12);
  });

  it('uses a given space, and leaves what was already in it on unmount', () => {
    const space = new Space({ gravity: [0, -1] });
    const mine = space.addBody(new EngineBody({ shapes: [new EngineCircle({ radius: 1 })] }));
    const probe = makeProbe();
    const { unmount } = render(
      <Physics space={space}>
        <probe.Component />
        <Body>
          <Circle radius={1} />
        </Body>
      </Physics>,
    );
    expect(probe.space).toBe(space);
    expect(space.gravity).toEqual({ x: 0, y: -1 }); // no gravity prop: the space keeps its own
    expect(space.bodies.length).toBe(2);
    unmount();
    expect(space.bodies).toEqual([mine]);
  });

  it('a new space prop moves the scene into it', () => {
    const a = new Space();
    const b = new Space();
    const ref = createRef<EngineBody>();
    const scene = (space: Space) => (
      <Physics space={space}>
        <Body ref={ref}>
          <Circle radius={1} />
        </Body>
      </Physics>
    );
    const { rerender } = render(scene(a));
    expect(a.bodies).toEqual([ref.current]);
    rerender(scene(b));
    expect(a.bodies.length).toBe(0);
    expect(b.bodies).toEqual([ref.current]);
  });

  it('a gravity change wakes sleeping islands', () => {
    const probe = makeProbe();
    const ref = createRef<EngineBody>();
    const scene = (g: number) => (
      <Physics gravity={[0, g]}>
        <probe.Component />
        <Body type="static" position={[0, -0.5]}>
          <Box width={20} height={1} />
        </Body>
        <Body ref={ref} position={[0, 0.5]}>
          <Box width={1} height={1} />
        </Body>
      </Physics>
    );
    const { rerender } = render(scene(-10));
    for (let i = 0; i < 200 && !ref.current!.isSleeping; i++) probe.api!.step();
    expect(ref.current!.isSleeping).toBe(true);
    rerender(scene(5));
    expect(ref.current!.isSleeping).toBe(false);
    expect(probe.space.gravity).toEqual({ x: 0, y: 5 });
  });

  it('bad props throw a FulcrumPropError naming <Physics> and the prop', () => {
    const cases: [ReactNode, RegExp][] = [
      [<Physics gravity={[0, Number.NaN]} />, /^<Physics> prop gravity=\{\[0, NaN\]\} is invalid: Space\.gravity must be a vector/],
      [<Physics timeStep={-1} />, /^<Physics> prop timeStep=\{-1\} is invalid/],
      [<Physics timeStep={'fast' as never} />, /^<Physics> prop timeStep=\{"fast"\} is invalid/],
      [<Physics maxSubSteps={0} />, /^<Physics> prop maxSubSteps=\{0\} is invalid/],
      [<Physics velocityIterations={1.5} />, /^<Physics> prop velocityIterations=\{1.5\} is invalid/],
      [<Physics paused={1 as never} />, /^<Physics> prop paused=\{1\} is invalid/],
      [<Physics space={{} as never} />, /^<Physics> prop space=\{\{\}\} is invalid: must be a Space/],
      [<Physics checkUserConstraints={1 as never} />, /^<Physics> prop checkUserConstraints=\{1\} is invalid: Space\.checkUserConstraints must be a boolean, got 1/],
      [<Physics checkUserConstraints={'yes' as never} />, /^<Physics> prop checkUserConstraints=\{"yes"\} is invalid/],
    ];
    for (const [ui, message] of cases) expectPropError(ui, message);
  });
});

describe('<Physics checkUserConstraints>', () => {
  it('reaches the space at mount and on update, in place (the same space)', () => {
    const probe = makeProbe();
    const scene = (check: boolean) => (
      <StrictMode>
        <Physics checkUserConstraints={check}>
          <probe.Component />
        </Physics>
      </StrictMode>
    );
    const { rerender } = render(scene(false));
    const space = probe.space;
    expect(space.checkUserConstraints).toBe(false);
    rerender(scene(true));
    expect(probe.space).toBe(space);
    expect(space.checkUserConstraints).toBe(true);
    rerender(scene(false));
    expect(space.checkUserConstraints).toBe(false);
    // Set by hand on the space: a re-render with the same prop leaves it alone.
    space.checkUserConstraints = true;
    rerender(scene(false));
    expect(space.checkUserConstraints).toBe(true);
    rerender(scene(true));
    rerender(scene(false));
    expect(space.checkUserConstraints).toBe(false);
  });

  it('without the prop, a space it creates has the engine\'s default (on in these tests: vitest.setup.ts)', () => {
    const probe = makeProbe();
    render(
      <Physics>
        <probe.Component />
      </Physics>,
    );
    expect(probe.space.checkUserConstraints).toBe(true);
    expect(new Space().checkUserConstraints).toBe(true);
  });

  it('applies to a given space when given, and to the next given space; without the prop the space keeps its own', () => {
    const a = new Space({ checkUserConstraints: false });
    const b = new Space({ checkUserConstraints: false });
    const c = new Space({ checkUserConstraints: true });
    const { rerender } = render(<Physics space={a} checkUserConstraints />);
    expect(a.checkUserConstraints).toBe(true);
    rerender(<Physics space={b} checkUserConstraints />);
    expect(b.checkUserConstraints).toBe(true);
    rerender(<Physics space={c} />);
    expect(c.checkUserConstraints).toBe(true);
    rerender(<Physics space={c} checkUserConstraints={false} />);
    expect(c.checkUserConstraints).toBe(false);
  });

  it('a wrong hand-written jacobian: usePhysics().step() throws the engine\'s FulcrumInputError naming the hook, before anything moves', () => {
    const probe = makeProbe();
    const ball = createRef<EngineBody>();
    const scene = (check: boolean) => (
      <Physics gravity={[0, -10]} checkUserConstraints={check}>
        <probe.Component />
        <WrongJacobian ball={ball} />
      </Physics>
    );
    const { rerender } = render(scene(true));
    let err: unknown = null;
    try {
      probe.api!.step();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FulcrumInputError);
    expect(err).not.toBeInstanceOf(FulcrumPropError); // not a prop error: it comes from the step
    expect((err as FulcrumInputError).prop).toBe('jacobian');
    expect((err as Error).message).toMatch(/jacobian\(\) disagrees with position\(\) \(Space\.checkUserConstraints\): row 0, column 3 \(x of bodies\[1\]\)/);
    expect(probe.space.stepCount).toBe(0);
    expect(ball.current!.x).toBe(1);
    expect(ball.current!.y).toBe(0);
    // It throws again on every step until fixed or turned off; off, the space steps.
    expect(() => probe.api!.step()).toThrow(FulcrumInputError);
    rerender(scene(false));
    probe.api!.step();
    expect(probe.space.stepCount).toBe(1);
    // Turned on again: checked before the next step.
    rerender(scene(true));
    expect(() => probe.api!.step()).toThrow(/jacobian\(\) disagrees with position\(\)/);
    expect(probe.space.stepCount).toBe(1);
  });
});

describe('body events', () => {
  it('reports each contact once to each body, with the other body and shapes', () => {
    const probe = makeProbe();
    const ball = createRef<EngineBody>();
    const ground = createRef<EngineBody>();
    const ballEvents: BodyContactEvent[] = [];
    const groundEvents: BodyContactEvent[] = [];
    render(
      <Physics gravity={[0, -10]}>
        <probe.Component />
        <Body ref={ground} type="static" onBeginContact={(e) => groundEvents.push(e)}>
          <Box width={20} height={1} />
        </Body>
        <Body ref={ball} position={[0, 2]} onBeginContact={(e) => ballEvents.push(e)} onEndContact={(e) => ballEvents.push(e)}>
          <Circle radius={0.5} />
        </Body>
      </Physics>,
    );
    for (let i = 0; i < 60; i++) probe.api!.step();
    expect(ballEvents.length).toBe(1);
    expect(groundEvents.length).toBe(1);
    const e = ballEvents[0]!;
    expect(e.type).toBe('beginContact');
    expect(e.body).toBe(ball.current);
    expect(e.other).toBe(ground.current);
    expect(e.shape).toBe(ball.current!.shapes[0]);
    expect(e.otherShape).toBe(ground.current!.shapes[0]);
    expect(groundEvents[0]!.other).toBe(ball.current);
    ball.current!.position = [0, 10]; // teleported away: the contact ends
    probe.api!.step();
    expect(ballEvents.map((x) => x.type)).toEqual(['beginContact', 'endContact']);
  });

  it('calls onSleep and onWake; a new handler on re-render is used without re-registering', () => {
    const probe = makeProbe();
    const ref = createRef<EngineBody>();
    const log: string[] = [];
    const scene = (tag: string) => (
      <Physics gravity={[0, -10]}>
        <probe.Component />
        <Body type="static" position={[0, -0.5]}>
          <Box width={20} height={1} />
        </Body>
        <Body ref={ref} position={[0, 0.5]} onSleep={(e: BodyIslandEvent) => log.push(`${tag} ${e.type}`)} onWake={(e) => log.push(`${tag} ${e.type}`)}>
          <Box width={1} height={1} />
        </Body>
      </Physics>
    );
    const { rerender } = render(scene('a'));
    for (let i = 0; i < 200 && !ref.current!.isSleeping; i++) probe.api!.step();
    rerender(scene('b'));
    ref.current!.applyImpulse([0, 1]);
    expect(log).toEqual(['a sleep', 'b wake']);
  });
});
