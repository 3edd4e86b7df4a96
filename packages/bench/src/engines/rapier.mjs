// Rapier 2D (@dimforge/rapier2d-compat: the WebAssembly module is embedded, no fetch). Metres, y up.
import RAPIER from '@dimforge/rapier2d-compat';

const DT = 1 / 60;
// Collision groups: membership = group 0, filter = nothing, so such a collider never collides.
const NO_COLLIDE = 0x0001_0000;

export async function create(spec) {
  await RAPIER.init();
  const world = new RAPIER.World({ x: 0, y: -10 });
  world.timestep = DT;
  const bodies = spec.bodies.map((b) => {
    const desc = b.type === 'static' ? RAPIER.RigidBodyDesc.fixed() : RAPIER.RigidBodyDesc.dynamic().setCanSleep(false);
    const body = world.createRigidBody(desc.setTranslation(b.x, b.y));
    if (b.shape) {
      let cd = b.shape.kind === 'box' ? RAPIER.ColliderDesc.cuboid(b.shape.w / 2, b.shape.h / 2) : RAPIER.ColliderDesc.ball(b.shape.r);
      cd = cd.setDensity(1).setFriction(0.6).setRestitution(0);
      if (!b.collide) cd = cd.setCollisionGroups(NO_COLLIDE).setSolverGroups(NO_COLLIDE);
      world.createCollider(cd, body);
    }
    return body;
  });
  for (const j of spec.joints) {
    const data = RAPIER.JointData.revolute({ x: j.anchorA[0], y: j.anchorA[1] }, { x: j.anchorB[0], y: j.anchorB[1] });
    const joint = world.createImpulseJoint(data, bodies[j.a], bodies[j.b], true);
    joint.setContactsEnabled(false);
  }
  return {
    step: () => world.step(),
    pose: (k) => {
      const b = bodies[k];
      const t = b.translation();
      return [t.x, t.y, b.rotation()];
    },
    settings: {
      call: 'world.step() with world.timestep = 1/60',
      version: RAPIER.version(),
      numSolverIterations: world.numSolverIterations,
      numInternalPgsIterations: world.numInternalPgsIterations,
      maxCcdSubsteps: world.maxCcdSubsteps,
      lengthUnit: world.lengthUnit,
      canSleep: false,
      noCollide: 'collision and solver groups 0x00010000',
      joint: 'ImpulseJoint JointData.revolute, contacts disabled',
    },
  };
}
