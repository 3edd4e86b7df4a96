/**
 * Spatial queries over the broadphase: shapes at a point, shapes whose boxes overlap a box, and
 * ray casts. Every result is sorted (by shape id, or by distance then id) so that it never
 * depends on the tree's shape.
 */
import type { Body } from '../body/body.js';
import { DistanceOutput, DistanceProxy, setProxyFromShape, shapeDistance, type Transform } from '../collision/gjk.js';
import { proxyBounds } from '../collision/proxy-bounds.js';
import { timeOfImpact, TimeOfImpactOutput, type Sweep } from '../collision/time-of-impact.js';
import type { Vec2, Vec2Like } from '../math/vec2.js';
import { Shape, type RayCastOutput } from '../shape/shape.js';
import { checkFinite, checkOptionKeys, checkVec2, fail, optionKeys } from '../util/validate.js';
import type { ContactManager } from './contact-manager.js';
import { bodySweep } from './continuous.js';

export interface RayHit {
  shape: Shape;
  body: Body;
  point: Vec2;
  normal: Vec2;
  /** Fraction along from → to. */
  fraction: number;
}

/** The first shape a cast shape meets along its translation (Space.convexCast). */
export interface ConvexCastHit {
  shape: Shape;
  body: Body;
  /** The fraction of the translation travelled when it meets the shape: 0 ≤ time ≤ 1. */
  time: number;
  /** Where on the hit shape's surface it meets it. */
  point: Vec2;
  /** The hit shape's surface normal there, towards the cast shape ({0, 0} when they already overlapped). */
  normal: Vec2;
}

/** Where a cast shape starts: its body-frame geometry placed at `position`, turned by `rotation`. */
export interface CastPose {
  position: Vec2Like;
  rotation?: number;
}

export interface QueryOptions {
  /** Return false to skip a shape. */
  filter?: (shape: Shape) => boolean;
  /** Include sensor shapes (default false for ray casts, true for point/AABB queries). */
  includeSensors?: boolean;
}

const QUERY_OPTION_KEYS = optionKeys<QueryOptions>()(['filter', 'includeSensors']);
const CAST_POSE_KEYS = optionKeys<CastPose>()(['position', 'rotation']);

/** A query's options, checked before it reads anything: a misspelt or mistyped one is an error. */
function checkQueryOptions(query: string, o: QueryOptions): void {
  const at = `${query}(options)`;
  if (o === null || typeof o !== 'object') fail('Space', at, o, 'must be an object { filter?, includeSensors? }');
  checkOptionKeys('Space', o, QUERY_OPTION_KEYS, at);
  if (o.filter !== undefined && typeof o.filter !== 'function') fail('Space', `${query}(options.filter)`, o.filter, 'must be a function (shape) => boolean');
  if (o.includeSensors !== undefined && typeof o.includeSensors !== 'boolean') fail('Space', `${query}(options.includeSensors)`, o.includeSensors, 'must be a boolean');
}

export class SpaceQueries {
  constructor(private readonly contacts: ContactManager) {}

  queryPoint(point: Vec2Like, options: QueryOptions): Shape[] {
    this.contacts.flushInert();
    const p = checkVec2('Space', 'queryPoint(point)', point);
    checkQueryOptions('queryPoint', options);
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
    checkQueryOptions('queryAABB', options);
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
    checkQueryOptions(closest ? 'rayCast' : 'rayCastAll', options);
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

  /**
   * Space.convexCast: `shape` (its geometry in its body's frame, or its own with its offset and
   * angle when it has no body) placed at `pose` and moved by `translation` without turning; the
   * first shape of the space it meets, or null. Its own body's shapes are never hit. A shape it
   * already touches (within LINEAR_SLOP) is hit at time 0 unless the translation moves away from it.
   */
  convexCast(shape: Shape, pose: CastPose, translation: Vec2Like, options: QueryOptions): ConvexCastHit | null {
    this.contacts.flushInert();
    if (!(shape instanceof Shape)) fail('Space', 'convexCast(shape)', shape, 'must be a Shape');
    if (pose === null || typeof pose !== 'object') fail('Space', 'convexCast(pose)', pose, 'must be { position, rotation? }');
    checkOptionKeys('Space', pose, CAST_POSE_KEYS, 'convexCast(pose)');
    checkQueryOptions('convexCast', options);
    const at = checkVec2('Space', 'convexCast(pose.position)', pose.position);
    const angle = pose.rotation === undefined ? 0 : checkFinite('Space', 'convexCast(pose.rotation)', pose.rotation);
    const move = checkVec2('Space', 'convexCast(translation)', translation);
    const cast = castProxy;
    setProxyFromShape(cast, shape);
    const c = Math.cos(angle), sn = Math.sin(angle);
    const sweep = castSweep;
    sweep.localCenterX = sweep.localCenterY = 0;
    sweep.c1x = at.x;
    sweep.c1y = at.y;
    sweep.c2x = at.x + move.x;
    sweep.c2y = at.y + move.y;
    sweep.a1 = sweep.a2 = angle;
    const box = castBox;
    proxyBounds(cast, { x: at.x, y: at.y, c, s: sn }, box);
    const lo0 = box[0]!, lo1 = box[1]!, hi0 = box[2]!, hi1 = box[3]!;
    proxyBounds(cast, { x: at.x + move.x, y: at.y + move.y, c, s: sn }, box);
    const own = shape.body;
    let best: Shape | null = null;
    let bestTime = Infinity;
    this.contacts.broadphase.query(Math.min(lo0, box[0]!), Math.min(lo1, box[1]!), Math.max(hi0, box[2]!), Math.max(hi1, box[3]!), (proxy) => {
      const other = this.contacts.shapeFromProxy(proxy);
      if (!other || other === shape || (own !== null && other.body === own) || !accepts(other, options, false)) return true;
      const time = castTime(cast, sweep, other, move.x, move.y, Math.min(bestTime, 1));
      if (time < bestTime || (time === bestTime && best !== null && other.id < best.id)) {
        bestTime = time;
        best = other;
      }
      return true;
    });
    if (best === null) return null;
    const hit: Shape = best;
    // Where they meet: the distance query at that time.
    setProxyFromShape(otherProxy, hit);
    const xfCast: Transform = { x: at.x + move.x * bestTime, y: at.y + move.y * bestTime, c, s: sn };
    const body = hit.body as Body;
    shapeDistance(cast, xfCast, otherProxy, { x: body._x, y: body._y, c: body._c, s: body._s }, castDistance);
    const d = castDistance;
    return { shape: hit, body, time: bestTime, point: { x: d.pointBX, y: d.pointBY }, normal: { x: -d.normalX, y: -d.normalY } };
  }
}

const castProxy = new DistanceProxy();
const otherProxy = new DistanceProxy();
const castSweep: Sweep = { localCenterX: 0, localCenterY: 0, c1x: 0, c1y: 0, a1: 0, c2x: 0, c2y: 0, a2: 0 };
const otherSweep: Sweep = { localCenterX: 0, localCenterY: 0, c1x: 0, c1y: 0, a1: 0, c2x: 0, c2y: 0, a2: 0 };
const castBox = new Float64Array(4);
const castToi = new TimeOfImpactOutput();
const castDistance = new DistanceOutput();

/**
 * When the cast meets `other` (a fraction of the translation), or Infinity if it does not before
 * `tMax`. Already within reach at the start: 0, unless the translation leads away from it.
 */
function castTime(cast: DistanceProxy, sweep: Sweep, other: Shape, mx: number, my: number, tMax: number): number {
  setProxyFromShape(otherProxy, other);
  bodySweep(other.body as Body, otherSweep);
  timeOfImpact(cast, sweep, otherProxy, otherSweep, tMax, castToi);
  const r = castToi;
  if (r.state === 'hit' || r.state === 'failed') return r.t;
  if (r.state === 'overlapped') return r.normalX * mx + r.normalY * my > 0 || (r.normalX === 0 && r.normalY === 0) ? 0 : Infinity;
  return Infinity;
}

function accepts(s: Shape, o: QueryOptions, sensorsByDefault: boolean): boolean {
  if (s.sensor && !(o.includeSensors ?? sensorsByDefault)) return false;
  return o.filter ? o.filter(s) !== false : true;
}
