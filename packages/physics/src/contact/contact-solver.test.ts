import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { PivotJoint } from '../constraint/joints/pivot-joint.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from '../space/space.js';
import { contactRowInverse, TURN_ONLY_LEVER_EPS } from './contact-solver.js';

describe('contact rows between bodies that cannot translate', () => {
  it('a turn-only row is inverted at a lever share over TURN_ONLY_LEVER_EPS and dropped under it; a row with a linear part never is', () => {
    const invI = 7;
    const r = 0.075;
    const scale = invI * r * r;
    const row = (share: number) => invI * share * r * r; // K = i⁻¹ (r × n)², (r × n)² = share · |r|²
    expect(contactRowInverse(row(4 * TURN_ONLY_LEVER_EPS), scale, true)).toBe(1 / row(4 * TURN_ONLY_LEVER_EPS));
    expect(contactRowInverse(row(TURN_ONLY_LEVER_EPS / 4), scale, true)).toBe(0);
    expect(contactRowInverse(0, scale, true)).toBe(0);
    // The same small lever with a translating side: K is at least that side's m⁻¹, a bounded impulse.
    const invMass = 2;
    const k = invMass + row(TURN_ONLY_LEVER_EPS / 4);
    expect(contactRowInverse(k, invMass + scale, false)).toBe(1 / k);
  });

  it('fuzz seed 201194648: a chain hanging into static ground through a body with allowMovement: false stays bounded (a near-radial contact lever held 1e8 N·s, released as 5e5 m/s)', () => {
    const space = new Space({ gravity: [0, -10], contactDampingRatio: 19.04 });
    const ground = space.addBody(new Body({ type: 'static', shapes: [Polygon.box(60, 1, { offset: [0, -0.5] })] }));
    const link = { filter: { group: -1 } };
    const turned = Math.PI / 2;
    const top = space.addBody(new Body({ position: [6.775, -0.2992], rotation: turned, mass: 4.89, shapes: [Polygon.box(0.4925, 0.2453, { offset: [0.1549, -0.3839], restitution: 0.8, ...link })] }));
    const turner = space.addBody(new Body({ position: [6.775, -0.8977], rotation: turned, mass: 1, inertia: 0.1425, allowMovement: false, shapes: [Polygon.box(0.2802, 0.4204, { radius: 0.00017, ...link })] }));
    const end = space.addBody(new Body({ position: [6.775, -1.496], rotation: turned, mass: 0.5171, shapes: [Polygon.box(0.5093, 0.4791, link)] }));
    space.addConstraint(new PivotJoint({ body1: ground, body2: top, anchor1: [6.775, 0], anchor2: [0.2992, -0.0003181], ignore: true }));
    space.addConstraint(new PivotJoint({ body1: top, body2: turner, anchor1: [-0.2993, -0.0003181], anchor2: [0.2992, -0.0003181], stiff: false, frequency: 2.616, maxForce: 474.4 }));
    space.addConstraint(new PivotJoint({ body1: turner, body2: end, anchor1: [-0.2993, -0.0003181], anchor2: [0.299, -0.0003181], maxForce: 2694 }));
    let fastest = 0;
    const run = (n: number, dt: number, velocityIterations: number, positionIterations: number) => {
      for (let i = 0; i < n; i++) {
        space.step(dt, velocityIterations, positionIterations);
        for (const b of space.bodies) fastest = Math.max(fastest, Math.hypot(b.velocity.x, b.velocity.y));
      }
    };
    run(3, 1 / 60, 4, 0);
    end.inertia = 0.004537;
    run(38, 1 / 60, 4, 0);
    run(32, 1 / 120, 2, 4);
    top.linearDrag = 1.624;
    run(57, 1 / 120, 2, 4);
    // 53 m/s now (the light end link is thrown about inside the ground); 4.9e5 m/s before.
    expect(fastest).toBeLessThan(1e3);
  });
});
