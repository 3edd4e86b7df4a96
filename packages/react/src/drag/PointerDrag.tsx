/**
 * <PointerDrag>: drag bodies with the pointer (mouse, touch, pen) inside a <Canvas>. Also
 * mounted by `<Physics dragging>`. Listens on the canvas element (so bodies without meshes,
 * drawn only by the debug view, can be grabbed too), converts the pointer to world coordinates
 * through the current camera, and drives a DragController.
 */
import type { Body } from '@fulcrum/physics';
import { useThree } from '@react-three/fiber';
import { useEffect, useRef, type ReactNode } from 'react';
import { Vector3 } from 'three';
import { useWorld } from '../core/context.js';
import { propFail } from '../core/errors.js';
import { DragController, type DragSettings } from './drag-controller.js';

export interface PointerDragProps extends DragSettings {
  /** Called when a drag starts and ends (with null). */
  onDrag?: (body: Body | null) => void;
}

export function PointerDrag(props: PointerDragProps): ReactNode {
  const world = useWorld('PointerDrag');
  const gl = useThree((s) => s.gl);
  const get = useThree((s) => s.get);
  for (const k of ['frequency', 'damping', 'maxForce'] as const) {
    const v = props[k];
    if (v !== undefined && (typeof v !== 'number' || Number.isNaN(v) || v <= 0)) propFail('PointerDrag', k, v, 'must be a positive number');
  }
  if (props.filter !== undefined && typeof props.filter !== 'function') propFail('PointerDrag', 'filter', props.filter, 'must be a function');
  const settings = useRef<PointerDragProps>(props);
  settings.current = props;

  useEffect(() => {
    const el = gl.domElement;
    const drag = new DragController(world, settings);
    const near = new Vector3();
    const far = new Vector3();
    let pointer = -1;
    // The pointer's ray meets the bodies' plane, z = 0. (Unprojecting at one NDC depth is only
    // right for a camera looking straight down −z: R3F points an offset camera at the origin,
    // which tilts it, and a perspective camera needs the ray anyway.)
    const toWorld = (e: PointerEvent): Vector3 => {
      const r = el.getBoundingClientRect();
      const x = ((e.clientX - r.left) / r.width) * 2 - 1;
      const y = -((e.clientY - r.top) / r.height) * 2 + 1;
      const camera = get().camera;
      near.set(x, y, -1).unproject(camera);
      far.set(x, y, 1).unproject(camera);
      const dz = near.z - far.z;
      return Math.abs(dz) < 1e-12 ? near : near.lerp(far, near.z / dz);
    };
    const down = (e: PointerEvent): void => {
      if (e.button !== 0 || pointer !== -1) return;
      const w = toWorld(e);
      const body = drag.grab(w.x, w.y);
      if (body === null) return;
      pointer = e.pointerId;
      el.setPointerCapture?.(e.pointerId);
      settings.current.onDrag?.(body);
    };
    const move = (e: PointerEvent): void => {
      if (e.pointerId !== pointer) return;
      const w = toWorld(e);
      drag.move(w.x, w.y);
    };
    const up = (e: PointerEvent): void => {
      if (e.pointerId !== pointer) return;
      pointer = -1;
      if (el.hasPointerCapture?.(e.pointerId)) el.releasePointerCapture(e.pointerId);
      drag.release();
      settings.current.onDrag?.(null);
    };
    el.addEventListener('pointerdown', down);
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
    el.addEventListener('pointercancel', up);
    return () => {
      el.removeEventListener('pointerdown', down);
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
      el.removeEventListener('pointercancel', up);
      drag.release();
    };
  }, [world, gl, get]);
  return null;
}
