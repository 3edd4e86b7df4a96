import { Body as EngineBody, Polygon as EnginePolygon, type Circle as EngineCircle, type Shape } from '@fulcrum/physics';
import { Body, Box, Circle, useAfterStep, usePhysics, useSpace } from '@fulcrum/react';
import type { Meta, StoryObj } from '@storybook/react-vite';
import { useLayoutEffect, useRef, type ReactNode } from 'react';
import { range } from '../support/controls';
import { accent } from '../support/palette';
import type { FulcrumParameters } from '../support/parameters';
import { createReadout } from '../support/readout';
import { DRAG_HANDLE, Floor } from '../support/scenery';

interface Controls {
  /** The water's density, kg/m² (the bodies' are 0.5 to 5). */
  fluidDensity: number;
  /** The water's viscosity: how fast it damps what moves in it. */
  viscosity: number;
}

const FLOOR_TOP = -5;
/** The pool: its water from x = −7 to 7, from the floor up to its surface. */
const SURFACE = -1;
const POOL_WIDTH = 14;
const WALL = 0.5;

type Point = [number, number];

/** What is dropped in: boxes and balls of several densities, wide flat boxes so they float flat. */
const ITEMS: { name: string; density: number; x: number; color: number; shape: 'box' | 'ball' | 'block' }[] = [
  { name: 'light box', density: 0.5, x: -4.5, color: 0xf5d76e, shape: 'box' },
  { name: 'ball', density: 1, x: -1.5, color: 0xf2a33a, shape: 'ball' },
  { name: 'box', density: 1.5, x: 1.5, color: 0xe07b39, shape: 'box' },
  { name: 'block', density: 5, x: 4.5, color: 0x9a3b2e, shape: 'block' },
];

const readout = createReadout('pool-readings');

/**
 * A pool: a static sensor box with `fluidEnabled` and `fluidProperties: { density, viscosity }`
 * (Nape's fluids). Whatever is in it is buoyed by the weight of the water it displaces and slowed
 * by its viscosity: a body of half the water's density floats half under, one denser sinks.
 * The shape components do not take the fluid options, so the water's body is made here with the
 * engine API (and taken out again on unmount), and drawn as a translucent blue box.
 */
function PoolScene({ fluidDensity, viscosity }: Controls) {
  const bodies = useRef<(EngineBody | null)[]>([]);
  useLayoutEffect(() => readout.set(''), []);

  useAfterStep(() => {
    const parts = ITEMS.map((item, i) => {
      const b = bodies.current[i];
      if (!b) return '';
      const share = submergedShare(b);
      const label = `${item.name} ρ ${item.density}: ${(100 * share).toFixed(0)}% under`;
      // Resting on the pool's floor (what sinks ends there).
      return b.y - lowestOffset(b) < FLOOR_TOP + 0.05 ? `${label}, on the bottom` : label;
    });
    readout.set(`water ρ ${fluidDensity} · ${parts.join(' · ')}`);
  });

  return (
    <>
      <Floor top={FLOOR_TOP} />
      {[-1, 1].map((side) => (
        <Body key={side} type="static" position={[side * (POOL_WIDTH + WALL) / 2, (FLOOR_TOP + SURFACE + 0.5) / 2]}>
          <Box width={WALL} height={SURFACE + 0.5 - FLOOR_TOP} friction={0.8} />
        </Body>
      ))}
      <Water density={fluidDensity} viscosity={viscosity} />
      {ITEMS.map((item, i) => (
        <Body
          key={i}
          ref={(b: EngineBody | null) => {
            bodies.current[i] = b;
          }}
          position={[item.x, 1 + i * 0.6]}
          userData={i === 1 ? DRAG_HANDLE : undefined}
        >
          {itemShape(item.shape, item.density, item.color)}
        </Body>
      ))}
    </>
  );
}

function itemShape(shape: 'box' | 'ball' | 'block', density: number, color: number): ReactNode {
  if (shape === 'ball') return <Circle radius={0.45} density={density} friction={0.6} color={color} />;
  if (shape === 'block') return <Box width={0.8} height={0.8} density={density} friction={0.6} color={color} />;
  return <Box width={1.6} height={0.6} density={density} friction={0.6} color={color} />;
}

/**
 * The water: a static body with one fluid shape, added to the space at mount and removed at
 * unmount. A control change sets the shape's fluidProperties in place (the setter wakes what is
 * in it) and asks for a frame, as a prop change would.
 */
function Water({ density, viscosity }: { density: number; viscosity: number }) {
  const space = useSpace();
  const physics = usePhysics();
  const fluid = useRef<Shape | null>(null);
  const initial = useRef({ density, viscosity });
  const depth = SURFACE - FLOOR_TOP;

  useLayoutEffect(() => {
    const shape = EnginePolygon.box(POOL_WIDTH, depth, { sensor: true, fluidEnabled: true, fluidProperties: initial.current });
    const body = space.addBody(new EngineBody({ type: 'static', position: [0, FLOOR_TOP + depth / 2], shapes: [shape] }));
    fluid.current = shape;
    physics.requestFrame();
    return () => {
      fluid.current = null;
      // <Physics> empties its space on unmount, maybe first.
      if (body.space === space) space.removeBody(body);
    };
  }, [space, depth, physics]);

  useLayoutEffect(() => {
    initial.current = { density, viscosity };
    const shape = fluid.current;
    if (!shape) return;
    const now = shape.fluidProperties;
    if (now.density === density && now.viscosity === viscosity) return;
    shape.fluidProperties = { density, viscosity };
    physics.requestFrame();
  }, [density, viscosity, physics]);

  return (
    <mesh position={[0, FLOOR_TOP + depth / 2, 0.01]}>
      <planeGeometry args={[POOL_WIDTH, depth]} />
      <meshBasicMaterial color={accent.fluid} transparent opacity={0.35} depthWrite={false} />
    </mesh>
  );
}

/** The share of a body's area under the surface (and inside the pool), as the user sees it. */
function submergedShare(b: EngineBody): number {
  let under = 0;
  let total = 0;
  for (const s of b.shapes) {
    const outline = worldOutline(b, s);
    total += area(outline);
    under += area(clipToPool(outline));
  }
  return total > 0 ? under / total : 0;
}

/** The shape's outline in world coordinates; a circle as a 64-gon (the share is a ratio, so the polygon's own area is the reference). */
function worldOutline(b: EngineBody, s: Shape): Point[] {
  const local: Point[] =
    s.kind === 'circle'
      ? Array.from({ length: 64 }, (_, i) => {
          const c = s as EngineCircle;
          const a = (2 * Math.PI * i) / 64;
          return [c.offset.x + c.radius * Math.cos(a), c.offset.y + c.radius * Math.sin(a)];
        })
      : (s as EnginePolygon).vertices.map((v): Point => {
          const o = s.offset;
          const c = Math.cos(s.angle);
          const n = Math.sin(s.angle);
          return [o.x + c * v.x - n * v.y, o.y + n * v.x + c * v.y];
        });
  return local.map(([x, y]) => {
    const w = b.localPointToWorld([x, y]);
    return [w.x, w.y];
  });
}

/** How far below its origin a body reaches (for "on the bottom"). */
function lowestOffset(b: EngineBody): number {
  let lowest = 0;
  for (const s of b.shapes) for (const [, y] of worldOutline(b, s)) lowest = Math.max(lowest, b.y - y);
  return lowest;
}

/** Sutherland–Hodgman against the water's box. */
function clipToPool(poly: Point[]): Point[] {
  const x0 = -POOL_WIDTH / 2;
  const x1 = POOL_WIDTH / 2;
  const planes: [(p: Point) => number][] = [[(p) => SURFACE - p[1]], [(p) => p[1] - FLOOR_TOP], [(p) => p[0] - x0], [(p) => x1 - p[0]]];
  let out = poly;
  for (const [inside] of planes) {
    const input = out;
    out = [];
    for (let i = 0; i < input.length; i++) {
      const a = input[i]!;
      const b = input[(i + 1) % input.length]!;
      const da = inside(a);
      const db = inside(b);
      if (da >= 0) out.push(a);
      if (da >= 0 !== db >= 0) {
        const t = da / (da - db);
        out.push([a[0] + t * (b[0] - a[0]), a[1] + t * (b[1] - a[1])]);
      }
    }
  }
  return out;
}

function area(poly: Point[]): number {
  let a = 0;
  for (let i = 0; i < poly.length; i++) {
    const [x1, y1] = poly[i]!;
    const [x2, y2] = poly[(i + 1) % poly.length]!;
    a += x1 * y2 - x2 * y1;
  }
  return Math.abs(a) / 2;
}

const meta = {
  title: 'Scenes/Pool',
  component: PoolScene,
  tags: ['settles'],
  args: { fluidDensity: 2, viscosity: 2 },
  argTypes: {
    fluidDensity: { ...range(0.5, 8, 0.5), description: "The water's density (kg/m²): a body of half of it floats half under." },
    viscosity: { ...range(0.5, 10, 0.5), description: "The water's viscosity: how fast it damps what moves in it." },
  },
  parameters: { fulcrum: { panel: readout.Panel } satisfies FulcrumParameters },
} satisfies Meta<typeof PoolScene>;

export default meta;

/** Boxes and balls float at depths set by their density (25%, 50%, 75% under); the dense block sinks. */
export const FloatingBoxes: StoryObj<typeof meta> = {};
