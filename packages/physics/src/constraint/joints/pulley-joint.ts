/**
 * PulleyJoint: jointMin ≤ |p2 − p1| + ratio·|p4 − p3| ≤ jointMax.
 *
 * With n12 = (p2 − p1)/|p2 − p1| and n34 = (p4 − p3)/|p4 − p3|:
 *   C   = |p2 − p1| + ratio |p4 − p3|
 *   V   = n12·(v2 + ω2×r2 − v1 − ω1×r1) + ratio n34·(v4 + ω4×r4 − v3 − ω3×r3)
 *   J   = [ −n12  −(r1×n12)   n12  r2×n12   −ratio n34  −ratio (r3×n34)   ratio n34  ratio (r4×n34) ]
 *   K   = Σ over distinct bodies of m |Σ_slots J_lin|² + i (Σ_slots J_ang)²: when two slots share a
 *         body (the 2- and 3-body forms) their entries add before squaring, which gives the
 *         cross terms (Joint.kEntry). With four distinct bodies:
 *         K = m1 + m2 + i1 (r1×n12)² + i2 (r2×n12)² + ratio² (m3 + m4 + i3 (r3×n34)² + i4 (r4×n34)²).
 *   Jᵀλ : each slot's body gets m J_lin λ and i J_ang λ.
 * Degenerate case: a length of exactly zero has no direction; the previous normal is reused
 * (initially (1, 0)), so the row never divides by zero.
 *
 * The same derivation in LaTeX, for the Storybook's docs page (rendered with KaTeX):
 * Math (KaTeX):
 *   where: \begin{gathered}
 *          \mathbf{n}_{12} = \frac{\mathbf{p}_2 - \mathbf{p}_1}{|\mathbf{p}_2 - \mathbf{p}_1|},\quad
 *          \mathbf{n}_{34} = \frac{\mathbf{p}_4 - \mathbf{p}_3}{|\mathbf{p}_4 - \mathbf{p}_3|},\quad \rho = \texttt{ratio},\quad
 *          \mathbf{a} \times \mathbf{b} = a_x b_y - a_y b_x \\
 *          \mathbf{p}_i = \mathbf{c}_i + \mathbf{r}_i \text{ and } m_i,\ i_i \text{ (inverse mass and inertia) as for the pivot}
 *          \end{gathered}
 *   C: C = |\mathbf{p}_2 - \mathbf{p}_1| + \rho\,|\mathbf{p}_4 - \mathbf{p}_3|,\qquad \texttt{jointMin} \le C \le \texttt{jointMax}
 *   V: \begin{aligned}
 *          V = {} & \mathbf{n}_{12} \cdot (\mathbf{v}_2 + \omega_2 \times \mathbf{r}_2 - \mathbf{v}_1 - \omega_1 \times \mathbf{r}_1) \\
 *          & + \rho\,\mathbf{n}_{34} \cdot (\mathbf{v}_4 + \omega_4 \times \mathbf{r}_4 - \mathbf{v}_3 - \omega_3 \times \mathbf{r}_3)
 *          \end{aligned}
 *   J: J = \begin{bmatrix} -\mathbf{n}_{12}^{T} & -(\mathbf{r}_1 \times \mathbf{n}_{12}) & \mathbf{n}_{12}^{T} & \mathbf{r}_2 \times \mathbf{n}_{12} &
 *          -\rho\,\mathbf{n}_{34}^{T} & -\rho\,(\mathbf{r}_3 \times \mathbf{n}_{34}) & \rho\,\mathbf{n}_{34}^{T} & \rho\,(\mathbf{r}_4 \times \mathbf{n}_{34}) \end{bmatrix}
 *   K: \begin{gathered}
 *          K = \sum_{\text{bodies } b} \Big( m_b \Big| \sum_{\text{slots } s \text{ of } b} J^{\mathrm{lin}}_s \Big|^2 + i_b \Big( \sum_{\text{slots } s \text{ of } b} J^{\mathrm{ang}}_s \Big)^2 \Big) \\
 *          \text{four distinct bodies: } K = m_1 + m_2 + i_1 (\mathbf{r}_1 \times \mathbf{n}_{12})^2 + i_2 (\mathbf{r}_2 \times \mathbf{n}_{12})^2
 *          + \rho^2 \big( m_3 + m_4 + i_3 (\mathbf{r}_3 \times \mathbf{n}_{34})^2 + i_4 (\mathbf{r}_4 \times \mathbf{n}_{34})^2 \big)
 *          \end{gathered}
 *   Jᵀλ: \text{for each slot } s \text{ on body } b:\quad \Delta\mathbf{v}_b \mathrel{+}= m_b\, J^{\mathrm{lin}}_s\, \lambda,\qquad \Delta\omega_b \mathrel{+}= i_b\, J^{\mathrm{ang}}_s\, \lambda
 */
import type { Body } from '../../body/body.js';
import type { Vec2, Vec2Like } from '../../math/vec2.js';
import { checkFinite, checkVec2, fail, optionKeys } from '../../util/validate.js';
import type { AnchorSlot } from '../anchor-slot.js';
import { BASE_CONSTRAINT_OPTION_KEYS, type ConstraintOptions } from '../constraint.js';
import { Joint } from '../joint.js';
import { checkLimits } from './two-body-joint.js';

export interface PulleyJointOptions extends ConstraintOptions {
  /** Body of the first segment's start (anchor1). */
  body1?: Body | null;
  /** Body of the first segment's end (anchor2); must differ from body1. */
  body2?: Body | null;
  /** Body of the second segment's start (anchor3); may be body1 or body2. */
  body3?: Body | null;
  /** Body of the second segment's end (anchor4); must differ from body3. */
  body4?: Body | null;
  /** Anchor on body1, in body1's local frame. Default (0, 0). */
  anchor1?: Vec2Like;
  /** Anchor on body2, in body2's local frame. Default (0, 0). */
  anchor2?: Vec2Like;
  /** Anchor on body3, in body3's local frame. Default (0, 0). */
  anchor3?: Vec2Like;
  /** Anchor on body4, in body4's local frame. Default (0, 0). */
  anchor4?: Vec2Like;
  /** Least value of |a1a2| + ratio·|a3a4|, metres (≥ 0). Default 0. */
  jointMin?: number;
  /** Greatest value of |a1a2| + ratio·|a3a4|, metres (+Infinity allowed); at least jointMin. Default jointMin. */
  jointMax?: number;
  /** The limits apply to |a1a2| + ratio·|a3a4|. Default 1. */
  ratio?: number;
}

const NAMES = ['body1', 'body2', 'body3', 'body4'] as const;

/** Every key of PulleyJointOptions (a misspelt one is an error). */
const PULLEY_JOINT_OPTION_KEYS = optionKeys<PulleyJointOptions>()([...BASE_CONSTRAINT_OPTION_KEYS, 'body1', 'body2', 'body3', 'body4', 'anchor1', 'anchor2', 'anchor3', 'anchor4', 'jointMin', 'jointMax', 'ratio']);

export class PulleyJoint extends Joint {
  private _ratio = 1;
  private n12x = 1;
  private n12y = 0;
  private n34x = 1;
  private n34y = 0;

  constructor(o: PulleyJointOptions = {}) {
    super([...NAMES]);
    if (o === null || typeof o !== 'object') fail('PulleyJoint', 'options', o, 'must be an object');
    const base = this.validateBaseOptions(o);
    const bodies = NAMES.map((n) => this.checkBody(n, o[n]));
    checkPairs(bodies);
    const anchors = [o.anchor1, o.anchor2, o.anchor3, o.anchor4].map((a, i) => (a !== undefined ? checkVec2('PulleyJoint', `anchor${i + 1}`, a) : { x: 0, y: 0 }));
    const [lo, hi] = checkLimits('PulleyJoint', o.jointMin ?? 0, o.jointMax ?? o.jointMin ?? 0, false);
    const ratio = o.ratio !== undefined ? checkFinite('PulleyJoint', 'ratio', o.ratio) : 1;
    Object.assign(this, base);
    this.userData = o.userData;
    this.assignBodies(bodies.map((b, i) => [i, b] as [number, Body | null]));
    anchors.forEach((a, i) => {
      this._slots[i]!.ax = a.x;
      this._slots[i]!.ay = a.y;
    });
    this._min = lo;
    this._max = hi;
    this._ratio = ratio;
  }
  get typeName(): string {
    return 'PulleyJoint';
  }
  protected override get optionKeys(): readonly string[] {
    return PULLEY_JOINT_OPTION_KEYS;
  }
  get dimension(): number {
    return 1;
  }

  private setBodyAt(i: number, b: Body | null): void {
    const v = this.checkBody(NAMES[i]!, b);
    const next = this._slots.map((s) => s.body);
    next[i] = v;
    checkPairs(next);
    this.assignBodies([[i, v]]);
  }
  get body1(): Body | null {
    return this.getBody(0);
  }
  set body1(b: Body | null) {
    this.setBodyAt(0, b);
  }
  get body2(): Body | null {
    return this.getBody(1);
  }
  set body2(b: Body | null) {
    this.setBodyAt(1, b);
  }
  get body3(): Body | null {
    return this.getBody(2);
  }
  set body3(b: Body | null) {
    this.setBodyAt(2, b);
  }
  get body4(): Body | null {
    return this.getBody(3);
  }
  set body4(b: Body | null) {
    this.setBodyAt(3, b);
  }

  private anchorGet(i: number): Vec2 {
    return { x: this._slots[i]!.ax, y: this._slots[i]!.ay };
  }
  private anchorSet(i: number, v: Vec2Like): void {
    const a = checkVec2('PulleyJoint', `anchor${i + 1}`, v);
    this.setAnchor(i, a.x, a.y);
  }
  get anchor1(): Vec2 {
    return this.anchorGet(0);
  }
  set anchor1(v: Vec2Like) {
    this.anchorSet(0, v);
  }
  get anchor2(): Vec2 {
    return this.anchorGet(1);
  }
  set anchor2(v: Vec2Like) {
    this.anchorSet(1, v);
  }
  get anchor3(): Vec2 {
    return this.anchorGet(2);
  }
  set anchor3(v: Vec2Like) {
    this.anchorSet(2, v);
  }
  get anchor4(): Vec2 {
    return this.anchorGet(3);
  }
  set anchor4(v: Vec2Like) {
    this.anchorSet(3, v);
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
  get ratio(): number {
    return this._ratio;
  }
  set ratio(v: number) {
    this._ratio = checkFinite('PulleyJoint', 'ratio', v);
    this.invalidate();
  }
  isSlack(): boolean {
    return this.impulse()[0] === 0;
  }

  protected computeRows(): void {
    const [s1, s2, s3, s4] = this._slots as [AnchorSlot, AnchorSlot, AnchorSlot, AnchorSlot];
    let dx = s2.px - s1.px;
    let dy = s2.py - s1.py;
    const L12 = Math.hypot(dx, dy);
    if (L12 > 0) {
      this.n12x = dx / L12;
      this.n12y = dy / L12;
    }
    dx = s4.px - s3.px;
    dy = s4.py - s3.py;
    const L34 = Math.hypot(dx, dy);
    if (L34 > 0) {
      this.n34x = dx / L34;
      this.n34y = dy / L34;
    }
    const value = L12 + this._ratio * L34;
    this.setLimitRow(0, value);
    const J = this.J;
    const ax = this.n12x, ay = this.n12y;
    const q = this._ratio;
    const bx = this.n34x * q, by = this.n34y * q;
    J[0] = -ax; J[1] = -ay; J[2] = -(s1.rx * ay - s1.ry * ax);
    J[3] = ax; J[4] = ay; J[5] = s2.rx * ay - s2.ry * ax;
    J[6] = -bx; J[7] = -by; J[8] = -(s3.rx * by - s3.ry * bx);
    J[9] = bx; J[10] = by; J[11] = s4.rx * by - s4.ry * bx;
  }
}

function checkPairs(b: (Body | null)[]): void {
  if (b[0] && b[0] === b[1]) fail('PulleyJoint', 'body2', `Body#${b[1]!.id}`, 'must differ from body1');
  if (b[2] && b[2] === b[3]) fail('PulleyJoint', 'body4', `Body#${b[3]!.id}`, 'must differ from body3');
}
