/**
 * Space.preSolve (Nape's PreListener): called once per touching solid contact before it is solved.
 * One-way platforms, conveyors and per-contact materials, and the rules around it: its answers
 * hold as documented, it cannot change the space, and a throw leaves the space as it was.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { UserConstraint } from '../constraint/user-constraint.js';
import { FulcrumInputError } from '../util/validate.js';
import { Space } from '../space/space.js';
import type { Contact } from './contact.js';
import { groundBody, hashState } from '../test-support/scenes.js';

const DT = 1 / 60;
const G = 10;
const steps = (space: Space, n: number): void => {
  for (let i = 0; i < n; i++) space.step(DT);
};
const other = (c: Contact, b: Body): Body => (c.body1 === b ? c.body2 : c.body1);

describe('a one-way platform', () => {
  it('lets a ball thrown up from below pass through, then holds it when it lands from above', () => {
    const space = new Space({ gravity: [0, -G] });
    const top = 0.1;
    const platform = space.addBody(new Body({ type: 'static', shapes: [Polygon.box(4, 0.2)] }));
    const r = 0.25;
    const ball = space.addBody(new Body({ position: [0, -2], velocity: [0, 9], shapes: [new Circle({ radius: r })] }));
    let asked = 0;
    space.preSolve = (c) => {
      if (c.body1 !== platform && c.body2 !== platform) return;
      asked++;
      // From below (its centre under the top surface, or rising): through it, for as long as it
      // touches. (A falling ball can be a step's travel into the platform when its contact
      // begins, so its lowest point is no test.)
      const b = other(c, platform);
      return b.y < top || b.velocity.y > 0 ? 'ignore' : 'accept';
    };
    let highest = -Infinity;
    for (let i = 0; i < 240; i++) {
      space.step(DT);
      highest = Math.max(highest, ball.y);
    }
    expect(highest).toBeGreaterThan(top + r + 1); // it went through and on up
    expect(ball.y).toBeCloseTo(top + r, 1); // and rests on top
    expect(Math.abs(ball.velocity.y)).toBeLessThan(0.05);
    // Asked once on the way up ('ignore' while it touched) and once on landing ('accept').
    expect(asked).toBe(2);
  });

  it('an ignored contact applies nothing, and reports nothing', () => {
    const space = new Space({ gravity: [0, -G] });
    const ground = space.addBody(groundBody());
    const ghost = space.addBody(new Body({ position: [0, 0.5], shapes: [Polygon.box(1, 1)] }));
    steps(space, 30);
    expect(ghost.contacts[0]!.normalImpulse).toBeGreaterThan(0);
    space.preSolve = () => 'ignoreOnce';
    space.step(DT);
    expect(ghost.contacts[0]!.normalImpulse).toBe(0);
    steps(space, 60);
    expect(ghost.y).toBeLessThan(-2); // fell through the ground
    void ground;
  });
});

describe('a conveyor', () => {
  it('carries a box at its tangent speed, 2 m/s within 2%, whichever shape is shape1', () => {
    for (const beltFirst of [true, false]) {
      const space = new Space({ gravity: [0, -G] });
      const make = () => space.addBody(new Body({ type: 'static', shapes: [Polygon.box(40, 0.2, { offset: [0, -0.1] })] }));
      const box = (): Body => space.addBody(new Body({ position: [-15, 0.25], shapes: [Polygon.box(0.5, 0.5, { friction: 0.8 })] }));
      const belt = beltFirst ? make() : null;
      const crate = box();
      const beltBody = belt ?? make();
      expect(crate.id < beltBody.id).toBe(!beltFirst);
      space.preSolve = (c) => {
        if (c.body1 === beltBody || c.body2 === beltBody) c.tangentSpeed = 2;
      };
      steps(space, 120);
      expect(Math.abs(crate.velocity.x / 2 - 1)).toBeLessThan(0.02);
      expect(crate.contacts[0]!.tangentSpeed).toBe(2);
    }
  });
});

describe('per-contact materials', () => {
  it('friction 0 lets a box slide down a slope that holds it; restitution 1 makes a dead ball bounce', () => {
    const theta = (25 * Math.PI) / 180;
    const run = (slippery: boolean) => {
      const space = new Space({ gravity: [-G * Math.sin(theta), -G * Math.cos(theta)] });
      space.addBody(groundBody(100, -0.5, 0.9));
      const box = space.addBody(new Body({ position: [0, 0.5], shapes: [Polygon.box(1, 1, { friction: 0.9 })] }));
      if (slippery) space.preSolve = (c) => void (c.friction = 0);
      steps(space, 60);
      return box.velocity.x;
    };
    expect(Math.abs(run(false))).toBeLessThan(1e-3);
    // Frictionless: it slides at g·sinθ·t (1 s, less the first few steps' settling).
    expect(run(true)).toBeLessThan(-0.95 * G * Math.sin(theta));

    const space = new Space({ gravity: [0, -G] });
    space.addBody(groundBody());
    const ball = space.addBody(new Body({ position: [0, 3], shapes: [new Circle({ radius: 0.25, restitution: 0 })] }));
    space.preSolve = (c) => void (c.restitution = 1);
    let bounced = false;
    for (let i = 0; i < 120; i++) {
      space.step(DT);
      if (ball.velocity.y > 5) bounced = true;
    }
    expect(bounced).toBe(true);
  });
});

describe('the callback', () => {
  it("is asked every step by default, once per touching while it answers 'accept', and again after the contact stops touching", () => {
    const space = new Space({ gravity: [0, -G] });
    space.addBody(groundBody());
    const box = space.addBody(new Body({ position: [0, 0.5], shapes: [Polygon.box(1, 1)] }));
    let calls = 0;
    space.preSolve = () => {
      calls++;
    };
    steps(space, 10);
    expect(calls).toBe(10);
    calls = 0;
    space.preSolve = () => {
      calls++;
      return 'accept';
    };
    steps(space, 10);
    expect(calls).toBe(1);
    box.velocity = [0, 8];
    steps(space, 120);
    expect(calls).toBe(2);
  });

  it('cannot change the space; a contact setter from a constraint hook is refused too', () => {
    const space = new Space({ gravity: [0, -G] });
    space.addBody(groundBody());
    const box = space.addBody(new Body({ position: [0, 0.5], shapes: [Polygon.box(1, 1)] }));
    const errors: unknown[] = [];
    space.preSolve = (c) => {
      try {
        box.position = [5, 5];
      } catch (e) {
        errors.push(e);
      }
      try {
        space.addBody(new Body());
      } catch (e) {
        errors.push(e);
      }
      c.friction = 0.1; // allowed here
    };
    steps(space, 2);
    expect(errors.length).toBe(4);
    expect(errors.every((e) => e instanceof FulcrumInputError)).toBe(true);
    expect(box.x).toBeCloseTo(0, 3);
    expect(box.contacts[0]!.friction).toBe(0.1);
    space.preSolve = null;
    let refused: unknown = null;
    const contact = box.contacts[0]!;
    space.addConstraint(
      new UserConstraint({
        dimensions: 1,
        bodies: [box],
        hooks: {
          position(err) {
            err[0] = box.x;
            try {
              contact.friction = 0.5;
            } catch (e) {
              refused = e;
            }
          },
          jacobian(J) {
            J.set([1, 0, 0]);
          },
        },
      }),
    );
    space.step(DT);
    expect(refused).toBeInstanceOf(FulcrumInputError);
    expect((refused as FulcrumInputError).prop).toBe('friction');
    expect(contact.friction).toBe(0.1);
  });

  it('that throws fails the step and leaves the space as it was, materials and decisions included; the next step runs', () => {
    const build = () => {
      const space = new Space({ gravity: [0, -G] });
      space.addBody(groundBody());
      for (let i = 0; i < 3; i++) space.addBody(new Body({ position: [i * 1.5, 0.5 + 0.2 * i], shapes: [Polygon.box(1, 1)] }));
      return space;
    };
    const space = build();
    const twin = build();
    steps(space, 20);
    steps(twin, 20);
    const state = (s: Space) => JSON.stringify([hashState(s.bodies), s.bodies.map((b) => b.contacts.map((c) => [c.friction, c.tangentSpeed, c.points]))]);
    const before = state(space);
    let n = 0;
    space.preSolve = (c) => {
      c.friction = 0;
      c.tangentSpeed = 3;
      if (++n === 2) throw new Error('boom');
      return 'ignore';
    };
    expect(() => space.step(DT)).toThrow('boom');
    expect(state(space)).toBe(before);
    // With no callback again, it steps as the twin that never took the failed step, bit for bit.
    space.preSolve = null;
    steps(space, 10);
    steps(twin, 10);
    expect(hashState(space.bodies)).toBe(hashState(twin.bodies));
  });

  it('is validated, and so are its answers and the contact setters', () => {
    const space = new Space({ gravity: [0, -G] });
    space.addBody(groundBody());
    const box = space.addBody(new Body({ position: [0, 0.5], shapes: [Polygon.box(1, 1)] }));
    expect(() => (space.preSolve = 5 as never)).toThrow(/Space\.preSolve must be a function/);
    expect(space.preSolve).toBe(null);
    space.step(DT);
    space.preSolve = () => 'maybe' as never;
    const before = hashState(space.bodies);
    expect(() => space.step(DT)).toThrow(/Space\.preSolve returned maybe/);
    expect(hashState(space.bodies)).toBe(before);
    space.preSolve = null;
    const c = box.contacts[0]!;
    expect(() => (c.friction = -1)).toThrow(/Contact\.friction/);
    expect(() => (c.restitution = NaN)).toThrow(/Contact\.restitution/);
    expect(() => (c.tangentSpeed = Infinity)).toThrow(/Contact\.tangentSpeed/);
    box.velocity = [0, 30];
    steps(space, 30);
    expect(() => (c.friction = 0.2)).toThrow(/the contact has ended/);
  });
});
