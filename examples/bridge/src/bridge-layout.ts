/**
 * Where the bridge's planks start: a shallow V from one cliff edge to the other, with every
 * plank end exactly on its neighbour's, so the pivots start satisfied and the bridge sags into
 * its hanging shape without a jolt.
 */
export interface PlankPose {
  x: number;
  y: number;
  rotation: number;
}

/** `count` (even) planks of length `length` from (-span/2, y) to (span/2, y). */
export function plankPoses(count: number, length: number, span: number, y: number): PlankPose[] {
  if (count % 2 !== 0 || count * length <= span) throw new Error('plankPoses: need an even count of planks longer in total than the span');
  const angle = Math.acos(span / (count * length));
  const half = count / 2;
  const poses: PlankPose[] = [];
  for (let i = 0; i < count; i++) {
    const down = i < half;
    // Distance along the V from its own end to this plank's centre.
    const k = down ? i + 0.5 : count - i - 0.5;
    const sx = down ? -span / 2 : span / 2;
    const dir = down ? 1 : -1;
    poses.push({
      x: sx + dir * k * length * Math.cos(angle),
      y: y - k * length * Math.sin(angle),
      rotation: down ? -angle : angle,
    });
  }
  return poses;
}
