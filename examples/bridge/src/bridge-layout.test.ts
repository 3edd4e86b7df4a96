import { describe, expect, it } from 'vitest';
import { plankPoses } from './bridge-layout.js';

const end = (p: { x: number; y: number; rotation: number }, side: -1 | 1, length: number) => ({
  x: p.x + side * (length / 2) * Math.cos(p.rotation),
  y: p.y + side * (length / 2) * Math.sin(p.rotation),
});

describe('plankPoses', () => {
  it('lays the planks end to end from one cliff edge to the other, so every pivot starts satisfied', () => {
    const length = 1.1;
    const poses = plankPoses(18, length, 16, 2);
    expect(poses).toHaveLength(18);
    expect(end(poses[0]!, -1, length).x).toBeCloseTo(-8, 9);
    expect(end(poses[0]!, -1, length).y).toBeCloseTo(2, 9);
    expect(end(poses[17]!, 1, length).x).toBeCloseTo(8, 9);
    expect(end(poses[17]!, 1, length).y).toBeCloseTo(2, 9);
    for (let i = 1; i < poses.length; i++) {
      const a = end(poses[i - 1]!, 1, length);
      const b = end(poses[i]!, -1, length);
      expect(Math.hypot(a.x - b.x, a.y - b.y)).toBeLessThan(1e-9);
    }
    // It sags: the middle is below the edges.
    expect(poses[8]!.y).toBeLessThan(0);
  });

  it('rejects a bridge too short for its span, or an odd plank count', () => {
    expect(() => plankPoses(10, 1, 16, 0)).toThrow(/longer in total than the span/);
    expect(() => plankPoses(17, 1, 16, 0)).toThrow(/even count/);
  });
});
