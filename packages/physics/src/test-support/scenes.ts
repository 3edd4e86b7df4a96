/**
 * Scene builders shared by the engine's tests (and later the benchmarks). Not exported from
 * the package index.
 */
import { Body } from '../body/body.js';
import { DistanceJoint } from '../constraint/joints/distance-joint.js';
import { WeldJoint } from '../constraint/joints/weld-joint.js';
import { Capsule } from '../shape/capsule.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from '../space/space.js';

export function groundBody(width = 100, y = -0.5, friction = 0.6): Body {
  return new Body({ type: 'static', position: [0, y], shapes: [Polygon.box(width, 1, { friction })] });
}

/** A pyramid of `rows` rows of 1 m boxes standing on a ground whose top is y = 0. */
export function pyramid(space: Space, rows: number, size = 1, friction = 0.6): Body[] {
  space.addBody(groundBody(Math.max(100, rows * 2 * size)));
  const boxes: Body[] = [];
  for (let row = 0; row < rows; row++) {
    const n = rows - row;
    for (let i = 0; i < n; i++) {
      const x = (i - (n - 1) / 2) * size;
      const y = size / 2 + row * size;
      const b = new Body({ position: [x, y], shapes: [Polygon.box(size, size, { friction })] });
      space.addBody(b);
      boxes.push(b);
    }
  }
  return boxes;
}

/** A mixed scene of boxes and circles dropped on a ground: used for determinism. */
export function mixedScene(space: Space): Body[] {
  space.addBody(groundBody());
  const out: Body[] = [];
  for (let i = 0; i < 40; i++) {
    const x = ((i * 37) % 11) - 5 + 0.1 * (i % 3);
    const y = 1 + i * 0.9;
    const shape = i % 2 === 0 ? Polygon.box(0.8, 0.6, { friction: 0.5 }) : new Circle({ radius: 0.35, restitution: 0.2 });
    const b = new Body({ position: [x, y], rotation: 0.1 * i, angularVel: 0.05 * (i % 5), shapes: [shape] });
    space.addBody(b);
    out.push(b);
  }
  return out;
}

/**
 * An n × n grid of discs (radius 0.3, colliding with nothing) 1 m apart from (x0, y0) down and to
 * the right, grid[i·n + j] at (x0 + i, y0 − j); its top row's ends pinned (static) and its middle
 * pinned to a kinematic body moving right at 0.4 m/s. The caller joins them.
 */
export function discGrid(space: Space, n: number, x0: number, y0: number): Body[] {
  const grid: Body[] = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const pinned = j === 0 && (i === 0 || i === n - 1 || i === n >> 1);
      const moving = pinned && i === n >> 1;
      const type = moving ? 'kinematic' : pinned ? 'static' : 'dynamic';
      grid.push(space.addBody(new Body({ type, position: [x0 + i, y0 - j], velocity: moving ? [0.4, 0] : [0, 0], shapes: [new Circle({ radius: 0.3, filter: { mask: 0 } })] })));
    }
  }
  return grid;
}

/** FNV-1a over the exact bits of every body's state. */
export function hashState(bodies: readonly Body[]): string {
  const f = new Float64Array(6);
  const u = new Uint32Array(f.buffer);
  let h = 0x811c9dc5;
  for (const b of bodies) {
    f[0] = b.x;
    f[1] = b.y;
    f[2] = b.rotation;
    f[3] = b.velocity.x;
    f[4] = b.velocity.y;
    f[5] = b.angularVel;
    for (let i = 0; i < u.length; i++) {
      h ^= u[i]!;
      h = Math.imul(h, 0x01000193) >>> 0;
    }
  }
  return h.toString(16).padStart(8, '0');
}

export function stepFor(space: Space, seconds: number, dt = 1 / 60): void {
  const n = Math.round(seconds / dt);
  for (let i = 0; i < n; i++) space.step(dt);
}

export function allFinite(bodies: readonly Body[]): boolean {
  return bodies.every(
    (b) =>
      Number.isFinite(b.x) &&
      Number.isFinite(b.y) &&
      Number.isFinite(b.rotation) &&
      Number.isFinite(b.velocity.x) &&
      Number.isFinite(b.velocity.y) &&
      Number.isFinite(b.angularVel),
  );
}

/**
 * Fuzz seed 1253833093, minimised: a 0.2 kg body welded far from its centre to a 0.03 kg ball that
 * hangs on a DistanceJoint range [0.4, 0.7] from a 0.8 kg body, all free, thrown at 27 m/s.
 */
export function weldedBallOnRange(): { space: Space; heavy: Body; ball: Body; range: DistanceJoint } {
  const space = new Space({ gravity: [4, -20], jointIterations: 2 });
  const octagon: [number, number][] = [[-0.01, -0.008], [-0.006, -0.01], [0.01, -0.01], [0.015, -0.002], [0.01, 0.005], [0.004, 0.01], [-0.006, 0.01], [-0.02, 0.001]];
  const body = space.addBody(new Body({ position: [4, 9], rotation: -1, mass: 0.2, linearDrag: 2, shapes: [Polygon.box(0.02, 0.04, { radius: 0.002 }), new Polygon({ vertices: octagon, offset: [-0.03, 0.03] })] }));
  const heavy = space.addBody(new Body({ position: [3, 7.7], mass: 0.8, velocity: [20, 18], angularVel: 4, shapes: [new Capsule({ p1: [-0.2, -0.1], p2: [0.1, 0.1], radius: 0.1, angle: -2 })] }));
  const ball = space.addBody(new Body({ position: [2, 9], shapes: [new Circle({ radius: 0.04, angle: 1, density: 6 })] }));
  const range = space.addConstraint(new DistanceJoint({ body1: ball, body2: heavy, anchor1: [0.01, -0.2], anchor2: [-1, 2], jointMin: 0.4, jointMax: 0.7 }));
  space.addConstraint(new WeldJoint({ body1: body, body2: ball, anchor1: [-0.2, -0.3], anchor2: [0.9, -0.4], phase: 0.3 }));
  return { space, heavy, ball, range };
}
