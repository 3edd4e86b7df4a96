/**
 * Browser-side half of the harness (no Node imports): the app exposes `window.__fulcrum`.
 *
 * Contract:
 * - `window.__fulcrum.frames` is the number of frames rendered so far: one per
 *   `renderer.render()` call. `countRenders(gl)` installs it (for R3F:
 *   `<Canvas onCreated={({ gl }) => countRenders(gl)}>`).
 * - Any other field is app status the tests may poll, e.g. `{ awakeBodies, sceneId }`;
 *   set it with `setProbe({ … })`. Values must be JSON-serialisable.
 */

/** The probe object, created on first use. */
export function fulcrumProbe() {
  const g = globalThis;
  g.__fulcrum ??= { frames: 0 };
  g.__fulcrum.frames ??= 0;
  return g.__fulcrum;
}

/** Merges `fields` into the probe. */
export function setProbe(fields) {
  Object.assign(fulcrumProbe(), fields);
}

const COUNTED = Symbol.for('fulcrum.browser-testing.countRenders');

/**
 * Wraps `renderer.render` so that each call increments `window.__fulcrum.frames`.
 * Idempotent per renderer; returns a function that restores the original method.
 */
export function countRenders(renderer) {
  if (!renderer || typeof renderer.render !== 'function') {
    throw new Error(`countRenders: renderer must have a render() method, got ${String(renderer)}`);
  }
  if (renderer[COUNTED]) return renderer[COUNTED];
  const probe = fulcrumProbe();
  const original = renderer.render;
  renderer.render = function countedRender(...args) {
    probe.frames++;
    return original.apply(this, args);
  };
  const restore = () => {
    renderer.render = original;
    delete renderer[COUNTED];
  };
  renderer[COUNTED] = restore;
  return restore;
}
