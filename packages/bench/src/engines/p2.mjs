// p2-es (the maintained ES-module fork of p2.js). Metres, y up: no conversion.
import * as p2 from 'p2-es';

const DT = 1 / 60;

export async function create(spec) {
  const world = new p2.World({ gravity: [0, -10] });
  world.sleepMode = p2.World.NO_SLEEPING;
  world.defaultContactMaterial.friction = 0.6;
  world.defaultContactMaterial.restitution = 0;
  const bodies = spec.bodies.map((b) => {
    const dynamic = b.type === 'dynamic';
    // p2 bodies default to damping 0.1 / angularDamping 0.1: the benchmark has no damping.
    const body = new p2.Body({
      type: dynamic ? p2.Body.DYNAMIC : p2.Body.STATIC,
      mass: dynamic ? 1 : 0,
      position: [b.x, b.y],
      damping: 0,
      angularDamping: 0,
    });
    if (b.shape) {
      const shape = b.shape.kind === 'box' ? new p2.Box({ width: b.shape.w, height: b.shape.h }) : new p2.Circle({ radius: b.shape.r });
      if (!b.collide) {
        shape.collisionGroup = 1;
        shape.collisionMask = 0;
      }
      body.addShape(shape);
      if (dynamic) body.setDensity(1); // mass = area * density, inertia from the shape
    }
    world.addBody(body);
    return body;
  });
  for (const j of spec.joints) {
    world.addConstraint(
      new p2.RevoluteConstraint(bodies[j.a], bodies[j.b], {
        localPivotA: [j.anchorA[0], j.anchorA[1]],
        localPivotB: [j.anchorB[0], j.anchorB[1]],
        collideConnected: false,
      }),
    );
  }
  return {
    // world.step(dt) without timeSinceLastCalled: one fixed step, no interpolation.
    step: () => world.step(DT),
    pose: (k) => {
      const b = bodies[k];
      return [b.position[0], b.position[1], b.angle];
    },
    settings: {
      call: 'world.step(1/60)',
      solver: world.solver.constructor.name,
      iterations: world.solver.iterations,
      tolerance: world.solver.tolerance,
      equationStiffness: p2.Equation.DEFAULT_STIFFNESS,
      equationRelaxation: p2.Equation.DEFAULT_RELAXATION,
      islandSplit: world.islandSplit,
      sleepMode: 'NO_SLEEPING',
      damping: 0,
      noCollide: 'shape.collisionMask 0',
      joint: 'RevoluteConstraint',
    },
  };
}
