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
 */
import type { Circle } from '../shape/circle.js';
import type { PolyShape } from '../shape/poly-shape.js';
import type { Shape } from '../shape/shape.js';
import { closestPointOnSegment, closestPointResult, segmentDistanceOfVertices, segmentDistanceResult } from './distance.js';
import { LINEAR_SLOP, SPECULATIVE_DISTANCE, type Manifold } from './manifold.js';

/** Points of one clipped pair closer than this are merged (keeps the solver well conditioned). */
const MERGE_DISTANCE = 0.1 * LINEAR_SLOP;
/** Core separation above which two rounded polygons are treated as disjoint. */
const DISJOINT_TOLERANCE = 0.1 * LINEAR_SLOP;
/** Two capsules get a clipped 2-point manifold only within ~3.6° of A's perpendicular. */
const FLAT_COSINE = 0.998;

export function collideShapes(a: Shape, b: Shape, m: Manifold): void {
  m.pointCount = 0;
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

/** Append a point if it is within the speculative distance. */
function addPoint(m: Manifold, x: number, y: number, separation: number, id: number): void {
  if (!(separation < SPECULATIVE_DISTANCE)) return;
  const i = m.pointCount;
  m.px[i] = x;
  m.py[i] = y;
  m.separation[i] = separation;
  m.id[i] = id;
  m.pointCount = i + 1;
}

export function collideCircles(a: Circle, b: Circle, m: Manifold): void {
  m.pointCount = 0;
  const ra = a.radius;
  const rb = b.radius;
  const dx = b.wx - a.wx;
  const dy = b.wy - a.wy;
  const dist = Math.sqrt(dx * dx + dy * dy);
  const separation = dist - ra - rb;
  if (!(separation < SPECULATIVE_DISTANCE)) return;
  let nx = 0;
  let ny = 1; // concentric: any direction is as good; pick +y
  if (dist > 1e-12) {
    nx = dx / dist;
    ny = dy / dist;
  }
  m.nx = nx;
  m.ny = ny;
  // Midway between the surface points a + ra·n and b − rb·n.
  addPoint(m, 0.5 * (a.wx + ra * nx + b.wx - rb * nx), 0.5 * (a.wy + ra * ny + b.wy - rb * ny), separation, 0);
}

/**
 * Rounded polygon A vs circle B. Centre outside the core: the exact closest point on the core
 * boundary gives the normal (the edge normal when it is inside an edge, the vertex-to-centre
 * direction at a vertex). Centre inside a ≥3-vertex core: the face of maximum separation.
 */
export function collidePolygonCircle(p: PolyShape, c: Circle, m: Manifold): void {
  m.pointCount = 0;
  const n = p.count;
  const v = p.worldVerts;
  const nn = p.worldNormals;
  const rp = p.radius;
  const rc = c.radius;
  const cx = c.wx;
  const cy = c.wy;

  let maxSep = -Infinity;
  let face = 0;
  for (let i = 0; i < n; i++) {
    const s = nn[2 * i]! * (cx - v[2 * i]!) + nn[2 * i + 1]! * (cy - v[2 * i + 1]!);
    if (s > maxSep) {
      maxSep = s;
      face = i;
    }
  }
  // maxSep is a lower bound on the distance from the centre to the core.
  if (!(maxSep - rp - rc < SPECULATIVE_DISTANCE)) return;

  let nx: number;
  let ny: number;
  let qx: number; // closest core point
  let qy: number;
  let dist: number; // signed distance centre → core along n
  if (n >= 3 && maxSep <= 0) {
    nx = nn[2 * face]!;
    ny = nn[2 * face + 1]!;
    dist = maxSep;
    qx = cx - dist * nx;
    qy = cy - dist * ny;
  } else {
    // A 2-vertex core has one geometric edge (edges 0 and 1 coincide).
    const edges = n === 2 ? 1 : n;
    let best = Infinity;
    let bestEdge = 0;
    let bestT = 0;
    qx = 0;
    qy = 0;
    for (let i = 0; i < edges; i++) {
      const j = i + 1 < n ? i + 1 : 0;
      closestPointOnSegment(cx, cy, v[2 * i]!, v[2 * i + 1]!, v[2 * j]!, v[2 * j + 1]!);
      if (closestPointResult.distanceSquared < best) {
        best = closestPointResult.distanceSquared;
        bestEdge = i;
        bestT = closestPointResult.fraction;
        qx = closestPointResult.x;
        qy = closestPointResult.y;
      }
    }
    dist = Math.sqrt(best);
    if (bestT > 0 && bestT < 1) {
      // Inside an edge: use its exact normal (on the centre's side for a 2-vertex core).
      nx = nn[2 * bestEdge]!;
      ny = nn[2 * bestEdge + 1]!;
      if (n === 2 && nx * (cx - qx) + ny * (cy - qy) < 0) {
        nx = -nx;
        ny = -ny;
      }
    } else if (dist > 1e-12) {
      nx = (cx - qx) / dist;
      ny = (cy - qy) / dist;
    } else {
      nx = nn[2 * face]!;
      ny = nn[2 * face + 1]!;
    }
  }
  const separation = dist - rp - rc;
  if (!(separation < SPECULATIVE_DISTANCE)) return;
  m.nx = nx;
  m.ny = ny;
  // Surface points: q + rp·n on the polygon, centre − rc·n on the circle.
  addPoint(m, 0.5 * (qx + rp * nx + cx - rc * nx), 0.5 * (qy + rp * ny + cy - rc * ny), separation, 0);
}

// Output of findMaxSeparation (module scratch, no allocation).
let maxSeparationEdge = 0;

/**
 * SAT over the faces of p1: for each face, the deepest vertex of p2 below its plane.
 * Returns the largest such separation (core to core); the face is in maxSeparationEdge.
 */
function findMaxSeparation(p1: PolyShape, p2: PolyShape): number {
  const n1 = p1.count;
  const n2 = p2.count;
  const v1 = p1.worldVerts;
  const nn1 = p1.worldNormals;
  const v2 = p2.worldVerts;
  let best = -Infinity;
  let bestEdge = 0;
  for (let i = 0; i < n1; i++) {
    const nx = nn1[2 * i]!;
    const ny = nn1[2 * i + 1]!;
    const ox = v1[2 * i]!;
    const oy = v1[2 * i + 1]!;
    let si = Infinity;
    if (n2 === 4) {
      // Boxes and quads, written out: the same operations in the same order, and about 15%
      // faster per box pair than the loop (V8 does not unroll it).
      const s0 = nx * (v2[0]! - ox) + ny * (v2[1]! - oy);
      const s1 = nx * (v2[2]! - ox) + ny * (v2[3]! - oy);
      const s2 = nx * (v2[4]! - ox) + ny * (v2[5]! - oy);
      const s3 = nx * (v2[6]! - ox) + ny * (v2[7]! - oy);
      if (s0 < si) si = s0;
      if (s1 < si) si = s1;
      if (s2 < si) si = s2;
      if (s3 < si) si = s3;
    } else {
      for (let j = 0; j < n2; j++) {
        const s = nx * (v2[2 * j]! - ox) + ny * (v2[2 * j + 1]! - oy);
        if (s < si) si = s;
      }
    }
    if (si > best) {
      best = si;
      bestEdge = i;
    }
  }
  maxSeparationEdge = bestEdge;
  return best;
}

/**
 * Two rounded convex polygons (Polygon, Capsule, Segment in any combination).
 *
 * 1. SAT on both cores picks the reference face (A's unless B's is clearly better: hysteresis
 *    of 0.1·LINEAR_SLOP keeps the choice, and so the feature ids, stable).
 * 2. The incident edge is the other core's edge most anti-parallel to the reference normal.
 * 3. Cores disjoint: closest points of the reference and incident edges. If both are vertices
 *    and not squarely facing each other, the contact is vertex–vertex: one point along the
 *    vertex-to-vertex direction (e.g. a capsule end over a box corner).
 * 4. Otherwise clip the incident edge to the reference edge's side planes: up to 2 points.
 */
export function collidePolygons(a: PolyShape, b: PolyShape, m: Manifold): void {
  m.pointCount = 0;
  const radius = a.radius + b.radius;
  const sepA = findMaxSeparation(a, b);
  const edgeA = maxSeparationEdge;
  if (!(sepA - radius < SPECULATIVE_DISTANCE)) return;
  const sepB = findMaxSeparation(b, a);
  const edgeB = maxSeparationEdge;
  if (!(sepB - radius < SPECULATIVE_DISTANCE)) return;

  const flip = sepB > sepA + 0.1 * LINEAR_SLOP;
  const ref = flip ? b : a;
  const inc = flip ? a : b;
  const i11 = flip ? edgeB : edgeA;
  const nRef = ref.count;
  const nInc = inc.count;
  const i12 = i11 + 1 < nRef ? i11 + 1 : 0;
  const rv = ref.worldVerts;
  const rn = ref.worldNormals;
  const iv = inc.worldVerts;
  const inn = inc.worldNormals;
  const nx = rn[2 * i11]!;
  const ny = rn[2 * i11 + 1]!;

  // Incident edge: most anti-parallel normal.
  let i21 = 0;
  let minDot = Infinity;
  for (let j = 0; j < nInc; j++) {
    const d = nx * inn[2 * j]! + ny * inn[2 * j + 1]!;
    if (d < minDot) {
      minDot = d;
      i21 = j;
    }
  }
  const i22 = i21 + 1 < nInc ? i21 + 1 : 0;

  const v11x = rv[2 * i11]!;
  const v11y = rv[2 * i11 + 1]!;
  const v12x = rv[2 * i12]!;
  const v12y = rv[2 * i12 + 1]!;
  const v21x = iv[2 * i21]!;
  const v21y = iv[2 * i21 + 1]!;
  const v22x = iv[2 * i22]!;
  const v22y = iv[2 * i22 + 1]!;
  const rRef = ref.radius;
  const rInc = inc.radius;

  const separation = sepA > sepB ? sepA : sepB;
  if (separation > DISJOINT_TOLERANCE) {
    segmentDistanceOfVertices(rv, i11, i12, iv, i21, i22);
    const r = segmentDistanceResult;
    const f1 = r.fraction1;
    const f2 = r.fraction2;
    if ((f1 === 0 || f1 === 1) && (f2 === 0 || f2 === 1)) {
      const distance = Math.sqrt(r.distanceSquared);
      // Offset of the incident vertex along the reference face. When it is (numerically) zero
      // the vertices face each other squarely, as with equal boxes stacked exactly: the face
      // normal is then exact and clipping keeps both points.
      const along = (r.x2 - r.x1) * -ny + (r.y2 - r.y1) * nx;
      if (Math.abs(along) > 1e-6 * distance) {
        // Vertex–vertex. distance ≥ separation > 0 here, so the direction is well defined.
        if (!(distance - radius < SPECULATIVE_DISTANCE)) return;
        let ux = (r.x2 - r.x1) / distance; // reference → incident
        let uy = (r.y2 - r.y1) / distance;
        const px = 0.5 * (r.x1 + rRef * ux + r.x2 - rInc * ux);
        const py = 0.5 * (r.y1 + rRef * uy + r.y2 - rInc * uy);
        const vRef = f1 === 0 ? i11 : i12;
        const vInc = f2 === 0 ? i21 : i22;
        if (flip) {
          ux = -ux;
          uy = -uy;
        }
        m.nx = ux;
        m.ny = uy;
        addPoint(m, px, py, distance - radius, flip ? (vInc << 8) | vRef : (vRef << 8) | vInc);
        return;
      }
    }
  }

  // Clip the incident edge against the reference edge's side planes. The tangent runs along
  // the reference edge (v11 → v12); the incident edge runs the opposite way (v21 → v22).
  const tx = -ny;
  const ty = nx;
  const upper1 = (v12x - v11x) * tx + (v12y - v11y) * ty; // lower1 = 0
  const upper2 = (v21x - v11x) * tx + (v21y - v11y) * ty;
  const lower2 = (v22x - v11x) * tx + (v22y - v11y) * ty;
  const span = upper2 - lower2;
  let lowX = v22x;
  let lowY = v22y;
  let upX = v21x;
  let upY = v21y;
  if (span > 1e-12) {
    if (lower2 < 0) {
      let t = -lower2 / span;
      if (t > 1) t = 1;
      lowX = v22x + t * (v21x - v22x);
      lowY = v22y + t * (v21y - v22y);
    }
    if (upper2 > upper1) {
      let t = (upper1 - lower2) / span;
      if (t < 0) t = 0;
      upX = v22x + t * (v21x - v22x);
      upY = v22y + t * (v21y - v22y);
    }
  }
  const sepLow = (lowX - v11x) * nx + (lowY - v11y) * ny;
  const sepUp = (upX - v11x) * nx + (upY - v11y) * ny;
  // Midway between the surfaces: the reference surface is rRef above its plane, the incident
  // surface rInc below the incident core point.
  const kLow = 0.5 * (rRef - rInc - sepLow);
  const kUp = 0.5 * (rRef - rInc - sepUp);
  // Ids: the lower point lies at reference vertex i11's side plane / incident vertex i22, the
  // upper one at i12 / i21. Stored as (vertexOfA << 8) | vertexOfB.
  const idLow = flip ? (i22 << 8) | i11 : (i11 << 8) | i22;
  const idUp = flip ? (i21 << 8) | i12 : (i12 << 8) | i21;
  m.nx = flip ? -nx : nx;
  m.ny = flip ? -ny : ny;
  const dx = upX - lowX;
  const dy = upY - lowY;
  if (dx * dx + dy * dy < MERGE_DISTANCE * MERGE_DISTANCE) {
    // Degenerate clip (e.g. corner on corner): one point, the deeper one.
    if (sepUp < sepLow) addPoint(m, upX + kUp * nx, upY + kUp * ny, sepUp - radius, idUp);
    else addPoint(m, lowX + kLow * nx, lowY + kLow * ny, sepLow - radius, idLow);
    return;
  }
  // addPoint written out: this function is too large for V8 to inline it, and a call boxes its
  // three doubles (two thirds of the narrowphase's allocation in a box pyramid).
  let count = 0;
  const low = sepLow - radius;
  if (low < SPECULATIVE_DISTANCE) {
    m.px[0] = lowX + kLow * nx;
    m.py[0] = lowY + kLow * ny;
    m.separation[0] = low;
    m.id[0] = idLow;
    count = 1;
  }
  const up = sepUp - radius;
  if (up < SPECULATIVE_DISTANCE) {
    m.px[count] = upX + kUp * nx;
    m.py[count] = upY + kUp * ny;
    m.separation[count] = up;
    m.id[count] = idUp;
    count++;
  }
  m.pointCount = count;
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

  segmentDistanceOfVertices(va, 0, 1, vb, 0, 1);
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
