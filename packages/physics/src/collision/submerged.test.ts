/**
 * submergedArea: closed-form cases (flat surfaces, circular segments, lenses, capsules, rounded
 * boxes) to machine precision, and randomised cases against a certified grid estimate.
 *
 * The grid estimate is independent code: signed distances to the shapes' world geometry,
 * rebuilt here from the construction parameters and the body transforms (not from the world
 * caches). It is an adaptive grid: a square cell whose centre is farther than its half-diagonal
 * from the boundary (|sd| > half-diagonal, sd being a 1-Lipschitz signed distance of the
 * intersection, max(sd_fluid, sd_body)) lies wholly inside or outside; other cells are split
 * down to a leaf size, where the centre decides. Only the leaves can be wrong, so their total
 * area is a rigorous bound on the area error and Σ leafArea·(|centre − ref| + halfDiagonal) a
 * rigorous bound on the first-moment error. The tests assert the exact result lies within
 * those bounds and that the bounds are tight (area bound ≤ 1e-3 of the body's area).
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Capsule } from '../shape/capsule.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Segment } from '../shape/segment.js';
import type { Shape } from '../shape/shape.js';
import { Space } from '../space/space.js';
import { mulberry32 } from '../test-support/random.js';
import { submergedArea, type SubmergedArea } from './submerged.js';

// ------------------------------------------------------------------ building shapes

/** A shape on a body in a space (so the engine keeps its world cache), with its body-frame geometry. */
interface Placed {
  shape: Shape;
  body: Body;
  /** Core points in the body frame (1: circle centre, 2: capsule/segment, ≥ 3: CCW polygon). */
  local: number[];
  radius: number;
}

/** World geometry: core points (x, y interleaved) swept by radius. */
interface Geom {
  pts: number[];
  r: number;
}

let space = new Space();
function freshSpace(): void {
  space = new Space();
}

function place(shape: Shape, local: number[], radius: number, x: number, y: number, rotation: number): Placed {
  const body = new Body({ type: 'static', position: { x, y }, rotation, shapes: [shape] });
  space.addBody(body);
  return { shape, body, local, radius };
}

type Pt = [number, number];

/** Body-frame points of shape-frame points under a shape offset and angle. */
function shapeToBody(pts: readonly Pt[], ox: number, oy: number, angle: number): number[] {
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const out: number[] = [];
  for (const [x, y] of pts) out.push(ox + c * x - s * y, oy + s * x + c * y);
  return out;
}

function polygon(pts: Pt[], radius: number, x: number, y: number, rotation: number, ox = 0, oy = 0, angle = 0): Placed {
  const shape = new Polygon({ vertices: pts, radius, offset: { x: ox, y: oy }, angle });
  return place(shape, shapeToBody(pts, ox, oy, angle), radius, x, y, rotation);
}
function box(w: number, h: number, x: number, y: number, rotation = 0, radius = 0): Placed {
  return polygon(
    [
      [-w / 2, -h / 2],
      [w / 2, -h / 2],
      [w / 2, h / 2],
      [-w / 2, h / 2],
    ],
    radius,
    x,
    y,
    rotation,
  );
}
function circle(radius: number, x: number, y: number, rotation = 0, ox = 0, oy = 0): Placed {
  return place(new Circle({ radius, offset: { x: ox, y: oy } }), [ox, oy], radius, x, y, rotation);
}
function capsule(p1: Pt, p2: Pt, radius: number, x: number, y: number, rotation = 0): Placed {
  return place(new Capsule({ p1, p2, radius }), [...p1, ...p2], radius, x, y, rotation);
}
function segment(p1: Pt, p2: Pt, x: number, y: number, rotation = 0): Placed {
  return place(new Segment({ p1, p2 }), [...p1, ...p2], 0, x, y, rotation);
}

function geom(p: Placed): Geom {
  const c = Math.cos(p.body.rotation);
  const s = Math.sin(p.body.rotation);
  const { x, y } = p.body.position;
  const pts: number[] = [];
  for (let i = 0; i < p.local.length; i += 2) {
    const lx = p.local[i]!;
    const ly = p.local[i + 1]!;
    pts.push(x + c * lx - s * ly, y + s * lx + c * ly);
  }
  return { pts, r: p.radius };
}

function ownArea(p: Placed): number {
  return p.shape.computeMass().mass / p.shape.density;
}
/** Own centroid in world space, from the engine's (independently tested) mass routine. */
function ownCentroid(p: Placed): Pt {
  const m = p.shape.computeMass();
  const c = Math.cos(p.body.rotation);
  const s = Math.sin(p.body.rotation);
  const { x, y } = p.body.position;
  return [x + c * m.cx - s * m.cy, y + s * m.cx + c * m.cy];
}

const out: SubmergedArea = { area: 0, cx: 0, cy: 0 };
function submerged(fluid: Placed, body: Placed): SubmergedArea {
  submergedArea(fluid.shape, body.shape, out);
  return { ...out };
}

/** Move a body (the space refreshes its shapes' world caches). */
function moveTo(p: Placed, x: number, y: number, rotation: number): void {
  p.body.position = { x, y };
  p.body.rotation = rotation;
}

// ------------------------------------------------------------------ certified grid estimate

/** Exact signed distance to a core (point, segment or CCW convex polygon) swept by g.r, as a function of the point. */
function signedDistance(g: Geom): (x: number, y: number) => number {
  const p = g.pts;
  const n = p.length / 2;
  const r = g.r;
  if (n === 1) {
    const [cx, cy] = [p[0]!, p[1]!];
    return (x, y) => Math.sqrt((x - cx) * (x - cx) + (y - cy) * (y - cy)) - r;
  }
  // Edges: start a, direction e, |e|², unit outward normal (CCW core: the right-hand side).
  const edges = n === 2 ? 1 : n;
  const ax: number[] = [];
  const ay: number[] = [];
  const ex: number[] = [];
  const ey: number[] = [];
  const ee: number[] = [];
  const inv: number[] = [];
  for (let i = 0; i < edges; i++) {
    const j = (i + 1) % n;
    ax.push(p[2 * i]!);
    ay.push(p[2 * i + 1]!);
    ex.push(p[2 * j]! - p[2 * i]!);
    ey.push(p[2 * j + 1]! - p[2 * i + 1]!);
    ee.push(ex[i]! ** 2 + ey[i]! ** 2);
    inv.push(1 / Math.sqrt(ee[i]!));
  }
  const distanceToEdges = (x: number, y: number): number => {
    let best = Infinity;
    for (let i = 0; i < edges; i++) {
      const dx = x - ax[i]!;
      const dy = y - ay[i]!;
      const t = Math.max(0, Math.min(1, (dx * ex[i]! + dy * ey[i]!) / ee[i]!));
      const fx = dx - t * ex[i]!;
      const fy = dy - t * ey[i]!;
      best = Math.min(best, fx * fx + fy * fy);
    }
    return Math.sqrt(best);
  };
  if (n === 2) return (x, y) => distanceToEdges(x, y) - r;
  return (x, y) => {
    let inside = -Infinity; // −(distance to the boundary) when inside
    for (let i = 0; i < n; i++) {
      inside = Math.max(inside, (ey[i]! * (x - ax[i]!) - ex[i]! * (y - ay[i]!)) * inv[i]!);
    }
    return (inside <= 0 ? inside : distanceToEdges(x, y)) - r;
  };
}

function bounds(g: Geom): [number, number, number, number] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (let i = 0; i < g.pts.length; i += 2) {
    minX = Math.min(minX, g.pts[i]! - g.r);
    maxX = Math.max(maxX, g.pts[i]! + g.r);
    minY = Math.min(minY, g.pts[i + 1]! - g.r);
    maxY = Math.max(maxY, g.pts[i + 1]! + g.r);
  }
  return [minX, minY, maxX, maxY];
}

interface Estimate {
  area: number;
  /** First moment about the reference point. */
  mx: number;
  my: number;
  areaBound: number;
  momentBound: number;
}

/**
 * Area and first moment (about ref) of a ∩ b by the certified adaptive grid (see the file
 * comment). Leaves are 1/2^15 of the overlap box's longer side.
 */
function certifiedEstimate(a: Geom, b: Geom, refX: number, refY: number, depth = 15): Estimate {
  const ba = bounds(a);
  const bb = bounds(b);
  const minX = Math.max(ba[0], bb[0]);
  const minY = Math.max(ba[1], bb[1]);
  const maxX = Math.min(ba[2], bb[2]);
  const maxY = Math.min(ba[3], bb[3]);
  const e: Estimate = { area: 0, mx: 0, my: 0, areaBound: 0, momentBound: 0 };
  if (!(minX < maxX && minY < maxY)) return e;
  const side = Math.max(maxX - minX, maxY - minY);
  const sdA = signedDistance(a);
  const sdB = signedDistance(b);
  const visit = (cx: number, cy: number, half: number, level: number): void => {
    const sd = Math.max(sdA(cx, cy), sdB(cx, cy));
    const diag = half * Math.SQRT2;
    if (sd >= diag) return;
    const cell = 4 * half * half;
    if (sd > -diag && level > 0) {
      const h = half / 2;
      visit(cx - h, cy - h, h, level - 1);
      visit(cx + h, cy - h, h, level - 1);
      visit(cx - h, cy + h, h, level - 1);
      visit(cx + h, cy + h, h, level - 1);
      return;
    }
    if (sd > -diag) {
      e.areaBound += cell;
      e.momentBound += cell * (Math.sqrt((cx - refX) ** 2 + (cy - refY) ** 2) + diag);
      if (sd > 0) return;
    }
    e.area += cell;
    e.mx += cell * (cx - refX);
    e.my += cell * (cy - refY);
  };
  visit(0.5 * (minX + maxX), 0.5 * (minY + maxY), 0.5 * side, depth);
  return e;
}

/** submergedArea(fluid, body) agrees with the certified estimate, and the estimate is tight. */
function expectMatchesGrid(fluid: Placed, body: Placed): SubmergedArea {
  const r = submerged(fluid, body);
  const e = certifiedEstimate(geom(fluid), geom(body), r.cx, r.cy);
  const slack = 1e-12;
  expect(e.areaBound).toBeLessThan(1e-3 * ownArea(body));
  expect(Math.abs(r.area - e.area)).toBeLessThanOrEqual(e.areaBound + slack);
  // About the claimed centroid the true first moment is 0, so the estimate's is within its bound.
  if (r.area > 0) expect(Math.hypot(e.mx, e.my)).toBeLessThanOrEqual(e.momentBound + slack);
  return r;
}

// ------------------------------------------------------------------ random shapes

type Rng = () => number;
function uniform(rng: Rng, lo: number, hi: number): number {
  return lo + (hi - lo) * rng();
}

/** Strictly convex CCW polygon: points on a random ellipse at jittered, increasing angles. */
function randomConvex(rng: Rng, n: number, size: number): Pt[] {
  const ax = size * uniform(rng, 0.5, 1);
  const ay = size * uniform(rng, 0.5, 1);
  const phi = uniform(rng, 0, 2 * Math.PI);
  const c = Math.cos(phi);
  const s = Math.sin(phi);
  const pts: Pt[] = [];
  for (let k = 0; k < n; k++) {
    const t = ((k + uniform(rng, -0.4, 0.4)) * 2 * Math.PI) / n;
    const x = ax * Math.cos(t);
    const y = ay * Math.sin(t);
    pts.push([c * x - s * y, s * x + c * y]);
  }
  return pts;
}

type FluidKind = 'polygon' | 'circle' | 'rounded' | 'capsule';
type BodyKind = 'polygon' | 'circle' | 'rounded' | 'capsule';

const FLUID_CENTRE: Pt = [3, -2];

function randomFluid(rng: Rng, kind: FluidKind): Placed {
  const [x, y] = FLUID_CENTRE;
  const rot = uniform(rng, -Math.PI, Math.PI);
  switch (kind) {
    case 'polygon':
      return polygon(randomConvex(rng, 3 + Math.floor(rng() * 8), uniform(rng, 1, 2.5)), 0, x, y, rot);
    case 'circle':
      return circle(uniform(rng, 0.6, 2), x, y, rot, uniform(rng, -0.3, 0.3), uniform(rng, -0.3, 0.3));
    case 'rounded':
      return polygon(randomConvex(rng, 3 + Math.floor(rng() * 6), uniform(rng, 0.8, 2)), uniform(rng, 0.1, 0.5), x, y, rot);
    case 'capsule':
      return capsule([uniform(rng, -1.5, -0.3), uniform(rng, -0.3, 0.3)], [uniform(rng, 0.3, 1.5), uniform(rng, -0.3, 0.3)], uniform(rng, 0.3, 1), x, y, rot);
  }
}

/** A body near the fluid: inside, straddling its boundary or (rarely) outside. */
function randomBody(rng: Rng, kind: BodyKind): Placed {
  const d = uniform(rng, 0, 2.2);
  const a = uniform(rng, -Math.PI, Math.PI);
  const x = FLUID_CENTRE[0] + d * Math.cos(a);
  const y = FLUID_CENTRE[1] + d * Math.sin(a);
  const rot = uniform(rng, -Math.PI, Math.PI);
  switch (kind) {
    case 'polygon': {
      const n = 3 + Math.floor(rng() * 7);
      return polygon(randomConvex(rng, n, uniform(rng, 0.3, 1.2)), 0, x, y, rot, uniform(rng, -0.3, 0.3), uniform(rng, -0.3, 0.3), uniform(rng, -1, 1));
    }
    case 'circle':
      return circle(uniform(rng, 0.2, 1), x, y, rot, uniform(rng, -0.3, 0.3), uniform(rng, -0.3, 0.3));
    case 'rounded':
      return polygon(randomConvex(rng, 3 + Math.floor(rng() * 6), uniform(rng, 0.3, 1)), uniform(rng, 0.05, 0.4), x, y, rot, uniform(rng, -0.2, 0.2), 0, uniform(rng, -1, 1));
    case 'capsule':
      return capsule([uniform(rng, -0.8, -0.1), uniform(rng, -0.3, 0.3)], [uniform(rng, 0.1, 0.8), uniform(rng, -0.3, 0.3)], uniform(rng, 0.1, 0.6), x, y, rot);
  }
}

const FLUID_KINDS: FluidKind[] = ['polygon', 'circle', 'rounded', 'capsule'];
const BODY_KINDS: BodyKind[] = ['polygon', 'circle', 'rounded', 'capsule'];

// ------------------------------------------------------------------ closed forms

/** Circular segment of height d (0 ≤ d ≤ 2r) of a circle of radius r: area and centroid distance from the centre. */
function circularSegment(r: number, d: number): { area: number; dist: number } {
  const area = r * r * Math.acos((r - d) / r) - (r - d) * Math.sqrt(2 * r * d - d * d);
  const theta = 2 * Math.acos((r - d) / r);
  const dist = (4 * r * Math.sin(theta / 2) ** 3) / (3 * (theta - Math.sin(theta)));
  return { area, dist };
}

/** Lens area of two circles at distance d (textbook formula). */
function lensArea(r1: number, r2: number, d: number): number {
  if (d >= r1 + r2) return 0;
  if (d <= Math.abs(r1 - r2)) return Math.PI * Math.min(r1, r2) ** 2;
  return (
    r1 * r1 * Math.acos((d * d + r1 * r1 - r2 * r2) / (2 * d * r1)) +
    r2 * r2 * Math.acos((d * d + r2 * r2 - r1 * r1) / (2 * d * r2)) -
    0.5 * Math.sqrt((-d + r1 + r2) * (d + r1 - r2) * (d - r1 + r2) * (d + r1 + r2))
  );
}

/**
 * Lens centroid (distance from circle 1's centre towards circle 2) by 1-D integration of the
 * chord length along the axis: chord(x) = 2·√(min(r1² − x², r2² − (x − d)²)), with the
 * substitution x = lo + (hi − lo)(1 − cos u)/2 that removes the square-root end singularities.
 */
function lensCentroidByIntegration(r1: number, r2: number, d: number): number {
  const lo = Math.max(-r1, d - r2);
  const hi = Math.min(r1, d + r2);
  const steps = 200000;
  let a = 0;
  let m = 0;
  for (let k = 0; k < steps; k++) {
    const u = ((k + 0.5) / steps) * Math.PI;
    const x = lo + ((hi - lo) * (1 - Math.cos(u))) / 2;
    const dx = ((hi - lo) * Math.sin(u)) / 2;
    const chord = 2 * Math.sqrt(Math.max(0, Math.min(r1 * r1 - x * x, r2 * r2 - (x - d) * (x - d))));
    a += chord * dx;
    m += chord * x * dx;
  }
  return m / a;
}

function expectResult(r: SubmergedArea, area: number, cx: number, cy: number, digits = 12): void {
  expect(r.area).toBeCloseTo(area, digits);
  expect(r.cx).toBeCloseTo(cx, digits);
  expect(r.cy).toBeCloseTo(cy, digits);
}

// ------------------------------------------------------------------ tests

describe('submergedArea: flat surface, polygon body', () => {
  freshSpace();
  // Fluid: a large box whose top edge is the surface y = 0.
  const fluid = box(40, 20, 0, -10);

  it('a unit box half below the surface: area 0.5, centroid 0.25 below it', () => {
    expectResult(submerged(fluid, box(1, 1, 1.5, 0)), 0.5, 1.5, -0.25);
  });

  it('a box fully inside: its own area and centroid; fully outside or touching: 0', () => {
    expectResult(submerged(fluid, box(1, 2, 2, -3, 0.7)), 2, 2, -3);
    const above = box(1, 1, 0, 3);
    expect(submerged(fluid, above).area).toBe(0);
    const touching = box(1, 1, 0, 0.5);
    expect(submerged(fluid, touching).area).toBe(0);
  });

  it('a box sharing edges with the fluid (coincident clipping lines)', () => {
    // bottom-left corner of the fluid, edges on the fluid's left and bottom edges
    expectResult(submerged(fluid, box(1, 1, -19.5, -19.5)), 1, -19.5, -19.5);
    // the fluid itself
    expectResult(submerged(fluid, box(40, 20, 0, -10)), 800, 0, -10, 9);
  });

  it('a tilted surface: the whole scene rotated and moved', () => {
    const beta = 0.6;
    const [px, py] = [5, -7];
    const rot = (x: number, y: number): Pt => [px + Math.cos(beta) * x - Math.sin(beta) * y, py + Math.sin(beta) * x + Math.cos(beta) * y];
    const [fx, fy] = rot(0, -10);
    const tiltedFluid = box(40, 20, fx, fy, beta);
    const [bx, by] = rot(1.5, 0);
    const r = submerged(tiltedFluid, box(1, 1, bx, by, beta));
    const [cx, cy] = rot(1.5, -0.25);
    expectResult(r, 0.5, cx, cy);
  });

  it('outside a diamond fluid although inside its AABB: 0', () => {
    const diamond = box(2, 2, 0, 0, Math.PI / 4);
    expect(submerged(diamond, box(0.3, 0.3, 1.1, 1.1)).area).toBe(0);
  });
});

describe('submergedArea: circle cut by a flat surface', () => {
  freshSpace();
  const fluid = box(40, 20, 0, -10);
  const r = 0.8;
  for (const d of [0.01, 0.3, 0.8, 1.2, 1.59]) {
    it(`depth ${d}: circular segment area and centroid`, () => {
      const seg = circularSegment(r, d);
      const c = circle(r, 2, r - d);
      expectResult(submerged(fluid, c), seg.area, 2, r - d - seg.dist);
    });
  }

  it('roles swapped: a circle fluid over a body whose top edge is a flat line', () => {
    const seg = circularSegment(r, 0.5);
    const fluidCircle = circle(r, -1, r - 0.5);
    expectResult(submerged(fluidCircle, box(40, 20, 0, -10)), seg.area, -1, r - 0.5 - seg.dist);
  });

  it('a circle centred on a corner of a polygon fluid: a quarter disc', () => {
    const q = submerged(box(2, 2, 0, 0), circle(0.5, 1, 1));
    const g = (4 * 0.5) / (3 * Math.PI);
    expectResult(q, (Math.PI * 0.25) / 4, 1 - g, 1 - g);
  });

  it('fully inside and fully outside', () => {
    expectResult(submerged(fluid, circle(0.5, 3, -4)), Math.PI * 0.25, 3, -4);
    expect(submerged(fluid, circle(0.5, 3, 0.5)).area).toBe(0);
    // a circle fluid containing a polygon
    expectResult(submerged(circle(3, 0, 0), box(1, 2, 0.5, 0.2, 0.4)), 2, 0.5, 0.2);
  });
});

describe('submergedArea: circle ∩ circle (lens)', () => {
  freshSpace();
  const cases: [number, number, number][] = [
    [1, 1, 1],
    [1, 0.5, 1.2],
    [0.7, 1.3, 0.9],
    [2, 0.3, 1.85],
    [0.4, 1.5, 1.5],
    [1, 1, 1.999],
  ];
  for (const [r1, r2, d] of cases) {
    it(`r1 ${r1}, r2 ${r2}, d ${d}: area (closed form) and centroid (1-D integration)`, () => {
      const a = 0.3;
      const [ux, uy] = [Math.cos(a), Math.sin(a)];
      const fluid = circle(r1, -1, 2);
      const body = circle(r2, -1 + d * ux, 2 + d * uy);
      const res = submerged(fluid, body);
      expect(res.area).toBeCloseTo(lensArea(r1, r2, d), 12);
      const g = lensCentroidByIntegration(r1, r2, d);
      expect(res.cx).toBeCloseTo(-1 + g * ux, 8);
      expect(res.cy).toBeCloseTo(2 + g * uy, 8);
      // symmetric in the two roles
      const swapped = submerged(body, fluid);
      expect(swapped.area).toBeCloseTo(res.area, 14);
      expect(swapped.cx).toBeCloseTo(res.cx, 12);
      expect(swapped.cy).toBeCloseTo(res.cy, 12);
    });
  }

  it('contained, concentric, tangent and disjoint', () => {
    expectResult(submerged(circle(2, 0, 0), circle(0.5, 1, 0.5)), Math.PI * 0.25, 1, 0.5);
    expectResult(submerged(circle(0.5, 1, 0.5), circle(2, 0, 0)), Math.PI * 0.25, 1, 0.5);
    expectResult(submerged(circle(1, 3, 3), circle(1, 3, 3)), Math.PI, 3, 3);
    expect(submerged(circle(1, 0, 0), circle(1, 2, 0)).area).toBe(0);
    expect(submerged(circle(1, 0, 0), circle(1, 5, 0)).area).toBe(0);
  });
});

describe('submergedArea: capsules and rounded polygons (closed forms)', () => {
  freshSpace();
  const fluid = box(40, 20, 0, -10);

  it('a horizontal capsule half submerged', () => {
    const [L, r] = [1.4, 0.35];
    const res = submerged(fluid, capsule([-L / 2, 0], [L / 2, 0], r, 0.25, 0));
    const area = L * r + (Math.PI * r * r) / 2;
    const momentY = -(L * r * (r / 2) + ((Math.PI * r * r) / 2) * ((4 * r) / (3 * Math.PI)));
    expectResult(res, area, 0.25, momentY / area);
  });

  it('a vertical capsule dipped into the straight part', () => {
    const [L, r, depth] = [2, 0.3, 0.9]; // depth below the surface of the lowest point
    const bottom = depth - r; // y of the lower core point is −(depth − r)
    const res = submerged(fluid, capsule([0, 0], [0, L], r, 1, -bottom));
    const cap = (Math.PI * r * r) / 2;
    const rect = 2 * r * (depth - r);
    const my = cap * (-bottom - (4 * r) / (3 * Math.PI)) + rect * (-bottom / 2);
    expectResult(res, cap + rect, 1, my / (cap + rect));
  });

  it('a rounded box half submerged: core, side and bottom rectangles, two quarter discs', () => {
    const [w, h, r] = [1.2, 0.8, 0.15];
    const res = submerged(fluid, box(w, h, -2, 0, 0, r));
    const pieces: [number, number][] = [
      [(w * h) / 2, -h / 4], // core half
      [w * r, -h / 2 - r / 2], // bottom rectangle
      [r * h, -h / 4], // the two side rectangles' lower halves
      [(Math.PI * r * r) / 2, -h / 2 - (4 * r) / (3 * Math.PI)], // two quarter discs
    ];
    const area = pieces.reduce((s, [a]) => s + a, 0);
    const my = pieces.reduce((s, [a, y]) => s + a * y, 0);
    expectResult(res, area, -2, my / area);
    // by symmetry, exactly half of the shape
    const whole = box(w, h, -2, -5, 0, r);
    expect(res.area).toBeCloseTo(ownArea(whole) / 2, 12);
  });

  it('a circle fluid centred on a capsule end (two discs: disc ∩ sector in closed form)', () => {
    const [L, r, R] = [2, 0.3, 0.8];
    const body = capsule([0, 0], [L, 0], r, 0.5, 1);
    const res = submerged(circle(R, 0.5 + L, 1), body);
    // half-disc cap + the strip |y| ≤ r of the fluid disc on the core side
    const cap = (Math.PI * r * r) / 2;
    const strip = r * Math.sqrt(R * R - r * r) + R * R * Math.asin(r / R);
    const mx = r * r * r - r * R * R; // about the fluid centre: (2/3)r³ from the cap, −(rR² − r³/3) from the strip
    expectResult(res, cap + strip, 0.5 + L + mx / (cap + strip), 1);
    // a fluid disc inside that cap's disc: all of it
    expectResult(submerged(circle(0.2, 0.5 + L, 1), body), Math.PI * 0.04, 0.5 + L, 1);
  });

  it('fully inside a polygon, circle, rounded or capsule fluid: own area and centroid', () => {
    const rng = mulberry32(7);
    const fluids = [box(30, 30, 0, 0, 0.2), circle(12, 1, -1), box(10, 10, 0, 0, 0.3, 2), capsule([-8, 0], [8, 0], 6, 0, 0)];
    const bodies = [
      polygon(randomConvex(rng, 7, 1), 0.25, 1, 2, 0.4, 0.3, -0.2, 0.5),
      capsule([-0.5, 0.1], [0.7, -0.2], 0.3, -2, 1, 1.1),
      circle(0.7, 2, -1, 0.3, 0.2, 0.1),
      polygon(randomConvex(rng, 5, 1.3), 0, -1, -2, 2),
    ];
    for (const f of fluids) {
      for (const b of bodies) {
        const [cx, cy] = ownCentroid(b);
        expectResult(submerged(f, b), ownArea(b), cx, cy, 11);
      }
    }
  });

  it('a shape submerged in an identical fluid: its own area and centroid', () => {
    const rng = mulberry32(11);
    const pts = randomConvex(rng, 6, 1);
    for (const radius of [0, 0.2]) {
      const a = polygon(pts, radius, 1, 1, 0.3);
      const b = polygon(pts, radius, 1, 1, 0.3);
      const [cx, cy] = ownCentroid(b);
      expectResult(submerged(a, b), ownArea(b), cx, cy, 11);
    }
    const c1 = capsule([0, 0], [1, 0.5], 0.4, -1, 2, 0.2);
    const c2 = capsule([0, 0], [1, 0.5], 0.4, -1, 2, 0.2);
    const [cx, cy] = ownCentroid(c2);
    expectResult(submerged(c1, c2), ownArea(c2), cx, cy, 11);
  });
});

describe('submergedArea: segments', () => {
  freshSpace();
  it('a segment body or a segment fluid submerges nothing', () => {
    const fluid = box(10, 10, 0, 0);
    const seg = segment([-1, 0], [1, 0.5], 0.5, 0.5);
    const r = submerged(fluid, seg);
    expect(r.area).toBe(0);
    expect(r.cx).toBeCloseTo(0.5, 12);
    expect(r.cy).toBeCloseTo(0.75, 12);
    expect(submerged(seg, box(1, 1, 0.5, 0.5)).area).toBe(0);
    expect(submerged(seg, circle(1, 0.5, 0.5)).area).toBe(0);
  });
});

describe('submergedArea: random shapes against the certified grid', () => {
  for (const fk of FLUID_KINDS) {
    for (const bk of BODY_KINDS) {
      it(`${bk} body in a ${fk} fluid`, () => {
        freshSpace();
        const rng = mulberry32(1000 + 17 * FLUID_KINDS.indexOf(fk) + BODY_KINDS.indexOf(bk));
        let partial = 0;
        for (let k = 0; k < 5; k++) {
          const fluid = randomFluid(rng, fk);
          const body = randomBody(rng, bk);
          const r = expectMatchesGrid(fluid, body);
          if (r.area > 0.02 * ownArea(body) && r.area < 0.98 * ownArea(body)) partial++;
        }
        expect(partial).toBeGreaterThan(0); // the sample exercises real cuts
      });
    }
  }
});

describe('submergedArea: invariants on random shapes', () => {
  for (const fk of FLUID_KINDS) {
    for (const bk of BODY_KINDS) {
      it(`${bk} body in a ${fk} fluid: bounded by both areas, symmetric, translation and rotation invariant`, () => {
        freshSpace();
        const rng = mulberry32(5000 + 17 * FLUID_KINDS.indexOf(fk) + BODY_KINDS.indexOf(bk));
        for (let k = 0; k < 40; k++) {
          const fluid = randomFluid(rng, fk);
          const body = randomBody(rng, bk);
          const base = submerged(fluid, body);
          const scale = Math.max(ownArea(fluid), ownArea(body));
          expect(base.area).toBeGreaterThanOrEqual(0);
          expect(base.area).toBeLessThanOrEqual(Math.min(ownArea(fluid), ownArea(body)) * (1 + 1e-12));

          // The intersection does not depend on which shape is the fluid.
          const swapped = submerged(body, fluid);
          expect(Math.abs(swapped.area - base.area)).toBeLessThan(1e-12 * scale);
          if (base.area > 1e-9) {
            expect(Math.abs(swapped.cx - base.cx)).toBeLessThan(1e-9);
            expect(Math.abs(swapped.cy - base.cy)).toBeLessThan(1e-9);
          }

          // Translate both.
          const [tx, ty] = [uniform(rng, -50, 50), uniform(rng, -50, 50)];
          const fp = fluid.body.position;
          const bp = body.body.position;
          const fr = fluid.body.rotation;
          const br = body.body.rotation;
          moveTo(fluid, fp.x + tx, fp.y + ty, fr);
          moveTo(body, bp.x + tx, bp.y + ty, br);
          const moved = submerged(fluid, body);
          expect(Math.abs(moved.area - base.area)).toBeLessThan(1e-10 * scale);
          if (base.area > 1e-9) {
            expect(Math.abs(moved.cx - (base.cx + tx))).toBeLessThan(1e-9);
            expect(Math.abs(moved.cy - (base.cy + ty))).toBeLessThan(1e-9);
          }

          // Rotate both about a point.
          const beta = uniform(rng, -Math.PI, Math.PI);
          const [px, py] = [uniform(rng, -5, 5), uniform(rng, -5, 5)];
          const c = Math.cos(beta);
          const s = Math.sin(beta);
          const rotate = (x: number, y: number): Pt => [px + c * (x - px) - s * (y - py), py + s * (x - px) + c * (y - py)];
          const [fx, fy] = rotate(fp.x, fp.y);
          const [bx, by] = rotate(bp.x, bp.y);
          moveTo(fluid, fx, fy, fr + beta);
          moveTo(body, bx, by, br + beta);
          const turned = submerged(fluid, body);
          expect(Math.abs(turned.area - base.area)).toBeLessThan(1e-10 * scale);
          if (base.area > 1e-9) {
            const [gx, gy] = rotate(base.cx, base.cy);
            expect(Math.abs(turned.cx - gx)).toBeLessThan(1e-9);
            expect(Math.abs(turned.cy - gy)).toBeLessThan(1e-9);
          }
        }
      });
    }
  }
});
