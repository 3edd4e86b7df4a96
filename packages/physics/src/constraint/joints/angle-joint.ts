/**
 * AngleJoint: jointMin ≤ ratio·θ2 − θ1 ≤ jointMax.
 *
 *   C   = ratio θ2 − θ1 (− jointMin when jointMin = jointMax: a bilateral row)
 *   V   = ratio ω2 − ω1
 *   J   = [ 0 0 −1   0 0 ratio ]
 *   K   = i1 + ratio² i2
 *   Jᵀλ : ω1 −= i1 λ,  ω2 += i2 ratio λ
 * With jointMin < jointMax each limit is a one-sided row and the joint is slack in between.
 *
 * The same derivation in LaTeX, for the Storybook's docs page (rendered with KaTeX):
 * Math (KaTeX):
 *   where: \rho = \texttt{ratio},\quad i_1,\ i_2 \text{ the inverse inertias}
 *   C: \begin{gathered}
 *          C = \rho\,\theta_2 - \theta_1,\qquad \texttt{jointMin} \le C \le \texttt{jointMax} \\
 *          (\text{the row is } C - \texttt{jointMin} = 0 \text{ when } \texttt{jointMin} = \texttt{jointMax})
 *          \end{gathered}
 *   V: V = \rho\,\omega_2 - \omega_1
 *   J: J = \begin{bmatrix} 0 & 0 & -1 & 0 & 0 & \rho \end{bmatrix}
 *   K: K = i_1 + \rho^2\, i_2
 *   Jᵀλ: \Delta\omega_1 = -i_1 \lambda,\qquad \Delta\omega_2 = i_2\,\rho\,\lambda
 */
import { BASE_CONSTRAINT_OPTION_KEYS } from '../constraint.js';
import type { Body } from '../../body/body.js';
import { checkFinite, optionKeys } from '../../util/validate.js';
import type { AnchorSlot } from '../anchor-slot.js';

import { checkLimits, TwoBodyJoint, type TwoBodyOptions } from './two-body-joint.js';

export interface AngleJointOptions extends TwoBodyOptions {
  /** Lower limit of ratio·θ2 − θ1, radians (−Infinity allowed). Default 0. */
  jointMin?: number;
  /** Upper limit of ratio·θ2 − θ1, radians (+Infinity allowed); at least jointMin. Default 0. */
  jointMax?: number;
  /** The limits apply to ratio·θ2 − θ1. Default 1. */
  ratio?: number;
}

/** Every key of AngleJointOptions (a misspelt one is an error). */
const ANGLE_JOINT_OPTION_KEYS = optionKeys<AngleJointOptions>()([...BASE_CONSTRAINT_OPTION_KEYS, 'body1', 'body2', 'jointMin', 'jointMax', 'ratio']);

export class AngleJoint extends TwoBodyJoint {
  private _ratio = 1;

  constructor(options: AngleJointOptions = {}) {
    super();
    this.init(options, () => {
      const [lo, hi] = checkLimits('AngleJoint', options.jointMin ?? 0, options.jointMax ?? 0, true);
      const ratio = options.ratio !== undefined ? checkFinite('AngleJoint', 'ratio', options.ratio) : 1;
      return () => {
        this._min = lo;
        this._max = hi;
        this._ratio = ratio;
      };
    });
  }
  get typeName(): string {
    return 'AngleJoint';
  }
  protected override get optionKeys(): readonly string[] {
    return ANGLE_JOINT_OPTION_KEYS;
  }
  get dimension(): number {
    return 1;
  }
  get jointMin(): number {
    return this._min;
  }
  set jointMin(v: number) {
    this.setJointMin(v);
  }
  get jointMax(): number {
    return this._max;
  }
  set jointMax(v: number) {
    this.setJointMax(v);
  }
  get ratio(): number {
    return this._ratio;
  }
  set ratio(v: number) {
    this._ratio = checkFinite('AngleJoint', 'ratio', v);
    this.invalidate();
  }
  /** True when the joint is between its limits (no impulse applied last step). */
  isSlack(): boolean {
    return this.impulse()[0] === 0;
  }

  protected computeRows(): void {
    const a = this._slots[0] as AnchorSlot;
    const b = this._slots[1] as AnchorSlot;
    const value = this._ratio * b.angle - a.angle;
    this.setLimitRow(0, value);
    const J = this.J;
    J[0] = 0; J[1] = 0; J[2] = -1;
    J[3] = 0; J[4] = 0; J[5] = this._ratio;
  }
}
export type { Body };
