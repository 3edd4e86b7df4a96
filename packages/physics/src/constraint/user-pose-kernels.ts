/**
 * The user batch's work at each pose, which its velocity passes then read (user-batch.ts has the
 * derivation): the body states its kernel rows read, each bulk kernel's J (and C) out to its rows,
 * and every row's K = J M⁻¹ Jᵀ, factored (LDLᵀ) once per pose. A factory that a worker rebuilds
 * from source text, as user-kernels.ts is: it refers to nothing outside its parameters, the parts
 * it calls (body-state.ts's solver-body state, dense.ts's vanishing-row and zero-pivot rules and
 * factorisation, softness.ts's reference mass), each of which stands alone too. The calling thread
 * runs USER_POSE_KERNELS, made by the same factory from the same parts: one copy of the arithmetic.
 *
 * Every item writes only its own numbers: a body's state, a constraint's J and C, a row's K
 * factors and compliance. So a stage shares any range among the threads, and gives the same bits.
 *
 *   states   pose bodies [from, to): each solver body that kernel rows name, its packed state
 *            (BODY_STATE_STRIDE numbers) at k·stride of uposeStates.
 *   group    a kernel group's constraints [from, to) (group-local indices): the kernel's J, and its
 *            C where some row of the group is soft or limited, out to the rows' pools (a group
 *            with arrays of its own: UserGroupView); each row's C is finite, or it throws.
 *   factor   rows [from, to): K from J (buildK: the one-by-one path's kFromJacobian, term for
 *            term), its vanishing rows dropped; a soft row's compliance Γ (and a stiff row's with
 *            the joint softness); then K factored into uk/udinv (K + diag(Γ) into ukB/udinvB for a
 *            stiff row's biased passes with the joint softness); a limited row's K kept as it is.
 *            A K that is not finite throws.
 *
 * A kernel throws a plain Error where something is not finite: on a worker the pool then fails
 * the stage, and the batch finds the row and names its constraint on the calling thread
 * (UserBatch.reportPoseFault). A SymbolicConstraint's bulk kernel is source text
 * (UserBatchKernel.source), so every thread compiles it (thread-runtime.ts); a kernel without
 * text runs on the calling thread only.
 */
import type { BatchArrays, UserBatchKernel } from './batch-kernel.js';
import { fillSolverBodyMotion as sharedFillMotion, fillSolverBodyPose as sharedFillPose, type SolverBodyArrays } from './body-state.js';
import { dropVanishingRows as sharedDropVanishingRows, factorSymmetric as sharedFactorSymmetric, pivotInverse as sharedPivotInverse, rowPivot as sharedRowPivot, zeroPivotTolerance as sharedZeroPivotTolerance } from './dense.js';
import { leverShare as sharedLeverShare, referenceMass as sharedReferenceMass } from './softness.js';
import type { UserRowViews } from './user-kernels.js';

/**
 * A kernel group as every thread reads it (UserBatch.layoutGroup): its arrays, its rows, and its
 * kernel's text. Numbers, arrays and strings only, so that it can be posted to a worker.
 */
export interface UserGroupView {
  /** The kernel's text (UserBatchKernel.source), or null: the group runs on the calling thread. */
  source: UserBatchKernelSource | null;
  arrays: BatchArrays;
  /** The batch row of each group constraint. */
  rows: Int32Array;
  /** With a packed J (declared constants): the indices of J's other entries in a row's J. */
  varIndex: Int32Array | null;
  /** Row count and slot count of the group's constraints. */
  dim: number;
  slots: number;
  /** The arrays are the batch's own pools (no copy out), or the group's. */
  shared: boolean;
  /** Some row is soft or limited: the pose needs C too. */
  needsPosition: boolean;
}

/** A bulk kernel's text (see UserBatchKernel.source). */
export interface UserBatchKernelSource {
  readonly jacobian: string;
  readonly position: string;
}

/** The user batch's arrays a pose reads and writes besides a pass's (UserBatch's pools of the same names, without the `u`). */
export interface UserPoseViews {
  ulim: Uint8Array;
  ukFloor: Float64Array;
  ucompliance: Float64Array;
  uerrValid: Uint8Array;
  uposeStates: Float64Array;
  uposeBodies: Int32Array;
  uposeLx: Float64Array;
  uposeLy: Float64Array;
  ugroups: UserGroupView[];
}

/** Where a pose stage's numbers are (from PARAMS.USER_POSE): the joint compliance, and the group of a group stage. */
export const USER_POSE = { JOINT_COMPLIANCE: 0, GROUP: 1, LENGTH: 2 } as const;

export function userPoseKernels(
  fillSolverBodyPose: typeof sharedFillPose,
  fillSolverBodyMotion: typeof sharedFillMotion,
  dropVanishingRows: typeof sharedDropVanishingRows,
  zeroPivotTolerance: typeof sharedZeroPivotTolerance,
  rowPivot: typeof sharedRowPivot,
  pivotInverse: typeof sharedPivotInverse,
  factorSymmetric: typeof sharedFactorSymmetric,
  leverShare: typeof sharedLeverShare,
  referenceMass: typeof sharedReferenceMass,
) {
  /** This thread's scratch (at most 8 rows, USER_BATCH_MAX_DIM): K, a copy of it, a row's angular part and linearity, 1/D. */
  const K = new Float64Array(64);
  const Kcopy = new Float64Array(64);
  const angPart = new Float64Array(8);
  const linearRow = new Uint8Array(8);
  const dinv = new Float64Array(8);

  /** Pose bodies [from, to): their states, from the solver arrays (BODY_STATE_STRIDE = 10). */
  function states(u: UserPoseViews, sb: SolverBodyArrays, from: number, to: number): void {
    const st = u.uposeStates;
    const bodies = u.uposeBodies;
    for (let i = from >>> 0; i < to; i++) {
      const k = bodies[i]!;
      fillSolverBodyPose(st, k * 10, sb, k, u.uposeLx[i]!, u.uposeLy[i]!);
      fillSolverBodyMotion(st, k * 10, sb, k);
    }
  }

  /** Group constraints [from, to): J (and C) by `kernel`, out to their rows; C checked. */
  function group(u: UserRowViews & UserPoseViews, kernel: Pick<UserBatchKernel, 'jacobian' | 'position'>, g: UserGroupView, from: number, to: number): void {
    kernel.jacobian(from, to, g.arrays);
    if (g.varIndex !== null || !g.shared) copyJacobianOut(u, g, from, to);
    if (g.needsPosition) {
      kernel.position(from, to, g.arrays);
      copyPositionOut(u, g, from, to);
    }
    const valid = g.needsPosition ? 1 : 0;
    const rows = g.rows;
    for (let i = from >>> 0; i < to; i++) u.uerrValid[rows[i]!] = valid;
  }

  /** Group constraints [from, to): C out to their rows' uerr (a shared group's C is uerr: the same numbers); throws where one is not finite. */
  function copyPositionOut(u: UserRowViews, g: UserGroupView, from: number, to: number): void {
    const C = g.arrays.C;
    const dim = g.dim;
    const rows = g.rows;
    for (let i = from >>> 0; i < to; i++) {
      const vo = u.uvOff[rows[i]!]!;
      for (let r = 0; r < dim; r++) {
        const c = C[i * dim + r]!;
        if (!Number.isFinite(c)) throw new Error(`a bulk kernel's C is not finite (batch row ${rows[i]})`);
        u.uerr[vo + r] = c;
      }
    }
  }

  /** Group constraints [from, to): the group's own J out to the rows' pool (packed: to the entries' places). */
  function copyJacobianOut(u: UserRowViews, g: UserGroupView, from: number, to: number): void {
    const J = g.arrays.J;
    const vi = g.varIndex;
    const rows = g.rows;
    const jOff = u.ujOff;
    const pool = u.uj;
    if (vi === null) {
      const jw = g.dim * 3 * g.slots;
      for (let i = from >>> 0; i < to; i++) {
        const jo = jOff[rows[i]!]!;
        for (let q = 0; q < jw; q++) pool[jo + q] = J[i * jw + q]!;
      }
      return;
    }
    const jw = vi.length;
    for (let i = from >>> 0; i < to; i++) {
      const jo = jOff[rows[i]!]!;
      for (let q = 0; q < jw; q++) pool[jo + vi[q]!] = J[i * jw + q]!;
    }
  }

  /**
   * K = J M⁻¹ Jᵀ of row n into `out` (dim × dim), its vanishing rows dropped (the one-by-one
   * path's kFromJacobian, term for term). Throws when a diagonal entry is not finite.
   */
  function buildK(u: UserRowViews & UserPoseViews, invMass: Float64Array, invI: Float64Array, n: number, out: Float64Array): void {
    const dim = u.udim[n]!;
    const slots = u.uslots[n]!;
    const jo = u.ujOff[n]!;
    const s0 = u.usOff[n]!;
    const pool = u.uj;
    if (slots === 2) {
      // The common two-body case, with the masses read once (two rows: unrolled).
      const k0 = u.uslotK[s0]!;
      const k1 = u.uslotK[s0 + 1]!;
      const m0 = invMass[k0]!, i0 = invI[k0]!, m1 = invMass[k1]!, i1 = invI[k1]!;
      if (dim === 2) {
        const a0 = pool[jo]!, a1 = pool[jo + 1]!, a2 = pool[jo + 2]!, a3 = pool[jo + 3]!, a4 = pool[jo + 4]!, a5 = pool[jo + 5]!;
        const c0 = pool[jo + 6]!, c1 = pool[jo + 7]!, c2 = pool[jo + 8]!, c3 = pool[jo + 9]!, c4 = pool[jo + 10]!, c5 = pool[jo + 11]!;
        const k01 = 0 + (m0 * (a0 * c0 + a1 * c1) + i0 * a2 * c2) + (m1 * (a3 * c3 + a4 * c4) + i1 * a5 * c5);
        out[0] = 0 + (m0 * (a0 * a0 + a1 * a1) + i0 * a2 * a2) + (m1 * (a3 * a3 + a4 * a4) + i1 * a5 * a5);
        out[1] = k01;
        out[2] = k01;
        out[3] = 0 + (m0 * (c0 * c0 + c1 * c1) + i0 * c2 * c2) + (m1 * (c3 * c3 + c4 * c4) + i1 * c5 * c5);
      } else {
        for (let a = 0; a < dim; a++) {
          const ia = jo + a * 6;
          for (let b = a; b < dim; b++) {
            const ib = jo + b * 6;
            const k =
              0 +
              (m0 * (pool[ia]! * pool[ib]! + pool[ia + 1]! * pool[ib + 1]!) + i0 * pool[ia + 2]! * pool[ib + 2]!) +
              (m1 * (pool[ia + 3]! * pool[ib + 3]! + pool[ia + 4]! * pool[ib + 4]!) + i1 * pool[ia + 5]! * pool[ib + 5]!);
            out[a * dim + b] = k;
            out[b * dim + a] = k;
          }
        }
      }
    } else {
      const cols = 3 * slots;
      for (let a = 0; a < dim; a++) {
        for (let b = a; b < dim; b++) {
          let k = 0;
          for (let j = 0; j < slots; j++) {
            const ks = u.uslotK[s0 + j]!;
            const ia = jo + a * cols + 3 * j;
            const ib = jo + b * cols + 3 * j;
            k += invMass[ks]! * (pool[ia]! * pool[ib]! + pool[ia + 1]! * pool[ib + 1]!) + invI[ks]! * pool[ia + 2]! * pool[ib + 2]!;
          }
          out[a * dim + b] = k;
          out[b * dim + a] = k;
        }
      }
    }
    dropVanishingRows(out, dim, u.ukFloor[n]!);
    for (let a = 0; a < dim; a++) {
      if (!Number.isFinite(out[a * dim + a]!)) throw new Error(`the effective mass K of batch row ${n} is not finite`);
    }
  }

  /**
   * Row n's compliance per row at the pose, Γ = g·Kref (softness.ts; UserConstraint's
   * poseCompliance, term for term), into ugamma; added to the scratch K's diagonal when the rows
   * are solved as a block (`toK`). A row whose J vanishes (K dropped) keeps Γ = 0.
   */
  function poseCompliance(u: UserRowViews & UserPoseViews, invMass: Float64Array, invI: Float64Array, n: number, g: number, toK: boolean): void {
    const dim = u.udim[n]!;
    const slots = u.uslots[n]!;
    const cols = 3 * slots;
    const jo = u.ujOff[n]!;
    const vo = u.uvOff[n]!;
    const s0 = u.usOff[n]!;
    const pool = u.uj;
    const gamma = u.ugamma;
    let angSum = 0;
    let count = 0;
    for (let r = 0; r < dim; r++) {
      if (K[r * dim + r] === 0) {
        gamma[vo + r] = 0;
        continue;
      }
      let lin = 0;
      let ang = 0;
      let linear = 0;
      for (let j = 0; j < slots; j++) {
        const k = u.uslotK[s0 + j]!;
        const i = jo + r * cols + 3 * j;
        const jx = pool[i]!, jy = pool[i + 1]!, jz = pool[i + 2]!;
        lin += invMass[k]! * (jx * jx + jy * jy);
        ang += invI[k]! * jz * jz;
        if (jx !== 0 || jy !== 0) linear = 1;
      }
      // (Γ holds the linear part until the lever share is known.)
      gamma[vo + r] = lin;
      angPart[r] = ang;
      linearRow[r] = linear;
      if (linear === 1) {
        angSum += ang;
        count++;
      }
    }
    const lever = leverShare(angSum, count);
    for (let r = 0; r < dim; r++) {
      if (K[r * dim + r] === 0) continue;
      const gr = g * referenceMass(gamma[vo + r]!, angPart[r]!, lever, linearRow[r] === 1);
      gamma[vo + r] = gr;
      if (toK) K[r * dim + r] = K[r * dim + r]! + gr;
    }
  }

  /** factorSymmetric of the scratch K (dim × dim; overwritten for dim > 2) into kPool and dinvPool at (ko, vo). */
  function factorInto(dim: number, ko: number, vo: number, kPool: Float64Array, dinvPool: Float64Array): void {
    if (dim === 1) {
      // factorSymmetric for one row.
      const d = K[0]!;
      kPool[ko] = d;
      dinvPool[vo] = pivotInverse(d, Math.abs(d));
    } else if (dim === 2) {
      // factorSymmetric for two rows, scalarised (the same operations in the same order).
      const d0 = K[0]!;
      const scale = Math.max(Math.abs(d0), Math.abs(K[3]!));
      const tol = zeroPivotTolerance(scale);
      const nz0 = Math.abs(d0) > tol;
      const l10 = nz0 ? K[2]! / d0 : 0;
      const d1 = rowPivot(K[3]! - l10 * l10 * d0, K[3]!);
      kPool[ko] = d0;
      kPool[ko + 1] = K[1]!;
      kPool[ko + 2] = l10;
      kPool[ko + 3] = d1;
      dinvPool[vo] = nz0 ? 1 / d0 : 0;
      dinvPool[vo + 1] = Math.abs(d1) > tol ? 1 / d1 : 0;
    } else {
      factorSymmetric(K, dim, dinv);
      for (let i = 0, e = dim * dim; i < e; i++) kPool[ko + i] = K[i]!;
      for (let r = 0; r < dim; r++) dinvPool[vo + r] = dinv[r]!;
    }
  }

  /** Rows [from, to): K at the pose, factored (see the file's header); `jointCompliance` the joint softness's (0: none). */
  function factor(u: UserRowViews & UserPoseViews, invMass: Float64Array, invI: Float64Array, jointCompliance: number, from: number, to: number): void {
    for (let n = from >>> 0; n < to; n++) {
      buildK(u, invMass, invI, n, K);
      const dim = u.udim[n]!;
      const ko = u.ukOff[n]!;
      const vo = u.uvOff[n]!;
      const soft = u.usoft[n] === 1;
      const limited = u.ulim[n] === 1;
      // A stiff row's biased passes take the joint softness (jointHertz > 0) as a fixed compliance.
      const jointFixed = !soft && jointCompliance > 0;
      if (soft) poseCompliance(u, invMass, invI, n, u.ucompliance[n]!, !limited);
      else if (jointFixed) poseCompliance(u, invMass, invI, n, jointCompliance, false);
      if (limited) {
        // Limited rows are solved one side at a time: each needs only K's diagonal, kept unfactored.
        for (let i = 0, e = dim * dim; i < e; i++) u.uk[ko + i] = K[i]!;
        continue;
      }
      if (!jointFixed) {
        factorInto(dim, ko, vo, u.uk, u.udinv);
        continue;
      }
      // K for the relax passes (from a copy: factoring overwrites it), then K + diag(Γ), as
      // UserConstraint forms its Kb, for the biased ones.
      for (let i = 0, e = dim * dim; i < e; i++) Kcopy[i] = K[i]!;
      factorInto(dim, ko, vo, u.uk, u.udinv);
      for (let i = 0, e = dim * dim; i < e; i++) K[i] = Kcopy[i]!;
      for (let r = 0; r < dim; r++) K[r * dim + r] = K[r * dim + r]! + u.ugamma[vo + r]!;
      factorInto(dim, ko, vo, u.ukB, u.udinvB);
    }
  }

  return { states, group, copyJacobianOut, copyPositionOut, buildK, factor };
}

/** The parts the factory is called with, in its parameters' order (worker-program.ts writes them out as text). */
export const USER_POSE_KERNEL_PARTS = [
  sharedFillPose,
  sharedFillMotion,
  sharedDropVanishingRows,
  sharedZeroPivotTolerance,
  sharedRowPivot,
  sharedPivotInverse,
  sharedFactorSymmetric,
  sharedLeverShare,
  sharedReferenceMass,
] as const;

/** The kernels the calling thread runs. */
export const USER_POSE_KERNELS = userPoseKernels(...USER_POSE_KERNEL_PARTS);

export type UserPoseKernels = ReturnType<typeof userPoseKernels>;
