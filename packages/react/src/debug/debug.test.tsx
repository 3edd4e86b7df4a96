import { Body as EngineBody, DebugColors } from '@fulcrum/physics';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import { createRef, startTransition, Suspense, use, type ReactNode } from 'react';
import { Vector3, type BufferGeometry, type LineSegments } from 'three';
import { describe, expect, it } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { LineJoint } from '../joints/joints.js';
import { Box, Circle } from '../shapes/shapes.js';
import { DebugLines } from './DebugLines.js';
import { LIMIT_COLOR } from './limits.js';
import { LineSink } from './line-sink.js';

describe('LineSink', () => {
  it('writes two vertices per segment with the colour, and grows by doubling', () => {
    const sink = new LineSink(4);
    sink.begin();
    sink.drawSegment(0, 0, 1, 2, 0xff8000);
    expect(sink.count).toBe(2);
    expect(Array.from(sink.positions.subarray(0, 6))).toEqual([0, 0, 0, 1, 2, 0]);
    expect(sink.colors[0]).toBe(1);
    expect(sink.colors[1]).toBeCloseTo(128 / 255, 6);
    expect(sink.colors[2]).toBe(0);
    sink.resized = false;
    sink.drawPolygon([0, 0, 1, 0, 1, 1], 3, 0xffffff); // 3 segments: 8 vertices > 4
    expect(sink.count).toBe(8);
    expect(sink.capacity).toBe(8);
    expect(sink.resized).toBe(true);
    expect(Array.from(sink.positions.subarray(0, 6))).toEqual([0, 0, 0, 1, 2, 0]); // kept on growth
    sink.begin();
    sink.drawCircle(0, 0, 1, 0, 0);
    expect(sink.count).toBe(2 * 25);
    sink.drawPoint(0, 0, 1, 0);
    expect(sink.count).toBe(2 * 27);
  });
});

describe('<Physics debug>', () => {
  it('draws contact points and normals by default', async () => {
    const r = await ReactThreeTestRenderer.create(
      <Physics debug gravity={[0, -10]}>
        <Body type="static" position={[0, -0.5]}>
          <Box width={10} height={1} />
        </Body>
        <Body position={[0, 0.5]}>
          <Box width={1} height={1} />
        </Body>
      </Physics>,
    );
    await ReactThreeTestRenderer.act(() => r.advanceFrames(10, 1 / 60));
    const geometry = (r.scene.findAll((n) => n.type === 'LineSegments')[0]!.instance as LineSegments).geometry as BufferGeometry;
    const col = geometry.getAttribute('color');
    let contactVertices = 0;
    for (let i = 0; i < geometry.drawRange.count; i++) {
      if ([col.getX(i), col.getY(i), col.getZ(i)].map((v) => Math.round(v * 255)).join(',') === [(DebugColors.contactPoint >> 16) & 255, (DebugColors.contactPoint >> 8) & 255, DebugColors.contactPoint & 255].join(',')) contactVertices++;
    }
    // Two manifold points, each a cross of two segments.
    expect(contactVertices).toBe(2 * 2 * 2);
    await r.unmount();
  });

  it('draws shapes, constraints and limits into one reused LineSegments geometry', async () => {
    const a = createRef<EngineBody>();
    const b = createRef<EngineBody>();
    const r = await ReactThreeTestRenderer.create(
      <Physics debug gravity={[0, 0]}>
        <Body ref={a} type="static">
          <Box width={2} height={1} />
        </Body>
        <Body ref={b} position={[0, 2]}>
          <Circle radius={0.5} />
        </Body>
        <LineJoint body1={a} body2={b} anchor2={[0, 0]} direction={[0, 1]} jointMin={1} jointMax={3} />
      </Physics>,
    );
    await ReactThreeTestRenderer.act(() => r.advanceFrames(1, 1 / 60));
    const lines = r.scene.findAll((n) => n.type === 'LineSegments')[0]!.instance as LineSegments;
    const geometry = lines.geometry as BufferGeometry;
    // box 4 + circle 25 + joint (2 anchor points × 2 + the line) 5 + limits (line + 2 ticks) 3
    expect(geometry.drawRange.count).toBe(2 * (4 + 25 + 5 + 3));
    const pos = geometry.getAttribute('position');
    const col = geometry.getAttribute('color');
    const colours = new Set<string>();
    for (let i = 0; i < geometry.drawRange.count; i++) colours.add([col.getX(i), col.getY(i), col.getZ(i)].map((v) => Math.round(v * 255)).join(','));
    const rgb = (c: number) => [(c >> 16) & 255, (c >> 8) & 255, c & 255].join(',');
    expect(colours).toEqual(new Set([rgb(DebugColors.static), rgb(DebugColors.dynamic), rgb(DebugColors.constraint), rgb(LIMIT_COLOR)]));
    // The limit line runs along the world y axis from anchor1 + 1 to anchor1 + 3.
    const ys: number[] = [];
    for (let i = 0; i < geometry.drawRange.count; i++) if (Math.round(col.getX(i) * 255) === (LIMIT_COLOR >> 16) && pos.getX(i) === 0) ys.push(pos.getY(i));
    expect(Math.min(...ys)).toBeCloseTo(1, 6);
    expect(Math.max(...ys)).toBeCloseTo(3, 6);
    // Frame after frame, the same arrays are reused.
    const array = pos.array;
    await ReactThreeTestRenderer.act(() => r.advanceFrames(30, 1 / 60));
    expect(geometry.getAttribute('position').array).toBe(array);
    expect(geometry.drawRange.count).toBe(2 * (4 + 25 + 5 + 3));
    await r.unmount();
  });
});

const rgb = (c: number) => [(c >> 16) & 255, (c >> 8) & 255, c & 255].join(',');

/** The debug view's LineSegments in a test renderer's scene. */
function debugLines(r: Awaited<ReturnType<typeof ReactThreeTestRenderer.create>>): LineSegments {
  return r.scene.findAll((n) => n.type === 'LineSegments')[0]!.instance as LineSegments;
}

/** The colours of the vertices drawn. */
function colours(lines: LineSegments): Set<string> {
  const geometry = lines.geometry as BufferGeometry;
  const col = geometry.getAttribute('color');
  const out = new Set<string>();
  for (let i = 0; i < geometry.drawRange.count; i++) out.add([col.getX(i), col.getY(i), col.getZ(i)].map((v) => Math.round(v * 255)).join(','));
  return out;
}

/** Suspends for good when `on`. */
const NEVER = new Promise<never>(() => {});
function Suspender({ on }: { on: boolean }): ReactNode {
  if (on) use(NEVER);
  return null;
}

describe('<DebugLines>', () => {
  it('draws the layers of the committed render: a discarded one (a sibling suspends) changes nothing', async () => {
    const scene = (aabbs: boolean, suspend: boolean) => (
      <Suspense fallback={null}>
        <Physics gravity={[0, 0]}>
          <Body type="static">
            <Box width={2} height={1} />
          </Body>
          <DebugLines options={{ shapes: true, contacts: false, constraints: false, aabbs }} />
        </Physics>
        <Suspender on={suspend} />
      </Suspense>
    );
    const r = await ReactThreeTestRenderer.create(scene(false, false));
    await ReactThreeTestRenderer.act(() => r.advanceFrames(1, 1 / 60));
    expect(colours(debugLines(r))).toEqual(new Set([rgb(DebugColors.static)]));
    // Rendered with AABBs on, then abandoned: the transition waits on a promise that never settles.
    await ReactThreeTestRenderer.act(async () => startTransition(() => void r.update(scene(true, true))));
    await ReactThreeTestRenderer.act(() => r.advanceFrames(1, 1 / 60));
    expect(colours(debugLines(r))).toEqual(new Set([rgb(DebugColors.static)]));
    // A render that commits does change the layers.
    await ReactThreeTestRenderer.act(async () => r.update(scene(true, false)));
    await ReactThreeTestRenderer.act(() => r.advanceFrames(1, 1 / 60));
    expect(colours(debugLines(r))).toEqual(new Set([rgb(DebugColors.static), rgb(DebugColors.aabb)]));
    await r.unmount();
  });

  it('draws at world coordinates when <Physics> is inside transformed groups', async () => {
    const r = await ReactThreeTestRenderer.create(
      <group position={[1, 2, 0]}>
        <group position={[3, -2, 0.5]} rotation={[0, 0, 0.7]} scale={[2, 0.5, 1]}>
          <Physics debug={{ shapes: true, contacts: false, constraints: false }} gravity={[0, 0]}>
            <Body type="static" position={[5, 1]}>
              <Box width={2} height={1} />
            </Body>
          </Physics>
        </group>
      </group>,
    );
    await ReactThreeTestRenderer.act(() => r.advanceFrames(1, 1 / 60));
    const lines = debugLines(r);
    lines.updateWorldMatrix(true, false);
    const geometry = lines.geometry as BufferGeometry;
    const pos = geometry.getAttribute('position');
    expect(geometry.drawRange.count).toBe(2 * 4);
    const v = new Vector3();
    const xs: number[] = [];
    const ys: number[] = [];
    for (let i = 0; i < geometry.drawRange.count; i++) {
      v.fromBufferAttribute(pos, i).applyMatrix4(lines.matrixWorld);
      xs.push(v.x);
      ys.push(v.y);
      expect(v.z).toBeCloseTo(0, 9);
    }
    // The box's corners, where the engine has them.
    expect(Math.min(...xs)).toBeCloseTo(4, 5);
    expect(Math.max(...xs)).toBeCloseTo(6, 5);
    expect(Math.min(...ys)).toBeCloseTo(0.5, 5);
    expect(Math.max(...ys)).toBeCloseTo(1.5, 5);
    await r.unmount();
  });
});
