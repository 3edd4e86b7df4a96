/**
 * <DebugLines>: the engine's debug view inside the <Canvas> (what `<Physics debug>` mounts).
 * After every frame the space describes itself (shapes, contacts, constraints, AABBs) to a
 * LineSink, the joint limits are added, and the one LineSegments geometry is updated from the
 * sink's reused arrays: its attributes are replaced only when the arrays grew.
 */
import type { DebugDrawOptions } from '@fulcrum/physics';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { BufferAttribute, BufferGeometry } from 'three';
import { useWorld } from '../core/context.js';
import { LineSink } from './line-sink.js';

export interface DebugLinesProps {
  /** Layers to draw; default shapes, contacts and constraints (not AABBs). */
  options?: DebugDrawOptions;
}

const DEFAULT_LAYERS: Readonly<DebugDrawOptions> = { shapes: true, contacts: true, constraints: true, aabbs: false };

export function DebugLines({ options }: DebugLinesProps): ReactNode {
  const world = useWorld('DebugLines');
  const [sink] = useState(() => new LineSink());
  const geometry = useMemo(() => new BufferGeometry(), []);
  const opts = useRef<DebugDrawOptions>({});
  opts.current = { ...DEFAULT_LAYERS, ...options };

  useLayoutEffect(() => {
    const draw = (): void => {
      sink.begin();
      world.space.debugDraw(sink, opts.current);
      if (opts.current.constraints) {
        const overlays = world.overlays.items;
        for (let i = 0; i < overlays.length; i++) overlays[i]!(sink);
      }
      if (sink.resized) {
        geometry.setAttribute('position', new BufferAttribute(sink.positions, 3));
        geometry.setAttribute('color', new BufferAttribute(sink.colors, 3));
        sink.resized = false;
      } else {
        geometry.getAttribute('position').needsUpdate = true;
        geometry.getAttribute('color').needsUpdate = true;
      }
      geometry.setDrawRange(0, sink.count);
    };
    draw();
    world.requestFrame();
    return world.addAfterFrame(draw);
  }, [world, sink, geometry]);
  useEffect(() => () => geometry.dispose(), [geometry]);

  return (
    <lineSegments geometry={geometry} frustumCulled={false} renderOrder={1000}>
      <lineBasicMaterial vertexColors depthTest={false} transparent />
    </lineSegments>
  );
}
