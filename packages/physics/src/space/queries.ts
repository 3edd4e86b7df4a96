/**
 * Spatial queries over the broadphase: shapes at a point, shapes whose boxes overlap a box, and
 * ray casts. Every result is sorted (by shape id, or by distance then id) so that it never
 * depends on the tree's shape.
 */
import type { Body } from '../body/body.js';
import type { Vec2, Vec2Like } from '../math/vec2.js';
import type { RayCastOutput, Shape } from '../shape/shape.js';
import { checkVec2, fail } from '../util/validate.js';
import type { ContactManager } from './contact-manager.js';

export interface RayHit {
  shape: Shape;
  body: Body;
  point: Vec2;
  normal: Vec2;
  /** Fraction along from → to. */
  fraction: number;
}

export interface QueryOptions {
  /** Return false to skip a shape. */
  filter?: (shape: Shape) => boolean;
  /** Include sensor shapes (default false for ray casts, true for point/AABB queries). */
  includeSensors?: boolean;
}

export class SpaceQueries {
  constructor(private readonly contacts: ContactManager) {}

  queryPoint(point: Vec2Like, options: QueryOptions): Shape[] {
    this.contacts.flushInert();
    const p = checkVec2('Space', 'queryPoint(point)', point);
    const out: Shape[] = [];
    this.contacts.broadphase.query(p.x, p.y, p.x, p.y, (proxy) => {
      const s = this.contacts.shapeFromProxy(proxy);
      if (s && accepts(s, options, true) && s.containsPoint(p.x, p.y)) out.push(s);
      return true;
    });
    return out.sort((a, b) => a.id - b.id);
  }

  queryAABB(min: Vec2Like, max: Vec2Like, options: QueryOptions): Shape[] {
    this.contacts.flushInert();
    const lo = checkVec2('Space', 'queryAABB(min)', min);
    const hi = checkVec2('Space', 'queryAABB(max)', max);
    if (lo.x > hi.x || lo.y > hi.y) fail('Space', 'queryAABB(min, max)', [lo, hi], 'needs min ≤ max on both axes');
    const out: Shape[] = [];
    this.contacts.broadphase.query(lo.x, lo.y, hi.x, hi.y, (proxy) => {
      const s = this.contacts.shapeFromProxy(proxy);
      if (s && accepts(s, options, true) && s.aabbMinX <= hi.x && s.aabbMaxX >= lo.x && s.aabbMinY <= hi.y && s.aabbMaxY >= lo.y) out.push(s);
      return true;
    });
    return out.sort((a, b) => a.id - b.id);
  }

  /** Hits of the segment from → to, nearest first; only the nearest when `closest`. */
  rayCast(from: Vec2Like, to: Vec2Like, options: QueryOptions, closest: boolean): RayHit[] {
    this.contacts.flushInert();
    const a = checkVec2('Space', 'rayCast(from)', from);
    const b = checkVec2('Space', 'rayCast(to)', to);
    const hits: RayHit[] = [];
    const out: RayCastOutput = { fraction: 0, normalX: 0, normalY: 0 };
    if (a.x === b.x && a.y === b.y) return hits;
    this.contacts.broadphase.rayCast(a.x, a.y, b.x, b.y, 1, (proxy, p1x, p1y, p2x, p2y, maxFraction) => {
      const s = this.contacts.shapeFromProxy(proxy);
      if (!s || !accepts(s, options, false)) return -1;
      if (!s.rayCast(p1x, p1y, p2x, p2y, maxFraction, out)) return -1;
      const f = out.fraction;
      const hit: RayHit = {
        shape: s,
        body: s.body as Body,
        point: { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f },
        normal: { x: out.normalX, y: out.normalY },
        fraction: f,
      };
      if (closest) {
        hits[0] = hit;
        return f; // clip the ray: only closer hits from now on
      }
      hits.push(hit);
      return maxFraction;
    });
    return hits.sort((p, q) => p.fraction - q.fraction || p.shape.id - q.shape.id);
  }
}

function accepts(s: Shape, o: QueryOptions, sensorsByDefault: boolean): boolean {
  if (s.sensor && !(o.includeSensors ?? sensorsByDefault)) return false;
  return o.filter ? o.filter(s) !== false : true;
}
