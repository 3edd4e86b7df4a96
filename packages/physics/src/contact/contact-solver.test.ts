import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { PivotJoint } from '../constraint/joints/pivot-joint.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from '../space/space.js';
import { contactRowInverse, TURN_ONLY_LEVER_EPS } from './contact-solver.js';
import { pivotInverse } from '../constraint/dense.js';

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

  it('a row with a linear part is inverted by the zero-pivot rule (dense.ts pivotInverse), which contactRowInverse writes out', () => {
    for (const k of [0, 1e-13, 1e-12, 1.0000001e-12, 1, -1e-3, 5, 1e300]) {
      for (const scale of [0, 1e-3, 1, 2, 1e6]) expect(contactRowInverse(k, scale, false)).toBe(pivotInverse(k, scale));
    }
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

describe('rounded sides roll on their surface', () => {
  // A contact's anchors turn with the bodies within a step; the radius part of a round side's
  // anchor must not (roundingRadius): turned, it lifted the contact point by r(1 − cos θ), and a
  // 5 cm ball rolling at 10 m/s sank 1.8 cm into the ground and spun faster than it rolled.
  it('a ball of 1 cm to 1 m rolling at 10 m/s keeps its speed, rolls without slipping and stays on the surface, as one at rest does', () => {
    for (const r of [0.01, 0.05, 0.2, 1]) {
      const space = new Space({ gravity: [0, -10] });
      space.addBody(new Body({ type: 'static', position: [0, -0.5], shapes: [Polygon.box(1000, 1)] }));
      const ball = space.addBody(new Body({ position: [0, r], velocity: [10, 0], angularVel: -10 / r, shapes: [new Circle({ radius: r, friction: 1 })] }));
      const resting = space.addBody(new Body({ position: [-5, r], shapes: [new Circle({ radius: r, friction: 1 })] }));
      for (let i = 0; i < 60; i++) space.step(1 / 60);
      const restingSink = r - resting.y;
      expect(r - ball.y, `${r} m ball`).toBeLessThan(restingSink * 1.1);
      expect(ball.velocity.x, `${r} m ball`).toBeGreaterThan(9.99);
      expect(Math.abs(ball.velocity.x + ball.angularVel * r), `${r} m ball slips`).toBeLessThan(0.05);
    }
  });

  it('a disc launched sliding at 5 m/s without spin ends rolling at the analytic v0 / (1 + I/mr²) = 10/3 m/s, with v = ωr', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(new Body({ type: 'static', position: [0, -0.5], shapes: [Polygon.box(1000, 1)] }));
    const disc = space.addBody(new Body({ position: [0, 0.2], velocity: [5, 0], shapes: [new Circle({ radius: 0.2, friction: 1 })] }));
    for (let i = 0; i < 60; i++) space.step(1 / 60);
    // Friction's impulse takes m·Δv off and gives I·Δω = r·m·Δv: rolling when v = ωr (before the fix 3.323 and 3.346 m/s).
    expect(disc.velocity.x).toBeCloseTo(10 / 3, 3);
    expect(-disc.angularVel * 0.2).toBeCloseTo(10 / 3, 3);
  });
});
