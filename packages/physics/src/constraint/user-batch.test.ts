/**
 * UserBatch: jacobian-form UserConstraints solved together from typed arrays must give exactly
 * the step of the one-by-one path (user-constraint.ts), for every row count, slot count and
 * softness; the read-outs, breaking, clearCache and hook errors must work the same; and the
 * constraints that need a hook every pass must stay out of the batch.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import type { Vec3 } from '../math/vec2.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from '../space/space.js';
import { BODY_STATE_STRIDE, BodyState } from './body-state.js';
import { inverse2Diag, inverse2Off } from './dense.js';
import type { UserBatchKernel } from './batch-kernel.js';
import { UserConstraint, type UserConstraintHooks, type UserConstraintOptions } from './user-constraint.js';
import { setSolverRouting, solverInternals } from '../test-support/solver-routing.js';

const noCollide = { filter: { mask: 0 } };

/** World anchor and its offset from the centre of mass, from slot `slot` of the packed state. */
function anchorIn(st: Float64Array, slot: number, ax: number, ay: number): { px: number; py: number; rx: number; ry: number } {
  return anchorAt(st, slot * BODY_STATE_STRIDE, ax, ay);
}

/** anchorIn for a body state starting at st[o]. */
function anchorAt(st: Float64Array, o: number, ax: number, ay: number): { px: number; py: number; rx: number; ry: number } {
  const c = st[o + BodyState.cos]!;
  const s = st[o + BodyState.sin]!;
  const px = st[o + BodyState.x]! + c * ax - s * ay;
  const py = st[o + BodyState.y]! + s * ax + c * ay;
  return { px, py, rx: px - st[o + BodyState.comX]!, ry: py - st[o + BodyState.comY]! };
}

function packed(dimensions: number, bodies: Body[], hooks: UserConstraintHooks, extra: Partial<UserConstraintOptions> = {}): UserConstraint {
  return new UserConstraint({ dimensions, packedState: true, bodies, hooks, ...extra });
}

/** Pivot (2 rows, 2 bodies): C = p2 − p1. */
function pivot(a: Body, b: Body, a1: [number, number], a2: [number, number], extra?: Partial<UserConstraintOptions>): UserConstraint {
  return packed(2, [a, b], {
    position(err, st) {
      const p1 = anchorIn(st, 0, ...a1);
      const p2 = anchorIn(st, 1, ...a2);
      err[0] = p2.px - p1.px;
      err[1] = p2.py - p1.py;
    },
    jacobian(J, st) {
      const r1 = anchorIn(st, 0, ...a1);
      const r2 = anchorIn(st, 1, ...a2);
      J.set([-1, 0, r1.ry, 1, 0, -r2.ry, 0, -1, -r1.rx, 0, 1, r2.rx]);
    },
  }, extra);
}

/**
 * The pivot's hooks in bulk (UserBatchKernel): the same arithmetic as pivot()'s hooks, from the
 * gathered states and pooled parameters [a1x, a1y, a2x, a2y]. Counts its calls.
 */
const kernelCalls = { jacobian: 0, position: 0 };
const PIVOT_KERNEL: UserBatchKernel = {
  paramCount: 4,
  jacobian(from, to, { states, slotState, params, J }) {
    kernelCalls.jacobian++;
    for (let i = from; i < to; i++) {
      const r1 = anchorAt(states, slotState[2 * i]!, params[4 * i]!, params[4 * i + 1]!);
      const r2 = anchorAt(states, slotState[2 * i + 1]!, params[4 * i + 2]!, params[4 * i + 3]!);
      J.set([-1, 0, r1.ry, 1, 0, -r2.ry, 0, -1, -r1.rx, 0, 1, r2.rx], 12 * i);
    }
  },
  position(from, to, { states, slotState, params, C }) {
    kernelCalls.position++;
    for (let i = from; i < to; i++) {
      const p1 = anchorAt(states, slotState[2 * i]!, params[4 * i]!, params[4 * i + 1]!);
      const p2 = anchorAt(states, slotState[2 * i + 1]!, params[4 * i + 2]!, params[4 * i + 3]!);
      C[2 * i] = p2.px - p1.px;
      C[2 * i + 1] = p2.py - p1.py;
    }
  },
};

/** pivot() whose hooks also come in bulk form. */
class KernelPivot extends UserConstraint {
  constructor(a: Body, b: Body, readonly a1: [number, number], readonly a2: [number, number], extra?: Partial<UserConstraintOptions>) {
    super({ dimensions: 2, packedState: true, bodies: [a, b], hooks: pivot(a, b, a1, a2).hooks, ...extra });
  }
  override batchKernel(): UserBatchKernel {
    return PIVOT_KERNEL;
  }
  override batchParams(out: Float64Array, at: number): void {
    out.set([...this.a1, ...this.a2], at);
  }
}

/**
 * PIVOT_KERNEL declaring J's eight constant entries (UserBatchKernel.constantJacobian): its
 * jacobian() writes only the four that depend on the state, packed.
 */
const PIVOT_CONSTANTS: [number, number][] = [[0, -1], [1, 0], [3, 1], [4, 0], [6, 0], [7, -1], [9, 0], [10, 1]];
const SPARSE_PIVOT_KERNEL: UserBatchKernel = {
  paramCount: 4,
  constantJacobian: PIVOT_CONSTANTS,
  // (J packed: only its entries 2, 5, 8 and 11, at 4i.)
  jacobian(from, to, { states, slotState, params, J }) {
    for (let i = from; i < to; i++) {
      const jo = 4 * i;
      const r1 = anchorAt(states, slotState[2 * i]!, params[4 * i]!, params[4 * i + 1]!);
      const r2 = anchorAt(states, slotState[2 * i + 1]!, params[4 * i + 2]!, params[4 * i + 3]!);
      J[jo] = r1.ry;
      J[jo + 1] = -r2.ry;
      J[jo + 2] = -r1.rx;
      J[jo + 3] = r2.rx;
    }
  },
  position: PIVOT_KERNEL.position,
};

class SparseKernelPivot extends KernelPivot {
  override batchKernel(): UserBatchKernel {
    return SPARSE_PIVOT_KERNEL;
  }
}

/**
 * PIVOT_KERNEL declaring only three of J's constant entries: the batch unpacks the kernel's packed
 * J (nine entries) into J's rows after every call.
 */
const SOME_CONSTANTS: [number, number][] = [[0, -1], [4, 0], [10, 1]];
const SOME_VARIABLE = Array.from({ length: 12 }, (_, q) => q).filter((q) => !SOME_CONSTANTS.some(([i]) => i === q));
const fullJ = new Float64Array(12);
const PARTLY_CONSTANT_KERNEL: UserBatchKernel = {
  paramCount: 4,
  constantJacobian: SOME_CONSTANTS,
  jacobian(from, to, a) {
    for (let i = from; i < to; i++) {
      PIVOT_KERNEL.jacobian(0, 1, { ...a, slotState: a.slotState.subarray(2 * i), params: a.params.subarray(4 * i), J: fullJ });
      SOME_VARIABLE.forEach((q, m) => (a.J[9 * i + m] = fullJ[q]!));
    }
  },
  position: PIVOT_KERNEL.position,
};

class PartlyConstantPivot extends KernelPivot {
  override batchKernel(): UserBatchKernel {
    return PARTLY_CONSTANT_KERNEL;
  }
}

/**
 * A probe: the sparse pivot whose C also reads every other field of both bodies' states (the
 * rotation and the velocities, scaled small), so that a position pass handing a kernel a stale or
 * partial state shows as a difference from the hooks, which are given the whole current state.
 */
const PROBE = 1e-3;
function probeTerms(st: Float64Array, o1: number, o2: number): [number, number] {
  const d = (f: number) => st[o2 + f]! - st[o1 + f]!;
  return [PROBE * (d(BodyState.rotation) + d(BodyState.vx)), PROBE * (d(BodyState.angularVel) + d(BodyState.vy))];
}
const PROBE_KERNEL: UserBatchKernel = {
  ...SPARSE_PIVOT_KERNEL,
  position(from, to, a) {
    PIVOT_KERNEL.position(from, to, a);
    for (let i = from; i < to; i++) {
      const [t0, t1] = probeTerms(a.states, a.slotState[2 * i]!, a.slotState[2 * i + 1]!);
      a.C[2 * i] = a.C[2 * i]! + t0;
      a.C[2 * i + 1] = a.C[2 * i + 1]! + t1;
    }
  },
};

class ProbePivot extends KernelPivot {
  constructor(a: Body, b: Body, a1: [number, number], a2: [number, number], extra?: Partial<UserConstraintOptions>) {
    super(a, b, a1, a2, extra);
    const hooks = this.hooks;
    this.hooks = {
      ...hooks,
      position(this: UserConstraint, err, st) {
        hooks.position!.call(this, err, st);
        const [t0, t1] = probeTerms(st, 0, BODY_STATE_STRIDE);
        err[0] = err[0]! + t0;
        err[1] = err[1]! + t1;
      },
    };
  }
  override batchKernel(): UserBatchKernel {
    return PROBE_KERNEL;
  }
}

/** Rod (1 row, 2 bodies): C = |p2 − p1| − length. */
function rod(a: Body, b: Body, length: number, extra?: Partial<UserConstraintOptions>): UserConstraint {
  return packed(1, [a, b], {
    position(err, st) {
      const p1 = anchorIn(st, 0, 0, 0);
      const p2 = anchorIn(st, 1, 0, 0);
      err[0] = Math.hypot(p2.px - p1.px, p2.py - p1.py) - length;
    },
    jacobian(J, st) {
      const p1 = anchorIn(st, 0, 0, 0);
      const p2 = anchorIn(st, 1, 0, 0);
      const dx = p2.px - p1.px, dy = p2.py - p1.py;
      const l = Math.hypot(dx, dy);
      const nx = dx / l, ny = dy / l;
      // ∂C/∂(v, ω) with the anchors at the origins, offset r from each centre of mass
      J.set([-nx, -ny, -(p1.rx * ny - p1.ry * nx), nx, ny, p2.rx * ny - p2.ry * nx]);
    },
  }, extra);
}

/** Weld (3 rows, 2 bodies): pivot rows plus θ2 − θ1 − phase. */
function weld(a: Body, b: Body, a1: [number, number], a2: [number, number], phase: number, extra?: Partial<UserConstraintOptions>): UserConstraint {
  return packed(3, [a, b], {
    position(err, st) {
      const p1 = anchorIn(st, 0, ...a1);
      const p2 = anchorIn(st, 1, ...a2);
      err[0] = p2.px - p1.px;
      err[1] = p2.py - p1.py;
      err[2] = st[BODY_STATE_STRIDE + BodyState.rotation]! - st[BodyState.rotation]! - phase;
    },
    jacobian(J, st) {
      const r1 = anchorIn(st, 0, ...a1);
      const r2 = anchorIn(st, 1, ...a2);
      J.set([-1, 0, r1.ry, 1, 0, -r2.ry, 0, -1, -r1.rx, 0, 1, r2.rx, 0, 0, -1, 0, 0, 1]);
    },
  }, extra);
}

/** Three bodies, one row: the centres' mean height stays put, C = (y1 + y2 + y3)/3 − h. */
function meanHeight(bodies: [Body, Body, Body], h: number): UserConstraint {
  return packed(1, bodies, {
    position(err, st) {
      err[0] = (st[BodyState.comY]! + st[BODY_STATE_STRIDE + BodyState.comY]! + st[2 * BODY_STATE_STRIDE + BodyState.comY]!) / 3 - h;
    },
    jacobian(J) {
      J.set([0, 1 / 3, 0, 0, 1 / 3, 0, 0, 1 / 3, 0]);
    },
  });
}

function box(space: Space, x: number, y: number, rotation = 0): Body {
  return space.addBody(new Body({ position: [x, y], rotation, angularVel: 0.5, shapes: [Polygon.box(0.8, 0.3, { offset: [0.1, 0.05], ...noCollide })] }));
}

/** Every kind of batched row: 1, 2 and 3 rows, 2 and 3 bodies, static slots, stiff and soft, force-limited. */
function mixedScene(batched: boolean) {
  const space = new Space({ gravity: [0, -10] });
  setSolverRouting(space, { userBatch: batched, jointIsland: false });
  const ground = space.addBody(new Body({ type: 'static', position: [0, 2] }));
  const b = [box(space, 1, 2, 0.2), box(space, 2, 2, -0.1), box(space, 3, 2), box(space, 4, 1.5, 0.4), box(space, 5, 1.5), box(space, 1, 0, 0.3), box(space, 2, -0.5)];
  const ball = space.addBody(new Body({ position: [3, -1], shapes: [new Circle({ radius: 0.2, ...noCollide })] }));
  const cs = [
    pivot(ground, b[0]!, [0, 0], [-0.4, 0]),
    pivot(b[0]!, b[1]!, [0.4, 0], [-0.4, 0]),
    weld(b[1]!, b[2]!, [0.4, 0], [-0.4, 0], 0.1),
    rod(b[2]!, b[3]!, 1.2),
    pivot(b[3]!, b[4]!, [0.4, 0], [-0.4, 0], { stiff: false, frequency: 3, damping: 0.4 }),
    rod(b[4]!, b[5]!, 2.5, { stiff: false, frequency: 5, damping: 0.1, maxForce: 20 }),
    weld(b[5]!, b[6]!, [0.3, 0], [-0.3, 0], -0.2, { stiff: false, frequency: 8, damping: 1, maxError: 0.05 }),
    meanHeight([b[5]!, b[6]!, ball], -0.5),
  ];
  for (const c of cs) space.addConstraint(c);
  return { space, bodies: [...b, ball], cs };
}

/** Everything observable, as exact numbers. */
function snapshot(s: ReturnType<typeof mixedScene>): number[] {
  const out: number[] = [];
  for (const b of s.bodies) out.push(b.x, b.y, b.rotation, b.velocity.x, b.velocity.y, b.angularVel);
  for (const c of s.cs) {
    out.push(...(c.impulse() as Float64Array));
    for (const b of c.bodies) {
      const i = c.bodyImpulse(b);
      out.push(i.x, i.y, i.z);
    }
  }
  return out;
}

function batchedCount(space: Space): number {
  return solverInternals(space).userBatch.count;
}

describe('UserBatch', () => {
  it('steps bitwise like the one-by-one path, through plan reuse and a change mid-run', () => {
    const A = mixedScene(true);
    const B = mixedScene(false);
    for (let i = 0; i < 180; i++) {
      if (i === 60) {
        // A removal and a body swap re-plan; the swapped constraint starts from a clear cache.
        for (const S of [A, B]) {
          S.space.removeConstraint(S.cs[7]!);
          (S.cs[3] as UserConstraint).bodyList = [S.bodies[2]!, S.bodies[4]!];
        }
        A.cs.splice(7, 1);
        B.cs.splice(7, 1);
      }
      if (i === 90) {
        // A change re-plans: a stiff joint turns soft, a soft one stiff.
        A.cs[1]!.stiff = B.cs[1]!.stiff = false;
        A.cs[4]!.stiff = B.cs[4]!.stiff = true;
      }
      A.space.step(1 / 60);
      B.space.step(1 / 60);
      const a = snapshot(A);
      const b = snapshot(B);
      for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) expect.fail(`step ${i}: value ${k} differs: ${a[k]} vs ${b[k]}`);
    }
    expect(batchedCount(A.space)).toBe(A.cs.length);
    expect(A.cs.length).toBe(7);
    expect(batchedCount(B.space)).toBe(0);
    // The scene really moved, and the force-limited rod really hit its limit.
    expect(Math.hypot(A.bodies[6]!.x - 2, A.bodies[6]!.y + 0.5)).toBeGreaterThan(0.3);
    expect(Math.abs((A.cs[5]!.impulse() as Float64Array)[0]!)).toBeGreaterThan(0);
  });

  it('a two-row constraint whose rows are nearly dependent (1e-5 apart) takes the dependent-row rule bitwise like the one-by-one path', () => {
    // Rows C0 = (p2 − p1)·x and C1 = (p2 − p1)·(cos δ, sin δ): K's second pivot is about δ² of
    // its diagonal, above the block-scale tolerance and within DEPENDENT_ROW_EPS (dense.ts).
    const d = 1e-5;
    const [dc, ds] = [Math.cos(d), Math.sin(d)];
    const scene = (batched: boolean) => {
      const space = new Space({ gravity: [0, -10] });
      setSolverRouting(space, { userBatch: batched });
      const ground = space.addBody(new Body({ type: 'static' }));
      const b = space.addBody(new Body({ position: [1, 0.5], angularVel: 2, shapes: [Polygon.box(0.4, 0.3, noCollide)] }));
      const c = packed(2, [ground, b], {
        position(err, st) {
          const p2 = anchorIn(st, 1, -0.2, 0);
          err[0] = p2.px - 0.8;
          err[1] = (p2.px - 0.8) * dc + (p2.py - 0.5) * ds;
        },
        jacobian(J, st) {
          const r = anchorIn(st, 1, -0.2, 0);
          J.set([0, 0, 0, 1, 0, -r.ry, 0, 0, 0, dc, ds, dc * -r.ry + ds * r.rx]);
        },
      });
      space.addConstraint(c);
      return { space, b };
    };
    const A = scene(true);
    const B = scene(false);
    for (let i = 0; i < 120; i++) {
      A.space.step(1 / 60);
      B.space.step(1 / 60);
      for (const [x, y] of [[A.b.x, B.b.x], [A.b.y, B.b.y], [A.b.rotation, B.b.rotation], [A.b.angularVel, B.b.angularVel]] as const) {
        if (!Object.is(x, y)) expect.fail(`step ${i}: ${x} vs ${y}`);
      }
    }
    expect(batchedCount(A.space)).toBe(1);
    expect(Math.abs(A.b.x - 1)).toBeGreaterThan(0.01);
  });

  it('runs bulk kernels (UserBatchKernel) bitwise like the hooks, stiff and soft, beside hook rows', () => {
    function kernelScene(batched: boolean) {
      const s = mixedScene(batched);
      const [b0, b1, b2, b3] = s.bodies;
      const extra = [
        new KernelPivot(b0!, b2!, [0.3, 0.1], [-0.2, 0]),
        new KernelPivot(b1!, b3!, [0.1, 0], [0, 0.1], { stiff: false, frequency: 4, damping: 0.3 }),
      ];
      for (const c of extra) s.space.addConstraint(c);
      s.cs.push(...extra);
      return s;
    }
    const A = kernelScene(true);
    const B = kernelScene(false);
    kernelCalls.jacobian = kernelCalls.position = 0;
    for (let i = 0; i < 120; i++) {
      A.space.step(1 / 60);
      B.space.step(1 / 60);
      const a = snapshot(A);
      const b = snapshot(B);
      for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) expect.fail(`step ${i}: value ${k} differs: ${a[k]} vs ${b[k]}`);
    }
    // One bulk call per pose for the group (5 poses a step), one per row and position pass, and
    // C in bulk for the soft row's spring.
    expect(kernelCalls.jacobian).toBe(120 * (5 + 2));
    expect(kernelCalls.position).toBe(120 * (5 + 2));
  });

  it('a plan of stiff pivots only (one loop per pass) steps bitwise like the one-by-one path, with and without joint bias', () => {
    /** Hook and kernel pivots in a chain from a static anchor, and a kernel pivot to a resting kinematic body. */
    function chain(batched: boolean, jointHertz: number, allKernel: boolean) {
      const space = new Space({ gravity: [0, -10], jointHertz });
      setSolverRouting(space, { userBatch: batched, jointIsland: false });
      const anchor = space.addBody(new Body({ type: 'static', position: [0, 3] }));
      const rest = space.addBody(new Body({ type: 'kinematic', position: [6, 3] }));
      const links = [0, 1, 2, 3, 4].map((i) => box(space, i + 0.5, 3, 0.1 * i));
      const cs: UserConstraint[] = [new KernelPivot(anchor, links[0]!, [0, 0], [-0.4, 0])];
      for (let i = 1; i < links.length; i++) {
        cs.push(allKernel || i % 2 === 0 ? new KernelPivot(links[i - 1]!, links[i]!, [0.4, 0], [-0.4, 0]) : pivot(links[i - 1]!, links[i]!, [0.4, 0], [-0.4, 0]));
      }
      cs.push(new KernelPivot(links[4]!, rest, [0.4, 0], [-0.6, 0]));
      for (const c of cs) space.addConstraint(c);
      return { space, bodies: links, cs };
    }
    // (All kernel rows: the position passes take their own loop too.)
    for (const [jointHertz, allKernel] of [[0, false], [30, false], [0, true]] as const) {
      const A = chain(true, jointHertz, allKernel);
      const B = chain(false, jointHertz, allKernel);
      for (let i = 0; i < 90; i++) {
        A.space.step(1 / 60);
        B.space.step(1 / 60);
        const a = snapshot(A);
        const b = snapshot(B);
        for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) expect.fail(`jointHertz ${jointHertz}, all kernels ${allKernel}, step ${i}: value ${k} differs: ${a[k]} vs ${b[k]}`);
      }
      expect(batchedCount(A.space)).toBe(A.cs.length);
      // It swung, and the pivots held.
      expect(Math.abs(A.bodies[4]!.rotation - 0.4)).toBeGreaterThan(0.05);
      expect(Math.abs(A.bodies[0]!.x - 0.5)).toBeLessThan(0.5);
    }
  });

  it("a kernel that leaves J's constant entries to the batch (constantJacobian) steps bitwise like the hooks, through a re-plan", () => {
    // (All stiff: the pair loops; with joint bias, the biased pass row by row.)
    for (const [allStiff, jointHertz] of [[false, 0], [true, 0], [true, 30]] as const) stepBoth(allStiff, jointHertz, SparseKernelPivot);
  });

  it("kernel rows' position passes turn bodies bitwise like the one-by-one path, turns past the series' range included", () => {
    // Links that start far off their pivots: the position passes turn them by more than 1/8 rad
    // at a time (the trigonometric branch of the turn) as well as by less (the series).
    function scene(batched: boolean) {
      const space = new Space({ gravity: [0, -10] });
      setSolverRouting(space, { userBatch: batched, jointIsland: false });
      const anchor = space.addBody(new Body({ type: 'static', position: [0, 3] }));
      const links = [box(space, 0.6, 2.1, 1.1), box(space, 1.2, 3.8, -0.9), box(space, 2.6, 2.4, 2.5)];
      const cs: UserConstraint[] = [new SparseKernelPivot(anchor, links[0]!, [0, 0], [-0.4, 0])];
      for (let i = 1; i < links.length; i++) cs.push(new SparseKernelPivot(links[i - 1]!, links[i]!, [0.4, 0], [-0.4, 0]));
      for (const c of cs) space.addConstraint(c);
      return { space, bodies: links, cs };
    }
    const A = scene(true);
    const B = scene(false);
    const turns: number[] = [];
    for (let i = 0; i < 20; i++) {
      const before = A.bodies.map((b) => b.rotation);
      A.space.step(1 / 60);
      B.space.step(1 / 60);
      A.bodies.forEach((b, k) => turns.push(Math.abs(b.rotation - before[k]!)));
      const a = snapshot(A);
      const b = snapshot(B);
      for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) expect.fail(`step ${i}: value ${k} differs: ${a[k]} vs ${b[k]}`);
    }
    expect(batchedCount(A.space)).toBe(3);
    expect(Math.max(...turns)).toBeGreaterThan(0.5);
  });

  it('a kernel that declares some of J\'s constants (packed J, unpacked into the rows) steps bitwise like the hooks', () => {
    // (All stiff: one kernel, the pair loops and their own position pass; with a soft row: the general loops.)
    for (const [allStiff, jointHertz] of [[true, 0], [false, 0], [true, 30]] as const) stepBoth(allStiff, jointHertz, PartlyConstantPivot);
  });

  it('the position passes hand a kernel the whole current state of both bodies (rotation and velocities too)', () => {
    for (const jointHertz of [0, 30]) stepBoth(true, jointHertz, ProbePivot);
  });

  function stepBoth(allStiff: boolean, jointHertz: number, Pivot: typeof KernelPivot): void {
    function scene(batched: boolean) {
      // (The probe kernel adds a term on purpose, so its J is not C's derivative: no derivative check.)
      const space = new Space({ gravity: [0, -10], jointHertz, checkUserConstraints: false });
      setSolverRouting(space, { userBatch: batched, jointIsland: false });
      const anchor = space.addBody(new Body({ type: 'static', position: [0, 3] }));
      const links = [0, 1, 2, 3].map((i) => box(space, i + 0.5, 3, 0.1 * i));
      const cs: UserConstraint[] = [new Pivot(anchor, links[0]!, [0, 0], [-0.4, 0])];
      for (let i = 1; i < links.length; i++) cs.push(new Pivot(links[i - 1]!, links[i]!, [0.4, 0], [-0.4, 0], i === 2 && !allStiff ? { stiff: false, frequency: 5, damping: 0.5 } : {}));
      for (const c of cs) space.addConstraint(c);
      return { space, bodies: links, cs };
    }
    const A = scene(true);
    const B = scene(false);
    for (let i = 0; i < 90; i++) {
      if (i === 45) {
        // A new plan lays the rows out afresh (zeroed J): the constants must be written again.
        for (const S of [A, B]) S.space.removeConstraint(S.cs[3]!);
        A.cs.pop();
        B.cs.pop();
      }
      A.space.step(1 / 60);
      B.space.step(1 / 60);
      const a = snapshot(A);
      const b = snapshot(B);
      for (let k = 0; k < a.length; k++) if (!Object.is(a[k], b[k])) expect.fail(`all stiff ${allStiff}, jointHertz ${jointHertz}, step ${i}: value ${k} differs: ${a[k]} vs ${b[k]}`);
    }
    expect(batchedCount(A.space)).toBe(3);
    expect(A.bodies[2]!.y).toBeLessThan(2.9); // it swung down (from 3)
  }

  it('keeps out the constraints that need a hook every pass, or that it cannot hold', () => {
    // (Its hooks are placeholders, not derivatives of one C: no derivative check.)
    const space = new Space({ gravity: [0, -10], checkUserConstraints: false });
    // (Several of them on the same two bodies would otherwise be a joint island.)
    setSolverRouting(space, { jointIsland: false });
    const g = space.addBody(new Body({ type: 'static' }));
    const a = box(space, 1, 0);
    const b = box(space, 2, 0);
    const pos = (err: Float64Array, st: Float64Array) => (err[0] = anchorIn(st, 1, 0, 0).px - anchorIn(st, 0, 0, 0).px - 1);
    const jac = (J: Float64Array) => J.set([-1, 0, 0, 1, 0, 0]);
    const outs = [
      new UserConstraint({ dimensions: 1, bodies: [a, b], hooks: { position: pos, jacobian: jac } }), // not packedState
      packed(1, [a, b], { position: pos }), // finite-difference J
      packed(1, [a, b], { position: pos, jacobian: jac, clamp: () => {} }),
      packed(1, [a, b], { position: pos, jacobian: jac, velocity: (e) => (e[0] = 0) }),
      packed(1, [a, b], { position: pos, jacobian: jac }, { breakUnderError: true, maxError: 10 }),
      packed(1, [a, a], { position: () => {}, jacobian: jac }), // one body in two slots
      packed(1, [g, a], { jacobian: jac }, { velocityOnly: true }),
      packed(1, [a, b], {
        position: pos,
        velocity: (e) => (e[0] = 0),
        effMass: (e) => (e[0] = 1),
        impulse: (_i: Float64Array, _b: Body, o: Vec3) => (o.x = o.y = o.z = 0),
      }),
    ];
    for (const c of outs) space.addConstraint(c);
    const inBatch = space.addConstraint(packed(1, [g, a], { position: pos, jacobian: jac }));
    space.step(1 / 60);
    expect(batchedCount(space)).toBe(1);
    expect(inBatch.impulse().length).toBe(1);
  });

  it('breaks under force like any constraint, and clearCache empties its row', () => {
    const space = new Space({ gravity: [0, -10], allowSleep: false });
    const g = space.addBody(new Body({ type: 'static' }));
    const heavy = space.addBody(new Body({ position: [0, -1], shapes: [Polygon.box(1, 1, { density: 50, ...noCollide })] }));
    const light = space.addBody(new Body({ position: [3, -1], shapes: [Polygon.box(0.2, 0.2, noCollide)] }));
    const weak = space.addConstraint(pivot(g, heavy, [0, 0], [0, 1], { breakUnderForce: true, maxForce: 100 }));
    const strong = space.addConstraint(pivot(g, light, [3, 0], [0, 1]));
    const breaks: string[] = [];
    space.on('constraintBreak', (e) => breaks.push(`${e.constraint.id}:${e.reason}`));
    space.step(1 / 60);
    expect(breaks).toEqual([`${weak.id}:force`]);
    expect(weak.space).toBe(null);
    for (let i = 0; i < 30; i++) space.step(1 / 60);
    expect(batchedCount(space)).toBe(1);
    // The light body hangs: the pivot carries its weight (m g dt per step, within 1%).
    const carried = (strong.impulse() as Float64Array)[1]!;
    expect(Math.abs(Math.abs(carried) - light.mass * 10 / 60) / (light.mass * 10 / 60)).toBeLessThan(0.01);
    strong.clearCache();
    expect(Array.from(strong.impulse() as Float64Array)).toEqual([0, 0]);
    expect(strong.bodyImpulse(light)).toEqual({ x: 0, y: 0, z: 0 });
    space.step(1 / 60);
    expect(Math.abs((strong.impulse() as Float64Array)[1]!)).toBeGreaterThan(0);
  });

  it('a hook that writes NaN fails naming the constraint and the row; the space steps on without it', () => {
    // (Placeholder hooks, not the derivatives of one C: the solver's own NaN check, without the derivative check.)
    const space = new Space({ gravity: [0, -10], checkUserConstraints: false });
    const g = space.addBody(new Body({ type: 'static' }));
    const a = box(space, 0, -1);
    let poison = false;
    const good = pivot(g, a, [0, 0], [0, 0.5]);
    const bad = packed(2, [g, a], {
      position: (e) => e.fill(0),
      jacobian(J) {
        J.set([-1, 0, 0, 1, 0, 0, 0, -1, 0, 0, 1, poison ? NaN : 0]);
      },
    });
    space.addConstraint(good);
    space.addConstraint(bad);
    space.step(1 / 60);
    poison = true;
    expect(() => space.step(1 / 60)).toThrow(new RegExp(`UserConstraint#${bad.id}: jacobian\\(\\) wrote a non-finite value \\(NaN\\) in row 1`));
    space.removeConstraint(bad);
    for (let i = 0; i < 60; i++) space.step(1 / 60);
    expect(Number.isFinite(a.x) && Number.isFinite(a.y)).toBe(true);
    const tip = a.localPointToWorld([0, 0.5]);
    expect(Math.hypot(tip.x, tip.y)).toBeLessThan(1e-3);

    const softBad = space.addConstraint(packed(1, [g, a], { position: (e) => (e[0] = NaN), jacobian: (J) => J.set([0, 0, 0, 0, 1, 0]) }, { stiff: false }));
    expect(() => space.step(1 / 60)).toThrow(new RegExp(`UserConstraint#${softBad.id}: position\\(\\) wrote a non-finite value`));
  });

  it('a batchKernel() of the wrong shape is a clear error before anything moves; the space steps on without it', () => {
    const space = new Space({ gravity: [0, -10] });
    const g = space.addBody(new Body({ type: 'static' }));
    const a = box(space, 0, -1);
    space.addConstraint(new KernelPivot(g, a, [0, 0], [0, 0.5]));
    const cases: [Partial<UserBatchKernel> | string, RegExp][] = [
      [{ ...PIVOT_KERNEL, paramCount: -1 }, /batchKernel\(\)\.paramCount must be a non-negative integer \(got -1\)/],
      [{ ...PIVOT_KERNEL, paramCount: 1.5 }, /batchKernel\(\)\.paramCount must be a non-negative integer \(got 1\.5\)/],
      [{ paramCount: 4, position: PIVOT_KERNEL.position }, /batchKernel\(\)\.jacobian must be a function \(got undefined\)/],
      [{ ...PIVOT_KERNEL, positionAndJacobian: 3 as unknown as undefined }, /batchKernel\(\)\.positionAndJacobian must be a function or absent \(got 3\)/],
      ['kernel', /batchKernel\(\) must return a UserBatchKernel or null \(got kernel\)/],
      [{ ...SPARSE_PIVOT_KERNEL, constantJacobian: [[0, -1], [12, 1]] }, /batchKernel\(\)\.constantJacobian\[1\] must start with an entry index of J, an integer in \[0, 12\) \(got \[12, 1\]\)/],
      [{ ...SPARSE_PIVOT_KERNEL, constantJacobian: [[3, NaN]] }, /batchKernel\(\)\.constantJacobian\[0\] must end with a finite value \(got \[3, NaN\]\)/],
      [{ ...SPARSE_PIVOT_KERNEL, constantJacobian: 'all' as unknown as [] }, /batchKernel\(\)\.constantJacobian must be an array of \[index, value\] pairs or absent \(got all\)/],
      [{ ...PIVOT_KERNEL, source: 'text' as never }, /batchKernel\(\)\.source must be \{ jacobian, position \} as source text, or absent \(got text\)/],
      [{ ...PIVOT_KERNEL, source: { jacobian: 'return function () {}', position: 7 as never } }, /batchKernel\(\)\.source\.position must be a string of source text \(got 7\)/],
      [{ ...PIVOT_KERNEL, source: { jacobian: 'return function (', position: 'return function () {}' } }, /batchKernel\(\)\.source\.jacobian does not compile and run as a function body \(/],
      [{ ...PIVOT_KERNEL, source: { jacobian: 'return function () {}', position: 'return 3' } }, /batchKernel\(\)\.source\.position must return the kernel function \(`new Function\(text\)\(\)` gave 3\)/],
    ];
    for (const [kernel, message] of cases) {
      class Wrong extends KernelPivot {
        override batchKernel(): UserBatchKernel {
          return kernel as UserBatchKernel;
        }
      }
      const bad = space.addConstraint(new Wrong(g, a, [0, 0], [0, 0.5]));
      const before = [a.x, a.y, a.rotation];
      expect(() => space.step(1 / 60)).toThrow(message);
      expect(() => space.step(1 / 60)).toThrow(new RegExp(`UserConstraint#${bad.id}`));
      expect([a.x, a.y, a.rotation]).toEqual(before);
      space.removeConstraint(bad);
    }
    for (let i = 0; i < 60; i++) space.step(1 / 60);
    const tip = a.localPointToWorld([0, 0.5]);
    expect(Math.hypot(tip.x, tip.y)).toBeLessThan(1e-3);
  });
});
