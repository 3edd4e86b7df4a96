import { describe, expect, it } from 'vitest';
import { closestPointOnSegment, closestPointResult, segmentDistance, segmentDistanceOfVertices, segmentDistanceResult as r } from './distance.js';

describe('segmentDistance', () => {
  it('crossing segments: distance 0 at the crossing', () => {
    segmentDistance(-1, 0, 1, 0, 0, -1, 0, 1);
    expect(r.distanceSquared).toBe(0);
    expect(r.fraction1).toBe(0.5);
    expect(r.fraction2).toBe(0.5);
  });
  it('endpoint to interior, and exact 0/1 fractions at endpoints', () => {
    segmentDistance(0, 0, 2, 0, 3, 1, 3, -1); // B vertical beyond A's end
    expect(r.fraction1).toBe(1);
    expect(r.fraction2).toBe(0.5);
    expect(Math.sqrt(r.distanceSquared)).toBeCloseTo(1, 12);
    segmentDistance(0, 0, 1, 0, 2, 1, 3, 2); // vertex to vertex
    expect([r.fraction1, r.fraction2]).toEqual([1, 0]);
    expect(r.distanceSquared).toBeCloseTo(2, 12);
  });
  it('parallel overlapping segments', () => {
    segmentDistance(0, 0, 2, 0, 1, 0.5, 3, 0.5);
    expect(Math.sqrt(r.distanceSquared)).toBeCloseTo(0.5, 12);
    expect(r.y2 - r.y1).toBeCloseTo(0.5, 12);
  });
  it('degenerate (point) segments', () => {
    segmentDistance(0, 0, 0, 0, -1, 1, 1, 1);
    expect(r.fraction2).toBe(0.5);
    expect(r.distanceSquared).toBeCloseTo(1, 12);
  });
  it('matches a brute-force search', () => {
    let seed = 7;
    const rnd = (): number => {
      seed = (seed * 16807) % 2147483647;
      return seed / 2147483647;
    };
    for (let k = 0; k < 200; k++) {
      const p = Array.from({ length: 8 }, () => 4 * rnd() - 2) as [number, number, number, number, number, number, number, number];
      segmentDistance(...p);
      let best = Infinity;
      for (let i = 0; i <= 400; i++) {
        for (let j = 0; j <= 400; j++) {
          const s = i / 400;
          const t = j / 400;
          const dx = p[0] + s * (p[2] - p[0]) - p[4] - t * (p[6] - p[4]);
          const dy = p[1] + s * (p[3] - p[1]) - p[5] - t * (p[7] - p[5]);
          best = Math.min(best, dx * dx + dy * dy);
        }
      }
      expect(r.distanceSquared).toBeLessThanOrEqual(best + 1e-12);
      expect(Math.sqrt(best) - Math.sqrt(r.distanceSquared)).toBeLessThan(0.02);
    }
  });
});

describe('segmentDistanceOfVertices', () => {
  it('reads the segments from packed vertex arrays and gives segmentDistance\'s result bit for bit', () => {
    const a = Float64Array.of(9, 9, 0.1, 0.2, 2.3, -0.4, 1.5, 1.5); // edge 1 → 2 of a polygon
    const b = Float64Array.of(3.1, 1.05, 0.7, 0.9); // edge 1 → 0
    segmentDistance(0.1, 0.2, 2.3, -0.4, 0.7, 0.9, 3.1, 1.05);
    const expected = { ...r };
    r.distanceSquared = NaN;
    segmentDistanceOfVertices(a, 0, 1, 2, b, 0, 1, 0, r);
    expect({ ...r }).toEqual(expected);
    expect(r.distanceSquared).toBeGreaterThan(0);
  });
});

describe('closestPointOnSegment', () => {
  it('clamps to the ends', () => {
    closestPointOnSegment(5, 1, 0, 0, 2, 0, closestPointResult);
    expect(closestPointResult).toMatchObject({ x: 2, y: 0, fraction: 1, distanceSquared: 10 });
    closestPointOnSegment(1, 3, 0, 0, 2, 0, closestPointResult);
    expect(closestPointResult).toMatchObject({ x: 1, y: 0, fraction: 0.5, distanceSquared: 9 });
  });
});
