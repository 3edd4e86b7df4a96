/**
 * <SymbolicConstraint> with the real @fulcrum/symbolic class: a pivot written in the DSL holds two
 * bodies together, vector props change the engine object in place, and the ref is the real class.
 */
import type { Body as EngineBody } from '@fulcrum/physics';
import { SymbolicConstraint as RealSymbolicConstraint } from '@fulcrum/symbolic';
import { cleanup, render } from '@testing-library/react';
import { createRef, StrictMode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { Circle } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import { SymbolicConstraint } from './index.js';

const PIVOT = `body body1, body2
vector anchor1, anchor2
constraint
  let r1 = relative body1.rotation anchor1 in
  let r2 = relative body2.rotation anchor2 in
  (body2.position + r2) - (body1.position + r1)
`;

afterEach(cleanup);

describe('<SymbolicConstraint> with @fulcrum/symbolic', () => {
  it('a DSL pivot pins a body to a static one; changing an anchor moves the pin in place', () => {
    const probe = makeProbe();
    const pin = createRef<EngineBody>();
    const bob = createRef<EngineBody>();
    const ref = createRef<InstanceType<typeof RealSymbolicConstraint>>();
    const scene = (ax: number) => (
      <StrictMode>
        <Physics gravity={[0, -10]}>
          <probe.Component />
          <Body ref={pin} type="static" position={[0, 0]} />
          <Body ref={bob} position={[1, 0]}>
            <Circle radius={0.2} />
          </Body>
          <SymbolicConstraint ref={ref} source={PIVOT} bodies={{ body1: pin, body2: bob }} vectors={{ anchor1: [ax, 0], anchor2: [0, 0] }} />
        </Physics>
      </StrictMode>
    );
    const { rerender } = render(scene(1));
    const c = ref.current!;
    expect(c).toBeInstanceOf(RealSymbolicConstraint);
    expect(probe.space.constraints).toEqual([c]);
    for (let i = 0; i < 120; i++) probe.api!.step();
    expect(Math.hypot(bob.current!.x - 1, bob.current!.y)).toBeLessThan(1e-3); // held at the anchor, against gravity
    rerender(scene(2));
    expect(ref.current).toBe(c);
    expect(c.getVector('anchor1')).toEqual({ x: 2, y: 0 });
    for (let i = 0; i < 240; i++) probe.api!.step();
    expect(Math.hypot(bob.current!.x - 2, bob.current!.y)).toBeLessThan(1e-3);
  });

  it('moves a limit range whose new bounds cross the old ones in one prop change (the limits checked once)', () => {
    const ROPE = `body body1, body2
scalar jointMin, jointMax
limit jointMin 0 jointMax
constraint |body2.position - body1.position|
limit constraint jointMin jointMax
`;
    const probe = makeProbe();
    const pin = createRef<EngineBody>();
    const bob = createRef<EngineBody>();
    const ref = createRef<InstanceType<typeof RealSymbolicConstraint>>();
    const scene = (lo: number, hi: number) => (
      <Physics gravity={[0, -10]}>
        <probe.Component />
        <Body ref={pin} type="static" position={[0, 0]} />
        <Body ref={bob} position={[0, -1]}>
          <Circle radius={0.2} />
        </Body>
        <SymbolicConstraint ref={ref} source={ROPE} bodies={{ body1: pin, body2: bob }} scalars={{ jointMin: lo, jointMax: hi }} />
      </Physics>
    );
    const { rerender } = render(scene(0.5, 1));
    // [0.5, 1] → [2, 3]: set one at a time, jointMin = 2 would exceed jointMax = 1 and throw.
    rerender(scene(2, 3));
    expect(ref.current!.getScalar('jointMin')).toBe(2);
    expect(ref.current!.getScalar('jointMax')).toBe(3);
    expect(ref.current!.limit(0)).toEqual([2, 3]);
    for (let i = 0; i < 120; i++) probe.api!.step();
    expect(Math.hypot(bob.current!.x, bob.current!.y)).toBeGreaterThan(1.99);
  });
});
