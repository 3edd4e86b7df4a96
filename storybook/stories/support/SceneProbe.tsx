/**
 * Publishes the scene's state to the page's probe (`window.__fulcrum`, see
 * @fulcrum/browser-testing/probe) after every rendered frame, for the browser tests:
 * - `awakeBodies` / `bodies`: dynamic bodies not asleep / all bodies (read with the engine's
 *   public API: `space.bodies`, `body.type`, `body.isSleeping`);
 * - `constraintIds`, `bodyIds`: engine object ids, so a test can tell "updated in place" from
 *   "remounted";
 * - `dragTarget`: the drag handle, in world metres and in canvas pixels: the body-local point
 *   `userData.dragHandle` ([x, y], or true for the body's origin) of the first body that has one,
 *   else the first dynamic body's origin. The pixel position is relative to the canvas's top-left
 *   corner (CSS pixels): the page may shift after the last frame of a scene at rest; its id, and
 *   its velocity in canvas pixels a second (a test presses where a moving body will be);
 * - `publishedAt`: performance.now() when this was published;
 * - `grabbed`: the id of the body the pointer holds (StoryFrame's drag callback), else null;
 * - `motion`: metres the dynamic bodies' origins have moved plus radians they have turned since
 *   this scene mounted, summed over bodies and frames, so a test can see that a remounted scene
 *   steps without racing its motion with a screenshot.
 */
import { setProbe } from '@fulcrum/browser-testing/probe';
import type { Body, Space } from '@fulcrum/physics';
import { useSpace } from '@fulcrum/react';
import { useFrame, useThree } from '@react-three/fiber';
import { useLayoutEffect, useRef } from 'react';
import { Vector3 } from 'three';

/** Ids published per kind; enough to detect a remount without copying thousands each frame. */
const MAX_IDS = 64;

export function SceneProbe() {
  const space = useSpace();
  const camera = useThree((s) => s.camera);
  const gl = useThree((s) => s.gl);
  // This scene's own record (the component remounts with the scene).
  const motion = useRef<Motion>({ total: 0, last: new WeakMap() });

  // Publish once at mount, too: a demand-mode scene may render very few frames.
  useLayoutEffect(() => publish(space, camera, gl.domElement, motion.current));
  // Priority -1: after the physics step (-50); a positive priority would turn off R3F's rendering.
  useFrame(() => publish(space, camera, gl.domElement, motion.current), -1);
  return null;
}

/** Motion so far, and each dynamic body's pose [x, y, angle] when last seen. */
interface Motion {
  total: number;
  last: WeakMap<Body, [number, number, number]>;
}

function addMotion(motion: Motion, body: Body): void {
  const { x, y } = body.position;
  const r = body.rotation;
  const seen = motion.last.get(body);
  if (seen) {
    motion.total += Math.hypot(x - seen[0], y - seen[1]) + Math.abs(r - seen[2]);
    seen[0] = x;
    seen[1] = y;
    seen[2] = r;
  } else {
    motion.last.set(body, [x, y, r]);
  }
}

const projected = new Vector3();

function publish(space: Space, camera: import('three').Camera, canvas: HTMLCanvasElement, motion: Motion): void {
  let awake = 0;
  let handle: Body | null = null;
  let firstDynamic: Body | null = null;
  const bodies = space.bodies;
  for (const b of bodies) {
    if (b.type !== 'dynamic') continue;
    if (!b.isSleeping) awake++;
    addMotion(motion, b);
    firstDynamic ??= b;
    if (!handle && (b.userData as { dragHandle?: unknown } | undefined)?.dragHandle) handle = b;
  }
  const target = handle ?? firstDynamic;
  let dragTarget: { id: number; world: [number, number]; canvas: [number, number]; velocity: [number, number] } | null = null;
  if (target) {
    const local = (target.userData as { dragHandle?: unknown } | undefined)?.dragHandle;
    const [lx, ly] = Array.isArray(local) ? (local as [number, number]) : [0, 0];
    const { x: ox, y: oy } = target.position;
    const c = Math.cos(target.rotation);
    const s = Math.sin(target.rotation);
    const x = ox + c * lx - s * ly;
    const y = oy + s * lx + c * ly;
    const rect = canvas.getBoundingClientRect();
    const toCanvas = (wx: number, wy: number): [number, number] => {
      projected.set(wx, wy, 0).project(camera);
      return [((projected.x + 1) / 2) * rect.width, ((1 - projected.y) / 2) * rect.height];
    };
    // The point's velocity, v + ω × r from the body's origin, as canvas pixels a second.
    const v = target.velocity;
    const w = target.angularVel;
    const at = toCanvas(x, y);
    const later = toCanvas(x + v.x - w * (y - oy), y + v.y + w * (x - ox));
    dragTarget = { id: target.id, world: [x, y], canvas: at, velocity: [later[0] - at[0], later[1] - at[1]] };
  }
  setProbe({
    awakeBodies: awake,
    bodies: bodies.length,
    bodyIds: bodies.slice(0, MAX_IDS).map((b) => b.id),
    constraintIds: space.constraints.slice(0, MAX_IDS).map((c) => c.id),
    dragTarget,
    motion: motion.total,
    publishedAt: performance.now(),
  });
}
