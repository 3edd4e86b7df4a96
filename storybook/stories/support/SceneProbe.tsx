/**
 * Publishes the scene's state to the page's probe (`window.__fulcrum`, see
 * @fulcrum/browser-testing/probe) after every rendered frame, for the browser tests:
 * - `awakeBodies` / `bodies`: dynamic bodies not asleep / all bodies (read with the engine's
 *   public API: `space.bodies`, `body.type`, `body.isSleeping`);
 * - `constraintIds`, `bodyIds`: engine object ids, so a test can tell "updated in place" from
 *   "remounted";
 * - `dragTarget`: where the drag handle body (`userData.dragHandle`, else the first dynamic
 *   body) is, in world metres and in page pixels.
 */
import { setProbe } from '@fulcrum/browser-testing/probe';
import type { Body, Space } from '@fulcrum/physics';
import { useSpace } from '@fulcrum/react';
import { useFrame, useThree } from '@react-three/fiber';
import { useLayoutEffect } from 'react';
import { Vector3 } from 'three';

/** Ids published per kind; enough to detect a remount without copying thousands each frame. */
const MAX_IDS = 64;

export function SceneProbe() {
  const space = useSpace();
  const camera = useThree((s) => s.camera);
  const gl = useThree((s) => s.gl);

  // Publish once at mount, too: a demand-mode scene may render very few frames.
  useLayoutEffect(() => publish(space, camera, gl.domElement));
  // Priority -1: after the physics step (-50); a positive priority would turn off R3F's rendering.
  useFrame(() => publish(space, camera, gl.domElement), -1);
  return null;
}

const projected = new Vector3();

function publish(space: Space, camera: import('three').Camera, canvas: HTMLCanvasElement): void {
  let awake = 0;
  let handle: Body | null = null;
  let firstDynamic: Body | null = null;
  const bodies = space.bodies;
  for (const b of bodies) {
    if (b.type !== 'dynamic') continue;
    if (!b.isSleeping) awake++;
    firstDynamic ??= b;
    if (!handle && (b.userData as { dragHandle?: boolean } | undefined)?.dragHandle) handle = b;
  }
  const target = handle ?? firstDynamic;
  let dragTarget: { world: [number, number]; page: [number, number] } | null = null;
  if (target) {
    const { x, y } = target.position;
    const rect = canvas.getBoundingClientRect();
    projected.set(x, y, 0).project(camera);
    dragTarget = {
      world: [x, y],
      page: [rect.left + ((projected.x + 1) / 2) * rect.width, rect.top + ((1 - projected.y) / 2) * rect.height],
    };
  }
  setProbe({
    awakeBodies: awake,
    bodies: bodies.length,
    bodyIds: bodies.slice(0, MAX_IDS).map((b) => b.id),
    constraintIds: space.constraints.slice(0, MAX_IDS).map((c) => c.id),
    dragTarget,
  });
}
