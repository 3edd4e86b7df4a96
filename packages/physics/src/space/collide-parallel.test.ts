import { afterEach, describe, expect, it, vi } from 'vitest';
import { Body } from '../body/body.js';
import { Capsule } from '../shape/capsule.js';
import { Chain } from '../shape/chain.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from './space.js';
import { PARALLEL_MIN_CONTACTS } from './contact-manager.js';
import { WorkerPool } from '../parallel/worker-pool.js';
import { COMMAND } from '../parallel/control.js';
import { hashState } from '../test-support/scenes.js';

const spaces: Space[] = [];
afterEach(() => {
  for (const s of spaces.splice(0)) s.dispose();
  vi.restoreAllMocks();
});

interface Run {
  hashes: string[];
  events: string[];
  asleepBeforeDrop: number;
  wokenByDrop: number;
  contacts: number;
  failedStep: string;
}

/**
 * The narrowphase with and without workers: twelve small pyramids that fall asleep, a pile of
 * circles, capsules, rounded boxes and triangles, a polygon sensor the pile falls through, boxes
 * and balls on a chain; at step 240 a box and a ball drop onto sleeping piles (the pass wakes them), a body is
 * added and a polygon changes its vertex count (the geometry pool follows); at step 251 a body is
 * removed (see there); at step 260 a pre-solve callback throws once (the step rolls back, the
 * contacts with it).
 */
async function run(workers: number): Promise<Run> {
  const space = new Space({ gravity: [0, -10], workers });
  spaces.push(space);
  const bodies: Body[] = [];
  const add = (b: Body): Body => {
    space.addBody(b);
    bodies.push(b);
    return b;
  };
  // Grounds of their own: what rolls off the pile falls away rather than into the pyramids.
  add(new Body({ type: 'static', position: [-12, -0.5], shapes: [Polygon.box(90, 1)] }));
  add(new Body({ type: 'static', position: [38, -0.5], shapes: [Polygon.box(8, 1)] }));
  add(new Body({ type: 'static', position: [64, -0.5], shapes: [Polygon.box(14, 1)] }));
  for (let t = 0; t < 12; t++) {
    for (let r = 0; r < 6; r++) {
      const n = 6 - r;
      for (let i = 0; i < n; i++) add(new Body({ position: [t * 8 - 50 + i - (n - 1) / 2, 0.5 + r], shapes: [Polygon.box(1, 1)] }));
    }
  }
  add(new Body({ type: 'static', position: [90, 0.2], shapes: new Chain({ vertices: [[-8, 4], [-4, 0], [4, 0], [8, 4]] }).segments }));
  for (let i = 0; i < 6; i++) add(new Body({ position: [86 + 1.5 * i, 3], shapes: [i % 2 ? new Circle({ radius: 0.4 }) : Polygon.box(0.8, 0.8)] }));
  add(new Body({ type: 'static', position: [64, 4], shapes: [Polygon.box(10, 1, { sensor: true })] }));
  for (let r = 0; r < 10; r++) {
    for (let i = 0; i < 8; i++) {
      const k = (r * 8 + i) % 4;
      const shape = k === 0 ? new Circle({ radius: 0.45 }) : k === 1 ? new Capsule({ length: 0.6, radius: 0.3 }) : k === 2 ? Polygon.box(0.9, 0.9, { radius: 0.05 }) : new Polygon({ vertices: [[-0.5, -0.4], [0.5, -0.4], [0, 0.5]] });
      add(new Body({ position: [60 + i * 1.1 + (r % 2) * 0.3, 1 + r * 1.05], shapes: [shape] }));
    }
  }
  // Bodies by their order of creation (ids count on across spaces).
  const base = bodies[0]!.id;
  const events: string[] = [];
  space.on('beginContact', (e) => events.push(`b${e.bodyA.id - base}:${e.bodyB.id - base}`));
  space.on('endContact', (e) => events.push(`e${e.bodyA.id - base}:${e.bodyB.id - base}`));
  await space.workersReady;
  const out: Run = { hashes: [], events, asleepBeforeDrop: 0, wokenByDrop: 0, contacts: 0, failedStep: '' };
  for (let s = 0; s < 330; s++) {
    // The last pyramid is put to sleep as it settles: its manifolds are then a step older than
    // its poses, so the contacts the drop's wake reaches must be collided again in that pass.
    if (s === 3) bodies[3 + 21 * 11]!.sleep();
    if (s === 240) {
      out.asleepBeforeDrop = bodies.filter((b) => b.isSleeping).length;
      out.contacts = space.contactCount;
      add(new Body({ position: [38, 9], velocity: [0, -10], shapes: [Polygon.box(2, 2)] }));
    }
    if (s === 251) {
      // The drop box's contact with the last pyramid, made in the last step, is among the list's
      // last: removing the first pyramid's upper rows, whose contacts are among the first, moves
      // it into an early slot (a contact that goes takes the last one's place). In the next step
      // it touches there, and the wake reaches the last pyramid's own contacts, after it in the
      // list, which are then collided in the same pass (a parallel pass must do that too).
      for (const b of bodies.splice(3 + 6, 15)) space.removeBody(b);
    }
    if (s === 255) out.wokenByDrop = out.asleepBeforeDrop - bodies.filter((b) => b.isSleeping).length;
    if (s === 265) {
      add(new Body({ position: [62, 14], velocity: [0, -10], shapes: [new Circle({ radius: 1 })] }));
      add(new Body({ position: [-20, 12], shapes: [new Polygon({ vertices: [[-1, 0], [1, 0], [0, 1]] })] }));
      (bodies[7]!.shapes[0] as Polygon).vertices = [[-0.5, -0.5], [0.5, -0.5], [0.6, 0.2], [0, 0.6], [-0.6, 0.2]];
    }
    if (s === 280) {
      space.preSolve = () => {
        throw new Error('a pre-solve callback that throws');
      };
      try {
        space.step(1 / 60);
      } catch (e) {
        out.failedStep = (e as Error).message;
      }
      space.preSolve = null;
    }
    space.step(1 / 60);
    if (s % 30 === 29) out.hashes.push(hashState(bodies));
  }
  return out;
}

describe('the narrowphase with workers', () => {
  it("gives every worker count the same bits and the same events, in the same order, as the calling thread alone", async () => {
    const narrowphases = vi.spyOn(WorkerPool.prototype, 'openRange'); // (runRange opens through it too)
    const alone = await run(0);
    expect(narrowphases).not.toHaveBeenCalled();
    // The scene exercises what it should: enough contacts for the parallel pass, sleeping piles
    // that the drop wakes, events, and the failed step.
    expect(alone.contacts).toBeGreaterThanOrEqual(PARALLEL_MIN_CONTACTS);
    expect(alone.asleepBeforeDrop).toBeGreaterThan(100);
    expect(alone.wokenByDrop).toBeGreaterThan(10);
    expect(alone.events.length).toBeGreaterThan(500);
    expect(alone.failedStep).toContain('a pre-solve callback that throws');
    for (const workers of [1, 2]) {
      narrowphases.mockClear();
      const parallel = await run(workers);
      expect(narrowphases.mock.calls.filter(([cmd]) => cmd === COMMAND.NARROWPHASE).length, `${workers} workers: parallel narrowphases`).toBeGreaterThan(200);
      expect(parallel.hashes, `${workers} workers`).toEqual(alone.hashes);
      expect(parallel.events, `${workers} workers`).toEqual(alone.events);
      expect(parallel.failedStep).toBe(alone.failedStep);
    }
  }, 120_000);

  it("keeps every shape of the space in the shared geometry pool, and gives a shape that leaves its own block", async () => {
    const space = new Space({ workers: 1 });
    spaces.push(space);
    const early = space.addBody(new Body({ shapes: [Polygon.box(1, 1), new Circle({ radius: 1 })] }));
    await space.workersReady;
    const late = space.addBody(new Body({ shapes: [new Capsule({ length: 1, radius: 0.2 })] }));
    const pooled = (b: Body) => b.shapes.map((s) => s._geo.buffer instanceof SharedArrayBuffer);
    expect(pooled(early)).toEqual([true, true]);
    expect(pooled(late)).toEqual([true]);
    space.removeBody(early);
    expect(pooled(early)).toEqual([false, false]);
    // Back in a space without workers, it collides from its own block.
    const other = new Space();
    other.addBody(early);
    expect((early.shapes[0] as Polygon).worldVerts.length).toBe(8);
    expect(Array.from(early.shapes[1]!._geo)).toEqual([0, 1, (early.shapes[1] as Circle).wx, (early.shapes[1] as Circle).wy]);
  });
});
