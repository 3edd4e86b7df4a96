import { Polygon as EnginePolygon, type Body as EngineBody } from '@fulcrum/physics';
import { Body, Box, Polygon, useAfterStep } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { accent } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';
import { dragHandleAt, Floor } from '../support/scenery';

type OutlineName = 'arch' | 'star' | 'L';

interface Controls {
  /** The concave outline dropped on the pile (a change drops a new one). */
  outline: OutlineName;
}

type Point = [number, number];

/** Half an annulus, opening down: outer radius 3, inner 2, each arc in 10 segments. */
function arch(): Point[] {
  const out: Point[] = [];
  for (let i = 0; i <= 10; i++) out.push([3 * Math.cos((Math.PI * i) / 10), 3 * Math.sin((Math.PI * i) / 10)]);
  for (let i = 10; i >= 0; i--) out.push([2 * Math.cos((Math.PI * i) / 10), 2 * Math.sin((Math.PI * i) / 10)]);
  return out;
}

function star(): Point[] {
  return Array.from({ length: 10 }, (_, i) => {
    const r = i % 2 ? 0.8 : 2;
    const a = Math.PI / 2 + (Math.PI * i) / 5;
    return [r * Math.cos(a), r * Math.sin(a)];
  });
}

/** Each outline, and a point inside it for the tests' drag (the arch's origin is in its hole). */
const OUTLINES: Record<OutlineName, { points: Point[]; grab: Point }> = {
  arch: { points: arch(), grab: [0, 2.5] },
  star: { points: star(), grab: [0, 0] },
  L: { points: [[-1, -1], [2, -1], [2, 0], [0, 0], [0, 2], [-1, 2]], grab: [-0.5, -0.5] },
};

/** The pile: a pyramid of 1 m boxes, 4 in the bottom row. */
const PILE: Point[] = [];
for (let row = 0; row < 4; row++) for (let i = 0; i < 4 - row; i++) PILE.push([(i - (3 - row) / 2) * 1.05, -4.5 + row]);

const readout = createReadout('concave-readings');

/**
 * A concave body: Polygon.decompose (Nape's convexDecomposition: ear clipping, then
 * Hertel–Mehlhorn merging) cuts the outline into convex polygons, each a <Polygon> of one <Body>.
 * The pieces are drawn in two shades; the debug view outlines them. Dropped on a pile of boxes,
 * the arch comes to rest over the top boxes, which sit inside its notch: under its convex hull,
 * where no convex body would let them in.
 */
function ConcaveScene({ outline }: Controls) {
  const { points, grab } = OUTLINES[outline];
  const pieces = useMemo(() => EnginePolygon.decompose(points).map((p) => p.vertices.map((v): Point => [v.x, v.y])), [points]);
  const hull = useMemo(() => convexHull(points), [points]);
  const shape = useRef<EngineBody>(null);
  const boxes = useRef<(EngineBody | null)[]>([]);
  useLayoutEffect(() => readout.set(''), []);

  useAfterStep(() => {
    const b = shape.current;
    if (!b) return;
    // Pile corners in the notches: inside the hull of the outline, outside the outline.
    let inNotch = 0;
    for (const box of boxes.current) {
      if (!box) continue;
      for (const corner of [[-0.5, -0.5], [0.5, -0.5], [0.5, 0.5], [-0.5, 0.5]] as Point[]) {
        const p = b.worldPointToLocal(box.localPointToWorld(corner));
        if (contains(hull, p) && !contains(points, p)) inNotch++;
      }
    }
    readout.set(
      `${outline}: a ${points.length}-point outline in ${pieces.length} convex pieces · pile corners in its notches: ${inNotch} · ` +
        `at y = ${b.y.toFixed(2)} m, ${b.isSleeping ? 'at rest' : 'moving'}`,
    );
  });

  return (
    <>
      <Floor />
      {PILE.map((position, i) => (
        <Body
          key={i}
          ref={(b: EngineBody | null) => {
            boxes.current[i] = b;
          }}
          position={position}
        >
          <Box width={1} height={1} friction={0.8} />
        </Body>
      ))}
      {/* A new outline is a new body, dropped from the top. */}
      <Body key={outline} ref={shape} position={[0.2, 3]} userData={dragHandleAt(...grab)}>
        {pieces.map((vertices, i) => (
          <Polygon key={i} vertices={vertices} friction={0.8} color={i % 2 ? accent.subjectDark : accent.subject} />
        ))}
      </Body>
    </>
  );
}

/** Even-odd point-in-polygon. */
function contains(poly: readonly Point[], p: { x: number; y: number }): boolean {
  let inside = false;
  for (let i = 0, j = poly.length - 1; i < poly.length; j = i++) {
    const [xi, yi] = poly[i]!;
    const [xj, yj] = poly[j]!;
    if (yi > p.y !== yj > p.y && p.x < ((xj - xi) * (p.y - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

/** Andrew's monotone chain. */
function convexHull(points: readonly Point[]): Point[] {
  const sorted = [...points].sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  const cross = (o: Point, a: Point, b: Point) => (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
  const half = (pts: Point[]) => {
    const h: Point[] = [];
    for (const q of pts) {
      while (h.length >= 2 && cross(h[h.length - 2]!, h[h.length - 1]!, q) <= 0) h.pop();
      h.push(q);
    }
    return h.slice(0, -1);
  };
  return [...half(sorted), ...half([...sorted].reverse())];
}

const meta = {
  title: 'Scenes/Concave shape',
  component: ConcaveScene,
  tags: ['settles'],
  args: { outline: 'arch' },
  argTypes: { outline: { control: 'inline-radio', options: ['arch', 'star', 'L'], description: 'The concave outline (Polygon.decompose cuts it into convex pieces).' } },
  parameters: { fulcrum: { panel: readout.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof ConcaveScene>;

export default meta;

/** An arch of ten convex pieces (Polygon.decompose) drops over a pile of boxes. */
export const DroppedOnAPile: StoryObj<typeof meta> = {};
