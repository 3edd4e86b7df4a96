import { Body as EngineBody, PivotJoint } from '@fulcrum/physics';
import { useThree } from '@react-three/fiber';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import { cleanup, render } from '@testing-library/react';
import { createRef } from 'react';
import { Vector3, type Camera } from 'three';
import { afterEach, describe, expect, it } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { Box, Circle } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import { DragController } from './drag-controller.js';

afterEach(cleanup);

describe('DragController', () => {
  it('grabs the body under the point with a soft pivot, follows the pointer, and lets go', () => {
    const probe = makeProbe();
    const ball = createRef<EngineBody>();
    const scene = (show: boolean) => (
      <Physics gravity={[0, 0]}>
        <probe.Component />
        <Body type="static" position={[0, -5]}>
          <Box width={20} height={1} />
        </Body>
        {show && (
          <Body ref={ball} position={[0, 0]}>
            <Circle radius={0.5} />
          </Body>
        )}
      </Physics>
    );
    const { rerender } = render(scene(true));
    const world = probe.api as never as ConstructorParameters<typeof DragController>[0];
    const drag = new DragController(world, { current: { frequency: 4 } });
    expect(drag.grab(3, 3)).toBeNull(); // nothing there
    expect(drag.grab(0, -5)).toBeNull(); // static: not draggable
    expect(drag.grab(0.2, 0.1)).toBe(ball.current);
    const joint = drag.dragJoint!;
    expect(joint).toBeInstanceOf(PivotJoint);
    expect(joint.stiff).toBe(false);
    expect(joint.frequency).toBe(4);
    expect(probe.space.constraints).toEqual([joint]);
    expect(probe.space.bodies.length).toBe(3);
    // The grabbed point, not the centre, is pulled to the pointer.
    drag.move(2.2, 0.1);
    for (let i = 0; i < 240; i++) probe.api!.step();
    expect(ball.current!.localPointToWorld(joint.anchor2).x).toBeCloseTo(2.2, 1); // within sleeping tolerance
    drag.release();
    expect(probe.space.constraints.length).toBe(0);
    expect(probe.space.bodies.length).toBe(2);
    drag.release(); // idempotent
    // A body that unmounts mid-drag ends the drag, and the space keeps stepping.
    drag.grab(ball.current!.x, ball.current!.y);
    expect(probe.space.constraints.length).toBe(1);
    rerender(scene(false));
    expect(drag.dragging).toBeNull();
    expect(probe.space.constraints.length).toBe(0);
    expect(probe.space.bodies.length).toBe(1);
    probe.api!.step();
  });
});

describe('<Physics dragging>', () => {
  it('drags a body with pointer events on the canvas, through an orthographic camera', async () => {
    const probe = makeProbe();
    const ball = createRef<EngineBody>();
    let canvas: HTMLCanvasElement | null = null;
    const r = await ReactThreeTestRenderer.create(
      <Physics gravity={[0, 0]} dragging={{ frequency: 5 }}>
        <probe.Component />
        <Body ref={ball} position={[1, 1]}>
          <Circle radius={0.5} />
        </Body>
      </Physics>,
      {
        width: 800,
        height: 600,
        orthographic: true,
        camera: { zoom: 40, position: [0, 0, 100] },
        beforeReturn: (c: HTMLCanvasElement) => {
          canvas = c;
          c.getBoundingClientRect = () => ({ left: 0, top: 0, width: 800, height: 600, right: 800, bottom: 600, x: 0, y: 0, toJSON() {} });
        },
      },
    );
    // World (x, y) is at pixel (400 + 40x, 300 − 40y).
    const at = (type: string, x: number, y: number) =>
      canvas!.dispatchEvent(new PointerEvent(type, { clientX: 400 + 40 * x, clientY: 300 - 40 * y, button: 0, pointerId: 7, bubbles: true }));
    at('pointerdown', 1, 1);
    expect(probe.space.constraints.length).toBe(1);
    const joint = probe.space.constraints[0] as PivotJoint;
    expect(joint.anchor1.x).toBeCloseTo(1, 6);
    expect(joint.anchor1.y).toBeCloseTo(1, 6);
    at('pointermove', -2, 3);
    expect(joint.anchor1.x).toBeCloseTo(-2, 6);
    expect(joint.anchor1.y).toBeCloseTo(3, 6);
    await ReactThreeTestRenderer.act(() => r.advanceFrames(240, 1 / 60));
    expect(ball.current!.x).toBeCloseTo(-2, 2);
    expect(ball.current!.y).toBeCloseTo(3, 2);
    at('pointerup', -2, 3);
    expect(probe.space.constraints.length).toBe(0);
    await r.unmount();
  });

  // R3F points a camera given an offset `position` at the origin, which tilts it; the pointer's
  // world point is then where its ray meets z = 0, not an unprojection at one depth.
  it.each([
    ['a tilted orthographic camera', true, { zoom: 17, position: [0, -1, 100] }],
    ['a perspective camera', false, { fov: 50, position: [1, -2, 12] }],
  ] as const)('grabs the body under the pointer through %s', async (_name, orthographic, camera) => {
    const probe = makeProbe();
    const ball = createRef<EngineBody>();
    let canvas: HTMLCanvasElement | null = null;
    let cam: Camera | null = null;
    function CameraProbe() {
      cam = useThree((s) => s.camera);
      return null;
    }
    const r = await ReactThreeTestRenderer.create(
      <Physics gravity={[0, 0]} dragging>
        <probe.Component />
        <CameraProbe />
        <Body ref={ball} position={[-1.5, -2]}>
          <Circle radius={0.3} />
        </Body>
      </Physics>,
      {
        width: 800,
        height: 500,
        orthographic,
        camera,
        beforeReturn: (c: HTMLCanvasElement) => {
          canvas = c;
          c.getBoundingClientRect = () => ({ left: 0, top: 0, width: 800, height: 500, right: 800, bottom: 500, x: 0, y: 0, toJSON() {} });
        },
      },
    );
    await ReactThreeTestRenderer.act(() => r.advanceFrames(1, 1 / 60));
    cam!.updateMatrixWorld();
    const pixel = new Vector3(-1.5, -2, 0).project(cam!);
    canvas!.dispatchEvent(
      new PointerEvent('pointerdown', { clientX: ((pixel.x + 1) / 2) * 800, clientY: ((1 - pixel.y) / 2) * 500, button: 0, pointerId: 3, bubbles: true }),
    );
    expect(probe.space.constraints.length).toBe(1);
    const joint = probe.space.constraints[0] as PivotJoint;
    expect(joint.body2).toBe(ball.current);
    expect(joint.anchor1.x).toBeCloseTo(-1.5, 4);
    expect(joint.anchor1.y).toBeCloseTo(-2, 4);
    await r.unmount();
  });
});
