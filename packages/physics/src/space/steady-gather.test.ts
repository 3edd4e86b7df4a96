/**
 * Gather's fast path (steady-gather.ts): a step that keeps the last step's choice of bodies gives
 * bitwise the solver arrays and the poses of one that walks the bodies, through every change that
 * must end the choice, and steady steps really keep it.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { PivotJoint } from '../constraint/joints/pivot-joint.js';
import { DistanceJoint } from '../constraint/joints/distance-joint.js';
import { WeldJoint } from '../constraint/joints/weld-joint.js';
import type { Constraint } from '../constraint/constraint.js';
import { mulberry32 } from '../test-support/random.js';
import { UserConstraint } from '../constraint/user-constraint.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from './space.js';
import { hashState } from '../test-support/scenes.js';
import { solverInternals } from '../test-support/solver-routing.js';

const DT = 1 / 60;

/**
 * A pile of boxes, a free ball (never rotation-capped while it has no joint), a body whose shape
 * pairs with nothing (inert: its shapes are refreshed for queries only), a moving kinematic
 * platform, a hanging chain, and a user constraint that throws when told to (a failed step).
 */
function scene(workers = 0) {
  const space = new Space({ gravity: [0, -10], sleepDelay: 0.4, workers });
  space.addBody(new Body({ type: 'static', position: [0, -0.5], shapes: [Polygon.box(40, 1)] }));
  const boxes = Array.from({ length: 8 }, (_, k) => space.addBody(new Body({ position: [(k % 4) * 1.1 - 2, 0.5 + Math.floor(k / 4) * 1.05], shapes: [Polygon.box(1, 1)] })));
  const ball = space.addBody(new Body({ position: [4, 3], velocity: [-1, 0], shapes: [new Circle({ radius: 0.5 })] }));
  const inert = space.addBody(new Body({ position: [8, 5], velocity: [0.5, 0], shapes: [Polygon.box(0.5, 0.5, { filter: { mask: 0 } })] }));
  const platform = space.addBody(new Body({ type: 'kinematic', position: [-8, 2], velocity: [0.5, 0], shapes: [Polygon.box(3, 0.3)] }));
  const anchor = space.addBody(new Body({ type: 'static', position: [12, 8] }));
  const chain: Body[] = [];
  let prev = anchor;
  for (let k = 0; k < 4; k++) {
    const link = space.addBody(new Body({ position: [12 + 0.6 * (k + 1), 8], shapes: [Polygon.box(0.6, 0.15, { filter: { group: -3 } })] }));
    space.addConstraint(new PivotJoint({ body1: prev, body2: link, anchor1: k === 0 ? [0, 0] : [0.3, 0], anchor2: [-0.3, 0] }));
    chain.push(link);
    prev = link;
  }
  const fail = { now: false };
  /** What each query found (the inert shape, where its body is, when its world cache is up to date). */
  const found: number[] = [];
  const end = chain[3]!;
  space.addConstraint(new UserConstraint({ dimensions: 1, bodies: [end], hooks: { position(err) { if (fail.now) throw new Error('told to'); err[0] = end.x - 14.4; } } }));
  return { space, boxes, ball, inert, platform, chain, fail, found };
}

type Scene = ReturnType<typeof scene> & { extra?: PivotJoint; added?: Body };

/** What happens before step k: each change that must end the kept choice, and steady stretches between. */
function change(k: number, s: Scene): void {
  const { space, boxes, ball, inert, platform } = s;
  // A query refreshes the inert shape's world cache (ContactManager.flushInert): it finds it only then.
  if (k % 7 === 0) s.found.push(space.queryPoint({ x: inert.x, y: inert.y }).length);
  if (k === 15) ball.isBullet = true;
  if (k === 25) boxes[0]!.disableCCD = true;
  if (k === 35) boxes[1]!.allowFastRotation = true;
  if (k === 45) s.extra = space.addConstraint(new PivotJoint({ body1: ball, body2: boxes[2]!, anchor1: [0, 0], anchor2: [0, 0.5] }));
  if (k === 60) space.removeConstraint(s.extra!);
  if (k === 70) platform.velocity = { x: 0, y: 0 }; // a kinematic body at rest is not gathered
  if (k === 80) platform.velocity = { x: 0.5, y: 0 };
  if (k === 90) boxes[3]!.type = 'kinematic';
  if (k === 100) boxes[3]!.type = 'dynamic';
  if (k === 110) s.added = space.addBody(new Body({ position: [0, 6], shapes: [Polygon.box(0.7, 0.7)] }));
  if (k === 125) space.removeBody(boxes[4]!);
  if (k === 130) space.addBody(new Body({ position: [-3, 5], shapes: [Polygon.box(0.7, 0.7)] })); // into the slot box 4 left
  if (k === 135) boxes[5]!.addShape(new Circle({ radius: 0.3, offset: [0.5, 0] }));
  if (k === 145) boxes[5]!.removeShape(boxes[5]!.shapes[1]!);
  if (k === 150) boxes[6]!.allowSleep = false;
  if (k === 160) inert.sleep();
  if (k === 175) inert.wake();
  if (k === 170) {
    boxes[6]!.gravityScale = -0.5;
    boxes[5]!.force = { x: 3, y: 1 };
    ball.linearDrag = 2;
  }
  if (k === 180) inert.shapes[0]!.filter = { mask: 0xffff }; // now pairs
  if (k === 190) inert.shapes[0]!.filter = { mask: 0 };
  s.fail.now = k === 200;
}

/** Step k of a scene: its change, then the step (which fails at k = 200, as told). */
function step(s: Scene, k: number): void {
  change(k, s);
  try {
    s.space.step(DT);
  } catch (e) {
    expect(`${k}: ${String(e)}`).toBe('200: Error: told to');
  }
}

/** The solver bodies gather chose, with their flags, as the step left them. */
function choice(space: Space) {
  const sb = solverInternals(space).solverBodies;
  const n = sb.count;
  return {
    n,
    bodies: sb.bodies.slice(1, n).map((b) => space.bodies.indexOf(b!)),
    flags: [sb.dynamic, sb.spinCapped, sb.swept, sb.bullet, sb.shapeSync, sb.sleepy].map((a) => Array.from(a.subarray(1, n))),
    slots: Array.from(sb.bslot.subarray(1, n)),
    bullets: sb.bullets,
    solverIndex: space.bodies.map((b) => b._solverIndex),
    inertStale: space.bodies.map((b) => b._inertStale),
  };
}

const CHANGES = [15, 25, 35, 45, 60, 70, 80, 90, 100, 110, 125, 130, 135, 145, 150, 160, 170, 175, 180, 190, 201];

describe("gather's kept choice of bodies", () => {
  it('is bitwise the walk of the bodies, step after step, through every change that ends it, and steady steps keep it', () => {
    const kept: Scene = scene();
    const walked: Scene = scene();
    solverInternals(walked.space).steadyGather.enabled = false;
    const walks: number[] = [];
    let sleeps = 0;
    kept.space.on('sleep', () => sleeps++);
    for (let k = 0; k < 260; k++) {
      const reuses = solverInternals(kept.space).steadyGather.reuses;
      step(kept, k);
      step(walked, k);
      if (solverInternals(kept.space).steadyGather.reuses === reuses) walks.push(k);
      expect(choice(kept.space), `the choice after step ${k}`).toEqual(choice(walked.space));
      expect(hashState(kept.space.bodies), `the poses after step ${k}`).toBe(hashState(walked.space.bodies));
    }
    expect(kept.found).toEqual(walked.found);
    expect(kept.found.filter((n) => n === 1).length, 'the queries found the inert shape').toBeGreaterThan(20);
    expect(solverInternals(walked.space).steadyGather.reuses).toBe(0);
    // Most steps keep the choice; each change (and each wake and sleep) walks the bodies.
    expect(walks.length).toBeLessThan(100);
    for (const k of CHANGES) expect(walks, `step ${k} walks the bodies`).toContain(k);
    // The scene did what it was built to: islands fell asleep on their own too (not only at 160).
    expect(sleeps).toBeGreaterThan(1);
  });

  it('gives the same bits with a worker, which keeps it too', async () => {
    const alone: Scene = scene();
    const shared: Scene = scene(1);
    await shared.space.workersReady;
    try {
      for (let k = 0; k < 260; k++) {
        step(alone, k);
        step(shared, k);
      }
      expect(hashState(shared.space.bodies)).toBe(hashState(alone.space.bodies));
      expect(solverInternals(shared.space).steadyGather.reuses).toBeGreaterThan(150);
    } finally {
      shared.space.dispose();
    }
  });
});

/**
 * A random change of a random space, from `rnd` alone (so two spaces given the same sequence
 * change alike): a setter that decides gather's choice or its numbers, a body or joint added or
 * removed, a shape, a filter, a sleep, a wake, a query. Returns its name (a change may throw, as
 * sleep() on a body that cannot sleep does: in both spaces alike).
 */
function randomChange(space: Space, rnd: () => number): string {
  const bodies = space.bodies;
  const pick = <T>(xs: readonly T[]): T | undefined => xs[Math.floor(rnd() * xs.length)];
  const b = pick(bodies);
  const k = Math.floor(rnd() * 17);
  if (b === undefined || k === 0) {
    space.addBody(new Body({ position: [rnd() * 10 - 5, 2 + rnd() * 6], velocity: [rnd() - 0.5, 0], shapes: [rnd() < 0.5 ? Polygon.box(0.4 + rnd(), 0.4 + rnd(), rnd() < 0.2 ? { filter: { mask: 0 } } : {}) : new Circle({ radius: 0.2 + 0.5 * rnd() })] }));
    return 'addBody';
  }
  const constraints = space.constraints as readonly Constraint[];
  switch (k) {
    case 1:
      // Its joints first: a joint on a body outside the space fails the step.
      for (const c of [...constraints]) if (c.bodies.includes(b)) space.removeConstraint(c);
      space.removeBody(b);
      return 'removeBody';
    case 2: {
      const o = pick(bodies)!;
      if (o === b) return 'none';
      const joint = [
        () => new PivotJoint({ body1: b, body2: o, anchor1: [0, 0], anchor2: [0.5, 0] }),
        () => new DistanceJoint({ body1: b, body2: o, anchor1: [0, 0], anchor2: [0, 0], jointMin: 0.5, jointMax: 3 }),
        () => new WeldJoint({ body1: b, body2: o, anchor1: [0, 0], anchor2: [0.6, 0] }),
      ][Math.floor(rnd() * 3)]!();
      space.addConstraint(joint);
      return 'addConstraint';
    }
    case 3: {
      const c = pick(constraints);
      if (c) space.removeConstraint(c);
      return 'removeConstraint';
    }
    case 4:
      b.type = pick(['dynamic', 'dynamic', 'kinematic', 'static'] as const)!;
      return 'type';
    case 5:
      if (b.type !== 'static') b.velocity = rnd() < 0.3 ? { x: 0, y: 0 } : { x: rnd() * 4 - 2, y: rnd() * 4 - 2 };
      return 'velocity';
    case 6:
      b.isBullet = rnd() < 0.5;
      return 'isBullet';
    case 7:
      b.disableCCD = rnd() < 0.5;
      return 'disableCCD';
    case 8:
      b.allowFastRotation = rnd() < 0.5;
      return 'allowFastRotation';
    case 9:
      b.allowSleep = rnd() < 0.7;
      return 'allowSleep';
    case 10:
      b.sleep();
      return 'sleep';
    case 11:
      b.wake();
      return 'wake';
    case 12:
      b.force = { x: rnd() * 10 - 5, y: rnd() * 10 - 5 };
      b.gravityScale = rnd() * 2 - 0.5;
      b.linearDrag = rnd();
      return 'settings';
    case 13:
      if (rnd() < 0.5 || b.shapes.length < 2) b.addShape(new Circle({ radius: 0.2, offset: [rnd() - 0.5, rnd() - 0.5] }));
      else b.removeShape(b.shapes[b.shapes.length - 1]!);
      return 'shape';
    case 14: {
      const shape = pick(b.shapes);
      if (shape) shape.filter = { mask: rnd() < 0.5 ? 0 : 0xffff };
      return 'filter';
    }
    case 15:
      space.queryPoint({ x: b.x, y: b.y });
      return 'query';
    default:
      return 'none';
  }
}

/** randomChange, or what it threw (a change may be refused, in both spaces alike). */
function attemptChange(space: Space, rnd: () => number): string {
  try {
    return randomChange(space, rnd);
  } catch (e) {
    return `threw ${(e as Error).message}`;
  }
}

describe("gather's kept choice of bodies, under random changes", () => {
  it('is bitwise the walk of the bodies after every step of 12 random scenes', () => {
    for (let seed = 1; seed <= 12; seed++) {
      const make = () => {
        const space = new Space({ gravity: [0, -10], sleepDelay: 0.3 });
        space.addBody(new Body({ type: 'static', position: [0, -0.5], shapes: [Polygon.box(30, 1)] }));
        return space;
      };
      const kept = make();
      const walked = make();
      solverInternals(walked).steadyGather.enabled = false;
      const rk = mulberry32(seed);
      const rw = mulberry32(seed);
      for (let k = 0; k < 200; k++) {
        // About one step in four changes something; the others are steady.
        const changes = rk() < 0.25 ? 1 + Math.floor(rk() * 2) : 0;
        rw();
        if (changes > 0) rw();
        const done: string[] = [];
        for (let c = 0; c < changes; c++) {
          const a = attemptChange(kept, rk);
          const b = attemptChange(walked, rw);
          expect(a.replace(/#\d+/g, '#')).toBe(b.replace(/#\d+/g, '#'));
          done.push(a);
        }
        kept.step(DT);
        walked.step(DT);
        const where = `seed ${seed}, step ${k} (after ${done.join(', ') || 'no change'})`;
        expect(choice(kept), where).toEqual(choice(walked));
        expect(hashState(kept.bodies), where).toBe(hashState(walked.bodies));
      }
      expect(solverInternals(kept).steadyGather.reuses, `seed ${seed}`).toBeGreaterThan(60);
    }
  });
});
