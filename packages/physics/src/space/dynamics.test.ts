/**
 * Analytic checks of the rigid-body core: free fall, friction on a slope, restitution,
 * momentum, stacking and sleeping. Each expected value comes from a closed-form result.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from './space.js';
import { DistanceJoint } from '../constraint/joints/distance-joint.js';
import { LineJoint } from '../constraint/joints/line-joint.js';
import { groundBody, pyramid, stepFor } from '../test-support/scenes.js';

const DT = 1 / 60;
const SUBSTEPS = 4; // the default velocityIterations

describe('free fall', () => {
  it('follows y = y0 − g t²/2 up to symplectic Euler\'s known −g·t·h/2 term', () => {
    const space = new Space({ gravity: [0, -9.81] });
    const ball = space.addBody(new Body({ position: [0, 100], shapes: [new Circle({ radius: 0.5 })] }));
    const h = DT / SUBSTEPS;
    for (let k = 1; k <= 120; k++) {
      space.step(DT);
      const t = k * DT;
      // Symplectic Euler with substep h: y_n = y0 − g h² n(n+1)/2 = y0 − g t²/2 − g t h/2.
      const exact = 100 - (9.81 * t * t) / 2;
      const predicted = exact - (9.81 * t * h) / 2;
      expect(ball.y).toBeCloseTo(predicted, 9);
      expect(ball.velocity.y).toBeCloseTo(-9.81 * t, 9);
      // and the integrator's error against the exact parabola is O(h): below g·t·h/2 + ε
      expect(Math.abs(ball.y - exact)).toBeLessThanOrEqual((9.81 * t * h) / 2 + 1e-9);
    }
  });
});

/** A static slope of angle θ whose top surface passes through the origin, and a 1 m box on it. */
function slopeScene(theta: number, friction: number): { space: Space; box: Body; down: { x: number; y: number } } {
  const space = new Space({ gravity: [0, -10] });
  const nx = -Math.sin(theta);
  const ny = Math.cos(theta);
  // Slope box 60×1, centre half a metre below the surface line.
  space.addBody(
    new Body({ type: 'static', position: [-0.5 * nx, -0.5 * ny], rotation: theta, shapes: [Polygon.box(60, 1, { friction })] }),
  );
  const box = space.addBody(
    new Body({ position: [0.5 * nx, 0.5 * ny], rotation: theta, shapes: [Polygon.box(1, 1, { friction })] }),
  );
  return { space, box, down: { x: -Math.cos(theta), y: -Math.sin(theta) } };
}

describe('box on a 30° slope', () => {
  const theta = Math.PI / 6;

  it('stays put with friction 0.6 (tan 30° ≈ 0.577)', () => {
    const { space, box } = slopeScene(theta, 0.6);
    stepFor(space, 0.5);
    const x0 = box.x;
    const y0 = box.y;
    stepFor(space, 3);
    expect(Math.hypot(box.x - x0, box.y - y0)).toBeLessThan(1e-3);
    expect(Math.abs(box.rotation - theta)).toBeLessThan(1e-3);
  });

  it('slides with a = g(sin θ − μ cos θ) within 5% at friction 0.1', () => {
    const { space, box, down } = slopeScene(theta, 0.1);
    stepFor(space, 0.25);
    const v1 = box.velocity.x * down.x + box.velocity.y * down.y;
    stepFor(space, 1);
    const v2 = box.velocity.x * down.x + box.velocity.y * down.y;
    const a = (v2 - v1) / 1;
    const expected = 10 * (Math.sin(theta) - 0.1 * Math.cos(theta));
    expect(Math.abs(a - expected) / expected).toBeLessThan(0.05);
    expect(Math.abs(box.rotation - theta)).toBeLessThan(1e-2); // slides, does not tumble
  });
});

describe('restitution', () => {
  it('a ball dropped with restitution 0.5 bounces to 25% ± 3% of its drop height', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(groundBody(20, -0.5));
    const r = 0.5;
    const drop = 2;
    const ball = space.addBody(new Body({ position: [0, r + drop], shapes: [new Circle({ radius: r, restitution: 0.5 })] }));
    let bounced = false;
    let apex = -Infinity;
    for (let i = 0; i < 240; i++) {
      space.step(DT);
      if (!bounced && ball.velocity.y > 0) bounced = true;
      if (bounced) {
        apex = Math.max(apex, ball.y);
        if (ball.velocity.y < 0) break;
      }
    }
    expect(bounced).toBe(true);
    const ratio = (apex - r) / drop;
    expect(ratio).toBeGreaterThan(0.22);
    expect(ratio).toBeLessThan(0.28);
  });
});

describe('momentum', () => {
  it('two bodies colliding in free space conserve linear momentum to 1e-9', () => {
    const space = new Space({ gravity: [0, 0] });
    const a = space.addBody(new Body({ position: [-2, 0.2], velocity: [5, 0.3], angularVel: 1, shapes: [Polygon.box(1, 0.6, { restitution: 0.3 })] }));
    const b = space.addBody(new Body({ position: [2, -0.1], velocity: [-3, 0], shapes: [new Circle({ radius: 0.4, density: 3, friction: 0.8 })] }));
    const px0 = a.mass * a.velocity.x + b.mass * b.velocity.x;
    const py0 = a.mass * a.velocity.y + b.mass * b.velocity.y;
    let touched = false;
    space.on('beginContact', () => (touched = true));
    for (let i = 0; i < 120; i++) space.step(DT);
    expect(touched).toBe(true);
    expect(Math.abs(a.velocity.x - 5)).toBeGreaterThan(0.5); // they really collided
    const px = a.mass * a.velocity.x + b.mass * b.velocity.x;
    const py = a.mass * a.velocity.y + b.mass * b.velocity.y;
    const scale = Math.hypot(px0, py0) + a.mass * 5;
    expect(Math.abs(px - px0) / scale).toBeLessThan(1e-9);
    expect(Math.abs(py - py0) / scale).toBeLessThan(1e-9);
  });
});

describe('stacking', () => {
  it('a 10-box vertical stack stands and falls asleep', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(groundBody());
    const boxes: Body[] = [];
    for (let i = 0; i < 10; i++) boxes.push(space.addBody(new Body({ position: [0, 0.5 + i], shapes: [Polygon.box(1, 1)] })));
    stepFor(space, 10);
    const top = boxes[9]!;
    expect(Math.abs(top.x)).toBeLessThan(0.01);
    expect(Math.abs(top.y - 9.5)).toBeLessThan(0.05);
    expect(boxes.every((b) => b.isSleeping)).toBe(true);
  });

  it('a 20-row pyramid stands: top box within 5 cm after 10 s, and all asleep', () => {
    const space = new Space({ gravity: [0, -10] });
    const boxes = pyramid(space, 20);
    const top = boxes[boxes.length - 1]!;
    const x0 = top.x;
    const y0 = top.y;
    stepFor(space, 10);
    expect(Math.hypot(top.x - x0, top.y - y0)).toBeLessThan(0.05);
    expect(boxes.filter((b) => !b.isSleeping)).toHaveLength(0);
  });
});

describe('sleeping islands', () => {
  function twoPyramids(): { space: Space; left: Body[]; right: Body[] } {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(groundBody(200));
    const build = (cx: number): Body[] => {
      const out: Body[] = [];
      for (let row = 0; row < 4; row++) {
        for (let i = 0; i < 4 - row; i++) {
          out.push(space.addBody(new Body({ position: [cx + i - (3 - row) / 2, 0.5 + row], shapes: [Polygon.box(1, 1)] })));
        }
      }
      return out;
    };
    return { space, left: build(-20), right: build(20) };
  }

  it('a velocity change wakes only the touched island; sleep and wake events fire', () => {
    const { space, left, right } = twoPyramids();
    const slept: number[] = [];
    const woke: number[][] = [];
    space.on('sleep', (e) => slept.push(e.bodies.length));
    space.on('wake', (e) => woke.push(e.bodies.map((b) => b.id)));
    stepFor(space, 5);
    expect([...left, ...right].every((b) => b.isSleeping)).toBe(true);
    expect(slept.reduce((a, b) => a + b, 0)).toBe(20);

    left[0]!.velocity = [0, 2];
    expect(woke).toHaveLength(1);
    expect(woke[0]!.sort()).toEqual(left.map((b) => b.id).sort());
    space.step(DT);
    expect(left.every((b) => !b.isSleeping)).toBe(true);
    expect(right.every((b) => b.isSleeping)).toBe(true);
  });

  it('countAwakeIslands follows the islands: contacts and joints link, sleep empties, a wake counts one', () => {
    const { space, left, right } = twoPyramids();
    // Before the first step no contact exists yet: every box is its own island.
    expect(space.countAwakeIslands()).toBe(20);
    space.step(DT);
    expect(space.countAwakeIslands()).toBe(2);
    // A lone ball far away is a third island; a joint to the right pyramid makes it part of that one.
    const ball = space.addBody(new Body({ position: [60, 10], shapes: [new Circle({ radius: 0.5 })] }));
    space.step(DT);
    expect(space.countAwakeIslands()).toBe(3);
    const rope = space.addConstraint(new DistanceJoint({ body1: right[0]!, body2: ball, jointMin: 0, jointMax: 100 }));
    expect(space.countAwakeIslands()).toBe(2);
    space.removeConstraint(rope);
    space.removeBody(ball);
    stepFor(space, 5);
    expect(space.countAwakeIslands()).toBe(0);
    left[0]!.velocity = [0, 2];
    expect(space.countAwakeIslands()).toBe(1);
  });

  it('a position change wakes the island on the next step, and the other stays asleep', () => {
    const { space, left, right } = twoPyramids();
    stepFor(space, 5);
    const top = right[right.length - 1]!;
    top.position = [top.x + 0.3, top.y + 0.2];
    space.step(DT);
    expect(right.every((b) => !b.isSleeping)).toBe(true);
    expect(left.every((b) => b.isSleeping)).toBe(true);
    // The moved box falls back and the island settles and sleeps again.
    stepFor(space, 6);
    expect(right.every((b) => b.isSleeping)).toBe(true);
  });

  it('every API change wakes: impulse, force, shape added, body removed', () => {
    const { space, left } = twoPyramids();
    stepFor(space, 5);
    const check = (change: () => void): void => {
      stepFor(space, 3);
      expect(left.every((b) => b.isSleeping)).toBe(true);
      change();
      expect(left.filter((b) => b.space === space).every((b) => !b.isSleeping)).toBe(true);
    };
    check(() => left[3]!.applyImpulse([0, 1]));
    check(() => left[3]!.applyAngularImpulse(0.1));
    check(() => (left[3]!.force = [0, 0]));
    check(() => left[3]!.addShape(new Circle({ radius: 0.1 })));
    check(() => space.removeBody(left[left.length - 1]!));
  });

  it('sleeping bodies are skipped by the solver and keep exact positions', () => {
    const { space, left } = twoPyramids();
    stepFor(space, 5);
    const before = left.map((b) => [b.x, b.y, b.rotation]);
    stepFor(space, 2);
    expect(left.map((b) => [b.x, b.y, b.rotation])).toEqual(before);
  });
});

describe('a body with allowMovement: false on contacts', () => {
  // The fuzz of issue 21 reported a circle with allowMovement: false sliding on static ground at
  // 1 m/s reaching |ω| = 5.2e14 rad/s. A pinned circle's contact carries no normal load (its
  // normal passes through the centre, and the body cannot be pushed), so friction, bounded by
  // μ·λn, cannot turn it: it slides on at ω = 0. A pinned box rocks on its corners (the normal
  // impulse turns it) and stays bounded.
  it('a pinned circle or box sliding at 1 m/s on static ground stays finite and bounded', () => {
    for (const shape of ['circle', 'box']) {
      for (const size of [0.05, 0.5, 2]) {
        const space = new Space({ gravity: [0, -10] });
        space.addBody(new Body({ type: 'static', shapes: [Polygon.box(200, 1, { offset: [0, -0.5] })] }));
        const s = shape === 'circle' ? new Circle({ radius: size, friction: 1 }) : Polygon.box(2 * size, 2 * size, { friction: 1 });
        const wheel = space.addBody(new Body({ position: [0, size], velocity: [1, 0], allowMovement: false, shapes: [s] }));
        let peak = 0;
        for (let i = 0; i < 600; i++) {
          space.step(1 / 60);
          peak = Math.max(peak, Math.abs(wheel.angularVel));
          expect(Number.isFinite(wheel.angularVel) && Number.isFinite(wheel.rotation)).toBe(true);
        }
        // It keeps sliding at its own speed (nothing can push it), and never spins faster than rolling would.
        expect(wheel.velocity.x).toBe(1);
        expect(peak, `${shape} ${size}`).toBeLessThanOrEqual(shape === 'circle' ? 0 : 1 / size);
      }
    }
  });

  it('a pinned circle resting on a tilted static box stays still: its contact normal passes through its centre (fuzz: 1e17 rad/s in 96 steps)', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(new Body({ type: 'static', rotation: 0.3, shapes: [Polygon.box(10, 1)] }));
    const ball = space.addBody(new Body({ position: [0, 1.4], allowMovement: false, shapes: [new Circle({ radius: 1 })] }));
    for (let i = 0; i < 300; i++) space.step(1 / 60);
    expect(Math.abs(ball.angularVel)).toBeLessThan(1e-9);
  });
});

describe('a bead on a spinning rod (a driver of infinite inertia)', () => {
  // A kinematic rod turning at ω carries a bead on a LineJoint free along the rod. In the rod's
  // frame the bead feels ω²r outward and nothing else, so r = r0·cosh(ωt): the speed grows without
  // bound, as any body driven by an infinite inertia may. A valid scene can pass the fuzz's blow-up
  // speed (1e6 m/s) by physics alone: the space's maxLinearSpeed (400 m/s by default) is what
  // keeps it finite.
  function spin(seconds: number, substeps = SUBSTEPS, maxLinearSpeed = Infinity) {
    const space = new Space({ gravity: [0, 0], maxLinearSpeed });
    const omega = 3;
    const rod = space.addBody(new Body({ type: 'kinematic', angularVel: omega }));
    const bead = space.addBody(new Body({ position: [1, 0], velocity: [0, omega], shapes: [new Circle({ radius: 0.05, filter: { mask: 0 } })] }));
    space.addConstraint(new LineJoint({ body1: rod, body2: bead, direction: [1, 0], jointMin: -Infinity, jointMax: Infinity }));
    let fastest = 0;
    for (let i = 0, n = Math.round(seconds / DT); i < n; i++) {
      space.step(DT, substeps);
      fastest = Math.max(fastest, Math.hypot(bead.velocity.x, bead.velocity.y));
    }
    return { r: Math.hypot(bead.x, bead.y), speed: Math.hypot(bead.velocity.x, bead.velocity.y), fastest, bead };
  }

  it('follows r = r0·cosh(ωt), converging as the substep: within 4% after 2 s (r ≈ 202 m) at 4 substeps, 1% at 16', () => {
    // The rod's direction is taken at each substep's start, a first-order error in ω·h.
    expect(Math.abs(spin(2).r / Math.cosh(6) - 1)).toBeLessThan(0.04);
    expect(Math.abs(spin(2, 16).r / Math.cosh(6) - 1)).toBeLessThan(0.01);
  });

  it('with the default maxLinearSpeed, speeds up as the physics says until 400 m/s, then goes no faster: the bead slides out at the cap', () => {
    const capped = spin(5, 16, 400);
    expect(capped.fastest).toBeLessThanOrEqual(400 * (1 + 1e-15));
    expect(capped.speed).toBeCloseTo(400, 9);
    // Below the cap it is the uncapped motion, bit for bit (1 s: r = cosh(3) ≈ 10 m, 30 m/s).
    const [a, b] = [spin(1, 16, 400), spin(1, 16)];
    expect([a.bead.x, a.bead.y, a.bead.velocity.x]).toEqual([b.bead.x, b.bead.y, b.bead.velocity.x]);
    // The default is 400 m/s.
    expect(new Space().maxLinearSpeed).toBe(400);
  });

  it('without the cap (maxLinearSpeed: Infinity) passes 1e6 m/s within 5 s, finite, as the physics says (ω·r·√2 at r = cosh(15) ≈ 1.6e6 m)', () => {
    const { speed, r } = spin(5, 16);
    expect(Number.isFinite(speed)).toBe(true);
    expect(speed).toBeGreaterThan(1e6);
    expect(Math.abs(r / Math.cosh(15) - 1)).toBeLessThan(0.05);
  });
});
