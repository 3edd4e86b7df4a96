/**
 * The joint-island solver: a small island of joints, solved as one block, exactly, in every pass:
 * its equality rows and the stiff joints' limit rows together.
 *
 * Why: Gauss-Seidel solves one joint at a time, and a light body between two joints with a heavy
 * load beyond converges slowly where the two joints' rows are nearly dependent. A 0.2 kg plank
 * pinned to the ground 6 m from its origin, carrying a 5 kg ball on a rigid 15 m rod, gained
 * energy whenever the plank's origin passed between the pivot and the ball, and reached 1e10 m/s
 * (solved rod first; not 300 relax passes per substep, nor 16 substeps, cured it). Solved as one
 * 3-row block the same scene never gains energy. Each pass is then the exact velocity projection
 * of the island, whatever its mass ratios and its order. A range does the same (a 0.03 kg ball
 * welded to a 0.2 kg body and hanging on a DistanceJoint range from a 0.8 kg one passed 1e6 m/s
 * after 9 s, fuzz seed 1253833093), so joints with limits come here too.
 *
 * The block, over the island's rows a, b (every row of every joint, in plan order):
 *
 *   K_ab = Σ over slot pairs (s of a's joint, t of b's) on the same solver body k:
 *          m_k (J_a,s · J_b,t)_lin + i_k J_a,s,ang J_b,t,ang
 *   (K + diag Γ) Δλ = x − Γ·λ,   x_a = −(V_a + biasRate_a·C_a)
 *
 * with each row's own coefficients: a soft joint's spring with its fixed compliance Γ (softness.ts),
 * its error clamped to maxError; a stiff
 * joint rigid (Γ = 0), but in the biased pass with the space's joint softness (jointHertz > 0) as a
 * fixed compliance too. (In Catto's mass-normalised form, the coupled block's stiff rows diverged:
 * a light body welded far from its centre and tied softly to two heavier ones went 1e5 m in 4 steps.)
 *
 * Limit rows: each takes one side per pass, the lower pushing along +J, the upper along −J, with
 * the one-by-one path's target J_side·v + bias ≥ 0 (limitSideUpdate: C/h while the gap is open;
 * once reached, a soft joint's own spring, its push no faster than at maxError, or a stiff one's
 * pass softness, each here as the fixed compliance above) and an impulse that only pushes (μ ≥ 0).
 * The block with them is a mixed complementarity problem, solved exactly by an active set
 * (solveActiveSet): the sides that push are equalities, the others let go. An island without limit
 * rows takes the plain solve, the same arithmetic as before limits came.
 *
 * SOFT_RANGES. A soft joint's range comes here too. Solved one by one, a soft range 4 m from the
 * centre of a 6 cm capsule pinned 7 m from it (fuzz seed 522636959) fought the pivot through the
 * capsule's tiny inertia: their warm starts grew sixfold per substep, to 1e156 m/s in 10 s. As one
 * block the capsule swings at 13 m/s. The spring is the same rule on both paths: a plank held up
 * by a soft AngleJoint range sags to the analytic equilibrium either way (joint-island.test.ts).
 *
 * The position pass solves K Δ = −C over the stiff joints' equality rows at the current positions,
 * with each limit row outside its range held to the bound it passed, also as one block. Zero pivots
 * (slack rows, a rank-deficient island) get no impulse (dense.ts).
 *
 * FRESH_STIFF_ROWS. An island's stiff rows, equalities and limit sides alike, are not
 * warm-started: their accumulated impulses start each substep from zero. The first exact pass
 * gives the island the same velocities whatever impulse those rows start from (the block's
 * solution absorbs it; the active set takes a pushing side exactly and lets a slack one go), so a
 * warm start there buys nothing for the island itself. What it did carry was the part of last
 * pose's impulse that Jᵀ cancelled there, from nearly dependent or conflicting rows (a body
 * between a kinematic driver and fixed joints, two pivots on one point, a range on a 9 m lever
 * beside a rigid rod), which the next pose released: traced stage by stage, 10 of the fuzz's 15
 * blow-ups first appeared at this warm start, and a limit side's (fuzz seed 4292858470) after the
 * equality rows had gone fresh. The other families still see an island's forces in the passes
 * after its solve; only the user batch, solved first, no longer sees them in its first pass. Soft
 * rows (the spring's memory) are warm-started as before.
 *
 * FORCE_LIMITED_SOFT_JOINTS. A soft joint with a finite maxForce stays out: a bound on one
 * member's impulse is not a block's. Clamped after the exact solve, the other members' impulses
 * had been computed for the unclamped one; a 0.03 kg body between a 40 Hz weld and a weld whose
 * maxForce held less than the load span up to 1e5 rad/s in 150 steps, and such joints were 30 of
 * the fuzz's 76 blow-ups in 1,000 scenes. Solved one at a time, the Gauss-Seidel passes see each
 * other's clamped impulses (as the one-by-one and batch paths always did).
 *
 * Which islands: StepPlan asks claim() before it builds the plan. Constraints connected through
 * awake bodies whose rows are equalities or limits, with a known J (Constraint._islandEligible:
 * Pivot, Weld, Distance, Angle, Line and Pulley joints, stiff or soft; UserConstraints in jacobian
 * form without per-pass hooks, their limited rows too; not MotorJoint, nor a soft joint with a
 * finite maxForce) form islands; one with at least two constraints and at most MAX_ISLAND_ROWS rows
 * (MAX_LIGHT_ISLAND_ROWS with a light body: LIGHT_LINKS) comes
 * here. Each member hands over its rows as a view (IslandRowsView, joint-rows.ts) and takes its
 * impulses back as a vector (_islandApply). A single joint's rows are already one block; a large
 * island (a chain, a grid) stays with the batches, whose Gauss-Seidel passes cost O(rows) where a
 * dense solve costs O(rows³).
 */
import type { Body } from '../body/body.js';
import type { BreakSink, ConstraintFamily } from '../space/solver-families.js';
import type { StepContext } from '../space/step-context.js';
import type { BreakReason, Constraint } from './constraint.js';
import { normClampFactor, solveSymmetric } from './dense.js';
import { ROW_EQUALITY, ROW_LIMIT, ROW_SLACK } from './joint.js';
import { columnTurn, jointLeverShare, jointRowReferenceK, jointRowsK, jointRowVelocity, type IslandRowsView } from './joint-rows.js';
import { limitTurn } from './position-step.js';
import { grown } from '../util/typed-arrays.js';
import { JOINT_PUSH_MAX_VELOCITY, oneSidedBias, passSoftness, softRhs, softUpdate, stiffBias } from './softness.js';

/** The most rows an island may have to be solved here (a dense solve per pass costs rows³/6). */
export const MAX_ISLAND_ROWS = 16;

/**
 * LIGHT_LINKS. An island with a light body, one whose mass is under 1/LIGHT_BODY_RATIO of the
 * heaviest body's in it, may have up to MAX_LIGHT_ISLAND_ROWS rows. Gauss-Seidel fails exactly
 * there (above), and the fuzz's chains over 16 rows that blew up had such links: 7 welds with a
 * 10 g link between 2 and 4.5 kg ones, 9 pivots with 80 g links between 2–15 kg ones. An island
 * of even masses stays at MAX_ISLAND_ROWS, where Gauss-Seidel converges and costs O(rows).
 */
export const MAX_LIGHT_ISLAND_ROWS = 32;
export const LIGHT_BODY_RATIO = 10;

/** A row's part in the block with limits (solveActiveSet): none, an equality, or one side of a limit. */
const ROLE_NONE = 0;
const ROLE_EQUALITY = 1;
const ROLE_SIDE = 2;

/** One island: its joints, in plan order, and where each joint's rows start in the block. */
interface Island {
  joints: Constraint[];
  rows: number;
}

/** An island as claim() gathers it, with the lightest and heaviest finite masses of its bodies (LIGHT_LINKS). */
interface ClaimedGroup extends Island {
  lightest: number;
  heaviest: number;
}

export class JointIslandFamily implements ConstraintFamily {
  readonly kind = 'joint-island';
  /** Joints claimed for the plan being built, and the index of each one's island. */
  private readonly claimed = new Map<Constraint, number>();
  private claimedIslands = 0;
  private islands: Island[] = [];
  // The block's scratch, for the largest island.
  private readonly K = new Float64Array(MAX_LIGHT_ISLAND_ROWS * MAX_LIGHT_ISLAND_ROWS);
  private readonly rhs = new Float64Array(MAX_LIGHT_ISLAND_ROWS);
  private readonly gamma = new Float64Array(MAX_LIGHT_ISLAND_ROWS);
  private readonly views: IslandRowsView[] = [];
  /** One constraint's impulse changes, handed to it as a vector. */
  private readonly delta = new Float64Array(MAX_LIGHT_ISLAND_ROWS);
  // The limit rows' scratch (solveActiveSet): each row's part in the block, its side's sign (+1:
  // the lower side or an equality row, −1: the upper) and impulse before the pass, which rows the
  // active set holds, the right-hand side x, the block over the sides' directions, the last
  // solution with every side's impulse ≥ 0.
  private readonly inBlock = new Uint8Array(MAX_LIGHT_ISLAND_ROWS);
  private readonly role = new Uint8Array(MAX_LIGHT_ISLAND_ROWS);
  private readonly sign = new Float64Array(MAX_LIGHT_ISLAND_ROWS);
  private readonly mu0 = new Float64Array(MAX_LIGHT_ISLAND_ROWS);
  private readonly active = new Uint8Array(MAX_LIGHT_ISLAND_ROWS);
  private readonly x = new Float64Array(MAX_LIGHT_ISLAND_ROWS);
  private readonly Kfull = new Float64Array(MAX_LIGHT_ISLAND_ROWS * MAX_LIGHT_ISLAND_ROWS);
  private readonly best = new Float64Array(MAX_LIGHT_ISLAND_ROWS);
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
      if (island === undefined) byRoot.set(root!, (island = { joints: [], rows: 0, lightest: Infinity, heaviest: 0 }));
      island.joints.push(j);
      island.rows += j.dimension;
      for (const b of j.bodies) {
        // Bodies of finite mass only (not allowMovement: false).
        if (b._solverIndex <= 0 || b._invMass === 0) continue;
        if (b._mass < island.lightest) island.lightest = b._mass;
        if (b._mass > island.heaviest) island.heaviest = b._mass;
      }
    }
    for (const island of byRoot.values()) {
      const light = island.lightest * LIGHT_BODY_RATIO < island.heaviest;
      if (island.joints.length < 2 || island.rows > (light ? MAX_LIGHT_ISLAND_ROWS : MAX_ISLAND_ROWS)) continue;
      for (const j of island.joints) this.claimed.set(j, this.claimedIslands);
      this.claimedIslands++;
    }
    candidates.length = 0;
    byRoot.clear();
    parent.clear();
  }
  // claim()'s scratch, kept between plans.
  private readonly parent = new Map<Body, Body>();
  private readonly byRoot = new Map<Body, ClaimedGroup>();
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
  /** (An island's block is formed as it is prepared, by the one-by-one family's passes.) */
  close(): void {}

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
    // Stiff rows start each substep from zero (FRESH_STIFF_ROWS above).
    for (const island of this.islands) for (const j of island.joints) j._warmStart(ctx, true);
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
    let limits = false;
    for (const j of joints) {
      const v = j._islandRows(ctx);
      views.push(v);
      for (let r = 0; r < v.dim; r++) if (v.kind[r] === ROW_LIMIT) limits = true;
    }
    if (limits) this.releaseSecondSides(ctx, joints);
    let a = 0;
    for (let q = 0; q < joints.length; q++) {
      const j = joints[q]!;
      const v = views[q]!;
      const soft = !j._stiff;
      const { biasRate, compliance } = passSoftness(soft ? v.soft : null, useBias, ctx.jointSoftness);
      // A soft joint's spring sees its error clamped to maxError (Nape), as Joint._solve has it.
      let errScale = 1;
      if (soft && j._maxError !== Infinity) {
        let e2 = 0;
        for (let r = 0; r < v.dim; r++) if (v.kind[r] === ROW_EQUALITY) e2 += v.C[r]! * v.C[r]!;
        errScale = normClampFactor(e2, j._maxError);
      }
      const lever = compliance > 0 ? jointLeverShare(v.J, v.slots, v.dim, v.kind, ROW_SLACK) : 0;
      for (let r = 0; r < v.dim; r++, a++) {
        if (v.kind[r] !== ROW_EQUALITY) {
          rhs[a] = gamma[a] = 0;
          continue;
        }
        const x = -(jointRowVelocity(v.J, v.slots, r, ctx) + (soft ? biasRate * errScale * v.C[r]! : stiffBias(biasRate, v.C[r]!)));
        gamma[a] = compliance > 0 ? compliance * jointRowReferenceK(v.J, v.slots, r, lever) : 0;
        rhs[a] = compliance > 0 ? softRhs(x, gamma[a]!, v.acc[r]!) : x;
      }
    }
    if (limits) {
      this.limitSides(ctx, useBias, joints);
      this.solveActiveSet(n);
    } else {
      const inBlock = this.inBlock;
      a = 0;
      for (const v of views) for (let r = 0; r < v.dim; r++, a++) inBlock[a] = v.kind[r] === ROW_EQUALITY ? 1 : 0;
      this.buildK(n, true);
      solveSymmetric(this.K, rhs, n);
    }
    const role = this.role;
    a = 0;
    for (let q = 0; q < joints.length; q++) {
      const j = joints[q]!;
      const v = views[q]!;
      const soft = !j._stiff;
      const { massScale, impulseScale, compliance } = passSoftness(soft ? v.soft : null, useBias, ctx.jointSoftness);
      const start = a;
      for (let r = 0; r < v.dim; r++, a++) {
        if (v.kind[r] !== ROW_EQUALITY) continue;
        rhs[a] = compliance > 0 ? v.acc[r]! + rhs[a]! : softUpdate(v.acc[r]!, rhs[a]!, massScale, impulseScale);
      }
      const delta = this.delta;
      for (let r = 0, b = start; r < v.dim; r++, b++) {
        delta[r] = 0;
        if (v.kind[r] === ROW_EQUALITY) {
          const next = rhs[b]!;
          delta[r] = next - v.acc[r]!;
          v.acc[r] = next;
        } else if (limits && role[b] === ROLE_SIDE) {
          // A side only pushes: the lower one along +J, the upper one along −J (as Joint.solveSide).
          const old = this.mu0[b]!;
          const next = Math.max(old + rhs[b]!, 0);
          const sign = this.sign[b]!;
          delta[r] = sign * (next - old);
          if (sign > 0) v.accLo![r] = next;
          else v.accHi![r] = next;
        }
      }
      j._islandApply(ctx, delta);
    }
  }

  /**
   * A limit row takes one side per pass. Both sides hold impulse only after a plan change (the
   * one-by-one path solves each side on its own): release the smaller, before any row reads a velocity.
   * A side whose bound was just set to ±Infinity holds none either: release it (fuzz seed 3103364982,
   * a PulleyJoint's jointMax set to Infinity while its upper side held: C = Infinity, then NaN).
   */
  private releaseSecondSides(ctx: StepContext, joints: readonly Constraint[]): void {
    const delta = this.delta;
    for (let q = 0; q < joints.length; q++) {
      const v = this.views[q]!;
      for (let r = 0; r < v.dim; r++) {
        if (v.kind[r] !== ROW_LIMIT) continue;
        for (let k = 0; k < 2; k++) {
          const lower = k === 0;
          const held = lower ? v.accLo![r]! : v.accHi![r]!;
          if (held === 0 || (lower ? v.lo![r]! > -Infinity : v.hi![r]! < Infinity)) continue;
          delta.fill(0, 0, v.dim);
          delta[r] = lower ? -held : held;
          if (lower) v.accLo![r] = 0;
          else v.accHi![r] = 0;
          joints[q]!._islandApply(ctx, delta);
        }
        const lo = v.accLo![r]!;
        const hi = v.accHi![r]!;
        if (lo === 0 || hi === 0) continue;
        delta.fill(0, 0, v.dim);
        if (lo >= hi) {
          delta[r] = hi;
          v.accHi![r] = 0;
        } else {
          delta[r] = -lo;
          v.accLo![r] = 0;
        }
        joints[q]!._islandApply(ctx, delta);
      }
    }
  }

  /**
   * Each limit row's side for this pass, as one unknown of the block: its right-hand side
   * x = −(J_side·v + bias) (− Γ·μ for a reached side in a pass with the joint softness), and its
   * impulse μ ≥ 0 before the pass. The one-by-one rule (softness.ts, limitSideUpdate with a stiff
   * row): a gap not yet closed may close within the substep (C/h); a reached side takes the pass's
   * softness, as a fixed compliance here, as the island's stiff equality rows do. Which side: the
   * one holding impulse, else the one the row is nearer to at the end of the substep at its current
   * velocity (so a row crossing its range within a substep still meets the far bound). Equality rows
   * keep the right-hand side solveIsland gave them; other rows take no part.
   */
  private limitSides(ctx: StepContext, useBias: boolean, joints: readonly Constraint[]): void {
    const rhs = this.rhs;
    const gamma = this.gamma;
    const role = this.role;
    const sign = this.sign;
    const mu0 = this.mu0;
    let a = 0;
    for (let q = 0; q < joints.length; q++) {
      const v = this.views[q]!;
      const soft = !joints[q]!._stiff;
      const pass = passSoftness(soft ? v.soft : null, useBias, ctx.jointSoftness);
      // A soft side pushes out no faster than its spring at maxError (limitSideUpdate).
      const maxPush = soft ? pass.biasRate * joints[q]!._maxError : JOINT_PUSH_MAX_VELOCITY;
      const lever = pass.compliance > 0 ? jointLeverShare(v.J, v.slots, v.dim, v.kind, ROW_SLACK) : 0;
      for (let r = 0; r < v.dim; r++, a++) {
        const kind = v.kind[r];
        role[a] = kind === ROW_EQUALITY ? ROLE_EQUALITY : ROLE_NONE;
        sign[a] = 1;
        mu0[a] = 0;
        if (kind !== ROW_LIMIT) continue;
        const lo = v.lo![r]!;
        const hi = v.hi![r]!;
        const accLo = v.accLo![r]!;
        const accHi = v.accHi![r]!;
        const value = v.C[r]!;
        const V = jointRowVelocity(v.J, v.slots, r, ctx);
        let side: number;
        if (accLo !== 0) side = 1;
        else if (accHi !== 0) side = -1;
        else if (lo === -Infinity && hi === Infinity) continue;
        else if (hi === Infinity) side = 1;
        else if (lo === -Infinity) side = -1;
        else {
          const p = value + ctx.h * V;
          side = p - lo <= hi - p ? 1 : -1;
        }
        const C = side > 0 ? value - lo : hi - value;
        const reached = C <= 0;
        const x = -(side * V + oneSidedBias(C, ctx.invH, pass.biasRate, maxPush));
        const old = side > 0 ? accLo : accHi;
        const g = reached && pass.compliance > 0 ? pass.compliance * jointRowReferenceK(v.J, v.slots, r, lever) : 0;
        gamma[a] = g;
        rhs[a] = g > 0 ? softRhs(x, g, old) : x;
        role[a] = ROLE_SIDE;
        sign[a] = side;
        mu0[a] = old;
      }
    }
  }

  /**
   * The mixed problem over the island's rows (this.role): equality rows free, each side's impulse
   * μ = μ0 + Δ ≥ 0 with w = (K + Γ)Δ − x ≥ 0 where μ > 0 and μ·w = 0, solved by an active set on
   * the dense block. Start from the sides that hold impulse or whose target the current velocities
   * miss; solve the equalities and the active sides as equalities (an inactive side lets its impulse
   * go: Δ = −μ0); drop the active side whose μ is most negative, else add the inactive side whose w
   * is most negative; at most 2·rows + 2 solves, then the last solution with every μ ≥ 0 (or the
   * last one with negative sides clamped to 0). this.rhs becomes Δ over the rows.
   */
  private solveActiveSet(n: number): void {
    const role = this.role;
    const sign = this.sign;
    const mu0 = this.mu0;
    const active = this.active;
    const x = this.x;
    const rhs = this.rhs;
    const inBlock = this.inBlock;
    for (let a = 0; a < n; a++) inBlock[a] = role[a] !== ROLE_NONE ? 1 : 0;
    this.buildK(n, true);
    // The block over the sides' own directions (±J).
    const Kfull = this.Kfull;
    const K = this.K;
    for (let a = 0; a < n; a++) {
      for (let b = 0; b < n; b++) Kfull[a * n + b] = sign[a]! * sign[b]! * K[a * n + b]!;
      x[a] = rhs[a]!;
      active[a] = role[a] === ROLE_EQUALITY || (role[a] === ROLE_SIDE && (mu0[a] !== 0 || x[a]! > 0)) ? 1 : 0;
    }
    const best = this.best;
    let feasible = false;
    for (let solves = 1; ; solves++) {
      this.solveActive(n);
      let drop = -1;
      let least = 0;
      for (let a = 0; a < n; a++) {
        if (role[a] !== ROLE_SIDE || active[a] === 0) continue;
        const mu = mu0[a]! + rhs[a]!;
        if (mu < least) {
          least = mu;
          drop = a;
        }
      }
      let add = -1;
      if (drop < 0) {
        feasible = true;
        for (let a = 0; a < n; a++) best[a] = rhs[a]!;
        let worst = 0;
        for (let a = 0; a < n; a++) {
          if (role[a] !== ROLE_SIDE || active[a] !== 0) continue;
          let w = -x[a]!;
          for (let b = 0; b < n; b++) w += Kfull[a * n + b]! * rhs[b]!;
          if (w < worst) {
            worst = w;
            add = a;
          }
        }
        if (add < 0) return;
      }
      if (solves >= 2 * n + 2) break;
      if (drop >= 0) active[drop] = 0;
      else active[add] = 1;
    }
    if (feasible) {
      for (let a = 0; a < n; a++) rhs[a] = best[a]!;
      return;
    }
    for (let a = 0; a < n; a++) if (role[a] === ROLE_SIDE && mu0[a]! + rhs[a]! < 0) rhs[a] = -mu0[a]!;
  }

  /**
   * One solve of the active set: Kfull over the equality rows and active sides (every other row
   * zeroed: no impulse by the zero-pivot rule), each inactive side's release (Δ = −μ0) moved to the
   * right-hand side; this.rhs becomes Δ over the rows.
   */
  private solveActive(n: number): void {
    const role = this.role;
    const mu0 = this.mu0;
    const active = this.active;
    const x = this.x;
    const rhs = this.rhs;
    const Kfull = this.Kfull;
    const K = this.K;
    for (let a = 0; a < n; a++) {
      if (active[a] === 0) {
        rhs[a] = 0;
        for (let b = 0; b < n; b++) K[a * n + b] = 0;
        continue;
      }
      let v = x[a]!;
      for (let b = 0; b < n; b++) {
        if (active[b] === 0) {
          K[a * n + b] = 0;
          if (role[b] === ROLE_SIDE && mu0[b] !== 0) v += Kfull[a * n + b]! * mu0[b]!;
        } else K[a * n + b] = Kfull[a * n + b]!;
      }
      rhs[a] = v;
    }
    solveSymmetric(K, rhs, n);
    for (let a = 0; a < n; a++) if (role[a] === ROLE_SIDE && active[a] === 0) rhs[a] = -mu0[a]!;
  }

  /**
   * One position pass: K Δ = −C over the stiff joints' rows at the current positions, as one block;
   * a limit row outside its range as an equality to the bound it passed (Δ = bound − value), one
   * within its range not at all.
   */
  private positionIsland(island: Island, ctx: StepContext): void {
    const views = this.views;
    views.length = 0;
    const rhs = this.rhs;
    const inBlock = this.inBlock;
    const n = island.rows;
    let a = 0;
    for (const j of island.joints) {
      const v = j._islandRowsNow(ctx);
      views.push(v);
      for (let r = 0; r < v.dim; r++, a++) {
        rhs[a] = 0;
        inBlock[a] = 0;
        // Soft joints' rows take no part: they are springs, with no position pass.
        if (!j._stiff) continue;
        const kind = v.kind[r];
        if (kind === ROW_EQUALITY) {
          rhs[a] = -v.C[r]!;
          inBlock[a] = 1;
        } else if (kind === ROW_LIMIT) {
          const value = v.C[r]!;
          if (value < v.lo![r]!) rhs[a] = v.lo![r]! - value;
          else if (value > v.hi![r]!) rhs[a] = v.hi![r]! - value;
          else continue;
          inBlock[a] = 1;
        }
      }
    }
    this.buildK(n, false);
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
   * with `withCompliance`, plus diag Γ. Rows not in the block (this.inBlock) are zero rows.
   */
  private buildK(n: number, withCompliance: boolean): void {
    const K = this.K;
    const views = this.views;
    const inBlock = this.inBlock;
    let a = 0;
    for (let p = 0; p < views.length; p++) {
      const va = views[p]!;
      for (let ra = 0; ra < va.dim; ra++, a++) {
        let b = 0;
        for (let q = 0; q < views.length; q++) {
          const vb = views[q]!;
          for (let rb = 0; rb < vb.dim; rb++, b++) {
            if (b < a) continue;
            const k = inBlock[a] !== 0 && inBlock[b] !== 0 ? jointRowsK(va.J, va.slots, ra, vb.J, vb.slots, rb) : 0;
            K[a * n + b] = k;
            K[b * n + a] = k;
          }
        }
        if (withCompliance) K[a * n + a] = K[a * n + a]! + this.gamma[a]!;
      }
    }
  }
}
