/**
 * Contact data: a contact's points carry the impulses they applied over the last step, every
 * substep and the bounce; beginContact carries the manifold at first touch, its impact impulses
 * and the approach speed; contactForce fires above a body's threshold. Checked against statics
 * and free fall, not snapshots.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { FulcrumInputError } from '../util/validate.js';
import { Space } from '../space/space.js';
import type { ContactEvent, ContactForceEvent } from '../space/events.js';
import { groundBody } from '../test-support/scenes.js';

const DT = 1 / 60;
const G = 10;
const steps = (space: Space, n: number): void => {
  for (let i = 0; i < n; i++) space.step(DT);
};

describe('Contact points', () => {
  it('a resting box: the normal impulses sum to m·g·dt per step (within 1%), at points on the ground, normal from shape1 to shape2', () => {
    for (const substeps of [1, 4, 8]) {
      const space = new Space({ gravity: [0, -G] });
      const ground = space.addBody(groundBody());
      const box = space.addBody(new Body({ position: [0, 0.5], shapes: [Polygon.box(1, 1, { density: 3 })] }));
      for (let i = 0; i < 60; i++) space.step(DT, substeps);
      const [c, ...others] = box.contacts;
      expect(others).toHaveLength(0);
      expect(c!.normalImpulse).toBeGreaterThan(0);
      expect(Math.abs(c!.normalImpulse / (box.mass * G * DT) - 1)).toBeLessThan(0.01);
      const n = c!.normal;
      const up = c!.body1 === ground ? 1 : -1;
      expect(n.x).toBeCloseTo(0, 9);
      expect(n.y).toBeCloseTo(up, 9);
      const points = c!.points;
      expect(points).toHaveLength(2);
      for (const p of points) {
        expect(Math.abs(p.y)).toBeLessThan(0.01);
        expect(Math.abs(p.x)).toBeCloseTo(0.5, 2);
        expect(p.separation).toBeLessThan(0.01);
        expect(Math.abs(p.tangentImpulse)).toBeLessThan(1e-3 * p.normalImpulse);
      }
      expect(points[0]!.normalImpulse + points[1]!.normalImpulse).toBe(c!.normalImpulse);
      expect(ground.contacts).toEqual([c]);
    }
  });

  it('a box held by friction on a 20° slope: normal m·g·cosθ·dt and friction m·g·sinθ·dt per step, within 1%', () => {
    const theta = (20 * Math.PI) / 180;
    const space = new Space({ gravity: [-G * Math.sin(theta), -G * Math.cos(theta)] }); // the slope is the ground, gravity tilted
    space.addBody(groundBody(100, -0.5, 0.9));
    const box = space.addBody(new Body({ position: [0, 0.5], shapes: [Polygon.box(1, 1, { friction: 0.9 })] }));
    steps(space, 120);
    expect(Math.abs(box.velocity.x)).toBeLessThan(1e-3);
    const c = box.contacts[0]!;
    const tangent = c.points.reduce((s, p) => s + p.tangentImpulse, 0);
    expect(Math.abs(c.normalImpulse / (box.mass * G * Math.cos(theta) * DT) - 1)).toBeLessThan(0.01);
    expect(Math.abs(Math.abs(tangent) / (box.mass * G * Math.sin(theta) * DT) - 1)).toBeLessThan(0.01);
  });

  it('a sleeping contact keeps its last step’s data; a separated one has no points; a sensor reports its overlap with no impulse', () => {
    const space = new Space({ gravity: [0, -G] });
    space.addBody(groundBody());
    const box = space.addBody(new Body({ position: [0, 0.5], shapes: [Polygon.box(1, 1)] }));
    const zone = space.addBody(new Body({ type: 'static', position: [5, 0.5], shapes: [Polygon.box(1, 1, { sensor: true })] }));
    const visitor = space.addBody(new Body({ position: [5, 0.5], gravityScale: 0, shapes: [new Circle({ radius: 0.2 })] }));
    steps(space, 120);
    expect(box.isSleeping).toBe(true);
    const c = box.contacts[0]!;
    expect(Math.abs(c.normalImpulse / (box.mass * G * DT) - 1)).toBeLessThan(0.01);
    const sensor = visitor.contacts.find((k) => k.body1 === zone || k.body2 === zone)!;
    expect(sensor.isSensor).toBe(true);
    expect(sensor.normalImpulse).toBe(0);
    expect(zone.contacts).toEqual([sensor]);
    box.velocity = [0, 20];
    steps(space, 10);
    expect(box.contacts).toEqual([]);
    expect(c.points).toEqual([]);
    expect(c.normal).toEqual({ x: 0, y: 0 });
  });
});

describe('beginContact', () => {
  it('carries the approach speed of a dropped ball, √(2gh) within 1%, and the impact in its points', () => {
    for (const h of [0.5, 2, 8]) {
      const space = new Space({ gravity: [0, -G] });
      space.addBody(groundBody());
      const r = 0.25;
      const ball = space.addBody(new Body({ position: [0, h + r], shapes: [new Circle({ radius: r })] }));
      const begun: ContactEvent[] = [];
      space.on('beginContact', (e) => begun.push(e));
      for (let i = 0; i < 300 && begun.length === 0; i++) space.step(DT);
      expect(begun).toHaveLength(1);
      const e = begun[0]!;
      expect(e.contact.body1 === ball || e.contact.body2 === ball).toBe(true);
      expect(Math.abs(e.approachSpeed / Math.sqrt(2 * G * h) - 1)).toBeLessThan(0.01);
      expect(Math.abs(e.normal.y)).toBeCloseTo(1, 9);
      expect(e.points).toHaveLength(1);
      // The ball touched within the speculative margin and stopped (restitution 0) in that step or
      // the next: the impulse of the first is most of its momentum.
      const impact = e.points[0]!.normalImpulse;
      space.step(DT);
      const stopped = impact + e.contact.normalImpulse;
      expect(stopped).toBeGreaterThan(0.9 * ball.mass * Math.sqrt(2 * G * h));
      expect(stopped).toBeLessThan(1.1 * ball.mass * (Math.sqrt(2 * G * h) + 2 * G * DT));
    }
  });

  it('endContact has the handle, no points, no normal and no approach speed', () => {
    const space = new Space({ gravity: [0, -G] });
    space.addBody(groundBody());
    const ball = space.addBody(new Body({ position: [0, 0.5], shapes: [new Circle({ radius: 0.5 })] }));
    steps(space, 5);
    const ended: ContactEvent[] = [];
    space.on('endContact', (e) => ended.push(e));
    ball.velocity = [0, 10];
    steps(space, 5);
    expect(ended).toHaveLength(1);
    expect(ended[0]!.points).toEqual([]);
    expect(ended[0]!.normal).toEqual({ x: 0, y: 0 });
    expect(ended[0]!.approachSpeed).toBe(0);
  });
});

describe('contactForce', () => {
  it('fires for an impact above the threshold, not for the same body resting, and never by default', () => {
    const space = new Space({ gravity: [0, -G] });
    space.addBody(groundBody());
    const crate = space.addBody(new Body({ position: [0, 3], shapes: [Polygon.box(1, 1)] }));
    const plain = space.addBody(new Body({ position: [3, 3], shapes: [Polygon.box(1, 1)] }));
    const weight = crate.mass * G;
    crate.contactForceThreshold = 3 * weight;
    const events: ContactForceEvent[] = [];
    const live: [number, number][] = [];
    space.on('contactForce', (e) => {
      events.push(e);
      live.push([e.normalImpulse, e.contact.normalImpulse]); // delivered after its step: the contact still reads it
    });
    steps(space, 60);
    expect(events.length).toBeGreaterThan(0);
    for (const e of events) {
      expect(e.bodyA === crate || e.bodyB === crate).toBe(true);
      expect(e.force).toBeGreaterThan(3 * weight);
      expect(e.force).toBeCloseTo(e.normalImpulse / DT, 9);
    }
    for (const [sent, read] of live) expect(sent).toBe(read);
    void plain;
    // At rest the contact carries the weight: below the threshold.
    events.length = 0;
    steps(space, 60);
    expect(events).toHaveLength(0);
    crate.contactForceThreshold = 0.5 * weight;
    space.step(DT);
    expect(events.map((e) => e.force / weight).every((f) => Math.abs(f - 1) < 0.01)).toBe(true);
    expect(events).toHaveLength(1);
  });

  it('rejects a bad threshold naming it, and keeps the old one', () => {
    const b = new Body({ contactForceThreshold: 5 });
    for (const bad of [-1, NaN, '3', null]) {
      expect(() => (b.contactForceThreshold = bad as never)).toThrow(FulcrumInputError);
      expect(() => new Body({ contactForceThreshold: bad as never })).toThrow(/Body\.contactForceThreshold/);
    }
    expect(b.contactForceThreshold).toBe(5);
    b.contactForceThreshold = Infinity;
    expect(b.contactForceThreshold).toBe(Infinity);
  });
});
