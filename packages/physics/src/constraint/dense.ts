/**
 * Small dense symmetric solves for constraint blocks. K = J M⁻¹ Jᵀ is symmetric positive
 * semi-definite; a zero pivot (a row with no effective mass, e.g. both bodies pinned) solves
 * to 0 for that row, which Nape also does and which lets slack rows pass through.
 */

/** Pivots below this (relative to the diagonal scale) count as zero. */
export const ZERO_PIVOT_EPS = 1e-12;

/**
 * The zero-pivot rule, for every solver's blocks: in a block whose largest diagonal entry is
 * `scale`, a pivot d counts as zero when |d| ≤ ZERO_PIVOT_EPS·scale (ZERO_PIVOT_EPS when the
 * block is all zero). Its row then gets no impulse.
 */
export function zeroPivotTolerance(scale: number): number {
  // ZERO_PIVOT_EPS written out, here and in the rules below: the user batch's pose kernels take
  // these functions as parts, which a worker runs from their text, where no module constant (and
  // no other function) is in scope (dense.test.ts checks that they keep the constants' rules).
  return 1e-12 * (scale > 0 ? scale : 1);
}

/**
 * The dependent-row rule, the other half of the zero-pivot rule: a pivot d that is at most
 * DEPENDENT_ROW_EPS of its row's own diagonal K_jj counts as zero too. Such a row is the earlier
 * rows' combination to within about 3e-5 of its length (the pivot goes as the square of the
 * difference): a WeldJoint and a LineJoint on the same two bodies, two pivots at one point, and
 * what its pivot holds is the difference or round-off. Inverting it gave an island's
 * impulses a large part that Jᵀ cancels in that pass, kept as a warm start that the next pose no
 * longer cancels: a 126 kg capsule welded and line-jointed to a light rod went 2e9 m/s in one
 * warm start (fuzz seed 2990627813). The block-scale rule cannot see it when the row is not the
 * block's largest (a heavy body's rows beside a light one's).
 */
export const DEPENDENT_ROW_EPS = 1e-9;

/**
 * The pivot d of a row whose diagonal is `diag`, or 0 by the dependent-row rule. (A negative pivot
 * larger than that stays: K is then not positive semi-definite, which the callers that take a
 * hand-written K report.)
 */
export function rowPivot(d: number, diag: number): number {
  // DEPENDENT_ROW_EPS written out (see zeroPivotTolerance).
  return Math.abs(d) > 1e-9 * diag ? d : 0;
}

/** 1/d, or 0 for a zero pivot (the rule above, in a block of diagonal scale `scale`). */
export function pivotInverse(d: number, scale: number): number {
  // zeroPivotTolerance(scale), written out (see there).
  return Math.abs(d) > 1e-12 * (scale > 0 ? scale : 1) ? 1 / d : 0;
}

/**
 * 1/det K for a symmetric 2 × 2 K = [k11 k12; k12 k22], or 0 where K is singular by the
 * dependent-row rule (det ≤ DEPENDENT_ROW_EPS·k11·k22: the second pivot det/k11 is at most
 * DEPENDENT_ROW_EPS of k22): the caller then solves it with the inverse
 * pivots singularPivot1 and singularPivot2 (and no coupling). K⁻¹ = [k22 −k12; −k12 k11]/det.
 */
export function inverseDet2(k11: number, k12: number, k22: number): number {
  // DEPENDENT_ROW_EPS written out: a worker runs this function from its text, where no module
  // constant is in scope (SELF_CONTAINED_PARTS below; dense.test.ts checks the two agree).
  const det = k11 * k22 - k12 * k12;
  return det > 1e-9 * k11 * k22 && det > 0 ? 1 / det : 0;
}

/**
 * A 2 × 2 K that inverseDet2 found singular, solved by LDLᵀ's zero-pivot rule, as
 * factorSymmetric and the user batch solve it: the first row on its own pivot k11 and the second
 * row no impulse, or, when k11 is itself a zero pivot, the second row alone on k22. These are the
 * two inverse pivots. (Solving both rows on their own diagonals over-corrects a rank-1 K, such as a
 * pivot on a body with allowMovement: false, whose anchor can move only one way: it grows without bound.)
 */
export function singularPivot1(k11: number, k22: number): number {
  // pivotInverse(k11, scale), written out (ZERO_PIVOT_EPS = 1e-12) to stand alone, as inverseDet2.
  const scale = Math.max(k11, k22);
  return Math.abs(k11) > 1e-12 * (scale > 0 ? scale : 1) ? 1 / k11 : 0;
}
export function singularPivot2(k11: number, k22: number): number {
  // pivotInverse(k11, scale) !== 0 ? 0 : pivotInverse(k22, scale), written out (see singularPivot1).
  const scale = Math.max(k11, k22);
  const tolerance = 1e-12 * (scale > 0 ? scale : 1);
  return Math.abs(k11) > tolerance ? 0 : Math.abs(k22) > tolerance ? 1 / k22 : 0;
}

/**
 * The parts of this file that refer to nothing outside themselves, so that a worker can run them
 * from their text (parallel/worker-program.ts): the 2 × 2 block rules the joint kernels call.
 */
export const SELF_CONTAINED_PARTS = { inverseDet2, singularPivot1, singularPivot2 } as const;

/**
 * A user constraint's row whose K falls below VANISHING_ROW_EPS of the K that a unit Jacobian
 * row on its bodies would have (vanishingRowFloor) has a vanishing J: its C does not depend on
 * the bodies there, and what K holds is round-off, whose inverse would give arbitrary impulses (a
 * formula constant by accident, |unit(p2 − p1)| − 1, threw bodies about). Such a row gets no
 * impulse. The relative zero-pivot rule cannot see it: a one-row K is its own scale.
 */
export const VANISHING_ROW_EPS = 1e-16;

/** The floor for a row on bodies with these inverse masses, inverse inertias and extents (m): EPS · Σ (invMass + invI·extent²). */
export function vanishingRowTerm(invMass: number, invI: number, extent: number): number {
  return VANISHING_ROW_EPS * (invMass + invI * extent * extent);
}

/** Zero row and column a of the n × n K wherever K[a][a] < floor: the zero-pivot rule then gives row a no impulse. */
export function dropVanishingRows(K: Float64Array, n: number, floor: number): void {
  for (let a = 0; a < n; a++) {
    // (A NaN diagonal is not dropped: the callers' finiteness checks must still see it.)
    if (!(K[a * n + a]! < floor)) continue;
    for (let b = 0; b < n; b++) K[a * n + b] = K[b * n + a] = 0;
  }
}

/** The factor that brings a vector of squared length n2 within length max: 1, or max/√n2 (a clamp of a block's impulse). */
export function normClampFactor(n2: number, max: number): number {
  return n2 > max * max ? max / Math.sqrt(n2) : 1;
}

/** x clamped to [lo, hi]. */
export function clamp(x: number, lo: number, hi: number): number {
  return x < lo ? lo : x > hi ? hi : x;
}

/**
 * Solve K x = b in place by LDLᵀ (no square roots, so semi-definite K is fine).
 * `K` is n×n row-major and is overwritten by the factorisation; `b` becomes x.
 */
export function solveSymmetric(K: Float64Array, b: Float64Array, n: number): void {
  if (n === 1) {
    const d = K[0]!;
    b[0] = Math.abs(d) > zeroPivotTolerance(Math.abs(d)) ? b[0]! / d : 0;
    return;
  }
  if (n === 2) {
    solve2(K, b);
    return;
  }
  solveSymmetricLDL(K, b, n);
}

/** The general case of solveSymmetric (exported so tests can compare the scalar cases with it). */
export function solveSymmetricLDL(K: Float64Array, b: Float64Array, n: number): void {
  let scale = 0;
  for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(K[i * n + i]!));
  const tol = zeroPivotTolerance(scale);
  // Factor: K = L D Lᵀ, L unit lower (stored below the diagonal), D on the diagonal.
  for (let j = 0; j < n; j++) {
    let d = K[j * n + j]!;
    for (let k = 0; k < j; k++) d -= K[j * n + k]! * K[j * n + k]! * K[k * n + k]!;
    d = rowPivot(d, K[j * n + j]!);
    K[j * n + j] = d;
    for (let i = j + 1; i < n; i++) {
      let v = K[i * n + j]!;
      for (let k = 0; k < j; k++) v -= K[i * n + k]! * K[j * n + k]! * K[k * n + k]!;
      K[i * n + j] = Math.abs(d) > tol ? v / d : 0;
    }
  }
  // Forward: L y = b
  for (let i = 0; i < n; i++) {
    let v = b[i]!;
    for (let k = 0; k < i; k++) v -= K[i * n + k]! * b[k]!;
    b[i] = v;
  }
  // Diagonal
  for (let i = 0; i < n; i++) {
    const d = K[i * n + i]!;
    b[i] = Math.abs(d) > tol ? b[i]! / d : 0;
  }
  // Backward: Lᵀ x = z
  for (let i = n - 1; i >= 0; i--) {
    let v = b[i]!;
    for (let k = i + 1; k < n; k++) v -= K[k * n + i]! * b[k]!;
    b[i] = v;
  }
}

/** The n = 2 case of solveSymmetric, scalarised (same operations, same results). */
function solve2(K: Float64Array, b: Float64Array): void {
  const k00 = K[0]!;
  const k10 = K[2]!;
  const k11 = K[3]!;
  const scale = Math.max(Math.abs(k00), Math.abs(k11));
  const tol = zeroPivotTolerance(scale);
  const l10 = Math.abs(k00) > tol ? k10 / k00 : 0;
  const d1 = rowPivot(k11 - l10 * l10 * k00, k11);
  const y0 = b[0]!;
  const y1 = b[1]! - l10 * y0;
  const x1 = Math.abs(d1) > tol ? y1 / d1 : 0;
  const z0 = Math.abs(k00) > tol ? y0 / k00 : 0;
  b[1] = x1;
  b[0] = z0 - l10 * x1;
}

/**
 * Factor K = L D Lᵀ in place once, to solve many right-hand sides (a constraint's K is fixed while
 * the pose is). `dinv[i]` becomes 1/D_i, or 0 for a zero pivot (the same rule as solveSymmetric).
 */
export function factorSymmetric(K: Float64Array, n: number, dinv: Float64Array): void {
  let scale = 0;
  for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(K[i * n + i]!));
  // zeroPivotTolerance(scale) and rowPivot, written out (see zeroPivotTolerance): this function stands alone.
  const tol = 1e-12 * (scale > 0 ? scale : 1);
  for (let j = 0; j < n; j++) {
    let d = K[j * n + j]!;
    for (let k = 0; k < j; k++) d -= K[j * n + k]! * K[j * n + k]! * K[k * n + k]!;
    if (!(Math.abs(d) > 1e-9 * K[j * n + j]!)) d = 0;
    K[j * n + j] = d;
    const nonzero = Math.abs(d) > tol;
    dinv[j] = nonzero ? 1 / d : 0;
    for (let i = j + 1; i < n; i++) {
      let v = K[i * n + j]!;
      for (let k = 0; k < j; k++) v -= K[i * n + k]! * K[j * n + k]! * K[k * n + k]!;
      K[i * n + j] = nonzero ? v / d : 0;
    }
  }
}

/** K⁻¹'s off-diagonal entry −l10·d1, from a 2 × 2 factorSymmetric result (see solveFactored). */
export function inverse2Off(l10: number, d1: number): number {
  return -l10 * d1;
}

/** K⁻¹'s first diagonal entry d0 + l10²·d1, as d0 − l10·m01 with m01 = inverse2Off(l10, d1). */
export function inverse2Diag(l10: number, d0: number, m01: number): number {
  return d0 - l10 * m01;
}

/**
 * Solve with a factorSymmetric result: b becomes K⁻¹ b (zero pivots give 0 in their rows).
 *
 * n = 2 goes through K⁻¹'s entries, formed from the factors: with L = [1 0; l10 1] and
 * D⁻¹ = diag(d0, d1), K⁻¹ = L⁻ᵀ D⁻¹ L⁻¹ = [d0 + l10² d1, −l10 d1; −l10 d1, d1]. The entries do not
 * depend on b, so x is one multiply-add from b, where substitution takes three dependent steps
 * more, and a velocity pass over a chain waits on them from each joint to the next. (The user
 * batch forms the same entries with the same two functions, so its results stay bitwise these.)
 */
export function solveFactored(L: Float64Array, dinv: Float64Array, b: Float64Array, n: number): void {
  if (n === 2) {
    const d1 = dinv[1]!;
    const m01 = inverse2Off(L[2]!, d1);
    const m00 = inverse2Diag(L[2]!, dinv[0]!, m01);
    const b0 = b[0]!;
    const b1 = b[1]!;
    b[0] = m00 * b0 + m01 * b1;
    b[1] = m01 * b0 + d1 * b1;
    return;
  }
  solveFactoredAt(L, 0, dinv, 0, b, n);
}

/**
 * Substitution with a factorSymmetric result stored at offsets (L from L[lo], 1/D from
 * dinv[vo]): b becomes K⁻¹ b. Stands alone (the user batch's kernels take it as a part: their
 * workers rebuild it from its text).
 */
export function solveFactoredAt(L: Float64Array, lo: number, dinv: Float64Array, vo: number, b: Float64Array, n: number): void {
  for (let i = 0; i < n; i++) {
    let v = b[i]!;
    for (let k = 0; k < i; k++) v -= L[lo + i * n + k]! * b[k]!;
    b[i] = v;
  }
  for (let i = 0; i < n; i++) b[i] = b[i]! * dinv[vo + i]!;
  for (let i = n - 1; i >= 0; i--) {
    let v = b[i]!;
    for (let k = i + 1; k < n; k++) v -= L[lo + k * n + i]! * b[k]!;
    b[i] = v;
  }
}
