/** Small building blocks the scenes share. */
import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box } from '@fulcrum/react';
import type { Ref } from 'react';

/** A static floor, its top at y = `top`. */
export function Floor({ top = -5, width = 24 }: { top?: number; width?: number }) {
  return (
    <Body type="static" position={[0, top - 0.25]}>
      <Box width={width} height={0.5} friction={0.8} />
    </Body>
  );
}

/** A static body to pin joints to: a small marker at `position`. Its shape is a sensor, so it
 * never collides with what is pinned to it. */
export function Anchor({ position, bodyRef, size = 0.3 }: { position: [number, number]; bodyRef: Ref<EngineBody | null>; size?: number }) {
  return (
    <Body ref={bodyRef} type="static" position={position}>
      <Box width={size} height={size} sensor />
    </Body>
  );
}

/** Drag settling: slight drag so that swinging scenes come to rest (and sleep) within seconds. */
export const SETTLE = { linearDrag: 0.9, angularDrag: 1.5 } as const;

/** Marks the body the browser tests drag, at its origin (see SceneProbe). */
export const DRAG_HANDLE = { dragHandle: true } as const;

/** Marks the body the browser tests drag, at a body-local point (for a body pinned at its origin). */
export const dragHandleAt = (x: number, y: number) => ({ dragHandle: [x, y] as [number, number] });
