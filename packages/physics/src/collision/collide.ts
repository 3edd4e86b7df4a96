/**
 * Narrowphase: `collideShapes(a, b, m)` writes the contact manifold of any two shapes.
 * Why this shape: every non-circle shape is a rounded convex polygon (PolyShape), so there are
 * only three routines — circle/circle, rounded-polygon/circle and rounded-polygon pairs (the
 * latter after Box2D v3's b2CollidePolygons, re-derived) — plus one for two 2-vertex cores
 * (capsule/segment pairs), where SAT over face normals alone is incomplete: two collinear
 * segments are separated only along their common direction, which is no face normal.
 * Either argument order works: the normal always points from A to B, and swapping the
 * arguments negates it (the dispatch does not depend on SHAPE_KIND_INDEX order).
 *
 * Conventions (see manifold.ts): contact points are world points midway between the two
 * surfaces; separation is the signed surface distance along the normal; only points with
 * separation < SPECULATIVE_DISTANCE are reported. Feature ids (distinct within a manifold):
 * 0 for the single point of any pair with a circle; (vertexOfA << 8) | vertexOfB for polygon
 * pairs; see collideCapsules for two 2-vertex cores.
 * Reads only the world caches (updateWorld must have run); allocates nothing.
 *
 * Chain segments (shape/chain.ts) have their own routines, collideChainSegmentCircle and
 * collideChainSegmentPolygon; two chain segments never collide. A chain segment p1 → p2 is one
 * edge of a solid's boundary, the solid on its left; its face normal n1 is the right-hand
 * perpendicular, n0 and n2 are the normals of the edges before and after it (through its ghost
 * vertices: the previous and next chain points). The rule, from the chain's Gauss map (Box2D v3,
 * "ghost collisions"): a contact normal is right only if it is a normal of the boundary where the
 * contact is —
 *   on the face:             n1;
 *   at a convex vertex       (the chain turns left there: cross(n0, n1) > 0) any direction of the
 *                            vertex's normal fan, from n0 round to n1;
 *   at a straight or         none of its own: the vertex is not a corner that sticks out, the
 *   concave vertex           faces on either side are all there is.
 * A plain Segment gives a normal from its end point whatever the neighbour, which is how a box
 * catches on the vertex between two collinear segments (the box's front face, just past the vertex,
 * separates better than the floor) and a ball hops over it. So, for a chain segment:
 *   1. One-sided: no contact when the other shape's centroid (a circle's centre) is behind n1 —
 *      and behind n0 (n2) as well when p1 (p2) is a convex corner, where a shape tipping over the
 *      corner may still touch this segment (Box2D's test).
 *   2. Ownership: each vertex is shared by two segments, and each takes the half of a convex fan
 *      nearer its own face normal, split at the bisector n0 + n1: segment i owns a normal u at its
 *      p1 when cross(n0 + n1, u) ≥ 0, segment i − 1 owns it at its p2 when cross(n0 + n1, u) < 0.
 *      Both evaluate the same expression on the same bits (a ghost normal is computed exactly as
 *      the neighbour computes its own normal), so exactly one of them gives the contact.
 *   3. Smoothness: a candidate normal at a vertex is kept in this segment's half of a convex fan,
 *      dropped in the other half or beyond (the neighbour gives it), and snapped to n1 at a
 *      straight or concave vertex; a polygon's face normal may be the reference only if it lies in
 *      a convex fan (within a slack of CHAIN_FAN_SLACK); a neighbour's face normal n0 or n2 that
 *      separates better than every admissible axis means the contact is the neighbour's.
 * Hence a box sliding across collinear segments only ever gets n1 (there is no corner to catch
 * on), a ball rolling over a convex vertex gets the vertex-to-centre direction from exactly one
 * segment, and in a concave corner each segment pushes along its own face normal. Polygons treat a
 * convex turn under CHAIN_CONVEX_SINE (about 0.6°) as straight (Box2D's tolerance): their normal is
 * then snapped to the face. Circles need no tolerance: the bisector test alone, at every vertex,
 * leaves them a convex vertex's half fan, a straight vertex's rounding-thin sliver (so that no
 * centre falls between two faces' regions) and nothing at a concave vertex.
 * Feature ids are written with the chain segment as A whichever argument it is: 0 for a circle,
 * (vertexOfSegment << 8) | vertexOfOther otherwise, as for polygon pairs.
 */
import { ChainSegment } from '../shape/chain.js';
import type { Circle } from '../shape/circle.js';
import type { PolyShape } from '../shape/poly-shape.js';
import type { Shape } from '../shape/shape.js';
import { COLLIDE_KERNELS } from './collide-kernels.js';
import { closestPointOnSegment, closestPointResult, segmentDistanceOfVertices, segmentDistanceResult } from './distance.js';
import { LINEAR_SLOP, SPECULATIVE_DISTANCE, type Manifold } from './manifold.js';

/** Points of one clipped pair closer than this are merged (keeps the solver well conditioned). */
export const MERGE_DISTANCE = 0.1 * LINEAR_SLOP;
/** Core separation above which two rounded polygons are treated as disjoint. */
export const DISJOINT_TOLERANCE = 0.1 * LINEAR_SLOP;
/** Two capsules get a clipped 2-point manifold only within ~3.6° of A's perpendicular. */
const FLAT_COSINE = 0.998;
/** A chain's turn (sine) below which a polygon sees the vertex as straight (Box2D's 0.01, ~0.6°). */
const CHAIN_CONVEX_SINE = 0.01;
/** How far (sine) a polygon face normal may fall outside a convex fan and still be a candidate (Box2D's). */
const CHAIN_FAN_SLACK = 0.01;

export function collideShapes(a: Shape, b: Shape, m: Manifold): void {
  m.pointCount = 0;
  // Only a 'segment' can be a chain segment: one string compare for every other pair.
  if (a.kind === 'segment' && a instanceof ChainSegment) {
    if (b.kind === 'segment' && b instanceof ChainSegment) return; // chains never collide with chains
    if (b.kind === 'circle') collideChainSegmentCircle(a, b as Circle, m);
    else collideChainSegmentPolygon(a, b as PolyShape, m);
    return;
  }
  if (b.kind === 'segment' && b instanceof ChainSegment) {
    if (a.kind === 'circle') collideChainSegmentCircle(b, a as Circle, m);
    else collideChainSegmentPolygon(b, a as PolyShape, m);
    m.nx = -m.nx;
    m.ny = -m.ny;
    return;
  }
  if (a.kind === 'circle') {
    if (b.kind === 'circle') collideCircles(a as Circle, b as Circle, m);
    else {
      collidePolygonCircle(b as PolyShape, a as Circle, m);
      m.nx = -m.nx;
      m.ny = -m.ny;
    }
  } else if (b.kind === 'circle') {
    collidePolygonCircle(a as PolyShape, b as Circle, m);
  } else if ((a as PolyShape).count === 2 && (b as PolyShape).count === 2) {
    collideCapsules(a as PolyShape, b as PolyShape, m);
  } else {
    collidePolygons(a as PolyShape, b as PolyShape, m);
  }
}

/** Append a point if it is within the speculative distance (the kernels', so that every routine appends alike). */
const addPoint = COLLIDE_KERNELS.addPoint;

/** Two circles: collide-kernels.ts's `circles`, over the shapes' geometry blocks. */
export function collideCircles(a: Circle, b: Circle, m: Manifold): void {
  COLLIDE_KERNELS.circles(a._geo, a._geoAt, b._geo, b._geoAt, m);
}

/** Rounded polygon A vs circle B: collide-kernels.ts's `polygonCircle` (it has the method), over the shapes' geometry blocks. */
export function collidePolygonCircle(p: PolyShape, c: Circle, m: Manifold): void {
  COLLIDE_KERNELS.polygonCircle(p._geo, p._geoAt, c._geo, c._geoAt, m);
}

/**
 * Two rounded convex polygons (Polygon, Capsule, Segment in any combination, but not two 2-vertex
 * cores): collide-kernels.ts's `polygons`, the routine every thread of a parallel narrowphase
 * runs, over the shapes' geometry blocks (it has the method).
 */
export function collidePolygons(a: PolyShape, b: PolyShape, m: Manifold): void {
  COLLIDE_KERNELS.polygons(a._geo, a._geoAt, b._geo, b._geoAt, m);
}

/**
 * Two 2-vertex cores (Capsule/Segment pairs). Closest points of the two core segments first;
 * cores that touch or cross go to the polygon routine. If each core's projection overlaps the
 * other's extent and the cores are near parallel, B's core is clipped to A's extent for up to
 * 2 points along A's perpendicular (capsules resting on each other). Otherwise one point along
 * the closest-point direction (ends, steep or collinear contacts).
 * Ids: 0/1 for a point coming from B's end 0/1; (endOfA << 8) | 2 for A's end against B's side.
 */
export function collideCapsules(a: PolyShape, b: PolyShape, m: Manifold): void {
  m.pointCount = 0;
  const va = a.worldVerts;
  const vb = b.worldVerts;
  const p1x = va[0]!;
  const p1y = va[1]!;
  const q1x = va[2]!;
  const q1y = va[3]!;
  const p2x = vb[0]!;
  const p2y = vb[1]!;
  const q2x = vb[2]!;
  const q2y = vb[3]!;
  const ra = a.radius;
  const rb = b.radius;
  const radius = ra + rb;

  segmentDistanceOfVertices(va, 0, 0, 1, vb, 0, 0, 1, segmentDistanceResult);
  const sd = segmentDistanceResult;
  const dist2 = sd.distanceSquared;
  const maxDist = radius + SPECULATIVE_DISTANCE;
  if (!(dist2 < maxDist * maxDist)) return;
  const dist = Math.sqrt(dist2);
  const c1x = sd.x1;
  const c1y = sd.y1;
  const c2x = sd.x2;
  const c2y = sd.y2;
  const f1 = sd.fraction1;
  const f2 = sd.fraction2;
  if (dist <= DISJOINT_TOLERANCE) {
    // Cores touch or cross: the cores' face normals now give a complete SAT (crossing cores
    // are not parallel, and parallel touching cores are equally well served by either face).
    collidePolygons(a, b, m);
    return;
  }

  const d1x = q1x - p1x;
  const d1y = q1y - p1y;
  const len1 = Math.sqrt(d1x * d1x + d1y * d1y);
  const ux = d1x / len1;
  const uy = d1y / len1;
  const d2x = q2x - p2x;
  const d2y = q2y - p2y;
  const len2 = Math.sqrt(d2x * d2x + d2y * d2y);
  // B's end points along A, and A's end points along B.
  const fp2 = (p2x - p1x) * ux + (p2y - p1y) * uy;
  const fq2 = (q2x - p1x) * ux + (q2y - p1y) * uy;
  const fp1 = ((p1x - p2x) * d2x + (p1y - p2y) * d2y) / len2;
  const fq1 = ((q1x - p2x) * d2x + (q1y - p2y) * d2y) / len2;
  const outsideA = (fp2 <= 0 && fq2 <= 0) || (fp2 >= len1 && fq2 >= len1);
  const outsideB = (fp1 <= 0 && fq1 <= 0) || (fp1 >= len2 && fq1 >= len2);

  if (!outsideA && !outsideB) {
    // Clip B to A's extent [0, len1] along u. "lo" is B's end with the smaller projection.
    const loIsP = fp2 <= fq2;
    const sLo = loIsP ? fp2 : fq2;
    const sHi = loIsP ? fq2 : fp2;
    const jLo = loIsP ? 0 : 1;
    const loX0 = loIsP ? p2x : q2x;
    const loY0 = loIsP ? p2y : q2y;
    const hiX0 = loIsP ? q2x : p2x;
    const hiY0 = loIsP ? q2y : p2y;
    let loX = loX0;
    let loY = loY0;
    let hiX = hiX0;
    let hiY = hiY0;
    const span = sHi - sLo;
    if (span > 1e-12) {
      if (sLo < 0) {
        const t = -sLo / span;
        loX = loX0 + t * (hiX0 - loX0);
        loY = loY0 + t * (hiY0 - loY0);
      }
      if (sHi > len1) {
        const t = (len1 - sLo) / span;
        hiX = loX0 + t * (hiX0 - loX0);
        hiY = loY0 + t * (hiY0 - loY0);
      }
    }
    let nx = -uy; // A's perpendicular, oriented towards B
    let ny = ux;
    let along = (c2x - c1x) * nx + (c2y - c1y) * ny;
    if (along < 0) {
      nx = -nx;
      ny = -ny;
      along = -along;
    }
    const sepLo = (loX - p1x) * nx + (loY - p1y) * ny;
    const sepHi = (hiX - p1x) * nx + (hiY - p1y) * ny;
    // Clipping along A's perpendicular is right when the closest-point direction is (nearly)
    // that perpendicular, and when the nearer clipped point is (almost) the closest point:
    // each lies within A's extent, so it is at least `dist` from A's core, and the gap is then
    // overstated by at most DISJOINT_TOLERANCE.
    if (along >= FLAT_COSINE * dist && (sepLo < sepHi ? sepLo : sepHi) <= dist + DISJOINT_TOLERANCE) {
      m.nx = nx;
      m.ny = ny;
      const kLo = 0.5 * (ra - rb - sepLo);
      const kHi = 0.5 * (ra - rb - sepHi);
      const idLo = jLo; // the B end each point comes from
      const idHi = 1 - jLo;
      const dx = hiX - loX;
      const dy = hiY - loY;
      if (dx * dx + dy * dy < MERGE_DISTANCE * MERGE_DISTANCE) {
        if (sepHi < sepLo) addPoint(m, hiX + kHi * nx, hiY + kHi * ny, sepHi - radius, idHi);
        else addPoint(m, loX + kLo * nx, loY + kLo * ny, sepLo - radius, idLo);
        return;
      }
      addPoint(m, loX + kLo * nx, loY + kLo * ny, sepLo - radius, idLo);
      addPoint(m, hiX + kHi * nx, hiY + kHi * ny, sepHi - radius, idHi);
      return;
    }
  }

  // Single point along the closest-point direction (dist > DISJOINT_TOLERANCE here).
  const nx = (c2x - c1x) / dist;
  const ny = (c2y - c1y) / dist;
  m.nx = nx;
  m.ny = ny;
  // Same id as the clipped point of that B end, so a 2 → 1 point change keeps warm starting.
  const fa = f1 === 0 ? 0 : f1 === 1 ? 1 : 2;
  const id = f2 === 0 ? 0 : f2 === 1 ? 1 : (fa << 8) | 2;
  addPoint(m, 0.5 * (c1x + ra * nx + c2x - rb * nx), 0.5 * (c1y + ra * ny + c2y - rb * ny), dist - radius, id);
}

/**
 * Chain segment A vs circle B (see the opening comment for the rule). The centre's projection on
 * p1 → p2 picks the region: inside it, the face (one-sided: nothing once the centre is behind);
 * before p1 or after p2, the vertex, if the direction to the centre is in this segment's half of
 * the vertex (the bisector test) and in front of the face. At a convex vertex that is its half of
 * the fan; at a straight vertex only the rounding-thin sliver between the two faces' regions (so
 * that no centre falls between them); at a concave one nothing (that region is behind the faces).
 * Id 0.
 */
export function collideChainSegmentCircle(a: ChainSegment, c: Circle, m: Manifold): void {
  m.pointCount = 0;
  const v = a.worldVerts;
  const p1x = v[0]!;
  const p1y = v[1]!;
  const p2x = v[2]!;
  const p2y = v[3]!;
  const nx = a.worldNormals[0]!;
  const ny = a.worldNormals[1]!;
  const cx = c.wx;
  const cy = c.wy;
  const ex = p2x - p1x;
  const ey = p2y - p1y;
  const t = ex * (cx - p1x) + ey * (cy - p1y); // along the segment, times its length squared
  let qx: number; // closest point of the segment
  let qy: number;
  let ux = nx; // normal, A → B
  let uy = ny;
  let dist: number;
  if (t <= 0 || t >= ex * ex + ey * ey) {
    const atP1 = t <= 0;
    qx = atP1 ? p1x : p2x;
    qy = atP1 ? p1y : p2y;
    const dx = cx - qx;
    const dy = cy - qy;
    if (atP1) {
      if ((a._n0x + nx) * dy - (a._n0y + ny) * dx < 0) return; // the previous segment's half
    } else if (!((nx + a._n2x) * dy - (ny + a._n2y) * dx < 0)) return; // the next segment's half
    if (nx * dx + ny * dy < 0) return; // behind: one-sided
    dist = Math.sqrt(dx * dx + dy * dy);
    if (dist > 1e-12) {
      ux = dx / dist;
      uy = dy / dist;
    }
  } else {
    dist = nx * (cx - p1x) + ny * (cy - p1y);
    if (dist < 0) return; // behind: one-sided
    qx = cx - dist * nx;
    qy = cy - dist * ny;
  }
  const rc = c.radius;
  const separation = dist - rc;
  if (!(separation < SPECULATIVE_DISTANCE)) return;
  m.nx = ux;
  m.ny = uy;
  // Midway between the segment point q and the circle's surface, centre − rc·u.
  m.px[0] = 0.5 * (qx + cx - rc * ux);
  m.py[0] = 0.5 * (qy + cy - rc * uy);
  m.separation[0] = separation;
  m.id[0] = 0;
  m.pointCount = 1;
}

/**
 * Chain segment A vs a rounded convex polygon B (Polygon, Capsule, or a plain Segment).
 *
 * 1. One-sided test on B's centroid; the deepest vertex of B along n1 (which also culls).
 * 2. Closest points of the segment and B's core (over B's edges).
 * 3. Cores apart (and the centroid in front): the closest points decide. The inside of the
 *    segment: the face. One of its ends: at a straight or concave vertex the face (snapped); at a
 *    convex one, nothing unless the direction is in this segment's half of the fan; then against
 *    the inside of B's edge, B's face if it separates clearly better than the segment's (else the
 *    segment's: hysteresis as in collidePolygons), against a vertex of B one point along the
 *    vertex-to-vertex direction (unless it is squarely the face normal).
 * 4. Cores overlap (or the centroid is behind n1 but not behind a convex neighbour): SAT over n1,
 *    the convex neighbours' n0 and n2 (if one separates best, the contact is the neighbour's) and
 *    those of B's face normals that lie in a convex fan; B's face is the reference only if it is
 *    clearly best and in this segment's half of its fan.
 * The manifolds: chainFaceManifold (reference n1, B's incident edge clipped to p1..p2) and
 * polygonFaceManifold (reference B's face, the segment clipped to it).
 */
export function collideChainSegmentPolygon(a: ChainSegment, b: PolyShape, m: Manifold): void {
  m.pointCount = 0;
  const av = a.worldVerts;
  const p1x = av[0]!;
  const p1y = av[1]!;
  const p2x = av[2]!;
  const p2y = av[3]!;
  const nx = a.worldNormals[0]!;
  const ny = a.worldNormals[1]!;
  const n0x = a._n0x;
  const n0y = a._n0y;
  const n2x = a._n2x;
  const n2y = a._n2y;
  const corner1 = a._turn1 >= CHAIN_CONVEX_SINE;
  const corner2 = a._turn2 >= CHAIN_CONVEX_SINE;
  const k = b.count;
  const bv = b.worldVerts;
  const bn = b.worldNormals;
  const rB = b.radius;

  // 1. One-sided: skip B if its centroid is behind the face and behind any convex neighbour.
  const behind1 = nx * (b.wcx - p1x) + ny * (b.wcy - p1y) < 0;
  if (behind1 && (!corner1 || n0x * (b.wcx - p1x) + n0y * (b.wcy - p1y) < 0) && (!corner2 || n2x * (b.wcx - p2x) + n2y * (b.wcy - p2y) < 0)) {
    return;
  }
  let sA = Infinity;
  let jA = 0;
  for (let j = 0; j < k; j++) {
    const s = nx * (bv[2 * j]! - p1x) + ny * (bv[2 * j + 1]! - p1y);
    if (s < sA) {
      sA = s;
      jA = j;
    }
  }
  if (!(sA - rB < SPECULATIVE_DISTANCE)) return;

  // 2. Closest points of the segment and B's core.
  let best = Infinity;
  let edge = 0;
  let fA = 0;
  let fB = 0;
  let c1x = 0;
  let c1y = 0;
  let c2x = 0;
  let c2y = 0;
  const edges = k === 2 ? 1 : k;
  for (let i = 0; i < edges; i++) {
    segmentDistanceOfVertices(av, 0, 0, 1, bv, 0, i, i + 1 < k ? i + 1 : 0, segmentDistanceResult);
    const r = segmentDistanceResult;
    if (r.distanceSquared < best) {
      best = r.distanceSquared;
      edge = i;
      fA = r.fraction1;
      fB = r.fraction2;
      c1x = r.x1;
      c1y = r.y1;
      c2x = r.x2;
      c2y = r.y2;
    }
  }
  // A segment apart from B's boundary may still lie wholly inside B's core.
  let inside = false;
  if (k >= 3 && best > 0) {
    inside = true;
    for (let i = 0; i < k; i++) {
      if (bn[2 * i]! * (p1x - bv[2 * i]!) + bn[2 * i + 1]! * (p1y - bv[2 * i + 1]!) > 0) {
        inside = false;
        break;
      }
    }
  }
  const dist = Math.sqrt(best);
  if (!inside && !(dist - rB < SPECULATIVE_DISTANCE)) return;

  if (!behind1 && !inside && dist > DISJOINT_TOLERANCE) {
    // 3. Cores apart: the closest points decide.
    if (fA > 0 && fA < 1) {
      chainFaceManifold(a, b, jA, m); // B lies wholly in front of the face
      return;
    }
    const atP1 = fA === 0;
    if (!(atP1 ? corner1 : corner2)) {
      chainFaceManifold(a, b, jA, m); // straight or concave vertex: snapped to the face
      return;
    }
    const ux = (c2x - c1x) / dist;
    const uy = (c2y - c1y) / dist;
    if (atP1) {
      if ((n0x + nx) * uy - (n0y + ny) * ux < 0) return; // the previous segment's half of the fan (or its face)
    } else if (!((nx + n2x) * uy - (ny + n2y) * ux < 0)) return; // the next segment's
    if (fB > 0 && fB < 1) {
      // The vertex against the inside of B's edge (the one facing the segment, for a 2-vertex core).
      const jB = k === 2 && bn[0]! * ux + bn[1]! * uy > 0 ? 1 : edge;
      const bx = bn[2 * jB]!;
      const by = bn[2 * jB + 1]!;
      const rx = bv[2 * jB]!;
      const ry = bv[2 * jB + 1]!;
      const s1 = bx * (p1x - rx) + by * (p1y - ry);
      const s2 = bx * (p2x - rx) + by * (p2y - ry);
      if ((s1 < s2 ? s1 : s2) > sA + 0.1 * LINEAR_SLOP) polygonFaceManifold(a, b, jB, m);
      else chainFaceManifold(a, b, jA, m);
      return;
    }
    // Vertex against vertex, unless they face each other squarely across the segment's face.
    if (Math.abs(nx * (c2y - c1y) - ny * (c2x - c1x)) <= 1e-6 * dist) {
      chainFaceManifold(a, b, jA, m);
      return;
    }
    const jV = fB === 0 ? edge : edge + 1 < k ? edge + 1 : 0;
    m.nx = ux;
    m.ny = uy;
    m.px[0] = 0.5 * (c1x + c2x - rB * ux);
    m.py[0] = 0.5 * (c1y + c2y - rB * uy);
    m.separation[0] = dist - rB;
    m.id[0] = ((atP1 ? 0 : 1) << 8) | jV;
    m.pointCount = 1;
    return;
  }

  // 4. Cores overlap: SAT over the admissible axes.
  let edgeSep = sA;
  let neighbour = false;
  if (corner1) {
    let s0 = Infinity;
    for (let j = 0; j < k; j++) {
      const s = n0x * (bv[2 * j]! - p1x) + n0y * (bv[2 * j + 1]! - p1y);
      if (s < s0) s0 = s;
    }
    if (s0 > edgeSep) {
      edgeSep = s0;
      neighbour = true;
    }
  }
  if (corner2) {
    let s2 = Infinity;
    for (let j = 0; j < k; j++) {
      const s = n2x * (bv[2 * j]! - p2x) + n2y * (bv[2 * j + 1]! - p2y);
      if (s < s2) s2 = s;
    }
    if (s2 > edgeSep) {
      edgeSep = s2;
      neighbour = true;
    }
  }
  const ex = -ny; // unit tangent p1 → p2
  const ey = nx;
  let sB = -Infinity;
  let jB = -1;
  for (let j = 0; j < k; j++) {
    const bx = bn[2 * j]!;
    const by = bn[2 * j + 1]!;
    // u = −(B's normal) must lie in the fan of a convex corner, on the side it leans to.
    if (-bx * ex - by * ey <= 0) {
      if (!corner1 || -bx * n0y + by * n0x > CHAIN_FAN_SLACK) continue;
    } else if (!corner2 || -n2x * by + n2y * bx > CHAIN_FAN_SLACK) continue;
    const rx = bv[2 * j]!;
    const ry = bv[2 * j + 1]!;
    const s1 = bx * (p1x - rx) + by * (p1y - ry);
    const s2 = bx * (p2x - rx) + by * (p2y - ry);
    const s = s1 < s2 ? s1 : s2;
    if (s > sB) {
      sB = s;
      jB = j;
    }
  }
  if (jB >= 0 && sB > edgeSep + 0.1 * LINEAR_SLOP) {
    const ux = -bn[2 * jB]!;
    const uy = -bn[2 * jB + 1]!;
    const owned = ux * ex + uy * ey <= 0 ? (n0x + nx) * uy - (n0y + ny) * ux >= 0 : (nx + n2x) * uy - (ny + n2y) * ux < 0;
    if (owned) polygonFaceManifold(a, b, jB, m);
    return;
  }
  if (neighbour) return; // a neighbour's face separates best: its contact
  chainFaceManifold(a, b, jA, m);
}

/**
 * Reference: the chain segment's face (normal n1). Incident: of B's two edges at its deepest
 * vertex jA, the one most anti-parallel to n1, clipped to the segment's extent; nothing if it lies
 * wholly beside the segment. Ids: (0 << 8) | B vertex for the point at p1's end of the clip,
 * (1 << 8) | B vertex for the one at p2's end.
 */
function chainFaceManifold(a: ChainSegment, b: PolyShape, jA: number, m: Manifold): void {
  const av = a.worldVerts;
  const p1x = av[0]!;
  const p1y = av[1]!;
  const nx = a.worldNormals[0]!;
  const ny = a.worldNormals[1]!;
  const ex = -ny;
  const ey = nx;
  const len = (av[2]! - p1x) * ex + (av[3]! - p1y) * ey;
  const k = b.count;
  const bv = b.worldVerts;
  const bn = b.worldNormals;
  const prev = jA > 0 ? jA - 1 : k - 1;
  const i1 = nx * bn[2 * prev]! + ny * bn[2 * prev + 1]! < nx * bn[2 * jA]! + ny * bn[2 * jA + 1]! ? prev : jA;
  const i2 = i1 + 1 < k ? i1 + 1 : 0;
  const t1 = (bv[2 * i1]! - p1x) * ex + (bv[2 * i1 + 1]! - p1y) * ey;
  const t2 = (bv[2 * i2]! - p1x) * ex + (bv[2 * i2 + 1]! - p1y) * ey;
  const loIs1 = t1 <= t2;
  const jLo = loIs1 ? i1 : i2;
  const jHi = loIs1 ? i2 : i1;
  const tLo = loIs1 ? t1 : t2;
  const tHi = loIs1 ? t2 : t1;
  if (tHi < 0 || tLo > len) return;
  const loX0 = bv[2 * jLo]!;
  const loY0 = bv[2 * jLo + 1]!;
  const hiX0 = bv[2 * jHi]!;
  const hiY0 = bv[2 * jHi + 1]!;
  clipEdge(loX0, loY0, hiX0, hiY0, tLo, tHi, len);
  const loX = edge[0]!;
  const loY = edge[1]!;
  const hiX = edge[2]!;
  const hiY = edge[3]!;
  const sepLo = nx * (loX - p1x) + ny * (loY - p1y);
  const sepHi = nx * (hiX - p1x) + ny * (hiY - p1y);
  // Midway between the segment (on its line) and B's surface (rB below its core point).
  const rB = b.radius;
  const kLo = -0.5 * (rB + sepLo);
  const kHi = -0.5 * (rB + sepHi);
  m.nx = nx;
  m.ny = ny;
  const c = clipped;
  c[0] = loX + kLo * nx;
  c[1] = loY + kLo * ny;
  c[2] = sepLo - rB;
  c[3] = hiX + kHi * nx;
  c[4] = hiY + kHi * ny;
  c[5] = sepHi - rB;
  c[6] = hiX - loX;
  c[7] = hiY - loY;
  writeClipped(m, jLo, (1 << 8) | jHi);
}

/** clipEdge's result: the clipped edge's ends, lo then hi (x, y). */
const edge = new Float64Array(4);

/**
 * The edge lo → hi, whose ends project to tLo ≤ tHi along a reference face running from 0 to
 * `upper`, clipped to that extent, into `edge` (an edge shorter than 1e-12 along the face is kept whole).
 */
function clipEdge(loX0: number, loY0: number, hiX0: number, hiY0: number, tLo: number, tHi: number, upper: number): void {
  let loX = loX0;
  let loY = loY0;
  let hiX = hiX0;
  let hiY = hiY0;
  const span = tHi - tLo;
  if (span > 1e-12) {
    if (tLo < 0) {
      const t = -tLo / span;
      loX = loX0 + t * (hiX0 - loX0);
      loY = loY0 + t * (hiY0 - loY0);
    }
    if (tHi > upper) {
      const t = (upper - tLo) / span;
      hiX = loX0 + t * (hiX0 - loX0);
      hiY = loY0 + t * (hiY0 - loY0);
    }
  }
  edge[0] = loX;
  edge[1] = loY;
  edge[2] = hiX;
  edge[3] = hiY;
}

/**
 * Reference: B's face jB (its outward normal points at the segment). Incident: the segment,
 * clipped to the face's extent; nothing if it lies wholly beside it. The normal is −(B's normal).
 * Ids: (segment end << 8) | the face's vertex at that end of the clip.
 */
function polygonFaceManifold(a: ChainSegment, b: PolyShape, jB: number, m: Manifold): void {
  const k = b.count;
  const bv = b.worldVerts;
  const j2 = jB + 1 < k ? jB + 1 : 0;
  const r1x = bv[2 * jB]!;
  const r1y = bv[2 * jB + 1]!;
  const nx = b.worldNormals[2 * jB]!;
  const ny = b.worldNormals[2 * jB + 1]!;
  const tx = -ny; // r1 → r2
  const ty = nx;
  const upper = (bv[2 * j2]! - r1x) * tx + (bv[2 * j2 + 1]! - r1y) * ty;
  const av = a.worldVerts;
  const t1 = (av[0]! - r1x) * tx + (av[1]! - r1y) * ty;
  const t2 = (av[2]! - r1x) * tx + (av[3]! - r1y) * ty;
  const kLoEnd = t1 <= t2 ? 0 : 1; // the segment end with the smaller projection
  const tLo = kLoEnd === 0 ? t1 : t2;
  const tHi = kLoEnd === 0 ? t2 : t1;
  if (tHi < 0 || tLo > upper) return;
  const loX0 = av[2 * kLoEnd]!;
  const loY0 = av[2 * kLoEnd + 1]!;
  const hiX0 = av[2 - 2 * kLoEnd]!;
  const hiY0 = av[3 - 2 * kLoEnd]!;
  clipEdge(loX0, loY0, hiX0, hiY0, tLo, tHi, upper);
  const loX = edge[0]!;
  const loY = edge[1]!;
  const hiX = edge[2]!;
  const hiY = edge[3]!;
  const sepLo = nx * (loX - r1x) + ny * (loY - r1y);
  const sepHi = nx * (hiX - r1x) + ny * (hiY - r1y);
  // Midway between B's surface (rB out from its face) and the segment point.
  const rB = b.radius;
  const kLo = 0.5 * (rB - sepLo);
  const kHi = 0.5 * (rB - sepHi);
  m.nx = -nx;
  m.ny = -ny;
  const c = clipped;
  c[0] = loX + kLo * nx;
  c[1] = loY + kLo * ny;
  c[2] = sepLo - rB;
  c[3] = hiX + kHi * nx;
  c[4] = hiY + kHi * ny;
  c[5] = sepHi - rB;
  c[6] = hiX - loX;
  c[7] = hiY - loY;
  writeClipped(m, (kLoEnd << 8) | jB, ((1 - kLoEnd) << 8) | j2);
}

/** The two clipped points of a chain manifold (x, y, separation each) and the offset between them. */
const clipped = new Float64Array(8);

/**
 * Write `clipped`'s points, each if within the speculative distance; only the deeper one if they
 * are closer than MERGE_DISTANCE. (A scratch array, not arguments: a call that V8 does not
 * inline boxes its doubles.)
 */
function writeClipped(m: Manifold, id1: number, id2: number): void {
  const c = clipped;
  const s1 = c[2]!;
  const s2 = c[5]!;
  const merge = c[6]! * c[6]! + c[7]! * c[7]! < MERGE_DISTANCE * MERGE_DISTANCE;
  let count = 0;
  if (s1 < SPECULATIVE_DISTANCE && !(merge && s2 < s1)) {
    m.px[0] = c[0]!;
    m.py[0] = c[1]!;
    m.separation[0] = s1;
    m.id[0] = id1;
    count = 1;
  }
  if (s2 < SPECULATIVE_DISTANCE && !(merge && count === 1)) {
    m.px[count] = c[3]!;
    m.py[count] = c[4]!;
    m.separation[count] = s2;
    m.id[count] = id2;
    count++;
  }
  m.pointCount = count;
}
