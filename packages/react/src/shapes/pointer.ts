/**
 * Pointer events on a <Body>'s default shape meshes, forwarded to the body's handlers
 * (`onClick`, `onPointerOver`, …) with the engine `body` and `shape` added to R3F's event.
 *
 * The mesh always carries R3F handlers, because the body's handlers live in its props, which
 * change without re-rendering the shapes. Its raycast is gated instead: a mesh whose body has no
 * pointer handler is never hit, so it costs R3F one call per pointer event, takes no hover, and
 * never hides what is behind it from other objects' events.
 */
import type { Body, Shape } from '@fulcrum/physics';
import type { ThreeEvent } from '@react-three/fiber';
import type { Intersection, Object3D, Raycaster } from 'three';
import { POINTER_HANDLER_KEYS, type BodyPointerHandlers } from '../core/event-router.js';
import type { PhysicsWorld } from '../core/physics-world.js';

type PointerKey = (typeof POINTER_HANDLER_KEYS)[number];

/** The props that make a mesh forward pointer events: a gated raycast and one handler per event. */
export type PointerForwarding = { raycast: (this: Object3D, raycaster: Raycaster, intersects: Intersection[]) => void } & Record<
  PointerKey,
  (event: ThreeEvent<Event>) => void
>;

/**
 * Forwarding props for a mesh that draws `shapes()` (a component's engine shapes on a <Body>,
 * read when an event comes, so they may change: a StrictMode remount, a replaced <Chain>).
 */
export function pointerForwarding(world: PhysicsWorld, shapes: () => readonly (Shape | null)[]): PointerForwarding {
  const bodyOf = (): Body | null => (shapes()[0]?.body as Body | null | undefined) ?? null;
  const handlers = (): BodyPointerHandlers | undefined => world.events.pointerHandlersOf(bodyOf());
  const props = {
    raycast(this: Object3D, raycaster: Raycaster, intersects: Intersection[]): void {
      const h = handlers();
      if (h === undefined || !POINTER_HANDLER_KEYS.some((k) => h[k] !== undefined)) return;
      // The mesh's own raycast (Mesh, LineSegments): this function shadows it on the instance.
      (Object.getPrototypeOf(this) as Object3D).raycast.call(this, raycaster, intersects);
    },
  } as PointerForwarding;
  for (const key of POINTER_HANDLER_KEYS) {
    props[key] = (event) => {
      const body = bodyOf();
      const handler = handlers()?.[key] as ((e: unknown) => void) | undefined;
      if (body === null || handler === undefined) return;
      const shape = pieceAt(shapes(), event.point);
      if (shape === null) return;
      handler(Object.assign(event, { body, shape }));
    };
  }
  return props;
}

/** The piece under a world point (the first piece when the point is in none of them). */
function pieceAt(shapes: readonly (Shape | null)[], point: { x: number; y: number } | undefined): Shape | null {
  if (shapes.length > 1 && point !== undefined) {
    for (const s of shapes) if (s !== null && s.containsPoint(point.x, point.y)) return s;
  }
  return shapes[0] ?? null;
}
