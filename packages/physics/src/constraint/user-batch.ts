/**
 * UserBatch: the UserConstraints of a step that state their rows through `jacobian(J)` (and
 * `position(err)`), solved from flat typed arrays. Each row's J, factored K, impulses and body
 * slots live in shared pools, so a velocity pass is one loop over contiguous memory with no hook
 * call: V = J v, K λ = −(V + bias), Jᵀλ applied to the solver bodies. Hooks run once per pose
 * (prepare, jacobian, and position where a soft spring or a position pass needs C), with the
 * packed body state of that row in one shared scratch array.
 *
 * Which constraints qualify (UserConstraint._batchable): packed state, J given by the user (not
 * finite differences), no hooks that must run every pass (velocity, effMass, impulse, clamp),
 * no body in two slots, not velocity-only, no breakUnderError, and limits on every row or on
 * none. A limited constraint's rows are solved side by side as the one-by-one path solves them
 * (solveLimitedRow), with C at every pose. The rest are solved one by one
 * (user-constraint.ts), with the same arithmetic: user-batch.test.ts checks that a batched step
 * is bitwise the step of the one-by-one path.
 *
 * Lifecycle per step, as PivotBatch's: begin() → add(c) per prepared constraint → close() (or refresh()
 * for an unchanged plan) → per substep warmStart, solve(useBias), solve(false)×n →
 * solvePosition()×m → store(). A constraint reads its row back only when asked.
 */
import type { Body } from '../body/body.js';
import type { SolverBodies } from '../space/solver-bodies.js';
import type { StepContext } from '../space/step-context.js';
import { BODY_STATE_STRIDE, fillBodyState, fillSolverBodyState } from './body-state.js';
import { FulcrumInputError } from '../util/validate.js';
import { solveSymmetric } from './dense.js';
import { limitPositionImpulse } from './limits.js';
import { limitTurn } from './position-step.js';
import { limitSideUpdate, passSoftness, rigidSoftness, type Softness } from './softness.js';
import type { UserConstraint } from './user-constraint.js';
import { KernelGroup, type UserBatchKernel } from './batch-kernel.js';
import { grown, isShared, shareArray, type GrowableArray } from '../util/typed-arrays.js';
import { USER_KERNELS, USER_PASS, type UserRowViews } from './user-kernels.js';
import { USER_POSE, USER_POSE_KERNELS, type UserGroupView, type UserPoseViews } from './user-pose-kernels.js';
import { COLOURS, GraphColouring } from '../space/graph-colouring.js';
import { COMMAND, PARAMS } from '../parallel/control.js';
import type { WorkerPool } from '../parallel/worker-pool.js';

/** The largest row count and slot count a batched constraint may have (the scratch sizes). */
export const USER_BATCH_MAX_DIM = 8;
export const USER_BATCH_MAX_SLOTS = 4;

/**
 * A plan of at least this many rows lays its rows out in colour order (space/graph-colouring.ts),
 * so that its warm starts and velocity passes can run on several threads (its position passes keep
 * the plan's order, see solvePositionRows); a smaller one keeps the order its constraints were
 * added in (PIVOT_COLOUR_MIN_ROWS gives the reasons: a chain converges faster in its own order, and
 * a small pass does not pay for the barriers). The order depends on the plan alone, never on the
 * worker count.
 */
export const USER_COLOUR_MIN_ROWS = 2048;

/**
 * With workers, a plan of at least this many rows evaluates its poses on every thread: its kernel
 * rows' body states, J and C, and every row's K and factors (user-pose-kernels.ts). Measured on
 * grids of symbolic pivots with one worker against none: 1,104, 1,512 and 1,984 rows stepped 2%
 * slower with the pose stages than without them (an uncoloured plan's passes stay serial, and the
 * stages' wake-ups cost what they share), 2,244 rows 6% faster.
 */
export const USER_POSE_MIN_ROWS = 2048;

export class UserBatch {
  count = 0;
  readonly rows: UserConstraint[] = [];
  /** Per row: row count, slot count, 1 for a soft constraint, 1 while errPool holds C at the pose, 1 with a prepare() hook. */
  dim = new Uint8Array(0);
  prep = new Uint8Array(0);
  slots = new Uint8Array(0);
  soft = new Uint8Array(0);
  errValid = new Uint8Array(0);
  /** Per row: 1 when every row of the constraint is limited (jointMin ≤ C ≤ jointMax). */
  lim = new Uint8Array(0);
  /** Per row: offsets into jPool (dim × 3·slots), kPool (dim²), the vector pools (dim) and the slot pools. */
  jOff = new Int32Array(0);
  kOff = new Int32Array(0);
  vOff = new Int32Array(0);
  sOff = new Int32Array(0);
  /** Per row, soft constraints: biasRate, compliance g (softness.ts), maxForce and maxError. */
  bias = new Float64Array(0);
  compliance = new Float64Array(0);
  maxImp = new Float64Array(0);
  maxErr = new Float64Array(0);
  /** Per row: the K below which a row's J counts as vanishing (dense.ts, VANISHING_ROW_EPS). */
  kFloor = new Float64Array(0);
  /** J at the pose (row-major per constraint) and K's LDLᵀ factors (L below the diagonal). */
  jPool = new Float64Array(0);
  kPool = new Float64Array(0);
  /** Per row entry: accumulated impulse, impulse of the step so far, C at the pose, 1/D of K. */
  accPool = new Float64Array(0);
  stepPool = new Float64Array(0);
  errPool = new Float64Array(0);
  dinvPool = new Float64Array(0);
  /**
   * Stiff rows' K + diag(Γ) for their biased passes with the joint softness (jointHertz > 0),
   * factored as kPool and dinvPool are (UserConstraint's Kb and dinvb).
   */
  kPoolB = new Float64Array(0);
  dinvPoolB = new Float64Array(0);
  /** Per row entry of a soft constraint: its compliance Γ at the pose (softness.ts; 0 where J vanishes). */
  gammaPool = new Float64Array(0);
  /** Per row entry of a limited constraint: its bounds, and each side's accumulated impulse (accPool holds their difference). */
  minPool = new Float64Array(0);
  maxPool = new Float64Array(0);
  accMinPool = new Float64Array(0);
  accMaxPool = new Float64Array(0);
  /** Per slot: solver index (0: not in the solver), centre-of-mass offset in body frame, Σ Jᵀλ (x, y, θ). */
  slotK = new Int32Array(0);
  slotLx = new Float64Array(0);
  slotLy = new Float64Array(0);
  slotImp = new Float64Array(0);
  readonly slotBody: Body[] = [];
  /**
   * What a failed step puts back (restoreImpulses), kept as the step prepares the rows (add,
   * refresh): per row entry the accumulated impulses as prepared and the last step's read-out
   * (keptStep, which a constraint's _fillBatch writes from its own), per slot the last step's
   * Σ Jᵀλ; kept at step keptAt (StepContext.step).
   */
  private keptAcc = new Float64Array(0);
  private keptAccMin = new Float64Array(0);
  private keptAccMax = new Float64Array(0);
  keptStep = new Float64Array(0);
  keptSlotImp = new Float64Array(0);
  private keptAt = -1;
  /** Per row: its kernel group (index into groups), or −1 for hooks; and its parameters' offset in paramPool. */
  kern = new Int32Array(0);
  pOff = new Int32Array(0);
  /** Per kernel row: its index among its group's constraints (KernelGroup.rows). */
  kLocal = new Int32Array(0);
  paramPool = new Float64Array(0);
  private pTotal = 0;
  private readonly groups: KernelGroup[] = [];
  /**
   * Kernel rows read body states from here (BatchArrays.states): a solver body k at k·stride, a
   * body outside the solver (static, resting kinematic) at one entry per slot past the solver's.
   * Each body's state is computed once per pose, however many rows name it.
   */
  poseStates = new Float64Array(0);
  /** Per slot: where its body's state starts in poseStates (kernel rows only). */
  slotState = new Int32Array(0);
  /** The solver bodies kernel rows name (each once), with their centre-of-mass offsets. */
  private poseBodies = new Int32Array(0);
  private poseLx = new Float64Array(0);
  private poseLy = new Float64Array(0);
  private poseBodyCount = 0;
  /** Kernel-row slots whose body is outside the solver (their state is read from the Body). */
  private outsideSlots = new Int32Array(0);
  private outsideCount = 0;
  /** Rows of this plan without a kernel (their hooks are called one by one). */
  private hookRowCount = 0;
  private seen = new Uint8Array(0);
  /** The kernel layout (group rows, slotState, poseBodies) belongs to this plan. */
  private laidOut = false;
  /** Row n's J as a view into jPool, which the jacobian hook fills in place (made once per plan). */
  private readonly jViews: Float64Array[] = [];
  private jTotal = 0;
  private kTotal = 0;
  private vTotal = 0;
  private sTotal = 0;
  /** The solver bodies of the step under way (for errors' explanations). */
  private sb: SolverBodies | null = null;
  /** The pose the cached J, K (and C) belong to (StepContext.poseEpoch). */
  private poseEpoch = -1;
  /** Substep midpoint marker: false until the first warm start of the step. */
  private started = false;
  /** The hooks' scratch: one row's packed state and C, and the solves' K and right-hand side. */
  private readonly state = new Float64Array(BODY_STATE_STRIDE * USER_BATCH_MAX_SLOTS);
  private readonly err = new Float64Array(USER_BATCH_MAX_DIM);
  private readonly K = new Float64Array(USER_BATCH_MAX_DIM * USER_BATCH_MAX_DIM);
  private readonly rhs = new Float64Array(USER_BATCH_MAX_DIM);
  /** A soft row's spring, as the Softness that limitSideUpdate reads. */
  private readonly rowSoftness: Softness = rigidSoftness();
  /**
   * The constraints add() took for the plan being built: close() makes them rows, in colour order
   * from USER_COLOUR_MIN_ROWS of them (colour c's rows are colours.start[c] to start[c + 1], the
   * overflow's from start[COLOURS]), else in the order they came. Rows are solved in row order.
   */
  private readonly pending: UserConstraint[] = [];
  /** The pending constraints' solver bodies (each one's from pendingFirst, pendingSize of them), and whether each is limited. */
  private pendingBodies = new Int32Array(0);
  private pendingFirst = new Int32Array(0);
  private pendingSize = new Uint8Array(0);
  private pendingLimited = new Uint8Array(0);
  readonly colours = new GraphColouring();
  coloured = false;
  /**
   * The rows in runs for the calling thread: a run is rows of limited constraints (solved side by
   * side, solveLimitedRow) or of the others (the pass kernel); run r is rows runStart[r] to
   * runStart[r + 1]. A coloured plan's colours end a run, so that the calling thread can start
   * from the overflow.
   */
  private runStart = new Int32Array(64);
  private runLimited = new Uint8Array(64);
  private runCount = 0;
  /** A pass's numbers on the calling thread alone (USER_PASS). */
  private readonly passNumbers = new Float64Array(USER_PASS.LENGTH);
  /** The pools as the kernels read them (user-kernels.ts, user-pose-kernels.ts), on the calling thread. */
  private readonly views = {} as UserRowViews & UserPoseViews;
  /** The kernel groups as every thread reads them (KernelGroup.view): a new list with each plan's layout. */
  private groupViews: UserGroupView[] = [];
  /** The workers (parallel/worker-pool.ts), or null: every row on the calling thread. */
  private pool: WorkerPool | null = null;

  constructor() {
    this.writeViews(this.views);
  }

  /** Start a new plan: every row of the previous one goes back to its constraint first. */
  begin(): void {
    for (let n = 0; n < this.count; n++) this.rows[n]!._detachFromBatch(this, n);
    this.count = 0;
    this.rows.length = 0;
    this.slotBody.length = 0;
    this.jTotal = this.kTotal = this.vTotal = this.sTotal = this.pTotal = 0;
    this.groups.length = 0;
    this.jViews.length = 0;
    this.laidOut = false;
    this.started = false;
    this.poseEpoch = -1;
    this.coloured = false;
    this.pending.length = 0;
  }

  /** Take `c` into the plan being built (close() lays the rows out). */
  add(c: UserConstraint): void {
    this.pending.push(c);
  }

  /**
   * The plan is complete: its constraints become rows. In colour order from USER_COLOUR_MIN_ROWS
   * of them, each colour's rows touching distinct solver bodies (space/graph-colouring.ts), a
   * limited constraint in the overflow, as the calling thread solves its sides; else in the order
   * they came. The order depends on the plan alone, never on the worker count.
   */
  close(ctx: StepContext): void {
    const pending = this.pending;
    const count = pending.length;
    this.coloured = count >= USER_COLOUR_MIN_ROWS;
    if (this.coloured) this.colourPending(ctx);
    const order = this.colours.order;
    for (let i = 0; i < count; i++) {
      const c = pending[this.coloured ? order[i]! : i]!;
      this.place(c, c.dimensions, c.bodyList.length, ctx);
    }
    pending.length = 0;
    this.layoutRuns();
  }

  private colourPending(ctx: StepContext): void {
    const pending = this.pending;
    const count = pending.length;
    this.pendingFirst = grown(this.pendingFirst, count);
    this.pendingSize = grown(this.pendingSize, count);
    this.pendingLimited = grown(this.pendingLimited, count);
    let at = 0;
    for (let i = 0; i < count; i++) {
      const c = pending[i]!;
      const bodies = c.bodyList;
      this.pendingBodies = grown(this.pendingBodies, at + bodies.length);
      this.pendingFirst[i] = at;
      this.pendingSize[i] = bodies.length;
      this.pendingLimited[i] = c._limited() ? 1 : 0;
      for (const b of bodies) this.pendingBodies[at++] = b !== null && b._solverIndex > 0 ? b._solverIndex : 0;
    }
    this.colours.colourSets(this.pendingBodies, this.pendingFirst, this.pendingSize, this.pendingLimited, count, ctx.bodies.count);
  }

  private layoutRuns(): void {
    const n = this.count;
    const split = this.coloured ? this.colours.start[COLOURS]! : -1;
    this.runStart = grown(this.runStart, n + 1);
    this.runLimited = grown(this.runLimited, n + 1);
    let runs = 0;
    for (let i = 0; i < n; i++) {
      const limited = this.lim[i]!;
      if (i > 0 && i !== split && limited === this.runLimited[runs - 1]) continue;
      this.runStart[runs] = i;
      this.runLimited[runs] = limited;
      runs++;
    }
    this.runStart[runs] = n;
    this.runCount = runs;
  }

  /** Lay out a row for `c` (dim rows, `slots` bodies) and let it fill the row. */
  private place(c: UserConstraint, dim: number, slots: number, ctx: StepContext): void {
    const n = this.count++;
    if (n >= this.dim.length) this.reserveRows(n + 1);
    this.rows.push(c);
    this.dim[n] = dim;
    this.slots[n] = slots;
    this.errValid[n] = 0;
    this.jOff[n] = this.jTotal;
    this.kOff[n] = this.kTotal;
    this.vOff[n] = this.vTotal;
    this.sOff[n] = this.sTotal;
    this.jTotal += dim * 3 * slots;
    this.kTotal += dim * dim;
    this.vTotal += dim;
    this.sTotal += slots;
    this.jPool = grown(this.jPool, this.jTotal);
    // A fresh row starts from zeros, as a constraint's own J does (a hook may skip zero entries).
    this.jPool.fill(0, this.jOff[n]!, this.jTotal);
    this.kPool = grown(this.kPool, this.kTotal);
    this.kPoolB = grown(this.kPoolB, this.kTotal);
    this.accPool = grown(this.accPool, this.vTotal);
    this.stepPool = grown(this.stepPool, this.vTotal);
    this.errPool = grown(this.errPool, this.vTotal);
    this.dinvPool = grown(this.dinvPool, this.vTotal);
    this.dinvPoolB = grown(this.dinvPoolB, this.vTotal);
    this.gammaPool = grown(this.gammaPool, this.vTotal);
    this.minPool = grown(this.minPool, this.vTotal);
    this.maxPool = grown(this.maxPool, this.vTotal);
    this.accMinPool = grown(this.accMinPool, this.vTotal);
    this.accMaxPool = grown(this.accMaxPool, this.vTotal);
    this.slotK = grown(this.slotK, this.sTotal);
    this.slotLx = grown(this.slotLx, this.sTotal);
    this.slotLy = grown(this.slotLy, this.sTotal);
    this.slotImp = grown(this.slotImp, 3 * this.sTotal);
    this.keptAcc = grown(this.keptAcc, this.vTotal);
    this.keptAccMin = grown(this.keptAccMin, this.vTotal);
    this.keptAccMax = grown(this.keptAccMax, this.vTotal);
    this.keptStep = grown(this.keptStep, this.vTotal);
    this.keptSlotImp = grown(this.keptSlotImp, 3 * this.sTotal);
    c._fillBatch(this, n, ctx);
    for (let v = this.vOff[n]!; v < this.vTotal; v++) {
      this.keptAcc[v] = this.accPool[v]!;
      this.keptAccMin[v] = this.accMinPool[v]!;
      this.keptAccMax[v] = this.accMaxPool[v]!;
    }
    this.keptAt = ctx.step;
    this.kern[n] = this.prep[n] === 0 ? this.groupFor(c.batchKernel(), dim, slots) : -1;
    if (this.kern[n] >= 0) {
      const g = this.groups[this.kern[n]!]!;
      if (this.soft[n] === 1 || this.lim[n] === 1) g.needsPosition = true;
      this.pOff[n] = this.pTotal;
      this.pTotal += g.kernel.paramCount;
      this.paramPool = grown(this.paramPool, this.pTotal);
      c.batchParams(this.paramPool, this.pOff[n]!);
    }
  }

  /** The group of `kernel` for rows of this shape, made on first use; −1 without a kernel. */
  private groupFor(kernel: UserBatchKernel | null, dim: number, slots: number): number {
    if (kernel === null) return -1;
    for (let g = 0; g < this.groups.length; g++) {
      const group = this.groups[g]!;
      if (group.kernel === kernel && group.dim === dim && group.slots === slots) return g;
    }
    return this.groups.push(new KernelGroup(kernel, dim, slots)) - 1;
  }

  private reserveRows(need: number): void {
    this.dim = grown(this.dim, need);
    this.slots = grown(this.slots, need);
    this.soft = grown(this.soft, need);
    this.lim = grown(this.lim, need);
    this.prep = grown(this.prep, need);
    this.kern = grown(this.kern, need);
    this.kLocal = grown(this.kLocal, need);
    this.pOff = grown(this.pOff, need);
    this.errValid = grown(this.errValid, need);
    this.jOff = grown(this.jOff, need);
    this.kOff = grown(this.kOff, need);
    this.vOff = grown(this.vOff, need);
    this.sOff = grown(this.sOff, need);
    this.bias = grown(this.bias, need);
    this.compliance = grown(this.compliance, need);
    this.maxImp = grown(this.maxImp, need);
    this.maxErr = grown(this.maxErr, need);
    this.kFloor = grown(this.kFloor, need);
  }

  /** Start a step on the same rows (unchanged plan): keep the impulses, zero the step's sums. */
  refresh(ctx: StepContext): void {
    this.started = false;
    this.poseEpoch = -1;
    for (let v = 0; v < this.vTotal; v++) {
      this.keptAcc[v] = this.accPool[v]!;
      this.keptAccMin[v] = this.accMinPool[v]!;
      this.keptAccMax[v] = this.accMaxPool[v]!;
      this.keptStep[v] = this.stepPool[v]!;
    }
    for (let i = 0; i < 3 * this.sTotal; i++) this.keptSlotImp[i] = this.slotImp[i]!;
    this.keptAt = ctx.step;
    this.stepPool.fill(0, 0, this.vTotal);
    this.slotImp.fill(0, 0, 3 * this.sTotal);
  }

  /** Forget row n's impulses (its constraint's clearCache()). */
  /** Row n's next step starts from zero (its constraint's _forgetWarmStart()); its read-outs stay. */
  forgetRow(n: number): void {
    const v = this.vOff[n]!;
    const d = this.dim[n]!;
    this.accPool.fill(0, v, v + d);
    this.accMinPool.fill(0, v, v + d);
    this.accMaxPool.fill(0, v, v + d);
  }

  clearRow(n: number): void {
    const v = this.vOff[n]!;
    const d = this.dim[n]!;
    this.accPool.fill(0, v, v + d);
    this.stepPool.fill(0, v, v + d);
    this.accMinPool.fill(0, v, v + d);
    this.accMaxPool.fill(0, v, v + d);
    const s = this.sOff[n]!;
    this.slotImp.fill(0, 3 * s, 3 * (s + this.slots[n]!));
  }

  // ------------------------------------------------------------------ per pose

  /** Hook row n's packed state in the scratch, from the solver arrays (bodies not in the solver: their fields). */
  private fillState(n: number, sb: SolverBodies): void {
    const st = this.state;
    const s0 = this.sOff[n]!;
    const slots = this.slots[n]!;
    for (let j = 0; j < slots; j++) {
      const k = this.slotK[s0 + j]!;
      const o = j * BODY_STATE_STRIDE;
      if (k === 0) {
        fillBodyState(st, o, this.slotBody[s0 + j]!, null);
        continue;
      }
      fillSolverBodyState(st, o, sb, k, this.slotLx[s0 + j]!, this.slotLy[s0 + j]!);
    }
  }

  /**
   * Lay out the kernel rows of this plan (once per plan): each group's row list, and where each
   * slot's body state lives in poseStates.
   */
  private layoutKernels(sb: SolverBodies): void {
    this.laidOut = true;
    for (const g of this.groups) g.count = 0;
    this.hookRowCount = this.count;
    if (this.groups.length === 0) return;
    const base = sb.count;
    this.seen = grown(this.seen, base);
    this.seen.fill(0, 0, base);
    this.slotState = grown(this.slotState, this.sTotal);
    this.poseBodyCount = 0;
    this.outsideCount = 0;
    for (let n = 0; n < this.count; n++) {
      const kn = this.kern[n]!;
      if (kn < 0) continue;
      const g = this.groups[kn]!;
      this.hookRowCount--;
      g.rows = grown(g.rows, g.count + 1);
      g.rows[g.count++] = n;
      const s0 = this.sOff[n]!;
      for (let j = 0; j < this.slots[n]!; j++) {
        const s = s0 + j;
        const k = this.slotK[s]!;
        if (k > 0) {
          this.slotState[s] = k * BODY_STATE_STRIDE;
          if (this.seen[k] === 1) continue;
          this.seen[k] = 1;
          const i = this.poseBodyCount++;
          this.poseBodies = grown(this.poseBodies, i + 1);
          this.poseLx = grown(this.poseLx, i + 1);
          this.poseLy = grown(this.poseLy, i + 1);
          this.poseBodies[i] = k;
          this.poseLx[i] = this.slotLx[s]!;
          this.poseLy[i] = this.slotLy[s]!;
        } else {
          const i = this.outsideCount++;
          this.outsideSlots = grown(this.outsideSlots, i + 1);
          this.outsideSlots[i] = s;
          this.slotState[s] = (base + i) * BODY_STATE_STRIDE;
        }
      }
    }
    this.poseStates = grown(this.poseStates, (base + this.outsideCount) * BODY_STATE_STRIDE);
    for (const g of this.groups) this.layoutGroup(g);
    this.groupViews = this.groups.map((g) => g.view!);
  }

  /** `a`, over a SharedArrayBuffer when the rows are shared (workers run): arrays made per plan that workers read. */
  private sharedIfPooled<T extends GrowableArray>(a: T): T {
    return isShared(this.jPool) ? shareArray(a) : a;
  }

  /**
   * A group's BatchArrays (group constraint i at fixed strides). A group that is the whole plan
   * has the batch's own strides, so it works on the pools in place; any other gets arrays of its
   * own, its slots' state offsets and parameters gathered here, once per plan. J's constant
   * entries are written here too: the kernels may leave them out (UserBatchKernel.constantJacobian).
   */
  private layoutGroup(g: KernelGroup): void {
    const jw = g.dim * 3 * g.slots;
    const pc = g.kernel.paramCount;
    const constants = g.kernel.constantJacobian;
    g.shared = g.count === this.count;
    g.varIndex = null;
    if (constants !== undefined) {
      const fixed = new Set(constants.map(([index]) => index));
      g.varIndex = Int32Array.from({ length: jw }, (_, q) => q).filter((q) => !fixed.has(q));
    }
    // J's width in the group's arrays: packed when the kernel declares constants.
    const jv = g.varIndex === null ? jw : g.varIndex.length;
    for (let i = 0; i < g.count; i++) this.kLocal[g.rows[i]!] = i;
    // (Rows start from zeros, as in add(): the group is new with its plan, so are its own arrays.)
    const J = g.shared && g.varIndex === null ? this.jPool : this.sharedIfPooled(new Float64Array(g.count * jv));
    if (g.shared) {
      g.arrays = { states: this.poseStates, slotState: this.slotState, params: this.paramPool, J, C: this.errPool };
    } else {
      const a = (g.arrays = {
        states: this.poseStates,
        slotState: this.sharedIfPooled(new Int32Array(g.count * g.slots)),
        params: this.sharedIfPooled(new Float64Array(g.count * pc)),
        J,
        C: this.sharedIfPooled(new Float64Array(g.count * g.dim)),
      });
      for (let i = 0; i < g.count; i++) {
        const n = g.rows[i]!;
        for (let j = 0; j < g.slots; j++) a.slotState[i * g.slots + j] = this.slotState[this.sOff[n]! + j]!;
        for (let q = 0; q < pc; q++) a.params[i * pc + q] = this.paramPool[this.pOff[n]! + q]!;
      }
    }
    g.rows = this.sharedIfPooled(g.rows);
    g.view = {
      source: g.kernel.source ?? null,
      arrays: g.arrays,
      rows: g.rows,
      varIndex: g.varIndex,
      dim: g.dim,
      slots: g.slots,
      shared: g.shared,
      needsPosition: g.needsPosition,
    };
    if (constants === undefined) return;
    for (let i = 0; i < g.count; i++) {
      const jo = this.jOff[g.rows[i]!]!;
      for (const [index, value] of constants) this.jPool[jo + index] = value;
    }
  }

  /** The states of kernel-row slots whose body is outside the solver (static, resting kinematic): read from the Body, on the calling thread. */
  private fillOutsideStates(): void {
    for (let i = 0; i < this.outsideCount; i++) {
      const s = this.outsideSlots[i]!;
      fillBodyState(this.poseStates, this.slotState[s]!, this.slotBody[s]!, null);
    }
  }

  /** Kernel row n's body states at the current pose (its solver bodies; the others do not move in a step). */
  private refreshRowStates(n: number, sb: SolverBodies): void {
    const s0 = this.sOff[n]!;
    for (let j = 0; j < this.slots[n]!; j++) {
      const s = s0 + j;
      const k = this.slotK[s]!;
      if (k > 0) fillSolverBodyState(this.poseStates, this.slotState[s]!, sb, k, this.slotLx[s]!, this.slotLy[s]!);
    }
  }

  /**
   * Kernel row n alone, on the states in poseStates (a position pass, a lazy bias): C into errPool
   * (checked) when `position`, and J into the pool when `jacobian` (then K into the scratch).
   */
  private runKernelRow(n: number, sb: SolverBodies, position: boolean, jacobian: boolean): void {
    const g = this.groups[this.kern[n]!]!;
    const kernel = g.kernel;
    const a = g.arrays!;
    const i = this.kLocal[n]!;
    if (position && jacobian && kernel.positionAndJacobian !== undefined) kernel.positionAndJacobian(i, i + 1, a);
    else {
      if (position) kernel.position(i, i + 1, a);
      if (jacobian) kernel.jacobian(i, i + 1, a);
    }
    if (jacobian && (g.varIndex !== null || !g.shared)) USER_POSE_KERNELS.copyJacobianOut(this.views, g.view!, i, i + 1);
    if (position) {
      try {
        USER_POSE_KERNELS.copyPositionOut(this.views, g.view!, i, i + 1);
      } catch (e) {
        this.reportPositionFault(g, i, i + 1, e);
      }
    }
    if (jacobian) this.buildK(n, sb);
  }

  /** K = J M⁻¹ Jᵀ of row n into the scratch (user-pose-kernels.ts's buildK); J checked. */
  private buildK(n: number, sb: SolverBodies): void {
    try {
      USER_POSE_KERNELS.buildK(this.views, sb.invMass, sb.invI, n, this.K);
    } catch {
      this.reportBadJacobian(n);
    }
  }

  /** Name the constraint, the row and the column of the first non-finite J entry. */
  private reportBadJacobian(n: number): never {
    const c = this.rows[n]!;
    const kn = this.kern[n]!;
    if (kn >= 0) {
      const g = this.groups[kn]!;
      if (g.varIndex !== null || !g.shared) USER_POSE_KERNELS.copyJacobianOut(this.views, g.view!, this.kLocal[n]!, this.kLocal[n]! + 1);
    }
    const cols = 3 * this.slots[n]!;
    const J = this.jPool.subarray(this.jOff[n]!, this.jOff[n]! + cols * this.dim[n]!);
    for (let i = 0; i < J.length; i++) {
      if (!Number.isFinite(J[i]!)) throw c._nonFiniteError('jacobian', (i / cols) | 0, i % cols, J[i]!, this.stateForError(n));
    }
    throw new FulcrumInputError(`${c.label}: its effective mass K = J M⁻¹ Jᵀ is not finite`, { owner: c.typeName, prop: 'jacobian' });
  }

  /** A kernel's C was not finite for some constraint of group `g` in [from, to): name it (else rethrow `e`). */
  private reportPositionFault(g: KernelGroup, from: number, to: number, e: unknown): never {
    const C = g.arrays!.C;
    const dim = g.dim;
    for (let i = from; i < to; i++) {
      for (let r = 0; r < dim; r++) {
        const v = C[i * dim + r]!;
        const n = g.rows[i]!;
        if (!Number.isFinite(v)) throw this.rows[n]!._nonFiniteError('position', r, -1, v, this.stateForError(n));
      }
    }
    throw e;
  }

  /** Some row's K was not finite: name the first such row's constraint (else rethrow `e`). */
  private reportFactorFault(sb: SolverBodies, e: unknown): never {
    for (let n = 0; n < this.count; n++) this.buildK(n, sb);
    throw e;
  }

  /** C of hook row n at the state in the scratch, into `out` (checked). */
  private evalPosition(n: number, out: Float64Array, at: number): void {
    const dim = this.dim[n]!;
    const err = this.err;
    err.fill(0, 0, dim);
    this.rows[n]!.position(err, this.state);
    this.checkPosition(n, err, 0);
    for (let r = 0; r < dim; r++) out[at + r] = err[r]!;
  }

  private checkPosition(n: number, C: Float64Array, at: number): void {
    for (let r = 0, dim = this.dim[n]!; r < dim; r++) {
      const v = C[at + r]!;
      if (!Number.isFinite(v)) throw this.rows[n]!._nonFiniteError('position', r, -1, v, this.stateForError(n));
    }
  }

  /** Row n's packed state at the current pose, for an error's explanation (null outside a step). */
  private stateForError(n: number): Float64Array | null {
    if (this.sb === null) return null;
    this.fillState(n, this.sb);
    return this.state;
  }

  /**
   * J and K (factored) of every row at the current pose, once per pose: the hook rows' J on the
   * calling thread; then the kernel rows' body states, J and C, and every row's K and factors
   * (user-pose-kernels.ts), on every thread when there are workers and USER_POSE_MIN_ROWS rows.
   */
  private ensurePose(ctx: StepContext): void {
    if (this.poseEpoch === ctx.poseEpoch) return;
    this.poseEpoch = ctx.poseEpoch;
    const sb = ctx.bodies;
    this.sb = sb;
    if (!this.laidOut) this.layoutKernels(sb);
    this.writeViews(this.views);
    this.hookJacobians(sb);
    const compliance = ctx.jointSoftness.compliance;
    const pool = this.pool;
    if (pool === null || this.count < USER_POSE_MIN_ROWS) {
      this.poseHere(sb, compliance);
      return;
    }
    try {
      this.poseEverywhere(pool, sb, compliance);
    } catch (e) {
      // A kernel threw on some thread (or the pool failed): the calling thread evaluates the pose
      // alone, to name the constraint whose J or C is not finite as it does without workers.
      this.poseHere(sb, compliance);
      throw e;
    }
  }

  /** The pose's kernels on the calling thread alone. */
  private poseHere(sb: SolverBodies, jointCompliance: number): void {
    const v = this.views;
    if (this.groups.length > 0) {
      USER_POSE_KERNELS.states(v, sb, 0, this.poseBodyCount);
      this.fillOutsideStates();
      for (const g of this.groups) if (g.count > 0) this.runGroup(g);
    }
    try {
      USER_POSE_KERNELS.factor(v, sb.invMass, sb.invI, jointCompliance, 0, this.count);
    } catch (e) {
      this.reportFactorFault(sb, e);
    }
  }

  /** Group `g`'s kernel over its constraints, on the calling thread. */
  private runGroup(g: KernelGroup): void {
    try {
      USER_POSE_KERNELS.group(this.views, g.kernel, g.view!, 0, g.count);
    } catch (e) {
      this.reportPositionFault(g, 0, g.count, e);
    }
  }

  /** The pose's kernels as stages on every thread; a group whose kernel has no text runs on the calling thread. */
  private poseEverywhere(pool: WorkerPool, sb: SolverBodies, jointCompliance: number): void {
    this.writeViews(pool.views);
    sb.writeViews(pool.views);
    if (this.groups.length > 0) {
      pool.runRange(COMMAND.USER_POSE_STATES, 0, this.poseBodyCount);
      this.fillOutsideStates();
      for (let gi = 0; gi < this.groups.length; gi++) {
        const g = this.groups[gi]!;
        if (g.count === 0) continue;
        if (g.view!.source === null) {
          this.runGroup(g);
          continue;
        }
        pool.prm[PARAMS.USER_POSE + USER_POSE.GROUP] = gi;
        pool.runRange(COMMAND.USER_POSE_GROUP, 0, g.count);
      }
    }
    pool.prm[PARAMS.USER_POSE + USER_POSE.JOINT_COMPLIANCE] = jointCompliance;
    pool.runRange(COMMAND.USER_POSE_FACTOR, 0, this.count);
  }

  /** The hook rows' J at the current pose (and C of the soft and limited ones, which need it), one by one. */
  private hookJacobians(sb: SolverBodies): void {
    if (this.hookRowCount === 0) return;
    for (let n = 0; n < this.count; n++) {
      if (this.kern[n]! >= 0) continue;
      this.fillState(n, sb);
      if (this.prep[n] === 1) this.rows[n]!.prepare(this.state);
      this.rows[n]!.jacobian(this.jViews[n]!, this.state);
      // A soft row's spring and a limited row's sides need C at this pose: computed now, with the state at hand.
      if (this.soft[n] === 1 || this.lim[n] === 1) {
        this.evalPosition(n, this.errPool, this.vOff[n]!);
        this.errValid[n] = 1;
      } else this.errValid[n] = 0;
    }
  }

  // ------------------------------------------------------------------ passes

  /** Add an impulse (ox, oy, oz) to slot s: to its body impulse sum, and to its body's velocity if it is in the solver. */
  private applySlotImpulse(sb: SolverBodies, s: number, ox: number, oy: number, oz: number): void {
    const imp = this.slotImp;
    const si = 3 * s;
    imp[si] = imp[si]! + ox;
    imp[si + 1] = imp[si + 1]! + oy;
    imp[si + 2] = imp[si + 2]! + oz;
    const k = this.slotK[s]!;
    if (k <= 0) return;
    const m = sb.invMass[k]!;
    sb.vx[k] = sb.vx[k]! + m * ox;
    sb.vy[k] = sb.vy[k]! + m * oy;
    sb.w[k] = sb.w[k]! + sb.invI[k]! * oz;
  }

  warmStart(ctx: StepContext): void {
    if (this.count === 0) return;
    if (this.jViews.length !== this.count) {
      // The pool has its size for this plan now: views made here stay valid until the next plan.
      this.jViews.length = 0;
      for (let n = 0; n < this.count; n++) this.jViews.push(this.jPool.subarray(this.jOff[n]!, this.jOff[n]! + 3 * this.dim[n]! * this.slots[n]!));
    }
    const close = this.started;
    this.started = true;
    this.ensurePose(ctx);
    const sb = ctx.bodies;
    const from = this.parallelStage(close ? COMMAND.USER_NEXT_SUBSTEP : COMMAND.USER_WARM_START, sb, false);
    this.writeViews(this.views);
    USER_KERNELS.warmStart(this.views, sb.vx, sb.vy, sb.w, sb.invMass, sb.invI, from, this.count, close);
    sb.vx[0] = sb.vy[0] = sb.w[0] = 0;
  }

  /** One velocity pass (the one-by-one path's _solve for a constraint without per-pass hooks). */
  solve(ctx: StepContext, useBias: boolean): void {
    if (this.count === 0) return;
    this.ensurePose(ctx);
    // A biased pass with the joint softness (jointHertz > 0) needs C of the stiff rows too, which
    // the pose left out: each is computed as its row comes, on the calling thread (lazyBias).
    const lazyBias = useBias && ctx.jointSoftness.biasRate !== 0;
    const from = lazyBias ? 0 : this.parallelStage(COMMAND.USER_SOLVE, ctx.bodies, true, ctx, useBias);
    this.solveRuns(ctx, useBias, from, lazyBias);
    const sb = ctx.bodies;
    sb.vx[0] = sb.vy[0] = sb.w[0] = 0;
  }

  /**
   * The pass over solve positions [from, count) on the calling thread: each run of unlimited rows
   * by the kernel, each limited row by its sides. With `lazyBias`, a stiff row without C at this
   * pose first gets it, from the state as the rows before it left the velocities (what the
   * one-by-one path hands its hooks), and the kernel takes the rows one at a time.
   */
  private solveRuns(ctx: StepContext, useBias: boolean, from: number, lazyBias: boolean): void {
    const sb = ctx.bodies;
    const num = this.passNumbers;
    this.writePassNumbers(num, 0, ctx, useBias);
    this.writeViews(this.views);
    for (let r = 0; r < this.runCount; r++) {
      const lo = this.runStart[r]!;
      const hi = this.runStart[r + 1]!;
      if (hi <= from) continue;
      if (this.runLimited[r] === 1) {
        for (let n = lo; n < hi; n++) this.solveLimitedRow(n, ctx, useBias);
      } else if (lazyBias) {
        for (let n = lo; n < hi; n++) {
          if (this.errValid[n] === 0) this.evaluateBias(n, sb);
          USER_KERNELS.pass(this.views, sb.vx, sb.vy, sb.w, sb.invMass, sb.invI, num, n, n + 1);
        }
      } else {
        USER_KERNELS.pass(this.views, sb.vx, sb.vy, sb.w, sb.invMass, sb.invI, num, lo < from ? from : lo, hi);
      }
    }
  }

  /** Row n's C at the pose, from its body states as they are now (velocities moved since the pose: refreshed, as hooks get). */
  private evaluateBias(n: number, sb: SolverBodies): void {
    if (this.kern[n]! >= 0) {
      this.refreshRowStates(n, sb);
      this.runKernelRow(n, sb, true, false);
    } else {
      this.fillState(n, sb);
      this.evalPosition(n, this.errPool, this.vOff[n]!);
    }
    this.errValid[n] = 1;
  }

  /** A pass's numbers (USER_PASS) into `num` from `at`. */
  private writePassNumbers(num: Float64Array, at: number, ctx: StepContext, useBias: boolean): void {
    const js = ctx.jointSoftness;
    num[at + USER_PASS.USE_BIAS] = useBias ? 1 : 0;
    num[at + USER_PASS.BIAS_RATE] = js.biasRate;
    num[at + USER_PASS.MASS_SCALE] = js.massScale;
    num[at + USER_PASS.IMPULSE_SCALE] = js.impulseScale;
    num[at + USER_PASS.COMPLIANCE] = js.compliance;
    num[at + USER_PASS.H] = ctx.h;
  }

  /**
   * A limited constraint's velocity pass (UserConstraint.solveLimited with no equality rows, term
   * for term): each finite bound of each row is a one-sided row, reading the velocities as the
   * sides before it left them.
   */
  private solveLimitedRow(n: number, ctx: StepContext, useBias: boolean): void {
    const sb = ctx.bodies;
    const dim = this.dim[n]!;
    const slots = this.slots[n]!;
    const cols = 3 * slots;
    const jo = this.jOff[n]!;
    const ko = this.kOff[n]!;
    const vo = this.vOff[n]!;
    const s0 = this.sOff[n]!;
    const soft = this.soft[n] === 1;
    const own = this.rowSoftness;
    own.biasRate = this.bias[n]!;
    own.compliance = this.compliance[n]!;
    const pass = passSoftness(soft ? own : null, useBias, ctx.jointSoftness);
    // A soft row, and a stiff one's biased pass with the joint softness, take the fixed compliance.
    const fixed = soft || (useBias && ctx.jointSoftness.compliance > 0);
    const maxError = this.maxErr[n]!;
    const maxImpulse = this.maxImp[n]! * ctx.h;
    for (let r = 0; r < dim; r++) {
      const k = this.kPool[ko + r * dim + r]!;
      if (k <= 0) continue;
      const v = vo + r;
      const c = this.errPool[v]!;
      const base = jo + r * cols;
      const lo = this.minPool[v]!;
      const hi = this.maxPool[v]!;
      if (lo > -Infinity) {
        const old = this.accMinPool[v]!;
        const next = limitSideUpdate(old, c - lo, this.rowRate(sb, base, s0, slots), k, ctx.invH, pass, soft, maxError, maxImpulse, fixed ? this.gammaPool[v]! : 0);
        this.accMinPool[v] = next;
        this.applyRow(sb, base, s0, slots, next - old);
      }
      if (hi < Infinity) {
        const old = this.accMaxPool[v]!;
        const next = limitSideUpdate(old, hi - c, -this.rowRate(sb, base, s0, slots), k, ctx.invH, pass, soft, maxError, maxImpulse, fixed ? this.gammaPool[v]! : 0);
        this.accMaxPool[v] = next;
        this.applyRow(sb, base, s0, slots, -(next - old));
      }
      this.accPool[v] = this.accMinPool[v]! - this.accMaxPool[v]!;
    }
  }

  /** J · v of the row whose J starts at jPool[base] (slots from s0) at the solver's current velocities. */
  private rowRate(sb: SolverBodies, base: number, s0: number, slots: number): number {
    const pool = this.jPool;
    let v = 0;
    for (let j = 0; j < slots; j++) {
      const k = this.slotK[s0 + j]!;
      const i = base + 3 * j;
      v += pool[i]! * sb.vx[k]! + pool[i + 1]! * sb.vy[k]! + pool[i + 2]! * sb.w[k]!;
    }
    return v;
  }

  /** Apply λ along the one row whose J starts at jPool[base] (a limit side). */
  private applyRow(sb: SolverBodies, base: number, s0: number, slots: number, lambda: number): void {
    if (lambda === 0) return;
    const pool = this.jPool;
    for (let j = 0; j < slots; j++) {
      const i = base + 3 * j;
      this.applySlotImpulse(sb, s0 + j, pool[i]! * lambda, pool[i + 1]! * lambda, pool[i + 2]! * lambda);
    }
  }

  /** Position pass for the stiff rows: K Δ = −C at the current pose, applied to positions. */
  solvePosition(ctx: StepContext): void {
    this.solvePositionRows(ctx);
    // Poses moved: the cached J and K are stale.
    this.poseEpoch = -1;
  }

  /** (The loop is the method's last statement: see PivotBatch.warmStart.) */
  private solvePositionRows(ctx: StepContext): void {
    const sb = ctx.bodies;
    this.sb = sb;
    if (!this.laidOut) this.layoutKernels(sb);
    this.writeViews(this.views);
    const rhs = this.rhs;
    const pool = this.jPool;
    // A coloured plan's position passes still go in the order its constraints came in (colours.position
    // maps each to its row): a correction then travels down a hanging net within a pass.
    const plan = this.coloured ? this.colours.position : null;
    for (let i = 0; i < this.count; i++) {
      const n = plan === null ? i : plan[i]!;
      if (this.soft[n] === 1) continue;
      const dim = this.dim[n]!;
      const slots = this.slots[n]!;
      const cols = 3 * slots;
      const jo = this.jOff[n]!;
      const s0 = this.sOff[n]!;
      if (this.kern[n]! >= 0) {
        // C (into errPool) and J at the current pose, in one kernel call where it has one.
        this.refreshRowStates(n, sb);
        this.runKernelRow(n, sb, true, true);
        const vo = this.vOff[n]!;
        for (let r = 0; r < dim; r++) rhs[r] = this.errPool[vo + r]!;
      } else {
        // The one-by-one order: prepare, position, then J and K.
        this.fillState(n, sb);
        if (this.prep[n] === 1) this.rows[n]!.prepare(this.state);
        this.evalPosition(n, rhs, 0);
        this.rows[n]!.jacobian(this.jViews[n]!, this.state);
        this.buildK(n, sb);
      }
      if (this.lim[n] === 1) {
        // Each violated row back to its bound (UserConstraint.solvePositionLimited, term for term).
        const vo = this.vOff[n]!;
        for (let r = 0; r < dim; r++) rhs[r] = limitPositionImpulse(rhs[r]!, this.minPool[vo + r]!, this.maxPool[vo + r]!, this.K[r * dim + r]!);
      } else {
        for (let r = 0; r < dim; r++) rhs[r] = -rhs[r]!;
        solveSymmetric(this.K, rhs, dim);
      }
      // The pass's damping (position-step.ts), from each body's turn, as UserConstraint finds it.
      let scale = 1;
      for (let j = 0; j < slots; j++) {
        const k = this.slotK[s0 + j]!;
        if (k <= 0) continue;
        let oz = 0;
        for (let r = 0; r < dim; r++) oz += pool[jo + r * cols + 3 * j + 2]! * rhs[r]!;
        scale = limitTurn(scale, sb.invI[k]! * oz);
      }
      for (let j = 0; j < slots; j++) {
        const k = this.slotK[s0 + j]!;
        if (k <= 0) continue;
        let ox = 0, oy = 0, oz = 0;
        for (let r = 0; r < dim; r++) {
          const i = jo + r * cols + 3 * j;
          const l = rhs[r]!;
          ox += pool[i]! * l;
          oy += pool[i + 1]! * l;
          oz += pool[i + 2]! * l;
        }
        ox *= scale;
        oy *= scale;
        oz *= scale;
        const m = sb.invMass[k]!;
        const ii = sb.invI[k]!;
        sb.dpx[k] = sb.dpx[k]! + m * ox;
        sb.dpy[k] = sb.dpy[k]! + m * oy;
        if (ii !== 0 && oz !== 0) sb.rotate(k, ii * oz);
      }
    }
  }

  // ------------------------------------------------------------------ the parallel step

  /**
   * Keep the rows in SharedArrayBuffers from now on (before workers start). The hooks' J views and
   * the kernel groups' arrays point into the old pools: both are made again before the next pose.
   */
  share(): void {
    this.dim = shareArray(this.dim);
    this.slots = shareArray(this.slots);
    this.soft = shareArray(this.soft);
    this.jOff = shareArray(this.jOff);
    this.kOff = shareArray(this.kOff);
    this.vOff = shareArray(this.vOff);
    this.sOff = shareArray(this.sOff);
    this.bias = shareArray(this.bias);
    this.maxImp = shareArray(this.maxImp);
    this.maxErr = shareArray(this.maxErr);
    this.jPool = shareArray(this.jPool);
    this.kPool = shareArray(this.kPool);
    this.dinvPool = shareArray(this.dinvPool);
    this.kPoolB = shareArray(this.kPoolB);
    this.dinvPoolB = shareArray(this.dinvPoolB);
    this.gammaPool = shareArray(this.gammaPool);
    this.accPool = shareArray(this.accPool);
    this.stepPool = shareArray(this.stepPool);
    this.errPool = shareArray(this.errPool);
    this.slotK = shareArray(this.slotK);
    this.slotImp = shareArray(this.slotImp);
    this.lim = shareArray(this.lim);
    this.kFloor = shareArray(this.kFloor);
    this.compliance = shareArray(this.compliance);
    this.errValid = shareArray(this.errValid);
    this.paramPool = shareArray(this.paramPool);
    this.slotState = shareArray(this.slotState);
    this.poseStates = shareArray(this.poseStates);
    this.poseBodies = shareArray(this.poseBodies);
    this.poseLx = shareArray(this.poseLx);
    this.poseLy = shareArray(this.poseLy);
    this.jViews.length = 0;
    this.laidOut = false;
    this.poseEpoch = -1;
  }

  /** Solve from now on with these workers (null: alone). The rows must have been shared. */
  attach(pool: WorkerPool | null): void {
    this.pool = pool;
  }

  /** The arrays of `v` that are this batch's rows (their current ones: an array that grew is new). */
  writeViews(v: UserRowViews & UserPoseViews): void {
    v.udim = this.dim;
    v.uslots = this.slots;
    v.usoft = this.soft;
    v.ujOff = this.jOff;
    v.ukOff = this.kOff;
    v.uvOff = this.vOff;
    v.usOff = this.sOff;
    v.ubias = this.bias;
    v.umaxImp = this.maxImp;
    v.umaxErr = this.maxErr;
    v.uj = this.jPool;
    v.uk = this.kPool;
    v.udinv = this.dinvPool;
    v.ukB = this.kPoolB;
    v.udinvB = this.dinvPoolB;
    v.ugamma = this.gammaPool;
    v.uacc = this.accPool;
    v.ustep = this.stepPool;
    v.uerr = this.errPool;
    v.uslotK = this.slotK;
    v.uimp = this.slotImp;
    v.ulim = this.lim;
    v.ukFloor = this.kFloor;
    v.ucompliance = this.compliance;
    v.uerrValid = this.errValid;
    v.uposeStates = this.poseStates;
    v.uposeBodies = this.poseBodies;
    v.uposeLx = this.poseLx;
    v.uposeLy = this.poseLy;
    v.ugroups = this.groupViews;
  }

  /**
   * Run a stage's colours on every thread when there are workers and the plan is coloured, and
   * return where the calling thread goes on alone: the overflow's start, or 0 (every row). A pass
   * (`pass`) takes its numbers from the stage's PARAMS.
   */
  private parallelStage(command: number, sb: SolverBodies, pass: boolean, ctx?: StepContext, useBias = false): number {
    const pool = this.pool;
    if (pool === null || !this.coloured) return 0;
    if (pass) this.writePassNumbers(pool.prm, PARAMS.USER, ctx!, useBias);
    return pool.runColours(command, this.colours.start, this, sb);
  }

  /** End of the step: close the last substep (the impulses stay in the rows, read lazily). */
  store(): void {
    if (this.started) for (let i = 0; i < this.vTotal; i++) this.stepPool[i] = this.stepPool[i]! + this.accPool[i]!;
    this.started = false;
  }

  /** The step ctx.step failed: the rows' impulses as prepared, and their read-outs as the last step left them. */
  restoreImpulses(ctx: StepContext): void {
    if (this.keptAt !== ctx.step) return;
    for (let v = 0; v < this.vTotal; v++) {
      this.accPool[v] = this.keptAcc[v]!;
      this.accMinPool[v] = this.keptAccMin[v]!;
      this.accMaxPool[v] = this.keptAccMax[v]!;
      this.stepPool[v] = this.keptStep[v]!;
    }
    for (let i = 0; i < 3 * this.sTotal; i++) this.slotImp[i] = this.keptSlotImp[i]!;
    this.started = false;
    this.poseEpoch = -1;
  }
}
