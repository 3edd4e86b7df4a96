/**
 * Submerged geometry for fluids: `submergedArea(fluid, body, out)` writes the area of
 * fluid ∩ body and the world centroid of that region (what buoyancy and drag need). Reads only
 * the shapes' world caches (updateWorld must have run); allocates nothing. Every case is exact
 * in real arithmetic (closed forms only, no tessellation); the results carry only rounding error.
 *
 * 1. Convex pieces. Every shape is split into pieces with disjoint interiors, each piece being
 *    a CCW convex polygon K, possibly intersected with one disc D:
 *     - Circle (c, r): K = the square circumscribing the disc, D = the disc (K ∩ D = D).
 *     - sharp Polygon: K = the polygon, no disc.
 *     - rounded core (Polygon with radius r > 0, Capsule): as in shape/mass.ts, the swept region
 *       is the core polygon (none for a 2-vertex core) ∪ one rectangle per edge (the edge and
 *       the edge pushed out by r along its normal) ∪ one sector per corner (apex the vertex,
 *       radius r, from the previous edge's normal turning CCW by the exterior angle θ ∈ (0, π];
 *       a capsule's two corners are half discs). A sector is disc(v, r) ∩ K with K the kite
 *       v, v + ρ·n_prev, v + ρ·m, v + ρ·n_next, m the bisector and ρ = r / cos(θ/4): its two
 *       outer edges are tangent to the circle, so the kite contains the sector, and the kite lies
 *       in the cone between the two normals, so kite ∩ disc is exactly the sector.
 *     - Segment (2-vertex core, radius 0): no area, no pieces; the result is 0.
 *    Areas and first moments are additive over disjoint pieces, so
 *    area(F ∩ B) = Σ_{fluid pieces f} Σ_{body pieces b} area(K_f ∩ K_b ∩ D_f ∩ D_b) (a missing
 *    disc is the whole plane); the same for ∫p dA. A pair of pieces therefore reduces to a convex
 *    polygon P = K_f ∩ K_b intersected with 0, 1 or 2 discs. Shortcuts (exact set identities): a
 *    disc containing every vertex of P contains P and is dropped; when clipping removed nothing
 *    from a body piece and only its own disc is left, P ∩ D is its whole sector or disc: area
 *    ½ r² θ, first moment (2/3) r³ sin(θ/2) about the apex along the bisector.
 *
 * 2. P = K_f ∩ K_b by Sutherland–Hodgman: clip K_b by each edge line of K_f in turn (for convex
 *    K_f the intersection of its edges' half-planes is K_f, and a convex polygon clipped by a
 *    half-plane stays convex). A vertex is kept when it is on or left of the edge; a crossing
 *    point is made only when the two ends are strictly on opposite sides, so shared edges and
 *    vertices on a line produce no duplicates.
 *
 * 3. Area and first moment of a closed curve γ seen from a point q (the "fan" integrals):
 *        A(γ) = ½ ∮ (p − q) × dp,      M(γ) = ⅓ ∮ (p − q) [(p − q) × dp].
 *    By Green's theorem (∂x(x²/3) + ∂y(xy/3) = x, and the usual area form) they equal
 *    ∫ w_γ(z) dz and ∫ w_γ(z)(z − q) dz, w_γ the winding number of γ about z. For a convex
 *    polygon P with CCW boundary, w = 1 inside and 0 outside: A and M are its area and first
 *    moment about q. Along a straight piece a → b (a, b relative to q), (p − q) × dp = a × b dt
 *    is constant, which gives the triangle(q, a, b) terms
 *        A = ½ a × b,          M = (a + b)(a × b) / 6        (the shoelace formula is their sum).
 *
 * 4. A disc D (centre q, radius r). Let π(p) = q + (p − q)·min(1, r / |p − q|) push every point
 *    radially onto the disc. For any closed curve γ, w_{π∘γ}(z) = w_γ(z)·[z ∈ D] (z off both
 *    curves and off ∂D): for z inside D the homotopy (1 − t)·γ + t·π∘γ moves every point along
 *    its own ray from q but never to a distance below r from q unless it does not move at all,
 *    so it never crosses z; for z outside D the curve π∘γ lies in the convex D, which does not
 *    wind about z. Hence area(D ∩ X) = A(π∘∂X) and ∫_{D∩X}(p − q) dA = M(π∘∂X), q the centre:
 *    every boundary piece of X contributes in closed form —
 *     - the part inside D is unchanged (a segment: the triangle terms of 3),
 *     - a part outside D becomes an arc of ∂D from direction â to direction b̂ sweeping s:
 *           A = ½ r² s,        M = ⅓ r³ ∫ u(φ) dφ = ⅓ r³ (b̂_y − â_y, â_x − b̂_x),
 *       where s is the angle swept about q. A straight piece outside D does not contain q, so it
 *       subtends less than π and s = atan2(â × b̂, â · b̂) exactly.
 *    For a polygon X = P this is the classic "sum over the edges of the signed areas of circle ∩
 *    triangle(centre, edge)": an edge crossing the circle splits at the roots t of
 *    |a + t(b − a) − q|² = r² into outside / inside / outside parts.
 *
 * 5. Two discs D_A, D_B (a circle fluid meeting a rounded corner, or two rounded shapes). The
 *    curve π_A∘∂P has winding number [z ∈ D_A ∩ P], so by 4 with D_B,
 *    area(D_B ∩ D_A ∩ P) = A(π_B∘π_A∘∂P) about q_B. The pieces of π_A∘∂P are segments and arcs
 *    of circle A, each sweeping |Δ| < π (by 4). An arc (centre c, radius R, from p_s to p_e by Δ)
 *    is split where it crosses circle B: on circle c, u(φ)·(c − q_B) ≤ (r_B² − |c − q_B|² − R²)/(2R)
 *    is the inside condition, so the crossings are at φ = ψ ± acos(k/|c − q_B|), ψ the direction of
 *    c − q_B. Then
 *     - a sub-arc inside D_B contributes triangle(q_B, p_s, p_e) plus the circular segment between
 *       the chord and the arc: A = ½ R² (Δ − sin Δ) and, about c, M = (2/3) R³ sin³(Δ/2)·u(mid)
 *       = |k|² (k_y, −k_x) / 12 with the chord k = p_e − p_s = 2R sin(Δ/2)·perp(u(mid)) (signs
 *       follow Δ, so a clockwise arc subtracts);
 *     - a sub-arc outside D_B becomes an arc of circle B (the sector terms of 4). The swept angle
 *       s about q_B: from q_B outside circle c the whole circle is seen within less than π, so
 *       atan2 is exact; from q_B inside circle c the direction turns monotonically with the sign
 *       of Δ, and by less than π + |Δ|/2 < 3π/2 (the angle subtended by an arc from an interior
 *       point is harmonic in that point, so it is largest on the circle: |Δ|/2 or π + |Δ|/2),
 *       so atan2's value is corrected by ±2π when its sign is wrong and it exceeds π/2. (With P
 *       confined to a kite or square of its disc that correction seems never to be needed — a
 *       search over 400 000 random pairs never triggered it — but it is what keeps the formula
 *       right in general, so it stays.)
 *
 * 6. Circle ∩ circle has a closed form and skips all of the above: centres c1, c2 at distance d,
 *    the common chord is at a = (d² + r1² − r2²)/(2d) from c1, half-length h = √(r1² − a²); the
 *    lens is two circular segments, A1 = r1² acos(a/r1) − a h and A2 = r2² acos((d − a)/r2) −
 *    (d − a) h. Their first moments about their own centres are ±(2/3) h³ along c1 → c2 and
 *    cancel, so the centroid is c1 + (c2 − c1)·A2 / (A1 + A2). Containment and disjointness are
 *    the obvious limits.
 *
 * Moments are accumulated about a reference point near the body (its AABB centre) so precision
 * does not depend on the distance from the world origin. The final centroid is clamped to the
 * overlap of the two AABBs (where the true centroid always is) so that a vanishing intersection
 * whose area is pure rounding noise cannot report a far-away point.
 */
import type { Circle } from '../shape/circle.js';
import type { PolyShape } from '../shape/poly-shape.js';
import type { Shape } from '../shape/shape.js';

/** Caller-owned output of `submergedArea`. */
export interface SubmergedArea {
  /** Area of fluid ∩ body (m²), ≥ 0. */
  area: number;
  /** World centroid of fluid ∩ body; the body shape's own world centre when the area is 0. */
  cx: number;
  cy: number;
}

/** Most vertices a clipped polygon may have (convex ∩ convex has at most 64 + 64). */
const MAX_CLIP_VERTICES = 512;

/** One convex piece of a shape: a CCW convex polygon, intersected with a disc when discR > 0. */
class Piece {
  /** x, y interleaved: either `own` or a shape's worldVerts (never written through). */
  verts: Float64Array;
  count = 0;
  readonly own = new Float64Array(8);
  discX = 0;
  discY = 0;
  /** 0: no disc. */
  discR = 0;
  /** With a disc: the angle of the sector that polygon ∩ disc is (2π for a whole disc), and its unit bisector. */
  sectorAngle = 0;
  bisectorX = 0;
  bisectorY = 0;
  minX = 0;
  minY = 0;
  maxX = 0;
  maxY = 0;
  constructor() {
    this.verts = this.own;
  }
}

const fluidPiece = new Piece();
const bodyPiece = new Piece();
let clipBufA = new Float64Array(2 * MAX_CLIP_VERTICES);
let clipBufB = new Float64Array(2 * MAX_CLIP_VERTICES);

// Accumulated area and first moment about (refX, refY).
let accArea = 0;
let accMx = 0;
let accMy = 0;
let refX = 0;
let refY = 0;

// Result of splitSegment.
let splitT0 = 0;
let splitT1 = 0;

/**
 * Area and centroid of the part of `body` inside `fluid`. Both shapes' world caches must be
 * current. Any shape kinds work; a Segment (either role) has no area and gives 0.
 */
export function submergedArea(fluid: Shape, body: Shape, out: SubmergedArea): SubmergedArea {
  if (!hasArea(fluid) || !hasArea(body) || !aabbsOverlap(fluid, body)) return writeEmpty(out, body);
  if (fluid.kind === 'circle' && body.kind === 'circle') return circleCircle(fluid as Circle, body as Circle, out);

  accArea = 0;
  accMx = 0;
  accMy = 0;
  refX = 0.5 * (body.aabbMinX + body.aabbMaxX);
  refY = 0.5 * (body.aabbMinY + body.aabbMaxY);
  const fluidPieces = pieceCount(fluid);
  const bodyPieces = pieceCount(body);
  for (let f = 0; f < fluidPieces; f++) {
    loadPiece(fluid, f, fluidPiece);
    if (fluidPiece.count < 3 || !pieceOverlapsBox(fluidPiece, body.aabbMinX, body.aabbMinY, body.aabbMaxX, body.aabbMaxY)) continue;
    for (let b = 0; b < bodyPieces; b++) {
      loadPiece(body, b, bodyPiece);
      if (bodyPiece.count < 3 || !pieceOverlapsBox(bodyPiece, fluidPiece.minX, fluidPiece.minY, fluidPiece.maxX, fluidPiece.maxY)) continue;
      addPiecePair(bodyPiece, fluidPiece);
    }
  }
  if (!(accArea > 0)) return writeEmpty(out, body);
  out.area = accArea;
  out.cx = clamp(refX + accMx / accArea, Math.max(fluid.aabbMinX, body.aabbMinX), Math.min(fluid.aabbMaxX, body.aabbMaxX));
  out.cy = clamp(refY + accMy / accArea, Math.max(fluid.aabbMinY, body.aabbMinY), Math.min(fluid.aabbMaxY, body.aabbMaxY));
  return out;
}

// ------------------------------------------------------------------ shapes and pieces

function hasArea(s: Shape): boolean {
  if (s.kind === 'circle') return true;
  const p = s as PolyShape;
  return p.count >= 3 || p.radius > 0;
}

function aabbsOverlap(a: Shape, b: Shape): boolean {
  return a.aabbMinX <= b.aabbMaxX && b.aabbMinX <= a.aabbMaxX && a.aabbMinY <= b.aabbMaxY && b.aabbMinY <= a.aabbMaxY;
}

function writeEmpty(out: SubmergedArea, body: Shape): SubmergedArea {
  out.area = 0;
  if (body.kind === 'circle') {
    out.cx = (body as Circle).wx;
    out.cy = (body as Circle).wy;
  } else {
    out.cx = (body as PolyShape).wcx;
    out.cy = (body as PolyShape).wcy;
  }
  return out;
}

function clamp(v: number, lo: number, hi: number): number {
  return v < lo ? lo : v > hi ? hi : v;
}

/** Number of pieces (section 1): circle 1; sharp polygon 1; rounded core (core?) + edges + corners. */
function pieceCount(s: Shape): number {
  if (s.kind === 'circle') return 1;
  const p = s as PolyShape;
  const core = p.count >= 3 ? 1 : 0;
  return p.radius > 0 ? core + 2 * p.count : core;
}

/** Piece `index` of shape `s` (0 ≤ index < pieceCount(s)): core, then edge rectangles, then corners. */
function loadPiece(s: Shape, index: number, piece: Piece): void {
  if (s.kind === 'circle') {
    loadCirclePiece(s as Circle, piece);
    return;
  }
  const p = s as PolyShape;
  const core = p.count >= 3 ? 1 : 0;
  if (index < core) loadCorePiece(p, piece);
  else if (index < core + p.count) loadEdgePiece(p, index - core, piece);
  else loadCornerPiece(p, index - core - p.count, piece);
}

function loadCirclePiece(c: Circle, piece: Piece): void {
  const r = c.radius;
  const o = piece.own;
  o[0] = c.wx - r;
  o[1] = c.wy - r;
  o[2] = c.wx + r;
  o[3] = c.wy - r;
  o[4] = c.wx + r;
  o[5] = c.wy + r;
  o[6] = c.wx - r;
  o[7] = c.wy + r;
  setPolygon(piece, o, 4);
  setDisc(piece, c.wx, c.wy, r, 2 * Math.PI, 1, 0);
}

function loadCorePiece(p: PolyShape, piece: Piece): void {
  setPolygon(piece, p.worldVerts, p.count);
  piece.discR = 0;
}

/** Edge i's rectangle: a, a + r·n, b + r·n, b (CCW, since n points to the edge's right). */
function loadEdgePiece(p: PolyShape, i: number, piece: Piece): void {
  const v = p.worldVerts;
  const j = i + 1 < p.count ? i + 1 : 0;
  const r = p.radius;
  const nx = r * p.worldNormals[2 * i]!;
  const ny = r * p.worldNormals[2 * i + 1]!;
  const o = piece.own;
  o[0] = v[2 * i]!;
  o[1] = v[2 * i + 1]!;
  o[2] = v[2 * i]! + nx;
  o[3] = v[2 * i + 1]! + ny;
  o[4] = v[2 * j]! + nx;
  o[5] = v[2 * j + 1]! + ny;
  o[6] = v[2 * j]!;
  o[7] = v[2 * j + 1]!;
  setPolygon(piece, o, 4);
  piece.discR = 0;
}

/** Corner i's sector as disc(v, r) ∩ kite (section 1). */
function loadCornerPiece(p: PolyShape, i: number, piece: Piece): void {
  const n = p.count;
  const nn = p.worldNormals;
  const prev = i > 0 ? i - 1 : n - 1;
  const px = nn[2 * prev]!;
  const py = nn[2 * prev + 1]!;
  const qx = nn[2 * i]!;
  const qy = nn[2 * i + 1]!;
  // Exterior angle, turning CCW from the previous normal (abs: see shape/mass.ts).
  const theta = Math.atan2(Math.abs(px * qy - py * qx), px * qx + py * qy);
  if (!(theta > 0)) {
    piece.count = 0;
    return;
  }
  const ch = Math.cos(0.5 * theta);
  const sh = Math.sin(0.5 * theta);
  const mx = ch * px - sh * py;
  const my = sh * px + ch * py;
  const r = p.radius;
  const rho = r / Math.cos(0.25 * theta);
  const vx = p.worldVerts[2 * i]!;
  const vy = p.worldVerts[2 * i + 1]!;
  const o = piece.own;
  o[0] = vx;
  o[1] = vy;
  o[2] = vx + rho * px;
  o[3] = vy + rho * py;
  o[4] = vx + rho * mx;
  o[5] = vy + rho * my;
  o[6] = vx + rho * qx;
  o[7] = vy + rho * qy;
  setPolygon(piece, o, 4);
  setDisc(piece, vx, vy, r, theta, mx, my);
}

function setPolygon(piece: Piece, verts: Float64Array, count: number): void {
  piece.verts = verts;
  piece.count = count;
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < count; i++) {
    const x = verts[2 * i]!;
    const y = verts[2 * i + 1]!;
    if (x < minX) minX = x;
    if (x > maxX) maxX = x;
    if (y < minY) minY = y;
    if (y > maxY) maxY = y;
  }
  piece.minX = minX;
  piece.minY = minY;
  piece.maxX = maxX;
  piece.maxY = maxY;
}

function setDisc(piece: Piece, x: number, y: number, r: number, angle: number, bisectorX: number, bisectorY: number): void {
  piece.discX = x;
  piece.discY = y;
  piece.discR = r;
  piece.sectorAngle = angle;
  piece.bisectorX = bisectorX;
  piece.bisectorY = bisectorY;
}

function pieceOverlapsBox(p: Piece, minX: number, minY: number, maxX: number, maxY: number): boolean {
  return p.minX <= maxX && minX <= p.maxX && p.minY <= maxY && minY <= p.maxY;
}

/** Add area/moment of body piece ∩ fluid piece: clip the polygons, then 0, 1 or 2 discs. */
function addPiecePair(b: Piece, f: Piece): void {
  const m = clipConvex(b.verts, b.count, f.verts, f.count);
  if (m < 3) return;
  const poly = clipBufA;
  // A disc that contains all of P (convex: all its vertices) changes nothing and is dropped.
  const fluidDisc = f.discR > 0 && !discContainsPolygon(poly, m, f.discX, f.discY, f.discR);
  const bodyDisc = b.discR > 0 && !discContainsPolygon(poly, m, b.discX, b.discY, b.discR);
  if (bodyDisc && fluidDisc) addPolygonInTwoDiscs(poly, m, f.discX, f.discY, f.discR, b.discX, b.discY, b.discR);
  else if (bodyDisc && !clipCut) addWholeSector(b); // P is the body piece's own polygon: its sector or disc
  else if (bodyDisc) addPolygonInDisc(poly, m, b.discX, b.discY, b.discR);
  else if (fluidDisc) addPolygonInDisc(poly, m, f.discX, f.discY, f.discR);
  else addPolygon(poly, m);
}

function discContainsPolygon(v: Float64Array, n: number, qx: number, qy: number, r: number): boolean {
  const rr = r * r;
  for (let i = 0; i < n; i++) {
    const dx = v[2 * i]! - qx;
    const dy = v[2 * i + 1]! - qy;
    if (dx * dx + dy * dy > rr) return false;
  }
  return true;
}

// ------------------------------------------------------------------ Sutherland–Hodgman (section 2)

/** Set by clipConvex: false when no subject vertex was strictly outside the clipper (result = subject). */
let clipCut = false;

/** Clip `subject` by every edge of the convex CCW `clipper`; the result is left in clipBufA. */
function clipConvex(subject: Float64Array, subjectCount: number, clipper: Float64Array, clipperCount: number): number {
  for (let i = 0; i < 2 * subjectCount; i++) clipBufA[i] = subject[i]!;
  let count = subjectCount;
  clipCut = false;
  for (let e = 0; e < clipperCount && count >= 3; e++) {
    const j = e + 1 < clipperCount ? e + 1 : 0;
    const ax = clipper[2 * e]!;
    const ay = clipper[2 * e + 1]!;
    count = clipByLine(clipBufA, count, clipBufB, ax, ay, clipper[2 * j]! - ax, clipper[2 * j + 1]! - ay);
    const t = clipBufA;
    clipBufA = clipBufB;
    clipBufB = t;
  }
  return count >= 3 ? count : 0;
}

/** Keep the part of polygon `src` on or left of the line through a with direction e. */
function clipByLine(src: Float64Array, count: number, dst: Float64Array, ax: number, ay: number, ex: number, ey: number): number {
  let m = 0;
  let px = src[2 * count - 2]!;
  let py = src[2 * count - 1]!;
  let sp = ex * (py - ay) - ey * (px - ax); // > 0: left (inside)
  for (let i = 0; i < count; i++) {
    const qx = src[2 * i]!;
    const qy = src[2 * i + 1]!;
    const sq = ex * (qy - ay) - ey * (qx - ax);
    if ((sp < 0 && sq > 0) || (sp > 0 && sq < 0)) {
      if (m < MAX_CLIP_VERTICES) {
        const t = sp / (sp - sq);
        dst[2 * m] = px + t * (qx - px);
        dst[2 * m + 1] = py + t * (qy - py);
        m++;
      }
    }
    if (sq >= 0 && m < MAX_CLIP_VERTICES) {
      dst[2 * m] = qx;
      dst[2 * m + 1] = qy;
      m++;
    } else if (sq < 0) clipCut = true;
    px = qx;
    py = qy;
    sp = sq;
  }
  return m;
}

// ------------------------------------------------------------------ accumulation (sections 3–5)

/** Add area `a` with first moment (mx, my) about the point (px, py). */
function accumulate(a: number, mx: number, my: number, px: number, py: number): void {
  accArea += a;
  accMx += mx + a * (px - refX);
  accMy += my + a * (py - refY);
}

/**
 * A piece's whole sector (a whole disc when the angle is 2π): area ½ r² θ, first moment about the
 * apex (2/3) r³ sin(θ/2) along the bisector (the moment of a sector; 0 for a whole disc).
 */
function addWholeSector(p: Piece): void {
  const r = p.discR;
  const k = p.sectorAngle < 2 * Math.PI ? (2 / 3) * r * r * r * Math.sin(0.5 * p.sectorAngle) : 0;
  accumulate(0.5 * r * r * p.sectorAngle, k * p.bisectorX, k * p.bisectorY, p.discX, p.discY);
}

/** Fan triangle (q, q + a, q + b): a, b relative to q. */
function addTriangle(qx: number, qy: number, ax: number, ay: number, bx: number, by: number): void {
  const cr = ax * by - ay * bx;
  accumulate(0.5 * cr, ((ax + bx) * cr) / 6, ((ay + by) * cr) / 6, qx, qy);
}

/** Sector of the disc (q, r) from direction a to direction b (relative to q, nonzero), sweeping s. */
function addSector(qx: number, qy: number, r: number, ax: number, ay: number, bx: number, by: number, s: number): void {
  const la = Math.sqrt(ax * ax + ay * ay);
  const lb = Math.sqrt(bx * bx + by * by);
  const k = (r * r * r) / 3;
  accumulate(0.5 * r * r * s, k * (by / lb - ay / la), k * (ax / la - bx / lb), qx, qy);
}

/** Fan from q to the arc of circle (c, R) from point a to point b sweeping delta: triangle + circular segment. */
function addArcFan(qx: number, qy: number, cx: number, cy: number, R: number, ax: number, ay: number, bx: number, by: number, delta: number): void {
  addTriangle(qx, qy, ax - qx, ay - qy, bx - qx, by - qy);
  const kx = bx - ax;
  const ky = by - ay;
  const kk = kx * kx + ky * ky;
  accumulate(0.5 * R * R * (delta - Math.sin(delta)), (kk * ky) / 12, (-kk * kx) / 12, cx, cy);
}

/** Signed angle from a to b, in (−π, π]. */
function angleBetween(ax: number, ay: number, bx: number, by: number): number {
  return Math.atan2(ax * by - ay * bx, ax * bx + ay * by);
}

function wrapAngle(a: number): number {
  if (a > Math.PI) a -= 2 * Math.PI;
  if (a > Math.PI) a -= 2 * Math.PI;
  if (a <= -Math.PI) a += 2 * Math.PI;
  if (a <= -Math.PI) a += 2 * Math.PI;
  return a;
}

/**
 * The part of the segment u + t·d (t ∈ [0, 1], u relative to the centre) inside the circle of
 * radius r: true and [splitT0, splitT1] when it has positive length.
 */
function splitSegment(ux: number, uy: number, dx: number, dy: number, r: number): boolean {
  const a = dx * dx + dy * dy;
  const b = ux * dx + uy * dy;
  const c = ux * ux + uy * uy - r * r;
  const disc = b * b - a * c;
  if (!(disc > 0)) return false; // misses, touches, or has zero length (a = 0 gives disc = 0)
  const s = Math.sqrt(disc);
  const t0 = (-b - s) / a;
  const t1 = (-b + s) / a;
  splitT0 = t0 > 0 ? t0 : 0;
  splitT1 = t1 < 1 ? t1 : 1;
  return splitT0 < splitT1;
}

/** Sum of the sections 3/4 terms over the edges of a convex polygon: its own area and moment. */
function addPolygon(v: Float64Array, n: number): void {
  const rx = v[0]!;
  const ry = v[1]!;
  for (let i = 1; i < n - 1; i++) addTriangle(rx, ry, v[2 * i]! - rx, v[2 * i + 1]! - ry, v[2 * i + 2]! - rx, v[2 * i + 3]! - ry);
}

/** Polygon ∩ disc (q, r): section 4 over the polygon's edges. */
function addPolygonInDisc(v: Float64Array, n: number, qx: number, qy: number, r: number): void {
  for (let i = 0; i < n; i++) {
    const j = i + 1 < n ? i + 1 : 0;
    addSegmentInDisc(v[2 * i]!, v[2 * i + 1]!, v[2 * j]!, v[2 * j + 1]!, qx, qy, r);
  }
}

/** The image of the directed segment a → b under the radial clamp onto disc (q, r) (section 4). */
function addSegmentInDisc(ax: number, ay: number, bx: number, by: number, qx: number, qy: number, r: number): void {
  const ux = ax - qx;
  const uy = ay - qy;
  const vx = bx - qx;
  const vy = by - qy;
  const dx = bx - ax;
  const dy = by - ay;
  if (dx === 0 && dy === 0) return;
  if (!splitSegment(ux, uy, dx, dy, r)) {
    addSector(qx, qy, r, ux, uy, vx, vy, angleBetween(ux, uy, vx, vy));
    return;
  }
  const t0 = splitT0;
  const t1 = splitT1;
  const p0x = ux + t0 * dx;
  const p0y = uy + t0 * dy;
  const p1x = t1 === 1 ? vx : ux + t1 * dx;
  const p1y = t1 === 1 ? vy : uy + t1 * dy;
  if (t0 > 0) addSector(qx, qy, r, ux, uy, p0x, p0y, angleBetween(ux, uy, p0x, p0y));
  addTriangle(qx, qy, p0x, p0y, p1x, p1y);
  if (t1 < 1) addSector(qx, qy, r, p1x, p1y, vx, vy, angleBetween(p1x, p1y, vx, vy));
}

/** Polygon ∩ disc A ∩ disc B (section 5): clamp each edge onto A, then the pieces onto B. */
function addPolygonInTwoDiscs(v: Float64Array, n: number, ax: number, ay: number, ar: number, bx: number, by: number, br: number): void {
  for (let i = 0; i < n; i++) {
    const j = i + 1 < n ? i + 1 : 0;
    addClampedSegmentInDisc(v[2 * i]!, v[2 * i + 1]!, v[2 * j]!, v[2 * j + 1]!, ax, ay, ar, bx, by, br);
  }
}

/** The directed segment p → s clamped onto disc A (centre c, radius R), then clamped onto disc B. */
function addClampedSegmentInDisc(
  px: number,
  py: number,
  sx: number,
  sy: number,
  cx: number,
  cy: number,
  R: number,
  qx: number,
  qy: number,
  r: number,
): void {
  const dx = sx - px;
  const dy = sy - py;
  if (dx === 0 && dy === 0) return;
  const ux = px - cx;
  const uy = py - cy;
  if (!splitSegment(ux, uy, dx, dy, R)) {
    addClampedArcInDisc(cx, cy, R, px, py, sx, sy, qx, qy, r);
    return;
  }
  const t0 = splitT0;
  const t1 = splitT1;
  const p0x = px + t0 * dx;
  const p0y = py + t0 * dy;
  const p1x = t1 === 1 ? sx : px + t1 * dx;
  const p1y = t1 === 1 ? sy : py + t1 * dy;
  if (t0 > 0) addClampedArcInDisc(cx, cy, R, px, py, p0x, p0y, qx, qy, r);
  addSegmentInDisc(p0x, p0y, p1x, p1y, qx, qy, r);
  if (t1 < 1) addClampedArcInDisc(cx, cy, R, p1x, p1y, sx, sy, qx, qy, r);
}

/**
 * A straight piece a → b outside (or on) circle (c, R) is clamped onto that circle: an arc from
 * the projection of a to the projection of b, sweeping less than π. Clamp that arc onto disc (q, r).
 */
function addClampedArcInDisc(cx: number, cy: number, R: number, ax: number, ay: number, bx: number, by: number, qx: number, qy: number, r: number): void {
  const ux = ax - cx;
  const uy = ay - cy;
  const vx = bx - cx;
  const vy = by - cy;
  const delta = angleBetween(ux, uy, vx, vy);
  if (delta === 0) return;
  const lu = R / Math.sqrt(ux * ux + uy * uy);
  const lv = R / Math.sqrt(vx * vx + vy * vy);
  addArcInDisc(cx, cy, R, cx + lu * ux, cy + lu * uy, cx + lv * vx, cy + lv * vy, delta, qx, qy, r);
}

/**
 * The arc of circle (c, R) from point s to point e sweeping delta (|delta| < π), clamped onto
 * disc (q, r): split where it crosses circle q, then each sub-arc inside is a fan to the arc and
 * each sub-arc outside a sector of disc q (section 5).
 */
function addArcInDisc(
  cx: number,
  cy: number,
  R: number,
  sx: number,
  sy: number,
  ex: number,
  ey: number,
  delta: number,
  qx: number,
  qy: number,
  r: number,
): void {
  const dx = cx - qx;
  const dy = cy - qy;
  const dist = Math.sqrt(dx * dx + dy * dy);
  const phiS = Math.atan2(sy - cy, sx - cx);
  // Crossing parameters t ∈ (0, 1) along the arc (at most two).
  let tA = 1;
  let tB = 1;
  const k = (r * r - dist * dist - R * R) / (2 * R);
  if (dist > 0 && k > -dist && k < dist) {
    const psi = Math.atan2(dy, dx);
    const w = Math.acos(k / dist);
    const t1 = wrapAngle(psi + w - phiS) / delta;
    const t2 = wrapAngle(psi - w - phiS) / delta;
    const in1 = t1 > 0 && t1 < 1;
    const in2 = t2 > 0 && t2 < 1;
    if (in1 && in2) {
      tA = Math.min(t1, t2);
      tB = Math.max(t1, t2);
    } else if (in1) tA = t1;
    else if (in2) tA = t2;
  }
  const qInsideCircle = dist <= R;
  let t0 = 0;
  let x0 = sx;
  let y0 = sy;
  for (let piece = 0; piece < 3 && t0 < 1; piece++) {
    const t1 = piece === 0 ? tA : piece === 1 ? tB : 1;
    if (!(t1 > t0)) continue;
    const phi1 = phiS + t1 * delta;
    const x1 = t1 === 1 ? ex : cx + R * Math.cos(phi1);
    const y1 = t1 === 1 ? ey : cy + R * Math.sin(phi1);
    const phiM = phiS + 0.5 * (t0 + t1) * delta;
    const mx = cx + R * Math.cos(phiM) - qx;
    const my = cy + R * Math.sin(phiM) - qy;
    if (mx * mx + my * my <= r * r) {
      addArcFan(qx, qy, cx, cy, R, x0, y0, x1, y1, (t1 - t0) * delta);
    } else {
      let s = angleBetween(x0 - qx, y0 - qy, x1 - qx, y1 - qy);
      if (qInsideCircle) {
        if (delta > 0 && s < -0.5 * Math.PI) s += 2 * Math.PI;
        else if (delta < 0 && s > 0.5 * Math.PI) s -= 2 * Math.PI;
      }
      addSector(qx, qy, r, x0 - qx, y0 - qy, x1 - qx, y1 - qy, s);
    }
    t0 = t1;
    x0 = x1;
    y0 = y1;
  }
}

// ------------------------------------------------------------------ circle ∩ circle (section 6)

function circleCircle(f: Circle, b: Circle, out: SubmergedArea): SubmergedArea {
  const r1 = f.radius;
  const r2 = b.radius;
  const dx = b.wx - f.wx;
  const dy = b.wy - f.wy;
  const d = Math.sqrt(dx * dx + dy * dy);
  if (d >= r1 + r2) return writeEmpty(out, b);
  if (d <= Math.abs(r1 - r2)) {
    const small = r1 < r2 ? f : b;
    out.area = Math.PI * small.radius * small.radius;
    out.cx = small.wx;
    out.cy = small.wy;
    return out;
  }
  const a = (d * d + r1 * r1 - r2 * r2) / (2 * d);
  const h = Math.sqrt(Math.max(0, r1 * r1 - a * a));
  const a1 = r1 * r1 * Math.acos(clamp(a / r1, -1, 1)) - a * h;
  const a2 = r2 * r2 * Math.acos(clamp((d - a) / r2, -1, 1)) - (d - a) * h;
  const area = a1 + a2;
  if (!(area > 0)) return writeEmpty(out, b);
  out.area = area;
  out.cx = f.wx + (dx * a2) / area;
  out.cy = f.wy + (dy * a2) / area;
  return out;
}
