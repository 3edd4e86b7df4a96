/**
 * Convex decomposition of a simple concave outline: the geometry behind `Polygon.decompose`
 * (Nape's GeomPoly.convexDecomposition). Pure: numbers in, vertex lists out, no engine state.
 *
 * Algorithm: ear-clipping triangulation, then Hertel–Mehlhorn merging.
 *  1. Validate the outline (`parseOutline`): finite points, no two closer than WELD_DISTANCE,
 *     non-zero area, no edge folding back on its neighbour, no two edges crossing or touching.
 *     Normalise to CCW and drop straight (collinear) vertices: they only add work and would
 *     leave pieces with corners Polygon rejects.
 *  2. Triangulate by ear clipping. Among all current ears we clip the fattest triangle (largest
 *     area over the sum of its squared edges), lowest vertex id on ties: slivers are what make
 *     later corner tests flip sign in floating point, and the scan keeps the result deterministic.
 *  3. Merge (Hertel–Mehlhorn): walk the diagonals in the order the ears made them and remove one
 *     whenever both its endpoints stay convex (or straight) in the merged piece and the piece
 *     stays within MAX_POLYGON_VERTICES. Every remaining diagonal is then essential for a reflex
 *     vertex, so there are at most 2r + 1 pieces for r reflex vertices, while any convex
 *     partition needs at least ⌈r/2⌉ + 1: never more than 4× the optimum (the vertex cap aside).
 *  4. Drop the straight corners merging left, and check every piece with the very routine the
 *     Polygon constructor uses (parseConvexVertices), so a piece can never be rejected later.
 *
 * Why this rather than Bayazit's decomposition (Nape's choice, usually fewer pieces): Bayazit adds
 * Steiner points where its diagonals hit edges, and those computed points can land within
 * WELD_DISTANCE of a vertex or make a near-straight corner, which Polygon rightly rejects. Here
 * every piece vertex is an input vertex, so the input checks (points ≥ WELD_DISTANCE apart) carry
 * over to the pieces, every decision is one corner test using the same predicate as Polygon's
 * validation, and the piece count has a proven bound.
 *
 * Cost for n vertices: validation O(n log n) for typical outlines (x-sorted sweeps), O(n²) at
 * worst; triangulation O(n²) (one ring scan per ear); merging O(n · MAX_POLYGON_VERTICES).
 * Deterministic: no randomness, no iteration over hashed floats, ties broken by vertex index.
 */
import type { Vec2 } from '../math/vec2.js';
import { checkVec2, fail } from '../util/validate.js';
import { MAX_POLYGON_VERTICES, WELD_DISTANCE, parseConvexVertices } from './vertices.js';

/**
 * A corner whose turn is within this (sine of the angle) counts as straight. Deliberately the
 * same value and the same formula as vertices.ts, so "convex here" means "accepted there".
 */
const TURN_SINE = 1e-9;

/** Corner kinds, from the turn a → b → c of a CCW outline. */
const CONVEX = 1;
const REFLEX = -1;
/** Turn below TURN_SINE, going on in the same direction: the vertex can be dropped. */
const STRAIGHT = 0;
/** Turn below TURN_SINE, coming back along the previous edge: a zero-width spike. */
const SPIKE = 2;

/** A validated outline: CCW, coordinates by vertex id, and each id's index in the user's array. */
export interface Outline {
  xs: Float64Array;
  ys: Float64Array;
  userIndex: Int32Array;
}

/**
 * Validate `value` as a simple outline and decompose it into strictly convex CCW pieces of
 * 3..MAX_POLYGON_VERTICES vertices whose union is the outline. Throws FulcrumInputError naming
 * `owner`.`prop` (and the offending index, edges or value) for any bad outline.
 */
export function decomposeOutline(owner: string, prop: string, value: unknown): Vec2[][] {
  const outline = parseOutline(owner, prop, value);
  const ring = stripStraightCorners(owner, prop, value, outline);
  const xs = pick(outline.xs, ring);
  const ys = pick(outline.ys, ring);
  const userIndex = Int32Array.from(ring, (i) => outline.userIndex[i]!);
  const degenerate = (id: number): never =>
    fail(owner, prop, value, `could not be decomposed: the outline is numerically degenerate near vertex ${userIndex[id]!}`);

  let pieces: number[][];
  if (ring.length <= MAX_POLYGON_VERTICES && isConvexRing(xs, ys)) {
    pieces = [ring.map((_, id) => id)];
  } else {
    const triangles = triangulate(xs, ys, degenerate);
    pieces = mergeTriangles(xs, ys, triangles);
  }

  const out: Vec2[][] = [];
  for (const piece of pieces) {
    const clean = dropStraightCorners(xs, ys, piece);
    if (clean.length < 3) continue; // a zero-area sliver left by a dropped corner
    const verts = clean.map((id) => ({ x: xs[id]!, y: ys[id]! }));
    try {
      parseConvexVertices(owner, prop, verts);
    } catch {
      degenerate(clean[0]!);
    }
    out.push(verts);
  }
  if (out.length === 0) degenerate(0);
  return out;
}

// ---------------------------------------------------------------------------------------------
// Validation

/**
 * Parse `value` as a simple outline of at least 3 points {x, y} or [x, y], either winding.
 * Returns it CCW; a CW input is read backwards from its vertex 0, as parseConvexVertices does.
 * Error messages use the user's indices.
 */
export function parseOutline(owner: string, prop: string, value: unknown): Outline {
  if (!Array.isArray(value)) fail(owner, prop, value, 'must be an array of at least 3 points {x, y} or [x, y]');
  const n = value.length;
  if (n < 3) fail(owner, prop, value, `must have at least 3 vertices (has ${n})`);
  const xs = new Float64Array(n);
  const ys = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const p = checkVec2(owner, `${prop}[${i}]`, value[i]);
    xs[i] = p.x;
    ys[i] = p.y;
  }

  const close = firstCoincidentPair(xs, ys);
  if (close) {
    const [i, j] = close;
    fail(owner, `${prop}[${j}]`, value[j], `must not coincide with ${prop}[${i}] (points closer than ${WELD_DISTANCE} m)`);
  }

  const selfIntersection = (crossing: [number, number, boolean]): never => {
    const [i, j, proper] = crossing;
    const how = proper ? 'crosses' : 'touches';
    return fail(owner, prop, value, `must not self-intersect (edge ${i}→${(i + 1) % n} ${how} edge ${j}→${(j + 1) % n})`);
  };

  const area2 = signedArea2(xs, ys);
  if (!(Math.abs(area2) > TURN_SINE * extent2(xs, ys))) {
    // A figure-eight whose lobes cancel is better told as the crossing it is.
    const crossing = firstCrossingEdges(xs, ys);
    if (crossing?.[2]) selfIntersection(crossing);
    fail(owner, prop, value, 'must not be collinear (the outline has zero area)');
  }

  for (let i = 0; i < n; i++) {
    const h = (i + n - 1) % n;
    const j = (i + 1) % n;
    if (cornerKind(xs, ys, h, i, j) === SPIKE) {
      fail(owner, prop, value, `must not fold back on itself (edges ${h}→${i} and ${i}→${j} overlap at vertex ${i})`);
    }
  }

  const crossing = firstCrossingEdges(xs, ys);
  if (crossing) selfIntersection(crossing);

  const userIndex = new Int32Array(n);
  for (let k = 0; k < n; k++) userIndex[k] = area2 > 0 ? k : (n - k) % n;
  return { xs: pick(xs, userIndex), ys: pick(ys, userIndex), userIndex };
}

/** Twice the signed area (shoelace about vertex 0): > 0 for CCW. */
function signedArea2(xs: Float64Array, ys: Float64Array): number {
  let a = 0;
  for (let i = 1; i + 1 < xs.length; i++) {
    a += (xs[i]! - xs[0]!) * (ys[i + 1]! - ys[0]!) - (ys[i]! - ys[0]!) * (xs[i + 1]! - xs[0]!);
  }
  return a;
}

/** Largest squared distance from vertex 0: the scale of "zero area", as in vertices.ts. */
function extent2(xs: Float64Array, ys: Float64Array): number {
  let e = 0;
  for (let i = 1; i < xs.length; i++) e = Math.max(e, (xs[i]! - xs[0]!) ** 2 + (ys[i]! - ys[0]!) ** 2);
  return e;
}

/**
 * The pair (i < j), smallest i then smallest j, of points closer than WELD_DISTANCE, or null.
 * Any pair, not only neighbours: pieces are made of input vertices, and Polygon rejects any
 * near-coincident pair. A sweep over x-sorted points keeps it near O(n log n).
 */
function firstCoincidentPair(xs: Float64Array, ys: Float64Array): [number, number] | null {
  const order = sortedBy(xs);
  const weld2 = WELD_DISTANCE * WELD_DISTANCE;
  let best: [number, number] | null = null;
  for (let s = 0; s < order.length; s++) {
    const a = order[s]!;
    for (let t = s + 1; t < order.length && xs[order[t]!]! - xs[a]! < WELD_DISTANCE; t++) {
      const b = order[t]!;
      if ((xs[b]! - xs[a]!) ** 2 + (ys[b]! - ys[a]!) ** 2 >= weld2) continue;
      const pair: [number, number] = a < b ? [a, b] : [b, a];
      if (!best || pair[0] < best[0] || (pair[0] === best[0] && pair[1] < best[1])) best = pair;
    }
  }
  return best;
}

/**
 * The pair of non-adjacent edges (i < j, smallest first) that cross or touch, with whether they
 * cross properly, or null. Edge k runs from vertex k to k + 1. Adjacent edges can only overlap
 * by folding back, which the SPIKE corner test has already rejected. Sweep over edges sorted by
 * their left end.
 */
function firstCrossingEdges(xs: Float64Array, ys: Float64Array): [number, number, boolean] | null {
  const n = xs.length;
  const minX = new Float64Array(n);
  const maxX = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const j = (i + 1) % n;
    minX[i] = Math.min(xs[i]!, xs[j]!);
    maxX[i] = Math.max(xs[i]!, xs[j]!);
  }
  const order = sortedBy(minX);
  let best: [number, number, boolean] | null = null;
  for (let s = 0; s < n; s++) {
    const e = order[s]!;
    for (let t = s + 1; t < n && minX[order[t]!]! <= maxX[e]!; t++) {
      const f = order[t]!;
      const i = Math.min(e, f);
      const j = Math.max(e, f);
      if (j === i + 1 || (i === 0 && j === n - 1)) continue; // adjacent
      const hit = segmentsMeet(xs, ys, i, (i + 1) % n, j, (j + 1) % n);
      if (hit === 0) continue;
      if (!best || i < best[0] || (i === best[0] && j < best[1])) best = [i, j, hit === 2];
    }
  }
  return best;
}

/** Indices 0..n-1 sorted by `key`, ties by index (a stable, deterministic order). */
function sortedBy(key: Float64Array): Int32Array {
  const order = Int32Array.from({ length: key.length }, (_, i) => i);
  return order.sort((a, b) => key[a]! - key[b]! || a - b);
}

/** Twice the signed area of (a, b, p): > 0 when p is left of a → b. */
function orient(ax: number, ay: number, bx: number, by: number, px: number, py: number): number {
  return (bx - ax) * (py - ay) - (by - ay) * (px - ax);
}

/** Whether closed segments p1p2 and q1q2 (vertex ids) meet: 0 no, 1 touching, 2 crossing properly. */
function segmentsMeet(xs: Float64Array, ys: Float64Array, p1: number, p2: number, q1: number, q2: number): number {
  const d1 = orient(xs[q1]!, ys[q1]!, xs[q2]!, ys[q2]!, xs[p1]!, ys[p1]!);
  const d2 = orient(xs[q1]!, ys[q1]!, xs[q2]!, ys[q2]!, xs[p2]!, ys[p2]!);
  const d3 = orient(xs[p1]!, ys[p1]!, xs[p2]!, ys[p2]!, xs[q1]!, ys[q1]!);
  const d4 = orient(xs[p1]!, ys[p1]!, xs[p2]!, ys[p2]!, xs[q2]!, ys[q2]!);
  if (d1 * d2 < 0 && d3 * d4 < 0) return 2;
  const onSeg = (d: number, a: number, b: number, p: number): boolean =>
    d === 0 &&
    Math.min(xs[a]!, xs[b]!) <= xs[p]! &&
    xs[p]! <= Math.max(xs[a]!, xs[b]!) &&
    Math.min(ys[a]!, ys[b]!) <= ys[p]! &&
    ys[p]! <= Math.max(ys[a]!, ys[b]!);
  return onSeg(d1, q1, q2, p1) || onSeg(d2, q1, q2, p2) || onSeg(d3, p1, p2, q1) || onSeg(d4, p1, p2, q2) ? 1 : 0;
}

// ---------------------------------------------------------------------------------------------
// Corners

/**
 * The kind of the corner at b on the path a → b → c (vertex ids). The test is exactly
 * vertices.ts's: convex iff cross > TURN_SINE · |ab| · |bc|.
 */
function cornerKind(xs: Float64Array, ys: Float64Array, a: number, b: number, c: number): number {
  const ax = xs[b]! - xs[a]!;
  const ay = ys[b]! - ys[a]!;
  const bx = xs[c]! - xs[b]!;
  const by = ys[c]! - ys[b]!;
  const cross = ax * by - ay * bx;
  const tol = TURN_SINE * Math.sqrt((ax * ax + ay * ay) * (bx * bx + by * by));
  if (cross > tol) return CONVEX;
  if (cross < -tol) return REFLEX;
  return ax * bx + ay * by > 0 ? STRAIGHT : SPIKE;
}

/**
 * Ids (into the outline) of the vertices left after repeatedly dropping straight corners.
 * Dropping one changes its neighbours' corners, so they are looked at again.
 */
function stripStraightCorners(owner: string, prop: string, value: unknown, o: Outline): number[] {
  const n = o.xs.length;
  const { prev, next } = ringLinks(n);
  const alive = new Uint8Array(n).fill(1);
  let size = n;
  const queue = Array.from({ length: n }, (_, i) => i);
  for (let q = 0; q < queue.length && size > 3; q++) {
    const i = queue[q]!;
    if (!alive[i] || cornerKind(o.xs, o.ys, prev[i]!, i, next[i]!) !== STRAIGHT) continue;
    alive[i] = 0;
    size--;
    unlink(prev, next, i);
    queue.push(prev[i]!, next[i]!);
  }
  const ring: number[] = [];
  for (let i = 0; i < n; i++) if (alive[i]) ring.push(i);
  for (const i of ring) {
    const kind = cornerKind(o.xs, o.ys, prev[i]!, i, next[i]!);
    // Only reachable when straight runs add up to a (near-)degenerate shape.
    if (kind === STRAIGHT) fail(owner, prop, value, 'must not be collinear (the outline has zero area)');
    if (kind === SPIKE) fail(owner, prop, value, `must not fold back on itself (at vertex ${o.userIndex[i]!})`);
  }
  return ring;
}

/** A simple CCW ring is convex iff it never turns right. */
function isConvexRing(xs: Float64Array, ys: Float64Array): boolean {
  const n = xs.length;
  for (let i = 0; i < n; i++) if (cornerKind(xs, ys, (i + n - 1) % n, i, (i + 1) % n) !== CONVEX) return false;
  return true;
}

/** Remove straight corners from a convex piece (vertex ids, CCW), re-testing after each removal. */
function dropStraightCorners(xs: Float64Array, ys: Float64Array, piece: number[]): number[] {
  const p = piece.slice();
  for (let k = 0; p.length >= 3 && k < p.length; ) {
    const kind = cornerKind(xs, ys, p[(k + p.length - 1) % p.length]!, p[k]!, p[(k + 1) % p.length]!);
    if (kind === STRAIGHT) {
      p.splice(k, 1);
      k = 0; // neighbours' corners changed; pieces are ≤ 64 vertices, so restarting is cheap
    } else {
      k++;
    }
  }
  return p;
}

// ---------------------------------------------------------------------------------------------
// Ear clipping

/** Flat list of CCW triangles (3 vertex ids each) covering the CCW ring 0..n-1. */
function triangulate(xs: Float64Array, ys: Float64Array, degenerate: (id: number) => never): number[] {
  const n = xs.length;
  const { prev, next } = ringLinks(n);
  const alive = new Uint8Array(n).fill(1);
  const kind = new Int8Array(n);
  // Fatness of the ear at each vertex, or −1 when it is not an ear. A stale −1 only hides an
  // ear (we recompute everything before giving up); a stale score is re-checked before clipping.
  const score = new Float64Array(n);
  let size = n;
  const tris: number[] = [];

  const refreshCorner = (i: number): void => {
    kind[i] = cornerKind(xs, ys, prev[i]!, i, next[i]!);
  };
  const refreshAll = (): void => {
    for (let i = 0; i < n; i++) if (alive[i]) refreshCorner(i);
    for (let i = 0; i < n; i++) if (alive[i]) score[i] = earScore(xs, ys, prev, next, kind, i);
  };
  /** Take i out of the ring; its live neighbours go on `touched` (their corners changed). */
  const remove = (i: number, touched: number[]): void => {
    alive[i] = 0;
    size--;
    unlink(prev, next, i);
    touched.push(prev[i]!, next[i]!);
  };

  refreshAll();
  while (size > 3) {
    let ear = bestEar(alive, score);
    if (ear < 0) {
      refreshAll();
      ear = bestEar(alive, score);
      if (ear < 0) degenerate(firstAlive(alive));
    }
    score[ear] = earScore(xs, ys, prev, next, kind, ear);
    if (score[ear]! < 0) continue; // stale: pick again
    tris.push(prev[ear]!, ear, next[ear]!);
    const touched: number[] = [];
    remove(ear, touched);
    // A corner the cut made straight or spiky bounds zero area: drop it, with no triangle.
    for (let k = 0; k < touched.length; k++) {
      const i = touched[k]!;
      if (!alive[i]) continue;
      refreshCorner(i);
      if (size > 3 && (kind[i] === STRAIGHT || kind[i] === SPIKE)) remove(i, touched);
    }
    // Only the corners next to a removal change ear status: a vertex inside some other ear's
    // triangle keeps a reflex vertex inside it too, so distant statuses stay true.
    for (const i of touched) if (alive[i]) score[i] = earScore(xs, ys, prev, next, kind, i);
  }
  const a = firstAlive(alive);
  const b = next[a]!;
  const c = next[b]!;
  // The last triangle, unless the clipping left a sliver.
  if (cornerKind(xs, ys, c, a, b) === CONVEX && cornerKind(xs, ys, a, b, c) === CONVEX && cornerKind(xs, ys, b, c, a) === CONVEX) {
    tris.push(a, b, c);
  }
  return tris;
}

/**
 * Fatness (2·area / sum of squared edges) of the triangle cut off at `b`, or −1 if `b` is not an
 * ear: its three corners must be strictly convex and no reflex vertex may lie in or on it (if any
 * vertex lay inside, a reflex one would, so testing reflex vertices suffices).
 */
function earScore(
  xs: Float64Array,
  ys: Float64Array,
  prev: Int32Array,
  next: Int32Array,
  kind: Int8Array,
  b: number,
): number {
  const a = prev[b]!;
  const c = next[b]!;
  if (kind[b] !== CONVEX || cornerKind(xs, ys, c, a, b) !== CONVEX || cornerKind(xs, ys, b, c, a) !== CONVEX) return -1;
  const ax = xs[a]!;
  const ay = ys[a]!;
  const bx = xs[b]!;
  const by = ys[b]!;
  const cx = xs[c]!;
  const cy = ys[c]!;
  for (let v = next[c]!; v !== a; v = next[v]!) {
    if (kind[v] === CONVEX) continue;
    const px = xs[v]!;
    const py = ys[v]!;
    if (orient(ax, ay, bx, by, px, py) >= 0 && orient(bx, by, cx, cy, px, py) >= 0 && orient(cx, cy, ax, ay, px, py) >= 0) return -1;
  }
  const edges2 = (bx - ax) ** 2 + (by - ay) ** 2 + (cx - bx) ** 2 + (cy - by) ** 2 + (ax - cx) ** 2 + (ay - cy) ** 2;
  return orient(ax, ay, bx, by, cx, cy) / edges2;
}

/** The live vertex with the best ear score, lowest id on ties; −1 if none. */
function bestEar(alive: Uint8Array, score: Float64Array): number {
  let best = -1;
  for (let i = 0; i < alive.length; i++) if (alive[i] && score[i]! >= 0 && (best < 0 || score[i]! > score[best]!)) best = i;
  return best;
}

function firstAlive(alive: Uint8Array): number {
  return alive.indexOf(1);
}

// ---------------------------------------------------------------------------------------------
// Hertel–Mehlhorn merging

/** An interior edge of the triangulation and the two triangles on either side. */
interface Diagonal {
  u: number;
  v: number;
  t1: number;
  t2: number;
}

/**
 * Merge the triangles across every diagonal whose removal keeps the piece convex and within
 * MAX_POLYGON_VERTICES. Returns the pieces (CCW vertex ids, starting at their lowest id) in the
 * order of their first triangle.
 */
function mergeTriangles(xs: Float64Array, ys: Float64Array, tris: number[]): number[][] {
  const count = tris.length / 3;
  const pieces: (number[] | null)[] = [];
  for (let t = 0; t < count; t++) pieces.push([tris[3 * t]!, tris[3 * t + 1]!, tris[3 * t + 2]!]);
  const parent = Int32Array.from({ length: count }, (_, t) => t);
  const find = (t: number): number => {
    while (parent[t] !== t) {
      parent[t] = parent[parent[t]!]!;
      t = parent[t]!;
    }
    return t;
  };

  for (const d of findDiagonals(xs.length, tris)) {
    if (d.t2 < 0) continue; // an edge with one side only: a dropped sliver is on the other
    const p = find(d.t1);
    const q = find(d.t2);
    if (p === q) continue;
    const merged = mergeAcross(xs, ys, pieces[p]!, pieces[q]!, d.u, d.v);
    if (!merged) continue;
    pieces[p] = merged;
    pieces[q] = null;
    parent[q] = p;
  }

  const out: number[][] = [];
  for (let t = 0; t < count; t++) {
    const piece = pieces[t];
    if (piece) out.push(startAtLowest(piece));
  }
  return out;
}

/** Edges shared by triangles, in the order the triangles were cut (outline edges excluded). */
function findDiagonals(n: number, tris: number[]): Diagonal[] {
  const byKey = new Map<number, Diagonal>();
  const list: Diagonal[] = [];
  for (let t = 0; 3 * t < tris.length; t++) {
    for (let k = 0; k < 3; k++) {
      const u = tris[3 * t + k]!;
      const v = tris[3 * t + ((k + 1) % 3)]!;
      if (v === (u + 1) % n || u === (v + 1) % n) continue; // outline edge
      const key = Math.min(u, v) * n + Math.max(u, v);
      const d = byKey.get(key);
      if (d) {
        d.t2 = t;
      } else {
        const fresh = { u, v, t1: t, t2: -1 };
        byKey.set(key, fresh);
        list.push(fresh);
      }
    }
  }
  return list;
}

/**
 * The union of convex pieces `p` and `q` (CCW vertex ids) sharing edge u–v, or null if the
 * union would not be convex at u or v (a straight corner is allowed; it is dropped later) or
 * would exceed MAX_POLYGON_VERTICES. In p the edge runs x → y, in q y → x.
 */
function mergeAcross(xs: Float64Array, ys: Float64Array, p: number[], q: number[], u: number, v: number): number[] | null {
  if (p.length + q.length - 2 > MAX_POLYGON_VERTICES) return null;
  const lp = p.length;
  const lq = q.length;
  let ix = p.indexOf(u);
  if (p[(ix + 1) % lp] !== v) ix = p.indexOf(v);
  const x = p[ix]!;
  const y = p[(ix + 1) % lp]!;
  const iy = q.indexOf(y);
  if (q[(iy + 1) % lq] !== x) return null; // not a shared edge (cannot happen for a triangulation)

  const keepsConvex = (a: number, b: number, c: number): boolean => {
    const kind = cornerKind(xs, ys, a, b, c);
    return kind === CONVEX || kind === STRAIGHT;
  };
  if (!keepsConvex(p[(ix + lp - 1) % lp]!, x, q[(iy + 2) % lq]!)) return null;
  if (!keepsConvex(q[(iy + lq - 1) % lq]!, y, p[(ix + 2) % lp]!)) return null;

  // x, q's vertices after x up to y, then p's vertices after y back to x.
  const merged = [x];
  for (let k = 2; k < lq; k++) merged.push(q[(iy + k) % lq]!);
  merged.push(y);
  for (let k = 2; k < lp; k++) merged.push(p[(ix + k) % lp]!);
  return merged;
}

// ---------------------------------------------------------------------------------------------
// Small helpers

function ringLinks(n: number): { prev: Int32Array; next: Int32Array } {
  const prev = Int32Array.from({ length: n }, (_, i) => (i + n - 1) % n);
  const next = Int32Array.from({ length: n }, (_, i) => (i + 1) % n);
  return { prev, next };
}

/** Take vertex i out of the ring; its own links are left pointing at its old neighbours. */
function unlink(prev: Int32Array, next: Int32Array, i: number): void {
  next[prev[i]!] = next[i]!;
  prev[next[i]!] = prev[i]!;
}

function pick(values: Float64Array, ids: ArrayLike<number>): Float64Array {
  return Float64Array.from({ length: ids.length }, (_, k) => values[ids[k]!]!);
}

/** The same cycle, rotated to start at its lowest id (a canonical, deterministic start). */
function startAtLowest(piece: number[]): number[] {
  let k = 0;
  for (let i = 1; i < piece.length; i++) if (piece[i]! < piece[k]!) k = i;
  return piece.slice(k).concat(piece.slice(0, k));
}
