/** The harness's own checks catch what they are for (so a zero in the figures means something). */
import { describe, expect, it } from 'vitest';
import { combined, hashWorld } from './hash.js';
import { replay } from './repro.js';
import { sceneSeed, Rng } from './rng.js';
import { SceneRun, Stats } from './run.js';
import { runScene } from './fuzz.js';
import { World } from './world.js';

function world(): { w: World; run: SceneRun } {
  const w = new World();
  const run = new SceneRun(w, new Stats(), 1, 0, 'pile');
  w.run(`$space = new Space({ gravity: [0, -10] }); $other = new Space()`, 'space');
  w.run(`$s1 = new Circle({ radius: 0.5 }); $b1 = $space.addBody(new Body({ position: [0, 2], shapes: [$s1] }))`, 'body');
  w.bodies.push('b1');
  w.shapes.push('s1');
  return { w, run };
}

describe('the harness', () => {
  it('is seeded: the same seed draws the same numbers, scene seeds differ', () => {
    const a = new Rng(5);
    const b = new Rng(5);
    expect(Array.from({ length: 5 }, () => a.u32())).toEqual(Array.from({ length: 5 }, () => b.u32()));
    expect(new Set(Array.from({ length: 100 }, (_, i) => sceneSeed(1, i))).size).toBe(100);
  });

  it('hashes every observable change', () => {
    const { w } = world();
    const h0 = combined(hashWorld(w));
    w.exec('$b1.velocity = [0, 1e-300]');
    const h1 = combined(hashWorld(w));
    expect(h1).not.toBe(h0);
    w.exec('$s1.friction = 0.5');
    expect(combined(hashWorld(w))).not.toBe(h1);
  });

  it('flags an accepted invalid call, a wrong error class and a half-applied one', () => {
    let { run } = world();
    run.reject('$space.gravity = [0, -9]', 'accepted', 'input');
    expect(run.failures.map((f) => f.category)).toEqual(['invalid-accepted']);
    ({ run } = world());
    run.reject('null.x', 'TypeError', 'input');
    expect(run.failures.map((f) => f.category)).toEqual(['unexpected-throw']);
    ({ run } = world());
    run.reject(`$b1.position = [5, 5]; $b1.mass = -1`, 'half', 'input');
    expect(run.failures.map((f) => f.category)).toEqual(['half-applied']);
  });

  it('flags a blow-up and a valid call that throws', () => {
    let { run } = world();
    // The speed cap off (it would hold the body at 400 m/s).
    run.valid('$space.maxLinearSpeed = Infinity; $b1.velocity = [2e6, 0]', 'fast');
    run.step();
    expect(run.failures.map((f) => f.category)).toEqual(['blow-up']);
    ({ run } = world());
    run.valid('$b1.mass = 0', 'bad');
    expect(run.failures.map((f) => f.category)).toEqual(['unexpected-throw']);
  });

  it('counts a scene once per default speed cap a body reaches, as undriven when no driver reaches it', () => {
    const stats = new Stats();
    const w = new World();
    const run = new SceneRun(w, stats, 1, 0, 'pile');
    w.run(`$space = new Space({ gravity: [0, -10] }); $other = new Space()`, 'space');
    w.run(`$b1 = $space.addBody(new Body({ velocity: [500, 0], angularVel: 1000, shapes: [Polygon.box(0.5, 0.5)] }))`, 'body');
    w.run(`$b2 = $space.addBody(new Body({ position: [5, 0], shapes: [new Circle({ radius: 0.5 })] }))`, 'body');
    w.bodies.push('b1', 'b2');
    for (let i = 0; i < 3; i++) run.step();
    expect([stats.speedCapScenes, stats.speedCapUndriven, stats.spinCapScenes, stats.spinCapUndriven]).toEqual([1, 1, 1, 1]);
    expect(stats.capUndrivenSeeds).toEqual([1]);
    // A body a kinematic one drags through a joint at the cap is driven.
    const driven = new Stats();
    const w2 = new World();
    const run2 = new SceneRun(w2, driven, 2, 0, 'pile');
    w2.run(`$space = new Space(); $other = new Space()`, 'space');
    w2.run(`$k = $space.addBody(new Body({ type: 'kinematic', velocity: [450, 0] })); $b = $space.addBody(new Body({ position: [1, 0], shapes: [new Circle({ radius: 0.1 })] }))`, 'body');
    w2.run(`$c = $space.addConstraint(new PivotJoint({ body1: $k, body2: $b, anchor1: [1, 0] }))`, 'constraint');
    w2.bodies.push('k', 'b');
    for (let i = 0; i < 3; i++) run2.step();
    expect([driven.speedCapScenes, driven.speedCapUndriven]).toEqual([1, 0]);
  });

  it('with --caps-fail, fails an undriven scene at a default cap as a blow-up, and its replay too (not a driven one)', () => {
    process.env.FUZZ_CAPS_FAIL = '1';
    try {
      const { w, run } = world();
      run.valid('$b1.velocity = [500, 0]', 'fast');
      run.step();
      expect(run.failures.map((f) => f.category)).toEqual(['blow-up']);
      expect(run.failures[0]!.message).toMatch(/reached the speed cap, 400 m\/s .*no driver reaches it/);
      expect(replay(w.trace, 1).category).toBe('blow-up');
      const { run: driven } = world();
      driven.valid(`$k = $space.addBody(new Body({ type: 'kinematic', velocity: [450, 0] })); $space.addConstraint(new PivotJoint({ body1: $k, body2: $b1, anchor1: [0, 2] }))`, 'driven');
      driven.step();
      expect(driven.failures).toEqual([]);
    } finally {
      delete process.env.FUZZ_CAPS_FAIL;
    }
  });

  it('replays a trace as it ran, and a scene twice to the same hash', () => {
    const { w, run } = world();
    run.valid('$space.maxLinearSpeed = Infinity; $b1.velocity = [2e6, 0]', 'fast');
    expect(replay(w.trace, 1).category).toBe('blow-up');
    const seed = sceneSeed(3, 3);
    expect(runScene(seed, 3, 120, new Stats()).hash).toBe(runScene(seed, 3, 120, new Stats()).hash);
  });
});
