/**
 * The crane as data: a tower of upright segments on the ground and a boom of horizontal
 * segments reaching out from its top, every neighbour pair welded where the two meet.
 * Positions are world coordinates; the component turns weld points into body-local anchors.
 */
export interface Segment {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Weld {
  /** Segment indices; -1 is the ground. */
  a: number;
  b: number;
  /** Where they meet, world coordinates. */
  point: readonly [number, number];
  label: string;
}

export interface CraneLayout {
  segments: Segment[];
  welds: Weld[];
  /** The boom's last segment, which the hook hangs from, and the hang point in its frame. */
  tip: number;
  tipAnchor: readonly [number, number];
}

const TOWER_SEGMENTS = 3;
const TOWER_SEGMENT = { width: 0.6, height: 2 };
const BOOM_SEGMENTS = 4;
const BOOM_SEGMENT = { width: 1.5, height: 0.4 };

/** A crane whose tower stands on the ground (y = 0) at x = `baseX`. */
export function craneLayout(baseX: number): CraneLayout {
  const segments: Segment[] = [];
  const welds: Weld[] = [];
  for (let i = 0; i < TOWER_SEGMENTS; i++) {
    segments.push({ x: baseX, y: TOWER_SEGMENT.height * (i + 0.5), ...TOWER_SEGMENT });
    welds.push({ a: i - 1, b: i, point: [baseX, TOWER_SEGMENT.height * i], label: i === 0 ? 'tower foot' : `tower ${i}` });
  }
  const boomY = TOWER_SEGMENTS * TOWER_SEGMENT.height - BOOM_SEGMENT.height / 2;
  const boomStart = baseX + TOWER_SEGMENT.width / 2;
  for (let i = 0; i < BOOM_SEGMENTS; i++) {
    const index = segments.length;
    segments.push({ x: boomStart + BOOM_SEGMENT.width * (i + 0.5), y: boomY, ...BOOM_SEGMENT });
    welds.push({ a: index - 1, b: index, point: [boomStart + BOOM_SEGMENT.width * i, boomY], label: i === 0 ? 'boom root' : `boom ${i}` });
  }
  return { segments, welds, tip: segments.length - 1, tipAnchor: [BOOM_SEGMENT.width / 2 - 0.25, -BOOM_SEGMENT.height / 2] };
}

/** Where the hook hangs from, world coordinates: loads dropped straight above it don't swing it. */
export function hookPoint(layout: CraneLayout): readonly [number, number] {
  const tip = layout.segments[layout.tip]!;
  return [tip.x + layout.tipAnchor[0], tip.y + layout.tipAnchor[1]];
}
