import { describe, expect, it } from 'vitest';
import { craneLayout, hookPoint, type Segment } from './crane-layout.js';

/** Whether point p lies on the boundary of segment s (within 1e-9). */
function onEdge(s: Segment, p: readonly [number, number]): boolean {
  const dx = Math.abs(p[0] - s.x) - s.width / 2;
  const dy = Math.abs(p[1] - s.y) - s.height / 2;
  return (Math.abs(dx) < 1e-9 && dy <= 1e-9) || (Math.abs(dy) < 1e-9 && dx <= 1e-9);
}

describe('craneLayout', () => {
  it('welds each segment to the one before it (the first to the ground) at a point on both of their edges', () => {
    const layout = craneLayout(-9);
    expect(layout.welds).toHaveLength(layout.segments.length);
    layout.welds.forEach((w, i) => {
      expect(w.b).toBe(i);
      expect(w.a).toBe(i - 1);
      expect(onEdge(layout.segments[w.b]!, w.point)).toBe(true);
      if (w.a >= 0) expect(onEdge(layout.segments[w.a]!, w.point)).toBe(true);
      else expect(w.point[1]).toBe(0); // the tower foot stands on the ground
    });
    expect(new Set(layout.welds.map((w) => w.label)).size).toBe(layout.welds.length);
  });

  it('hangs the hook from the underside of the boom tip, out beyond the tower', () => {
    const layout = craneLayout(-9);
    const tip = layout.segments[layout.tip]!;
    const [x, y] = hookPoint(layout);
    expect(y).toBeCloseTo(tip.y - tip.height / 2, 9);
    expect(Math.abs(x - tip.x)).toBeLessThanOrEqual(tip.width / 2);
    expect(x).toBeGreaterThan(-9 + 4);
  });
});
