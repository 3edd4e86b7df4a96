/**
 * The joint-island solver: a small island of joints whose rows are all equalities, solved as
 * one block, exactly, in every pass.
 *
 * Why: Gauss-Seidel solves one joint at a time, and a light body between two joints with a heavy
 * load beyond converges slowly where the two joints' rows are nearly dependent. A 0.2 kg plank
 * pinned to the ground 6 m from its origin, carrying a 5 kg ball on a rigid 15 m rod, gained
 * energy whenever the plank's origin passed between the pivot and the ball, and reached 1e10 m/s
 * (solved rod first; not 300 relax passes per substep, nor 16 substeps, cured it). Solved as one
 * 3-row block the same scene never gains energy. Each pass is then the exact velocity projection
 * of the island, whatever its mass ratios and its order.
 *
 * The block, over the island's rows a, b (every row of every joint, in plan order):
 *
 *   K_ab = Σ over slot pairs (s of a's joint, t of b's) on the same solver body k:
 *          m_k (J_a,s · J_b,t)_lin + i_k J_a,s,ang J_b,t,ang
 *   (K + diag Γ) Δλ = x − Γ·λ,   x_a = −(V_a + biasRate_a·C_a)
 *
 * with each row's own coefficients: a soft joint's spring with its fixed compliance Γ (softness.ts),
 * its error clamped to maxError and its impulse to maxForce·h (per joint, after the solve); a stiff
 * joint rigid (Γ = 0), but in the biased pass with the space's joint softness (jointHertz > 0) as a
 * fixed compliance too. (In Catto's mass-normalised form, the coupled block's stiff rows diverged:
 * a light body welded far from its centre and tied softly to two heavier ones went 1e5 m in 4 steps.) The position pass solves
 * K Δ = −C over the stiff joints' rows at the current positions, also as one block. Zero pivots
 * (slack rows, a rank-deficient island) get no impulse (dense.ts).
 *
 * Which islands: StepPlan asks claim() before it builds the plan. Constraints connected through
 * awake bodies whose rows are all equalities with a known J (Constraint._islandEligible: Pivot,
 * Weld; Distance, Angle, Line and Pulley with jointMin = jointMax; UserConstraints in jacobian form
 * without limits or per-pass hooks) form islands; one with at least two constraints and at most
 * MAX_ISLAND_ROWS rows comes here. Each member hands over its rows as a view (IslandRowsView,
 * joint-rows.ts) and takes its impulses back as a vector (_islandApply). A single joint's rows are already one block; a large island (a chain, a grid) stays
 * with the batches, whose Gauss-Seidel passes cost O(rows) where a dense solve costs O(rows³).
 */
import type { Body } from '../body/body.js';
import type { BreakSink, ConstraintFamily } from '../space/solver-families.js';
import type { StepContext } from '../space/step-context.js';
import type { BreakReason, Constraint } from './constraint.js';
import { normClampFactor, solveSymmetric } from './dense.js';
import { ROW_EQUALITY } from './joint.js';
import { columnTurn, jointRowReferenceK, jointRowsK, jointRowVelocity, type IslandRowsView } from './joint-rows.js';
import { limitTurn } from './position-step.js';
import { grown } from '../util/typed-arrays.js';
import { passSoftness, softRhs, softUpdate } from './softness.js';

/** The most rows an island may have to be solved here (a dense solve per pass costs rows³/6). */
export const MAX_ISLAND_ROWS = 16;

/** One island: its joints, in plan order, and where each joint's rows start in the block. */
interface Island {
  joints: Constraint[];
  rows: number;
}

export class JointIslandFamily implements ConstraintFamily {
  readonly kind = 'joint-island';
  /** Joints claimed for the plan being built, and the index of each one's island. */
  private readonly claimed = new Map<Constraint, number>();
  private claimedIslands = 0;
  private islands: Island[] = [];
  // The block's scratch, for the largest island.
  private readonly K = new Float64Array(MAX_ISLAND_ROWS * MAX_ISLAND_ROWS);
  private readonly rhs = new Float64Array(MAX_ISLAND_ROWS);
  private readonly gamma = new Float64Array(MAX_ISLAND_ROWS);
  private readonly views: IslandRowsView[] = [];
  /** One constraint's impulse changes, handed to it as a vector. */
  private readonly delta = new Float64Array(MAX_ISLAND_ROWS);
  /** A position pass's turn per body (solver index turnBody[b]), for its damping. */
  private turnBody = new Int32Array(64);
  private turn = new Float64Array(64);

  /**
   * Before a plan is built: find the islands this family takes among the constraints the plan will
   * prepare (active, with an awake body), by union-find over their awake bodies.
   */
  claim(constraints: readonly Constraint[]): void {
    this.claimed.clear();
    this.claimedIslands = 0;
    if (constraints.length < 2) return;
    const parent = this.parent;
    parent.clear();
    const find = (b: Body): Body => {
      let r = b;
      for (let p = parent.get(r)!; p !== r; p = parent.get(r)!) r = p;
      // (Path compression keeps later finds short.)
      for (let c = b, p = parent.get(c)!; p !== r; c = p, p = parent.get(c)!) parent.set(c, r);
      return r;
    };
    const candidates = this.candidates;
    candidates.length = 0;
    for (const c of constraints) {
      if (!c._active || !c._islandEligible()) continue;
      let first: Body | null = null;
      for (const b of c.bodies) {
        if (b._solverIndex <= 0) continue;
        if (!parent.has(b)) parent.set(b, b);
        if (first === null) first = b;
        else parent.set(find(b), find(first));
      }
      if (first !== null) candidates.push(c);
    }
    const byRoot = this.byRoot;
    byRoot.clear();
    for (const j of candidates) {
      let root: Body | null = null;
      for (const b of j.bodies) if (b._solverIndex > 0) root = find(b);
      let island = byRoot.get(root!);
      if (island === undefined) byRoot.set(root!, (island = { joints: [], rows: 0 }));
      island.joints.push(j);
      island.rows += j.dimension;
    }
    for (const island of byRoot.values()) {
      if (island.joints.length < 2 || island.rows > MAX_ISLAND_ROWS) continue;
      for (const j of island.joints) this.claimed.set(j, this.claimedIslands);
      this.claimedIslands++;
    }
    candidates.length = 0;
    byRoot.clear();
    parent.clear();
  }
  // claim()'s scratch, kept between plans.
  private readonly parent = new Map<Body, Body>();
  private readonly byRoot = new Map<Body, Island>();
  private readonly candidates: Constraint[] = [];

  /** Whether `c` is claimed for the plan being built. */
  takes(c: Constraint): boolean {
    return this.claimed.has(c);
  }

  /** (After claim: one island per claimed one, filled by add in plan order.) */
  begin(): void {
    this.islands = [];
    for (let i = 0; i < this.claimedIslands; i++) this.islands.push({ joints: [], rows: 0 });
  }

  add(c: Constraint, ctx: StepContext): BreakReason | null {
    const reason = c._prepare(ctx);
    if (reason !== null) return reason;
    const island = this.islands[this.claimed.get(c)!]!;
    island.joints.push(c);
    island.rows += c.dimension;
    return null;
  }

  refresh(ctx: StepContext, broke: BreakSink): void {
    for (const island of this.islands) {
      const joints = island.joints;
      for (let i = 0; i < joints.length; i++) {
        const j = joints[i]!;
        const reason = j._prepare(ctx);
        if (reason === null) continue;
        joints.splice(i--, 1);
        island.rows -= j.dimension;
        broke(j, reason);
      }
    }
  }

  finishes(): boolean {
    return true;
  }

  remove(c: Constraint): void {
    for (const island of this.islands) {
      const i = island.joints.indexOf(c);
      if (i < 0) continue;
      island.joints.splice(i, 1);
      island.rows -= c.dimension;
    }
  }

  warmStart(ctx: StepContext): void {
    for (const island of this.islands) for (const j of island.joints) j._warmStart(ctx);
  }

  solve(ctx: StepContext): void {
    for (const island of this.islands) this.solveIsland(island, ctx, true);
  }

  relax(ctx: StepContext): void {
    for (const island of this.islands) this.solveIsland(island, ctx, false);
  }

  solvePosition(ctx: StepContext): void {
    for (const island of this.islands) this.positionIsland(island, ctx);
  }

  store(): void {}

  restoreImpulses(ctx: StepContext): void {
    for (const island of this.islands) for (const j of island.joints) j._restoreImpulses(ctx);
  }

  /** One velocity pass over an island: x, K + Γ, the exact solve, then each joint's update and clamp. */
  private solveIsland(island: Island, ctx: StepContext, useBias: boolean): void {
    const views = this.views;
    views.length = 0;
    const joints = island.joints;
    const rhs = this.rhs;
    const gamma = this.gamma;
    const n = island.rows;
    let a = 0;
    for (const j of joints) {
      const v = j._islandRows(ctx);
      views.push(v);
      const soft = !j._stiff;
      const { biasRate, compliance } = passSoftness(soft ? v.soft : null, useBias, ctx.jointSoftness);
      // A soft joint's spring sees its error clamped to maxError (Nape), as Joint._solve has it.
      let errScale = 1;
      if (soft && j._maxError !== Infinity) {
        let e2 = 0;
        for (let r = 0; r < v.dim; r++) if (v.kind[r] === ROW_EQUALITY) e2 += v.C[r]! * v.C[r]!;
        errScale = normClampFactor(e2, j._maxError);
      }
      for (let r = 0; r < v.dim; r++, a++) {
        if (v.kind[r] !== ROW_EQUALITY) {
          rhs[a] = gamma[a] = 0;
          continue;
        }
        const x = -(jointRowVelocity(v.J, v.slots, r, ctx) + biasRate * errScale * v.C[r]!);
        gamma[a] = compliance > 0 ? compliance * jointRowReferenceK(v.J, v.slots, r) : 0;
        rhs[a] = compliance > 0 ? softRhs(x, gamma[a]!, v.acc[r]!) : x;
      }
    }
    this.buildK(n, true);
    solveSymmetric(this.K, rhs, n);
    a = 0;
    for (let q = 0; q < joints.length; q++) {
      const j = joints[q]!;
      const v = views[q]!;
      const soft = !j._stiff;
      const { massScale, impulseScale, compliance } = passSoftness(soft ? v.soft : null, useBias, ctx.jointSoftness);
      const start = a;
      let n2 = 0;
      for (let r = 0; r < v.dim; r++, a++) {
        if (v.kind[r] !== ROW_EQUALITY) continue;
        const next = compliance > 0 ? v.acc[r]! + rhs[a]! : softUpdate(v.acc[r]!, rhs[a]!, massScale, impulseScale);
        rhs[a] = next;
        n2 += next * next;
      }
      // A soft joint cannot exceed maxForce (a vector clamp over its rows).
      const f = soft ? normClampFactor(n2, j._maxForce * ctx.h) : 1;
      const delta = this.delta;
      for (let r = 0, b = start; r < v.dim; r++, b++) {
        delta[r] = 0;
        if (v.kind[r] !== ROW_EQUALITY) continue;
        const next = rhs[b]! * f;
        delta[r] = next - v.acc[r]!;
        v.acc[r] = next;
      }
      j._islandApply(ctx, delta);
    }
  }

  /** One position pass: K Δ = −C over the stiff joints' rows at the current positions, as one block. */
  private positionIsland(island: Island, ctx: StepContext): void {
    const views = this.views;
    views.length = 0;
    const rhs = this.rhs;
    const n = island.rows;
    let a = 0;
    for (const j of island.joints) {
      const v = j._islandRowsNow(ctx);
      views.push(v);
      for (let r = 0; r < v.dim; r++, a++) rhs[a] = j._stiff && v.kind[r] === ROW_EQUALITY ? -v.C[r]! : 0;
    }
    // Soft joints' rows take no part: they are springs, with no position pass.
    this.buildK(n, false);
    a = 0;
    for (const j of island.joints) {
      for (let r = 0; r < j.dimension; r++, a++) {
        if (j._stiff) continue;
        for (let b = 0; b < n; b++) this.K[a * n + b] = this.K[b * n + a] = 0;
      }
    }
    solveSymmetric(this.K, rhs, n);
    const scale = this.positionScale(rhs);
    a = 0;
    const delta = this.delta;
    for (let q = 0; q < island.joints.length; q++) {
      const j = island.joints[q]!;
      for (let r = 0; r < j.dimension; r++) delta[r] = rhs[a + r]!;
      j._islandApplyPositions(ctx, delta, scale);
      a += j.dimension;
    }
  }

  /**
   * The position pass's damping (position-step.ts) for λ over the island's rows (this.views):
   * each body's turn summed over every member that moves it.
   */
  private positionScale(lam: Float64Array): number {
    const bodies = this.turnBody;
    const turns = this.turn;
    let count = 0;
    let a = 0;
    for (const v of this.views) {
      for (let s = 0; s < v.slots.length; s++) {
        const t = columnTurn(v.J, v.slots, s, v.dim, lam, a);
        if (t === 0) continue;
        const k = v.slots[s]!.k;
        let b = 0;
        while (b < count && bodies[b] !== k) b++;
        if (b === count) {
          if (count === bodies.length) {
            this.turnBody = grown(bodies, count + 1);
            this.turn = grown(turns, count + 1);
            return this.positionScale(lam);
          }
          bodies[count] = k;
          turns[count++] = 0;
        }
        turns[b] = turns[b]! + t;
      }
      a += v.dim;
    }
    let scale = 1;
    for (let b = 0; b < count; b++) scale = limitTurn(scale, turns[b]!);
    return scale;
  }

  /**
   * K over the island's rows from the views (K_ab as in the file comment), into this.K (n × n);
   * with `withCompliance`, plus diag Γ. Rows that are not equalities are zero rows.
   */
  private buildK(n: number, withCompliance: boolean): void {
    const K = this.K;
    const views = this.views;
    let a = 0;
    for (let p = 0; p < views.length; p++) {
      const va = views[p]!;
      for (let ra = 0; ra < va.dim; ra++, a++) {
        let b = 0;
        for (let q = 0; q < views.length; q++) {
          const vb = views[q]!;
          for (let rb = 0; rb < vb.dim; rb++, b++) {
            if (b < a) continue;
            const k = va.kind[ra] === ROW_EQUALITY && vb.kind[rb] === ROW_EQUALITY ? jointRowsK(va.J, va.slots, ra, vb.J, vb.slots, rb) : 0;
            K[a * n + b] = k;
            K[b * n + a] = k;
          }
        }
        if (withCompliance) K[a * n + a] = K[a * n + a]! + this.gamma[a]!;
      }
    }
  }
}
