// planck.js (a JavaScript port of Box2D 2.x). Metres, y up: no conversion.
import * as planck from 'planck';

const DT = 1 / 60;

export async function create(spec) {
  const world = new planck.World({ gravity: { x: 0, y: -10 }, allowSleep: false });
  const bodies = spec.bodies.map((b) => {
    const body = world.createBody({ type: b.type, position: { x: b.x, y: b.y } });
    if (b.shape) {
      const shape = b.shape.kind === 'box' ? new planck.Box(b.shape.w / 2, b.shape.h / 2) : new planck.Circle(b.shape.r);
      body.createFixture({ shape, density: 1, friction: 0.6, restitution: 0, filterGroupIndex: b.collide ? 0 : -1 });
    }
    return body;
  });
  for (const j of spec.joints) {
    const def = { localAnchorA: { x: j.anchorA[0], y: j.anchorA[1] }, localAnchorB: { x: j.anchorB[0], y: j.anchorB[1] } };
    world.createJoint(new planck.RevoluteJoint(def, bodies[j.a], bodies[j.b]));
  }
  return {
    // world.step(dt) with no iteration counts uses the world's defaults (WorldDef: 8 and 3).
    step: () => world.step(DT),
    pose: (k) => {
      const b = bodies[k];
      const p = b.getPosition();
      return [p.x, p.y, b.getAngle()];
    },
    settings: {
      call: 'world.step(1/60) (defaults)',
      velocityIterations: world.m_velocityIterations,
      positionIterations: world.m_positionIterations,
      warmStarting: world.m_warmStarting,
      continuousPhysics: world.m_continuousPhysics,
      blockSolve: world.m_blockSolve,
      allowSleep: world.m_allowSleep,
      noCollide: 'fixture filterGroupIndex -1',
      joint: 'RevoluteJoint',
    },
  };
}
