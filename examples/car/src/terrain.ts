/**
 * The ground profile: flat where the car starts (so it can park and sleep there), then bumps
 * of growing height, a ramp, and walls at both ends. Pure data: heights and the convex
 * quads that fill the ground below them.
 */
export const TERRAIN_START = -20;
export const TERRAIN_END = 180;
/** The car starts here, on the flat part. */
export const FLAT_UNTIL = 10;
const STEP = 1;
const BOTTOM = -6;

/** Ground height (m) at x. */
export function groundHeight(x: number): number {
  if (x < FLAT_UNTIL) return 0;
  const d = x - FLAT_UNTIL;
  const grow = Math.min(1, d / 40);
  const bumps = grow * (0.35 * Math.sin(d * 0.9) + 0.2 * Math.sin(d * 2.3 + 1));
  // A long hill with a ramp up to it.
  const hill = d > 70 && d < 110 ? 2.5 * Math.sin(((d - 70) / 40) * Math.PI) : 0;
  return bumps + hill;
}

export type Vertex = readonly [number, number];

/** One quad (a convex polygon) per STEP metres: ground surface on top, flat bottom. */
export function groundQuads(): Vertex[][] {
  const quads: Vertex[][] = [];
  for (let x = TERRAIN_START; x < TERRAIN_END; x += STEP) {
    const x1 = x + STEP;
    quads.push([
      [x, BOTTOM],
      [x1, BOTTOM],
      [x1, groundHeight(x1)],
      [x, groundHeight(x)],
    ]);
  }
  return quads;
}
