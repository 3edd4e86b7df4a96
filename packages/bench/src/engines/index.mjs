// The engines, in table order. `pkg` is the npm package whose version is recorded; `scenes` are the
// scenes an engine runs (E, F, H, I and the J/K families exercise Fulcrum-only constraint forms; G is H's reference;
// L, fast bodies in a thin-walled box, needs initial velocities, which only Fulcrum's adapter reads;
// M, 22,000 boxes, runs only when named (OPT_IN_SCENES in scenes.mjs), and not on planck or p2-es: a run
// of M takes planck about 4 minutes (its continuous collision while the pyramids settle), at the timeout,
// and p2-es about 9 (1.3 to 1.6 s a step); see the README).
export const ENGINES = [
  { id: 'fulcrum', label: 'Fulcrum', pkg: '@fulcrum/physics', scenes: ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'J-user', 'J-sym', 'K', 'K-user', 'K-sym', 'L', 'M'] },
  { id: 'planck', label: 'planck', pkg: 'planck', scenes: ['A', 'B', 'C', 'D'] },
  { id: 'matter', label: 'matter-js', pkg: 'matter-js', scenes: ['A', 'B', 'C', 'D', 'M'] },
  { id: 'p2', label: 'p2-es', pkg: 'p2-es', scenes: ['A', 'B', 'C', 'D'] },
  { id: 'rapier', label: 'Rapier', pkg: '@dimforge/rapier2d-compat', scenes: ['A', 'B', 'C', 'D', 'M'] },
  // The SIMD build as a peer of its own: 0.19.3, the newest SIMD release on the registry (rapier is 0.21.0).
  { id: 'rapier-simd', label: 'Rapier SIMD', pkg: '@dimforge/rapier2d-simd-compat', scenes: ['A', 'B', 'C', 'D', 'M'] },
  { id: 'box2d', label: 'box2d-wasm', pkg: 'box2d-wasm', scenes: ['A', 'B', 'C', 'D', 'M'] },
];

export const ENGINE_IDS = ENGINES.map((e) => e.id);

export function engineById(id) {
  const e = ENGINES.find((x) => x.id === id);
  if (!e) throw new Error(`unknown engine ${JSON.stringify(id)} (expected one of ${ENGINE_IDS.join(', ')})`);
  return e;
}

/** The adapter module of an engine: `create(spec)` → { step, pose, settings } (or { pending }). */
export function loadAdapter(id) {
  engineById(id);
  return import(`./${id}.mjs`);
}
