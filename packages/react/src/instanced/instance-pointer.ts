/**
 * Pointer events on <InstancedBodies>: R3F's events on the instanced mesh (`onClick`,
 * `onPointerOver`, …), forwarded to the component's handlers with the engine `body` of the
 * instance hit (R3F's `instanceId` is its slot in the mesh, which is its index in `instances`),
 * its `index`, and the engine `shape` under the pointer.
 *
 * As for a <Body>'s shape meshes (shapes/pointer.ts), the mesh always carries the R3F handlers,
 * because the component's handlers live in its committed props, and its raycast is gated
 * instead: while no pointer handler is given, the mesh is never hit, takes no hover, and hides
 * nothing behind it.
 */
import type { Body, Shape } from '@fulcrum/physics';
import type { InstancedMesh, Intersection, Object3D, Raycaster } from 'three';
import { POINTER_HANDLER_KEYS, type BodyPointerEvent, type BodyPointerHandlers } from '../core/event-router.js';
import type { PointerForwarding } from '../shapes/pointer.js';

/** An R3F pointer event on one instance of <InstancedBodies>: a body's pointer event, with the instance's index. */
export type InstancePointerEvent<E = PointerEvent> = BodyPointerEvent<E> & {
  /** The instance's index in `instances` (R3F's `instanceId`). */
  index: number;
};

/** R3F's pointer events, forwarded by the instanced mesh of <InstancedBodies>. */
export interface InstancePointerHandlers {
  onClick?: (event: InstancePointerEvent<MouseEvent>) => void;
  onContextMenu?: (event: InstancePointerEvent<MouseEvent>) => void;
  onDoubleClick?: (event: InstancePointerEvent<MouseEvent>) => void;
  onWheel?: (event: InstancePointerEvent<WheelEvent>) => void;
  onPointerDown?: (event: InstancePointerEvent) => void;
  onPointerUp?: (event: InstancePointerEvent) => void;
  onPointerMove?: (event: InstancePointerEvent) => void;
  onPointerOver?: (event: InstancePointerEvent) => void;
  onPointerOut?: (event: InstancePointerEvent) => void;
  onPointerEnter?: (event: InstancePointerEvent) => void;
  onPointerLeave?: (event: InstancePointerEvent) => void;
  onPointerCancel?: (event: InstancePointerEvent) => void;
  onLostPointerCapture?: (event: InstancePointerEvent) => void;
}

// The same events as a <Body>'s: a handler added to one and not the other fails to compile here.
type KeyDifference = Exclude<keyof BodyPointerHandlers, keyof InstancePointerHandlers> | Exclude<keyof InstancePointerHandlers, keyof BodyPointerHandlers>;
const sameEvents: [KeyDifference] extends [never] ? true : never = true;
void sameEvents;

/**
 * Forwarding props for the instanced mesh: `handlers` holds the committed props, `bodyAt(i)` is
 * the engine body drawn in slot i (null when there is none).
 */
export function instancePointerForwarding(handlers: { readonly current: InstancePointerHandlers }, bodyAt: (index: number) => Body | null): PointerForwarding {
  const props = {
    raycast(this: Object3D, raycaster: Raycaster, intersects: Intersection[]): void {
      const h = handlers.current;
      if (!POINTER_HANDLER_KEYS.some((k) => h[k] !== undefined)) return;
      // The instances move without three.js knowing: the bounds three.js keeps for its first test
      // (computed once, then cached) are recomputed from the matrices as they are now.
      const mesh = this as InstancedMesh;
      mesh.computeBoundingSphere?.();
      (Object.getPrototypeOf(this) as Object3D).raycast.call(this, raycaster, intersects);
    },
  } as PointerForwarding;
  for (const key of POINTER_HANDLER_KEYS) {
    props[key] = (event) => {
      const handler = handlers.current[key] as ((e: unknown) => void) | undefined;
      const index = event.instanceId;
      if (handler === undefined || index === undefined) return;
      const body = bodyAt(index);
      if (body === null) return;
      const shape = shapeAt(body.shapes, event.point);
      if (shape === null) return;
      // A copy, not R3F's object: R3F keeps that one as its hover record, keyed by its `index`
      // (a hit's, undefined on a mesh) and `instanceId`, and one changed `index` would stop it
      // finding the record again (no pointerOut, a record kept for good). Its stopPropagation
      // still flags R3F's object.
      handler({ ...event, body, shape, index });
    };
  }
  return props;
}

/** The body's shape under a world point (the first shape when the point is in none of them). */
function shapeAt(shapes: readonly Shape[], point: { x: number; y: number } | undefined): Shape | null {
  if (shapes.length > 1 && point !== undefined) {
    for (const s of shapes) if (s.containsPoint(point.x, point.y)) return s;
  }
  return shapes[0] ?? null;
}
