/**
 * Continuous collision: dynamic bodies never tunnel through static or kinematic ones, bullets not
 * through dynamic ones either; disableCCD turns it off; slow scenes step bit for bit as without it.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Capsule } from '../shape/capsule.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Segment } from '../shape/segment.js';
import { Chain } from '../shape/chain.js';
import { Space } from './space.js';
import { groundBody, hashState, pyramid } from '../test-support/scenes.js';
import { mulberry32 } from '../test-support/random.js';

const DT = 1 / 60;

/** A 0.05 m thick static wall along the y axis (x from −0.025 to 0.025), 2 km tall: a ball at 80° stays beside it. */
function wallScene(): { space: Space; wall: Body } {
  const space = new Space();
  const wall = space.addBody(new Body({ type: 'static', shapes: [Polygon.box(0.05, 2000)] }));
  return { space, wall };
}

describe('continuous collision', () => {
  it('a 0.1 m ball at 300 m/s never passes a 0.05 m static wall, at any angle (seeded property test)', () => {
    const rand = mulberry32(7);
    for (let trial = 0; trial < 200; trial++) {
      const { space } = wallScene();
      const angle = (rand() - 0.5) * (160 * Math.PI) / 180; // −80° to 80° from the wall's normal
      const startX = -0.1 - rand() * 4.9; // up to a step's travel (5 m) away
      const ball = space.addBody(new Body({ position: [startX, (rand() - 0.5) * 4], velocity: [300 * Math.cos(angle), 300 * Math.sin(angle)], shapes: [new Circle({ radius: 0.05 })] }));
      for (let i = 0; i < 10; i++) {
        space.step(DT);
        expect(ball.x).toBeLessThan(-0.025 + 0.05 - 0.001); // its centre never reaches the far side, nor its surface the wall's back
      }
      expect(ball.x).toBeLessThan(0);
    }
  });

  it('without it (disableCCD) the same ball goes straight through: the test has teeth', () => {
    const { space } = wallScene();
    const ball = space.addBody(new Body({ position: [-1, 0], velocity: [300, 0], disableCCD: true, shapes: [new Circle({ radius: 0.05 })] }));
    space.step(DT);
    expect(ball.x).toBeGreaterThan(1);
  });

  it('stops at the first impact with the velocity kept, and the next step takes the velocity out', () => {
    const { space } = wallScene();
    const ball = space.addBody(new Body({ position: [-2, 0], velocity: [300, 0], shapes: [new Circle({ radius: 0.05 })] }));
    space.step(DT);
    // One LINEAR_SLOP into the wall's face (x = −0.025), no more.
    expect(ball.x + 0.05).toBeGreaterThan(-0.025);
    expect(ball.x + 0.05).toBeLessThan(-0.025 + 0.0051);
    expect(ball.velocity.x).toBe(300);
    space.step(DT);
    expect(ball.velocity.x).toBeLessThan(1);
    expect(ball.x).toBeLessThan(0);
  });

  it('a bullet never passes a thin dynamic plank; a plain dynamic body does', () => {
    for (const isBullet of [true, false]) {
      const space = new Space();
      const plank = space.addBody(new Body({ position: [0, 0], shapes: [Polygon.box(0.04, 3)] }));
      const bullet = space.addBody(new Body({ position: [-2, 0.3], velocity: [250, 0], isBullet, shapes: [new Circle({ radius: 0.02, density: 50 })] }));
      for (let i = 0; i < 3; i++) space.step(DT);
      // In the plank's frame (it is knocked away spinning): the bullet's side of it, or beyond.
      const side = plank.worldPointToLocal(bullet.position).x;
      if (isBullet) expect(side).toBeLessThan(-0.02);
      else expect(side).toBeGreaterThan(1);
    }
  });

  it('a thin rod spinning fast as it falls onto the ground never tunnels', () => {
    const rand = mulberry32(3);
    for (let trial = 0; trial < 40; trial++) {
      const space = new Space({ gravity: [0, -10] });
      // Ground 5 cm thick, wide enough that the rod, knocked sideways, never slides off it.
      space.addBody(new Body({ type: 'static', shapes: [Polygon.box(1000, 0.05, { offset: [0, -0.025] })] }));
      const rod = space.addBody(
        new Body({ position: [0, 2 + rand()], rotation: rand() * Math.PI, velocity: [0, -60 - 40 * rand()], angularVel: 30 + 30 * rand(), shapes: [new Capsule({ length: 1.5, radius: 0.01 })] }),
      );
      for (let i = 0; i < 60; i++) {
        space.step(DT);
        // No point of the rod below the ground's bottom face.
        const half = 0.75;
        const lowest = rod.y - Math.abs(Math.sin(rod.rotation)) * half - 0.01;
        expect(lowest).toBeGreaterThan(-0.05);
      }
      // And it ends on top of it, not in it.
      expect(rod.y).toBeGreaterThan(0);
    }
  });

  it('a ball passing a moving kinematic paddle is stopped by it', () => {
    const space = new Space();
    const paddle = space.addBody(new Body({ type: 'kinematic', position: [0, 0], velocity: [-30, 0], shapes: [Polygon.box(0.05, 4)] }));
    const ball = space.addBody(new Body({ position: [-2, 0], velocity: [200, 0], shapes: [new Circle({ radius: 0.05 })] }));
    for (let i = 0; i < 5; i++) space.step(DT);
    expect(ball.x).toBeLessThan(paddle.x);
  });

  it('knows chains are one-sided: a fast ball passes up through one, and a fast box slides along one as along a single segment', () => {
    // Ground listed right to left: solid below, collided from above.
    const points: [number, number][] = [];
    for (let x = 200; x >= -200; x -= 0.5) points.push([x, 0]);
    const space = new Space({ gravity: [0, -10] });
    space.addBody(new Body({ type: 'static', shapes: new Chain({ vertices: points }).segments }));
    const ball = space.addBody(new Body({ position: [0, -2], velocity: [0, 30], shapes: [new Circle({ radius: 0.1 })] }));
    let peak = -Infinity;
    for (let i = 0; i < 120; i++) {
      space.step(DT);
      peak = Math.max(peak, ball.y);
    }
    expect(peak).toBeGreaterThan(20); // 30²/2g − 2 = 43 m, less what it loses to nothing but gravity
    expect(ball.y).toBeGreaterThan(0); // and it landed on top

    const slide = (ground: Body[]) => {
      const s = new Space({ gravity: [0, -10] });
      for (const g of ground) s.addBody(g);
      const box = s.addBody(new Body({ position: [-100, 0.25], velocity: [12, 0], shapes: [Polygon.box(1, 0.5, { friction: 0 })] }));
      for (let i = 0; i < 200; i++) s.step(DT);
      return box.x;
    };
    const onChain = slide([new Body({ type: 'static', shapes: new Chain({ vertices: points, friction: 0 }).segments })]);
    const onSegment = slide([new Body({ type: 'static', shapes: [new Segment({ p1: [200, 0], p2: [-200, 0], friction: 0 })] })]);
    expect(onChain).toBeCloseTo(onSegment, 2);
  });

  it('a resting pyramid steps bit for bit as with continuous collision off', () => {
    const build = (off: boolean) => {
      const space = new Space({ gravity: [0, -10] });
      space.addBody(groundBody());
      const boxes = pyramid(space, 10);
      if (off) for (const b of boxes) b.disableCCD = true;
      return space;
    };
    const on = build(false);
    const off = build(true);
    for (let i = 0; i < 300; i++) {
      on.step(DT);
      off.step(DT);
    }
    expect(hashState(on.bodies)).toBe(hashState(off.bodies));
  });

  it('isBullet and disableCCD are validated options and setters', () => {
    expect(() => new Body({ isBullet: 1 as never })).toThrow(/Body\.isBullet must be a boolean/);
    const b = new Body({ disableCCD: true });
    expect(() => (b.disableCCD = 'no' as never)).toThrow(/Body\.disableCCD/);
    expect(b.disableCCD).toBe(true);
    b.isBullet = true;
    expect(b.isBullet).toBe(true);
  });
});

describe('Space.convexCast', () => {
  it('finds the first shape along the way: time, point and normal, exactly for a box cast at a wall', () => {
    const space = new Space();
    space.addBody(new Body({ type: 'static', position: [5, 0], shapes: [Polygon.box(1, 4)] }));
    const far = space.addBody(new Body({ type: 'static', position: [9, 0], shapes: [Polygon.box(1, 4)] }));
    const probe = Polygon.box(0.5, 0.5);
    const hit = space.convexCast(probe, { position: [0, 0] }, [10, 0])!;
    expect(hit).not.toBeNull();
    expect(hit.body).not.toBe(far);
    // The probe's right face (x + 0.25) meets the wall's left face (4.5): travel 4.25 of 10, less the slop it stops short by.
    expect(hit.time * 10).toBeGreaterThan(4.25 - 0.0051);
    expect(hit.time * 10).toBeLessThanOrEqual(4.25);
    expect(hit.normal.x).toBeCloseTo(-1, 9);
    expect(hit.normal.y).toBeCloseTo(0, 9);
    expect(hit.point.x).toBeCloseTo(4.5, 2);
  });

  it('misses what is not on its way, skips its own body and sensors, and leaves what it moves away from', () => {
    const space = new Space();
    const ground = space.addBody(groundBody());
    space.addBody(new Body({ type: 'static', position: [0, 3], shapes: [Polygon.box(1, 1, { sensor: true })] }));
    const player = space.addBody(new Body({ position: [0, 0.5], shapes: [new Circle({ radius: 0.5 })] }));
    for (let i = 0; i < 5; i++) space.step(DT);
    const shape = player.shapes[0]!;
    // Up: the sensor is skipped; it leaves the ground it stands on.
    expect(space.convexCast(shape, { position: player.position }, [0, 5])).toBeNull();
    // Down: it rests on the ground, within a slop of touching: it meets it at once.
    const down = space.convexCast(shape, { position: player.position }, [0, -1])!;
    expect(down.body).toBe(ground);
    expect(down.time).toBeLessThan(0.006);
    expect(space.convexCast(shape, { position: [0, 3] }, [0, 1], { includeSensors: true })?.time).toBe(0);
  });

  it('rejects bad arguments naming them', () => {
    const space = new Space();
    expect(() => space.convexCast({} as never, { position: [0, 0] }, [1, 0])).toThrow(/convexCast\(shape\)/);
    expect(() => space.convexCast(new Circle({ radius: 1 }), null as never, [1, 0])).toThrow(/convexCast\(pose\)/);
    expect(() => space.convexCast(new Circle({ radius: 1 }), { position: [NaN, 0] }, [1, 0])).toThrow(/convexCast\(pose\.position\)/);
    expect(() => space.convexCast(new Circle({ radius: 1 }), { position: [0, 0], rotation: Infinity }, [1, 0])).toThrow(/convexCast\(pose\.rotation\)/);
    expect(() => space.convexCast(new Circle({ radius: 1 }), { position: [0, 0] }, [1, undefined] as never)).toThrow(/convexCast\(translation\)/);
  });
});
