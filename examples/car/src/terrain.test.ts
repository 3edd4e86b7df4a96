import { describe, expect, it } from 'vitest';
import { FLAT_UNTIL, groundHeight, groundQuads, TERRAIN_END, TERRAIN_START } from './terrain.js';

describe('terrain', () => {
  it('is flat where the car starts, so a parked car can come to rest', () => {
    for (let x = TERRAIN_START; x <= FLAT_UNTIL; x += 0.5) expect(groundHeight(x)).toBe(0);
    expect(groundHeight(FLAT_UNTIL + 20)).not.toBe(0);
  });

  it('covers the whole track with convex quads whose tops follow the ground', () => {
    const quads = groundQuads();
    expect(quads[0]![0]![0]).toBe(TERRAIN_START);
    expect(quads[quads.length - 1]![1]![0]).toBe(TERRAIN_END);
    for (const q of quads) {
      // Counter-clockwise and convex: every turn is to the left.
      for (let i = 0; i < 4; i++) {
        const [a, b, c] = [q[i]!, q[(i + 1) % 4]!, q[(i + 2) % 4]!];
        expect((b[0] - a[0]) * (c[1] - b[1]) - (b[1] - a[1]) * (c[0] - b[0])).toBeGreaterThan(0);
      }
      expect(q[2]![1]).toBe(groundHeight(q[2]![0]));
      expect(q[3]![1]).toBe(groundHeight(q[3]![0]));
    }
  });
});
