import { describe, expect, it } from 'vitest';
import { MAX_VARY_STEP, StepClock, type StepClockOptions } from './step-clock.js';

const fixed = (o: Partial<StepClockOptions> = {}): StepClockOptions => ({ timeStep: 0.01, maxSubSteps: 5, interpolate: true, paused: false, ...o });

describe('StepClock', () => {
  it('banks time and steps once per whole step; alpha is the banked fraction', () => {
    const c = new StepClock();
    c.begin(0.025, fixed(), false);
    expect(c.steps).toBe(2);
    expect(c.dt).toBe(0.01);
    expect(c.alpha).toBeCloseTo(0.5, 12);
    c.begin(0.004, fixed(), false);
    expect(c.steps).toBe(0);
    expect(c.alpha).toBeCloseTo(0.9, 12);
    c.begin(0.001, fixed(), false);
    expect(c.steps).toBe(1);
    expect(c.alpha).toBeCloseTo(0, 9);
  });

  it('n frames of exactly one step give n steps despite rounding', () => {
    const c = new StepClock();
    let steps = 0;
    for (let i = 0; i < 1000; i++) {
      c.begin(1 / 60, fixed({ timeStep: 1 / 60 }), false);
      steps += c.steps;
    }
    expect(steps).toBe(1000);
  });

  it('clamps a long frame to maxSubSteps and drops the rest', () => {
    const c = new StepClock();
    c.begin(10, fixed(), false);
    expect(c.steps).toBe(5);
    expect(c.accumulator).toBeLessThan(0.01);
    c.begin(0.01, fixed(), false);
    expect(c.steps).toBe(1);
  });

  it('resuming from idle empties the bank and runs at most one step', () => {
    const c = new StepClock();
    c.begin(0.009, fixed(), false);
    c.begin(100, fixed(), true);
    expect(c.steps).toBe(1);
    expect(c.accumulator).toBe(0);
  });

  it('without interpolation alpha is 1; paused runs nothing; vary steps once by the clamped delta', () => {
    const c = new StepClock();
    c.begin(0.015, fixed({ interpolate: false }), false);
    expect(c.alpha).toBe(1);
    c.begin(1, fixed({ paused: true }), false);
    expect(c.steps).toBe(0);
    expect(c.alpha).toBe(1);
    c.begin(0.02, fixed({ timeStep: 'vary' }), false);
    expect([c.steps, c.dt, c.alpha]).toEqual([1, 0.02, 1]);
    c.begin(5, fixed({ timeStep: 'vary' }), false);
    expect(c.dt).toBe(MAX_VARY_STEP);
    c.begin(0, fixed({ timeStep: 'vary' }), false);
    expect(c.steps).toBe(0);
    c.begin(Number.NaN, fixed(), false);
    expect(c.steps).toBe(0);
  });
});
