import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Segment } from '../shape/segment.js';
import { Capsule } from '../shape/capsule.js';
import { Constraint } from '../constraint/constraint.js';
import { PivotJoint } from '../constraint/joints/pivot-joint.js';
import type { DebugDraw } from '../debug/debug-draw.js';
import { FulcrumInputError } from '../util/validate.js';
import { Space } from './space.js';
import { groundBody, stepFor } from '../test-support/scenes.js';

describe('contact events', () => {
  it('begin fires once on landing, end fires once on lift-off; unsubscribe works', () => {
    const space = new Space({ gravity: [0, -10] });
    const ground = space.addBody(groundBody());
    const ball = space.addBody(new Body({ position: [0, 1.5], shapes: [new Circle({ radius: 0.5 })] }));
    const begins: string[] = [];
    const ends: string[] = [];
    const off = space.on('beginContact', (e) => begins.push(`${e.bodyA.id}-${e.bodyB.id}`));
    space.on('endContact', (e) => ends.push(`${e.bodyA.id}-${e.bodyB.id}`));
    stepFor(space, 1.5);
    expect(begins).toHaveLength(1);
    expect(begins[0]!.split('-').map(Number).sort()).toEqual([ground.id, ball.id].sort());
    expect(ends).toHaveLength(0);
    ball.velocity = [0, 6];
    stepFor(space, 0.3);
    expect(ends).toHaveLength(1);
    off();
    stepFor(space, 2);
    expect(begins).toHaveLength(1); // landed again, but unsubscribed
  });

  it('sensors report overlap but do not collide', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(new Body({ type: 'static', position: [0, 0], shapes: [Polygon.box(4, 1, { sensor: true })] }));
    space.addBody(groundBody(20, -5));
    const ball = space.addBody(new Body({ position: [0, 3], shapes: [new Circle({ radius: 0.25 })] }));
    const events: string[] = [];
    space.on('beginContact', () => events.push('begin'));
    space.on('endContact', () => events.push('end'));
    stepFor(space, 2);
    expect(ball.y).toBeLessThan(-4); // fell through the sensor onto the ground
    expect(events.slice(0, 2)).toEqual(['begin', 'end']);
  });

  it('a sensor sees kinematic bodies: a static goal reports a kinematic platform passing through, and a kinematic trigger the walls', () => {
    const space = new Space({ gravity: [0, -10] });
    const goal = space.addBody(new Body({ type: 'static', position: [0, 0], shapes: [Polygon.box(1, 1, { sensor: true })] }));
    const platform = space.addBody(new Body({ type: 'kinematic', position: [-3, 0], velocity: [6, 0], shapes: [Polygon.box(0.5, 0.2)] }));
    const wall = space.addBody(new Body({ type: 'static', position: [10, 0], shapes: [Polygon.box(0.2, 4)] }));
    const trigger = space.addBody(new Body({ type: 'kinematic', position: [7, 0], velocity: [6, 0], shapes: [new Circle({ radius: 0.3, sensor: true })] }));
    const events: string[] = [];
    const name = (b: Body): string => (b === goal ? 'goal' : b === platform ? 'platform' : b === wall ? 'wall' : b === trigger ? 'trigger' : '?');
    space.on('beginContact', (e) => events.push(`begin ${[name(e.bodyA), name(e.bodyB)].sort().join('+')}`));
    space.on('endContact', (e) => events.push(`end ${[name(e.bodyA), name(e.bodyB)].sort().join('+')}`));
    stepFor(space, 1.2);
    // Overlaps: the platform over the goal for t in (0.375, 0.625) s, the trigger over the wall for (0.433, 0.567) s.
    expect(events).toEqual(['begin goal+platform', 'begin trigger+wall', 'end trigger+wall', 'end goal+platform']);
    // Two solid non-dynamic bodies never pair, and nothing was solved: both kept their velocity.
    expect(platform.velocity.x).toBe(6);
    expect(trigger.velocity.x).toBe(6);
  });

  it('a body whose type changes drops the pairs it no longer makes and finds the ones it now makes', () => {
    const space = new Space({ gravity: [0, 0] });
    space.addBody(new Body({ type: 'static', shapes: [Polygon.box(2, 2, { sensor: true })] }));
    const box = space.addBody(new Body({ type: 'static', shapes: [Polygon.box(0.5, 0.5)] }));
    const events: string[] = [];
    space.on('beginContact', () => events.push('begin'));
    space.on('endContact', () => events.push('end'));
    space.step(1 / 60);
    expect(space.contactCount).toBe(0); // two static bodies never pair
    box.type = 'kinematic';
    space.step(1 / 60);
    expect(events).toEqual(['begin']); // found at once, though it did not move
    box.type = 'static';
    expect(space.contactCount).toBe(0);
    expect(events).toEqual(['begin', 'end']);
  });

  it('handlers may mutate the space: events are delivered after the step', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(groundBody());
    const ball = space.addBody(new Body({ position: [0, 1], shapes: [new Circle({ radius: 0.5 })] }));
    space.on('beginContact', () => {
      if (ball.space) space.removeBody(ball);
    });
    stepFor(space, 1);
    expect(ball.space).toBe(null);
    expect(space.bodies).toHaveLength(1);
  });

  it('collision filters and groups are honoured', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(new Body({ type: 'static', position: [0, -0.5], shapes: [Polygon.box(20, 1, { filter: { category: 2 } })] }));
    const ghost = space.addBody(new Body({ position: [0, 1], shapes: [new Circle({ radius: 0.5, filter: { mask: ~2 >>> 0 } })] }));
    const solid = space.addBody(new Body({ position: [3, 1], shapes: [new Circle({ radius: 0.5 })] }));
    stepFor(space, 1);
    expect(ghost.y).toBeLessThan(-1);
    expect(solid.y).toBeCloseTo(0.5, 1);
  });

  it('a shape that collides with nothing (mask 0) falls through, still answers queries, and collides once its filter allows', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(new Body({ type: 'static', position: [0, -0.5], shapes: [Polygon.box(20, 1)] }));
    const ghostShape = new Circle({ radius: 0.5, filter: { mask: 0 } });
    const ghost = space.addBody(new Body({ position: [0, 1], shapes: [ghostShape] }));
    const grouped = space.addBody(new Body({ position: [3, 1], shapes: [new Circle({ radius: 0.5, filter: { mask: 0, group: 4 } })] }));
    space.addBody(new Body({ type: 'static', position: [3, -0.5], shapes: [Polygon.box(2, 1, { filter: { group: 4 } })] }));
    stepFor(space, 0.4);
    expect(ghost.y).toBeLessThan(0.3); // passed through the ground's top
    expect(space.queryPoint([ghost.x, ghost.y]).map((s) => s.body)).toContain(ghost);
    expect(grouped.y).toBeCloseTo(0.5, 1); // a positive group overrides the mask
    ghost.position = [0, 3];
    ghost.velocity = [0, 0];
    ghostShape.filter = { category: 1, mask: 0xffffffff, group: 0 };
    stepFor(space, 1.5);
    expect(ghost.y).toBeCloseTo(0.5, 1);
  });

  it('a shape that pairs with nothing is refreshed lazily, yet every query and the debug view see it where it is', () => {
    const space = new Space({ gravity: [0, -10] });
    const ghostShape = new Circle({ radius: 0.5, filter: { mask: 0 } });
    const ghost = space.addBody(new Body({ position: [0, 10], shapes: [ghostShape] }));
    stepFor(space, 1);
    expect(ghost.y).toBeLessThan(5.5);
    const at = [ghost.x, ghost.y] as const;
    expect(space.queryPoint(at)).toEqual([ghostShape]);
    expect(space.queryPoint([0, 10])).toEqual([]);
    expect(space.queryAABB([at[0] - 0.1, at[1] - 0.1], [at[0] + 0.1, at[1] + 0.1])).toEqual([ghostShape]);
    expect(space.rayCast([-5, at[1]], [5, at[1]])?.shape).toBe(ghostShape);
    stepFor(space, 0.2);
    const circles: number[] = [];
    space.debugDraw({ drawPolygon() {}, drawCircle: (x: number, y: number) => circles.push(x, y), drawSegment() {}, drawPoint() {} }, { shapes: true });
    expect(circles[1]).toBeCloseTo(ghost.worldCenter.y, 9);
    // Once it may collide, it pairs from where it is now.
    space.addBody(new Body({ type: 'static', position: [0, ghost.y - 3], shapes: [Polygon.box(20, 1)] }));
    ghostShape.filter = { category: 1, mask: 0xffffffff, group: 0 };
    stepFor(space, 2);
    expect(ghost.y).toBeGreaterThan(space.bodies[1]!.y);
    expect(ghost.velocity.y).toBeCloseTo(0, 1);
  });
});

describe('queries', () => {
  function world(): { space: Space; box: Body; ball: Body } {
    const space = new Space();
    const box = space.addBody(new Body({ type: 'static', position: [0, 0], shapes: [Polygon.box(2, 2)] }));
    const ball = space.addBody(new Body({ position: [5, 0], shapes: [new Circle({ radius: 1 })] }));
    space.addBody(new Body({ type: 'static', position: [0, 10], shapes: [new Segment({ p1: [-1, 0], p2: [1, 0] })] }));
    space.addBody(new Body({ position: [-5, 0], shapes: [new Capsule({ length: 2, radius: 0.5 })] }));
    return { space, box, ball };
  }

  it('point query finds exactly the shapes containing the point', () => {
    const { space, box, ball } = world();
    expect(space.queryPoint([0.9, -0.9]).map((s) => s.body)).toEqual([box]);
    expect(space.queryPoint([5.7, 0.7]).map((s) => s.body)).toEqual([ball]);
    expect(space.queryPoint([5.8, 0.8])).toEqual([]); // inside the AABB, outside the circle
    expect(space.queryPoint([-5.9, 0.2])).toHaveLength(1); // capsule cap
  });

  it('AABB query returns shapes whose boxes overlap', () => {
    const { space } = world();
    expect(space.queryAABB([-0.5, -0.5], [4.5, 0.5])).toHaveLength(2);
    expect(space.queryAABB([-100, -100], [100, 100])).toHaveLength(4);
    expect(space.queryAABB([20, 20], [21, 21])).toHaveLength(0);
    expect(() => space.queryAABB([1, 1], [0, 0])).toThrow(FulcrumInputError);
  });

  it('ray cast returns the closest hit with point, normal and fraction; rayCastAll returns all in order', () => {
    const { space, box, ball } = world();
    const hit = space.rayCast([10, 0], [-10, 0])!;
    expect(hit.body).toBe(ball);
    expect(hit.point.x).toBeCloseTo(6, 9);
    expect(hit.normal.x).toBeCloseTo(1, 9);
    expect(hit.fraction).toBeCloseTo(0.2, 9);
    const all = space.rayCastAll([10, 0], [-10, 0]);
    expect(all.map((h) => h.body)).toEqual([ball, box, space.bodies[3]]);
    expect(all[1]!.point.x).toBeCloseTo(1, 9);
    expect(space.rayCast([10, 5], [-10, 5])).toBe(null);
    const down = space.rayCast([0.3, 20], [0.3, 0])!;
    expect(down.point.y).toBeCloseTo(10, 9); // the segment
  });

  it('queries see a body moved by hand immediately', () => {
    const { space, ball } = world();
    ball.position = [0, 50];
    expect(space.queryPoint([0, 50]).map((s) => s.body)).toEqual([ball]);
  });
});

describe('debug draw', () => {
  it('describes every shape to the sink, and contacts when asked', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(groundBody());
    space.addBody(new Body({ position: [0, 0.5], shapes: [new Circle({ radius: 0.5 })] }));
    space.addBody(new Body({ position: [2, 0.5], shapes: [new Capsule({ length: 1, radius: 0.25 })] }));
    stepFor(space, 1);
    const calls: Record<string, number> = { polygon: 0, circle: 0, segment: 0, point: 0 };
    const sink: DebugDraw = {
      drawPolygon: (v, n) => {
        expect(n).toBe(4);
        expect(v.length).toBeGreaterThanOrEqual(8);
        calls.polygon!++;
      },
      drawCircle: () => void calls.circle!++,
      drawSegment: () => void calls.segment!++,
      drawPoint: () => void calls.point!++,
    };
    space.debugDraw(sink);
    expect(calls).toEqual({ polygon: 1, circle: 3, segment: 2, point: 0 });
    space.debugDraw(sink, { shapes: false, contacts: true });
    expect(calls.point).toBe(3); // one for the ball, two for the capsule lying flat
  });
});

/** A do-nothing constraint whose solve hook tries to mutate the space. */
class MeddlingConstraint extends Constraint {
  constructor(private readonly linked: Body[], private readonly act: () => void) {
    super();
  }
  get typeName(): string {
    return 'MeddlingConstraint';
  }
  get dimension(): number {
    return 0;
  }
  get bodies(): readonly Body[] {
    return this.linked;
  }
  _bodySlots(): [string, Body | null][] {
    return this.linked.map((b, i) => [`body${i + 1}`, b]);
  }
  protected _stepImpulse(): Float64Array {
    return new Float64Array(0);
  }
  protected _bodyImpulse(): void {}
  clearCache(): void {}
  _prepare(): null {
    return null;
  }
  _warmStart(): void {}
  _forgetWarmStart(): void {}
  _solve(): void {
    this.act();
  }
  _finish(): null {
    return null;
  }
}

describe('mutation during a step', () => {
  it('is rejected with a clear error, and the space keeps working', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(groundBody());
    const ball = space.addBody(new Body({ position: [0, 3], shapes: [new Circle({ radius: 0.5 })] }));
    const c = space.addConstraint(new MeddlingConstraint([ball], () => space.addBody(new Body())));
    expect(() => space.step(1 / 60)).toThrow(/Space.addBody cannot be changed while the space is stepping/);
    expect(space.isStepping).toBe(false);
    space.removeConstraint(c);
    stepFor(space, 2);
    expect(ball.y).toBeCloseTo(0.5, 1);
    expect(space.bodies).toHaveLength(2);
  });

  it('every body, shape and space setter is rejected before it assigns anything (nothing half-applied)', () => {
    type Case = [string, (t: { ball: Body; circle: Circle; box: Polygon; space: Space }) => void, (t: { ball: Body; circle: Circle; box: Polygon; space: Space }) => unknown];
    const cases: Case[] = [
      ['Circle.radius', (t) => (t.circle.radius = 0.9), (t) => t.circle.radius],
      ['Circle.density', (t) => (t.circle.density = 7), (t) => [t.circle.density, t.ball.mass]],
      ['Circle.offset', (t) => (t.circle.offset = [0.3, 0]), (t) => t.circle.offset],
      ['Circle.angle', (t) => (t.circle.angle = 1), (t) => t.circle.angle],
      ['Circle.friction', (t) => (t.circle.friction = 0.1), (t) => t.circle.friction],
      ['Circle.restitution', (t) => (t.circle.restitution = 0.9), (t) => t.circle.restitution],
      ['Circle.sensor', (t) => (t.circle.sensor = true), (t) => t.circle.sensor],
      ['Circle.filter', (t) => (t.circle.filter = { group: 3 }), (t) => t.circle.filter],
      ['Polygon.vertices', (t) => (t.box.vertices = [[0, 0], [1, 0], [0, 1]]), (t) => t.box.vertices],
      ['Polygon.radius', (t) => (t.box.radius = 0.05), (t) => t.box.radius],
      ['Body.allowMovement', (t) => (t.ball.allowMovement = false), (t) => [t.ball.allowMovement, t.ball.mass]],
      ['Body.allowRotation', (t) => (t.ball.allowRotation = false), (t) => [t.ball.allowRotation, t.ball.inertia]],
      ['Body.torque', (t) => (t.ball.torque = 5), (t) => t.ball.torque],
      ['Body.linearDrag', (t) => (t.ball.linearDrag = 0.5), (t) => t.ball.linearDrag],
      ['Body.angularDrag', (t) => (t.ball.angularDrag = 0.5), (t) => t.ball.angularDrag],
      ['Body.gravityScale', (t) => (t.ball.gravityScale = 2), (t) => t.ball.gravityScale],
      ['Body.allowFastRotation', (t) => (t.ball.allowFastRotation = true), (t) => t.ball.allowFastRotation],
      ['Space.allowSleep', (t) => (t.space.allowSleep = false), (t) => t.space.allowSleep],
      ['Space.sleepDelay', (t) => (t.space.sleepDelay = 3), (t) => t.space.sleepDelay],
      ['Space.sleepThreshold', (t) => (t.space.sleepThreshold = 3), (t) => t.space.sleepThreshold],
      ['Space.jointIterations', (t) => (t.space.jointIterations = 7), (t) => t.space.jointIterations],
      ['Space.jointHertz', (t) => (t.space.jointHertz = 7), (t) => t.space.jointHertz],
      ['Space.jointDampingRatio', (t) => (t.space.jointDampingRatio = 7), (t) => t.space.jointDampingRatio],
      ['Space.maxLinearSpeed', (t) => (t.space.maxLinearSpeed = 7), (t) => t.space.maxLinearSpeed],
      ['Space.maxRotationPerSubstep', (t) => (t.space.maxRotationPerSubstep = 0.1), (t) => t.space.maxRotationPerSubstep],
    ];
    for (const [what, mutate, read] of cases) {
      const space = new Space({ gravity: [0, -10] });
      space.addBody(groundBody());
      const circle = new Circle({ radius: 0.5 });
      const box = Polygon.box(0.4, 0.4, { offset: [0, 0.6] });
      const ball = space.addBody(new Body({ position: [0, 3], shapes: [circle, box] }));
      const t = { ball, circle, box, space };
      const before = JSON.stringify(read(t));
      const c = space.addConstraint(new MeddlingConstraint([ball], () => mutate(t)));
      let error: unknown = null;
      try {
        space.step(1 / 60);
      } catch (e) {
        error = e;
      }
      expect(error, what).toBeInstanceOf(FulcrumInputError);
      expect((error as Error).message, what).toContain(`${what} cannot be changed while the space is stepping`);
      expect((error as FulcrumInputError).prop, what).toBe(what.split('.')[1]);
      expect(JSON.stringify(read(t)), what).toBe(before);
      // The space keeps working, and the same change between steps is accepted.
      space.removeConstraint(c);
      space.step(1 / 60);
      mutate(t);
      space.step(1 / 60);
      expect(Number.isFinite(ball.y), what).toBe(true);
    }
  });

  it('adding or removing a constraint wakes its bodies', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(groundBody());
    const ball = space.addBody(new Body({ position: [0, 0.5], shapes: [new Circle({ radius: 0.5 })] }));
    stepFor(space, 2);
    expect(ball.isSleeping).toBe(true);
    const c = space.addConstraint(new MeddlingConstraint([ball], () => {}));
    expect(ball.isSleeping).toBe(false);
    stepFor(space, 2);
    expect(ball.isSleeping).toBe(true);
    space.removeConstraint(c);
    expect(ball.isSleeping).toBe(false);
  });
});

describe('constraint ignore', () => {
  it('with ignore: true, moving a joint to a body of another space and back is valid (issue 21: no foreign proxy id reaches this broadphase)', () => {
    const s1 = new Space();
    const s2 = new Space();
    const a = s1.addBody(new Body({ shapes: [new Circle({ radius: 0.5 })] }));
    const b = s1.addBody(new Body({ position: [1, 0], shapes: [new Circle({ radius: 0.5 })] }));
    for (let i = 0; i < 3; i++) s2.addBody(new Body({ position: [5 + i, 0], shapes: [new Circle({ radius: 0.5 })] }));
    const j = s1.addConstraint(new PivotJoint({ body1: a, body2: b, ignore: true }));
    j.body2 = s2.bodies[2]!;
    j.body2 = b;
    s1.step(1 / 60);
    s2.step(1 / 60);
    expect(j.body2).toBe(b);
    expect(Number.isFinite(a.x) && Number.isFinite(b.x)).toBe(true);
  });

  it('a constraint with ignore = true stops its bodies colliding; turning it off restores collisions', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(groundBody(20, -10.5));
    const floor = space.addBody(new Body({ type: 'static', position: [0, -0.5], shapes: [Polygon.box(4, 1)] }));
    const box = space.addBody(new Body({ position: [0, 0.5], shapes: [Polygon.box(1, 1)] }));
    const c = space.addConstraint(new MeddlingConstraint([box, floor], () => {}));
    c.ignore = true;
    stepFor(space, 0.5);
    expect(box.y).toBeLessThan(-0.5); // fell through the floor
    c.ignore = false;
    box.position = [0, 3];
    box.velocity = [0, 0];
    stepFor(space, 2);
    expect(box.y).toBeCloseTo(0.5, 1); // lands on the floor again
  });
});
