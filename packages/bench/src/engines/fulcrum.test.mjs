// The Fulcrum adapter's UserConstraint pivots: scene E's bulk kernel must move the grid exactly as
// scene I's hooks do (the engine's promise for a correct kernel), and both must hold like scene C.
import { describe, expect, it } from 'vitest';
import { SIZES, buildScene, worstSeparation } from '../scenes.mjs';
import { create } from './fulcrum.mjs';

async function run(id, steps) {
  const spec = buildScene(id, SIZES.quick);
  const sim = await create(spec);
  for (let i = 0; i < steps; i++) sim.step();
  return { spec, sim, poses: spec.bodies.flatMap((_, k) => sim.pose(k)) };
}

describe('Fulcrum adapter: UserConstraint pivots', () => {
  it('scene E (bulk kernel) steps bitwise like scene I (hooks alone), and holds as scene C does', async () => {
    const e = await run('E', 60);
    const i = await run('I', 60);
    const c = await run('C', 60);
    expect(e.sim.settings.joint).toMatch(/batchKernel/);
    expect(i.sim.settings.joint).toMatch(/hooks only/);
    for (let k = 0; k < e.poses.length; k++) if (!Object.is(e.poses[k], i.poses[k])) expect.fail(`value ${k}: ${e.poses[k]} vs ${i.poses[k]}`);
    const sepE = worstSeparation(e.spec, e.sim.pose);
    const sepC = worstSeparation(c.spec, c.sim.pose);
    expect(sepE).toBeLessThan(2 * sepC + 1e-3);
    // The grid really sagged.
    const drop = Math.max(...e.spec.bodies.map((b, k) => b.y - e.poses[3 * k + 1]));
    expect(drop).toBeGreaterThan(0.01);
  });
});
