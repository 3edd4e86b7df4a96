import { Body as EngineBody, FulcrumInputError } from '@fulcrum/physics';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import { useStore } from '@react-three/fiber';
import { Component, createRef, Profiler, StrictMode, type ReactNode } from 'react';
import type { Group, Mesh } from 'three';
import { describe, expect, it, vi } from 'vitest';
import { Box, Circle } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import { WrongJacobian } from '../test-support/wrong-jacobian.js';
import { PivotJoint } from '../joints/joints.js';
import { Body } from './Body.js';
import { Physics } from './Physics.js';

const STEP = 1 / 60;

/** Grabs R3F's store so a test can swap `invalidate` for a spy and pick the frameloop. */
function storeProbe() {
  const probe = { store: null as ReturnType<typeof useStore> | null };
  function Grab(): ReactNode {
    probe.store = useStore();
    return null;
  }
  return { probe, Grab };
}

function Scene({ children, ...physics }: { children?: ReactNode } & Parameters<typeof Physics>[0]): ReactNode {
  return <Physics {...physics}>{children}</Physics>;
}

describe('stepping in the R3F loop', () => {
  it('advanceFrames steps the space at the fixed rate, whatever the frame length', async () => {
    const probe = makeProbe();
    const r = await ReactThreeTestRenderer.create(
      <Scene gravity={[0, -10]}>
        <probe.Component />
        <Body position={[0, 10]}>
          <Circle radius={0.5} />
        </Body>
      </Scene>,
    );
    await ReactThreeTestRenderer.act(() => r.advanceFrames(60, STEP));
    expect(probe.space.stepCount).toBe(60);
    expect(probe.space.time).toBeCloseTo(1, 12);
    // 30 frames of 1/30 s: two steps each.
    await ReactThreeTestRenderer.act(() => r.advanceFrames(30, 2 * STEP));
    expect(probe.space.stepCount).toBe(120);
    // 40 frames of 1/240 s: a step every fourth frame.
    await ReactThreeTestRenderer.act(() => r.advanceFrames(40, STEP / 4));
    expect(probe.space.stepCount).toBe(130);
    await r.unmount();
  });

  it('clamps a long frame to maxSubSteps steps', async () => {
    const probe = makeProbe();
    const r = await ReactThreeTestRenderer.create(
      <Scene maxSubSteps={3}>
        <probe.Component />
      </Scene>,
    );
    await ReactThreeTestRenderer.act(() => r.advanceFrames(1, 2));
    expect(probe.space.stepCount).toBe(3);
    await r.unmount();
  });

  it('"vary" steps once per frame by the frame length; paused does not step', async () => {
    const probe = makeProbe();
    const r = await ReactThreeTestRenderer.create(
      <Scene timeStep="vary">
        <probe.Component />
      </Scene>,
    );
    await ReactThreeTestRenderer.act(() => r.advanceFrames(4, 0.01));
    expect(probe.space.stepCount).toBe(4);
    expect(probe.space.time).toBeCloseTo(0.04, 12);
    await r.update(
      <Scene timeStep="vary" paused>
        <probe.Component />
      </Scene>,
    );
    await ReactThreeTestRenderer.act(() => r.advanceFrames(4, 0.01));
    expect(probe.space.stepCount).toBe(4);
    await r.unmount();
  });

  it('meshes follow their bodies (position.xy, rotation.z) without interpolation', async () => {
    const probe = makeProbe();
    const ref = createRef<EngineBody>();
    const group = createRef<Group>();
    const r = await ReactThreeTestRenderer.create(
      <Scene gravity={[0, -10]} interpolate={false}>
        <probe.Component />
        <Body ref={ref} position={[1, 5]} angularVel={2}>
          <Box width={1} height={1} />
          <group ref={group}>
            <mesh />
          </group>
        </Body>
      </Scene>,
    );
    const follower = group.current!.parent!;
    expect(follower.position.x).toBe(1);
    expect(follower.position.y).toBe(5);
    await ReactThreeTestRenderer.act(() => r.advanceFrames(20, STEP));
    const b = ref.current!;
    expect(b.y).toBeLessThan(5);
    expect(follower.position.x).toBe(b.x);
    expect(follower.position.y).toBe(b.y);
    expect(follower.rotation.z).toBe(b.rotation);
    expect(b.rotation).toBeGreaterThan(0.5);
    await r.unmount();
  });

  it('interpolates between the last two steps by the banked fraction of a step', async () => {
    const ref = createRef<EngineBody>();
    const group = createRef<Group>();
    let before = 0;
    const r = await ReactThreeTestRenderer.create(
      <Scene gravity={[0, -10]}>
        <Body ref={ref} position={[0, 5]} velocity={[3, 0]}>
          <Circle radius={0.5} />
          <group ref={group} />
        </Body>
      </Scene>,
    );
    const follower = group.current!.parent!;
    await ReactThreeTestRenderer.act(() => r.advanceFrames(3, STEP));
    before = ref.current!.y;
    const beforeX = ref.current!.x;
    // 1.25 steps: one step, a quarter of a step banked.
    await ReactThreeTestRenderer.act(() => r.advanceFrames(1, 1.25 * STEP));
    const b = ref.current!;
    expect(follower.position.y).toBeCloseTo(before + 0.25 * (b.y - before), 12);
    expect(follower.position.x).toBeCloseTo(beforeX + 0.25 * (b.x - beforeX), 12);
    // Half a step more: no step, three quarters banked.
    await ReactThreeTestRenderer.act(() => r.advanceFrames(1, 0.5 * STEP));
    expect(follower.position.y).toBeCloseTo(before + 0.75 * (b.y - before), 12);
    await r.unmount();
  });

  it('a body without render children draws its shapes itself', async () => {
    const r = await ReactThreeTestRenderer.create(
      <Scene>
        <Body>
          <Circle radius={0.5} />
          <Box width={1} height={2} offset={[1, 0]} />
        </Body>
        <Body>
          <Circle radius={0.5} />
          <mesh name="own" />
        </Body>
      </Scene>,
    );
    const groups = r.scene.children;
    expect(groups.length).toBe(2);
    const drawn = groups[0]!.children.map((c) => c.instance as Mesh);
    expect(drawn.length).toBe(2);
    expect(drawn[0]!.geometry.type).toBe('CircleGeometry');
    expect(drawn[1]!.geometry.type).toBe('PlaneGeometry');
    expect(drawn[1]!.position.x).toBe(1);
    expect(groups[1]!.children.map((c) => c.instance.name)).toEqual(['own']);
    await r.unmount();
  });
});

describe('inside a Canvas', () => {
  it('StrictMode leaves one body and one constraint per component, and steps once per frame', async () => {
    const probe = makeProbe();
    const a = createRef<EngineBody>();
    const b = createRef<EngineBody>();
    const r = await ReactThreeTestRenderer.create(
      <StrictMode>
        <Scene gravity={[0, -10]} debug dragging>
          <probe.Component />
          <Body ref={a} type="static" />
          <Body ref={b} position={[0, -1]}>
            <Circle radius={0.25} />
          </Body>
          <PivotJoint body1={a} body2={b} />
        </Scene>
      </StrictMode>,
    );
    expect(probe.space.bodies.length).toBe(2);
    expect(probe.space.constraints.length).toBe(1);
    await ReactThreeTestRenderer.act(() => r.advanceFrames(10, STEP));
    expect(probe.space.stepCount).toBe(10);
    await r.unmount();
  });

  it('steps at a negative priority, so R3F keeps rendering by itself', async () => {
    const { probe: sp, Grab } = storeProbe();
    const r = await ReactThreeTestRenderer.create(
      <Scene>
        <Grab />
      </Scene>,
    );
    const internal = sp.store!.getState().internal;
    expect(internal.subscribers.length).toBe(1);
    expect(internal.subscribers[0]!.priority).toBeLessThan(0);
    expect(internal.priority).toBe(0);
    await r.unmount();
  });

  it('frames do not re-render React: transforms go straight to three.js', async () => {
    let commits = 0;
    const ref = createRef<EngineBody>();
    const r = await ReactThreeTestRenderer.create(
      <Profiler id="scene" onRender={() => commits++}>
        <Scene gravity={[0, -10]}>
          <Body ref={ref} position={[0, 5]}>
            <Circle radius={0.5} />
          </Body>
        </Scene>
      </Profiler>,
    );
    const before = commits;
    expect(before).toBeGreaterThan(0); // the profiler does see commits
    await ReactThreeTestRenderer.act(() => r.advanceFrames(60, STEP));
    expect(ref.current!.y).toBeLessThan(0);
    expect(commits).toBe(before);
    await r.unmount();
  });
});

class Boundary extends Component<{ children: ReactNode }, { error: unknown }> {
  override state = { error: null as unknown };
  static getDerivedStateFromError(error: unknown): { error: unknown } {
    return { error };
  }
  override render(): ReactNode {
    return this.state.error ? null : this.props.children;
  }
}

describe('errors inside a Canvas', () => {
  it('a bad prop takes out only what its error boundary holds: the rest keeps stepping', async () => {
    const probe = makeProbe();
    const ok = createRef<EngineBody>();
    const bad = createRef<EngineBody>();
    const scene = (radius: number) => (
      <Scene gravity={[0, -10]}>
        <probe.Component />
        <Body ref={ok} position={[0, 5]}>
          <Circle radius={0.5} />
        </Body>
        <Boundary>
          <Body ref={bad} position={[3, 5]}>
            <Circle radius={radius} />
          </Body>
        </Boundary>
      </Scene>
    );
    // R3F's root reports caught errors to the console.error it finds when the root is created.
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    const r = await ReactThreeTestRenderer.create(scene(0.5));
    const kept = bad.current!;
    await r.update(scene(-1));
    expect(kept.shapes.map((s) => (s as unknown as { radius: number }).radius)).toEqual([0.5]); // never got -1
    expect(probe.space.bodies).toEqual([ok.current]);
    await ReactThreeTestRenderer.act(() => r.advanceFrames(30, STEP));
    expect(probe.space.stepCount).toBe(30);
    expect(ok.current!.y).toBeLessThan(5);
    await r.unmount();
    quiet.mockRestore();
  });

  it('a step that throws (checkUserConstraints and a wrong jacobian) throws the engine\'s error out of the frame callback; no error boundary sees it', async () => {
    const probe = makeProbe();
    const { probe: sp, Grab } = storeProbe();
    const ball = createRef<EngineBody>();
    const scene = (check: boolean) => (
      <Scene gravity={[0, -10]} checkUserConstraints={check}>
        <Grab />
        <probe.Component />
        <Boundary>
          <WrongJacobian ball={ball} />
        </Boundary>
      </Scene>
    );
    const r = await ReactThreeTestRenderer.create(scene(true));
    // One frame as R3F's loop runs it: every useFrame subscriber, in priority order. (The test
    // renderer's advanceFrames would turn the throw into an unhandled rejection.)
    const frame = () => {
      for (const s of sp.store!.getState().internal.subscribers) s.ref.current(s.store.getState(), STEP);
    };
    let err: unknown = null;
    try {
      frame();
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(FulcrumInputError);
    expect((err as FulcrumInputError).prop).toBe('jacobian');
    expect((err as Error).message).toMatch(/jacobian\(\) disagrees with position\(\)/);
    expect(probe.space.stepCount).toBe(0);
    // Still mounted (the boundary caught nothing) and unmoved; the next frame throws again.
    expect(probe.space.constraints.length).toBe(1);
    expect(ball.current!.x).toBe(1);
    expect(frame).toThrow(FulcrumInputError);
    // Turned off in place, the same scene steps.
    await r.update(scene(false));
    await ReactThreeTestRenderer.act(() => r.advanceFrames(2, STEP));
    expect(probe.space.stepCount).toBe(2);
    await r.unmount();
  });
});

describe('demand mode', () => {
  it('requests frames only while something is awake, and a prop change requests one', async () => {
    const probe = makeProbe();
    const { probe: sp, Grab } = storeProbe();
    const ref = createRef<EngineBody>();
    const scene = (drag: number) => (
      <Scene gravity={[0, -10]}>
        <Grab />
        <probe.Component />
        <Body type="static" position={[0, -0.5]}>
          <Box width={20} height={1} />
        </Body>
        <Body ref={ref} position={[0, 0.5]} linearDrag={drag}>
          <Box width={1} height={1} />
        </Body>
      </Scene>
    );
    const r = await ReactThreeTestRenderer.create(scene(0));
    const invalidate = vi.fn();
    sp.store!.setState({ frameloop: 'demand', invalidate });
    // Awake: every frame asks for the next one. At least 5: on a loaded machine one more request
    // shows up (seen under `npm test` with the browser tests alongside; most likely one real frame
    // of the renderer's own loop, started before the switch to 'demand'; not confirmed).
    await ReactThreeTestRenderer.act(() => r.advanceFrames(5, STEP));
    expect(invalidate.mock.calls.length).toBeGreaterThanOrEqual(5);
    // Run until the box sleeps: from then on, no more requests.
    let frames = 0;
    while (!ref.current!.isSleeping && frames < 300) {
      await ReactThreeTestRenderer.act(() => r.advanceFrames(1, STEP));
      frames++;
    }
    expect(ref.current!.isSleeping).toBe(true);
    invalidate.mockClear();
    await ReactThreeTestRenderer.act(() => r.advanceFrames(10, STEP));
    expect(invalidate).not.toHaveBeenCalled();
    // A prop change wakes the island and requests a frame.
    await r.update(scene(0.3));
    expect(ref.current!.isSleeping).toBe(false);
    expect(invalidate).toHaveBeenCalled();
    await r.unmount();
  });

  it('coming back from idle runs one step, not a burst of catch-up steps', async () => {
    const probe = makeProbe();
    const { probe: sp, Grab } = storeProbe();
    const ref = createRef<EngineBody>();
    const r = await ReactThreeTestRenderer.create(
      <Scene gravity={[0, -10]}>
        <Grab />
        <probe.Component />
        <Body type="static" position={[0, -0.5]}>
          <Box width={20} height={1} />
        </Body>
        <Body ref={ref} position={[0, 0.5]}>
          <Box width={1} height={1} />
        </Body>
      </Scene>,
    );
    sp.store!.setState({ frameloop: 'demand', invalidate: vi.fn() });
    for (let i = 0; i < 300 && !ref.current!.isSleeping; i++) await ReactThreeTestRenderer.act(() => r.advanceFrames(1, STEP));
    expect(ref.current!.isSleeping).toBe(true);
    ref.current!.applyImpulse([0, 5]); // wakes the island (through the engine, as a click handler would)
    const steps = probe.space.stepCount;
    // R3F's clock hands the first frame after idle the whole idle time.
    await ReactThreeTestRenderer.act(() => r.advanceFrames(1, 30));
    expect(probe.space.stepCount).toBe(steps + 1);
    await ReactThreeTestRenderer.act(() => r.advanceFrames(1, STEP));
    expect(probe.space.stepCount).toBe(steps + 2);
    await r.unmount();
  });
});
