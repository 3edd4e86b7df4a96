/**
 * Contact data in <Body> events (the engine's contact, normal, points and approach speed, from
 * each body's own side), onContactForce, and sensors seeing a kinematic body.
 */
import type { Body as EngineBody } from '@fulcrum/physics';
import { cleanup, render } from '@testing-library/react';
import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { InstancedBodies } from '../instanced/InstancedBodies.js';
import { Box } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import type { BodyContactEvent, BodyContactForceEvent } from './event-router.js';

afterEach(cleanup);

const G = 10;

/** A 1 m box (1 kg) whose bottom is `h` above a static ground, with the given props. */
function drop(h: number, box: Parameters<typeof Body>[0] = {}, ground: Parameters<typeof Body>[0] = {}) {
  const probe = makeProbe();
  const ref = createRef<EngineBody>();
  const groundRef = createRef<EngineBody>();
  render(
    <Physics gravity={[0, -G]}>
      <probe.Component />
      <Body ref={groundRef} type="static" position={[0, -0.5]} {...ground}>
        <Box width={20} height={1} />
      </Body>
      <Body ref={ref} position={[0, h + 0.5]} {...box}>
        <Box width={1} height={1} />
      </Body>
    </Physics>,
  );
  return { probe, box: ref, ground: groundRef };
}

describe('contact events carry the contact data', () => {
  it('a box dropped from h meets the ground at √(2gh), with each body seeing the normal point away from itself', () => {
    const h = 5;
    const events: BodyContactEvent[] = [];
    const { probe, box, ground } = drop(h, { onBeginContact: (e) => events.push(e), onEndContact: (e) => events.push(e) }, { onBeginContact: (e) => events.push(e), onEndContact: (e) => events.push(e) });
    for (let i = 0; i < 120 && events.length === 0; i++) probe.api!.step();
    expect(events.map((e) => e.type)).toEqual(['beginContact', 'beginContact']);
    const fromBox = events.find((e) => e.body === box.current)!;
    const fromGround = events.find((e) => e.body === ground.current)!;
    expect(fromBox.other).toBe(ground.current);
    expect(fromGround.other).toBe(box.current);
    const v = Math.sqrt(2 * G * h);
    for (const e of [fromBox, fromGround]) {
      expect(Math.abs(e.approachSpeed - v) / v).toBeLessThan(0.01);
      expect(e.contact).toBe(fromBox.contact);
      expect(e.points.length).toBe(2);
      // The impact: the points' normal impulses stop the box (about m·v, and more than its weight's share of a step).
      expect(e.points.reduce((s, p) => s + p.normalImpulse, 0)).toBeGreaterThan(0.5 * v);
    }
    expect(fromBox.contact.bodyA === box.current || fromBox.contact.bodyB === box.current).toBe(true);
    // Down from the box, up from the ground, whichever of them the engine took as shapeA.
    expect(fromBox.normal.x).toBeCloseTo(0, 12);
    expect(fromBox.normal.y).toBeCloseTo(-1, 12);
    expect(fromGround.normal.x).toBeCloseTo(0, 12);
    expect(fromGround.normal.y).toBeCloseTo(1, 12);
    expect(fromGround.normal).not.toBe(fromBox.normal);

    // Lifted off: the end carries the handle, and no normal, points or speed.
    events.length = 0;
    box.current!.position = [0, 5];
    probe.api!.step();
    expect(events.map((e) => e.type)).toEqual(['endContact', 'endContact']);
    for (const e of events) {
      expect(e.contact).toBe(fromBox.contact);
      expect(e.normal).toEqual({ x: 0, y: 0 });
      expect(e.points).toEqual([]);
      expect(e.approachSpeed).toBe(0);
    }
  });
});

describe('onContactForce', () => {
  const settle = (probe: ReturnType<typeof makeProbe>) => {
    for (let i = 0; i < 180; i++) probe.api!.step();
  };

  it('fires for an impact harder than the body’s contactForceThreshold, to that body only', () => {
    const forces: BodyContactForceEvent[] = [];
    const { probe, box, ground } = drop(5, { contactForceThreshold: 200, onContactForce: (e) => forces.push(e) }, { onContactForce: (e) => forces.push(e) });
    settle(probe);
    // The landing (about m·v/dt = 600 N over its step), and never the resting weight (10 N).
    expect(forces.length).toBeGreaterThanOrEqual(1);
    expect(forces.length).toBeLessThanOrEqual(2);
    for (const e of forces) {
      expect(e.type).toBe('contactForce');
      expect(e.body).toBe(box.current);
      expect(e.other).toBe(ground.current);
      expect(e.force).toBeGreaterThan(200);
      expect(e.force).toBeCloseTo(e.normalImpulse * 60, 6);
      expect(e.contact.bodyA === box.current || e.contact.bodyB === box.current).toBe(true);
    }
  });

  it('does not fire for a gentle landing below the threshold, nor without the prop', () => {
    const gentle: BodyContactForceEvent[] = [];
    const a = drop(0.05, { contactForceThreshold: 200, onContactForce: (e) => gentle.push(e) });
    settle(a.probe);
    expect(a.box.current!.y).toBeLessThan(0.52); // it did land
    expect(gentle).toEqual([]);
    cleanup();

    const unset: BodyContactForceEvent[] = [];
    const b = drop(5, { onContactForce: (e) => unset.push(e) }, { onContactForce: (e) => unset.push(e) });
    settle(b.probe);
    expect(unset).toEqual([]);
  });

  it('goes to the other body when it is that body’s threshold that is exceeded', () => {
    const seen: EngineBody[] = [];
    const { probe, ground } = drop(5, { onContactForce: (e) => seen.push(e.body) }, { contactForceThreshold: 100, onContactForce: (e) => seen.push(e.body) });
    settle(probe);
    expect(seen.length).toBeGreaterThanOrEqual(1);
    expect(new Set(seen)).toEqual(new Set([ground.current]));
  });
});

describe('sensors', () => {
  it('a kinematic body moving through a static sensor fires begin and end on both bodies', () => {
    const probe = makeProbe();
    const goal = createRef<EngineBody>();
    const platform = createRef<EngineBody>();
    const log: string[] = [];
    const on = (name: string) => ({
      onBeginContact: (e: BodyContactEvent) => log.push(`${name} begin ${e.shape.sensor ? 'sensor' : 'solid'}`),
      onEndContact: (e: BodyContactEvent) => log.push(`${name} end`),
    });
    render(
      <Physics gravity={[0, -10]}>
        <probe.Component />
        <Body ref={goal} type="static" {...on('goal')}>
          <Box width={2} height={2} sensor />
        </Body>
        <Body ref={platform} type="kinematic" position={[-4, 0]} velocity={[3, 0]} {...on('platform')}>
          <Box width={1} height={0.2} />
        </Body>
      </Physics>,
    );
    for (let i = 0; i < 180; i++) probe.api!.step();
    expect(platform.current!.x).toBeGreaterThan(4); // it went right through
    expect(log.filter((l) => l.includes('begin')).sort()).toEqual(['goal begin sensor', 'platform begin solid']);
    expect(log.filter((l) => l.includes('end')).sort()).toEqual(['goal end', 'platform end']);
    const lastBegin = Math.max(...log.map((l, i) => (l.includes('begin') ? i : -1)));
    expect(log.findIndex((l) => l.includes('end'))).toBeGreaterThan(lastBegin);
  });
});

describe('<InstancedBodies> shares the routing', () => {
  it('an instance sees the contact data from its own side, with its index', () => {
    const probe = makeProbe();
    const seen: BodyContactEvent[] = [];
    const bodies = createRef<readonly EngineBody[]>();
    render(
      <Physics gravity={[0, -G]}>
        <probe.Component />
        <Body type="static" position={[0, -0.5]}>
          <Box width={20} height={1} />
        </Body>
        <InstancedBodies ref={bodies} instances={[{ position: [-3, 3] }, { position: [3, 1.75] }]} onBeginContact={(e) => seen.push(e)}>
          <Box width={1} height={1} />
        </InstancedBodies>
      </Physics>,
    );
    for (let i = 0; i < 120 && seen.length < 2; i++) probe.api!.step();
    expect(seen.map((e) => e.index).sort()).toEqual([0, 1]);
    for (const e of seen) {
      expect(e.body).toBe(bodies.current![e.index!]);
      expect(e.normal.y).toBeCloseTo(-1, 12);
      const h = e.index === 0 ? 2.5 : 1.25;
      expect(e.approachSpeed).toBeCloseTo(Math.sqrt(2 * G * h), 0);
    }
  });
});

describe('handler props', () => {
  it('onContactForce and the pointer handlers must be functions', () => {
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      expect(() => render(<Physics><Body onContactForce={5 as never} /></Physics>)).toThrow(/^<Body> prop onContactForce=\{5\} is invalid: must be a function/);
      cleanup();
      expect(() => render(<Physics><Body onClick={'hi' as never} /></Physics>)).toThrow(/^<Body> prop onClick=\{"hi"\} is invalid: must be a function/);
    } finally {
      quiet.mockRestore();
    }
  });
});
