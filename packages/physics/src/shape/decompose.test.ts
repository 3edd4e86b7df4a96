import { describe, expect, it } from 'vitest';
import type { Vec2 } from '../math/vec2.js';
import { mulberry32 } from '../test-support/random.js';
import { decomposeOutline } from './decompose.js';
import { Polygon } from './polygon.js';
import { MAX_POLYGON_VERTICES } from './vertices.js';
import { inputError } from '../test-support/input-error.js';

type P = [number, number];

// ---------------------------------------------------------------------------------------------
// Geometry helpers, independent of the implementation

const toVec = (p: P): Vec2 => ({ x: p[0], y: p[1] });

function signedArea(pts: readonly Vec2[]): number {
  let a = 0;
  for (let i = 0; i < pts.length; i++) {
    const p = pts[i]!;
    const q = pts[(i + 1) % pts.length]!;
    a += p.x * q.y - p.y * q.x;
  }
  return a / 2;
}

function cross(o: Vec2, a: Vec2, b: Vec2): number {
  return (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x);
}

/** Strictly convex and CCW: every corner turns left. */
function isStrictlyConvexCCW(pts: readonly Vec2[]): boolean {
  const n = pts.length;
  for (let i = 0; i < n; i++) if (!(cross(pts[(i + n - 1) % n]!, pts[i]!, pts[(i + 1) % n]!) > 0)) return false;
  return true;
}

/** Even-odd point-in-polygon (any winding). */
function insideOutline(pts: readonly Vec2[], x: number, y: number): boolean {
  let inside = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i++) {
    const a = pts[i]!;
    const b = pts[j]!;
    if (a.y > y !== b.y > y && x < ((b.x - a.x) * (y - a.y)) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

function insideConvex(piece: readonly Vec2[], x: number, y: number): boolean {
  const p = { x, y };
  for (let i = 0; i < piece.length; i++) if (cross(piece[i]!, piece[(i + 1) % piece.length]!, p) <= 0) return false;
  return true;
}

function distToSegment(p: Vec2, a: Vec2, b: Vec2): number {
  const dx = b.x - a.x;
  const dy = b.y - a.y;
  const t = Math.max(0, Math.min(1, ((p.x - a.x) * dx + (p.y - a.y) * dy) / (dx * dx + dy * dy)));
  return Math.hypot(p.x - a.x - t * dx, p.y - a.y - t * dy);
}

function distToBoundary(pts: readonly Vec2[], p: Vec2): number {
  let d = Infinity;
  for (let i = 0; i < pts.length; i++) d = Math.min(d, distToSegment(p, pts[i]!, pts[(i + 1) % pts.length]!));
  return d;
}

/** Sutherland–Hodgman: `subject` clipped to the convex CCW `clip`. */
function clipConvex(subject: readonly Vec2[], clip: readonly Vec2[]): Vec2[] {
  let out = subject.slice();
  for (let i = 0; i < clip.length && out.length > 0; i++) {
    const a = clip[i]!;
    const b = clip[(i + 1) % clip.length]!;
    const input = out;
    out = [];
    for (let k = 0; k < input.length; k++) {
      const p = input[k]!;
      const q = input[(k + 1) % input.length]!;
      const dp = cross(a, b, p);
      const dq = cross(a, b, q);
      if (dp >= 0) out.push(p);
      if ((dp >= 0) !== (dq >= 0)) {
        const t = dp / (dp - dq);
        out.push({ x: p.x + t * (q.x - p.x), y: p.y + t * (q.y - p.y) });
      }
    }
  }
  return out;
}

function bounds(pts: readonly Vec2[]): { minX: number; minY: number; maxX: number; maxY: number } {
  const xs = pts.map((p) => p.x);
  const ys = pts.map((p) => p.y);
  return { minX: Math.min(...xs), minY: Math.min(...ys), maxX: Math.max(...xs), maxY: Math.max(...ys) };
}

/** Reflex corners of the outline (collinear ones are neither). */
function reflexCount(pts: readonly Vec2[]): number {
  const s = Math.sign(signedArea(pts));
  const n = pts.length;
  let r = 0;
  for (let i = 0; i < n; i++) {
    const a = pts[(i + n - 1) % n]!;
    const b = pts[i]!;
    const c = pts[(i + 1) % n]!;
    const sine = (s * cross(a, b, c)) / (Math.hypot(b.x - a.x, b.y - a.y) * Math.hypot(c.x - b.x, c.y - b.y));
    if (sine < -1e-9) r++;
  }
  return r;
}

/**
 * Every property a decomposition must have: strictly convex CCW pieces of 3..64 input vertices,
 * areas adding up, no overlaps, and every sampled point inside the outline in exactly one piece
 * (outside: in none), away from a thin band around the edges.
 */
function expectValidDecomposition(outline: readonly Vec2[], pieces: readonly Vec2[][], seed: number): void {
  const total = Math.abs(signedArea(outline));
  const box = bounds(outline);
  const size = Math.max(box.maxX - box.minX, box.maxY - box.minY);
  const inputPoints = new Set(outline.map((p) => `${p.x},${p.y}`));

  expect(pieces.length).toBeGreaterThan(0);
  let sum = 0;
  for (const piece of pieces) {
    expect(piece.length).toBeGreaterThanOrEqual(3);
    expect(piece.length).toBeLessThanOrEqual(MAX_POLYGON_VERTICES);
    expect(isStrictlyConvexCCW(piece)).toBe(true);
    for (const p of piece) expect(inputPoints.has(`${p.x},${p.y}`)).toBe(true); // no Steiner points
    sum += signedArea(piece);
  }
  expect(Math.abs(sum - total) / total).toBeLessThan(1e-9);

  const boxes = pieces.map(bounds);
  let overlap = 0;
  for (let i = 0; i < pieces.length; i++) {
    for (let j = i + 1; j < pieces.length; j++) {
      const a = boxes[i]!;
      const b = boxes[j]!;
      if (a.maxX < b.minX || b.maxX < a.minX || a.maxY < b.minY || b.maxY < a.minY) continue;
      const common = clipConvex(pieces[i]!, pieces[j]!);
      if (common.length >= 3) overlap += Math.abs(signedArea(common));
    }
  }
  expect(overlap / total).toBeLessThan(1e-9);

  const rng = mulberry32(seed);
  const band = 1e-7 * size;
  let tested = 0;
  for (let k = 0; k < 400; k++) {
    const p = { x: box.minX + rng() * (box.maxX - box.minX), y: box.minY + rng() * (box.maxY - box.minY) };
    if (distToBoundary(outline, p) < band || pieces.some((piece) => distToBoundary(piece, p) < band)) continue;
    const count = pieces.filter((piece) => insideConvex(piece, p.x, p.y)).length;
    expect(count).toBe(insideOutline(outline, p.x, p.y) ? 1 : 0);
    tested++;
  }
  expect(tested).toBeGreaterThan(300);
}

/** Decompose through the public API (so every piece has passed `new Polygon`) and check it. */
function decomposeAndCheck(outline: readonly P[], seed = 1): Vec2[][] {
  const pieces = Polygon.decompose(outline).map((p) => p.vertices);
  expectValidDecomposition(outline.map(toVec), pieces, seed);
  return pieces;
}


/** Same cycle up to rotation of the start. */
function sameCycle(a: readonly Vec2[], b: readonly Vec2[]): boolean {
  if (a.length !== b.length) return false;
  const k = b.findIndex((p) => p.x === a[0]!.x && p.y === a[0]!.y);
  return k >= 0 && a.every((p, i) => p.x === b[(k + i) % b.length]!.x && p.y === b[(k + i) % b.length]!.y);
}

// ---------------------------------------------------------------------------------------------
// Outlines

/** Star-shaped about the origin: random radii at sorted angles (random gaps), so always simple. */
function randomStar(rng: () => number, n: number, rMin = 0.3, rMax = 2): P[] {
  const gaps = Array.from({ length: n }, () => 0.2 + rng());
  const total = gaps.reduce((s, g) => s + g, 0);
  const pts: P[] = [];
  let angle = 2 * Math.PI * rng();
  for (let i = 0; i < n; i++) {
    const r = rMin + (rMax - rMin) * rng();
    pts.push([r * Math.cos(angle), r * Math.sin(angle)]);
    angle += (2 * Math.PI * gaps[i]!) / total;
  }
  return pts;
}

/** Convex: sorted random angles on an ellipse. */
function randomConvex(rng: () => number, n: number): P[] {
  const star = randomStar(rng, n, 1, 1);
  return star.map(([x, y]) => [3 * x + 0.5, 1.5 * y - 2] as P);
}

const L_SHAPE: P[] = [[0, 0], [2, 0], [2, 1], [1, 1], [1, 2], [0, 2]];
const U_SHAPE: P[] = [[0, 0], [3, 0], [3, 3], [2, 3], [2, 1], [1, 1], [1, 3], [0, 3]];

/** A base with `teeth` upward teeth of width 1 and gaps of width 1. */
function comb(teeth: number): P[] {
  const w = 2 * teeth - 1;
  const pts: P[] = [[0, 0], [w, 0]];
  for (let i = teeth - 1; i >= 0; i--) {
    pts.push([2 * i + 1, 3], [2 * i, 3]);
    if (i > 0) pts.push([2 * i, 1], [2 * i - 1, 1]);
  }
  return pts;
}

/** A strip along an Archimedean spiral, two turns: outer arm out, inner arm back. */
function spiral(samples: number): P[] {
  const outer: P[] = [];
  const inner: P[] = [];
  for (let k = 0; k < samples; k++) {
    const t = (4 * Math.PI * k) / (samples - 1);
    const ro = 2 + 0.5 * t;
    const ri = 1 + 0.5 * t;
    outer.push([ro * Math.cos(t), ro * Math.sin(t)]);
    inner.push([ri * Math.cos(t), ri * Math.sin(t)]);
  }
  return [...outer, ...inner.reverse()];
}

/** 200 vertices: 180 random-walk heights on top, a flat bottom carrying 20 collinear points. */
function terrain(rng: () => number): P[] {
  const top: P[] = [];
  let h = 5;
  for (let i = 0; i < 180; i++) {
    h = Math.max(1, h + (rng() - 0.5) * 1.5);
    top.push([i * 0.5, h]);
  }
  const width = 179 * 0.5;
  const bottom: P[] = Array.from({ length: 20 }, (_, k) => [(k * width) / 19, 0] as P);
  return [...bottom, ...top.reverse()];
}

// ---------------------------------------------------------------------------------------------

describe('Polygon.decompose: hand-made outlines', () => {
  it('L shape: 2 or 3 convex pieces (one reflex vertex)', () => {
    const pieces = decomposeAndCheck(L_SHAPE);
    expect(pieces.length).toBeGreaterThanOrEqual(2);
    expect(pieces.length).toBeLessThanOrEqual(3);
  });

  it('U shape, comb, spiral: within the Hertel–Mehlhorn bounds', () => {
    for (const outline of [U_SHAPE, comb(6), comb(20), spiral(60)]) {
      const pieces = decomposeAndCheck(outline);
      const r = reflexCount(outline.map(toVec));
      // any convex partition needs ⌈r/2⌉ + 1 pieces; Hertel–Mehlhorn gives at most 2r + 1
      expect(pieces.length).toBeGreaterThanOrEqual(Math.ceil(r / 2) + 1);
      expect(pieces.length).toBeLessThanOrEqual(2 * r + 1);
    }
  });

  it('a 200-vertex terrain with a flat, collinear bottom', () => {
    const outline = terrain(mulberry32(7));
    expect(outline.length).toBe(200);
    const pieces = decomposeAndCheck(outline, 7);
    expect(pieces.length).toBeLessThanOrEqual(2 * reflexCount(outline.map(toVec)) + 1);
    // the 18 interior bottom points are collinear: no piece keeps one as a corner
    const interiorBottom = pieces.flat().filter((p) => p.y === 0 && p.x > 0 && p.x < 179 * 0.5);
    expect(interiorBottom).toEqual([]);
  });

  it('a square with collinear midpoints is one piece, the four corners', () => {
    const pieces = decomposeAndCheck([[0, 0], [1, 0], [2, 0], [2, 1], [2, 2], [1, 2], [0, 2], [0, 1]]);
    expect(pieces).toEqual([[{ x: 0, y: 0 }, { x: 2, y: 0 }, { x: 2, y: 2 }, { x: 0, y: 2 }]]);
  });

  it('is deterministic: same outline, same pieces in the same order', () => {
    const outline = terrain(mulberry32(3));
    expect(decomposeOutline('T', 'v', outline)).toEqual(decomposeOutline('T', 'v', outline));
  });
});

describe('Polygon.decompose: random simple outlines', () => {
  it('random star-shaped polygons (5..90 vertices)', () => {
    const rng = mulberry32(20240611);
    for (let trial = 0; trial < 150; trial++) {
      const n = 5 + Math.floor(rng() * 86);
      const outline = randomStar(rng, n);
      const pieces = decomposeAndCheck(outline, trial);
      const r = reflexCount(outline.map(toVec));
      expect(pieces.length).toBeGreaterThanOrEqual(Math.ceil(r / 2) + 1);
      expect(pieces.length).toBeLessThanOrEqual(2 * r + 1);
    }
  });

  it('large random outlines (500 and 2000 vertices) through the pure module', () => {
    const rng = mulberry32(99);
    for (const n of [500, 2000]) {
      const outline = randomStar(rng, n, 1, 3).map(toVec);
      expectValidDecomposition(outline, decomposeOutline('T', 'v', outline), n);
    }
  });

  it('clockwise input gives the same union as counter-clockwise', () => {
    const rng = mulberry32(5);
    for (let trial = 0; trial < 30; trial++) {
      const ccw = randomStar(rng, 8 + Math.floor(rng() * 40));
      const cw = ccw.slice().reverse();
      const a = Polygon.decompose(ccw).map((p) => p.vertices);
      const b = Polygon.decompose(cw).map((p) => p.vertices);
      expectValidDecomposition(cw.map(toVec), b, trial);
      const area = (ps: Vec2[][]): number => ps.reduce((s, p) => s + signedArea(p), 0);
      expect(area(b)).toBeCloseTo(area(a), 12);
      const probe = mulberry32(trial);
      for (let k = 0; k < 200; k++) {
        const x = 4 * probe() - 2;
        const y = 4 * probe() - 2;
        const near = [...a, ...b].some((piece) => distToBoundary(piece, { x, y }) < 1e-9);
        if (near) continue;
        expect(b.some((piece) => insideConvex(piece, x, y))).toBe(a.some((piece) => insideConvex(piece, x, y)));
      }
    }
  });
});

describe('Polygon.decompose: convex input', () => {
  it('returns exactly one piece equal to the input, vertex 0 first', () => {
    const rng = mulberry32(11);
    for (let trial = 0; trial < 40; trial++) {
      const outline = randomConvex(rng, 3 + Math.floor(rng() * 62));
      const pieces = decomposeAndCheck(outline, trial);
      expect(pieces).toEqual([outline.map(toVec)]);
      // clockwise: the same polygon, read backwards from vertex 0 (as the constructor does)
      const cw = [outline[0]!, ...outline.slice(1).reverse()];
      expect(Polygon.decompose(cw).map((p) => p.vertices)).toEqual([outline.map(toVec)]);
    }
  });

  it('a convex outline of more than 64 vertices is split into pieces of at most 64', () => {
    const circle = Array.from({ length: 200 }, (_, k) => [Math.cos((2 * Math.PI * k) / 200), Math.sin((2 * Math.PI * k) / 200)] as P);
    const pieces = decomposeAndCheck(circle);
    // 200 outline vertices, each piece adds at most 62 new ones: at least 4 pieces
    expect(pieces.length).toBeGreaterThanOrEqual(4);
    expect(pieces.every((p) => p.length <= MAX_POLYGON_VERTICES)).toBe(true);
  });

  it('matches what the Polygon constructor makes of the same convex input', () => {
    const outline: P[] = [[0, 0], [0, 1], [1, 1], [1, 0]]; // clockwise
    const [piece] = Polygon.decompose(outline);
    expect(piece!.vertices).toEqual(new Polygon({ vertices: outline }).vertices);
  });
});

describe('Polygon.decompose: options', () => {
  it('every piece takes the options; total mass is density × area', () => {
    const outline = comb(5);
    const pieces = Polygon.decompose(outline, { density: 2, friction: 0.1, filter: { category: 4 } });
    expect(pieces.length).toBeGreaterThan(1);
    for (const p of pieces) {
      expect(p).toBeInstanceOf(Polygon);
      expect(p.density).toBe(2);
      expect(p.friction).toBe(0.1);
      expect(p.filter.category).toBe(4);
    }
    const mass = pieces.reduce((s, p) => s + p.computeMass().mass, 0);
    const area = Math.abs(signedArea(outline.map(toVec)));
    expect(Math.abs(mass - 2 * area) / (2 * area)).toBeLessThan(1e-12);
  });

  it('bad options are rejected with the property named', () => {
    expect(inputError(() => Polygon.decompose(L_SHAPE, { density: NaN })).message).toBe('Polygon.density must be a positive finite number, got NaN');
    const e = inputError(() => Polygon.decompose(L_SHAPE, null as never));
    expect([e.owner, e.prop]).toEqual(['Polygon.decompose', 'options']);
  });
});

describe('Polygon.decompose: bad outlines', () => {
  const cases: [name: string, input: unknown, prop: string, message: string][] = [
    ['not an array', null, 'vertices', 'Polygon.decompose.vertices must be an array of at least 3 points {x, y} or [x, y], got null'],
    ['a string', 'square', 'vertices', 'must be an array of at least 3 points {x, y} or [x, y], got "square"'],
    ['fewer than 3 points', [[0, 0], [1, 0]], 'vertices', 'must have at least 3 vertices (has 2), got [[0, 0], [1, 0]]'],
    ['NaN coordinate', [[0, 0], [1, NaN], [0, 1]], 'vertices[1]', 'Polygon.decompose.vertices[1] must be a vector with finite components, got [1, NaN]'],
    ['Infinity coordinate', [[0, 0], { x: Infinity, y: 0 }, [0, 1]], 'vertices[1]', 'got {x: Infinity, y: 0}'],
    ['not a point', [[0, 0], [1, 2, 3], [0, 1]], 'vertices[1]', 'must be a vector {x, y} or [x, y], got [1, 2, 3]'],
    ['collinear', [[0, 0], [1, 1], [2, 2], [3, 3]], 'vertices', 'must not be collinear (the outline has zero area), got [[0, 0], [1, 1], [2, 2], [3, 3]]'],
    ['near-zero area', [[0, 0], [1, 0], [0.5, 1e-12]], 'vertices', 'must not be collinear (the outline has zero area)'],
    ['repeated point', [[0, 0], [1, 0], [1, 0], [0, 1]], 'vertices[2]', 'must not coincide with vertices[1] (points closer than 0.0025 m), got [1, 0]'],
    ['near-repeated point', [[0, 0], [1, 0], [1.001, 0.001], [0, 1]], 'vertices[2]', 'must not coincide with vertices[1]'],
    ['repeated across the seam', [[0, 0], [1, 0], [0, 1], [0.0001, 0.0001]], 'vertices[3]', 'must not coincide with vertices[0]'],
    ['pinched (two squares sharing a corner)', [[0, 0], [1, 0], [1, 1], [2, 1], [2, 2], [1, 2], [1, 1], [0, 1]], 'vertices[6]', 'must not coincide with vertices[2]'],
    ['bow tie', [[0, 0], [1, 1], [1, 0], [0, 1]], 'vertices', 'must not self-intersect (edge 0→1 crosses edge 2→3)'],
    ['a vertex on another edge', [[0, 0], [2, 0], [2, 2], [1, 0], [0, 2]], 'vertices', 'must not self-intersect (edge 0→1 touches edge 2→3)'],
    ['folding back', [[0, 0], [2, 0], [1, 0], [1, 1]], 'vertices', 'must not fold back on itself (edges 0→1 and 1→2 overlap at vertex 1)'],
    ['a pentagram', [0, 2, 4, 1, 3].map((k) => [Math.cos((2 * Math.PI * k) / 5), Math.sin((2 * Math.PI * k) / 5)]), 'vertices', 'crosses edge'],
  ];

  for (const [name, input, prop, message] of cases) {
    it(name, () => {
      const e = inputError(() => Polygon.decompose(input as P[]));
      expect(e.owner).toBe('Polygon.decompose');
      expect(e.prop).toBe(prop);
      expect(e.message).toContain(message);
    });
  }

  it('a long self-intersecting outline names the two crossing edges', () => {
    const outline = randomStar(mulberry32(1), 100);
    const bad = outline.slice();
    [bad[10], bad[40]] = [bad[40]!, bad[10]!]; // swapping two far-apart vertices makes edges cross
    const e = inputError(() => Polygon.decompose(bad));
    expect(e.message).toMatch(/must not self-intersect \(edge \d+→\d+ (crosses|touches) edge \d+→\d+\)/);
  });
});
