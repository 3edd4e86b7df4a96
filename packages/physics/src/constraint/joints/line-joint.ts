/**
 * LineJoint: anchor2 stays on the line through anchor1 along `direction` (local to body1),
 * at a signed distance jointMin ≤ n·d ≤ jointMax along it.
 *
 * With n = R(θ1) û (û = direction normalised), d = p2 − p1, t = (−n_y, n_x) (so n × v = t · v),
 * and ṅ = ω1 × n:
 *   C⊥  = n × d = 0
 *   C∥  = n · d ∈ [jointMin, jointMax]
 *   V⊥  = ṅ × d + n × ḋ = t·(v2 − v1) + ω2 (n·r2) − ω1 (n·(r1 + d))      [(ω1×n)×d = −ω1 (n·d)]
 *   V∥  = ṅ · d + n · ḋ = n·(v2 − v1) + ω2 (r2 × n) − ω1 ((r1 + d) × n)   [(ω1×n)·d = ω1 (n×d)]
 *   J⊥  = [ −t   −n·(r1 + d)   t   n·r2 ]
 *   J∥  = [ −n   −(r1 + d) × n   n   r2 × n ]
 *   so body1's lever arm is r1 + d: the line turns with body1 about body1's centre of mass.
 *   K   = J M⁻¹ Jᵀ (2×2 when jointMin = jointMax, otherwise K⊥ and the limit rows separately):
 *         K⊥⊥ = m1 + m2 + i1 (n·(r1+d))² + i2 (n·r2)²,   K∥∥ = m1 + m2 + i1 ((r1+d)×n)² + i2 (r2×n)²,
 *         K⊥∥ = i1 (n·(r1+d)) ((r1+d)×n) + i2 (n·r2) (r2×n)          (t·n = 0, |t| = |n| = 1)
 *   Jᵀλ : v1 −= m1 (λ⊥ t + λ∥ n), ω1 −= i1 (λ⊥ n·(r1+d) + λ∥ (r1+d)×n);
 *         v2 += m2 (λ⊥ t + λ∥ n), ω2 += i2 (λ⊥ n·r2 + λ∥ r2×n).
 * Verified against finite differences (the seed manual's sign on −ω2·c2 is the one that holds).
 *
 * The same derivation in LaTeX, for the Storybook's docs page (rendered with KaTeX):
 * Math (KaTeX):
 *   where: \begin{gathered}
 *          \mathbf{n} = R(\theta_1)\,\hat{\mathbf{u}}\ \ (\hat{\mathbf{u}} = \texttt{direction} / |\texttt{direction}|),\quad
 *          \mathbf{d} = \mathbf{p}_2 - \mathbf{p}_1,\quad \mathbf{t} = (-n_y,\ n_x),\quad \dot{\mathbf{n}} = \omega_1 \times \mathbf{n} \\
 *          \mathbf{l}_1 = \mathbf{r}_1 + \mathbf{d} \text{ (body 1's lever arm: the line turns with body 1)},\quad
 *          \mathbf{a} \times \mathbf{b} = a_x b_y - a_y b_x \\
 *          \mathbf{p}_i = \mathbf{c}_i + \mathbf{r}_i \text{ and } m_i,\ i_i \text{ (inverse mass and inertia) as for the pivot}
 *          \end{gathered}
 *   C: C = \begin{bmatrix} C_\perp \\ C_\parallel \end{bmatrix} = \begin{bmatrix} \mathbf{n} \times \mathbf{d} \\ \mathbf{n} \cdot \mathbf{d} \end{bmatrix},\qquad
 *          C_\perp = 0,\quad \texttt{jointMin} \le C_\parallel \le \texttt{jointMax}
 *   V: \begin{aligned}
 *          V_\perp &= \dot{\mathbf{n}} \times \mathbf{d} + \mathbf{n} \times \dot{\mathbf{d}} = \mathbf{t} \cdot (\mathbf{v}_2 - \mathbf{v}_1) + \omega_2\,(\mathbf{n} \cdot \mathbf{r}_2) - \omega_1\,(\mathbf{n} \cdot \mathbf{l}_1) \\
 *          V_\parallel &= \dot{\mathbf{n}} \cdot \mathbf{d} + \mathbf{n} \cdot \dot{\mathbf{d}} = \mathbf{n} \cdot (\mathbf{v}_2 - \mathbf{v}_1) + \omega_2\,(\mathbf{r}_2 \times \mathbf{n}) - \omega_1\,(\mathbf{l}_1 \times \mathbf{n})
 *          \end{aligned}
 *   J: J = \begin{bmatrix} -\mathbf{t}^{T} & -\mathbf{n} \cdot \mathbf{l}_1 & \mathbf{t}^{T} & \mathbf{n} \cdot \mathbf{r}_2 \\
 *          -\mathbf{n}^{T} & -(\mathbf{l}_1 \times \mathbf{n}) & \mathbf{n}^{T} & \mathbf{r}_2 \times \mathbf{n} \end{bmatrix}
 *   K: \begin{gathered}
 *          K = J M^{-1} J^{T} = \begin{bmatrix} K_{\perp\perp} & K_{\perp\parallel} \\ K_{\perp\parallel} & K_{\parallel\parallel} \end{bmatrix}
 *          \quad (\text{whole when } \texttt{jointMin} = \texttt{jointMax}\text{; otherwise } K_{\perp\perp} \text{ and the limit row's } K_{\parallel\parallel} \text{ apart}) \\
 *          K_{\perp\perp} = m_1 + m_2 + i_1 (\mathbf{n} \cdot \mathbf{l}_1)^2 + i_2 (\mathbf{n} \cdot \mathbf{r}_2)^2,\qquad
 *          K_{\parallel\parallel} = m_1 + m_2 + i_1 (\mathbf{l}_1 \times \mathbf{n})^2 + i_2 (\mathbf{r}_2 \times \mathbf{n})^2 \\
 *          K_{\perp\parallel} = i_1 (\mathbf{n} \cdot \mathbf{l}_1)(\mathbf{l}_1 \times \mathbf{n}) + i_2 (\mathbf{n} \cdot \mathbf{r}_2)(\mathbf{r}_2 \times \mathbf{n})
 *          \quad (\mathbf{t} \cdot \mathbf{n} = 0,\ |\mathbf{t}| = |\mathbf{n}| = 1)
 *          \end{gathered}
 *   Jᵀλ: \begin{gathered}
 *          \Delta\mathbf{v}_1 = -m_1 (\lambda_\perp \mathbf{t} + \lambda_\parallel \mathbf{n}),\quad \Delta\omega_1 = -i_1 (\lambda_\perp\,\mathbf{n} \cdot \mathbf{l}_1 + \lambda_\parallel\,\mathbf{l}_1 \times \mathbf{n}) \\
 *          \Delta\mathbf{v}_2 = m_2 (\lambda_\perp \mathbf{t} + \lambda_\parallel \mathbf{n}),\quad \Delta\omega_2 = i_2 (\lambda_\perp\,\mathbf{n} \cdot \mathbf{r}_2 + \lambda_\parallel\,\mathbf{r}_2 \times \mathbf{n})
 *          \end{gathered}
 */
import { BASE_CONSTRAINT_OPTION_KEYS } from '../constraint.js';
import type { Vec2, Vec2Like } from '../../math/vec2.js';
import { checkVec2, fail, optionKeys } from '../../util/validate.js';
import type { AnchorSlot } from '../anchor-slot.js';
import { ROW_EQUALITY } from '../joint.js';
import { AnchoredJoint, checkLimits, type AnchoredOptions } from './two-body-joint.js';

export interface LineJointOptions extends AnchoredOptions {
  /** Direction of the line in body1's local frame; must be non-zero. Default (1, 0). */
  direction?: Vec2Like;
  /** Least signed distance of anchor2 along the line from anchor1, metres. Default −Infinity. */
  jointMin?: number;
  /** Greatest signed distance of anchor2 along the line from anchor1, metres; at least jointMin. Default +Infinity. */
  jointMax?: number;
}

/** Every key of LineJointOptions (a misspelt one is an error). */
const LINE_JOINT_OPTION_KEYS = optionKeys<LineJointOptions>()([...BASE_CONSTRAINT_OPTION_KEYS, 'body1', 'body2', 'anchor1', 'anchor2', 'direction', 'jointMin', 'jointMax']);

export class LineJoint extends AnchoredJoint {
  private _dirX = 1;
  private _dirY = 0;
  private _ux = 1;
  private _uy = 0;

  constructor(options: LineJointOptions = {}) {
    super();
    this.init(options, () => {
      const anchors = this.validateAnchors(options);
      const dir = options.direction !== undefined ? checkDirection(options.direction) : { x: 1, y: 0 };
      const [lo, hi] = checkLimits('LineJoint', options.jointMin ?? -Infinity, options.jointMax ?? Infinity, true);
      return () => {
        anchors();
        this.setDir(dir);
        this._min = lo;
        this._max = hi;
      };
    });
  }
  get typeName(): string {
    return 'LineJoint';
  }
  protected override get optionKeys(): readonly string[] {
    return LINE_JOINT_OPTION_KEYS;
  }
  get dimension(): number {
    return 2;
  }

  /** The direction as given (not normalised). */
  get direction(): Vec2 {
    return { x: this._dirX, y: this._dirY };
  }
  set direction(v: Vec2Like) {
    this.setDir(checkDirection(v));
    this.invalidate();
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

  private setDir(d: Vec2): void {
    this._dirX = d.x;
    this._dirY = d.y;
    const l = Math.hypot(d.x, d.y);
    this._ux = d.x / l;
    this._uy = d.y / l;
  }

  protected computeRows(): void {
    const a = this._slots[0] as AnchorSlot;
    const b = this._slots[1] as AnchorSlot;
    const c = Math.cos(a.angle);
    const s = Math.sin(a.angle);
    const nx = c * this._ux - s * this._uy;
    const ny = s * this._ux + c * this._uy;
    const dx = b.px - a.px;
    const dy = b.py - a.py;
    const lx = a.rx + dx; // body1's lever arm r1 + d
    const ly = a.ry + dy;
    const J = this.J;
    // row 0: perpendicular, always an equality
    this.rowKind[0] = ROW_EQUALITY;
    this.rowC[0] = nx * dy - ny * dx;
    J[0] = ny; J[1] = -nx; J[2] = -(nx * lx + ny * ly);
    J[3] = -ny; J[4] = nx; J[5] = nx * b.rx + ny * b.ry;
    // row 1: along the line
    const along = nx * dx + ny * dy;
    this.setLimitRow(1, along);
    J[6] = -nx; J[7] = -ny; J[8] = -(lx * ny - ly * nx);
    J[9] = nx; J[10] = ny; J[11] = b.rx * ny - b.ry * nx;
  }
}

function checkDirection(v: unknown): Vec2 {
  const d = checkVec2('LineJoint', 'direction', v);
  if (d.x === 0 && d.y === 0) fail('LineJoint', 'direction', v, 'must be a non-zero vector');
  return d;
}
