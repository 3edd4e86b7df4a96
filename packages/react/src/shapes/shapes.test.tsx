/**
 * The shapes this package adds to the engine's one-shape-per-component mapping: <Chain> (the
 * engine Chain's segments), a concave <Polygon> (Polygon.decompose's pieces) and the `fluid`
 * prop. Each new prop updates the engine in place (no remount, the same body), wakes what
 * sleeps, and is validated.
 */
import { Body as EngineBody, Chain as EngineChain, ChainSegment, Polygon as EnginePolygon, type Circle as EngineCircle } from '@fulcrum/physics';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import { cleanup, render } from '@testing-library/react';
import { createRef, StrictMode, type ReactNode } from 'react';
import type { BufferGeometry, Mesh } from 'three';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { isRetired } from '../core/retire.js';
import { InstancedBodies } from '../instanced/InstancedBodies.js';
import { makeProbe } from '../test-support/probe.js';
import { Box, Chain, Circle, Polygon, Segment } from './shapes.js';

afterEach(cleanup);

type Probe = ReturnType<typeof makeProbe>;

const steps = (probe: Probe, n: number) => {
  for (let i = 0; i < n; i++) probe.api!.step();
};

const sleepNow = (probe: Probe, body: EngineBody) => {
  for (let i = 0; i < 600 && !body.isSleeping; i++) probe.api!.step();
  expect(body.isSleeping).toBe(true);
};

/** The message of the error `ui` throws when rendered inside a <Physics> and a <Body>. */
function errorOf(ui: ReactNode): string {
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    render(
      <Physics>
        <Body>{ui}</Body>
      </Physics>,
    );
  } catch (e) {
    return (e as Error).message;
  } finally {
    quiet.mockRestore();
    cleanup();
  }
  return 'no error';
}

// Ground points right to left: the chain collides above them.
const VALLEY = [
  [8, 3],
  [2, 0],
  [-2, 0],
  [-8, 3],
] as const;

describe('<Chain>', () => {
  function Valley({ probe, crate, chain, friction, vertices = VALLEY, loop }: { probe: Probe; crate: { current: EngineBody | null }; chain?: { current: EngineChain | null }; friction?: number; vertices?: readonly (readonly [number, number])[]; loop?: boolean }): ReactNode {
    return (
      <Physics gravity={[0, -10]}>
        <probe.Component />
        <Body type="static">
          <Chain ref={chain} vertices={vertices} {...(loop === undefined ? {} : { loop })} {...(friction === undefined ? {} : { friction })} />
        </Body>
        <Body ref={crate} position={[0, 2]}>
          <Box width={1} height={1} />
        </Body>
      </Physics>
    );
  }

  it('puts the engine Chain’s segments on the body, and the ref is the Chain', () => {
    const probe = makeProbe();
    const crate = createRef<EngineBody>();
    const chain = createRef<EngineChain>();
    render(<Valley probe={probe} crate={crate} chain={chain} />);
    const ground = probe.space.bodies.find((b) => b.type === 'static')!;
    expect(chain.current).toBeInstanceOf(EngineChain);
    expect(chain.current!.loop).toBe(false);
    expect(ground.shapes).toEqual(chain.current!.segments);
    expect(ground.shapes.length).toBe(3);
    expect(ground.shapes.every((s) => s instanceof ChainSegment)).toBe(true);
    // The crate lands on the valley's flat bottom.
    steps(probe, 120);
    expect(crate.current!.y).toBeCloseTo(0.5, 2);
  });

  it('a new `vertices` replaces the segments (the engine’s chain points are fixed), on the same body, and wakes what sleeps on it', () => {
    const probe = makeProbe();
    const crate = createRef<EngineBody>();
    const chain = createRef<EngineChain>();
    const { rerender } = render(<Valley probe={probe} crate={crate} chain={chain} />);
    const ground = probe.space.bodies.find((b) => b.type === 'static')!;
    const before = chain.current!;
    const oldSegments = before.segments;
    sleepNow(probe, crate.current!);
    // A pit opens under the crate.
    const pit = [
      [8, 3],
      [2, 0],
      [0, -3],
      [-2, 0],
      [-8, 3],
    ] as const;
    rerender(<Valley probe={probe} crate={crate} chain={chain} vertices={pit} />);
    expect(probe.space.bodies.find((b) => b.type === 'static')).toBe(ground);
    expect(chain.current).not.toBe(before);
    expect(chain.current!.vertices.map((p) => [p.x, p.y])).toEqual(pit);
    expect(ground.shapes).toEqual(chain.current!.segments);
    expect(oldSegments.every((s) => isRetired(s) && s.body === null)).toBe(true);
    expect(crate.current!.isSleeping).toBe(false);
    steps(probe, 120);
    expect(crate.current!.y).toBeLessThan(0); // in the pit
  });

  it('a new `loop` replaces the segments too: an open container lets the crate fall out', () => {
    const probe = makeProbe();
    const crate = createRef<EngineBody>();
    const chain = createRef<EngineChain>();
    // A clockwise square: a container (bodies stay inside). Open, it has no bottom.
    const square = [
      [-3, -3],
      [-3, 3],
      [3, 3],
      [3, -3],
    ] as const;
    const { rerender } = render(<Valley probe={probe} crate={crate} chain={chain} vertices={square} loop />);
    expect(chain.current!.segments.length).toBe(4);
    sleepNow(probe, crate.current!);
    expect(crate.current!.y).toBeCloseTo(-2.5, 2);
    rerender(<Valley probe={probe} crate={crate} chain={chain} vertices={square} loop={false} />);
    expect(chain.current!.loop).toBe(false);
    expect(chain.current!.segments.length).toBe(3);
    expect(probe.space.bodies.find((b) => b.type === 'static')!.shapes).toEqual(chain.current!.segments);
    expect(crate.current!.isSleeping).toBe(false);
    steps(probe, 60);
    expect(crate.current!.y).toBeLessThan(-4);
  });

  it('its other props update every segment in place, and wake what sleeps on it', () => {
    const probe = makeProbe();
    const crate = createRef<EngineBody>();
    const chain = createRef<EngineChain>();
    const { rerender } = render(<Valley probe={probe} crate={crate} chain={chain} friction={0.6} />);
    const engineChain = chain.current!;
    sleepNow(probe, crate.current!);
    rerender(<Valley probe={probe} crate={crate} chain={chain} friction={0.1} />);
    expect(chain.current).toBe(engineChain);
    expect(engineChain.segments.map((s) => s.friction)).toEqual([0.1, 0.1, 0.1]);
    expect(crate.current!.isSleeping).toBe(false);
  });

  it('gives every instance of <InstancedBodies> its own segments', () => {
    const probe = makeProbe();
    const bodies = createRef<readonly EngineBody[]>();
    const scene = (friction: number) => (
      <Physics gravity={[0, 0]}>
        <probe.Component />
        <InstancedBodies ref={bodies} type="static" instances={[{ position: [0, 0] }, { position: [20, 0] }]}>
          <Chain vertices={VALLEY} friction={friction} />
        </InstancedBodies>
      </Physics>
    );
    const { rerender } = render(scene(0.5));
    const [a, b] = bodies.current!;
    expect(a!.shapes.length).toBe(3);
    expect(b!.shapes.length).toBe(3);
    const chainOf = (body: EngineBody) => (body.shapes[0] as ChainSegment).chain!;
    expect(chainOf(a!)).not.toBe(chainOf(b!));
    expect(a!.shapes).toEqual(chainOf(a!).segments);
    expect(b!.shapes).toEqual(chainOf(b!).segments);
    rerender(scene(0.2));
    expect([...a!.shapes, ...b!.shapes].map((s) => s.friction)).toEqual(Array(6).fill(0.2));
  });

  it('names bad props', () => {
    expect(errorOf(<Chain vertices={[[0, 0]]} />)).toMatch(/^<Chain> prop vertices=\{\[\[0, 0\]\]\} is invalid: Chain\.vertices must have at least 2 points/);
    expect(errorOf(<Chain vertices={[[0, 0], [1, Number.NaN]]} />)).toMatch(/^<Chain> prop vertices=\{.*NaN.*\} is invalid: Chain\.vertices\[1\]/);
    expect(errorOf(<Chain vertices={VALLEY} loop={'yes' as never} />)).toMatch(/^<Chain> prop loop=\{"yes"\} is invalid/);
    expect(errorOf(<Chain vertices={VALLEY} {...({ density: 2 } as object)} />)).toMatch(/^<Chain> prop density=\{2\} is invalid: is not used: a chain has no area/);
    expect(errorOf(<Chain vertices={VALLEY} {...({ fluid: {} } as object)} />)).toMatch(/^<Chain> prop fluid=\{\{\}\} is invalid: needs a shape with area/);
    expect(errorOf(<Segment p1={[0, 0]} p2={[1, 0]} {...({ fluid: {} } as object)} />)).toMatch(/^<Segment> prop fluid=/);
  });
});

// An L of three unit squares (area 3): concave at (1, 1).
const L_SHAPE = [
  [0, 0],
  [2, 0],
  [2, 1],
  [1, 1],
  [1, 2],
  [0, 2],
] as const;

describe('<Polygon> with a concave outline', () => {
  function Scene({ probe, vertices, body, polygon, pieces, friction, strict }: { probe: Probe; vertices: readonly (readonly [number, number])[]; body?: { current: EngineBody | null }; polygon?: { current: EnginePolygon | null }; pieces?: { current: readonly EnginePolygon[] | null }; friction?: number; strict?: boolean }): ReactNode {
    const scene = (
      <Physics gravity={[0, -10]}>
        <probe.Component />
        <Body type="static" position={[0, -0.5]}>
          <Box width={20} height={1} />
        </Body>
        <Body ref={body} position={[-1, 0]}>
          <Polygon ref={polygon} piecesRef={pieces} vertices={vertices} {...(friction === undefined ? {} : { friction })} />
        </Body>
      </Physics>
    );
    return strict ? <StrictMode>{scene}</StrictMode> : scene;
  }

  it('becomes the engine’s convex pieces, each an engine Polygon with the props; the ref is null and piecesRef lists them', () => {
    const probe = makeProbe();
    const body = createRef<EngineBody>();
    const polygon = createRef<EnginePolygon>();
    const pieces = createRef<readonly EnginePolygon[]>();
    render(<Scene probe={probe} vertices={L_SHAPE} body={body} polygon={polygon} pieces={pieces} friction={0.3} strict />);
    expect(probe.space.bodies.length).toBe(2); // StrictMode: one body, its pieces once
    const shapes = body.current!.shapes;
    expect(shapes.length).toBe(EnginePolygon.decompose(L_SHAPE).length);
    expect(shapes.length).toBeGreaterThan(1);
    expect(pieces.current).toEqual(shapes);
    expect(polygon.current).toBeNull();
    expect(shapes.every((s) => s instanceof EnginePolygon && s.friction === 0.3)).toBe(true);
    expect(body.current!.mass).toBeCloseTo(3, 10); // the outline's area at density 1
    // It stands on its long side.
    steps(probe, 120);
    expect(body.current!.y).toBeCloseTo(0, 2);
    expect(body.current!.rotation).toBeCloseTo(0, 3);
  });

  it('a convex outline is one engine Polygon, which is the ref', () => {
    const probe = makeProbe();
    const body = createRef<EngineBody>();
    const polygon = createRef<EnginePolygon>();
    const pieces = createRef<readonly EnginePolygon[]>();
    render(<Scene probe={probe} vertices={[[0, 0], [2, 0], [0, 2]]} body={body} polygon={polygon} pieces={pieces} />);
    expect(body.current!.shapes).toEqual([polygon.current]);
    expect(pieces.current).toEqual([polygon.current]);
  });

  it('a new outline updates the pieces in place (adding or removing the difference) and wakes the body', () => {
    const probe = makeProbe();
    const body = createRef<EngineBody>();
    const pieces = createRef<readonly EnginePolygon[]>();
    const { rerender } = render(<Scene probe={probe} vertices={L_SHAPE} body={body} pieces={pieces} />);
    const engineBody = body.current!;
    const first = pieces.current!;
    sleepNow(probe, engineBody);
    // The same L, twice as wide: as many pieces, the same engine objects with new vertices.
    const wide = L_SHAPE.map(([x, y]) => [2 * x, y] as const);
    rerender(<Scene probe={probe} vertices={wide} body={body} pieces={pieces} />);
    expect(body.current).toBe(engineBody);
    expect(engineBody.isSleeping).toBe(false);
    expect(pieces.current).toEqual(first);
    expect(engineBody.mass).toBeCloseTo(6, 10);
    // Convex: the first piece takes the outline, the others go.
    rerender(<Scene probe={probe} vertices={[[0, 0], [4, 0], [4, 1], [0, 1]]} body={body} pieces={pieces} />);
    expect(pieces.current).toEqual([first[0]]);
    expect(engineBody.shapes).toEqual([first[0]]);
    expect(first.slice(1).every((s) => isRetired(s))).toBe(true);
    expect(engineBody.mass).toBeCloseTo(4, 10);
    // Concave again: new pieces join the first.
    rerender(<Scene probe={probe} vertices={L_SHAPE} body={body} pieces={pieces} />);
    expect(pieces.current!.length).toBe(first.length);
    expect(pieces.current![0]).toBe(first[0]);
    expect(engineBody.mass).toBeCloseTo(3, 10);
  });

  it('draws its outline, not its pieces’ hull', async () => {
    const r = await ReactThreeTestRenderer.create(
      <Physics>
        <Body type="static">
          <Polygon vertices={L_SHAPE} />
        </Body>
      </Physics>,
    );
    const meshes = r.scene.findAllByType('Mesh');
    expect(meshes.length).toBe(1);
    expect(area((meshes[0]!.instance as Mesh).geometry)).toBeCloseTo(3, 10);
    await r.unmount();
  });

  it('names an outline that is not simple', () => {
    const bowtie = [
      [0, 0],
      [2, 2],
      [2, 0],
      [0, 2],
    ] as const;
    expect(errorOf(<Polygon vertices={bowtie} />)).toMatch(/^<Polygon> prop vertices=\{.*\} is invalid: Polygon\.decompose\.vertices/);
    expect(errorOf(<Polygon vertices={L_SHAPE} radius={-1} />)).toMatch(/^<Polygon> prop radius=\{-1\} is invalid/);
  });
});

/** Area of a triangle-list geometry (indexed or not), in its xy plane. */
function area(g: BufferGeometry): number {
  const p = g.getAttribute('position');
  const idx = g.getIndex();
  const n = idx ? idx.count : p.count;
  const at = (i: number) => (idx ? idx.getX(i) : i);
  let sum = 0;
  for (let i = 0; i < n; i += 3) {
    const [a, b, c] = [at(i), at(i + 1), at(i + 2)];
    sum += Math.abs((p.getX(b) - p.getX(a)) * (p.getY(c) - p.getY(a)) - (p.getX(c) - p.getX(a)) * (p.getY(b) - p.getY(a))) / 2;
  }
  return sum;
}

describe('fluid', () => {
  it('makes the shape a sensor with the engine’s fluidEnabled and fluidProperties, and a lighter box floats in it', () => {
    const probe = makeProbe();
    const pool = createRef<EnginePolygon>();
    const box = createRef<EngineBody>();
    render(
      <Physics gravity={[0, -10]}>
        <probe.Component />
        <Body type="static" position={[0, -2]}>
          <Box ref={pool} width={10} height={4} fluid={{ density: 2, viscosity: 4 }} />
        </Body>
        <Body ref={box} position={[0, 2]}>
          <Box width={1} height={1} />
        </Body>
      </Physics>,
    );
    expect(pool.current!.sensor).toBe(true);
    expect(pool.current!.fluidEnabled).toBe(true);
    expect(pool.current!.fluidProperties).toEqual({ density: 2, viscosity: 4 });
    steps(probe, 600);
    // Half the fluid's density: half under, its centre at the surface (y = 0).
    expect(box.current!.y).toBeCloseTo(0, 1);
  });

  it('updates in place: on, changed and off again, the same engine shape, and the body wakes each time', () => {
    const probe = makeProbe();
    const body = createRef<EngineBody>();
    const bubble = createRef<EngineCircle>();
    const scene = (fluid?: { density?: number; viscosity?: number }, sensor?: boolean) => (
      <Physics gravity={[0, -10]}>
        <probe.Component />
        <Body type="static" position={[0, -0.5]}>
          <Box width={20} height={1} />
        </Body>
        <Body ref={body} position={[0, 0.5]}>
          <Box width={1} height={1} />
          <Circle ref={bubble} radius={0.2} offset={[0, 1]} {...(fluid ? { fluid } : {})} {...(sensor === undefined ? {} : { sensor })} />
        </Body>
      </Physics>
    );
    const { rerender } = render(scene());
    const shape = bubble.current!;
    const check = (fluid: { density?: number; viscosity?: number } | undefined, sensor: boolean | undefined, expected: { sensor: boolean; fluidEnabled: boolean; fluidProperties: { density: number; viscosity: number } }) => {
      sleepNow(probe, body.current!);
      rerender(scene(fluid, sensor));
      expect(bubble.current).toBe(shape);
      expect(body.current!.isSleeping).toBe(false);
      expect({ sensor: shape.sensor, fluidEnabled: shape.fluidEnabled, fluidProperties: shape.fluidProperties }).toEqual(expected);
    };
    check({ density: 3 }, undefined, { sensor: true, fluidEnabled: true, fluidProperties: { density: 3, viscosity: 1 } });
    check({ density: 3, viscosity: 0.5 }, true, { sensor: true, fluidEnabled: true, fluidProperties: { density: 3, viscosity: 0.5 } });
    check(undefined, true, { sensor: true, fluidEnabled: false, fluidProperties: { density: 1, viscosity: 1 } });
    check({}, undefined, { sensor: true, fluidEnabled: true, fluidProperties: { density: 1, viscosity: 1 } });
    check(undefined, undefined, { sensor: false, fluidEnabled: false, fluidProperties: { density: 1, viscosity: 1 } });
  });

  it('names bad values', () => {
    expect(errorOf(<Box width={1} height={1} fluid={{ density: -1 }} />)).toMatch(/^<Box> prop fluid=\{\{density: -1\}\} is invalid: Polygon\.fluidProperties\.density must be/);
    expect(errorOf(<Circle radius={1} fluid={{ densty: 2 } as never} />)).toMatch(/^<Circle> prop fluid=\{\{densty: 2\}\} is invalid: has an unknown property 'densty'/);
    expect(errorOf(<Circle radius={1} fluid={5 as never} />)).toMatch(/^<Circle> prop fluid=\{5\} is invalid: must be an object/);
    expect(errorOf(<Circle radius={1} fluid={{}} sensor={false} />)).toMatch(/^<Circle> prop sensor=\{false\} is invalid: must be true or left out on a shape with `fluid`/);
  });
});
