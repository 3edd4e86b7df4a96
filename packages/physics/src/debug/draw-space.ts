/**
 * Walks a space and describes it to a DebugDraw sink. Reuses one scratch buffer for polygon
 * outlines so drawing every frame allocates nothing per shape.
 */
import type { Body } from '../body/body.js';
import type { Contact } from '../contact/contact.js';
import { Circle } from '../shape/circle.js';
import { PolyShape } from '../shape/poly-shape.js';
import type { Shape } from '../shape/shape.js';
import { DebugColors, type DebugDraw, type DebugDrawOptions } from './debug-draw.js';

interface DrawableSpace {
  readonly bodies: readonly Body[];
  readonly constraints: readonly { _debugDraw?(sink: DebugDraw): void }[];
}

const scratch = new Float64Array(2 * 64);

export function drawSpace(space: DrawableSpace, contacts: readonly Contact[], sink: DebugDraw, o: DebugDrawOptions): void {
  if (o.shapes ?? true) {
    for (const b of space.bodies) {
      for (const s of b.shapes) drawShape(b, s, sink, shapeColor(b, s));
    }
  }
  if (o.aabbs ?? false) {
    for (const b of space.bodies) {
      for (const s of b.shapes) {
        scratch[0] = s.aabbMinX;
        scratch[1] = s.aabbMinY;
        scratch[2] = s.aabbMaxX;
        scratch[3] = s.aabbMinY;
        scratch[4] = s.aabbMaxX;
        scratch[5] = s.aabbMaxY;
        scratch[6] = s.aabbMinX;
        scratch[7] = s.aabbMaxY;
        sink.drawPolygon(scratch, 4, DebugColors.aabb);
      }
    }
  }
  if (o.constraints ?? true) {
    for (const c of space.constraints) c._debugDraw?.(sink);
  }
  if (o.contacts ?? false) {
    for (const c of contacts) {
      if (!c.touching) continue;
      const m = c.manifold;
      for (let i = 0; i < m.pointCount; i++) {
        const x = m.px[i]!;
        const y = m.py[i]!;
        sink.drawPoint(x, y, 0.05, DebugColors.contactPoint);
        sink.drawSegment(x, y, x + 0.3 * m.nx, y + 0.3 * m.ny, DebugColors.contactNormal);
      }
    }
  }
}

function shapeColor(b: Body, s: Shape): number {
  if (s.sensor) return DebugColors.sensor;
  if (b.isStatic) return DebugColors.static;
  if (b.isKinematic) return DebugColors.kinematic;
  return b.isSleeping ? DebugColors.sleeping : DebugColors.dynamic;
}

function drawShape(b: Body, s: Shape, sink: DebugDraw, color: number): void {
  if (s instanceof Circle) {
    sink.drawCircle(s.wx, s.wy, s.radius, b.rotation + s.angle, color);
    return;
  }
  if (!(s instanceof PolyShape)) return;
  const v = s.worldVerts;
  const r = s.radius;
  if (s.count === 2) {
    if (r === 0) {
      sink.drawSegment(v[0]!, v[1]!, v[2]!, v[3]!, color);
      return;
    }
    // Capsule: two caps and the two straight sides.
    const n = s.worldNormals;
    sink.drawCircle(v[0]!, v[1]!, r, b.rotation, color);
    sink.drawCircle(v[2]!, v[3]!, r, b.rotation, color);
    sink.drawSegment(v[0]! + r * n[0]!, v[1]! + r * n[1]!, v[2]! + r * n[0]!, v[3]! + r * n[1]!, color);
    sink.drawSegment(v[0]! - r * n[0]!, v[1]! - r * n[1]!, v[2]! - r * n[0]!, v[3]! - r * n[1]!, color);
    return;
  }
  if (r === 0) {
    sink.drawPolygon(v, s.count, color);
    return;
  }
  // Rounded polygon: each edge pushed out by the radius, corners as circles.
  const n = s.worldNormals;
  for (let i = 0; i < s.count; i++) {
    const j = i + 1 < s.count ? i + 1 : 0;
    sink.drawSegment(v[2 * i]! + r * n[2 * i]!, v[2 * i + 1]! + r * n[2 * i + 1]!, v[2 * j]! + r * n[2 * i]!, v[2 * j + 1]! + r * n[2 * i + 1]!, color);
    sink.drawCircle(v[2 * i]!, v[2 * i + 1]!, r, b.rotation, color);
  }
}
