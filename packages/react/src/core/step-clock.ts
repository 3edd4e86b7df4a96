/**
 * StepClock: turns R3F's frame deltas into fixed physics steps and an interpolation factor.
 *
 * - A fixed step (`timeStep` a number) uses an accumulator: each frame adds its delta, and the
 *   space steps while a whole step is banked. `alpha` is the banked fraction of a step, used to
 *   draw bodies between their previous and current states.
 * - Long frames are clamped to `maxSubSteps` steps, and time beyond that is dropped, so a slow
 *   frame slows the simulation down instead of feeding a spiral of ever longer frames.
 * - `resume` marks the first frame after an idle period (demand mode with everything asleep):
 *   its delta is R3F's whole idle time, so the bank is emptied and at most one step runs.
 * - `"vary"` steps once by the frame's delta (clamped to MAX_VARY_STEP) and never interpolates.
 */
export type TimeStep = number | 'vary';

export interface StepClockOptions {
  timeStep: TimeStep;
  maxSubSteps: number;
  interpolate: boolean;
  paused: boolean;
}

/** Longest single step in "vary" mode, seconds. */
export const MAX_VARY_STEP = 1 / 30;

export class StepClock {
  /** Banked time, seconds (always below one step after `begin`). */
  accumulator = 0;
  /** Steps to run this frame. */
  steps = 0;
  /** Length of each of those steps. */
  dt = 0;
  /** Where to draw between the previous (0) and the current (1) state. */
  alpha = 1;

  /** Plan one frame of `delta` seconds. */
  begin(delta: number, o: StepClockOptions, resume: boolean): void {
    if (!(delta > 0) || !Number.isFinite(delta)) delta = 0;
    this.steps = 0;
    if (o.paused) {
      this.alpha = 1;
      return;
    }
    if (resume) this.accumulator = 0;
    if (o.timeStep === 'vary') {
      const dt = Math.min(delta, MAX_VARY_STEP);
      this.dt = dt;
      this.steps = dt > 0 ? 1 : 0;
      this.alpha = 1;
      return;
    }
    const ts = o.timeStep;
    const frame = resume ? Math.min(delta, ts) : Math.min(delta, o.maxSubSteps * ts);
    let acc = this.accumulator + frame;
    // A hair of tolerance so that n frames of exactly one step give n steps despite rounding.
    const steps = Math.min(Math.floor((acc + ts * 1e-9) / ts), o.maxSubSteps);
    acc -= steps * ts;
    if (acc < 0) acc = 0;
    this.accumulator = acc;
    this.dt = ts;
    this.steps = steps;
    this.alpha = o.interpolate ? acc / ts : 1;
  }

  /** Forget banked time (pause, a manual step, a new space). */
  reset(): void {
    this.accumulator = 0;
    this.alpha = 1;
  }
}
