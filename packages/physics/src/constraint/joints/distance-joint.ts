/**
 * DistanceJoint: jointMin ≤ |p2 − p1| ≤ jointMax.
 *
 * With d = p2 − p1, L = |d| and n = d / L:
 *   C   = L (− jointMin when jointMin = jointMax)
 *   V   = dL/dt = n · (v2 + ω2 × r2 − v1 − ω1 × r1)       (since dL/dt = d·ḋ / L)
 *   J   = [ −n   −(r1 × n)   n   r2 × n ]                 (ω × r · n = ω (r × n))
 *   K   = m1 + m2 + i1 (r1 × n)² + i2 (r2 × n)²
 *   Jᵀλ : v1 −= m1 λ n,  ω1 −= i1 λ (r1 × n);  v2 += m2 λ n,  ω2 += i2 λ (r2 × n)
 * Degenerate case: when L² < 1e-8 the direction is undefined, so the row is slack for that pass
 * (Nape zeroes the normal the same way). For a rigid zero-length joint use a PivotJoint.
 *
 * The same derivation in LaTeX, for the Storybook's docs page (rendered with KaTeX):
 * Math (KaTeX):
 *   where: \begin{gathered}
 *          \mathbf{d} = \mathbf{p}_2 - \mathbf{p}_1,\quad L = |\mathbf{d}|,\quad \mathbf{n} = \mathbf{d} / L,\quad
 *          \mathbf{a} \times \mathbf{b} = a_x b_y - a_y b_x \\
 *          \mathbf{p}_i = \mathbf{c}_i + \mathbf{r}_i \text{ and } m_i,\ i_i \text{ (inverse mass and inertia) as for the pivot}
 *          \end{gathered}
 *   C: \begin{gathered}
 *          C = L,\qquad \texttt{jointMin} \le C \le \texttt{jointMax} \\
 *          (\text{the row is } C - \texttt{jointMin} = 0 \text{ when } \texttt{jointMin} = \texttt{jointMax})
 *          \end{gathered}
 *   V: V = \dot{L} = \mathbf{n} \cdot (\mathbf{v}_2 + \omega_2 \times \mathbf{r}_2 - \mathbf{v}_1 - \omega_1 \times \mathbf{r}_1)
 *   J: J = \begin{bmatrix} -\mathbf{n}^{T} & -(\mathbf{r}_1 \times \mathbf{n}) & \mathbf{n}^{T} & \mathbf{r}_2 \times \mathbf{n} \end{bmatrix}
 *   K: K = m_1 + m_2 + i_1 (\mathbf{r}_1 \times \mathbf{n})^2 + i_2 (\mathbf{r}_2 \times \mathbf{n})^2
 *   Jᵀλ: \begin{gathered}
 *          \Delta\mathbf{v}_1 = -m_1 \lambda \mathbf{n},\quad \Delta\omega_1 = -i_1 \lambda\,(\mathbf{r}_1 \times \mathbf{n}) \\
 *          \Delta\mathbf{v}_2 = m_2 \lambda \mathbf{n},\quad \Delta\omega_2 = i_2 \lambda\,(\mathbf{r}_2 \times \mathbf{n})
 *          \end{gathered}
 */
import { BASE_CONSTRAINT_OPTION_KEYS } from '../constraint.js';
import { optionKeys } from '../../util/validate.js';
import type { AnchorSlot } from '../anchor-slot.js';
import { ROW_SLACK } from '../joint.js';
import { AnchoredJoint, checkLimits, type AnchoredOptions } from './two-body-joint.js';

export interface DistanceJointOptions extends AnchoredOptions {
  /** Least distance between the anchors, metres (≥ 0). Default 0. */
  jointMin?: number;
  /** Greatest distance between the anchors, metres (+Infinity allowed); at least jointMin. Default jointMin. */
  jointMax?: number;
}

/** Every key of DistanceJointOptions (a misspelt one is an error). */
const DISTANCE_JOINT_OPTION_KEYS = optionKeys<DistanceJointOptions>()([...BASE_CONSTRAINT_OPTION_KEYS, 'body1', 'body2', 'anchor1', 'anchor2', 'jointMin', 'jointMax']);

export class DistanceJoint extends AnchoredJoint {

  constructor(options: DistanceJointOptions = {}) {
    super();
    this.init(options, () => {
      const anchors = this.validateAnchors(options);
      const [lo, hi] = checkLimits('DistanceJoint', options.jointMin ?? 0, options.jointMax ?? options.jointMin ?? 0, false);
      return () => {
        anchors();
        this._min = lo;
        this._max = hi;
      };
    });
  }
  get typeName(): string {
    return 'DistanceJoint';
  }
  protected override get optionKeys(): readonly string[] {
    return DISTANCE_JOINT_OPTION_KEYS;
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
  protected override get limitsMayBeNegative(): boolean {
    return false;
  }
  isSlack(): boolean {
    return this.impulse()[0] === 0;
  }

  protected computeRows(): void {
    const a = this._slots[0] as AnchorSlot;
    const b = this._slots[1] as AnchorSlot;
    const dx = b.px - a.px;
    const dy = b.py - a.py;
    const L2 = dx * dx + dy * dy;
    if (L2 < 1e-8) {
      this.rowKind[0] = ROW_SLACK;
      this.rowC[0] = Math.sqrt(L2);
      this.J.fill(0);
      return;
    }
    const L = Math.sqrt(L2);
    const nx = dx / L;
    const ny = dy / L;
    this.setLimitRow(0, L);
    const J = this.J;
    J[0] = -nx; J[1] = -ny; J[2] = -(a.rx * ny - a.ry * nx);
    J[3] = nx; J[4] = ny; J[5] = b.rx * ny - b.ry * nx;
  }
}
