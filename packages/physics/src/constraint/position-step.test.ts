/**
 * The position pass's damped step (position-step.ts) on every solver path that has a position
 * pass: the one-by-one joints, the joint batch (pivots), joint islands, and UserConstraint one by
 * one and in the user batch. Each pass turns a body by at most MAX_POSITION_TURN, a large error
 * still goes to 0, and the fuzz's scenes that a full Newton step threw 1e5 m in one step stay put.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from '../space/space.js';
import { AngleJoint } from './joints/angle-joint.js';
import { PivotJoint } from './joints/pivot-joint.js';
import { WeldJoint } from './joints/weld-joint.js';
import { BODY_STATE_STRIDE, BodyState } from './body-state.js';
import { UserConstraint } from './user-constraint.js';
import type { Constraint } from './constraint.js';
import { limitTurn, MAX_POSITION_TURN } from './position-step.js';
import { setSolverRouting } from '../test-support/solver-routing.js';
import { weldedBallOnRange } from '../test-support/scenes.js';

/** A stiff pivot in Jacobian form (anchors in body frame, packed state): the user batch takes it. */
class UserPivot extends UserConstraint {
  constructor(b1: Body, b2: Body, private readonly a1: readonly [number, number], private readonly a2: readonly [number, number]) {
    super({ dimensions: 2, packedState: true, bodies: [b1, b2] });
  }
  private arm(st: Float64Array, o: number, a: readonly [number, number]): [number, number] {
    const c = st[o + BodyState.cos]!, s = st[o + BodyState.sin]!;
    return [c * a[0] - s * a[1], s * a[0] + c * a[1]];
  }
  override position(err: Float64Array, st: Float64Array): void {
    const r1 = this.arm(st, 0, this.a1);
    const r2 = this.arm(st, BODY_STATE_STRIDE, this.a2);
    err[0] = st[BODY_STATE_STRIDE + BodyState.x]! + r2[0] - (st[BodyState.x]! + r1[0]);
    err[1] = st[BODY_STATE_STRIDE + BodyState.y]! + r2[1] - (st[BodyState.y]! + r1[1]);
  }
  override jacobian(J: Float64Array, st: Float64Array): void {
    const r1 = this.arm(st, 0, this.a1);
    const r2 = this.arm(st, BODY_STATE_STRIDE, this.a2);
    J.set([-1, 0, r1[1], 1, 0, -r2[1], 0, -1, -r1[0], 0, 1, r2[0]]);
  }
}

type Path = 'joint one by one' | 'joint batch' | 'weld' | 'joint island' | 'user one by one' | 'user batch';
const PATHS: Path[] = ['joint one by one', 'joint batch', 'weld', 'joint island', 'user one by one', 'user batch'];

/**
 * A 0.06 × 0.03 m box pinned to the ground by an anchor 1 m from its centre, started turned 2 rad
 * away from where the pin holds, at rest, with no gravity: only the position passes move it.
 */
function pinnedFarFromCentre(path: Path): { space: Space; box: Body; error: () => number } {
  const space = new Space({ gravity: [0, 0] });
  setSolverRouting(space, { jointBatch: path === 'joint batch', userBatch: path === 'user batch', jointIsland: path === 'joint island' });
  const ground = space.addBody(new Body({ type: 'static' }));
  const box = space.addBody(new Body({ position: [0, 0], rotation: 2, mass: 0.2, shapes: [Polygon.box(0.06, 0.03)] }));
  // Holds at rotation 0: the anchor [1, 0] on the box at the world point [1, 0].
  let pin: Constraint;
  if (path === 'weld') pin = new WeldJoint({ body1: ground, body2: box, anchor1: [1, 0], anchor2: [1, 0] });
  else if (path.startsWith('user')) pin = new UserPivot(ground, box, [1, 0], [1, 0]);
  else pin = new PivotJoint({ body1: ground, body2: box, anchor1: [1, 0], anchor2: [1, 0] });
  space.addConstraint(pin);
  if (path === 'joint island') {
    // A second joint makes an island of two: a free ring on the box, held at its own angle.
    const ring = space.addBody(new Body({ position: [0, 0], mass: 0.1, shapes: [new Circle({ radius: 0.02 })] }));
    space.addConstraint(new PivotJoint({ body1: box, body2: ring, anchor1: [0, 0], anchor2: [0, 0] }));
  }
  const error = () => {
    const c = Math.cos(box.rotation), s = Math.sin(box.rotation);
    return Math.hypot(box.x + c - 1, box.y + s);
  };
  return { space, box, error };
}

describe('the position pass turns no body more than MAX_POSITION_TURN per pass', () => {
  it('limitTurn keeps a factor that fits, and lowers one that does not', () => {
    expect(limitTurn(1, 0.1)).toBe(1);
    expect(limitTurn(1, -MAX_POSITION_TURN)).toBe(1);
    expect(limitTurn(1, 1)).toBe(MAX_POSITION_TURN);
    expect(limitTurn(1, -2)).toBe(MAX_POSITION_TURN / 2);
    // The smallest factor wins, whatever the order.
    expect(limitTurn(limitTurn(1, 2), 1)).toBe(MAX_POSITION_TURN / 2);
    expect(limitTurn(limitTurn(1, 1), 2)).toBe(MAX_POSITION_TURN / 2);
  });

  for (const path of PATHS) {
    it(`a large error is removed over several passes, each turning the body at most ${MAX_POSITION_TURN} rad (${path})`, () => {
      const { space, box, error } = pinnedFarFromCentre(path);
      let turns = 0;
      let last = error();
      expect(last).toBeGreaterThan(1.5);
      for (let i = 0; i < 40; i++) {
        const before = box.rotation;
        space.step(1 / 60, 4, 1);
        const turn = Math.abs(box.rotation - before);
        expect(turn).toBeLessThanOrEqual(MAX_POSITION_TURN * (1 + 1e-12));
        if (turn > MAX_POSITION_TURN * 0.999) turns++;
        // Never worse than before (a full Newton step from 2 rad overshoots).
        expect(error()).toBeLessThanOrEqual(last + 1e-9);
        last = error();
      }
      // The damping acted (the first passes were cut to the limit), and the pin holds at the end.
      expect(turns).toBeGreaterThanOrEqual(1);
      expect(error()).toBeLessThan(1e-9);
    });
  }

  it('a pass whose turns are all within the limit is a full Newton step (a small error is gone in one pass)', () => {
    for (const path of PATHS) {
      const { space, box, error } = pinnedFarFromCentre(path);
      box.rotation = 0.01;
      const e0 = error();
      space.step(1 / 60, 4, 1);
      // One Newton step on an error of 1e-2 leaves about its square.
      expect(error(), path).toBeLessThan(e0 * e0);
    }
  });

  it('fuzz seed 1253833093: a free 0.2 kg body welded far from its centre to a small ball on a distance range does not jump in the first 30 steps (was 1e5 m in one step; joint-island.test.ts follows it for 600 steps)', () => {
    const { space } = weldedBallOnRange();
    let worst = 0;
    for (let i = 0; i < 30; i++) {
      const before = space.bodies.map((b) => [b.x, b.y] as const);
      space.step(1 / 60, 4, 2);
      space.bodies.forEach((b, k) => (worst = Math.max(worst, Math.hypot(b.x - before[k]![0], b.y - before[k]![1]))));
    }
    // Falling at 20 m/s² from a 27 m/s throw, no body moves 2 m in a step within the first half second.
    expect(worst).toBeLessThan(2);
  });

  it('an island of an AngleJoint and a pivot is damped as one (the turn summed over its joints)', () => {
    const space = new Space({ gravity: [0, 0] });
    const ground = space.addBody(new Body({ type: 'static' }));
    const box = space.addBody(new Body({ rotation: 1.5, mass: 0.2, shapes: [Polygon.box(0.06, 0.03)] }));
    space.addConstraint(new PivotJoint({ body1: ground, body2: box, anchor1: [0, 0], anchor2: [0, 0] }));
    space.addConstraint(new AngleJoint({ body1: ground, body2: box, jointMin: 0, jointMax: 0 }));
    const before = box.rotation;
    space.step(1 / 60, 4, 1);
    expect(Math.abs(box.rotation - before)).toBeCloseTo(MAX_POSITION_TURN, 12);
  });
});
