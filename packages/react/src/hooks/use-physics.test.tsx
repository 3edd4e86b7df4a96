import { Body as EngineBody, Circle as EngineCircle, Space, type ConvexCastHit, type RayHit, type Shape } from '@fulcrum/physics';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import { useStore } from '@react-three/fiber';
import { cleanup, render } from '@testing-library/react';
import { createRef, StrictMode, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { Box, Circle } from '../shapes/shapes.js';
import { usePhysics, type PhysicsApi } from './hooks.js';

afterEach(cleanup);

/** Ground from x = −10 to 10 with its top at y = 0, a ball of radius 0.5 at (2, 0.5), a box at (−3, 0.5). */
function Scene({ children, space, refs }: { children?: ReactNode; space?: Space; refs: { ground: React.RefObject<EngineBody | null>; ball: React.RefObject<EngineBody | null>; box: React.RefObject<EngineBody | null> } }): ReactNode {
  return (
    <Physics gravity={[0, 0]} space={space}>
      {children}
      <Body ref={refs.ground} type="static" position={[0, -0.5]}>
        <Box width={20} height={1} />
      </Body>
      <Body ref={refs.ball} position={[2, 0.5]}>
        <Circle radius={0.5} />
      </Body>
      <Body ref={refs.box} position={[-3, 0.5]}>
        <Box width={1} height={1} />
      </Body>
    </Physics>
  );
}

const newRefs = () => ({ ground: createRef<EngineBody>(), ball: createRef<EngineBody>(), box: createRef<EngineBody>() });

describe('usePhysics()', () => {
  it('can be destructured: every function is bound', () => {
    const seen: { requestFrame?: () => void; step?: (dt?: number) => void; space?: Space } = {};
    function Reader(): ReactNode {
      const { requestFrame, step, space } = usePhysics();
      Object.assign(seen, { requestFrame, step, space });
      return null;
    }
    render(
      <Physics>
        <Reader />
      </Physics>,
    );
    expect(() => seen.requestFrame!()).not.toThrow(); // outside a <Canvas>: a no-op
    seen.step!(0.25);
    expect(seen.space!.stepCount).toBe(1);
    expect(seen.space!.time).toBe(0.25);
  });

  it('a destructured requestFrame asks R3F for a frame', async () => {
    const store = { current: null as ReturnType<typeof useStore> | null };
    let requestFrame: (() => void) | null = null;
    function Reader(): ReactNode {
      store.current = useStore();
      ({ requestFrame } = usePhysics());
      return null;
    }
    const r = await ReactThreeTestRenderer.create(
      <Physics>
        <Reader />
      </Physics>,
    );
    const invalidate = vi.fn();
    store.current!.setState({ invalidate });
    requestFrame!();
    expect(invalidate).toHaveBeenCalledTimes(1);
    await r.unmount();
  });

  it('is one stable object for the life of the <Physics>; its space and queries follow a new space prop', () => {
    const apis: PhysicsApi[] = [];
    function Reader(): ReactNode {
      apis.push(usePhysics());
      return null;
    }
    const a = new Space();
    const b = new Space();
    const refs = newRefs();
    const scene = (space: Space) => (
      <StrictMode>
        <Scene space={space} refs={refs}>
          <Reader />
        </Scene>
      </StrictMode>
    );
    const { rerender } = render(scene(a));
    rerender(scene(a));
    expect(new Set(apis).size).toBe(1);
    const { space, queryPoint } = apis[0]!;
    expect(space).toBe(a);
    const aBall = refs.ball.current!;
    expect(queryPoint([2, 0.5]).map((s) => s.body)).toEqual([aBall]);
    rerender(scene(b));
    expect(new Set(apis).size).toBe(1);
    expect(apis[0]!.space).toBe(b);
    expect(refs.ball.current).not.toBe(aBall);
    expect(queryPoint([2, 0.5]).map((s) => s.body)).toEqual([refs.ball.current]); // the destructured query reads the new space
  });

  it('rayCast, rayCastAll, queryPoint, queryAABB and convexCast are the engine\'s, on the space', () => {
    let api: PhysicsApi | null = null;
    function Reader(): ReactNode {
      api = usePhysics();
      return null;
    }
    const refs = newRefs();
    render(
      <Scene refs={refs}>
        <Reader />
      </Scene>,
    );
    const { space, rayCast, rayCastAll, queryPoint, queryAABB, convexCast } = api!;
    const ground = refs.ground.current!;
    const ball = refs.ball.current!;
    const box = refs.box.current!;

    // Picking: a ray down through the ball hits the ball first, then the ground.
    const hit: RayHit | null = rayCast([2, 5], [2, -5]);
    expect(hit!.body).toBe(ball);
    expect(hit!.point.y).toBeCloseTo(1, 9);
    expect(hit!.normal).toEqual({ x: 0, y: 1 });
    expect(hit).toEqual(space.rayCast([2, 5], [2, -5]));
    const all: RayHit[] = rayCastAll([2, 5], [2, -5]);
    expect(all.map((h) => h.body)).toEqual([ball, ground]);
    // Options are passed on.
    expect(rayCast([2, 5], [2, -5], { filter: (s) => s.body !== ball })!.body).toBe(ground);

    const at: Shape[] = queryPoint([-3, 0.5]);
    expect(at.map((s) => s.body)).toEqual([box]);
    const inBox = queryAABB([-10, 0.2], [10, 0.8]).map((s) => s.body);
    expect(inBox.length).toBe(2);
    expect(inBox).toContain(ball);
    expect(inBox).toContain(box);

    // A ground check: a small circle cast down from above the box meets its top.
    const probe = new EngineCircle({ radius: 0.1 });
    const cast: ConvexCastHit | null = convexCast(probe, { position: [-3, 3] }, [0, -3]);
    expect(cast!.body).toBe(box);
    expect(cast!.time * 3).toBeCloseTo(3 - 1 - 0.1, 1); // it travels 1.9 m, to within the engine's contact skin
    expect(cast).toEqual(space.convexCast(probe, { position: [-3, 3] }, [0, -3]));
    expect(convexCast(probe, { position: [6, 3] }, [0, -2])).toBeNull();
  });
});
