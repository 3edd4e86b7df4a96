/**
 * Sleep control per body: allowSleep, wake() and sleep(). A body with allowSleep false keeps its
 * island awake; wake() and sleep() act at once, on the whole island, through the same paths as the
 * space's own sleeping and waking (events included).
 */
import { describe, expect, it } from 'vitest';
import { Body } from './body.js';
import { Polygon } from '../shape/polygon.js';
import { PivotJoint } from '../constraint/joints/pivot-joint.js';
import { UserConstraint } from '../constraint/user-constraint.js';
import { FulcrumInputError } from '../util/validate.js';
import { Space } from '../space/space.js';
import type { IslandEvent } from '../space/events.js';
import { groundBody, hashState } from '../test-support/scenes.js';

const DT = 1 / 60;
const steps = (space: Space, n: number): void => {
  for (let i = 0; i < n; i++) space.step(DT);
};
const box = (x: number, y: number, extra: Partial<ConstructorParameters<typeof Body>[0]> = {}): Body => new Body({ position: [x, y], shapes: [Polygon.box(1, 1)], ...extra });

/** A space with ground and a stack of `n` unit boxes at x, resting. */
function stackScene(n: number, x = 0): { space: Space; stack: Body[] } {
  const space = new Space({ gravity: [0, -10] });
  space.addBody(groundBody());
  const stack: Body[] = [];
  for (let i = 0; i < n; i++) stack.push(space.addBody(box(x, 0.5 + i)));
  return { space, stack };
}

/**
 * A UserConstraint on `body` whose position() hook calls `attempt` inside the step (where the
 * space is locked) and keeps what it threw.
 */
function tryInsideStep(space: Space, body: Body, attempt: () => void): { thrown: unknown } {
  const caught = { thrown: null as unknown };
  space.addConstraint(
    new UserConstraint({
      dimensions: 1,
      bodies: [body],
      hooks: {
        position(err) {
          err[0] = body.x;
          try {
            attempt();
          } catch (e) {
            caught.thrown = e;
          }
        },
        jacobian(J) {
          J.set([1, 0, 0]);
        },
      },
    }),
  );
  return caught;
}

describe('Body.allowSleep', () => {
  it('false keeps a resting body awake; true again lets it sleep after sleepDelay', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(groundBody());
    const player = space.addBody(box(-3, 0.5, { allowSleep: false }));
    const crate = space.addBody(box(3, 0.5));
    steps(space, 300);
    expect(crate.isSleeping).toBe(true);
    expect(player.isSleeping).toBe(false);
    player.allowSleep = true;
    steps(space, 60);
    expect(player.isSleeping).toBe(true);
  });

  it('keeps the whole island awake: a stack whose top box has it false never sleeps', () => {
    const { space, stack } = stackScene(3);
    const apart = space.addBody(box(6, 0.5));
    stack[2]!.allowSleep = false;
    steps(space, 300);
    expect(apart.isSleeping).toBe(true);
    for (const b of stack) expect(b.isSleeping).toBe(false);
  });

  it('set false on a sleeping body wakes its island, with a wake event', () => {
    const { space, stack } = stackScene(2);
    steps(space, 120);
    expect(stack.every((b) => b.isSleeping)).toBe(true);
    const woken: IslandEvent[] = [];
    space.on('wake', (e) => woken.push(e));
    stack[1]!.allowSleep = false;
    expect(stack.every((b) => !b.isSleeping)).toBe(true);
    expect(woken.map((e) => e.bodies.map((b) => b.id))).toEqual([stack.map((b) => b.id)]);
  });

  it('is validated, and rejected from inside a step without being applied', () => {
    const b = new Body();
    expect(() => new Body({ allowSleep: 'no' as never })).toThrow(/Body\.allowSleep must be a boolean/);
    expect(() => (b.allowSleep = 0 as never)).toThrow(FulcrumInputError);
    expect(b.allowSleep).toBe(true);
    const space = new Space();
    const a = space.addBody(box(0, 0));
    const inside = tryInsideStep(space, a, () => {
      a.allowSleep = false;
    });
    space.step(DT);
    expect(inside.thrown).toBeInstanceOf(FulcrumInputError);
    expect((inside.thrown as FulcrumInputError).prop).toBe('allowSleep');
    expect(a.allowSleep).toBe(true);
  });
});

describe('Body.wake()', () => {
  it('wakes the sleeping island at once: every body, one wake event, and it rests sleepDelay again before sleeping', () => {
    const { space, stack } = stackScene(3);
    steps(space, 120);
    expect(stack.every((b) => b.isSleeping)).toBe(true);
    const woken: IslandEvent[] = [];
    space.on('wake', (e) => woken.push(e));
    stack[0]!.wake();
    expect(stack.every((b) => !b.isSleeping)).toBe(true);
    expect(woken).toHaveLength(1);
    expect(woken[0]!.bodies.map((b) => b.id)).toEqual(stack.map((b) => b.id));
    steps(space, Math.floor(space.sleepDelay / DT) - 2);
    expect(stack.every((b) => !b.isSleeping)).toBe(true);
    steps(space, 10);
    expect(stack.every((b) => b.isSleeping)).toBe(true);
  });

  it('does nothing outside a space, and is rejected from inside a step', () => {
    expect(() => new Body().wake()).not.toThrow();
    const space = new Space();
    const a = space.addBody(box(0, 0));
    const inside = tryInsideStep(space, a, () => {
      a.wake();
    });
    space.step(DT);
    expect((inside.thrown as FulcrumInputError).prop).toBe('wake');
  });
});

describe('Body.sleep()', () => {
  it('stops a falling body where it is, with a sleep event; it stays put, bit for bit, until woken, then falls', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(groundBody());
    const falling = space.addBody(box(0, 10));
    steps(space, 20);
    expect(falling.velocity.y).toBeLessThan(-3);
    const slept: IslandEvent[] = [];
    space.on('sleep', (e) => slept.push(e));
    falling.sleep();
    expect(falling.isSleeping).toBe(true);
    expect(falling.velocity).toEqual({ x: 0, y: 0 });
    expect(slept.map((e) => e.bodies)).toEqual([[falling]]);
    const at = hashState([falling]);
    steps(space, 120);
    expect(hashState([falling])).toBe(at);
    falling.wake();
    steps(space, 10);
    expect(falling.velocity.y).toBeLessThan(-1);
  });

  it('puts the whole island to sleep: bodies linked by a joint or a touching contact, and no other', () => {
    const { space, stack } = stackScene(2);
    const linked = space.addBody(box(1.5, 3));
    space.addConstraint(new PivotJoint({ body1: stack[1]!, body2: linked, anchor1: [0.5, 0.5], anchor2: [-1, -2.5] }));
    const other = space.addBody(box(8, 0.5));
    steps(space, 2);
    stack[0]!.sleep();
    expect([...stack, linked].every((b) => b.isSleeping)).toBe(true);
    expect(other.isSleeping).toBe(false);
    // A body that starts touching it wakes it.
    space.addBody(box(0, 4, { velocity: [0, -5] }));
    steps(space, 40);
    expect(stack[1]!.isSleeping).toBe(false);
  });

  it('is refused, with nothing changed, where the island could not sleep or the call makes no sense', () => {
    const refused = (f: () => void, what: RegExp): void => {
      let error: unknown = null;
      try {
        f();
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(FulcrumInputError);
      expect((error as FulcrumInputError).prop).toBe('sleep');
      expect((error as Error).message).toMatch(what);
    };
    refused(() => new Body().sleep(), /is not in a space/);
    const { space, stack } = stackScene(2);
    steps(space, 2); // the boxes touch
    const ground = space.bodies[0]!;
    refused(() => ground.sleep(), /is static, and only a dynamic body sleeps/);
    const lift = space.addBody(new Body({ type: 'kinematic', position: [5, 5] }));
    refused(() => lift.sleep(), /is kinematic/);
    stack[1]!.allowSleep = false;
    const before = hashState(space.bodies);
    refused(() => stack[0]!.sleep(), new RegExp(`Body#${stack[1]!.id}, in its island, has allowSleep false`));
    expect(stack.some((b) => b.isSleeping)).toBe(false);
    expect(hashState(space.bodies)).toBe(before);
    stack[1]!.allowSleep = true;
    space.allowSleep = false;
    refused(() => stack[0]!.sleep(), /the space's allowSleep is false/);
    expect(stack.some((b) => b.isSleeping)).toBe(false);
  });

  it('is rejected from inside a step, and the step goes on', () => {
    const space = new Space({ gravity: [0, -10] });
    const a = space.addBody(box(0, 0));
    const inside = tryInsideStep(space, a, () => {
      a.sleep();
    });
    space.step(DT);
    expect((inside.thrown as FulcrumInputError).prop).toBe('sleep');
    expect(a.isSleeping).toBe(false);
    expect(a.velocity.y).toBeLessThan(0);
  });
});
