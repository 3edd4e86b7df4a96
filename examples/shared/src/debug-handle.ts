/**
 * `window.__fulcrum`: the handle browser tests read the app's state through. The page writes
 * it; nothing in the app reads it back.
 *
 * - `frames`: frames R3F rendered so far, counted in a useFrame callback. Under
 *   frameloop="demand" it stands still while nothing moves.
 * - `stats`: what the stats overlay shows, refreshed with it.
 * - `app`: each example's own probes (the car's position, the broken-joint count, …).
 */
export interface StatsSnapshot {
  /** Bodies in the space, static ones included. */
  bodies: number;
  /** Islands of awake dynamic bodies. */
  awakeIslands: number;
  /** Mean wall time of one space step over the last refresh window, in milliseconds. */
  stepMs: number;
  /** Steps taken so far. */
  steps: number;
}

export interface FulcrumDebugHandle {
  frames: number;
  stats: StatsSnapshot;
  app: Record<string, unknown>;
}

declare global {
  interface Window {
    __fulcrum?: FulcrumDebugHandle;
  }
}

/** The page's handle, created on first use. */
export function debugHandle(): FulcrumDebugHandle {
  window.__fulcrum ??= { frames: 0, stats: { bodies: 0, awakeIslands: 0, stepMs: 0, steps: 0 }, app: {} };
  return window.__fulcrum;
}
