import { Body as EngineBody, Circle as EngineCircle, FulcrumInputError } from '@fulcrum/physics';
import { cleanup, render } from '@testing-library/react';
import { createRef, StrictMode, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FulcrumPropError, FulcrumUnmountedError } from '../core/errors.js';
import { Box, Circle } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import { Body } from './Body.js';
import { Physics } from './Physics.js';

afterEach(cleanup);

describe('<Body> lifecycle', () => {
  it('adds one engine body per <Body>, with its shapes, and removes it on unmount', () => {
    const probe = makeProbe();
    const scene = (n: number) => (
      <Physics>
        <probe.Component />
        {Array.from({ length: n }, (_, i) => (
          <Body key={i} position={[i, 0]}>
            <Circle radius={0.5} />
            <Box width={1} height={2} offset={[0, 1]} />
          </Body>
        ))}
      </Physics>
    );
    const { rerender, unmount } = render(scene(3));
    const space = probe.space;
    expect(space.bodies.length).toBe(3);
    expect(space.bodies.map((b) => b.shapes.length)).toEqual([2, 2, 2]);
    expect(space.bodies.map((b) => b.x)).toEqual([0, 1, 2]);
    rerender(scene(1));
    expect(space.bodies.length).toBe(1);
    unmount();
    expect(space.bodies.length).toBe(0);
  });

  it('StrictMode leaves exactly one body per component, and unmounting removes all of them', () => {
    const probe = makeProbe();
    const ref = createRef<EngineBody>();
    const { unmount } = render(
      <StrictMode>
        <Physics>
          <probe.Component />
          <Body ref={ref} position={[0, 3]}>
            <Circle radius={0.5} />
          </Body>
          <Body type="static">
            <Box width={10} height={1} />
          </Body>
        </Physics>
      </StrictMode>,
    );
    const space = probe.space;
    expect(space.bodies.length).toBe(2);
    expect(space.bodies).toContain(ref.current);
    expect(ref.current!.shapes.length).toBe(1);
    unmount();
    expect(space.bodies.length).toBe(0);
  });

  it('the ref is the engine body; after unmount the ref is null and a kept body is inert', () => {
    const probe = makeProbe();
    const ref = createRef<EngineBody>();
    function Scene({ show }: { show: boolean }): ReactNode {
      return (
        <Physics>
          <probe.Component />
          {show && (
            <Body ref={ref} position={[0, 3]}>
              <Circle radius={0.5} />
            </Body>
          )}
          <Body position={[5, 0]}>
            <Circle radius={0.5} />
          </Body>
        </Physics>
      );
    }
    const { rerender } = render(<Scene show />);
    const body = ref.current!;
    expect(body).toBeInstanceOf(EngineBody);
    expect(body.space).toBe(probe.space);
    rerender(<Scene show={false} />);
    expect(ref.current).toBeNull();
    expect(probe.space.bodies).not.toContain(body);
    // Reads still work; every mutation throws a clear error and the space is untouched.
    expect(body.y).toBe(3);
    expect(() => body.applyImpulse([1, 0])).toThrow(FulcrumUnmountedError);
    expect(() => body.applyImpulse([1, 0])).toThrow(/Body#\d+ belonged to a <Body> that has unmounted/);
    expect(() => {
      body.position = [1, 1];
    }).toThrow(FulcrumUnmountedError);
    expect(() => body.addShape(new EngineCircle({ radius: 1 }))).toThrow(FulcrumUnmountedError);
    expect(probe.space.bodies.length).toBe(1);
    probe.api!.step();
    expect(probe.space.stepCount).toBe(1);
  });

  it('mounting again after unmount gives a new live body to the same ref', () => {
    const ref = createRef<EngineBody>();
    const scene = (show: boolean) => (
      <Physics>
        {show && (
          <Body ref={ref}>
            <Circle radius={0.5} />
          </Body>
        )}
      </Physics>
    );
    const { rerender } = render(scene(true));
    const first = ref.current!;
    rerender(scene(false));
    rerender(scene(true));
    expect(ref.current).not.toBe(first);
    expect(ref.current!.shapes.length).toBe(1);
  });
});

describe('<Body> props', () => {
  it('applies every prop in place through the engine setters, without a new body', () => {
    const ref = createRef<EngineBody>();
    const scene = (p: Partial<Parameters<typeof Body>[0]>) => (
      <Physics>
        <Body ref={ref} {...p}>
          <Circle radius={0.5} />
        </Body>
      </Physics>
    );
    const { rerender } = render(scene({ position: [0, 0] }));
    const body = ref.current!;
    rerender(
      scene({
        type: 'kinematic',
        position: [1, 2],
        rotation: 0.5,
        velocity: [3, 4],
        angularVel: 2,
        force: [1, 1],
        torque: 3,
        mass: 7,
        inertia: 9,
        allowMovement: false,
        allowRotation: false,
        allowFastRotation: true,
        allowSleep: false,
        isBullet: true,
        disableCCD: true,
        contactForceThreshold: 50,
        linearDrag: 0.1,
        angularDrag: 0.2,
        gravityScale: 0.5,
        userData: { tag: 'x' },
      }),
    );
    expect(ref.current).toBe(body);
    expect(body.type).toBe('kinematic');
    expect(body.position).toEqual({ x: 1, y: 2 });
    expect(body.rotation).toBe(0.5);
    expect(body.velocity).toEqual({ x: 3, y: 4 });
    expect(body.angularVel).toBe(2);
    expect(body.force).toEqual({ x: 1, y: 1 });
    expect(body.torque).toBe(3);
    expect(body.mass).toBe(7);
    expect(body.inertia).toBe(9);
    expect(body.allowMovement).toBe(false);
    expect(body.allowRotation).toBe(false);
    expect(body.allowFastRotation).toBe(true);
    expect(body.allowSleep).toBe(false);
    expect(body.isBullet).toBe(true);
    expect(body.disableCCD).toBe(true);
    expect(body.contactForceThreshold).toBe(50);
    expect(body.linearDrag).toBe(0.1);
    expect(body.angularDrag).toBe(0.2);
    expect(body.gravityScale).toBe(0.5);
    expect(body.userData).toEqual({ tag: 'x' });
    // Dropping props goes back to the defaults (mass back to the shape's).
    rerender(scene({ position: [1, 2] }));
    expect(body.type).toBe('dynamic');
    expect(body.mass).toBeCloseTo(Math.PI * 0.25, 12);
    expect(body.linearDrag).toBe(0);
    expect(body.gravityScale).toBe(1);
    expect(body.allowRotation).toBe(true);
    expect(body.allowFastRotation).toBe(false);
    expect(body.allowSleep).toBe(true);
    expect(body.isBullet).toBe(false);
    expect(body.disableCCD).toBe(false);
    expect(body.contactForceThreshold).toBe(Infinity);
  });

  it('a re-render with equal (fresh) arrays does not teleport a moving body back', () => {
    const probe = makeProbe();
    const ref = createRef<EngineBody>();
    const scene = (n: number) => (
      <Physics gravity={[0, -10]}>
        <probe.Component />
        <Body ref={ref} position={[0, 5]} data-n={n}>
          <Circle radius={0.5} />
        </Body>
      </Physics>
    );
    const { rerender } = render(scene(0));
    for (let i = 0; i < 10; i++) probe.api!.step(1 / 60);
    const y = ref.current!.y;
    expect(y).toBeLessThan(5);
    rerender(scene(1));
    expect(ref.current!.y).toBe(y);
  });

  it('a prop change on a sleeping island wakes it', () => {
    const probe = makeProbe();
    const ref = createRef<EngineBody>();
    const scene = (drag: number) => (
      <Physics gravity={[0, -10]}>
        <probe.Component />
        <Body type="static" position={[0, -0.5]}>
          <Box width={20} height={1} />
        </Body>
        <Body ref={ref} position={[0, 0.5]} linearDrag={drag}>
          <Box width={1} height={1} />
        </Body>
      </Physics>
    );
    const { rerender } = render(scene(0));
    for (let i = 0; i < 200 && !ref.current!.isSleeping; i++) probe.api!.step();
    expect(ref.current!.isSleeping).toBe(true);
    rerender(scene(0.5));
    expect(ref.current!.isSleeping).toBe(false);
    expect(ref.current!.linearDrag).toBe(0.5);
  });
});

describe('<Body> errors', () => {
  it('a bad prop throws a FulcrumPropError naming the component, the prop and the value', () => {
    const err = renderError(
      <Physics>
        <Body position={[Number.NaN, 1]}>
          <Circle radius={0.5} />
        </Body>
      </Physics>,
    );
    expect(err).toBeInstanceOf(FulcrumPropError);
    expect(err).toBeInstanceOf(FulcrumInputError);
    expect(err.message).toMatch(/^<Body> prop position=\{\[NaN, 1\]\} is invalid: Body\.position must be a vector/);
    expect((err as FulcrumPropError).prop).toBe('position');
  });

  it('refuses a <Body> nested in another, and shapes outside a body', () => {
    const nested = renderError(
      <Physics>
        <Body>
          <Body />
        </Body>
      </Physics>,
    );
    expect(nested.message).toMatch(/<Body> cannot be inside another <Body>/);
    const loose = renderError(
      <Physics>
        <Circle radius={1} />
      </Physics>,
    );
    expect(loose.message).toMatch(/<Circle> must be inside <Body> or <InstancedBodies>/);
  });

  it('names shape props too', () => {
    const err = renderError(
      <Physics>
        <Body>
          <Circle radius={-1} />
        </Body>
      </Physics>,
    );
    expect(err.message).toMatch(/^<Circle> prop radius=\{-1\} is invalid: Circle\.radius must be a positive/);
    const box = renderError(
      <Physics>
        <Body>
          <Box width={1} height={0} />
        </Body>
      </Physics>,
    );
    expect(box.message).toMatch(/^<Box> prop height=\{0\} is invalid/);
    const filter = renderError(
      <Physics>
        <Body>
          <Box width={1} height={1} filter={{ mask: 1.5 }} />
        </Body>
      </Physics>,
    );
    expect(filter.message).toMatch(/^<Box> prop filter=\{\{mask: 1.5\}\} is invalid: Polygon\.filter\.mask must be an integer/);
  });
});

/** Render `ui` and return the error it throws during render (React reports it to the root). */
function renderError(ui: ReactNode): Error {
  let caught: unknown = null;
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    render(ui);
  } catch (e) {
    caught = e;
  } finally {
    quiet.mockRestore();
  }
  if (!(caught instanceof Error)) throw new Error('expected a render error');
  return caught;
}
