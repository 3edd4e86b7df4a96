/**
 * Bulk hooks for the user batch (user-batch.ts): the interface a family of constraints implements
 * to be evaluated in one call per pose, the arrays such a call reads and writes, and the batch's
 * per-family row lists.
 */
import type { UserGroupView } from './user-pose-kernels.js';

/**
 * The arrays a bulk kernel call works on, one constraint after another at fixed strides (a
 * constraint of `slots` bodies and `dim` rows, with `paramCount` parameters):
 * - constraint i's body slot j: its packed body state (BODY_STATE_STRIDE numbers at the
 *   BodyState offsets) starts at `states[slotState[i·slots + j]]`. A body has one such state per
 *   pose, shared by every constraint that names it, so the engine computes it once per body;
 * - its parameters start at `params[i·paramCount]`;
 * - its J (dim × 3·slots, row-major) goes to `J[i·dim·3·slots …]`, or only J's entries that are
 *   not constant, packed, when the kernel declares its constants (see constantJacobian);
 * - its C (dim numbers) goes to `C[i·dim …]`.
 * A state holds every BodyState field, current at the pose.
 */
export interface BatchArrays {
  states: Float64Array;
  slotState: Int32Array;
  params: Float64Array;
  J: Float64Array;
  C: Float64Array;
}

/**
 * A jacobian-form constraint's hooks in bulk: one call evaluates the constraints i = from … to − 1
 * of the arrays (every constraint of a step that shares the kernel, or one of them in a position
 * pass), with no call per constraint. @fulcrum/symbolic generates these. It must compute exactly
 * what the constraint's own jacobian() and position() hooks compute from the same state (then
 * batching changes nothing, bitwise).
 */
export interface UserBatchKernel {
  /** Numbers per constraint in `params` (see UserConstraint.batchParams). */
  readonly paramCount: number;
  jacobian(from: number, to: number, a: BatchArrays): void;
  position(from: number, to: number, a: BatchArrays): void;
  /** Optional: position() and jacobian() in one call (a position pass needs both, at one pose). */
  positionAndJacobian?(from: number, to: number, a: BatchArrays): void;
  /**
   * Optional: the entries of J that are the same for every constraint of the kernel and every
   * state, as [index, value] pairs (index row-major in one constraint's J: row·3·slots + 3·slot +
   * x/y/θ). The batch writes them once per plan. A kernel that declares them writes only J's
   * other entries, packed in index order: constraint i's m-th other entry goes to J[i·v + m],
   * where v is the number of other entries (a pivot's J has eight constant entries of twelve, so
   * its kernel writes four numbers per constraint, at J[4i …]).
   */
  readonly constantJacobian?: ReadonlyArray<readonly [index: number, value: number]>;
  /**
   * Optional: jacobian() and position() as source text, each a function body that returns the
   * function (`new Function(text)()` makes it), referring to nothing outside itself. With it, a
   * space's workers compile the kernel and evaluate its constraints' J and C beside the calling
   * thread (constraint/user-pose-kernels.ts); without it, only the calling thread runs the kernel.
   * The functions made from the text must compute exactly what jacobian() and position() compute.
   */
  readonly source?: { readonly jacobian: string; readonly position: string };
}

/** The rows of one plan that share a kernel (and a shape: row count and slot count). */
export class KernelGroup {
  count = 0;
  /** The batch rows of the group, in order: group constraint i is batch row rows[i]. */
  rows = new Int32Array(64);
  /** Some row of the group is soft or limited, so the pose also needs C. */
  needsPosition = false;
  /**
   * What the kernel works on. When the group is the whole plan, its strides are the batch's own
   * and these are the batch's pools (`shared`); otherwise the group has arrays of its own, and the
   * batch copies J and C out to its rows after each call.
   */
  arrays: BatchArrays | null = null;
  shared = false;
  /** With declared constants: the indices of J's other entries, in order (the packed J's layout). */
  varIndex: Int32Array | null = null;
  /** The group as every thread reads it (made with its arrays, once per plan). */
  view: UserGroupView | null = null;
  constructor(
    readonly kernel: UserBatchKernel,
    readonly dim: number,
    readonly slots: number,
  ) {}
}
