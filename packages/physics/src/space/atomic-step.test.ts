/**
 * A step that throws leaves the space as it found it: every body as before the step (also the
 * bodies a packedState: false hook saw the solver's state written into), and every constraint's
 * warm-start impulses as before, so that the steps after it are bitwise those of a twin space
 * that never took the failed step. A user hook throws at each of its call sites, early and late
 * in the step (warm start, biased pass, relax passes, position passes), on the one-by-one path,
 * in the user batch, and in Nape's effMass + impulse form.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { BODY_STATE_STRIDE, BodyState } from '../constraint/body-state.js';
import { DistanceJoint } from '../constraint/joints/distance-joint.js';
import { PivotJoint } from '../constraint/joints/pivot-joint.js';
import { WeldJoint } from '../constraint/joints/weld-joint.js';
import { UserConstraint, type UserConstraintOptions } from '../constraint/user-constraint.js';
import type { Vec3 } from '../math/vec2.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import type { Contact } from '../contact/contact.js';
import { Space } from './space.js';
import { solverInternals } from '../test-support/solver-routing.js';

/** Which hook throws, at which of its calls in the step (1 = the first); null: none. */
interface Trap {
  hook: string | null;
  at: number;
  calls: number;
}

function sprung(trap: Trap, hook: string): void {
  if (trap.hook !== hook) return;
  if (++trap.calls === trap.at) throw new Error(`trap: ${hook} call ${trap.at}`);
}

/** A rope of fixed length between two bodies' centres, in jacobian form; `form` picks the solver path. */
class TrappedRope extends UserConstraint {
  constructor(
    b1: Body,
    b2: Body,
    private readonly length: number,
    private readonly trap: Trap,
    form: 'batch' | 'one-by-one' | 'unpacked',
    opts: Partial<UserConstraintOptions> = {},
  ) {
    super({ dimensions: 1, bodies: [b1, b2], packedState: form !== 'unpacked', ...opts });
    // A velocity hook (J·v, written out) keeps a packed constraint out of the batch.
    if (form === 'one-by-one') this.velocity = (out: Float64Array, st: Float64Array) => {
      sprung(this.trap, 'velocity');
      const J = new Float64Array(6);
      this.jacobian(J, st);
      const O = BODY_STATE_STRIDE;
      out[0] = J[0]! * st[BodyState.vx]! + J[1]! * st[BodyState.vy]! + J[3]! * st[O + BodyState.vx]! + J[4]! * st[O + BodyState.vy]!;
    };
  }
  private d(st: Float64Array): [number, number, number] {
    const O = BODY_STATE_STRIDE;
    const dx = st[O + BodyState.comX]! - st[BodyState.comX]!;
    const dy = st[O + BodyState.comY]! - st[BodyState.comY]!;
    return [dx, dy, Math.hypot(dx, dy)];
  }
  override prepare(st: Float64Array): void {
    void st;
    sprung(this.trap, 'prepare');
  }
  override position(err: Float64Array, st: Float64Array): void {
    sprung(this.trap, 'position');
    err[0] = this.d(st)[2] - this.length;
  }
  override jacobian(J: Float64Array, st: Float64Array): void {
    sprung(this.trap, 'jacobian');
    const [dx, dy, L] = this.d(st);
    J.set([-dx / L, -dy / L, 0, dx / L, dy / L, 0]);
  }
}

/** The same rope in Nape's form: effMass and impulse, no J. */
class TrappedNapeRope extends TrappedRope {
  override effMass(eff: Float64Array): void {
    sprung(this.trap2, 'effMass');
    const [a, b] = this.bodyList as Body[];
    eff[0] = 1 / a!.mass + 1 / b!.mass;
  }
  override impulse(imp: Float64Array, body: Body, out: Vec3): void {
    sprung(this.trap2, 'impulse');
    const [a, b] = this.bodyList as Body[];
    const dx = b!.worldCenter.x - a!.worldCenter.x;
    const dy = b!.worldCenter.y - a!.worldCenter.y;
    const L = Math.hypot(dx, dy);
    const s = body === b ? 1 : -1;
    out.x = (s * dx * imp[0]!) / L;
    out.y = (s * dy * imp[0]!) / L;
    out.z = 0;
  }
  override velocity(out: Float64Array): void {
    sprung(this.trap2, 'velocity');
    const [a, b] = this.bodyList as Body[];
    const dx = b!.worldCenter.x - a!.worldCenter.x;
    const dy = b!.worldCenter.y - a!.worldCenter.y;
    const L = Math.hypot(dx, dy);
    out[0] = (dx * (b!.velocity.x - a!.velocity.x) + dy * (b!.velocity.y - a!.velocity.y)) / L;
  }
  constructor(b1: Body, b2: Body, length: number, private readonly trap2: Trap) {
    super(b1, b2, length, trap2, 'unpacked');
  }
}

/** A scene with contacts, the joint batch, one-by-one joints and the rope under test. */
function scene(trap: Trap, form: 'batch' | 'one-by-one' | 'unpacked' | 'nape', soft: boolean): { space: Space; bodies: Body[] } {
  const space = new Space({ gravity: [0, -10] });
  const ground = space.addBody(new Body({ type: 'static', shapes: [Polygon.box(20, 1, { offset: [0, -0.5] })] }));
  const bodies: Body[] = [];
  for (let i = 0; i < 4; i++) bodies.push(space.addBody(new Body({ position: [3, 0.5 + i * 1.01], shapes: [Polygon.box(1, 1)] })));
  let prev = space.addBody(new Body({ type: 'static', position: [-4, 8] }));
  // 9 pivots: 18 rows, too many for a joint island, so the joint batch solves them.
  for (let k = 0; k < 9; k++) {
    const link = space.addBody(new Body({ position: [-3.5 + k, 8], shapes: [Polygon.box(1, 0.2, { filter: { mask: 0 } })] }));
    space.addConstraint(new PivotJoint({ body1: prev, body2: link, anchor1: k === 0 ? [0, 0] : [0.5, 0], anchor2: [-0.5, 0] }));
    bodies.push(link);
    prev = link;
  }
  const ball = space.addBody(new Body({ position: [5.5, 8], angularVel: 1, shapes: [new Circle({ radius: 0.3 })] }));
  const weight = space.addBody(new Body({ position: [5.5, 6], shapes: [new Circle({ radius: 0.2 })] }));
  bodies.push(ball, weight);
  space.addConstraint(new DistanceJoint({ body1: prev, body2: ball, jointMin: 0.5, jointMax: 1.5 }));
  space.addConstraint(new WeldJoint({ body1: ground, body2: bodies[0]!, anchor1: [3, 0], anchor2: [0, -0.5], stiff: false, frequency: 5 }));
  const opts = soft ? { stiff: false, frequency: 4 } : {};
  space.addConstraint(form === 'nape' ? new TrappedNapeRope(ball, weight, 2, trap) : new TrappedRope(ball, weight, 2, trap, form, opts));
  return { space, bodies };
}

/** Every constraint's impulse() and bodyImpulse() of each of its bodies. */
function readOuts(space: Space): number[] {
  return space.constraints.flatMap((c) => [
    ...c.impulse(),
    ...c.bodies.flatMap((b) => {
      const i = c.bodyImpulse(b);
      return [i.x, i.y, i.z];
    }),
  ]);
}

function state(bodies: Body[]): number[] {
  return bodies.flatMap((b) => [b.x, b.y, b.rotation, b.velocity.x, b.velocity.y, b.angularVel]);
}

const sites: Record<string, string[]> = {
  batch: ['prepare', 'position', 'jacobian'],
  'one-by-one': ['prepare', 'position', 'jacobian', 'velocity'],
  unpacked: ['prepare', 'position', 'jacobian'],
  nape: ['prepare', 'position', 'effMass', 'impulse', 'velocity'],
};

describe('a step that throws', () => {
  for (const [form, hooks] of Object.entries(sites) as [keyof typeof sites & string, string[]][]) {
    for (const soft of [false, true]) {
      it(`${form} (${soft ? 'soft' : 'stiff'}): a hook throwing at each call site leaves every body and impulse as before; the space then steps bitwise as a twin that never took the step`, () => {
        for (const hook of hooks) {
          let fired = 0;
          for (const at of [1, 2, 5, 9, 14]) {
            const trapA: Trap = { hook: null, at, calls: 0 };
            const trapB: Trap = { hook: null, at, calls: 0 };
            const a = scene(trapA, form as 'batch', soft);
            const b = scene(trapB, form as 'batch', soft);
            for (let i = 0; i < 20; i++) {
              a.space.step(1 / 60);
              b.space.step(1 / 60);
            }
            const before = state(a.bodies);
            trapA.hook = hook;
            trapA.calls = 0;
            let threw = false;
            try {
              a.space.step(1 / 60);
            } catch (e) {
              threw = true;
              expect((e as Error).message, `${hook} #${at}`).toContain('trap');
            }
            trapA.hook = null;
            // A call site reached fewer times than `at` in a step does not throw: nothing to check.
            if (!threw) continue;
            fired++;
            expect(state(a.bodies), `${form} ${hook} #${at}: bodies after the failed step`).toEqual(before);
            // The read-outs still report the last step that completed, as the twin's do.
            expect(readOuts(a.space), `${form} ${hook} #${at}: impulse() and bodyImpulse() after the failed step`).toEqual(readOuts(b.space));
            for (let i = 0; i < 20; i++) {
              a.space.step(1 / 60);
              b.space.step(1 / 60);
            }
            expect(state(a.bodies), `${form} ${hook} #${at}: the steps after it`).toEqual(state(b.bodies));
            const impulses = (s: Space) => s.constraints.flatMap((c) => Array.from(c.impulse()));
            expect(impulses(a.space), `${form} ${hook} #${at}: impulses`).toEqual(impulses(b.space));
          }
          expect(fired, `${form}: ${hook} threw at least once`).toBeGreaterThan(0);
        }
      });
    }
  }

  it('in a break test (breakUnderError calling position(), in the preparation and after the position passes) leaves bodies, impulses and read-outs as before, on every path', () => {
    for (const [form, last] of [['batch', false], ['one-by-one', false], ['unpacked', false], ['batch', true], ['one-by-one', true], ['unpacked', true]] as const) {
      const trapA: Trap = { hook: null, at: 1, calls: 0 };
      const trapB: Trap = { hook: null, at: 1, calls: 0 };
      const a = scene(trapA, form, false);
      const b = scene(trapB, form, false);
      // A second rope that tests its error in the step's preparation, added after the first.
      const [ball, weight] = a.bodies.slice(-2) as [Body, Body];
      const [ballB, weightB] = b.bodies.slice(-2) as [Body, Body];
      const trap2A: Trap = { hook: null, at: 1, calls: 0 };
      a.space.addConstraint(new TrappedRope(ball, weight, 2, trap2A, form, { breakUnderError: true, maxError: 10 }));
      b.space.addConstraint(new TrappedRope(ballB, weightB, 2, { hook: null, at: 1, calls: 0 }, form, { breakUnderError: true, maxError: 10 }));
      for (let i = 0; i < 20; i++) {
        a.space.step(1 / 60);
        b.space.step(1 / 60);
      }
      expect(readOuts(a.space).some((x) => x !== 0)).toBe(true);
      expect(solverInternals(a.space).jointBatch.count).toBe(9);
      const before = state(a.bodies);
      // The first call is the preparation's break test, the last the one after the position passes.
      let at = 1;
      if (last) {
        const probe = scene({ hook: null, at: 1, calls: 0 }, form, false);
        const counter: Trap = { hook: 'position', at: Infinity, calls: 0 };
        const [p1, p2] = probe.bodies.slice(-2) as [Body, Body];
        probe.space.addConstraint(new TrappedRope(p1, p2, 2, counter, form, { breakUnderError: true, maxError: 10 }));
        for (let i = 0; i < 20; i++) probe.space.step(1 / 60);
        counter.calls = 0;
        probe.space.step(1 / 60);
        at = counter.calls;
        expect(at).toBeGreaterThan(1);
      }
      trap2A.hook = 'position';
      trap2A.at = at;
      trap2A.calls = 0;
      expect(() => a.space.step(1 / 60)).toThrow('trap');
      trap2A.hook = null;
      expect(state(a.bodies), `${form} ${at}`).toEqual(before);
      expect(readOuts(a.space), `${form} ${at}: read-outs`).toEqual(readOuts(b.space));
      for (let i = 0; i < 20; i++) {
        a.space.step(1 / 60);
        b.space.step(1 / 60);
      }
      expect(state(a.bodies), `${form} ${at}: the steps after it`).toEqual(state(b.bodies));
      expect(readOuts(a.space), `${form} ${at}: read-outs after 20 steps`).toEqual(readOuts(b.space));
    }
  });
});

/**
 * Everything a user can read of a space's contacts and sleep, in the space's contact order: each
 * contact's shapes, touching flag, manifold (normal, points, separations, feature ids) and
 * impulses; each body's own contact list; each body's sleep state.
 */
function contactsAndSleep(space: Space): unknown[] {
  const list = (space as unknown as { _contacts: { contacts: Contact[] } })._contacts.contacts;
  // Shapes and bodies by their place in the space (ids count across spaces, so twins' differ).
  const shapeName = (s: Contact['shapeA']) => {
    const b = s.body as Body;
    return `${space.bodies.indexOf(b)}.${b.shapes.indexOf(s)}`;
  };
  const contacts = list.map((c) => {
    const m = c.manifold;
    const points = Array.from({ length: m.pointCount }, (_, i) => [m.px[i], m.py[i], m.separation[i], m.id[i], c.substepNormalImpulse(i), c.substepTangentImpulse(i)]);
    return [shapeName(c.shapeA), shapeName(c.shapeB), c.touching, m.nx, m.ny, points];
  });
  const own = space.bodies.map((b) => [b.isSleeping, (b._contacts as Contact[]).map((c) => list.indexOf(c))]);
  return [space.contactCount, contacts, own];
}

describe('a step that throws, and the contacts, sleep and events', () => {
  /**
   * A box asleep on the ground that a falling ball wakes (a new pair, a begin, a wake), a box
   * thrown off the ground (its contact ends and is destroyed), a stack, and a pendulum on a user
   * rope whose position() hook throws when asked.
   */
  function world(trap: Trap): { space: Space; bodies: Body[]; events: string[] } {
    const space = new Space({ gravity: [0, -10], sleepDelay: 0.2 });
    const events: string[] = [];
    for (const type of ['beginContact', 'endContact', 'sleep', 'wake'] as const) {
      const at = (b: Body) => space.bodies.indexOf(b);
      space.on(type, (e) => events.push(`${space.stepCount} ${type} ${'bodies' in e ? e.bodies.map(at).join(',') : `${at(e.bodyA)}-${at(e.bodyB)}`}`));
    }
    space.addBody(new Body({ type: 'static', shapes: [Polygon.box(30, 1, { offset: [0, -0.5] })] }));
    const sleeper = space.addBody(new Body({ position: [-5, 0.5], shapes: [Polygon.box(1, 1)] }));
    const ball = space.addBody(new Body({ position: [-5, 6], shapes: [new Circle({ radius: 0.3 })] }));
    const leaver = space.addBody(new Body({ position: [5, 0.5], shapes: [Polygon.box(1, 1)] }));
    const stack = [0, 1, 2].map((i) => space.addBody(new Body({ position: [2, 0.5 + i * 1.01], shapes: [Polygon.box(1, 1)] })));
    const pin = space.addBody(new Body({ type: 'static', position: [0, 9] }));
    const bob = space.addBody(new Body({ position: [2, 9], velocity: [0, -3], shapes: [new Circle({ radius: 0.2, filter: { mask: 0 } })] }));
    space.addConstraint(new TrappedRope(pin, bob, 2, trap, 'batch'));
    return { space, bodies: [sleeper, ball, leaver, ...stack, bob], events };
  }

  it('at every step of a scene where contacts begin, end and wake islands: every contact, sleeping island and event as before it; the steps after it, events included, are the twin\'s', () => {
    let sawNew = 0;
    let sawWake = 0;
    let sawDoomed = 0;
    for (let failAt = 20; failAt <= 70; failAt++) {
      const trapA: Trap = { hook: null, at: 1, calls: 0 };
      const a = world(trapA);
      const b = world({ hook: null, at: 1, calls: 0 });
      const run = (n: number) => {
        for (let i = 0; i < n; i++) {
          for (const w of [a, b]) {
            if (w.space.stepCount === 30) w.bodies[2]!.velocity = [0, 6]; // the leaver jumps
            w.space.step(1 / 60);
          }
        }
      };
      run(failAt - 1);
      const bodies = state(a.bodies);
      const contacts = contactsAndSleep(a.space);
      const events = a.events.length;
      // What the twin's step does that the failed one must undo.
      const twinBefore = b.space.contactCount;
      const asleepBefore = b.bodies.filter((x) => x.isSleeping).length;
      trapA.hook = 'position';
      trapA.calls = 0;
      expect(() => a.space.step(1 / 60), `step ${failAt}`).toThrow('trap');
      trapA.hook = null;
      expect(state(a.bodies), `step ${failAt}: bodies`).toEqual(bodies);
      expect(contactsAndSleep(a.space), `step ${failAt}: contacts and sleep`).toEqual(contacts);
      expect(a.events.length, `step ${failAt}: no event of the failed step`).toBe(events);
      run(1);
      if (b.space.contactCount > twinBefore) sawNew++;
      if (b.bodies.filter((x) => x.isSleeping).length < asleepBefore) sawWake++;
      if (b.space.contactCount < twinBefore) sawDoomed++;
      expect(contactsAndSleep(a.space), `step ${failAt}, retried: contacts and sleep`).toEqual(contactsAndSleep(b.space));
      run(15);
      expect(state(a.bodies), `step ${failAt}: the steps after it`).toEqual(state(b.bodies));
      expect(contactsAndSleep(a.space), `step ${failAt}: contacts and sleep after it`).toEqual(contactsAndSleep(b.space));
      expect(a.events, `step ${failAt}: events`).toEqual(b.events);
    }
    // The window holds steps that create contacts, wake the sleeping box and destroy a contact.
    expect(sawNew).toBeGreaterThan(0);
    expect(sawWake).toBeGreaterThan(0);
    expect(sawDoomed).toBeGreaterThan(0);
  });
});

describe('a step that throws, and the constraints that failed their break test in its preparation', () => {
  it('breaks none of them (hook, event, removal, deactivation); the next step breaks them as the twin did', () => {
    for (const form of ['batch', 'one-by-one', 'unpacked'] as const) {
      const trapA: Trap = { hook: null, at: 1, calls: 0 };
      const a = scene(trapA, form, false);
      const b = scene({ hook: null, at: 1, calls: 0 }, form, false);
      const broken: string[][] = [[], []];
      const joints = [a, b].map(({ space, bodies }, k) => {
        space.on('constraintBreak', (e) => broken[k]!.push(`event ${space.constraints.indexOf(e.constraint)} ${e.reason}`));
        // Each 0.5 m from its length, with maxError 0.01: Nape's preStep test breaks them.
        const [p, q] = [bodies[1]!, bodies[2]!];
        const opts = { body1: p, body2: q, jointMin: 0.51, jointMax: 0.51, breakUnderError: true, maxError: 0.01 };
        return [space.addConstraint(new DistanceJoint({ ...opts, removeOnBreak: true })), space.addConstraint(new DistanceJoint({ ...opts, removeOnBreak: false }))];
      });
      const count = a.space.constraints.length;
      trapA.hook = 'jacobian';
      expect(() => a.space.step(1 / 60), form).toThrow('trap');
      trapA.hook = null;
      expect(a.space.constraints.length, `${form}: nothing removed`).toBe(count);
      expect(joints[0]!.map((j) => j.active), `${form}: nothing deactivated`).toEqual([true, true]);
      expect(broken[0], `${form}: no event`).toEqual([]);
      a.space.step(1 / 60);
      b.space.step(1 / 60);
      expect(broken[0]!.length, form).toBe(2);
      expect(broken[0], `${form}: the events`).toEqual(broken[1]);
      expect(a.space.constraints.length, form).toBe(b.space.constraints.length);
      expect(joints[0]!.map((j) => [j.active, j.space === a.space]), form).toEqual(joints[1]!.map((j) => [j.active, j.space === b.space]));
      for (let i = 0; i < 10; i++) {
        a.space.step(1 / 60);
        b.space.step(1 / 60);
      }
      expect(state(a.bodies), `${form}: the steps after it`).toEqual(state(b.bodies));
    }
  });
});
