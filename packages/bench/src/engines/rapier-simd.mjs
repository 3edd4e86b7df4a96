// Rapier 2D, SIMD build (@dimforge/rapier2d-simd-compat; its newest release on the registry is 0.19.3,
// while the plain build, rapier.mjs, is 0.21.0). The same scenes and settings as rapier.mjs: the
// scene building is rapier-scene.mjs's, with this module injected. The calls it makes are the same in
// 0.19 and 0.21 (World, timestep, RigidBodyDesc, ColliderDesc, JointData.revolute, createImpulseJoint,
// setContactsEnabled, the integration-parameter getters).
import RAPIER_SIMD from '@dimforge/rapier2d-simd-compat';
import { createWith } from './rapier-scene.mjs';

export async function create(spec) {
  const sim = await createWith(RAPIER_SIMD, spec);
  sim.settings.build = 'wasm simd128';
  return sim;
}
