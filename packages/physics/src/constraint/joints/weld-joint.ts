/**
 * WeldJoint: the pivot rows plus a relative-angle row; the two bodies move as one.
 *
 *   C   = [ p2 − p1 ;  θ2 − θ1 − phase ]                  (3 rows)
 *   V   = [ v2 + ω2 × r2 − v1 − ω1 × r1 ;  ω2 − ω1 ]
 *   J   = [ −1   0   r1y   1  0  −r2y ]
 *         [  0  −1  −r1x   0  1   r2x ]
 *         [  0   0  −1     0  0   1   ]
 *   K   = the pivot's 2×2 block, plus K13 = −i1 r1y − i2 r2y, K23 = i1 r1x + i2 r2x, K33 = i1 + i2
 *   Jᵀλ : as the pivot for λ_xy, and ω1 −= i1 λ_θ, ω2 += i2 λ_θ
 * Solved as one 3×3 block (LDLᵀ), so the linear and angular parts do not fight each other.
 */
import { checkFinite } from '../../util/validate.js';
import { ROW_EQUALITY } from '../joint.js';
import type { AnchorSlot } from '../anchor-slot.js';
import { AnchoredJoint, type AnchoredOptions } from './two-body-joint.js';

export interface WeldJointOptions extends AnchoredOptions {
  /** Target relative angle θ2 − θ1. Default 0. */
  phase?: number;
}

export class WeldJoint extends AnchoredJoint {
  private _phase = 0;

  constructor(options: WeldJointOptions = {}) {
    super();
    this.init(options, () => {
      const anchors = this.validateAnchors(options);
      const phase = options.phase !== undefined ? checkFinite('WeldJoint', 'phase', options.phase) : 0;
      return () => {
        anchors();
        this._phase = phase;
      };
    });
  }
  get typeName(): string {
    return 'WeldJoint';
  }
  get dimension(): number {
    return 3;
  }

  get phase(): number {
    return this._phase;
  }
  set phase(v: number) {
    this._phase = checkFinite('WeldJoint', 'phase', v);
    this.invalidate();
  }

  protected computeRows(): void {
    const a = this._slots[0] as AnchorSlot;
    const b = this._slots[1] as AnchorSlot;
    const J = this.J;
    this.rowKind[0] = this.rowKind[1] = this.rowKind[2] = ROW_EQUALITY;
    this.rowC[0] = b.px - a.px;
    this.rowC[1] = b.py - a.py;
    this.rowC[2] = b.angle - a.angle - this._phase;
    J[0] = -1; J[1] = 0; J[2] = a.ry;
    J[3] = 1; J[4] = 0; J[5] = -b.ry;
    J[6] = 0; J[7] = -1; J[8] = -a.rx;
    J[9] = 0; J[10] = 1; J[11] = b.rx;
    J[12] = 0; J[13] = 0; J[14] = -1;
    J[15] = 0; J[16] = 0; J[17] = 1;
  }
}
