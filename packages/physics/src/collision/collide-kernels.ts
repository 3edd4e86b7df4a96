/**
 * The narrowphase's routines for rounded polygons and circles (collide.ts has the method and its
 * conventions; capsule pairs and chain segments stay there), made by a factory that a worker can rebuild from source text, as the contact kernels are
 * (contact/contact-kernels.ts): the factory refers to nothing outside itself but its parameters,
 * the parts it calls (segmentDistanceOfVertices of distance.ts, writeManifold of
 * contact/contact-store.ts), so `(${collideKernels})(${part}, …)` is a working program
 * (parallel/worker-program.ts). The calling thread runs COLLIDE_KERNELS, made by the same factory
 * from the same parts: collide.ts's collidePolygons, collidePolygonCircle and collideCircles are
 * these, so a pair gives the same bits on every thread and with no workers at all.
 *
 * A shape is read from its geometry block (Shape._geo): at offset o of a Float64Array, a polygon's
 *   [count, radius, world vertices (2·count), world normals (2·count)] (shape/poly-shape.ts),
 * a circle's [0, radius, world centre x, y] (shape/circle.ts),
 * which is the shape's own array without workers, and a slice of the space's shared geometry pool
 * with them (collision/geometry-pool.ts), so that a worker reads every shape of the space.
 */
import { closestPointOnSegment as sharedClosestPoint, segmentDistanceOfVertices as sharedSegmentDistance } from './distance.js';
import { writeManifold as sharedWriteManifold, type ManifoldSlots } from '../contact/contact-store.js';
import type { Manifold } from './manifold.js';
import type { StageViews } from '../parallel/thread-runtime.js';

/** What a narrowphase routine writes: a Manifold's numbers (a worker's is a plain object of the same fields). */
export type ManifoldData = Pick<Manifold, 'pointCount' | 'nx' | 'ny' | 'px' | 'py' | 'separation' | 'id'>;

export function collideKernels(segmentDistanceOfVertices: typeof sharedSegmentDistance, closestPointOnSegment: typeof sharedClosestPoint, writeManifold: typeof sharedWriteManifold) {
  // manifold.ts's LINEAR_SLOP and SPECULATIVE_DISTANCE, collide.ts's MERGE_DISTANCE and
  // DISJOINT_TOLERANCE, written out as those modules compute them (collide-kernels.test.ts checks them).
  const LINEAR_SLOP = 0.005;
  const SPECULATIVE_DISTANCE = 4 * LINEAR_SLOP;
  const MERGE_DISTANCE = 0.1 * LINEAR_SLOP;
  const DISJOINT_TOLERANCE = 0.1 * LINEAR_SLOP;
  /** segmentDistanceOfVertices's and closestPointOnSegment's results, this thread's. */
  const sd = { fraction1: 0, fraction2: 0, x1: 0, y1: 0, x2: 0, y2: 0, distanceSquared: 0 };
  const cp = { x: 0, y: 0, fraction: 0, distanceSquared: 0 };

  /** Append a point if it is within the speculative distance. */
  function addPoint(m: ManifoldData, x: number, y: number, separation: number, id: number): void {
    if (!(separation < SPECULATIVE_DISTANCE)) return;
    const i = m.pointCount;
    m.px[i] = x;
    m.py[i] = y;
    m.separation[i] = separation;
    m.id[i] = id;
    m.pointCount = i + 1;
  }

  /** Two circles (blocks oA of gA and oB of gB: [0, radius, centre x, y]). */
  function circles(gA: Float64Array, oA: number, gB: Float64Array, oB: number, m: ManifoldData): void {
    m.pointCount = 0;
    const ra = gA[oA + 1]!;
    const rb = gB[oB + 1]!;
    const ax = gA[oA + 2]!;
    const ay = gA[oA + 3]!;
    const bx = gB[oB + 2]!;
    const by = gB[oB + 3]!;
    const dx = bx - ax;
    const dy = by - ay;
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
    addPoint(m, 0.5 * (ax + ra * nx + bx - rb * nx), 0.5 * (ay + ra * ny + by - rb * ny), separation, 0);
  }

  /**
   * Rounded polygon (block oP of gP) vs circle (block oC of gC). Centre outside the core: the
   * exact closest point on the core boundary gives the normal (the edge normal when it is inside
   * an edge, the vertex-to-centre direction at a vertex). Centre inside a ≥3-vertex core: the face
   * of maximum separation.
   */
  function polygonCircle(gP: Float64Array, oP: number, gC: Float64Array, oC: number, m: ManifoldData): void {
    m.pointCount = 0;
    const n = gP[oP]! | 0; // an integer for the index arithmetic (see findMaxSeparation's caller)
    const v = oP + 2;
    const nn = v + 2 * n;
    const rp = gP[oP + 1]!;
    const rc = gC[oC + 1]!;
    const cx = gC[oC + 2]!;
    const cy = gC[oC + 3]!;

    let maxSep = -Infinity;
    let face = 0;
    for (let i = 0; i < n; i++) {
      const s = gP[nn + 2 * i]! * (cx - gP[v + 2 * i]!) + gP[nn + 2 * i + 1]! * (cy - gP[v + 2 * i + 1]!);
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
      nx = gP[nn + 2 * face]!;
      ny = gP[nn + 2 * face + 1]!;
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
        closestPointOnSegment(cx, cy, gP[v + 2 * i]!, gP[v + 2 * i + 1]!, gP[v + 2 * j]!, gP[v + 2 * j + 1]!, cp);
        if (cp.distanceSquared < best) {
          best = cp.distanceSquared;
          bestEdge = i;
          bestT = cp.fraction;
          qx = cp.x;
          qy = cp.y;
        }
      }
      dist = Math.sqrt(best);
      if (bestT > 0 && bestT < 1) {
        // Inside an edge: use its exact normal (on the centre's side for a 2-vertex core).
        nx = gP[nn + 2 * bestEdge]!;
        ny = gP[nn + 2 * bestEdge + 1]!;
        if (n === 2 && nx * (cx - qx) + ny * (cy - qy) < 0) {
          nx = -nx;
          ny = -ny;
        }
      } else if (dist > 1e-12) {
        nx = (cx - qx) / dist;
        ny = (cy - qy) / dist;
      } else {
        nx = gP[nn + 2 * face]!;
        ny = gP[nn + 2 * face + 1]!;
      }
    }
    const separation = dist - rp - rc;
    if (!(separation < SPECULATIVE_DISTANCE)) return;
    m.nx = nx;
    m.ny = ny;
    // Surface points: q + rp·n on the polygon, centre − rc·n on the circle.
    addPoint(m, 0.5 * (qx + rp * nx + cx - rc * nx), 0.5 * (qy + rp * ny + cy - rc * ny), separation, 0);
  }
  /** findMaxSeparation's face. */
  let maxSeparationEdge = 0;

  /**
   * SAT over the faces of polygon 1 (n1 vertices from v1 and normals from nn1 in g1): for each
   * face, the deepest vertex of polygon 2 (n2 vertices from v2 in g2) below its plane. Returns the
   * largest such separation (core to core); the face is in maxSeparationEdge.
   */
  function findMaxSeparation(g1: Float64Array, v1: number, nn1: number, n1: number, g2: Float64Array, v2: number, n2: number): number {
    let best = -Infinity;
    let bestEdge = 0;
    for (let i = 0; i < n1; i++) {
      const nx = g1[nn1 + 2 * i]!;
      const ny = g1[nn1 + 2 * i + 1]!;
      const ox = g1[v1 + 2 * i]!;
      const oy = g1[v1 + 2 * i + 1]!;
      let si = Infinity;
      for (let j = 0; j < n2; j++) {
        const s = nx * (g2[v2 + 2 * j]! - ox) + ny * (g2[v2 + 2 * j + 1]! - oy);
        if (s < si) si = s;
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
   * findMaxSeparation when polygon 2 has four vertices (boxes and quads), written out with its
   * vertices read once: the same operations in the same order, and faster per box pair (V8
   * neither unrolls the loop nor keeps the vertices in registers across polygon 1's faces).
   */
  function findMaxSeparationQuad(g1: Float64Array, v1: number, nn1: number, n1: number, g2: Float64Array, v2: number): number {
    const x0 = g2[v2]!, y0 = g2[v2 + 1]!, x1 = g2[v2 + 2]!, y1 = g2[v2 + 3]!;
    const x2 = g2[v2 + 4]!, y2 = g2[v2 + 5]!, x3 = g2[v2 + 6]!, y3 = g2[v2 + 7]!;
    let best = -Infinity;
    let bestEdge = 0;
    for (let i = 0; i < n1; i++) {
      const nx = g1[nn1 + 2 * i]!;
      const ny = g1[nn1 + 2 * i + 1]!;
      const ox = g1[v1 + 2 * i]!;
      const oy = g1[v1 + 2 * i + 1]!;
      let si = Infinity;
      const s0 = nx * (x0 - ox) + ny * (y0 - oy);
      const s1 = nx * (x1 - ox) + ny * (y1 - oy);
      const s2 = nx * (x2 - ox) + ny * (y2 - oy);
      const s3 = nx * (x3 - ox) + ny * (y3 - oy);
      if (s0 < si) si = s0;
      if (s1 < si) si = s1;
      if (s2 < si) si = s2;
      if (s3 < si) si = s3;
      if (si > best) {
        best = si;
        bestEdge = i;
      }
    }
    maxSeparationEdge = bestEdge;
    return best;
  }

  /**
   * Two rounded convex polygons (blocks oA of gA and oB of gB; not two 2-vertex cores, which
   * collide.ts's collideCapsules takes).
   *
   * 1. SAT on both cores picks the reference face (A's unless B's is clearly better: hysteresis
   *    of 0.1·LINEAR_SLOP keeps the choice, and so the feature ids, stable).
   * 2. The incident edge is the other core's edge most anti-parallel to the reference normal.
   * 3. Cores disjoint: closest points of the reference and incident edges. If both are vertices
   *    and not squarely facing each other, the contact is vertex–vertex: one point along the
   *    vertex-to-vertex direction (e.g. a capsule end over a box corner).
   * 4. Otherwise clip the incident edge to the reference edge's side planes: up to 2 points.
   */
  function polygons(gA: Float64Array, oA: number, gB: Float64Array, oB: number, m: ManifoldData): void {
    m.pointCount = 0;
    const radius = gA[oA + 1]! + gB[oB + 1]!;
    // Counts as small integers (| 0): the block stores doubles, and index arithmetic on doubles
    // made every read convert its index (about 25% of this routine's time).
    const nA = gA[oA]! | 0;
    const nB = gB[oB]! | 0;
    const vA = oA + 2;
    const vB = oB + 2;
    const sepA = nB === 4 ? findMaxSeparationQuad(gA, vA, vA + 2 * nA, nA, gB, vB) : findMaxSeparation(gA, vA, vA + 2 * nA, nA, gB, vB, nB);
    const edgeA = maxSeparationEdge;
    if (!(sepA - radius < SPECULATIVE_DISTANCE)) return;
    const sepB = nA === 4 ? findMaxSeparationQuad(gB, vB, vB + 2 * nB, nB, gA, vA) : findMaxSeparation(gB, vB, vB + 2 * nB, nB, gA, vA, nA);
    const edgeB = maxSeparationEdge;
    if (!(sepB - radius < SPECULATIVE_DISTANCE)) return;

    const flip = sepB > sepA + 0.1 * LINEAR_SLOP;
    const g1 = flip ? gB : gA; // the reference polygon
    const g2 = flip ? gA : gB; // the incident one
    const i11 = flip ? edgeB : edgeA;
    const nRef = flip ? nB : nA;
    const nInc = flip ? nA : nB;
    const rv = flip ? vB : vA;
    const rn = rv + 2 * nRef;
    const iv = flip ? vA : vB;
    const inn = iv + 2 * nInc;
    const i12 = i11 + 1 < nRef ? i11 + 1 : 0;
    const nx = g1[rn + 2 * i11]!;
    const ny = g1[rn + 2 * i11 + 1]!;

    // Incident edge: most anti-parallel normal.
    let i21 = 0;
    let minDot = Infinity;
    for (let j = 0; j < nInc; j++) {
      const d = nx * g2[inn + 2 * j]! + ny * g2[inn + 2 * j + 1]!;
      if (d < minDot) {
        minDot = d;
        i21 = j;
      }
    }
    const i22 = i21 + 1 < nInc ? i21 + 1 : 0;

    const v11x = g1[rv + 2 * i11]!;
    const v11y = g1[rv + 2 * i11 + 1]!;
    const v12x = g1[rv + 2 * i12]!;
    const v12y = g1[rv + 2 * i12 + 1]!;
    const v21x = g2[iv + 2 * i21]!;
    const v21y = g2[iv + 2 * i21 + 1]!;
    const v22x = g2[iv + 2 * i22]!;
    const v22y = g2[iv + 2 * i22 + 1]!;
    const rRef = g1[rv - 1]!;
    const rInc = g2[iv - 1]!;

    const separation = sepA > sepB ? sepA : sepB;
    if (separation > DISJOINT_TOLERANCE) {
      segmentDistanceOfVertices(g1, rv, i11, i12, g2, iv, i21, i22, sd);
      const f1 = sd.fraction1;
      const f2 = sd.fraction2;
      if ((f1 === 0 || f1 === 1) && (f2 === 0 || f2 === 1)) {
        const distance = Math.sqrt(sd.distanceSquared);
        // Offset of the incident vertex along the reference face. When it is (numerically) zero
        // the vertices face each other squarely, as with equal boxes stacked exactly: the face
        // normal is then exact and clipping keeps both points.
        const along = (sd.x2 - sd.x1) * -ny + (sd.y2 - sd.y1) * nx;
        if (Math.abs(along) > 1e-6 * distance) {
          // Vertex–vertex. distance ≥ separation > 0 here, so the direction is well defined.
          if (!(distance - radius < SPECULATIVE_DISTANCE)) return;
          let ux = (sd.x2 - sd.x1) / distance; // reference → incident
          let uy = (sd.y2 - sd.y1) / distance;
          const px = 0.5 * (sd.x1 + rRef * ux + sd.x2 - rInc * ux);
          const py = 0.5 * (sd.y1 + rRef * uy + sd.y2 - rInc * uy);
          const vRef = f1 === 0 ? i11 : i12;
          const vInc = f2 === 0 ? i21 : i22;
          if (flip) {
            ux = -ux;
            uy = -uy;
          }
          m.nx = ux;
          m.ny = uy;
          const s = distance - radius;
          if (s < SPECULATIVE_DISTANCE) {
            m.px[0] = px;
            m.py[0] = py;
            m.separation[0] = s;
            m.id[0] = flip ? (vInc << 8) | vRef : (vRef << 8) | vInc;
            m.pointCount = 1;
          }
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
    // Points written out, not through a helper: this function is too large for V8 to inline one,
    // and a call boxes its three doubles (two thirds of the narrowphase's allocation in a box pyramid).
    if (dx * dx + dy * dy < MERGE_DISTANCE * MERGE_DISTANCE) {
      // Degenerate clip (e.g. corner on corner): one point, the deeper one.
      const deeperUp = sepUp < sepLow;
      const s = deeperUp ? sepUp - radius : sepLow - radius;
      if (s < SPECULATIVE_DISTANCE) {
        m.px[0] = deeperUp ? upX + kUp * nx : lowX + kLow * nx;
        m.py[0] = deeperUp ? upY + kUp * ny : lowY + kLow * ny;
        m.separation[0] = s;
        m.id[0] = deeperUp ? idUp : idLow;
        m.pointCount = 1;
      }
      return;
    }
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

  /** This thread's manifold, and the contact store's slots as writeManifold reads them (refreshed from the views each stage). */
  const m: ManifoldData = { pointCount: 0, nx: 0, ny: 0, px: new Float64Array(2), py: new Float64Array(2), separation: new Float64Array(2), id: new Int32Array(2) };
  const slots: ManifoldSlots = { pointCount: new Uint8Array(0), nx: new Float64Array(0), ny: new Float64Array(0), px: new Float64Array(0), py: new Float64Array(0), separation: new Float64Array(0), id: new Int32Array(0), normalImpulse: new Float64Array(0), tangentImpulse: new Float64Array(0) };

  /**
   * The narrowphase's jobs [from, to) (the contact manager's firstPass): job j is contact slot
   * jobs[4j], its shapes' blocks jobs[4j + 1] (A) and jobs[4j + 2] (B) of the geometry pool, and
   * jobs[4j + 3] the pair's routine (PAIR_* below, collide.ts's dispatch: a circle as A is
   * collided as B, and the normal turned). Its manifold goes to the contact store's slot, impulses
   * carried by feature id. Each job writes only its own slot: any split of the jobs over threads
   * gives the same bits.
   */
  function narrowphase(v: StageViews, from: number, to: number): void {
    const POLYGONS = 0, POLYGON_CIRCLE = 1, CIRCLE_POLYGON = 2;
    const g = v.geo;
    const jobs = v.njobs;
    slots.pointCount = v.spointCount;
    slots.nx = v.snx;
    slots.ny = v.sny;
    slots.px = v.spx;
    slots.py = v.spy;
    slots.separation = v.sseparation;
    slots.id = v.sid;
    slots.normalImpulse = v.snormalImpulse;
    slots.tangentImpulse = v.stangentImpulse;
    // (from >>> 0, here and in every kernel loop: V8 then knows the index is not negative and drops
    // checks it made on each row; a loop from a plain `from` made the 200-link chain's pass 5% slower.)
    for (let j = from >>> 0; j < to; j++) {
      const a = jobs[4 * j + 1]!;
      const b = jobs[4 * j + 2]!;
      const pair = jobs[4 * j + 3]!;
      if (pair === POLYGONS) polygons(g, a, g, b, m);
      else if (pair === POLYGON_CIRCLE) polygonCircle(g, a, g, b, m);
      else if (pair === CIRCLE_POLYGON) {
        polygonCircle(g, b, g, a, m);
        m.nx = -m.nx;
        m.ny = -m.ny;
      } else circles(g, a, g, b, m);
      writeManifold(slots, jobs[4 * j]!, m);
    }
  }

  /** The two SAT routines, for the test that the box one gives the general one's bits (collide-kernels.test.ts). */
  function separation(quad: boolean, g1: Float64Array, v1: number, nn1: number, n1: number, g2: Float64Array, v2: number, n2: number): [number, number] {
    const s = quad ? findMaxSeparationQuad(g1, v1, nn1, n1, g2, v2) : findMaxSeparation(g1, v1, nn1, n1, g2, v2, n2);
    return [s, maxSeparationEdge];
  }

  return { polygons, circles, polygonCircle, addPoint, narrowphase, separation };
}

/** A narrowphase job's routine (jobs[4j + 3]; literals in the kernel, checked by collide-kernels.test.ts). */
export const PAIR = { POLYGONS: 0, POLYGON_CIRCLE: 1, CIRCLE_POLYGON: 2, CIRCLES: 3 } as const;

/** The parts collideKernels takes, in order (a worker's program passes their text). */
export const COLLIDE_KERNEL_PARTS = [sharedSegmentDistance, sharedClosestPoint, sharedWriteManifold] as const;

/** The kernels the calling thread runs. */
export const COLLIDE_KERNELS = collideKernels(...COLLIDE_KERNEL_PARTS);

export type CollideKernels = ReturnType<typeof collideKernels>;
