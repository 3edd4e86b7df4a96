import { Body as EngineBody } from '@fulcrum/physics';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import { cleanup, render } from '@testing-library/react';
import { createRef, StrictMode, type ReactNode } from 'react';
import { Raycaster, Vector3, type InstancedMesh, type Intersection } from 'three';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { FulcrumPropError, FulcrumUnmountedError } from '../core/errors.js';
import type { BodyContactEvent } from '../core/event-router.js';
import { Box, Circle } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import type { InstancePointerEvent } from './instance-pointer.js';
import { InstancedBodies, type InstanceProps } from './InstancedBodies.js';

afterEach(cleanup);

const row = (n: number, y = 0): InstanceProps[] => Array.from({ length: n }, (_, i) => ({ key: `k${i}`, position: [i * 2, y] as const }));

describe('<InstancedBodies>', () => {
  it('keeps one body per instance through count changes, matched by key', () => {
    const probe = makeProbe();
    const ref = createRef<readonly EngineBody[]>();
    const scene = (instances: InstanceProps[], radius = 0.5) => (
      <StrictMode>
        <Physics>
          <probe.Component />
          <InstancedBodies ref={ref} instances={instances} linearDrag={0.1}>
            <Circle radius={radius} />
          </InstancedBodies>
        </Physics>
      </StrictMode>
    );
    const { rerender, unmount } = render(scene(row(3)));
    const space = probe.space;
    expect(space.bodies.length).toBe(3);
    expect(ref.current!.map((b) => b.x)).toEqual([0, 2, 4]);
    expect(ref.current!.every((b) => b.shapes.length === 1 && b.linearDrag === 0.1)).toBe(true);
    const [, second, third] = ref.current!;
    // Drop the first instance: the others keep their bodies (same keys), a new one appears.
    rerender(scene([...row(3).slice(1), { key: 'new', position: [10, 0] }]));
    expect(space.bodies.length).toBe(3);
    expect(ref.current![0]).toBe(second);
    expect(ref.current![1]).toBe(third);
    expect(ref.current![2]!.x).toBe(10);
    // Grow, then change a template prop: every copy follows, in place.
    rerender(scene(row(40), 0.25));
    expect(space.bodies.length).toBe(40);
    expect(ref.current!.every((b) => (b.shapes[0] as unknown as { radius: number }).radius === 0.25)).toBe(true);
    const kept = ref.current![5]!;
    unmount();
    expect(space.bodies.length).toBe(0);
    expect(() => kept.applyImpulse([1, 0])).toThrow(FulcrumUnmountedError);
  });

  it('events report the instance index (and the other body\'s)', () => {
    const probe = makeProbe();
    const hits: BodyContactEvent[] = [];
    render(
      <Physics gravity={[0, -10]}>
        <probe.Component />
        <Body type="static" position={[0, -0.5]}>
          <Box width={40} height={1} />
        </Body>
        <InstancedBodies instances={row(4, 1)} onBeginContact={(e) => hits.push(e)}>
          <Circle radius={0.5} />
        </InstancedBodies>
      </Physics>,
    );
    for (let i = 0; i < 60; i++) probe.api!.step();
    expect(hits.map((h) => h.index).sort()).toEqual([0, 1, 2, 3]);
    for (const h of hits) {
      expect(h.body.x).toBeCloseTo(h.index! * 2, 6);
      expect(h.otherIndex).toBeUndefined();
    }
  });

  it('names the bad instance', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    let err: unknown = null;
    try {
      render(
        <Physics>
          <InstancedBodies instances={[{ position: [0, 0] }, { position: [0, Number.NaN] }]}>
            <Circle radius={0.5} />
          </InstancedBodies>
        </Physics>,
      );
    } catch (e) {
      err = e;
    } finally {
      quiet.mockRestore();
    }
    expect(err).toBeInstanceOf(FulcrumPropError);
    expect((err as Error).message).toMatch(/^<InstancedBodies> prop instances\[1\]\.position=\{\[0, NaN\]\} is invalid/);
  });

  it('draws every instance with one InstancedMesh whose matrices follow the bodies', async () => {
    const probe = makeProbe();
    const mesh = createRef<InstancedMesh>();
    const ref = createRef<readonly EngineBody[]>();
    const scene = (n: number): ReactNode => (
      <Physics gravity={[0, -10]} interpolate={false}>
        <probe.Component />
        <InstancedBodies ref={ref} meshRef={mesh} instances={row(n, 5).map((p, i) => ({ ...p, angularVel: i }))}>
          <Circle radius={0.5} />
        </InstancedBodies>
      </Physics>
    );
    const r = await ReactThreeTestRenderer.create(scene(3));
    expect(mesh.current!.count).toBe(3);
    expect(mesh.current!.geometry.type).toBe('CircleGeometry');
    await ReactThreeTestRenderer.act(() => r.advanceFrames(10, 1 / 60));
    const m = mesh.current!.instanceMatrix.array;
    ref.current!.forEach((b, i) => {
      expect(m[16 * i + 12]).toBeCloseTo(b.x, 5);
      expect(m[16 * i + 13]).toBeCloseTo(b.y, 5);
      expect(m[16 * i]).toBeCloseTo(Math.cos(b.rotation), 5);
      expect(m[16 * i + 1]).toBeCloseTo(Math.sin(b.rotation), 5);
    });
    expect(ref.current![0]!.y).toBeLessThan(5);
    const shape0 = ref.current![0]!.shapes[0];
    // More instances than the buffer holds: a bigger mesh, all matrices written; the existing
    // instances keep their bodies and shapes.
    await r.update(scene(20));
    expect(ref.current![0]!.shapes[0]).toBe(shape0);
    expect(mesh.current!.geometry.type).toBe('CircleGeometry');
    expect(mesh.current!.count).toBe(20);
    expect(mesh.current!.instanceMatrix.count).toBeGreaterThanOrEqual(20);
    const m2 = mesh.current!.instanceMatrix.array;
    ref.current!.forEach((b, i) => expect(m2[16 * i + 12]).toBeCloseTo(b.x, 5));
    expect(probe.space.bodies.length).toBe(20);
    await r.unmount();
  });
  it('checks that every handler is a function, onContactForce and the pointer events included', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      for (const [props, message] of [
        [{ onContactForce: 5 }, /^<InstancedBodies> prop onContactForce=\{5\} is invalid: must be a function/],
        [{ onClick: 'x' }, /^<InstancedBodies> prop onClick=\{"x"\} is invalid: must be a function/],
      ] as const) {
        expect(() =>
          render(
            <Physics>
              <InstancedBodies instances={row(1)} {...(props as object)}>
                <Circle radius={0.5} />
              </InstancedBodies>
            </Physics>,
          ),
        ).toThrow(message);
        cleanup();
      }
    } finally {
      quiet.mockRestore();
    }
  });

  it('forwards R3F pointer events from the mesh with the instance\'s engine body, index and shape', async () => {
    const ref = createRef<readonly EngineBody[]>();
    const clicks: InstancePointerEvent<MouseEvent>[] = [];
    const over = vi.fn();
    const scene = (handlers: { onClick?: (e: InstancePointerEvent<MouseEvent>) => void; onPointerOver?: (e: InstancePointerEvent) => void }) => (
      <Physics gravity={[0, 0]}>
        <InstancedBodies ref={ref} instances={row(3)} {...handlers}>
          <Circle radius={0.5} />
        </InstancedBodies>
      </Physics>
    );
    const r = await ReactThreeTestRenderer.create(scene({ onClick: (e) => clicks.push(e), onPointerOver: over }));
    const mesh = () => r.scene.find((n) => (n.instance as Partial<InstancedMesh>).isInstancedMesh === true);
    await r.fireEvent(mesh(), 'click', { instanceId: 1, point: new Vector3(2.1, 0, 0) });
    expect(clicks.length).toBe(1);
    expect(clicks[0]!.index).toBe(1);
    expect(clicks[0]!.body).toBe(ref.current![1]);
    expect(clicks[0]!.shape).toBe(ref.current![1]!.shapes[0]);
    expect(clicks[0]!.point.x).toBe(2.1); // R3F's own fields are kept
    await r.fireEvent(mesh(), 'pointerOver', { instanceId: 2, point: new Vector3(4, 0, 0) });
    expect(over).toHaveBeenCalledTimes(1);
    expect((over.mock.calls[0]![0] as InstancePointerEvent).body).toBe(ref.current![2]);
    expect((over.mock.calls[0]![0] as InstancePointerEvent).index).toBe(2);
    // R3F's own event object is left as it is: R3F keys its hover records by its `index` and
    // `instanceId`, so the handler gets a copy.
    const r3fEvent = { instanceId: 2, point: new Vector3(4, 0, 0), stopPropagation: () => {} };
    (mesh().props as { onPointerOver: (e: unknown) => void }).onPointerOver(r3fEvent);
    expect(over).toHaveBeenCalledTimes(2);
    expect(Object.keys(r3fEvent).sort()).toEqual(['instanceId', 'point', 'stopPropagation']);
    expect((over.mock.calls[1]![0] as InstancePointerEvent).index).toBe(2);
    // A hit with no instance (or past the last one) reaches no handler.
    await r.fireEvent(mesh(), 'click', { point: new Vector3(0, 0, 0) });
    await r.fireEvent(mesh(), 'click', { instanceId: 7, point: new Vector3(0, 0, 0) });
    expect(clicks.length).toBe(1);
    // The latest committed props' handler is called; nothing is re-registered.
    const next = vi.fn();
    await ReactThreeTestRenderer.act(async () => r.update(scene({ onClick: next })));
    await r.fireEvent(mesh(), 'click', { instanceId: 0, point: new Vector3(0, 0, 0) });
    expect(next).toHaveBeenCalledTimes(1);
    expect((next.mock.calls[0]![0] as InstancePointerEvent).body).toBe(ref.current![0]);
    expect(clicks.length).toBe(1);
    await r.unmount();
  });

  it('the mesh is hit only while a pointer handler is given, at each instance\'s current pose', async () => {
    const ref = createRef<readonly EngineBody[]>();
    const mesh = createRef<InstancedMesh>();
    /** What a ray straight down the z axis through world (x, y) hits of the mesh. */
    const hits = (x: number, y: number): Intersection[] => {
      mesh.current!.updateWorldMatrix(true, false);
      return new Raycaster(new Vector3(x, y, 10), new Vector3(0, 0, -1)).intersectObject(mesh.current!, false);
    };
    const scene = (instances: InstanceProps[], onClick?: () => void) => (
      <Physics gravity={[0, 0]} interpolate={false}>
        <InstancedBodies ref={ref} meshRef={mesh} instances={instances} onClick={onClick}>
          <Circle radius={0.5} />
        </InstancedBodies>
      </Physics>
    );
    const r = await ReactThreeTestRenderer.create(scene(row(3)));
    // Off the circle geometry's centre, where every triangle of its fan meets.
    expect(hits(2.1, 0.13)).toEqual([]);
    await ReactThreeTestRenderer.act(async () => r.update(scene(row(3), () => {})));
    expect(hits(2.1, 0.13).map((h) => h.instanceId)).toEqual([1]);
    expect(hits(1, 3)).toEqual([]);
    // The instances move far from where three.js first bounded them: still hit where they are.
    await ReactThreeTestRenderer.act(async () => r.update(scene(row(3, 20), () => {})));
    await ReactThreeTestRenderer.act(() => r.advanceFrames(1, 1 / 60));
    expect(ref.current![2]!.y).toBe(20);
    expect(hits(4.1, 20.13).map((h) => h.instanceId)).toEqual([2]);
    expect(hits(4.1, 0.13)).toEqual([]);
    await ReactThreeTestRenderer.act(async () => r.update(scene(row(3, 20))));
    expect(hits(4.1, 20.13)).toEqual([]);
    await r.unmount();
  });
});
