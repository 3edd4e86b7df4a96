/**
 * MotorJoint: drives ratio·ω2 − ω1 towards `rate`. Velocity-only: no position error, no bias.
 *
 *   V   = ratio ω2 − ω1 − rate
 *   J   = [ 0 0 −1   0 0 ratio ]
 *   K   = i1 + ratio² i2
 *   Jᵀλ : ω1 −= i1 λ,  ω2 += i2 ratio λ
 * The accumulated impulse is always clamped to ±maxForce·h (Nape's MotorJoint always clamps,
 * stiff or not), so maxForce is the motor's torque limit.
 *
 * The same derivation in LaTeX, for the Storybook's docs page (rendered with KaTeX):
 * Math (KaTeX):
 *   where: \rho = \texttt{ratio},\quad i_1,\ i_2 \text{ the inverse inertias},\quad h \text{ the substep}
 *   C: C:\ \text{none, a velocity constraint (no position error, no bias)}
 *   V: V = \rho\,\omega_2 - \omega_1 - \texttt{rate}
 *   J: J = \begin{bmatrix} 0 & 0 & -1 & 0 & 0 & \rho \end{bmatrix}
 *   K: K = i_1 + \rho^2\, i_2
 *   Jᵀλ: \Delta\omega_1 = -i_1 \lambda,\qquad \Delta\omega_2 = i_2\,\rho\,\lambda,\qquad
 *          |\lambda_{\mathrm{acc}}| \le \texttt{maxForce} \cdot h
 */
import { BASE_CONSTRAINT_OPTION_KEYS } from '../constraint.js';
import { checkFinite, optionKeys } from '../../util/validate.js';
import { ROW_MOTOR } from '../joint.js';
import { TwoBodyJoint, type TwoBodyOptions } from './two-body-joint.js';

export interface MotorJointOptions extends TwoBodyOptions {
  /** Target value of ratio·ω2 − ω1 (rad/s). Default 0. */
  rate?: number;
  /** The motor drives ratio·ω2 − ω1. Default 1. */
  ratio?: number;
}

/** Every key of MotorJointOptions (a misspelt one is an error). */
const MOTOR_JOINT_OPTION_KEYS = optionKeys<MotorJointOptions>()([...BASE_CONSTRAINT_OPTION_KEYS, 'body1', 'body2', 'rate', 'ratio']);

export class MotorJoint extends TwoBodyJoint {
  private _rate = 0;
  private _ratio = 1;

  constructor(options: MotorJointOptions = {}) {
    super();
    this.init(options, () => {
      const rate = options.rate !== undefined ? checkFinite('MotorJoint', 'rate', options.rate) : 0;
      const ratio = options.ratio !== undefined ? checkFinite('MotorJoint', 'ratio', options.ratio) : 1;
      return () => {
        this._rate = rate;
        this._ratio = ratio;
      };
    });
  }
  get typeName(): string {
    return 'MotorJoint';
  }
  protected override get optionKeys(): readonly string[] {
    return MOTOR_JOINT_OPTION_KEYS;
  }
  get dimension(): number {
    return 1;
  }
  get rate(): number {
    return this._rate;
  }
  set rate(v: number) {
    this._rate = checkFinite('MotorJoint', 'rate', v);
    this.invalidate();
  }
  get ratio(): number {
    return this._ratio;
  }
  set ratio(v: number) {
    this._ratio = checkFinite('MotorJoint', 'ratio', v);
    this.invalidate();
  }

  protected computeRows(): void {
    this.rowKind[0] = ROW_MOTOR;
    this.rowC[0] = this._rate;
    const J = this.J;
    J[0] = 0; J[1] = 0; J[2] = -1;
    J[3] = 0; J[4] = 0; J[5] = this._ratio;
  }

  /** @internal A motor's row is a velocity target, not an equality. */
  override _islandEligible(): boolean {
    return false;
  }

  /** A motor has no position error. */
  protected override errorMagnitude(): number {
    return 0;
  }
}
