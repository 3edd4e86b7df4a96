/**
 * <DebugLines>: the engine's debug view inside the <Canvas> (what `<Physics debug>` mounts).
 * After every frame the space describes itself (shapes, contacts, constraints, AABBs) to a
 * LineSink, the joint limits are added, and the one LineSegments geometry is updated from the
 * sink's reused arrays: its attributes are replaced only when the arrays grew.
 *
 * The engine draws in world coordinates, so the lines are drawn at the world origin whatever
 * three.js groups <Physics> is inside (drawAtWorldPose, as bodies are). The layers come from the
 * committed props, taken in an effect: a render React discards never changes what is drawn.
 */
import type { DebugDrawOptions } from '@fulcrum/physics';
import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { BufferAttribute, BufferGeometry, type LineSegments } from 'three';
import { useWorld } from '../core/context.js';
import { propFail } from '../core/errors.js';
import { checkPropNames, propNames } from '../core/props.js';
import { drawAtWorldPose } from '../core/pose.js';
import { useCommitted } from '../hooks/hooks.js';
import { LineSink } from './line-sink.js';

export interface DebugLinesProps {
  /** Layers to draw; default shapes, contacts and constraints (not AABBs). */
  options?: DebugDrawOptions;
}

const DEFAULT_LAYERS: Readonly<DebugDrawOptions> = { shapes: true, contacts: true, constraints: true, aabbs: false };
const LAYERS = propNames<DebugDrawOptions>()(['shapes', 'contacts', 'aabbs', 'constraints']);

/**
 * Debug layers given as a prop, checked during render: each a boolean, and no other key (the
 * engine's debugDraw would refuse them in every frame, out of any error boundary's reach).
 */
export function checkDebugLayers(component: string, prop: string, layers: unknown): void {
  if (layers === undefined) return;
  if (layers === null || typeof layers !== 'object') propFail(component, prop, layers, 'must be an object {shapes?, contacts?, aabbs?, constraints?}');
  checkPropNames(component, layers, LAYERS, prop);
  for (const k of LAYERS) {
    const v = (layers as DebugDrawOptions)[k];
    if (v !== undefined && typeof v !== 'boolean') propFail(component, `${prop}.${k}`, v, 'must be a boolean');
  }
}

export function DebugLines({ options }: DebugLinesProps): ReactNode {
  const world = useWorld('DebugLines');
  checkDebugLayers('DebugLines', 'options', options);
  const [sink] = useState(() => new LineSink());
  const geometry = useMemo(() => new BufferGeometry(), []);
  const layers = { ...DEFAULT_LAYERS, ...options };
  const opts = useRef<DebugDrawOptions>(layers);
  useCommitted(opts, layers);
  const lines = useRef<LineSegments>(null);

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
    const stop = world.addAfterFrame(draw);
    const undoWorldPose = lines.current === null ? null : drawAtWorldPose(lines.current);
    return () => {
      stop();
      undoWorldPose?.();
    };
  }, [world, sink, geometry]);
  useEffect(() => () => geometry.dispose(), [geometry]);

  return (
    <lineSegments ref={lines} geometry={geometry} frustumCulled={false} renderOrder={1000}>
      <lineBasicMaterial vertexColors depthTest={false} transparent />
    </lineSegments>
  );
}
