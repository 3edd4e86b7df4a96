/**
 * <PointerDrag>: drag bodies with the pointer (mouse, touch, pen) inside a <Canvas>. Also
 * mounted by `<Physics dragging>`. Listens on the canvas element (so bodies without meshes,
 * drawn only by the debug view, can be grabbed too), converts the pointer to world coordinates
 * through the current camera, and drives a DragController.
 *
 * Camera controls (OrbitControls and the like) listen for the same presses. A press that grabs a
 * body must not also orbit or pan, so it is stopped where it starts: the listener is a capturing
 * one on the canvas, which runs before any other listener on the canvas or its ancestors, and
 * stops the event's propagation (`stopPropagation={false}` lets it through). R3F's default
 * controls (drei's `makeDefault`) are also disabled while a body is held, and `onDragStart` /
 * `onDragEnd` let any other controls be disabled by hand.
 */
import type { Body } from '@fulcrum/physics';
import { useThree } from '@react-three/fiber';
import { useEffect, useRef, type ReactNode } from 'react';
import { Vector3 } from 'three';
import { useWorld } from '../core/context.js';
import { propFail } from '../core/errors.js';
import { checkPropNames, propNames } from '../core/props.js';
import { useCommitted } from '../hooks/hooks.js';
import { DragController, type DragSettings } from './drag-controller.js';

export interface PointerDragProps extends DragSettings {
  /** Called when a drag starts (with the body) and ends (with null). */
  onDrag?: (body: Body | null) => void;
  /** Called when a press grabs a body, before `onDrag`: disable camera controls here, for example. */
  onDragStart?: (body: Body) => void;
  /**
   * Called when the body is let go, however the drag ends (the pointer is released or cancelled,
   * the body unmounts, <PointerDrag> unmounts), before `onDrag(null)`.
   */
  onDragEnd?: (body: Body) => void;
  /**
   * Whether the press that grabs a body is kept from every other listener on the canvas and its
   * ancestors: camera controls, and R3F's own pointer events (default true). Presses that grab
   * nothing always go through. With false, R3F's events (an `onClick` on the body) see the press
   * too; R3F's default controls are still disabled while a body is held.
   */
  stopPropagation?: boolean;
}

const CALLBACKS = ['filter', 'onDrag', 'onDragStart', 'onDragEnd'] as const;

/** Controls that can be switched off: three.js's and drei's have `enabled`. */
interface Switchable {
  enabled: boolean;
}

/** Every prop of <PointerDrag>, and so of `<Physics dragging={…}>` (any other is an error). */
const POINTER_DRAG_PROPS = propNames<PointerDragProps>()(['frequency', 'damping', 'maxForce', 'filter', 'onDrag', 'onDragStart', 'onDragEnd', 'stopPropagation']);

export function PointerDrag(props: PointerDragProps): ReactNode {
  checkPropNames('PointerDrag', props, POINTER_DRAG_PROPS);
  const world = useWorld('PointerDrag');
  const gl = useThree((s) => s.gl);
  const get = useThree((s) => s.get);
  for (const k of ['frequency', 'damping', 'maxForce'] as const) {
    const v = props[k];
    if (v !== undefined && (typeof v !== 'number' || Number.isNaN(v) || v <= 0)) propFail('PointerDrag', k, v, 'must be a positive number');
  }
  for (const k of CALLBACKS) if (props[k] !== undefined && typeof props[k] !== 'function') propFail('PointerDrag', k, props[k], 'must be a function');
  if (props.stopPropagation !== undefined && typeof props.stopPropagation !== 'boolean') propFail('PointerDrag', 'stopPropagation', props.stopPropagation, 'must be a boolean');
  const settings = useRef<PointerDragProps>(props);
  useCommitted(settings, props); // in an effect: a render React discards must not be called

  useEffect(() => {
    const el = gl.domElement;
    let pointer = -1;
    /** The default controls this drag switched off, to switch back on when it ends. */
    let paused: Switchable | null = null;
    const drag = new DragController(world, settings, (body) => {
      if (pointer !== -1 && el.hasPointerCapture?.(pointer)) el.releasePointerCapture(pointer);
      pointer = -1;
      if (paused !== null) paused.enabled = true;
      paused = null;
      settings.current.onDragEnd?.(body);
      settings.current.onDrag?.(null);
    });
    const near = new Vector3();
    const far = new Vector3();
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
      const s = settings.current;
      if (s.stopPropagation !== false) e.stopPropagation();
      pointer = e.pointerId;
      el.setPointerCapture?.(e.pointerId);
      const controls = get().controls as Partial<Switchable> | null;
      if (controls !== null && controls.enabled === true) {
        paused = controls as Switchable;
        paused.enabled = false;
      }
      s.onDragStart?.(body);
      s.onDrag?.(body);
    };
    const move = (e: PointerEvent): void => {
      if (e.pointerId !== pointer) return;
      const w = toWorld(e);
      drag.move(w.x, w.y);
    };
    const up = (e: PointerEvent): void => {
      if (e.pointerId === pointer) drag.release();
    };
    // Capturing: it runs before the canvas's and its ancestors' own listeners (camera controls),
    // so stopping a grabbing press keeps it from all of them.
    el.addEventListener('pointerdown', down, { capture: true });
    el.addEventListener('pointermove', move);
    el.addEventListener('pointerup', up);
    el.addEventListener('pointercancel', up);
    return () => {
      el.removeEventListener('pointerdown', down, { capture: true });
      el.removeEventListener('pointermove', move);
      el.removeEventListener('pointerup', up);
      el.removeEventListener('pointercancel', up);
      drag.release();
    };
  }, [world, gl, get]);
  return null;
}
