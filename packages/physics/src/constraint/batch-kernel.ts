/**
 * Bulk hooks for the user batch (user-batch.ts): the interface a family of constraints implements
 * to be evaluated in one call per pose, and the batch's per-family gathering buffers.
 */
/**
 * A jacobian-form constraint's hooks in bulk: one call evaluates every constraint of a step that
 * shares the kernel, from flat arrays, with no call per constraint (@fulcrum/symbolic generates
 * these). For i < count, constraint `rows[i]` has its packed body state at
 * `states[i·stateStride …]` and its parameters at `params[paramOffsets[rows[i]] …]`, and the
 * kernel writes its J (dimensions × 3·bodies, row-major) at `J[jOffsets[rows[i]] …]`, or its C at
 * `C[cOffsets[rows[i]] …]`. It must compute exactly what the constraint's own jacobian() and
 * position() hooks compute (then batching changes nothing, bitwise).
 */
export interface UserBatchKernel {
  /** Numbers per constraint in `params` (see UserConstraint._batchParams). */
  readonly paramCount: number;
  jacobian(count: number, rows: Int32Array, states: Float64Array, stateStride: number, params: Float64Array, paramOffsets: Int32Array, J: Float64Array, jOffsets: Int32Array): void;
  position(count: number, rows: Int32Array, states: Float64Array, stateStride: number, params: Float64Array, paramOffsets: Int32Array, C: Float64Array, cOffsets: Int32Array): void;
  /** Optional: position() and jacobian() in one call (a position pass needs both, at one pose). */
  positionAndJacobian?(
    count: number,
    rows: Int32Array,
    states: Float64Array,
    stateStride: number,
    params: Float64Array,
    paramOffsets: Int32Array,
    C: Float64Array,
    cOffsets: Int32Array,
    J: Float64Array,
    jOffsets: Int32Array,
  ): void;
}

/** The rows of one plan that share a kernel, and their packed states for the bulk call. */
export class KernelGroup {
  count = 0;
  rows = new Int32Array(64);
  states = new Float64Array(64);
  /** Some row of the group is soft, so the pose also needs C. */
  anySoft = false;
  constructor(
    readonly kernel: UserBatchKernel,
    readonly dim: number,
    readonly slots: number,
  ) {}
}

