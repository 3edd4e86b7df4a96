/**
 * Time of impact: the first time in a step at which two moving rounded shapes come within a
 * target distance of each other — the core of continuous collision (no tunnelling).
 *
 * Motion (as in Box2D): a Sweep gives a body's world centre of mass and angle at t = 0 and
 * t = 1; in between both are interpolated linearly, and the body origin is the centre minus
 * the rotated body-local centre of mass. t is the fraction of the step.
 *
 * Target (as Box2D v3): GJK runs on the cores, and the search stops when the core distance
 * reaches target = max(LINEAR_SLOP, radiusA + radiusB − LINEAR_SLOP), i.e. when the rounded
 * shapes overlap by LINEAR_SLOP — enough for the narrowphase to see a touching contact, no
 * more than the solver tolerates anyway. The LINEAR_SLOP floor keeps sharp cores (radius 0)
 * a slop apart: GJK is exact for disjoint cores but knows no penetration depth.
 * (Box2D v2.4 aimed 3·LINEAR_SLOP deep; v3 aims one slop deep, which is what a caller needs
 * when the result must not overlap by more than LINEAR_SLOP.) A result within
 * TOI_TOLERANCE above the target is a hit.
 *
 * Algorithm: conservative advancement (CA), not Box2D's separating-axis root finder. Why:
 *  - Safety is a short proof (below): every time it advances to is provably no closer than
 *    the target, so the returned t never overlaps by more than LINEAR_SLOP (up to rounding,
 *    ~1e-12 m) — the one property the step relies on. The root finder follows the deepest
 *    point pair and lands within a tolerance on either side of the target.
 *  - It needs only the distance query plus a pass over the vertices, not a separation
 *    function with its point/face cases.
 *  - A translation toward a face is exact in one advance (a bullet hitting a wall).
 * Each iteration: GJK at the current time t0 gives the core distance d and the unit normal n
 * (A to B). If d is within the tolerance above the target, that is the hit. Otherwise a lower
 * bound on the distance over the rest of the step says how far t may safely advance.
 *
 * The bounds. For convex cores the gap along a fixed unit axis n,
 *   s(τ) = min over B's core of n·p − max over A's core of n·p,
 * never exceeds their distance, and s(t0) = d for GJK's normal; the cores are the hulls of
 * their vertices, so the min and max are over vertices. A vertex of body B moves as
 *   p(τ) = cB(τ) + R(θB(τ))·r,  r its offset from B's centre of mass (|r| ≤ ρB, the core's reach),
 * with constant vB = cB2 − cB1 and ωB = aB2 − aB1 per unit t. With h = τ − t0:
 *  1. First order (the classic CA bound): |R(θ + ωh)r − R(θ)r| ≤ |ω|·h·|r|, so each n·p moves
 *     by n·vB·h ± |ωB|·ρB·h, and
 *       s(τ) ≥ d − μ·h,  μ = n·(vA − vB) + |ωA|·ρA + |ωB|·ρB,
 *     the closing speed along n (signed: a pair moving apart along n gets a smaller μ than
 *     the |Δv·n| form, by the same proof) plus the fastest spin speed. Safe up to
 *     h = (d − target)/μ; μ ≤ 0 means the gap never shrinks: separated.
 *  2. Second order: n·R(θ + ωh)r has second derivative of size ≤ ω²·|r|, so by Taylor
 *       n·p(τ) ≥ n·p(t0) + h·n·(v + ω × r) − ½·ω²·|r|·h²   (B's vertices; A's mirror it, ≤ … +).
 *     The min over B's vertices minus the max over A's of these parabolas is a concave lower
 *     bound on s; safe up to its first crossing of the target, found by a bracketing search.
 * Either bound is valid, so the advance is the larger step. Why both: the first wastes its
 * |ω|·ρ on a spinning body whose nearest point is not moving towards the other (a rod turning
 * while its tip grazes a floor: ~50 iterations for the test's 50 rad/s rod, 6 with both);
 * the second's h² term is the weaker once a body turns more than two radians in the rest of
 * the step. A body spinning much faster than that close to another still creeps; the cap then
 * returns 'failed' with the last verified safe t. The radii are constant, so bounds on the
 * cores are bounds on the rounded shapes.
 *
 * Allocates nothing per call (module-level transforms, distance output and per-vertex scratch);
 * deterministic.
 */
import { DistanceOutput, MAX_PROXY_VERTICES, shapeDistance, type DistanceProxy, type Transform } from './gjk.js';
import { LINEAR_SLOP } from './manifold.js';

/** A body's motion over the step (world centre of mass and angle at t = 0 and t = 1). */
export interface Sweep {
  /** Centre of mass in the body frame. */
  localCenterX: number;
  localCenterY: number;
  /** World centre of mass and angle at t = 0. */
  c1x: number;
  c1y: number;
  a1: number;
  /** World centre of mass and angle at t = 1. */
  c2x: number;
  c2y: number;
  a2: number;
}

/**
 * - 'separated': the shapes never come closer than the target before tMax (t = tMax).
 * - 'hit': at t the core distance is within [target, target + TOI_TOLERANCE], and it was
 *   ≥ target at every earlier time.
 * - 'overlapped': already closer than the target at t = 0 (t = 0); continuous collision
 *   cannot help, the contact solver must.
 * - 'failed': the iteration cap was reached; t is the last time verified safe.
 */
export type TimeOfImpactState = 'separated' | 'hit' | 'overlapped' | 'failed';

export class TimeOfImpactOutput {
  state: TimeOfImpactState = 'separated';
  /** Fraction of the step, in [0, tMax]. */
  t = 0;
  /** Unit normal from A to B from the last distance query (at t for a hit); (0, 0) if the cores overlap. */
  normalX = 0;
  normalY = 0;
  /** Distance queries used. */
  iterations = 0;
  /** The cores' distance at t = 0. */
  startDistance = 0;
}

/** A core distance within this above the target counts as a hit (Box2D's 0.25·slop). */
export const TOI_TOLERANCE = 0.25 * LINEAR_SLOP;
/** Distance queries per call before giving up ('failed'). */
export const TOI_MAX_ITERATIONS = 50;

/** Core distance at which two proxies of combined radius `totalRadius` count as touching. */
export function toiTargetDistance(totalRadius: number): number {
  return Math.max(LINEAR_SLOP, totalRadius - LINEAR_SLOP);
}

/** The body transform at fraction t of the sweep (into `out`). */
export function sweepTransform(sweep: Sweep, t: number, out: Transform): void {
  const u = 1 - t; // (1 − t)·a + t·b, not a + t·(b − a): exact at both ends
  const angle = u * sweep.a1 + t * sweep.a2;
  const c = Math.cos(angle);
  const s = Math.sin(angle);
  const cx = u * sweep.c1x + t * sweep.c2x;
  const cy = u * sweep.c1y + t * sweep.c2y;
  out.c = c;
  out.s = s;
  // The centre of mass is the rotated local centre away from the origin.
  out.x = cx - (c * sweep.localCenterX - s * sweep.localCenterY);
  out.y = cy - (s * sweep.localCenterX + c * sweep.localCenterY);
}

const xfA: Transform = { x: 0, y: 0, c: 1, s: 0 };
const xfB: Transform = { x: 0, y: 0, c: 1, s: 0 };
const distance = new DistanceOutput();

/**
 * First time in [0, tMax] (tMax ≤ 1) at which the proxies, moving along their sweeps, come
 * within the target distance (see the file comment; a caller may give its own core distance to
 * stop at). Result in `out`.
 */
export function timeOfImpact(
  proxyA: DistanceProxy, sweepA: Sweep, proxyB: DistanceProxy, sweepB: Sweep, tMax: number, out: TimeOfImpactOutput,
  target: number = toiTargetDistance(proxyA.radius + proxyB.radius),
): void {
  const spinBound = Math.abs(sweepA.a2 - sweepA.a1) * coreReach(proxyA, sweepA) + Math.abs(sweepB.a2 - sweepB.a1) * coreReach(proxyB, sweepB);
  let t = 0;
  for (let iteration = 1; ; iteration++) {
    sweepTransform(sweepA, t, xfA);
    sweepTransform(sweepB, t, xfB);
    shapeDistance(proxyA, xfA, proxyB, xfB, distance);
    const d = distance.coreDistance;
    if (t === 0) out.startDistance = d;
    if (t === 0 && d < target) return finish(out, 'overlapped', 0, iteration);
    if (d <= target + TOI_TOLERANCE) return finish(out, 'hit', t, iteration);
    const step = safeStep(proxyA, sweepA, proxyB, sweepB, target, tMax - t, spinBound);
    if (step >= tMax - t) return finish(out, 'separated', tMax, iteration);
    if (iteration === TOI_MAX_ITERATIONS) return finish(out, 'failed', t, iteration);
    t += step;
  }
}

/** Largest distance from the body's centre of mass to a core vertex (ρ in the bounds). */
function coreReach(proxy: DistanceProxy, sweep: Sweep): number {
  const v = proxy.verts;
  let max2 = 0;
  for (let i = 0; i < proxy.count; i++) {
    const dx = v[2 * i]! - sweep.localCenterX;
    const dy = v[2 * i + 1]! - sweep.localCenterY;
    const d2 = dx * dx + dy * dy;
    if (d2 > max2) max2 = d2;
  }
  return Math.sqrt(max2);
}

// Per core vertex, on the current axis at the current time: its projection (relative to A's
// centre of mass), the projection's rate of change, and the bound on its second derivative.
const valueA = new Float64Array(MAX_PROXY_VERTICES);
const rateA = new Float64Array(MAX_PROXY_VERTICES);
const bendA = new Float64Array(MAX_PROXY_VERTICES);
const valueB = new Float64Array(MAX_PROXY_VERTICES);
const rateB = new Float64Array(MAX_PROXY_VERTICES);
const bendB = new Float64Array(MAX_PROXY_VERTICES);
let axisCountA = 0;
let axisCountB = 0;
/** Slope of the gap bound at the point `gapBound` last evaluated (a supergradient at kinks). */
let gapBoundSlope = 0;

/** Root searches on the second-order bound: it only has to be safe, not exact. */
const AXIS_ITERATIONS = 20;
const AXIS_TOLERANCE = 0.1 * TOI_TOLERANCE;

/**
 * How far past the current time (xfA, xfB, `distance`) the pair provably stays at least
 * `target` apart, up to hMax: the larger of the first- and second-order bounds' steps.
 */
function safeStep(
  proxyA: DistanceProxy, sweepA: Sweep, proxyB: DistanceProxy, sweepB: Sweep, target: number, hMax: number, spinBound: number,
): number {
  const nx = distance.normalX;
  const ny = distance.normalY;
  const ox = xfA.x + xfA.c * sweepA.localCenterX - xfA.s * sweepA.localCenterY;
  const oy = xfA.y + xfA.s * sweepA.localCenterX + xfA.c * sweepA.localCenterY;
  projectCore(proxyA, sweepA, xfA, nx, ny, ox, oy, valueA, rateA, bendA);
  projectCore(proxyB, sweepB, xfB, nx, ny, ox, oy, valueB, rateB, bendB);
  axisCountA = proxyA.count;
  axisCountB = proxyB.count;
  // The gap along n now: the GJK distance up to rounding, but exactly what both bounds start from.
  const excess0 = gapBound(0) - target;
  if (!(excess0 > 0)) return 0; // only if rounding put the axis gap below the target: no safe step
  const closing = nx * (sweepA.c2x - sweepA.c1x - sweepB.c2x + sweepB.c1x) + ny * (sweepA.c2y - sweepA.c1y - sweepB.c2y + sweepB.c1y) + spinBound;
  const linear = closing > 0 ? excess0 / closing : Infinity;
  if (linear >= hMax) return hMax;
  return Math.max(linear, advanceOnAxis(excess0, target, hMax));
}

/**
 * Fill the per-vertex projections onto (nx, ny) of a core at the transform xf, relative to
 * (ox, oy), with their rates n·(v + ω × r) and curvature bounds ω²·|r| (r: the vertex's
 * offset from the centre of mass; v, ω: the sweep's velocities per unit t).
 */
function projectCore(
  proxy: DistanceProxy, sweep: Sweep, xf: Transform, nx: number, ny: number, ox: number, oy: number,
  value: Float64Array, rate: Float64Array, bend: Float64Array,
): void {
  const omega = sweep.a2 - sweep.a1;
  const along = nx * (sweep.c2x - sweep.c1x) + ny * (sweep.c2y - sweep.c1y);
  const c = xf.c;
  const s = xf.s;
  const lcx = sweep.localCenterX;
  const lcy = sweep.localCenterY;
  const cx = xf.x + c * lcx - s * lcy - ox;
  const cy = xf.y + s * lcx + c * lcy - oy;
  const v = proxy.verts;
  for (let i = 0; i < proxy.count; i++) {
    const dx = v[2 * i]! - lcx;
    const dy = v[2 * i + 1]! - lcy;
    const rx = c * dx - s * dy;
    const ry = s * dx + c * dy;
    value[i] = nx * (cx + rx) + ny * (cy + ry);
    rate[i] = along + omega * (ny * rx - nx * ry);
    bend[i] = omega * omega * Math.sqrt(rx * rx + ry * ry);
  }
}

/**
 * The second-order lower bound on the gap along the axis, h after the current time:
 *   min over B's vertices of (value + rate·h − ½·bend·h²) − max over A's of (value + rate·h + ½·bend·h²).
 * Concave in h (a min of concave parabolas minus a max of convex ones). Sets gapBoundSlope.
 */
function gapBound(h: number): number {
  let minB = Infinity;
  let slopeB = 0;
  for (let i = 0; i < axisCountB; i++) {
    const g = valueB[i]! + h * (rateB[i]! - 0.5 * h * bendB[i]!);
    if (g < minB) {
      minB = g;
      slopeB = rateB[i]! - h * bendB[i]!;
    }
  }
  let maxA = -Infinity;
  let slopeA = 0;
  for (let i = 0; i < axisCountA; i++) {
    const g = valueA[i]! + h * (rateA[i]! + 0.5 * h * bendA[i]!);
    if (g > maxA) {
      maxA = g;
      slopeA = rateA[i]! + h * bendA[i]!;
    }
  }
  gapBoundSlope = slopeB - slopeA;
  return minB - maxA;
}

// The bracket of advanceOnAxis: the bound is ≥ target at lo, below it at hi.
let lo = 0;
let excessLo = 0;
let hi = 0;
let excessHi = 0;
let slopeHi = 0;

/**
 * Largest h found in [0, hMax] with gapBound(h) ≥ target; excess0 = gapBound(0) − target > 0.
 * Why any such h is safe: the bound is concave, so being above the target at 0 and at h means
 * being above it all the way between. The search narrows a bracket of the single crossing:
 * a chord of a concave curve lies below it (its root is a new safe point), a tangent lies
 * above it (its root is not before the crossing).
 */
function advanceOnAxis(excess0: number, target: number, hMax: number): number {
  hi = hMax;
  excessHi = gapBound(hMax) - target;
  if (excessHi >= 0) return hMax;
  slopeHi = gapBoundSlope;
  lo = 0;
  excessLo = excess0;
  for (let k = 0; k < AXIS_ITERATIONS && excessLo > AXIS_TOLERANCE && hi - lo > 1e-15; k++) {
    if (slopeHi < 0) probe(hi - excessHi / slopeHi, target);
    probe(lo + (excessLo * (hi - lo)) / (excessLo - excessHi), target);
  }
  return lo;
}

/** Evaluate the bound at h (if inside the bracket) and narrow the bracket with it. */
function probe(h: number, target: number): void {
  if (!(h > lo && h < hi)) return;
  const excess = gapBound(h) - target;
  if (excess >= 0) {
    lo = h;
    excessLo = excess;
  } else {
    hi = h;
    excessHi = excess;
    slopeHi = gapBoundSlope;
  }
}

function finish(out: TimeOfImpactOutput, state: TimeOfImpactState, t: number, iterations: number): void {
  out.state = state;
  out.t = t;
  out.normalX = distance.normalX;
  out.normalY = distance.normalY;
  out.iterations = iterations;
}
