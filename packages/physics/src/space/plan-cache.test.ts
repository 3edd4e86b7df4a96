/**
 * The step plan cache (Space._planStamp): a step that reuses the previous plan gives bitwise the
 * result of rebuilding it, the cache is really hit in a steady scene, and every change re-plans.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { DistanceJoint } from '../constraint/joints/distance-joint.js';
import { PivotJoint } from '../constraint/joints/pivot-joint.js';
import { UserConstraint } from '../constraint/user-constraint.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from './space.js';
import { hashState } from '../test-support/scenes.js';
import { solverInternals } from '../test-support/solver-routing.js';

/** A small joint grid (batched pivots, one soft), a distance joint, a user constraint and falling boxes (contacts). */
function scene(): { space: Space; bodies: Body[]; pivots: PivotJoint[] } {
  const space = new Space({ gravity: [0, -10], allowSleep: false });
  const bodies: Body[] = [];
  const n = 6;
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const fixed = j === 0 && (i === 2 || i === 3);
      bodies.push(space.addBody(new Body({ type: fixed ? 'static' : 'dynamic', position: [i, -j], shapes: [new Circle({ radius: 0.4, filter: { group: -1 } })] })));
    }
  }
  const pivots: PivotJoint[] = [];
  for (let j = 0; j < n; j++) {
    for (let i = 0; i < n; i++) {
      const a = bodies[j * n + i]!;
      if (i + 1 < n) pivots.push(space.addConstraint(new PivotJoint({ body1: a, body2: bodies[j * n + i + 1]!, anchor1: [0.5, 0], anchor2: [-0.5, 0] })));
      if (j + 1 < n) pivots.push(space.addConstraint(new PivotJoint({ body1: a, body2: bodies[(j + 1) * n + i]!, anchor1: [0, -0.5], anchor2: [0, 0.5], stiff: i !== 4, frequency: 5 })));
    }
  }
  space.addConstraint(new DistanceJoint({ body1: bodies[0]!, body2: bodies[n * n - 1]!, jointMin: 0, jointMax: 9 }));
  const a = bodies[n + 1]!;
  const b = bodies[2 * n + 4]!;
  space.addConstraint(new UserConstraint({ dimensions: 1, bodies: [a, b], hooks: { position(err) { err[0] = Math.hypot(b.x - a.x, b.y - a.y) - 3.2; } } }));
  space.addBody(new Body({ type: 'static', position: [2.5, -12], shapes: [Polygon.box(20, 1)] }));
  for (let k = 0; k < 5; k++) bodies.push(space.addBody(new Body({ position: [k * 1.1, -9 + 0.2 * k], rotation: 0.2 * k, shapes: [Polygon.box(0.8, 0.8)] })));
  return { space, bodies, pivots };
}

const DT = 1 / 60;

describe('step plan cache', () => {
  it('reusing the plan is bitwise the same as rebuilding it every step, and it is reused', () => {
    const cached = scene();
    const rebuilt = scene();
    const poke = rebuilt.bodies[7]!;
    for (let i = 0; i < 200; i++) {
      cached.space.step(DT);
      poke.velocity = poke.velocity; // an identity change: wakes nothing new, but re-plans
      rebuilt.space.step(DT);
    }
    expect(hashState(cached.bodies)).toBe(hashState(rebuilt.bodies));
    expect(cached.pivots[3]!.impulse()).toEqual(rebuilt.pivots[3]!.impulse());
    expect(solverInternals(cached.space).plan.reuses).toBeGreaterThan(190);
    expect(solverInternals(rebuilt.space).plan.reuses).toBe(0);
  });

  it('a change between steps takes effect at once (anchor, stiffness, removal, a new joint)', () => {
    const { space, bodies, pivots } = scene();
    for (let i = 0; i < 30; i++) space.step(DT);
    const reuses = solverInternals(space).plan.reuses;
    const p = pivots[0]!;
    p.anchor2 = [-0.3, 0];
    space.step(DT);
    expect(solverInternals(space).plan.reuses).toBe(reuses); // re-planned
    // the pivot now pulls its anchors together at the new place
    for (let i = 0; i < 60; i++) space.step(DT);
    const w1 = p.body1!.localPointToWorld(p.anchor1);
    const w2 = p.body2!.localPointToWorld(p.anchor2);
    expect(Math.hypot(w1.x - w2.x, w1.y - w2.y)).toBeLessThan(0.05);
    expect(solverInternals(space).plan.reuses).toBe(reuses + 60);

    space.removeConstraint(pivots[1]!);
    space.step(DT);
    expect(solverInternals(space).plan.reuses).toBe(reuses + 60);
    const extra = space.addConstraint(new PivotJoint({ body1: bodies[10]!, body2: bodies[20]!, anchor1: [0, 0], anchor2: [0, 0] }));
    for (let i = 0; i < 120; i++) space.step(DT);
    expect(Math.hypot(bodies[10]!.x - bodies[20]!.x, bodies[10]!.y - bodies[20]!.y)).toBeLessThan(0.05);
    expect(extra.impulse().some((x) => x !== 0)).toBe(true);
  });

  it('a constraint that breaks in a reused step leaves the plan consistent', () => {
    const { space, pivots } = scene();
    for (let i = 0; i < 20; i++) space.step(DT);
    const weak = pivots[5]!;
    weak.maxForce = 1e-3;
    weak.breakUnderForce = true;
    const events: unknown[] = [];
    space.on('constraintBreak', (e) => events.push(e.constraint));
    for (let i = 0; i < 30; i++) space.step(DT);
    expect(events).toEqual([weak]);
    expect(weak.space).toBe(null);
    expect(solverInternals(space).plan.reuses).toBeGreaterThan(20);
  });
});
