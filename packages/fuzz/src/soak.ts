/**
 * The soak: a pile of chains and boxes stepped for a long time, with the heap measured after a
 * full GC every `sampleEvery` steps. Nothing is left to sleep (a paddle keeps stirring the pile),
 * bodies are removed and added back, contacts begin and end, and listeners run, so every path a
 * long-running app takes is in the loop. The heap must stay flat.
 */
import { Body, Capsule, Circle, PivotJoint, Polygon, Space } from '@fulcrum/physics';
import { Rng } from './rng.js';

export interface SoakOptions {
  steps: number;
  sampleEvery: number;
  seed?: number;
  /** Called with each sample as it is taken. */
  onSample?: (s: SoakSample) => void;
}

export interface SoakSample {
  step: number;
  /** process.memoryUsage().heapUsed after global.gc(), bytes. */
  heapUsed: number;
  /** Milliseconds since the start. */
  elapsedMs: number;
  awake: number;
  contacts: number;
}

export interface SoakResult {
  samples: SoakSample[];
  bodies: number;
  joints: number;
  /** Largest relative deviation of a sample from the first one at or after `sampleEvery` steps. */
  drift: number;
  maxSpeed: number;
  finite: boolean;
  beginContacts: number;
}

export interface SoakScene {
  space: Space;
  bodies: number;
  joints: number;
  /** One step's worth of the soak's own activity (the paddle, the churn). */
  tick(step: number): void;
}

/** About 150 bodies: 6 chains of 12 links (6 m) from static anchors 18 m up, 70 boxes and balls on a ground, a paddle. */
export function buildSoakScene(seed = 7): SoakScene {
  const rng = new Rng(seed);
  const space = new Space({ gravity: [0, -10], allowSleep: false });
  space.addBody(new Body({ type: 'static', shapes: [Polygon.box(40, 1, { offset: [0, -0.5] }), Polygon.box(1, 30, { offset: [-12.5, 15] }), Polygon.box(1, 30, { offset: [12.5, 15] })] }));
  let joints = 0;
  for (let c = 0; c < 6; c++) {
    const x0 = -11 + 2 * c;
    const top = space.addBody(new Body({ type: 'static', position: [x0, 18], shapes: [new Circle({ radius: 0.1 })] }));
    let prev = top;
    for (let i = 0; i < 12; i++) {
      const link = space.addBody(new Body({ position: [x0 + 0.25 + 0.5 * i, 18], mass: rng.float(0.2, 2), shapes: [new Capsule({ length: 0.4, radius: 0.06, filter: { group: -1 - c } })] }));
      space.addConstraint(new PivotJoint({ body1: prev, body2: link, anchor1: prev === top ? [0, 0] : [0.25, 0], anchor2: [-0.25, 0] }));
      joints++;
      prev = link;
    }
  }
  const loose: Body[] = [];
  const addLoose = (): Body => {
    const x = rng.float(-10, 10);
    const y = rng.float(2, 12);
    const shape = rng.chance(0.6) ? Polygon.box(rng.float(0.3, 1), rng.float(0.3, 1)) : new Circle({ radius: rng.float(0.15, 0.5) });
    const b = space.addBody(new Body({ position: [x, y], rotation: rng.float(-1, 1), shapes: [shape] }));
    loose.push(b);
    return b;
  };
  for (let i = 0; i < 70; i++) addLoose();
  // The paddle turns about a point 5 m up, so its tips (3 m out) clear the ground, and sweeps
  // between x = −6 and 6, so they clear the walls.
  const paddle = space.addBody(new Body({ type: 'kinematic', position: [-6, 5], angularVel: 1.2, shapes: [Polygon.box(6, 0.3)] }));
  const spare: Body[] = [];
  const tick = (step: number): void => {
    // Sweep the paddle back and forth across the pile: 12 m in 600 steps each way.
    if (step % 600 === 1) paddle.velocity = [step % 1200 === 1 ? 1.2 : -1.2, 0];
    // Churn: every 250 steps a loose body leaves and comes back (or a new one comes), so bodies,
    // proxies and contacts are created and destroyed all the time.
    if (step % 250 === 0) {
      const b = loose.splice(rng.int(0, loose.length - 1), 1)[0]!;
      space.removeBody(b);
      spare.push(b);
      if (spare.length > 3) {
        const back = spare.shift()!;
        back.position = [rng.float(-10, 10), rng.float(8, 14)];
        back.velocity = [0, 0];
        space.addBody(back);
        loose.push(back);
      } else addLoose();
    }
    // A body far out (thrown over the walls) comes back in.
    if (step % 1000 === 0) {
      for (const b of loose) {
        if (Math.abs(b.x) > 13 || b.y < -5 || b.y > 40) {
          b.position = [rng.float(-8, 8), rng.float(8, 14)];
          b.velocity = [0, 0];
        }
      }
    }
  };
  return { space, bodies: space.bodies.length, joints, tick };
}

export function runSoak(o: SoakOptions): SoakResult {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (typeof gc !== 'function') throw new Error('the soak measures the heap after a full GC: run node with --expose-gc');
  const scene = buildSoakScene(o.seed);
  const space = scene.space;
  let beginContacts = 0;
  space.on('beginContact', () => beginContacts++);
  const samples: SoakSample[] = [];
  const t0 = performance.now();
  let maxSpeed = 0;
  let finite = true;
  for (let step = 1; step <= o.steps; step++) {
    scene.tick(step);
    space.step(1 / 60);
    if (step % 100 === 0) {
      for (const b of space.bodies) {
        const v = b.velocity;
        const s = Math.hypot(v.x, v.y);
        if (!(Number.isFinite(s) && Number.isFinite(b.x) && Number.isFinite(b.y))) finite = false;
        if (s > maxSpeed) maxSpeed = s;
      }
    }
    if (step % o.sampleEvery === 0) {
      gc();
      gc();
      const sample = { step, heapUsed: process.memoryUsage().heapUsed, elapsedMs: performance.now() - t0, awake: space.countAwakeIslands(), contacts: space.contactCount };
      samples.push(sample);
      o.onSample?.(sample);
    }
  }
  const base = samples[0]?.heapUsed ?? 0;
  let drift = 0;
  for (const s of samples) drift = Math.max(drift, Math.abs(s.heapUsed - base) / base);
  return { samples, bodies: scene.bodies, joints: scene.joints, drift, maxSpeed, finite, beginContacts };
}

export function formatSample(s: SoakSample, base: number): string {
  const mb = (b: number): string => (b / 1048576).toFixed(2);
  const d = ((s.heapUsed - base) / base) * 100;
  return `${String(s.step).padStart(7)} steps  heap ${mb(s.heapUsed)} MB (${d >= 0 ? '+' : ''}${d.toFixed(2)}%)  ${(s.elapsedMs / 1000).toFixed(1)} s  ${s.contacts} contacts`;
}
