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
 *
 * The same derivation in LaTeX, for the Storybook's docs page (rendered with KaTeX):
 * Math (KaTeX):
 *   where: \begin{gathered}
 *          \mathbf{p}_i = \mathbf{c}_i + \mathbf{r}_i,\quad
 *          \mathbf{r}_i = R(\theta_i)\,(\mathbf{a}_i - \bar{\mathbf{c}}_i),\quad
 *          \omega \times \mathbf{r} = (-\omega r_y,\ \omega r_x),\quad \varphi = \texttt{phase} \\
 *          \mathbf{a}_i = \texttt{anchor}_i,\quad \bar{\mathbf{c}}_i \text{ the local centre of mass},\quad
 *          m_i,\ i_i \text{ the inverse mass and inertia}
 *          \end{gathered}
 *   C: C = \begin{bmatrix} \mathbf{p}_2 - \mathbf{p}_1 \\ \theta_2 - \theta_1 - \varphi \end{bmatrix} \qquad (\text{3 rows})
 *   V: V = \begin{bmatrix} \mathbf{v}_2 + \omega_2 \times \mathbf{r}_2 - \mathbf{v}_1 - \omega_1 \times \mathbf{r}_1 \\
 *          \omega_2 - \omega_1 \end{bmatrix}
 *   J: J = \begin{bmatrix} -1 & 0 & r_{1y} & 1 & 0 & -r_{2y} \\
 *          0 & -1 & -r_{1x} & 0 & 1 & r_{2x} \\
 *          0 & 0 & -1 & 0 & 0 & 1 \end{bmatrix}
 *   K: K = J M^{-1} J^{T} = \begin{bmatrix}
 *          m_1 + m_2 + i_1 r_{1y}^2 + i_2 r_{2y}^2 & -i_1 r_{1x} r_{1y} - i_2 r_{2x} r_{2y} & -i_1 r_{1y} - i_2 r_{2y} \\
 *          -i_1 r_{1x} r_{1y} - i_2 r_{2x} r_{2y} & m_1 + m_2 + i_1 r_{1x}^2 + i_2 r_{2x}^2 & i_1 r_{1x} + i_2 r_{2x} \\
 *          -i_1 r_{1y} - i_2 r_{2y} & i_1 r_{1x} + i_2 r_{2x} & i_1 + i_2
 *          \end{bmatrix}
 *   Jᵀλ: \begin{gathered}
 *          \Delta\mathbf{v}_1 = -m_1 \boldsymbol{\lambda}_{xy},\quad \Delta\omega_1 = -i_1\,(\mathbf{r}_1 \times \boldsymbol{\lambda}_{xy}) - i_1 \lambda_\theta \\
 *          \Delta\mathbf{v}_2 = m_2 \boldsymbol{\lambda}_{xy},\quad \Delta\omega_2 = i_2\,(\mathbf{r}_2 \times \boldsymbol{\lambda}_{xy}) + i_2 \lambda_\theta
 *          \end{gathered}
 */
import { BASE_CONSTRAINT_OPTION_KEYS } from '../constraint.js';
import { checkFinite, optionKeys } from '../../util/validate.js';
import { ROW_EQUALITY } from '../joint.js';
import type { AnchorSlot } from '../anchor-slot.js';
import { AnchoredJoint, type AnchoredOptions } from './two-body-joint.js';

export interface WeldJointOptions extends AnchoredOptions {
  /** Target relative angle θ2 − θ1. Default 0. */
  phase?: number;
}

/** Every key of WeldJointOptions (a misspelt one is an error). */
const WELD_JOINT_OPTION_KEYS = optionKeys<WeldJointOptions>()([...BASE_CONSTRAINT_OPTION_KEYS, 'body1', 'body2', 'anchor1', 'anchor2', 'phase']);

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
  protected override get optionKeys(): readonly string[] {
    return WELD_JOINT_OPTION_KEYS;
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
