// matter-js. Position-based (Verlet) engine with y pointing DOWN and time in milliseconds.
//
// Units: 1 matter length unit = 1 m (no pixel scaling), so every spec y and local anchor y is mirrored
// (y_matter = -y, angle_matter = -angle) when building and when reading poses back.
// Gravity: matter adds force = mass * gravity.y * gravity.scale every update, and Body.update integrates
// it as (force / mass) * deltaMs^2, so the acceleration is gravity.y * gravity.scale units/ms^2.
// 10 m/s^2 = 10e-6 m/ms^2, hence gravity.y = 0.01 with the default gravity.scale 0.001 (y down).
// Steps are Engine.update(engine, 1000 / 60).
import Matter from 'matter-js';

const { Engine, Bodies, Body, Composite, Constraint } = Matter;
const DELTA_MS = 1000 / 60;
const GRAVITY_Y = 0.01; // * scale 0.001 = 1e-5 m/ms^2 = 10 m/s^2, downwards

export async function create(spec) {
  const engine = Engine.create({ gravity: { x: 0, y: GRAVITY_Y, scale: 0.001 }, enableSleeping: false });
  const fixedPose = new Map(); // shapeless static bodies (the chain anchor) are the world itself in matter
  const bodies = spec.bodies.map((b, k) => {
    if (!b.shape) {
      if (b.type !== 'static') throw new Error('matter adapter: a dynamic body needs a shape');
      fixedPose.set(k, [b.x, b.y, 0]);
      return null;
    }
    const opts = {
      isStatic: b.type === 'static',
      density: 1,
      friction: 0.6,
      frictionAir: 0,
      restitution: 0,
      ...(b.collide ? {} : { collisionFilter: { group: -1 } }),
    };
    return b.shape.kind === 'box' ? Bodies.rectangle(b.x, -b.y, b.shape.w, b.shape.h, opts) : Bodies.circle(b.x, -b.y, b.shape.r, opts);
  });
  Composite.add(
    engine.world,
    bodies.filter((b) => b !== null),
  );
  const constraints = spec.joints.map((j) => {
    const A = bodies[j.a];
    const B = bodies[j.b];
    const opts = { length: 0, stiffness: 1, damping: 0 };
    if (A) Object.assign(opts, { bodyA: A, pointA: { x: j.anchorA[0], y: -j.anchorA[1] } });
    else {
      const [x, y] = fixedPose.get(j.a);
      opts.pointA = { x: x + j.anchorA[0], y: -(y + j.anchorA[1]) };
    }
    if (B) Object.assign(opts, { bodyB: B, pointB: { x: j.anchorB[0], y: -j.anchorB[1] } });
    else {
      const [x, y] = fixedPose.get(j.b);
      opts.pointB = { x: x + j.anchorB[0], y: -(y + j.anchorB[1]) };
    }
    return Constraint.create(opts);
  });
  if (constraints.length) Composite.add(engine.world, constraints);
  const sample = bodies.find((b) => b !== null);
  return {
    step: () => Engine.update(engine, DELTA_MS),
    pose: (k) => {
      const b = bodies[k];
      if (!b) return fixedPose.get(k);
      return [b.position.x, -b.position.y, -b.angle];
    },
    settings: {
      call: 'Engine.update(engine, 1000/60)',
      positionIterations: engine.positionIterations,
      velocityIterations: engine.velocityIterations,
      constraintIterations: engine.constraintIterations,
      enableSleeping: engine.enableSleeping,
      gravity: { y: engine.gravity.y, scale: engine.gravity.scale, effective: '0.01 * 0.001 m/ms^2 = 10 m/s^2 (y down)' },
      units: '1 unit = 1 m; y mirrored (matter y points down); ms time',
      body: { frictionAir: 0, frictionStatic: sample?.frictionStatic, slop: sample?.slop, inertiaScale: Body._inertiaScale },
      noCollide: 'collisionFilter.group -1',
      joint: 'Constraint { pointA, pointB, length: 0, stiffness: 1, damping: 0 }',
    },
  };
}
