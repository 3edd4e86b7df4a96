/**
 * The default look of a shape that draws itself: a flat mesh in the body-type colour (the
 * engine's debug palette), built from the validated shape. Materials are shared per colour and
 * created on first use, never at import (SSR-safe).
 */
import type { Capsule, Circle, Polygon, Segment, Shape, Vec2, Vec2Like } from '@fulcrum/physics';
import { DebugColors } from '@fulcrum/physics';
import {
  BufferGeometry,
  CircleGeometry,
  Float32BufferAttribute,
  LineBasicMaterial,
  MeshBasicMaterial,
  PlaneGeometry,
  Shape as PathShape,
  ShapeGeometry,
  Vector2,
  type Material,
} from 'three';

/** The wedge left out of a circle, radians, so that its rotation shows. */
const CIRCLE_NOTCH = 0.35;

/**
 * A geometry for a shape component in the shape's own frame (the mesh applies its offset and
 * angle): its outline, from the component's options and its engine pieces on trial. A decomposed
 * <Polygon> draws its whole outline, not its pieces; a <Chain> its segments, as lines.
 */
export function shapeGeometry(component: string, options: Readonly<Record<string, unknown>>, pieces: readonly Shape[]): BufferGeometry {
  const shape = pieces[0]!;
  switch (component) {
    case 'Circle':
      return new CircleGeometry((shape as Circle).radius, 40, CIRCLE_NOTCH / 2, 2 * Math.PI - CIRCLE_NOTCH);
    case 'Box': {
      const v = (shape as Polygon).vertices;
      const xs = v.map((p) => p.x);
      const ys = v.map((p) => p.y);
      return new PlaneGeometry(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys));
    }
    case 'Polygon': {
      // The outline as given (validated: finite, simple); three.js triangulates it, concave or not.
      const outline = (options.vertices as readonly Vec2Like[]).map((p) => (Array.isArray(p) ? new Vector2(p[0], p[1]) : new Vector2((p as Vec2).x, (p as Vec2).y)));
      return new ShapeGeometry(new PathShape(outline));
    }
    case 'Capsule': {
      const c = shape as Capsule;
      const p1 = c.p1;
      const p2 = c.p2;
      const r = c.radius;
      const a = Math.atan2(p2.y - p1.y, p2.x - p1.x);
      const path = new PathShape();
      path.absarc(p2.x, p2.y, r, a - Math.PI / 2, a + Math.PI / 2, false);
      path.absarc(p1.x, p1.y, r, a + Math.PI / 2, a + (3 * Math.PI) / 2, false);
      return new ShapeGeometry(path, 16);
    }
    default: {
      // Segment, and a Chain's segments: one line each.
      const xyz: number[] = [];
      for (const piece of pieces) {
        const s = piece as Segment;
        xyz.push(s.p1.x, s.p1.y, 0, s.p2.x, s.p2.y, 0);
      }
      const g = new BufferGeometry();
      g.setAttribute('position', new Float32BufferAttribute(xyz, 3));
      return g;
    }
  }
}

const meshMaterials = new Map<string, MeshBasicMaterial>();
const lineMaterials = new Map<number, LineBasicMaterial>();

/** The shared material for a colour (sensors are see-through). */
export function defaultMaterial(color: number, sensor: boolean, line: boolean): Material {
  if (line) {
    let m = lineMaterials.get(color);
    if (!m) lineMaterials.set(color, (m = new LineBasicMaterial({ color })));
    return m;
  }
  const key = `${color}/${sensor}`;
  let m = meshMaterials.get(key);
  if (!m) {
    m = sensor ? new MeshBasicMaterial({ color: DebugColors.sensor, transparent: true, opacity: 0.35, depthWrite: false }) : new MeshBasicMaterial({ color });
    meshMaterials.set(key, m);
  }
  return m;
}
