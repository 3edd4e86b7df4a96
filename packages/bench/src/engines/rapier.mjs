// Rapier 2D (@dimforge/rapier2d-compat: the WebAssembly module is embedded, no fetch). Metres, y up.
// The scene building (rapier-scene.mjs) is shared with the SIMD build's adapter, rapier-simd.mjs.
import RAPIER from '@dimforge/rapier2d-compat';
import { createWith } from './rapier-scene.mjs';

export function create(spec) {
  return createWith(RAPIER, spec);
}
