/**
 * Pointer events on a <Body>'s default shape meshes reach the body's handlers with the engine
 * body and shape added; a mesh whose body has no pointer handler is never hit by R3F's raycast.
 */
import type { Body as EngineBody, Circle as EngineCircle, Polygon as EnginePolygon } from '@fulcrum/physics';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import { createRef, type ReactNode } from 'react';
import { Raycaster, Vector3, type Intersection, type Object3D } from 'three';
import { describe, expect, it, vi } from 'vitest';
import { Body, type BodyProps } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import type { BodyPointerEvent } from '../core/event-router.js';
import { Box, Chain, Circle, Polygon } from './shapes.js';

/** What a ray straight down the z axis through world (x, y) hits of `object`. */
function hits(object: Object3D, x: number, y: number): Intersection[] {
  object.updateWorldMatrix(true, false);
  return new Raycaster(new Vector3(x, y, 10), new Vector3(0, 0, -1)).intersectObject(object, false);
}

describe('pointer events on a body’s shapes', () => {
  it('forward R3F events to the <Body>’s handlers, with the engine body and shape', async () => {
    const body = createRef<EngineBody>();
    const circle = createRef<EngineCircle>();
    const clicks: BodyPointerEvent<MouseEvent>[] = [];
    const over = vi.fn();
    const scene = (props: Partial<BodyProps>) => (
      <Physics>
        <Body ref={body} {...props}>
          <Circle ref={circle} radius={0.5} />
        </Body>
      </Physics>
    );
    const r = await ReactThreeTestRenderer.create(scene({ onClick: (e) => clicks.push(e), onPointerOver: over }));
    const mesh = r.scene.findByType('Mesh');
    await r.fireEvent(mesh, 'click', { point: new Vector3(0.1, 0, 0) });
    expect(clicks.length).toBe(1);
    expect(clicks[0]!.body).toBe(body.current);
    expect(clicks[0]!.shape).toBe(circle.current);
    expect(clicks[0]!.point.x).toBe(0.1); // R3F's own fields are kept
    await r.fireEvent(mesh, 'pointerOver', { point: new Vector3(0, 0, 0) });
    expect(over).toHaveBeenCalledTimes(1);
    expect((over.mock.calls[0]![0] as BodyPointerEvent).body).toBe(body.current);
    // The latest props' handlers are called; nothing is re-registered.
    const next = vi.fn();
    await ReactThreeTestRenderer.act(async () => r.update(scene({ onClick: next })));
    await r.fireEvent(r.scene.findByType('Mesh'), 'click', { point: new Vector3(0, 0, 0) });
    expect(next).toHaveBeenCalledTimes(1);
    expect(clicks.length).toBe(1);
    await r.unmount();
  });

  it('a mesh is hit only while its body has a pointer handler', async () => {
    const scene = (props: Partial<BodyProps>) => (
      <Physics>
        <Body type="static" {...props}>
          <Box width={2} height={1} />
          <Chain vertices={[[3, 0], [1, 0]]} />
        </Body>
      </Physics>
    );
    const r = await ReactThreeTestRenderer.create(scene({}));
    const mesh = () => r.scene.findByType('Mesh').instance as Object3D;
    expect(hits(mesh(), 0.5, 0.2)).toEqual([]);
    await ReactThreeTestRenderer.act(async () => r.update(scene({ onPointerDown: () => {} })));
    expect(hits(mesh(), 0.5, 0.2).length).toBe(1);
    expect(hits(mesh(), 1.5, 0.2)).toEqual([]); // outside the box
    await ReactThreeTestRenderer.act(async () => r.update(scene({})));
    expect(hits(mesh(), 0.5, 0.2)).toEqual([]);
    await r.unmount();
  });

  it('a decomposed polygon reports the piece under the pointer', async () => {
    const pieces = createRef<readonly EnginePolygon[]>();
    const shapes: unknown[] = [];
    const r = await ReactThreeTestRenderer.create(
      <Physics>
        <Body type="static" onClick={(e) => shapes.push(e.shape)}>
          <Polygon piecesRef={pieces} vertices={[[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]]} />
        </Body>
      </Physics>,
    );
    const mesh = r.scene.findByType('Mesh');
    await r.fireEvent(mesh, 'click', { point: new Vector3(1.8, 0.5, 0) });
    await r.fireEvent(mesh, 'click', { point: new Vector3(0.5, 1.8, 0) });
    const [a, b] = shapes;
    expect(pieces.current).toContain(a);
    expect(pieces.current).toContain(b);
    expect((a as EnginePolygon).containsPoint(1.8, 0.5)).toBe(true);
    expect((b as EnginePolygon).containsPoint(0.5, 1.8)).toBe(true);
    await r.unmount();
  });

  it('a body with its own three.js children gets no forwarding (its shapes draw nothing)', async () => {
    const click = vi.fn();
    function Own(): ReactNode {
      return <mesh />;
    }
    const r = await ReactThreeTestRenderer.create(
      <Physics>
        <Body onClick={click}>
          <Circle radius={0.5} />
          <Own />
        </Body>
      </Physics>,
    );
    const meshes = r.scene.findAllByType('Mesh');
    expect(meshes.length).toBe(1);
    expect((meshes[0]!.props as { onClick?: unknown }).onClick).toBeUndefined();
    await r.unmount();
  });
});
