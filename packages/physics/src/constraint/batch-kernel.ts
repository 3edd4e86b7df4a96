/**
 * Bulk hooks for the user batch (user-batch.ts): the interface a family of constraints implements
 * to be evaluated in one call per pose, the arrays such a call reads and writes, and the batch's
 * per-family row lists.
 */

/**
 * The arrays a bulk kernel call works on. Constraint r (a batch row) has `slotCount` body slots;
 * slot j's packed body state (BODY_STATE_STRIDE numbers at the BodyState offsets) starts at
 * `states[slotState[slotOff[r] + j]]`. A body has one such state per pose, shared by every row
 * that names it, so the engine computes it once per body, not once per row. The row's parameters
 * start at `params[paramOff[r]]`; its J (dimensions × 3·slots, row-major) goes to `J[jOff[r] …]`
 * and its C (dimensions numbers) to `C[cOff[r] …]`.
 */
export interface BatchArrays {
  states: Float64Array;
  slotState: Int32Array;
  slotOff: Int32Array;
  params: Float64Array;
  paramOff: Int32Array;
  J: Float64Array;
  jOff: Int32Array;
  C: Float64Array;
  cOff: Int32Array;
}

/**
 * A jacobian-form constraint's hooks in bulk: one call evaluates every constraint of a step that
 * shares the kernel (the rows `rows[0 … count)`), with no call per constraint. @fulcrum/symbolic
 * generates these. It must compute exactly what the constraint's own jacobian() and position()
 * hooks compute from the same state (then batching changes nothing, bitwise).
 */
export interface UserBatchKernel {
  /** Numbers per constraint in `params` (see UserConstraint.batchParams). */
  readonly paramCount: number;
  jacobian(count: number, rows: Int32Array, a: BatchArrays): void;
  position(count: number, rows: Int32Array, a: BatchArrays): void;
  /** Optional: position() and jacobian() in one call (a position pass needs both, at one pose). */
  positionAndJacobian?(count: number, rows: Int32Array, a: BatchArrays): void;
  /**
   * Optional: the entries of J that are the same for every constraint of the kernel and every
   * state, as [index, value] pairs (index row-major in one constraint's J: row·3·slots + 3·slot +
   * x/y/θ). The batch writes them once per plan, and nothing else writes a kernel row's J, so
   * jacobian() and positionAndJacobian() may leave them out (a pivot's J has eight of twelve).
   */
  readonly constantJacobian?: ReadonlyArray<readonly [index: number, value: number]>;
}

/** The rows of one plan that share a kernel (and a shape: row count and slot count). */
export class KernelGroup {
  count = 0;
  rows = new Int32Array(64);
  /** Some row of the group is soft, so the pose also needs C. */
  anySoft = false;
  constructor(
    readonly kernel: UserBatchKernel,
    readonly dim: number,
    readonly slots: number,
  ) {}
}
