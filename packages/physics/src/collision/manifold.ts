/**
 * A contact manifold between two shapes A and B, written by the narrowphase into a
 * preallocated object (no allocation per step). Up to two points.
 *
 * - `nx, ny`: unit normal in world space, pointing from A towards B.
 * - per point i: `px[i], py[i]` world-space contact point (midway between the two surfaces),
 *   `separation[i]` signed distance between the surfaces along the normal (negative = overlap),
 *   `id[i]` a feature key that stays the same while the same features touch (for warm starting).
 * Points are only reported when separation < SPECULATIVE_DISTANCE.
 */
export class Manifold {
  pointCount = 0;
  nx = 0;
  ny = 0;
  readonly px = new Float64Array(2);
  readonly py = new Float64Array(2);
  readonly separation = new Float64Array(2);
  readonly id = new Int32Array(2);

  clear(): void {
    this.pointCount = 0;
  }
}

/** Length scale under which positional error is tolerated (metres). */
export const LINEAR_SLOP = 0.005;
/** Contacts are created this far before surfaces touch, so fast bodies are caught next step. */
export const SPECULATIVE_DISTANCE = 4 * LINEAR_SLOP;
/** Margin by which broadphase AABBs are enlarged, so slow bodies rarely need a tree update. */
export const AABB_MARGIN = 0.1;
