// Rapier 2D scene building, shared by the adapters of both builds (rapier.mjs: @dimforge/rapier2d-compat;
// rapier-simd.mjs: @dimforge/rapier2d-simd-compat). Each adapter imports its own module and passes it
// in, so a worker process loads only the build it measures. Metres, y up.

const DT = 1 / 60;
// Collision groups: membership = group 0, filter = nothing, so such a collider never collides.
const NO_COLLIDE = 0x0001_0000;

/** Builds `spec` with the Rapier module `R` (any build with the compat API: init() embeds the wasm). */
export async function createWith(R, spec) {
  await R.init();
  const world = new R.World({ x: 0, y: -10 });
  world.timestep = DT;
  const bodies = spec.bodies.map((b) => {
    const desc = b.type === 'static' ? R.RigidBodyDesc.fixed() : R.RigidBodyDesc.dynamic().setCanSleep(false);
    const body = world.createRigidBody(desc.setTranslation(b.x, b.y));
    if (b.shape) {
      let cd = b.shape.kind === 'box' ? R.ColliderDesc.cuboid(b.shape.w / 2, b.shape.h / 2) : R.ColliderDesc.ball(b.shape.r);
      cd = cd.setDensity(1).setFriction(0.6).setRestitution(0);
      if (!b.collide) cd = cd.setCollisionGroups(NO_COLLIDE).setSolverGroups(NO_COLLIDE);
      world.createCollider(cd, body);
    }
    return body;
  });
  for (const j of spec.joints) {
    const data = R.JointData.revolute({ x: j.anchorA[0], y: j.anchorA[1] }, { x: j.anchorB[0], y: j.anchorB[1] });
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
      version: R.version(),
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
