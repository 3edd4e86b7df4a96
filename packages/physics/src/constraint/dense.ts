/**
 * Small dense symmetric solves for constraint blocks. K = J M⁻¹ Jᵀ is symmetric positive
 * semi-definite; a zero pivot (a row with no effective mass, e.g. both bodies pinned) solves
 * to 0 for that row, which Nape also does and which lets slack rows pass through.
 */

/** Pivots below this (relative to the diagonal scale) count as zero. */
const EPS = 1e-12;

/**
 * Solve K x = b in place by LDLᵀ (no square roots, so semi-definite K is fine).
 * `K` is n×n row-major and is overwritten by the factorisation; `b` becomes x.
 */
export function solveSymmetric(K: Float64Array, b: Float64Array, n: number): void {
  let scale = 0;
  for (let i = 0; i < n; i++) scale = Math.max(scale, Math.abs(K[i * n + i]!));
  const tol = EPS * (scale > 0 ? scale : 1);
  // Factor: K = L D Lᵀ, L unit lower (stored below the diagonal), D on the diagonal.
  for (let j = 0; j < n; j++) {
    let d = K[j * n + j]!;
    for (let k = 0; k < j; k++) d -= K[j * n + k]! * K[j * n + k]! * K[k * n + k]!;
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
