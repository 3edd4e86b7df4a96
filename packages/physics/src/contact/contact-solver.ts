/**
 * Contact solver: soft-step sequential impulses over flat typed-array constraint data.
 *
 * Per manifold point, with anchors rA = p − cA and rB = p − cB fixed at the start of the step
 * and n the contact normal (A → B):
 *   C   = s = dot((dpB + R(dθB)·rB) − (dpA + R(dθA)·rA), n) + (s0 − dot(rB − rA, n))   ≥ 0
 *   Ċ   = vn = dot(vB + ωB × rB − vA − ωA × rA, n)
 *   J   = [−nᵀ, −(rA × n), nᵀ, rB × n]
 *   K   = mA⁻¹ + mB⁻¹ + iA⁻¹ (rA × n)² + iB⁻¹ (rB × n)²       (normalMass = 1/K)
 *   Jᵀλ : vA −= mA⁻¹ λ n, ωA −= iA⁻¹ λ (rA × n); vB += mB⁻¹ λ n, ωB += iB⁻¹ λ (rB × n)
 * Friction uses the tangent t = (n.y, −n.x) in place of n, clamped to ±μ·λn, and drives the
 * relative tangent speed vt to the contact's tangentSpeed (0 but on a conveyor): the row's
 * velocity error is vt − tangentSpeed.
 *
 * Softness (Catto's soft step, constraint/softness.ts): the normal row is a spring of the space's
 * contactHertz (twice that against a static or kinematic side),
 *   λ = −normalMass·massScale·(vn + biasRate·s) − impulseScale·λacc
 * The biased solve ("solve") pushes penetration out at a bounded speed; the unbiased solve
 * ("relax") then removes the velocity that push added, so stacks do not gain energy.
 * Speculative points (s > 0) allow approach up to contact: bias = s/h.
 * Restitution is applied once per step, after all substeps, from the pre-step approach speed.
 */
import type { Contact } from './contact.js';
import { isSolved, type ContactStore } from './contact-store.js';
import { GraphColouring } from '../space/graph-colouring.js';
import { CONTACT_KERNELS } from './contact-kernels.js';
import { COMMAND, PARAMS } from '../parallel/control.js';
import type { StageViews } from '../parallel/thread-runtime.js';
import type { WorkerPool } from '../parallel/worker-pool.js';
import type { SolverBodies } from '../space/solver-bodies.js';
import type { SolverFamily } from '../space/solver-families.js';
import type { StepContext } from '../space/step-context.js';
import { resized, shareArray } from '../util/typed-arrays.js';
import { makeSoft, rigidSoftness, type Softness } from '../constraint/softness.js';
export { contactRowInverse, TURN_ONLY_LEVER_EPS } from './contact-row-inverse.js';

/** Speed below which a collision does not bounce (m/s). */
export const RESTITUTION_THRESHOLD = 1;
/** Maximum speed at which penetration is pushed out (m/s). */
export const CONTACT_PUSH_MAX_VELOCITY = 3;

/**
 * Below this many rows a step's contacts are solved on the calling thread alone: a stage's
 * barriers would cost more than the workers save. The same bits either way.
 */
export const PARALLEL_MIN_ROWS = 256;

/**
 * Layout of a manifold's numbers in ContactSolver.data: the manifold's, then its two points'
 * (POINT + POINT_STRIDE·j), four cache lines per manifold.
 */
const STRIDE = 32;
const M_A = 0, M_B = 1, I_A = 2, I_B = 3, NX = 4, NY = 5, FRICTION = 6, TANGENT_SPEED = 7;
const POINT = 8;
const POINT_STRIDE = 12;
/** Anchors from the centres of mass (fixed for the step), separation less the anchors' part, 1/K. */
const R_AX = 0, R_AY = 1, R_BX = 2, R_BY = 3, ADJ_SEP = 4, NORMAL_MASS = 5, TANGENT_MASS = 6;
/**
 * Accumulated impulses, and the impulses applied so far in the step, less the last substep's
 * (the contact data, see `approach`).
 */
const NORMAL_IMPULSE = 7, TANGENT_IMPULSE = 8, TOTAL_NORMAL = 9, TOTAL_TANGENT = 10;
/** The two sides' rounding radii (circle, capsule, rounded polygon), in the points' spare slots. */
const RADIUS_A = POINT + 11, RADIUS_B = POINT + POINT_STRIDE + 11;
/** The layout, for contact-kernels.test.ts: the kernels declare their own copy, which must match. */
export const CONTACT_LAYOUT = { STRIDE, M_A, M_B, I_A, I_B, NX, NY, FRICTION, TANGENT_SPEED, POINT, POINT_STRIDE, R_AX, R_AY, R_BX, R_BY, ADJ_SEP, NORMAL_MASS, TANGENT_MASS, NORMAL_IMPULSE, TANGENT_IMPULSE, TOTAL_NORMAL, TOTAL_TANGENT, RADIUS_A, RADIUS_B } as const;

/** The contact solver family: every touching solid contact with a body in the solver. */
export class ContactSolver implements SolverFamily {
  count = 0;
  private capacity = 0;
  /**
   * Per manifold k: its numbers at k·STRIDE in `data` (array of structures: a pass reads one
   * stream, not some twenty arrays), its store slot and solver bodies at 3k in `ends`.
   */
  private data = new Float64Array(0);
  private ends = new Int32Array(0);
  private points = new Uint8Array(0);
  /** 1 when one side has infinite mass: such contacts use stiffer softness. */
  private rigidSide = new Uint8Array(0);
  /**
   * Per point (2k + j): the approach speed along the normal before the step, read only by the
   * bounce, so kept apart from `data`, whose four cache lines per manifold are full. Its slot
   * there holds what every warm start adds to: the impulse each point applied over the step (the
   * contact data, ContactStore's totals). A substep applies a point's accumulated impulse as it
   * ends it (warm start and increments), so the step's total is the sum of the substeps' final
   * impulses, plus the bounce. Each warm start adds the impulse it applies (the last substep's
   * final), prepare subtracts the previous step's (the first substep's start), and store adds
   * the last (TOTAL_NORMAL, TOTAL_TANGENT: next to the impulses the warm start reads).
   */
  private approach = new Float64Array(0);
  /** Per manifold: its restitution, read only by the bounce (its slot in `data` is the tangent speed's). */
  private restitution = new Float64Array(0);

  readonly soft: Softness = rigidSoftness();
  readonly staticSoft: Softness = rigidSoftness();
  maxBiasVelocity = CONTACT_PUSH_MAX_VELOCITY;

  /** The contacts' numbers: points and warm-start impulses in, impulses back out (store). */
  constructor(private readonly target: ContactStore) {}

  /**
   * Stage 5 for contacts: this step's softness (stiffness capped at a quarter of the substep
   * rate for stability; twice as stiff against a static or kinematic side), and every touching,
   * non-sensor contact with a body in the solver.
   */
  prepare(contacts: readonly Contact[], sb: SolverBodies, ctx: StepContext, hertz: number, dampingRatio: number): void {
    const capped = Math.min(hertz, 0.25 * ctx.invH);
    makeSoft(capped, dampingRatio, ctx.h, this.soft);
    makeSoft(2 * capped, dampingRatio, ctx.h, this.staticSoft);
    const store = this.target;
    const flags = store.flags;
    // The contacts to solve, in the space's order, with their solver bodies; then their rows in
    // colour order (space/graph-colouring.ts): the passes run colour by colour.
    let n = 0;
    if (this.slots.length < contacts.length) {
      this.slots = resized(this.slots, contacts.length * 2);
      this.pairs = resized(this.pairs, contacts.length * 4);
    }
    const slots = this.slots;
    const pairs = this.pairs;
    // The colouring depends on the sequence of body pairs alone: a step that solves the same pairs
    // as the last (a pile at rest) keeps it. They are compared as they are written.
    // The bodies come from the store's slots of them and the solver's index by slot (gather wrote
    // it), not from the Contact and Body objects: 0.2 ms a step fewer on the 5,050-box pyramid.
    let changed = false;
    const bodyA = store.bodyA;
    const bodyB = store.bodyB;
    const bySlot = sb.bySlot;
    let outside = 0;
    if (this.outside.length < contacts.length) this.outside = new Int32Array(contacts.length * 2);
    const outsideList = this.outside;
    for (let k = 0, m = contacts.length; k < m; k++) {
      if (!isSolved(flags[k]!)) continue; // not touching, a sensor, or ignored by the pre-solve callback
      let a = bySlot[bodyA[k]!]!;
      let b = bySlot[bodyB[k]!]!;
      if (a < 0 && b < 0) continue;
      if (a < 0) a = 0;
      if (b < 0) b = 0;
      if (a === 0 || b === 0) outsideList[outside++] = n;
      slots[n] = k;
      if (pairs[2 * n] !== a || pairs[2 * n + 1] !== b) {
        pairs[2 * n] = a;
        pairs[2 * n + 1] = b;
        changed = true;
      }
      n++;
    }
    const colours = this.colours;
    if (changed || n !== colours.count) colours.colour(pairs, 2, 0, n, sb.count);
    // Each contact's row goes where its colour puts it: row k is contact rowOrder[k] of the list.
    // The kernel (CONTACT_KERNELS.prepare, on every thread) writes each row's slot, bodies and
    // rounding radii from the list and the store. Only a side outside the solver needs its Body
    // object: its world centre of mass, written here for the few rows that have one.
    this.reserve(n);
    this.rowOrder.set(colours.order.subarray(0, n));
    const rowOf = colours.position;
    const centre = this.centre;
    for (let j = 0; j < outside; j++) {
      const i = outsideList[j]!;
      const k = rowOf[i]!;
      // (Written out rather than through a helper call, whose double result was boxed.)
      const body = pairs[2 * i] === 0 ? contacts[slots[i]!]!.bodyA : contacts[slots[i]!]!.bodyB;
      centre[2 * k] = body._x + body._c * body._lcx - body._s * body._lcy;
      centre[2 * k + 1] = body._y + body._s * body._lcx + body._c * body._lcy;
    }
    this.count = n;
    const pool = this.pool !== null && n >= PARALLEL_MIN_ROWS ? this.pool : null;
    const views = pool !== null ? pool.views : this.ownViews;
    this.writeViews(views);
    sb.writeViews(views);
    store.writeViews(views);
    let from = 0;
    if (pool !== null) {
      // One range, split evenly: every row is written from what no row writes.
      pool.runRange(COMMAND.CONTACT_PREPARE, 0, n);
      from = n;
    }
    CONTACT_KERNELS.prepare(views, from, n);
  }

  /** Per row, the world centre of mass of a side outside the solver (see prepare). */
  private centre = new Float64Array(0);
  /** The arrays prepare's kernel reads and writes when there are no workers (with workers, the pool's). */
  private readonly ownViews = {} as StageViews;

  /** prepare's list of the contacts to solve (store slots) and their solver bodies, in the space's order. */
  private slots = new Int32Array(0);
  private pairs = new Int32Array(0);
  /** Each row's place in that list (the colouring's order, copied where every thread reads it). */
  private rowOrder = new Int32Array(0);
  /** prepare's places in the list of the contacts with a side outside the solver (body 0). */
  private outside = new Int32Array(0);
  /** The rows' colours: colour c's rows are colours.start[c] to start[c + 1], then the overflow's. */
  readonly colours = new GraphColouring();

  private reserve(n: number): void {
    if (n <= this.capacity) return;
    let cap = Math.max(64, this.capacity);
    while (cap < n) cap *= 2;
    this.data = resized(this.data, cap * STRIDE);
    this.ends = resized(this.ends, cap * 3);
    this.points = resized(this.points, cap);
    this.rigidSide = resized(this.rigidSide, cap);
    this.approach = resized(this.approach, cap * 2);
    this.restitution = resized(this.restitution, cap);
    this.centre = resized(this.centre, cap * 2);
    this.rowOrder = resized(this.rowOrder, cap);
    this.capacity = cap;
  }

  warmStart(ctx: StepContext): void {
    const sb = ctx.bodies;
    const from = this.parallelStage(COMMAND.CONTACT_WARM_START, sb);
    CONTACT_KERNELS.warmStart(this.data, this.ends, this.points, sb.vx, sb.vy, sb.w, from, this.count);
  }

  solve(ctx: StepContext): void {
    this.pass(ctx.bodies, ctx.invH, true);
  }

  relax(ctx: StepContext): void {
    this.pass(ctx.bodies, ctx.invH, false);
  }

  /** Contacts have no position pass: the soft normal rows push overlap out in the velocity passes. */
  solvePosition(): void {}

  /** One pass over all contacts, in colour order (contact-kernels.ts). useBias = true: "solve"; false: "relax". */
  private pass(sb: SolverBodies, invH: number, useBias: boolean): void {
    const soft = this.softness;
    soft[0] = this.soft.biasRate;
    soft[1] = this.soft.massScale;
    soft[2] = this.soft.impulseScale;
    soft[3] = this.staticSoft.biasRate;
    soft[4] = this.staticSoft.massScale;
    soft[5] = this.staticSoft.impulseScale;
    let from = 0;
    if (this.pool !== null && this.count >= PARALLEL_MIN_ROWS) {
      const prm = this.pool.prm;
      prm[PARAMS.INV_H] = invH;
      prm[PARAMS.MAX_BIAS] = this.maxBiasVelocity;
      prm.set(soft, PARAMS.SOFT);
      from = this.parallelStage(useBias ? COMMAND.CONTACT_SOLVE : COMMAND.CONTACT_RELAX, sb);
    }
    CONTACT_KERNELS.pass(this.data, this.ends, this.points, this.rigidSide, sb.vx, sb.vy, sb.w, sb.dpx, sb.dpy, sb.dqc, sb.dqs, from, this.count, invH, useBias, this.maxBiasVelocity, soft);
  }

  // ------------------------------------------------------------------ the parallel step

  /** The workers (parallel/worker-pool.ts), or null: every row on the calling thread. */
  private pool: WorkerPool | null = null;

  /** Keep this solver's rows in SharedArrayBuffers from now on (they stay shared as they grow): before workers start. */
  share(): void {
    this.data = shareArray(this.data);
    this.ends = shareArray(this.ends);
    this.points = shareArray(this.points);
    this.rigidSide = shareArray(this.rigidSide);
    this.approach = shareArray(this.approach);
    this.restitution = shareArray(this.restitution);
    this.centre = shareArray(this.centre);
    this.rowOrder = shareArray(this.rowOrder);
    this.slots = shareArray(this.slots);
    this.pairs = shareArray(this.pairs);
    this.target.share();
  }

  /** Solve from now on with these workers (null: alone). The arrays must have been shared. */
  attach(pool: WorkerPool | null): void {
    this.pool = pool;
  }

  /** The arrays of `v` that are this solver's rows (their current ones: an array that grew is new). */
  writeViews(v: StageViews): void {
    v.d = this.data;
    v.ends = this.ends;
    v.points = this.points;
    v.rigidSide = this.rigidSide;
    v.approach = this.approach;
    v.bounce = this.restitution;
    v.centre = this.centre;
    v.corder = this.rowOrder;
    v.cslots = this.slots;
    v.cpairs = this.pairs;
  }

  /**
   * Run a stage's colours on every thread when there are workers and rows enough to pay, and
   * return where the calling thread goes on alone: the overflow's start, or 0 (every row).
   */
  private parallelStage(command: number, sb: SolverBodies): number {
    const pool = this.pool;
    if (pool === null || this.count < PARALLEL_MIN_ROWS) return 0;
    return pool.runColours(command, this.colours.start, this, sb);
  }

  /** The pass's softness as contact-kernels.ts takes it: the space's spring's, then the static side's. */
  private readonly softness = new Float64Array(6);

  /** Once per step: bounce points that were approaching faster than the threshold. */
  applyRestitution(ctx: StepContext): void {
    const { vx, vy, w } = ctx.bodies;
    const d = this.data;
    for (let k = 0, n = this.count; k < n; k++) {
      const o = k * STRIDE;
      const e = this.restitution[k]!;
      if (e === 0) continue;
      const a = this.ends[3 * k + 1];
      const b = this.ends[3 * k + 2];
      const mA = d[o + M_A], mB = d[o + M_B], iA = d[o + I_A], iB = d[o + I_B];
      const nx = d[o + NX], ny = d[o + NY];
      let vAx = vx[a]!, vAy = vy[a]!, wA = w[a]!;
      let vBx = vx[b]!, vBy = vy[b]!, wB = w[b]!;
      for (let j = 0, pc = this.points[k]!; j < pc; j++) {
        const p = o + POINT + POINT_STRIDE * j;
        // Only a point that pushed in the step bounces (a speculative point that never touched does not).
        const approach = this.approach[2 * k + j]!;
        if (approach > -RESTITUTION_THRESHOLD || d[p + TOTAL_NORMAL] + d[p + NORMAL_IMPULSE] === 0) continue;
        const rAx = d[p + R_AX], rAy = d[p + R_AY], rBx = d[p + R_BX], rBy = d[p + R_BY];
        const dvx = vBx - wB * rBy - (vAx - wA * rAy);
        const dvy = vBy + wB * rBx - (vAy + wA * rAx);
        const vn = dvx * nx + dvy * ny;
        const old = d[p + NORMAL_IMPULSE];
        const next = Math.max(old - d[p + NORMAL_MASS] * (vn + e * approach), 0);
        const impulse = next - old;
        d[p + NORMAL_IMPULSE] = next;
        const Px = impulse * nx, Py = impulse * ny;
        vAx -= mA * Px;
        vAy -= mA * Py;
        wA -= iA * (rAx * Py - rAy * Px);
        vBx += mB * Px;
        vBy += mB * Py;
        wB += iB * (rBx * Py - rBy * Px);
      }
      if (a > 0) {
        vx[a] = vAx;
        vy[a] = vAy;
        w[a] = wA;
      }
      if (b > 0) {
        vx[b] = vBx;
        vy[b] = vBy;
        w[b] = wB;
      }
    }
  }

  /**
   * Copy accumulated impulses back to the contact store for next step's warm start, and the step's
   * totals (CONTACT_KERNELS.store): shared among the threads when there are workers, each row
   * writing only its own slot.
   */
  store(ctx: StepContext): void {
    this.beginStore(ctx);
    this.endStore();
  }

  /**
   * store in two halves: with workers, the stage opens here and the workers start on it, while the
   * calling thread does other work (the step's write back: 0.66 ms of the 5,050-box pyramid's step,
   * which reads nothing the store writes), and joins it at endStore. Alone, it runs here.
   */
  beginStore(ctx: StepContext): void {
    const st = this.target;
    // (A pool that failed write back's stage, just before, is ended: the calling thread stores.)
    if (this.pool !== null && this.pool.broken === null && this.count >= PARALLEL_MIN_ROWS) {
      const views = this.pool.views;
      this.writeViews(views);
      ctx.bodies.writeViews(views);
      st.writeViews(views);
      this.storeStage = this.pool.openRange(COMMAND.CONTACT_STORE, 0, this.count);
      return;
    }
    this.storeHere();
  }

  /** Every row's store on the calling thread. */
  private storeHere(): void {
    const st = this.target;
    CONTACT_KERNELS.store(this.data, this.ends, this.points, st.normalImpulse, st.tangentImpulse, st.totalNormalImpulse, st.totalTangentImpulse, 0, this.count);
  }

  /**
   * The store is done (beginStore): the calling thread's part of its stage, if one is open. The
   * step's bodies are written by now, so a store the workers fail (a worker lost or hung: the pool
   * then ends, and the space goes on alone, saying why) is finished here rather than failing the
   * step: every row writes the same numbers whichever thread stores it, and again.
   */
  endStore(): void {
    if (this.storeStage < 0) return;
    const seq = this.storeStage;
    this.storeStage = -1;
    try {
      this.pool!.join(COMMAND.CONTACT_STORE, seq);
    } catch {
      this.storeHere();
    }
  }

  /** The sequence number of the store stage beginStore opened and endStore has not joined, or −1. */
  private storeStage = -1;
}
