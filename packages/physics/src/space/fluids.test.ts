/**
 * Fluids (Nape's fluidEnabled shapes): Archimedes and the drag model, checked against their
 * closed forms; the options validated like every other.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { submergedArea } from '../collision/submerged.js';
import { FulcrumInputError } from '../util/validate.js';
import { Space } from './space.js';

const DT = 1 / 60;
const G = 10;

/** A pool: a static fluid box whose surface is at y = 0, `depth` deep and 20 m wide. */
function pool(density: number, viscosity: number, depth = 10): { space: Space; water: Body } {
  const space = new Space({ gravity: [0, -G] });
  const water = space.addBody(new Body({ type: 'static', shapes: [Polygon.box(20, depth, { offset: [0, -depth / 2], sensor: true, fluidEnabled: true, fluidProperties: { density, viscosity } })] }));
  return { space, water };
}

const submergedShare = (water: Body, b: Body): number => {
  const out = { area: 0, cx: 0, cy: 0 };
  let area = 0;
  let own = 0;
  for (const s of b.shapes) {
    area += submergedArea(water.shapes[0]!, s, out).area;
    own += s.computeMass().mass / s.density;
  }
  return area / own;
};

describe('fluids', () => {
  it('a box of half the fluid’s density floats with half its area submerged, within 2%', () => {
    const { space, water } = pool(2, 3);
    const box = space.addBody(new Body({ position: [0, 2], shapes: [Polygon.box(1, 0.6, { density: 1 })] }));
    for (let i = 0; i < 600; i++) space.step(DT);
    expect(Math.abs(submergedShare(water, box) / 0.5 - 1)).toBeLessThan(0.02);
    expect(Math.abs(box.velocity.y)).toBeLessThan(0.01);
    // Upright: a wide flat box floats flat.
    expect(Math.abs(Math.sin(box.rotation))).toBeLessThan(0.01);
  });

  it('a ball of a quarter of its density floats a quarter under', () => {
    const { space, water } = pool(4, 10);
    // (Awake to the end: the default sleepThreshold, 5 cm/s, lets it doze off within 3% of the
    // waterline while it still creeps towards it.)
    const ball = space.addBody(new Body({ position: [0, 1], allowSleep: false, shapes: [new Circle({ radius: 0.4, density: 1 })] }));
    for (let i = 0; i < 600; i++) space.step(DT);
    expect(Math.abs(submergedShare(water, ball) / 0.25 - 1)).toBeLessThan(0.02);
  });

  it('a denser box sinks at the terminal speed of the drag model, (ρ − ρ_fluid)·g/viscosity, within 1%', () => {
    for (const [rho, fluid, viscosity] of [
      [3, 1, 4],
      [2, 1.5, 1],
      [5, 1, 20],
    ] as const) {
      const { space } = pool(fluid, viscosity, 200);
      const box = space.addBody(new Body({ position: [0, -1], shapes: [Polygon.box(0.5, 0.5, { density: rho })] }));
      for (let i = 0; i < 1200; i++) space.step(DT); // 20 s: ten time constants ρ/viscosity of the slowest

      const expected = ((rho - fluid) * G) / viscosity;
      expect(Math.abs(-box.velocity.y / expected - 1)).toBeLessThan(0.01);
    }
  });

  it('a ball bobbing in an inviscid pool neither gains nor loses energy: its amplitude after a minute is its first, within 3%', () => {
    const { space } = pool(4, 0);
    const ball = space.addBody(new Body({ position: [0, 1], shapes: [new Circle({ radius: 0.4 })] }));
    const amplitude = (): number => {
      let lo = Infinity;
      let hi = -Infinity;
      for (let i = 0; i < 600; i++) {
        space.step(DT);
        lo = Math.min(lo, ball.y);
        hi = Math.max(hi, ball.y);
      }
      return hi - lo;
    };
    const first = amplitude();
    for (let i = 0; i < 4; i++) amplitude();
    expect(Math.abs(amplitude() / first - 1)).toBeLessThan(0.03);
  });

  it('leaves what is outside it, sensors and bodies that cannot move alone', () => {
    const { space } = pool(2, 1);
    const dry = space.addBody(new Body({ position: [15, 0], gravityScale: 0, shapes: [Polygon.box(1, 1)] }));
    const probe = space.addBody(new Body({ position: [0, -2], gravityScale: 0, shapes: [Polygon.box(1, 1, { sensor: true })] }));
    const pinned = space.addBody(new Body({ position: [3, -2], allowMovement: false, allowRotation: false, shapes: [Polygon.box(1, 1)] }));
    for (let i = 0; i < 30; i++) space.step(DT);
    expect(dry.velocity).toEqual({ x: 0, y: 0 });
    expect(probe.velocity).toEqual({ x: 0, y: 0 });
    expect(pinned.velocity).toEqual({ x: 0, y: 0 });
  });

  it('changing the fluid wakes what floats in it', () => {
    const { space, water } = pool(2, 3);
    const box = space.addBody(new Body({ position: [0, 0], shapes: [Polygon.box(1, 0.6)] }));
    for (let i = 0; i < 600; i++) space.step(DT);
    expect(box.isSleeping).toBe(true);
    water.shapes[0]!.fluidProperties = { density: 4, viscosity: 10 };
    expect(box.isSleeping).toBe(false);
    for (let i = 0; i < 600; i++) space.step(DT);
    expect(Math.abs(submergedShare(water, box) / 0.25 - 1)).toBeLessThan(0.02);
  });

  it('validates its options naming them, and keeps a fluid a sensor', () => {
    expect(() => Polygon.box(1, 1, { fluidEnabled: true })).toThrow(/fluidEnabled needs sensor: true/);
    expect(() => Polygon.box(1, 1, { sensor: true, fluidEnabled: true, fluidProperties: { density: -1 } })).toThrow(/fluidProperties\.density/);
    expect(() => Polygon.box(1, 1, { sensor: true, fluidEnabled: true, fluidProperties: { viscosity: NaN } })).toThrow(/fluidProperties\.viscosity/);
    expect(() => new Circle({ radius: 1, fluidProperties: 3 as never })).toThrow(FulcrumInputError);
    const s = Polygon.box(1, 1, { sensor: true, fluidEnabled: true, fluidProperties: { density: 3 } });
    expect(s.fluidProperties).toEqual({ density: 3, viscosity: 1 });
    expect(() => (s.sensor = false)).toThrow(/sensor must stay true while fluidEnabled/);
    expect(s.sensor).toBe(true);
    expect(() => (s.fluidProperties = { viscosity: -2 })).toThrow(FulcrumInputError);
    expect(s.fluidProperties).toEqual({ density: 3, viscosity: 1 });
    s.fluidEnabled = false;
    s.sensor = false;
    expect(() => (s.fluidEnabled = true)).toThrow(/needs sensor: true/);
  });
});
