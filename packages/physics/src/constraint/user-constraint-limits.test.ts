/**
 * UserConstraint's limited rows (limits, setLimit): the same physics as the built-in joints'
 * limits (DistanceJoint, LineJoint), the user batch bitwise equal to the one-by-one path, and
 * bad limits rejected whole.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from '../space/space.js';
import { setSolverRouting, solverInternals } from '../test-support/solver-routing.js';
import { anchor, rope } from '../test-support/user-ropes.js';
import { BODY_STATE_STRIDE, BodyState } from './body-state.js';
import type { Constraint } from './constraint.js';
import { DistanceJoint } from './joints/distance-joint.js';
import { LineJoint } from './joints/line-joint.js';
import { UserConstraint, type UserConstraintOptions } from './user-constraint.js';

const noCollide = { filter: { mask: 0 } };
type V2 = [number, number];

/** Two rows, both limited: anchor2 stays in a box [−half, half]² around anchor1 (world axes). */
function slotBox(a: Body, b: Body, a1: V2, a2: V2, half: number, extra: Partial<UserConstraintOptions> = {}): UserConstraint {
  return new UserConstraint({
    dimensions: 2,
    packedState: true,
    bodies: [a, b],
    limits: [[-half, half], [-half, half]],
    hooks: {
      position(err, st) {
        const p = anchor(st, 0, a1);
        const q = anchor(st, 1, a2);
        err[0] = q.px - p.px;
        err[1] = q.py - p.py;
      },
      jacobian(J, st) {
        const p = anchor(st, 0, a1);
        const q = anchor(st, 1, a2);
        J.set([-1, 0, p.ry, 1, 0, -q.ry, 0, -1, -p.rx, 0, 1, q.rx]);
      },
    },
    ...extra,
  });
}

/** LineJoint's rows as a UserConstraint: row 0 (across the line) an equality, row 1 (along it) limited. */
function userLine(a: Body, b: Body, a1: V2, a2: V2, dir: V2, lo: number, hi: number): UserConstraint {
  const ul = Math.hypot(dir[0], dir[1]);
  const ux = dir[0] / ul;
  const uy = dir[1] / ul;
  const rows = (st: Float64Array) => {
    const p = anchor(st, 0, a1);
    const q = anchor(st, 1, a2);
    const c = st[BodyState.cos]!;
    const s = st[BodyState.sin]!;
    const nx = c * ux - s * uy;
    const ny = s * ux + c * uy;
    const dx = q.px - p.px;
    const dy = q.py - p.py;
    return { p, q, nx, ny, dx, dy, lx: p.rx + dx, ly: p.ry + dy };
  };
  return new UserConstraint({
    dimensions: 2,
    packedState: true,
    bodies: [a, b],
    limits: [null, [lo, hi]],
    hooks: {
      position(err, st) {
        const { nx, ny, dx, dy } = rows(st);
        err[0] = nx * dy - ny * dx;
        err[1] = nx * dx + ny * dy;
      },
      jacobian(J, st) {
        const { q, nx, ny, lx, ly } = rows(st);
        J.set([ny, -nx, -(nx * lx + ny * ly), -ny, nx, nx * q.rx + ny * q.ry, -nx, -ny, -(lx * ny - ly * nx), nx, ny, q.rx * ny - q.ry * nx]);
      },
    },
  });
}

function box(space: Space, x: number, y: number, rotation = 0, velocity: V2 = [0, 0]): Body {
  return space.addBody(new Body({ position: [x, y], rotation, velocity, angularVel: 0.7, shapes: [Polygon.box(0.6, 0.3, { offset: [0.1, 0.05], ...noCollide })] }));
}

/** Everything observable of a scene, as exact numbers. */
function snapshot(bodies: Body[], cs: Constraint[]): number[] {
  const out: number[] = [];
  for (const b of bodies) out.push(b.x, b.y, b.rotation, b.velocity.x, b.velocity.y, b.angularVel);
  for (const c of cs) {
    out.push(...c.impulse());
    for (const b of c.bodies) {
      const i = c.bodyImpulse(b);
      out.push(i.x, i.y, i.z);
    }
  }
  return out;
}

/** A pendulum of two boxes on limited rows, with the built-in DistanceJoint or a user rope. */
function ropeScene(user: boolean, islands = false, soft = false) {
  const space = new Space({ gravity: [0, -10] });
  // Two ropes on a light box make a joint island; the batch's own tests keep them in the batch.
  setSolverRouting(space, { jointIsland: islands });
  const ground = space.addBody(new Body({ type: 'static', position: [0, 3] }));
  const a = box(space, 0.95, 3, 0.3, [0, 2]);
  const b = box(space, 1.9, 2.6, -0.2, [1, 0]);
  const make = (b1: Body, b2: Body, a1: V2, a2: V2, lo: number, hi: number): Constraint =>
    user
      ? rope(b1, b2, a1, a2, lo, hi, soft ? { stiff: false, frequency: 3, damping: 0.4 } : {})
      : new DistanceJoint({ body1: b1, body2: b2, anchor1: a1, anchor2: a2, jointMin: lo, jointMax: hi, ...(soft ? { stiff: false, frequency: 3, damping: 0.4 } : {}) });
  const cs = [make(ground, a, [0, 0], [-0.2, 0], 0.9, 1.1), make(a, b, [0.2, 0], [-0.2, 0.1], 0.5, 0.8)];
  for (const c of cs) space.addConstraint(c);
  return { space, bodies: [a, b], cs };
}

/**
 * Steps the built-in ropes (B) and the user ropes (U) of ropeScene side by side for 240 steps,
 * checks at each step that they agree (the user rows on the path `islands` asks for, the first
 * rope's net impulse as the built-in one reports it), and hands each step's first rope length and
 * impulse to `each`. Returns the worst position difference.
 */
function stepRopesSideBySide(islands: boolean, soft: boolean, each: (length: number, impulse: number) => void): number {
  const B = ropeScene(false, islands, soft);
  const U = ropeScene(true, islands, soft);
  let worst = 0;
  for (let i = 0; i < 240; i++) {
    B.space.step(1 / 60);
    U.space.step(1 / 60);
    expect(solverInternals(U.space).userBatch.count).toBe(islands ? 0 : 2);
    expect(B.space._pipeline.jointIslands.takes(B.cs[0]!)).toBe(islands);
    for (let k = 0; k < 2; k++) worst = Math.max(worst, Math.abs(B.bodies[k]!.x - U.bodies[k]!.x), Math.abs(B.bodies[k]!.y - U.bodies[k]!.y));
    const imp = U.cs[0]!.impulse()[0]!;
    // The net impulse of a limited row is what the built-in joint reports.
    expect(imp).toBeCloseTo(B.cs[0]!.impulse()[0]!, 6);
    const end = U.bodies[0]!.localPointToWorld([-0.2, 0]);
    each(Math.hypot(end.x, end.y - 3), imp);
  }
  return worst;
}

describe('UserConstraint limits', () => {
  for (const islands of [false, true]) {
    it(`a limited row steps like the built-in DistanceJoint: slack between its bounds, held at them (${islands ? 'both as joint islands' : 'the user batch'})`, () => {
      let taut = 0;
      let slack = 0;
      const worst = stepRopesSideBySide(islands, false, (len, imp) => {
        if (imp === 0) slack++;
        else taut++;
        expect(len).toBeGreaterThan(0.9 - 1e-3);
        expect(len).toBeLessThan(1.1 + 1e-3);
      });
      expect(worst).toBeLessThan(1e-9);
      // The rope both pulled and hung slack during the run.
      expect(taut).toBeGreaterThan(20);
      expect(slack).toBeGreaterThan(20);
    });

    it(`a soft limited row steps like the built-in soft DistanceJoint range, to 1e-9 (${islands ? 'both as joint islands' : 'the user batch'})`, () => {
      let stretched = 0;
      const worst = stepRopesSideBySide(islands, true, (len) => {
        if (len > 1.1 + 1e-3) stretched++;
      });
      expect(worst).toBeLessThan(1e-9);
      // A spring, not a rod: the rope stretched past its bound.
      expect(stretched).toBeGreaterThan(20);
    });
  }

  it('mixed rows (an equality and a limited one) step like the built-in LineJoint', () => {
    const scene = (user: boolean) => {
      const space = new Space({ gravity: [0, -10] });
      const ground = space.addBody(new Body({ type: 'static', position: [0, 0] }));
      const a = box(space, 0.2, -0.1, 0.4, [2, -1]);
      const c = user ? userLine(ground, a, [0, 0], [0.1, 0], [1, -0.5], -0.3, 0.4) : new LineJoint({ body1: ground, body2: a, anchor1: [0, 0], anchor2: [0.1, 0], direction: [1, -0.5], jointMin: -0.3, jointMax: 0.4 });
      space.addConstraint(c);
      return { space, a, c };
    };
    const B = scene(false);
    const U = scene(true);
    let worst = 0;
    let atBound = 0;
    for (let i = 0; i < 240; i++) {
      B.space.step(1 / 60);
      U.space.step(1 / 60);
      // A mix of equality and limited rows is solved one by one.
      expect(solverInternals(U.space).userBatch.count).toBe(0);
      worst = Math.max(worst, Math.abs(B.a.x - U.a.x), Math.abs(B.a.y - U.a.y), Math.abs(B.a.rotation - U.a.rotation));
      if (U.c.impulse()[1] !== 0) atBound++;
    }
    expect(worst).toBeLessThan(1e-9);
    expect(atBound).toBeGreaterThan(20);
  });

  it('batched limited rows step bitwise like the one-by-one path (stiff, soft, one-sided, two rows, a limit changed mid-run)', () => {
    const scene = (batched: boolean) => {
      const space = new Space({ gravity: [0, -10] });
      setSolverRouting(space, { userBatch: batched, jointIsland: false });
      const ground = space.addBody(new Body({ type: 'static', position: [0, 3] }));
      const b = [box(space, 1, 3, 0.2, [1, 1]), box(space, 2, 3), box(space, 3, 2.5, 0.5), box(space, 4, 2.5, 0, [0, 3]), box(space, 1, 1)];
      const cs = [
        rope(ground, b[0]!, [0, 0], [-0.2, 0], 0.8, 1.1),
        rope(b[0]!, b[1]!, [0.2, 0], [-0.2, 0], -Infinity, 0.9),
        rope(b[1]!, b[2]!, [0.2, 0], [-0.2, 0], 0.5, 0.7, { stiff: false, frequency: 4, damping: 0.3, maxForce: 40 }),
        slotBox(b[2]!, b[3]!, [0.2, 0], [-0.2, 0], 0.3),
        slotBox(ground, b[4]!, [1, -2], [0, 0], 0.2, { stiff: false, frequency: 6, damping: 0.7, maxError: 0.05 }),
      ];
      for (const c of cs) space.addConstraint(c);
      return { space, bodies: b, cs };
    };
    const A = scene(true);
    const B = scene(false);
    let engaged = 0;
    for (let i = 0; i < 200; i++) {
      if (i === 80) for (const S of [A, B]) (S.cs[1] as UserConstraint).setLimit(0, [0.6, 0.7]);
      A.space.step(1 / 60);
      B.space.step(1 / 60);
      expect(snapshot(A.bodies, A.cs), `step ${i}`).toEqual(snapshot(B.bodies, B.cs));
      expect(solverInternals(A.space).userBatch.count).toBe(5);
      expect(solverInternals(B.space).userBatch.count).toBe(0);
      if (A.cs[3]!.impulse()[0] !== 0) engaged++;
    }
    expect(engaged).toBeGreaterThan(10);
    expect(A.bodies.every((b) => Number.isFinite(b.x) && Number.isFinite(b.y))).toBe(true);
  });

  it('limits work with a finite-difference Jacobian (position() only)', () => {
    const space = new Space({ gravity: [0, -10] });
    const ground = space.addBody(new Body({ type: 'static', position: [0, 3] }));
    const a = box(space, 0.5, 3, 0, [3, 0]);
    const c = space.addConstraint(
      new UserConstraint({
        dimensions: 1,
        bodies: [ground, a],
        limits: [[0.4, 1]],
        hooks: {
          position(err) {
            err[0] = Math.hypot(a.x, a.y - 3);
          },
        },
      }),
    );
    let maxLen = 0;
    for (let i = 0; i < 180; i++) {
      space.step(1 / 60);
      maxLen = Math.max(maxLen, Math.hypot(a.x, a.y - 3));
    }
    expect(maxLen).toBeGreaterThan(0.99);
    expect(maxLen).toBeLessThan(1.002);
    // Held at jointMax: the upper side pulls, so the row's net impulse is negative.
    expect(c.impulse()[0]).toBeLessThan(0);
  });

  it('breakUnderError measures how far C is outside its limits, not C itself', () => {
    const space = new Space({ gravity: [0, 0] });
    const ground = space.addBody(new Body({ type: 'static', position: [0, 3] }));
    const a = box(space, 1, 3);
    const c = space.addConstraint(rope(ground, a, [0, 0], [-0.1, -0.05], 0.5, 2, { breakUnderError: true, maxError: 0.1, removeOnBreak: false }));
    space.step(1 / 60);
    // C ≈ 0.9 is within [0.5, 2]: no error, although |C| > maxError.
    expect(c.active).toBe(true);
  });

  describe('bad limits are rejected whole', () => {
    const two = () => {
      const space = new Space();
      return { space, a: box(space, 0, 0), b: box(space, 1, 0) };
    };
    it('in the options', () => {
      const { a, b } = two();
      const mk = (limits: unknown, extra: Partial<UserConstraintOptions> = {}) => () => rope(a, b, [0, 0], [0, 0], 0, 1, { limits: limits as UserConstraintOptions['limits'], ...extra });
      expect(mk([[0, 1], null])).toThrow(/limits must be an array with one entry per row \(dimensions = 1\)/);
      expect(mk([[NaN, 1]])).toThrow(/limits\[0\]\[0\] must be a number/);
      expect(mk([[2, 1]])).toThrow(/limits\[0\] must have jointMin ≤ jointMax/);
      expect(mk([[Infinity, Infinity]])).toThrow(/limits\[0\]\[0\] must be below \+Infinity/);
      expect(mk([[0]])).toThrow(/limits\[0\] must be \[jointMin, jointMax\]/);
      expect(mk([[0, 1]], { velocityOnly: true })).toThrow(/velocityOnly/);
      try {
        mk([[0, 'x']])();
        expect.unreachable();
      } catch (e) {
        expect((e as { prop?: string }).prop).toBe('limits[0][1]');
      }
    });
    it('by setLimit, leaving the old limits in place', () => {
      const { space, a, b } = two();
      const c = space.addConstraint(rope(a, b, [0, 0], [0, 0], 0.5, 1));
      expect(() => c.setLimit(1, [0, 1])).toThrow(/setLimit\(row\)/);
      expect(() => c.setLimit(0, [1, 0.5])).toThrow(/jointMin ≤ jointMax/);
      expect(c.limit(0)).toEqual([0.5, 1]);
      c.setLimit(0, [-Infinity, 2]);
      expect(c.limit(0)).toEqual([-Infinity, 2]);
      c.setLimit(0, null);
      expect(c.limit(0)).toBeNull();
      space.step(1 / 60);
      expect(Number.isFinite(a.x)).toBe(true);
    });
    it('with hooks that replace what limits do, before the step changes anything', () => {
      const { space, a, b } = two();
      const c = rope(a, b, [0, 0], [0, 0], 0.5, 1);
      c.hooks = { ...c.hooks, velocity(err) { err[0] = 0; } };
      space.addConstraint(c);
      const x = a.x;
      expect(() => space.step(1 / 60)).toThrow(/limits cannot be combined with the hook velocity/);
      expect(a.x).toBe(x);
      c.hooks = { ...c.hooks, velocity: undefined, effMass(eff) { eff[0] = 1; }, impulse(_imp, _b, out) { out.x = out.y = out.z = 0; } };
      expect(() => space.step(1 / 60)).toThrow(/limits cannot be combined with the hook effMass\/impulse/);
      c.setLimit(0, null);
      c.hooks = { ...c.hooks, effMass: undefined, impulse: undefined };
      space.step(1 / 60);
    });
  });
});
