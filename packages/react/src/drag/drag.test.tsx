import { Body as EngineBody, PivotJoint } from '@fulcrum/physics';
import { useThree } from '@react-three/fiber';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import { cleanup, render } from '@testing-library/react';
import { createRef, useContext, useEffect, type ReactNode } from 'react';
import { Vector3, type Camera } from 'three';
import { OrbitControls } from 'three/examples/jsm/controls/OrbitControls.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { WorldContext } from '../core/context.js';
import type { PhysicsWorld } from '../core/physics-world.js';
import { Box, Circle } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import { DragController } from './drag-controller.js';
import type { PointerDragProps } from './PointerDrag.js';

afterEach(cleanup);

/** The <Physics> world, for driving a DragController by hand. */
function makeWorldProbe(): { world: PhysicsWorld | null; Component: () => ReactNode } {
  const probe = {
    world: null as PhysicsWorld | null,
    Component(): ReactNode {
      probe.world = useContext(WorldContext);
      return null;
    },
  };
  return probe;
}

describe('DragController', () => {
  it('grabs the body under the point with a soft pivot, follows the pointer, and lets go', () => {
    const probe = makeProbe();
    const worldProbe = makeWorldProbe();
    const ball = createRef<EngineBody>();
    const scene = (show: boolean) => (
      <Physics gravity={[0, 0]}>
        <probe.Component />
        <worldProbe.Component />
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
    const world = worldProbe.world!;
    const released: EngineBody[] = [];
    const drag = new DragController(world, { current: { frequency: 4 } }, (b) => released.push(b));
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
    expect(released).toEqual([ball.current]);
    drag.release(); // idempotent
    expect(released.length).toBe(1);
    // A body that unmounts mid-drag ends the drag, and the space keeps stepping.
    drag.grab(ball.current!.x, ball.current!.y);
    expect(probe.space.constraints.length).toBe(1);
    const gone = ball.current;
    rerender(scene(false));
    expect(drag.dragging).toBeNull();
    expect(released).toEqual([gone, gone]); // told of the end, however it ended
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

describe('<PointerDrag> with camera controls', () => {
  const W = 800;
  const H = 600;
  /** A canvas with a known layout, and pointer capture (which three.js's OrbitControls needs and jsdom lacks). */
  const canvasOptions = (got: (c: HTMLCanvasElement) => void) => ({
    width: W,
    height: H,
    orthographic: true,
    camera: { zoom: 40, position: [0, 0, 100] as [number, number, number] },
    beforeReturn: (c: HTMLCanvasElement) => {
      c.getBoundingClientRect = () => ({ left: 0, top: 0, width: W, height: H, right: W, bottom: H, x: 0, y: 0, toJSON() {} });
      c.setPointerCapture = () => {};
      c.releasePointerCapture = () => {};
      c.hasPointerCapture = () => false;
      got(c);
    },
  });
  /** World (x, y) is at pixel (W/2 + 40x, H/2 − 40y). */
  const press = (canvas: HTMLCanvasElement, type: string, x: number, y: number) =>
    canvas.dispatchEvent(new PointerEvent(type, { clientX: W / 2 + 40 * x, clientY: H / 2 - 40 * y, button: 0, pointerId: 1, bubbles: true }));

  /** three.js's OrbitControls on the canvas, created before <PointerDrag> listens (it comes first in the tree). */
  function Orbit({ starts }: { starts: () => void }): ReactNode {
    const camera = useThree((s) => s.camera);
    const gl = useThree((s) => s.gl);
    useEffect(() => {
      const controls = new OrbitControls(camera, gl.domElement);
      controls.addEventListener('start', starts);
      return () => controls.dispose();
    }, [camera, gl, starts]);
    return null;
  }

  it('a press that grabs a body does not reach OrbitControls (nor listeners added before it); a press on empty space does', async () => {
    const starts = vi.fn();
    const before = vi.fn();
    let canvas: HTMLCanvasElement | null = null;
    const r = await ReactThreeTestRenderer.create(
      <>
        <Orbit starts={starts} />
        <Physics gravity={[0, 0]} dragging>
          <Body position={[1, 1]}>
            <Circle radius={0.5} />
          </Body>
        </Physics>
      </>,
      canvasOptions((c) => {
        canvas = c;
        c.addEventListener('pointerdown', before); // before anything else listens
      }),
    );
    press(canvas!, 'pointerdown', 1, 1);
    expect(starts).not.toHaveBeenCalled();
    expect(before).not.toHaveBeenCalled();
    press(canvas!, 'pointerup', 1, 1);
    press(canvas!, 'pointerdown', -5, -5); // nothing there: the controls orbit
    expect(starts).toHaveBeenCalledTimes(1);
    expect(before).toHaveBeenCalledTimes(1);
    await r.unmount();
  });

  it('onDragStart and onDragEnd bracket the drag; R3F\'s default controls are off while a body is held; stopPropagation={false} lets the press through', async () => {
    const log: string[] = [];
    const controls = { enabled: true };
    const seen = vi.fn();
    let canvas: HTMLCanvasElement | null = null;
    const ball = createRef<EngineBody>();
    function DefaultControls(): ReactNode {
      const set = useThree((s) => s.set);
      useEffect(() => set({ controls: controls as never }), [set]);
      return null;
    }
    let held: EngineBody | null = null;
    const drag: PointerDragProps = {
      stopPropagation: false,
      onDragStart: (b) => {
        held = b;
        log.push(`start ${b === ball.current} controls ${controls.enabled}`);
      },
      onDragEnd: (b) => log.push(`end ${b === held}`),
      onDrag: (b) => log.push(`drag ${b === null ? 'null' : 'body'}`),
    };
    const scene = (show: boolean) => (
      <Physics gravity={[0, 0]} dragging={drag}>
        <DefaultControls />
        {show && (
          <Body ref={ball} position={[1, 1]}>
            <Circle radius={0.5} />
          </Body>
        )}
      </Physics>
    );
    const r = await ReactThreeTestRenderer.create(
      scene(true),
      canvasOptions((c) => {
        canvas = c;
        c.addEventListener('pointerdown', seen);
      }),
    );
    press(canvas!, 'pointerdown', 1, 1);
    expect(seen).toHaveBeenCalledTimes(1); // let through
    expect(controls.enabled).toBe(false);
    press(canvas!, 'pointerup', 1, 1);
    expect(controls.enabled).toBe(true);
    expect(log).toEqual(['start true controls false', 'drag body', 'end true', 'drag null']);
    // A drag that ends because its body unmounts ends the same way, and gives the controls back.
    log.length = 0;
    press(canvas!, 'pointerdown', 1, 1);
    expect(controls.enabled).toBe(false);
    await r.update(scene(false));
    expect(controls.enabled).toBe(true);
    expect(log).toEqual(['start true controls false', 'drag body', 'end true', 'drag null']);
    await r.unmount();
  });

  it('bad props name <PointerDrag>', async () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    for (const [props, message] of [
      [{ stopPropagation: 1 }, /^<PointerDrag> prop stopPropagation=\{1\} is invalid: must be a boolean/],
      [{ onDragStart: 'x' }, /^<PointerDrag> prop onDragStart=\{"x"\} is invalid: must be a function/],
      [{ onDragEnd: 2 }, /^<PointerDrag> prop onDragEnd=\{2\} is invalid: must be a function/],
      [{ frequncy: 3 }, /^<PointerDrag> prop frequncy=\{3\} is invalid: <PointerDrag> has no prop 'frequncy' \(did you mean 'frequency'\?\)/],
    ] as const) {
      let err: unknown = null;
      try {
        const r = await ReactThreeTestRenderer.create(<Physics dragging={props as never} />);
        await r.unmount();
      } catch (e) {
        err = e;
      }
      expect((err as Error | null)?.message).toMatch(message);
    }
    quiet.mockRestore();
  });
});
