/**
 * The typed-array PivotBatch must produce the same motion as the generic Joint path it
 * replaces (which the property tests verify against finite differences), stiff and soft.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from '../space/space.js';
import { PivotJoint } from './joints/pivot-joint.js';
import { setSolverRouting, solverInternals } from '../test-support/solver-routing.js';
import { COLOURS } from '../space/graph-colouring.js';
import { PIVOT_COLOUR_MIN_ROWS } from './pivot-batch.js';

function run(batched: boolean, stiff: boolean): number[] {
  const space = new Space({ gravity: [0, -10] });
  setSolverRouting(space, { jointBatch: batched });
  const ground = space.addBody(new Body({ type: 'static' }));
  let prev = ground;
  const links: Body[] = [];
  for (let i = 0; i < 8; i++) {
    const link = space.addBody(new Body({ position: [i * 0.5 + 0.25, 0], rotation: 0.1 * i, shapes: [Polygon.box(0.5, 0.1, { offset: [0.02, 0] })] }));
    space.addConstraint(new PivotJoint({ body1: prev, body2: link, anchor1: i === 0 ? [0, 0] : [0.25, 0], anchor2: [-0.25, 0], stiff, frequency: 5, damping: 0.3, ignore: true }));
    links.push(link);
    prev = link;
  }
  for (let i = 0; i < 30; i++) space.step(1 / 60);
  return links.flatMap((b) => [b.x, b.y, b.rotation, b.angularVel]);
}

describe('PivotBatch', () => {
  for (const stiff of [true, false]) {
    it(`matches the generic joint path (${stiff ? 'stiff' : 'soft'})`, () => {
      const a = run(true, stiff);
      const b = run(false, stiff);
      let worst = 0;
      for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
      expect(worst).toBeLessThan(1e-9);
      expect(Math.abs(a[a.length - 3]!)).toBeGreaterThan(0.01); // it really swung
    });
  }

  it('reports the same impulses as the generic path', () => {
    const read = (batched: boolean): number[] => {
      const space = new Space({ gravity: [0, -10] });
      setSolverRouting(space, { jointBatch: batched });
      const pin = space.addBody(new Body({ type: 'static' }));
      const b = space.addBody(new Body({ position: [0.5, -1], shapes: [Polygon.box(0.3, 0.3)] }));
      const j = space.addConstraint(new PivotJoint({ body1: pin, body2: b, anchor2: [-0.5, 1] }));
      for (let i = 0; i < 10; i++) space.step(1 / 60);
      const bi = j.bodyImpulse(b);
      return [...j.impulse(), bi.x, bi.y, bi.z];
    };
    const a = read(true);
    const b = read(false);
    for (let i = 0; i < a.length; i++) expect(a[i]).toBeCloseTo(b[i]!, 10);
  });

  for (const batched of [true, false]) {
    it(`bodyImpulse() is the momentum each joint gave a body over the step (${batched ? 'batch' : 'generic path'})`, () => {
      // A swinging two-link pendulum: the upper link's velocity changes only through gravity and
      // its two joints, so m Δv = m g dt + Σ linear impulses and I Δω = Σ angular impulses.
      const space = new Space({ gravity: [0, -10] });
      setSolverRouting(space, { jointBatch: batched });
      const pin = space.addBody(new Body({ type: 'static' }));
      const upper = space.addBody(new Body({ position: [0.5, 0], rotation: 0.3, shapes: [Polygon.box(1, 0.2, { offset: [0.05, 0.02] })] }));
      const lower = space.addBody(new Body({ position: [1.5, 0], shapes: [Polygon.box(1, 0.2)] }));
      const top = space.addConstraint(new PivotJoint({ body1: pin, body2: upper, anchor2: [-0.5, 0], ignore: true }));
      const mid = space.addConstraint(new PivotJoint({ body1: upper, body2: lower, anchor1: [0.5, 0], anchor2: [-0.5, 0], ignore: true }));
      const dt = 1 / 60;
      for (let i = 0; i < 20; i++) space.step(dt);
      const { x: vx0, y: vy0 } = upper.velocity;
      const w0 = upper.angularVel;
      space.step(dt);
      const a = top.bodyImpulse(upper);
      const b = mid.bodyImpulse(upper);
      expect(Math.abs(upper.angularVel - w0)).toBeGreaterThan(0.01); // it really swings
      expect(upper.mass * (upper.velocity.x - vx0)).toBeCloseTo(a.x + b.x, 10);
      expect(upper.mass * (upper.velocity.y - vy0)).toBeCloseTo(-upper.mass * 10 * dt + a.y + b.y, 10);
      expect(upper.inertia * (upper.angularVel - w0)).toBeCloseTo(a.z + b.z, 10);
    });
  }

  it("a stiff chain moves bitwise the same whether or not the plan also holds soft pivots (the stiff loop is the general loop's stiff case)", () => {
    // With no soft pivot in the plan, the unbiased passes take solveStiffRows; one soft pivot
    // anywhere sends every row through solveRows. The chain here is the same in both spaces.
    const chain = (withSoft: boolean): number[] => {
      const space = new Space({ gravity: [0, -10] });
      const ground = space.addBody(new Body({ type: 'static' }));
      let prev = ground;
      const links: Body[] = [];
      for (let i = 0; i < 12; i++) {
        const link = space.addBody(new Body({ position: [i * 0.5 + 0.25, 0], rotation: 0.05 * i, shapes: [Polygon.box(0.5, 0.1)] }));
        space.addConstraint(new PivotJoint({ body1: prev, body2: link, anchor1: i === 0 ? [0, 0] : [0.25, 0], anchor2: [-0.25, 0], ignore: true }));
        links.push(link);
        prev = link;
      }
      if (withSoft) {
        // Far away and on its own: it shares no body with the chain.
        const b = space.addBody(new Body({ position: [100, 0], shapes: [Polygon.box(0.3, 0.3)] }));
        space.addConstraint(new PivotJoint({ body1: ground, body2: b, anchor1: [100, 1], stiff: false, frequency: 3, damping: 0.2 }));
      }
      for (let i = 0; i < 40; i++) space.step(1 / 60);
      return links.flatMap((b) => [b.x, b.y, b.rotation, b.velocity.x, b.velocity.y, b.angularVel]);
    };
    const alone = chain(false);
    const mixed = chain(true);
    expect(Math.abs(alone[alone.length - 5]!)).toBeGreaterThan(0.1); // it really fell
    for (let i = 0; i < alone.length; i++) if (!Object.is(alone[i], mixed[i])) expect.fail(`value ${i}: ${alone[i]} alone, ${mixed[i]} beside a soft pivot`);
  });
});

describe('a singular K (a pivot on a body with allowMovement: false)', () => {
  // The wheel can only turn, so the pivot's K is rank 1: its anchor moves one way only. Solving
  // both axes on their own diagonals over-corrected and grew to |ω| ≈ 1e151 within 2 s (issue 21).
  const run = (batched: boolean) => {
    const space = new Space({ gravity: [0, -10] });
    setSolverRouting(space, { jointBatch: batched });
    const ground = space.addBody(new Body({ type: 'static' }));
    const wheel = space.addBody(new Body({ position: [2, 0], angularVel: 1, allowMovement: false, shapes: [Polygon.box(1, 1)] }));
    space.addConstraint(new PivotJoint({ body1: ground, body2: wheel, anchor2: [2.4, 3.2] }));
    let peak = 0;
    const trace: number[] = [];
    for (let i = 0; i < 120; i++) {
      space.step(1 / 60);
      peak = Math.max(peak, Math.abs(wheel.angularVel));
      trace.push(wheel.x, wheel.y, wheel.rotation, wheel.angularVel);
    }
    return { wheel, peak, trace };
  };

  it('is solved by the zero-pivot rule in the joint batch, as the one-by-one joints solve it (to round-off)', () => {
    const batch = run(true);
    const generic = run(false);
    for (let i = 0; i < batch.trace.length; i++) expect(Math.abs(batch.trace[i]! - generic.trace[i]!), `value ${i}`).toBeLessThan(1e-9);
    expect(batch.peak).toBeLessThan(2);
    // The wheel never moves, and the anchor (4 m from its centre) comes to rest where the solved
    // row (x) is satisfied: x = 0 on the circle of radius 4 about (2, 0), so y = ±√12.
    expect(batch.wheel.x).toBe(2);
    expect(batch.wheel.y).toBe(0);
    const p = batch.wheel.localPointToWorld([2.4, 3.2]);
    expect(Math.abs(p.x)).toBeLessThan(1e-6);
    expect(Math.abs(p.y)).toBeCloseTo(Math.sqrt(12), 6);
  });
});

describe('the colour order (a plan of PIVOT_COLOUR_MIN_ROWS pivots or more)', () => {
  /** An n × n net of discs joined to their right and lower neighbours, hanging from its top row's ends; `order` lists its joints in the order to add them. */
  const net = (n: number, batched: boolean, order?: number[]) => {
    const space = new Space({ gravity: [0, -10], allowSleep: false });
    setSolverRouting(space, { jointBatch: batched });
    const grid: Body[] = [];
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        const type = j === 0 && (i === 0 || i === n - 1) ? 'static' : 'dynamic';
        // Masses that differ from disc to disc: a joint that read another's row would show it.
        grid.push(space.addBody(new Body({ type, position: [i, -j], shapes: [Polygon.box(0.4, 0.4, { density: 1 + ((i * 7 + j * 3) % 5), filter: { mask: 0 } })] })));
      }
    }
    const specs: { a: number; b: number; anchor1: [number, number]; anchor2: [number, number] }[] = [];
    for (let i = 0; i < n; i++) {
      for (let j = 0; j < n; j++) {
        if (i + 1 < n) specs.push({ a: i * n + j, b: (i + 1) * n + j, anchor1: [0.5, 0], anchor2: [-0.5, 0] });
        if (j + 1 < n) specs.push({ a: i * n + j, b: i * n + j + 1, anchor1: [0, -0.5], anchor2: [0, 0.5] });
      }
    }
    const joints: PivotJoint[] = new Array(specs.length);
    for (const k of order ?? specs.map((_, k) => k)) {
      const s = specs[k]!;
      joints[k] = space.addConstraint(new PivotJoint({ body1: grid[s.a]!, body2: grid[s.b]!, anchor1: s.anchor1, anchor2: s.anchor2 }));
    }
    return { space, grid, joints };
  };

  it('is taken by a plan of that many pivots, and not by a smaller one', () => {
    const big = net(33, true); // 2,112 pivots
    big.space.step(1 / 60);
    const batch = solverInternals(big.space).jointBatch;
    expect(batch.count).toBe(2112);
    expect(batch.count).toBeGreaterThanOrEqual(PIVOT_COLOUR_MIN_ROWS);
    expect(batch.coloured).toBe(true);
    // No body twice within a colour (the static pins do not count), and every row in some colour.
    const { start } = batch.colours;
    for (let c = 0; c < COLOURS; c++) {
      const seen = new Set<Body>();
      for (let r = start[c]!; r < start[c + 1]!; r++) {
        for (const b of batch.joints[r]!.bodies) {
          if (b.type === 'static') continue;
          expect(seen.has(b), `a body twice in colour ${c}`).toBe(false);
          seen.add(b);
        }
      }
    }
    expect(start[COLOURS]).toBe(batch.count); // no overflow: a net's discs have four joints each
    const small = net(20, true); // 760 pivots: the joints' own order
    small.space.step(1 / 60);
    const smallBatch = solverInternals(small.space).jointBatch;
    expect(smallBatch.coloured).toBe(false);
    expect(smallBatch.joints).toEqual(small.joints);
  });

  it('steps like the one-by-one path given the joints in that order, and each joint reads its own row', () => {
    // The order the batch solves the net in, as indices of its joints.
    const probe = net(33, true);
    probe.space.step(1 / 60);
    const rows = solverInternals(probe.space).jointBatch.joints;
    const order = rows.map((j) => probe.joints.indexOf(j));
    expect(order).not.toEqual(order.slice().sort((x, y) => x - y)); // it is not the joints' own order
    const batched = net(33, true);
    const generic = net(33, false, order);
    for (let i = 0; i < 20; i++) {
      batched.space.step(1 / 60);
      generic.space.step(1 / 60);
    }
    let worst = 0;
    for (let k = 0; k < batched.grid.length; k++) {
      const a = batched.grid[k]!;
      const b = generic.grid[k]!;
      worst = Math.max(worst, Math.abs(a.x - b.x), Math.abs(a.y - b.y), Math.abs(a.rotation - b.rotation));
    }
    expect(worst).toBeLessThan(1e-9);
    expect(batched.grid[33 * 16 + 32]!.y).toBeLessThan(-32.01); // it really sagged
    for (let k = 0; k < batched.joints.length; k++) {
      const a = batched.joints[k]!.impulse();
      const b = generic.joints[k]!.impulse();
      for (let i = 0; i < 2; i++) expect(Math.abs(a[i]! - b[i]!), `joint ${k}`).toBeLessThan(1e-9 * (1 + Math.abs(b[i]!)));
    }
  }, 60_000);
});
