/**
 * The joint batch's row layout (pivot-batch.ts, pivot-kernels.ts). Each row's numbers sit together (array of structures): a pass then reads one
 * stream through one base pointer instead of some twenty arrays, which measured about 14% faster
 * per row. `hot` holds what every velocity pass reads (two cache lines per row); `cold` what
 * the step's start and end, and soft joints, need.
 */
export const HOT = 16;
export const M_A = 0, M_B = 1, I_A = 2, I_B = 3;
/** Anchors relative to the centre of mass at the step's start, world frame. */
export const R0_AX = 4, R0_AY = 5, R0_BX = 6, R0_BY = 7;
/** Accumulated impulse (warm start). */
export const ACC_X = 8, ACC_Y = 9;
/**
 * Angular impulse applied to A and B this step (for bodyImpulse), summed per pass: r changes from
 * pose to pose. The linear one needs no sum of its own: the impulses of a substep add up to acc
 * at its end, so over the step they add up to the step impulse.
 */
export const SUM_LA = 10, SUM_LB = 11;
/** Centres of mass at the step's start. */
export const C_AX = 12, C_AY = 13, C_BX = 14, C_BY = 15;
export const COLD = 12;
/** Impulse of the step so far. */
export const STEP_X = 0, STEP_Y = 1;
/** Anchors relative to the centre of mass, in body frame (what refresh() rotates). */
export const L_AX = 2, L_AY = 3, L_BX = 4, L_BY = 5;
/** Soft joints: their own biasRate and compliance g (softness.ts), max impulse and max error. */
export const BIAS = 6, COMPLIANCE = 7, MAX_IMP = 8, MAX_ERR = 9;

