/**
 * Joint scenarios with analytic expectations (issue 3 §4), plus the constraint base's
 * semantics: read-outs, breaking, waking, validation.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../../body/body.js';
import { Circle } from '../../shape/circle.js';
import { Polygon } from '../../shape/polygon.js';
import { Space } from '../../space/space.js';
import { FulcrumInputError } from '../../util/validate.js';
import type { Constraint } from '../constraint.js';
import type { Joint } from '../joint.js';
import { AngleJoint } from './angle-joint.js';
import { DistanceJoint } from './distance-joint.js';
import { LineJoint } from './line-joint.js';
import { MotorJoint } from './motor-joint.js';
import { PivotJoint } from './pivot-joint.js';
import { PulleyJoint } from './pulley-joint.js';
import { WeldJoint } from './weld-joint.js';

const DT = 1 / 60;

function separation(j: { body1: Body | null; body2: Body | null; anchor1: { x: number; y: number }; anchor2: { x: number; y: number } }): number {
  const a = j.body1!.localPointToWorld(j.anchor1);
  const b = j.body2!.localPointToWorld(j.anchor2);
  return Math.hypot(a.x - b.x, a.y - b.y);
}

/** Times at which x crosses zero upwards, linearly interpolated between steps. */
function upCrossings(samples: number[], dt: number): number[] {
  const out: number[] = [];
  for (let i = 1; i < samples.length; i++) {
    const a = samples[i - 1]!;
    const b = samples[i]!;
    if (a < 0 && b >= 0) out.push((i - 1 + a / (a - b)) * dt);
  }
  return out;
}

describe('PivotJoint scenarios', () => {
  it("a stiff pendulum's small-angle period is 2π√(I_pivot / (m g d)) within 1%", () => {
    const space = new Space({ gravity: [0, -9.81] });
    const pin = space.addBody(new Body({ type: 'static' }));
    const d = 1.5;
    const theta0 = 0.05;
    // a rod-like box hanging below the pin, centre of mass at distance d
    const bob = space.addBody(new Body({ position: [d * Math.sin(theta0), -d * Math.cos(theta0)], rotation: theta0, shapes: [Polygon.box(0.2, 0.6)] }));
    space.addConstraint(new PivotJoint({ body1: pin, body2: bob, anchor1: [0, 0], anchor2: [0, d] }));
    const xs: number[] = [];
    for (let i = 0; i < 900; i++) {
      space.step(DT);
      xs.push(bob.x);
    }
    const t = upCrossings(xs, DT);
    const period = (t[t.length - 1]! - t[0]!) / (t.length - 1);
    const iPivot = bob.inertia + bob.mass * d * d;
    const expected = 2 * Math.PI * Math.sqrt(iPivot / (bob.mass * 9.81 * d));
    // the small-angle formula itself is exact to (1 + θ0²/16): 0.016% at θ0 = 0.05
    expect(Math.abs(period - expected) / expected).toBeLessThan(0.01);
  });

  it('a 200-link chain hanging from a static body keeps every separation under 1 cm once at rest', () => {
    const space = new Space({ gravity: [0, -10] });
    const ground = space.addBody(new Body({ type: 'static' }));
    const joints: PivotJoint[] = [];
    let prev = ground;
    for (let i = 0; i < 200; i++) {
      const link = space.addBody(new Body({ position: [0, -(i * 0.5 + 0.25)], shapes: [Polygon.box(0.125, 0.5)] }));
      joints.push(space.addConstraint(new PivotJoint({ body1: prev, body2: link, anchor1: i === 0 ? [0, 0] : [0, -0.25], anchor2: [0, 0.25], ignore: true })));
      prev = link;
    }
    for (let i = 0; i < 600; i++) space.step(DT);
    expect(Math.max(...joints.map(separation))).toBeLessThan(0.01);
  });

  it('a 10 kg box hanging from 0.1 kg links (mass ratio 100:1) stays stable, separations under 5 cm', () => {
    const space = new Space({ gravity: [0, -10] });
    const ground = space.addBody(new Body({ type: 'static' }));
    const joints: PivotJoint[] = [];
    let prev = ground;
    for (let i = 0; i < 30; i++) {
      const link = space.addBody(new Body({ position: [0, -(i * 0.5 + 0.25)], mass: 0.1, shapes: [Polygon.box(0.125, 0.5)] }));
      joints.push(space.addConstraint(new PivotJoint({ body1: prev, body2: link, anchor1: i === 0 ? [0, 0] : [0, -0.25], anchor2: [0, 0.25], ignore: true })));
      prev = link;
    }
    const box = space.addBody(new Body({ position: [0, -15.5], mass: 10, shapes: [Polygon.box(1, 1)] }));
    joints.push(space.addConstraint(new PivotJoint({ body1: prev, body2: box, anchor1: [0, -0.25], anchor2: [0, 0.5] })));
    box.applyImpulse([20, 0]); // swing it
    let worst = 0;
    for (let i = 0; i < 600; i++) {
      space.step(DT);
      worst = Math.max(worst, ...joints.map(separation));
    }
    expect(worst).toBeLessThan(0.05);
    expect(box.y).toBeGreaterThan(-16); // it did not fall away
  });

  it('a soft pivot oscillates at its frequency within 5%, and damping 1 does not overshoot', () => {
    const run = (damping: number): number[] => {
      const space = new Space();
      const pin = space.addBody(new Body({ type: 'static' }));
      const b = space.addBody(new Body({ position: [0.5, 0], allowRotation: false, shapes: [new Circle({ radius: 0.1 })] }));
      space.addConstraint(new PivotJoint({ body1: pin, body2: b, stiff: false, frequency: 3, damping }));
      const xs: number[] = [];
      for (let i = 0; i < 240; i++) {
        space.step(DT);
        xs.push(b.x);
      }
      return xs;
    };
    const t = upCrossings(run(0), DT);
    const f = (t.length - 1) / (t[t.length - 1]! - t[0]!);
    expect(Math.abs(f - 3) / 3).toBeLessThan(0.05);
    const critical = run(1);
    expect(Math.min(...critical)).toBeGreaterThanOrEqual(0); // never crosses the rest point
    expect(critical[critical.length - 1]!).toBeLessThan(1e-3);
  });
});

describe('joint limits and drives', () => {
  it('LineJoint keeps anchor2 on the line and within [jointMin, jointMax]', () => {
    const space = new Space({ gravity: [0, -10] });
    const rail = space.addBody(new Body({ type: 'static', rotation: 0.4 }));
    const car = space.addBody(new Body({ position: [0, 0], shapes: [Polygon.box(0.4, 0.2)] }));
    const j = space.addConstraint(new LineJoint({ body1: rail, body2: car, direction: [1, 0], jointMin: -2, jointMax: 1 }));
    car.velocity = [6, 3];
    const n = { x: Math.cos(0.4), y: Math.sin(0.4) };
    let worstOff = 0;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = 0; i < 300; i++) {
      space.step(DT);
      const p = car.localPointToWorld(j.anchor2);
      worstOff = Math.max(worstOff, Math.abs(n.x * p.y - n.y * p.x));
      const along = n.x * p.x + n.y * p.y;
      lo = Math.min(lo, along);
      hi = Math.max(hi, along);
    }
    expect(worstOff).toBeLessThan(1e-3);
    expect(hi).toBeLessThan(1 + 5e-3);
    expect(lo).toBeGreaterThan(-2 - 5e-3);
    expect(hi).toBeGreaterThan(0.9); // it reached the upper limit
    expect(lo).toBeLessThan(-1.9); // and slid down to the lower one
  });

  it('DistanceJoint with jointMin < jointMax is slack in between and holds both limits', () => {
    const space = new Space();
    const a = space.addBody(new Body({ type: 'static' }));
    const b = space.addBody(new Body({ position: [1.5, 0], velocity: [0.5, 0], shapes: [new Circle({ radius: 0.1 })] }));
    const j = space.addConstraint(new DistanceJoint({ body1: a, body2: b, jointMin: 1, jointMax: 2 }));
    // free flight between the limits: no impulse, constant velocity
    for (let i = 0; i < 30; i++) space.step(DT);
    expect(j.impulse()[0]).toBe(0);
    expect(j.isSlack()).toBe(true);
    expect(b.velocity.x).toBeCloseTo(0.5, 12);
    // then it reaches the max limit (a stiff limit is inelastic: it stops there) ...
    let lo = Infinity;
    let hi = -Infinity;
    const track = (steps: number): void => {
      for (let i = 0; i < steps; i++) {
        space.step(DT);
        const L = Math.hypot(b.x, b.y);
        lo = Math.min(lo, L);
        hi = Math.max(hi, L);
      }
    };
    track(120);
    expect(Math.abs(b.velocity.x)).toBeLessThan(1e-6);
    // ... and, sent back inwards, stops at the min limit
    b.velocity = [-1, 0];
    track(120);
    expect(hi).toBeLessThan(2 + 1e-3);
    expect(hi).toBeGreaterThan(1.99);
    expect(lo).toBeGreaterThan(1 - 1e-3);
    expect(lo).toBeLessThan(1.01);
  });

  it('AngleJoint limits hold, and a ratio of 2 gears two wheels', () => {
    const space = new Space();
    const base = space.addBody(new Body({ type: 'static' }));
    const arm = space.addBody(new Body({ angularVel: 3, shapes: [Polygon.box(1, 0.1)] }));
    space.addConstraint(new AngleJoint({ body1: base, body2: arm, jointMin: -0.5, jointMax: 0.5 }));
    let maxA = 0;
    for (let i = 0; i < 240; i++) {
      space.step(DT);
      maxA = Math.max(maxA, Math.abs(arm.rotation));
    }
    expect(maxA).toBeLessThan(0.5 + 2e-3);
    expect(maxA).toBeGreaterThan(0.49);

    const w1 = space.addBody(new Body({ position: [5, 0], angularVel: 1, shapes: [new Circle({ radius: 1 })] }));
    const w2 = space.addBody(new Body({ position: [8, 0], shapes: [new Circle({ radius: 0.5 })] }));
    space.addConstraint(new PivotJoint({ body1: base, body2: w1, anchor1: [5, 0] }));
    space.addConstraint(new PivotJoint({ body1: base, body2: w2, anchor1: [8, 0] }));
    space.addConstraint(new AngleJoint({ body1: w1, body2: w2, ratio: 2 })); // 2·θ2 − θ1 = 0
    for (let i = 0; i < 120; i++) space.step(DT);
    expect(2 * w2.rotation - w1.rotation).toBeCloseTo(0, 4);
    expect(Math.abs(w1.rotation)).toBeGreaterThan(0.3);
    expect(w1.angularVel / w2.angularVel).toBeCloseTo(2, 4);
  });

  it('MotorJoint reaches its rate and respects maxForce', () => {
    const space = new Space();
    const base = space.addBody(new Body({ type: 'static' }));
    const wheel = space.addBody(new Body({ shapes: [new Circle({ radius: 1, density: 2 })] }));
    space.addConstraint(new PivotJoint({ body1: base, body2: wheel }));
    const motor = space.addConstraint(new MotorJoint({ body1: base, body2: wheel, rate: 4, maxForce: 3 }));
    space.step(DT);
    // torque-limited: α = maxForce / I
    expect(wheel.angularVel).toBeCloseTo((3 * DT) / wheel.inertia, 9);
    expect(Math.abs(motor.impulse()[0]!)).toBeCloseTo(3 * DT, 9);
    for (let i = 0; i < 600; i++) space.step(DT);
    expect(wheel.angularVel).toBeCloseTo(4, 9);
  });

  it('PulleyJoint conserves |p2 − p1| + ratio·|p4 − p3| while taut', () => {
    const space = new Space({ gravity: [0, -10] });
    const ceiling = space.addBody(new Body({ type: 'static' }));
    const heavy = space.addBody(new Body({ position: [-2, -3], shapes: [Polygon.box(0.5, 0.5, { density: 4 })] }));
    const light = space.addBody(new Body({ position: [2, -3], shapes: [Polygon.box(0.5, 0.5)] }));
    const total = 2.75 + 2 * 2.75; // taut from the start: anchors 2.75 m below the ceiling points
    const j = space.addConstraint(
      new PulleyJoint({ body1: ceiling, body2: heavy, body3: ceiling, body4: light, anchor1: [-2, 0], anchor2: [0, 0.25], anchor3: [2, 0], anchor4: [0, 0.25], jointMin: 0, jointMax: total, ratio: 2 }),
    );
    let worst = 0;
    // one second: long enough to move a metre, short of pulling the light box up to its pulley
    for (let i = 0; i < 60; i++) {
      space.step(DT);
      const p2 = heavy.localPointToWorld([0, 0.25]);
      const p4 = light.localPointToWorld([0, 0.25]);
      const len = Math.hypot(p2.x + 2, p2.y) + 2 * Math.hypot(p4.x - 2, p4.y);
      worst = Math.max(worst, Math.abs(len - total));
    }
    expect(worst).toBeLessThan(2e-3);
    expect(heavy.y).toBeLessThan(-3.1); // the heavy side went down, lifting the light one
    expect(light.y).toBeGreaterThan(-2.99);
    expect(j.isSlack()).toBe(false);
  });

  it('WeldJoint holds a cantilever: the tip sags far less than a free hinge would let it', () => {
    const space = new Space({ gravity: [0, -10] });
    const wall = space.addBody(new Body({ type: 'static' }));
    const beam = space.addBody(new Body({ position: [1, 0], shapes: [Polygon.box(2, 0.2)] }));
    const w = space.addConstraint(new WeldJoint({ body1: wall, body2: beam, anchor2: [-1, 0] }));
    for (let i = 0; i < 120; i++) space.step(DT);
    expect(Math.abs(beam.rotation)).toBeLessThan(1e-3);
    expect(separation(w)).toBeLessThan(1e-3);
  });
});

describe('degenerate geometry', () => {
  it('a distance joint at zero length stays finite and pulls back out to its minimum', () => {
    const space = new Space();
    const a = space.addBody(new Body({ type: 'static' }));
    const b = space.addBody(new Body({ shapes: [new Circle({ radius: 0.1 })] })); // anchors coincide
    const j = space.addConstraint(new DistanceJoint({ body1: a, body2: b, jointMin: 0, jointMax: 1 }));
    for (let i = 0; i < 30; i++) space.step(DT);
    expect(Number.isFinite(b.x) && Number.isFinite(b.y)).toBe(true);
    expect(j.impulse().every(Number.isFinite)).toBe(true);
    b.velocity = [3, 0];
    for (let i = 0; i < 60; i++) space.step(DT);
    expect(Math.hypot(b.x, b.y)).toBeLessThan(1 + 1e-3);
  });

  it('a pulley side of zero length reuses its last normal instead of dividing by zero', () => {
    const space = new Space({ gravity: [0, -10] });
    const ceiling = space.addBody(new Body({ type: 'static' }));
    const a = space.addBody(new Body({ position: [0, 0], shapes: [Polygon.box(0.3, 0.3)] })); // p2 = p1
    const b = space.addBody(new Body({ position: [2, -1], shapes: [Polygon.box(0.3, 0.3)] }));
    space.addConstraint(new PulleyJoint({ body1: ceiling, body2: a, body3: ceiling, body4: b, anchor3: [2, 0], jointMin: 0, jointMax: 1 }));
    for (let i = 0; i < 60; i++) space.step(DT);
    for (const body of [a, b]) expect(Number.isFinite(body.x) && Number.isFinite(body.y) && Number.isFinite(body.rotation)).toBe(true);
    const len = Math.hypot(a.x, a.y) + Math.hypot(b.x - 2, b.y);
    expect(len).toBeLessThan(1 + 2e-3);
  });
});

describe('debug drawing', () => {
  it('draws each joint as its anchors and the segment between them', () => {
    const space = new Space();
    const a = space.addBody(new Body({ type: 'static' }));
    const b = space.addBody(new Body({ position: [2, 0], shapes: [Polygon.box(0.5, 0.5)] }));
    space.addConstraint(new DistanceJoint({ body1: a, body2: b, anchor2: [-0.25, 0], jointMin: 1.75, jointMax: 1.75 }));
    const segments: number[][] = [];
    let points = 0;
    space.debugDraw(
      { drawPolygon: () => {}, drawCircle: () => {}, drawSegment: (x1, y1, x2, y2) => segments.push([x1, y1, x2, y2]), drawPoint: () => void points++ },
      { shapes: false, constraints: true },
    );
    expect(points).toBe(2);
    expect(segments).toEqual([[0, 0, 1.75, 0]]);
  });
});

describe('read-outs', () => {
  it('impulse() and bodyImpulse() of a body hanging at rest equal its weight times dt', () => {
    const space = new Space({ gravity: [0, -10] });
    const pin = space.addBody(new Body({ type: 'static' }));
    const b = space.addBody(new Body({ position: [0, -1], shapes: [Polygon.box(0.5, 0.5)] }));
    const j = space.addConstraint(new PivotJoint({ body1: pin, body2: b, anchor2: [0, 1] }));
    for (let i = 0; i < 120; i++) space.step(DT);
    const imp = j.impulse();
    expect(imp).toHaveLength(2);
    expect(imp[0]).toBeCloseTo(0, 9);
    expect(imp[1]).toBeCloseTo(b.mass * 10 * DT, 6);
    const onBody = j.bodyImpulse(b);
    expect(onBody.y).toBeCloseTo(b.mass * 10 * DT, 6);
    expect(j.bodyImpulse(pin).y).toBeCloseTo(-b.mass * 10 * DT, 6);
    expect(() => j.bodyImpulse(new Body())).toThrow(/PivotJoint.bodyImpulse\(body\) must be one of the constraint's bodies/);
  });
});

describe('breaking', () => {
  function hanging(maxForce: number, removeOnBreak: boolean): { space: Space; j: PivotJoint; b: Body; events: string[] } {
    const space = new Space({ gravity: [0, -10] });
    const pin = space.addBody(new Body({ type: 'static' }));
    const b = space.addBody(new Body({ position: [0, -1], mass: 2, shapes: [Polygon.box(0.5, 0.5)] }));
    const j = space.addConstraint(new PivotJoint({ body1: pin, body2: b, anchor2: [0, 1], maxForce, breakUnderForce: true, removeOnBreak }));
    const events: string[] = [];
    space.on('constraintBreak', (e) => events.push(`${e.constraint.id}:${e.reason}`));
    return { space, j, b, events };
  }

  it('breakUnderForce: holds below the limit, breaks above it, fires the event and removes the joint', () => {
    const strong = hanging(25, true); // weight is 20 N
    for (let i = 0; i < 60; i++) strong.space.step(DT);
    expect(strong.events).toEqual([]);
    const weak = hanging(15, true);
    for (let i = 0; i < 60; i++) weak.space.step(DT);
    expect(weak.events).toEqual([`${weak.j.id}:force`]);
    expect(weak.j.space).toBe(null);
    expect(weak.space.constraints).toHaveLength(0);
    expect(weak.b.y).toBeLessThan(-2); // it fell
  });

  it('removeOnBreak = false deactivates instead', () => {
    const weak = hanging(15, false);
    for (let i = 0; i < 60; i++) weak.space.step(DT);
    expect(weak.events).toHaveLength(1);
    expect(weak.j.space).toBe(weak.space);
    expect(weak.j.active).toBe(false);
  });

  it('breakUnderError breaks a joint pulled apart further than maxError', () => {
    const space = new Space();
    const pin = space.addBody(new Body({ type: 'static' }));
    const b = space.addBody(new Body({ shapes: [Polygon.box(0.5, 0.5)] }));
    const j = space.addConstraint(new DistanceJoint({ body1: pin, body2: b, jointMin: 0, jointMax: 1, maxError: 0.5, breakUnderError: true }));
    const events: string[] = [];
    space.on('constraintBreak', (e) => events.push(e.reason));
    b.position = [1.2, 0];
    space.step(DT);
    expect(events).toEqual([]);
    b.position = [3, 0];
    space.step(DT);
    expect(events).toEqual(['error']);
    expect(j.space).toBe(null);
  });
});

describe('waking and validation', () => {
  /** Every joint with a fresh, sleeping island, and a value to set for each property. */
  function sleepingScenes(): Array<{ space: Space; joint: Joint; body: Body; props: Record<string, unknown> }> {
    const make = (build: (pin: Body, b: Body, c: Body) => Joint, props: (pin: Body, b: Body, c: Body) => Record<string, unknown>) => {
      const space = new Space({ gravity: [0, -10] });
      const pin = space.addBody(new Body({ type: 'static' }));
      const b = space.addBody(new Body({ position: [0, -1], shapes: [Polygon.box(0.3, 0.3)] }));
      const c = space.addBody(new Body({ position: [1, -1], shapes: [Polygon.box(0.3, 0.3)] }));
      space.addConstraint(new PivotJoint({ body1: pin, body2: c, anchor1: [1, -1] }));
      space.addConstraint(new PivotJoint({ body1: pin, body2: b, anchor1: [0, -1] })); // every joint below agrees with it
      const joint = space.addConstraint(build(pin, b, c));
      return { space, joint, body: b, props: props(pin, b, c) };
    };
    const base = { stiff: false, maxForce: 1e6, maxError: 1e6, breakUnderForce: false, breakUnderError: false, ignore: true, active: false };
    return [
      make((p, b) => new PivotJoint({ body1: p, body2: b, anchor2: [0, 1] }), (_p, _b, c) => ({ ...base, anchor1: [0, 0.01], anchor2: [0, 0.99], body1: c })),
      make((p, b) => new WeldJoint({ body1: p, body2: b, anchor2: [0, 1] }), () => ({ ...base, phase: 0.1, anchor1: [0.01, 0] })),
      make((p, b) => new DistanceJoint({ body1: p, body2: b, jointMin: 1, jointMax: 1 }), () => ({ ...base, jointMin: 0.9, jointMax: 1.1, anchor2: [0, 0.1] })),
      make((p, b) => new LineJoint({ body1: p, body2: b, direction: [0, 1], jointMin: -1, jointMax: -1 }), () => ({ ...base, direction: [0.1, 1], jointMin: -1.2, jointMax: -0.9 })),
      make((p, b) => new AngleJoint({ body1: p, body2: b }), () => ({ ...base, jointMin: -0.1, jointMax: 0.1, ratio: 2 })),
      make((p, b) => new MotorJoint({ body1: p, body2: b, rate: 0 }), () => ({ ...base, rate: 1, ratio: 2 })),
      make(
        (p, b, c) => new PulleyJoint({ body1: p, body2: b, body3: p, body4: c, anchor1: [0, 0], anchor3: [1, 0], jointMin: 2, jointMax: 2 }),
        () => ({ ...base, jointMin: 1.9, jointMax: 2.1, ratio: 1.5, anchor2: [0, 0.1] }),
      ),
    ];
  }

  it('changing any joint property on a sleeping island wakes it', () => {
    const tried: string[] = [];
    const count = sleepingScenes().length;
    for (let k = 0; k < count; k++) {
      for (const key of Object.keys(sleepingScenes()[k]!.props)) {
        // a fresh scene per property, so every change starts from a sleeping island
        const { space, joint, body, props } = sleepingScenes()[k]!;
        for (let i = 0; i < 600 && !body.isSleeping; i++) space.step(DT);
        expect(body.isSleeping, `${joint.typeName} fell asleep`).toBe(true);
        (joint as unknown as Record<string, unknown>)[key] = props[key];
        if (body.isSleeping) throw new Error(`setting ${joint.typeName}.${key} did not wake the island`);
        tried.push(`${joint.typeName}.${key}`);
      }
    }
    expect(tried.length).toBeGreaterThan(50);
  });

  it('frequency and damping do not wake a stiff joint; removeOnBreak wakes nothing', () => {
    const [{ space, joint, body }] = sleepingScenes();
    for (let i = 0; i < 300 && !body.isSleeping; i++) space.step(DT);
    expect(body.isSleeping).toBe(true);
    joint.frequency = 3;
    joint.damping = 0.5;
    joint.removeOnBreak = false;
    expect(body.isSleeping).toBe(true);
    expect(joint.isSleeping).toBe(true);
    joint.stiff = false;
    expect(body.isSleeping).toBe(false);
  });

  it('invalid values throw an error naming the joint, the property and the value, and change nothing', () => {
    const a = new Body();
    const b = new Body();
    const cases: Array<[() => unknown, RegExp]> = [
      [() => new PivotJoint({ body1: a, body2: b, frequency: 0 }), /PivotJoint.frequency must be a positive finite number, got 0/],
      [() => new PivotJoint({ body1: a, body2: b, damping: -1 }), /PivotJoint.damping must be a non-negative finite number, got -1/],
      [() => new WeldJoint({ body1: a, body2: b, phase: NaN }), /WeldJoint.phase must be a finite number, got NaN/],
      [() => new DistanceJoint({ body1: a, body2: b, jointMin: 2, jointMax: 1 }), /DistanceJoint.jointMin must not exceed jointMax \(1\), got 2/],
      [() => new AngleJoint({ jointMin: NaN }), /AngleJoint.jointMin must be a number \(±Infinity allowed\), got NaN/],
      [() => new LineJoint({ direction: [0, 0] }), /LineJoint.direction must be a non-zero vector, got \[0, 0\]/],
      [() => new PivotJoint({ body1: a, body2: a }), /PivotJoint.body2 must differ from body1, got "Body#\d+"/],
      [() => new PulleyJoint({ body3: a, body4: a }), /PulleyJoint.body4 must differ from body3/],
      [() => new PivotJoint({ anchor1: [1, Infinity] }), /PivotJoint.anchor1 must be a vector with finite components, got \[1, Infinity\]/],
      [() => new MotorJoint({ maxForce: -1 }), /MotorJoint.maxForce must be a non-negative number \(Infinity allowed\), got -1/],
    ];
    for (const [f, re] of cases) {
      expect(f).toThrow(FulcrumInputError);
      expect(f).toThrow(re);
    }
    const j = new DistanceJoint({ body1: a, body2: b, jointMin: 1, jointMax: 2 });
    expect(() => (j.jointMax = 0.5)).toThrow(/DistanceJoint.jointMin must not exceed jointMax \(0.5\), got 1/);
    expect(j.jointMax).toBe(2);
    expect(() => (j.body2 = a)).toThrow(/must differ from body1/);
    expect(j.body2).toBe(b);
  });

  it('a joint may be built before its bodies; stepping with a missing or foreign body names the joint', () => {
    const space = new Space({ gravity: [0, -10] });
    const pin = space.addBody(new Body({ type: 'static' }));
    const b = space.addBody(new Body({ position: [0, -1], shapes: [Polygon.box(0.3, 0.3)] }));
    const j = space.addConstraint(new PivotJoint({ anchor2: [0, 1] }));
    expect(() => space.step(DT)).toThrow(new RegExp(`PivotJoint#${j.id}.body1 is not set`));
    j.body1 = pin;
    const other = new Space();
    const stranger = other.addBody(new Body());
    j.body2 = stranger;
    expect(() => space.step(DT)).toThrow(new RegExp(`PivotJoint#${j.id}.body2 \\(Body#${stranger.id}\\) is in another space`));
    j.body2 = b;
    for (let i = 0; i < 60; i++) space.step(DT);
    expect(separation(j)).toBeLessThan(1e-3);
    expect(b.y).toBeCloseTo(-1, 3);
  });

  it('activating a joint whose body went missing is caught at the next step', () => {
    const space = new Space({ gravity: [0, -10] });
    const pin = space.addBody(new Body({ type: 'static' }));
    const b = space.addBody(new Body({ position: [0, -1], shapes: [Polygon.box(0.3, 0.3)] }));
    const j = space.addConstraint(new PivotJoint({ body1: pin, body2: b, anchor2: [0, 1], active: false }));
    space.step(DT);
    j.body2 = null;
    space.step(DT); // inactive: fine
    j.active = true;
    expect(() => space.step(DT)).toThrow(new RegExp(`PivotJoint#${j.id}.body2 is not set`));
  });

  it('inactive joints are ignored by the solver; ignore stops collisions between the joined bodies', () => {
    const space = new Space({ gravity: [0, -10] });
    const floor = space.addBody(new Body({ type: 'static', position: [0, -0.5], shapes: [Polygon.box(10, 1)] }));
    const box = space.addBody(new Body({ position: [0, 0.5], shapes: [Polygon.box(1, 1)] }));
    const j: Constraint = space.addConstraint(new DistanceJoint({ body1: floor, body2: box, jointMin: 0, jointMax: 10, ignore: true, active: false }));
    for (let i = 0; i < 30; i++) space.step(DT);
    expect(box.y).toBeLessThan(0); // fell through the floor: ignore works even while inactive
    expect(j.impulse()).toEqual([0]);
  });
});
