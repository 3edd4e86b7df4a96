/**
 * A limited UserConstraint that tests build in many places: a rope between two anchors, written
 * through its hooks (C = |p2 − p1|, which the engine holds within [lo, hi]; J as DistanceJoint's).
 */
import type { Body } from '../body/body.js';
import { BODY_STATE_STRIDE, BodyState } from '../constraint/body-state.js';
import { UserConstraint, type UserConstraintOptions } from '../constraint/user-constraint.js';

type V2 = [number, number];

/** World anchor of slot `slot` and its offset from that body's centre of mass, from the packed state. */
export function anchor(st: Float64Array, slot: number, a: V2): { px: number; py: number; rx: number; ry: number } {
  const o = slot * BODY_STATE_STRIDE;
  const c = st[o + BodyState.cos]!;
  const s = st[o + BodyState.sin]!;
  const px = st[o + BodyState.x]! + c * a[0] - s * a[1];
  const py = st[o + BodyState.y]! + s * a[0] + c * a[1];
  return { px, py, rx: px - st[o + BodyState.comX]!, ry: py - st[o + BodyState.comY]! };
}

/** A rope: C = |p2 − p1| (raw, the engine holds it in [lo, hi]), J as DistanceJoint's. */
export function rope(a: Body, b: Body, a1: V2, a2: V2, lo: number, hi: number, extra: Partial<UserConstraintOptions> = {}): UserConstraint {
  return new UserConstraint({
    dimensions: 1,
    packedState: true,
    bodies: [a, b],
    limits: [[lo, hi]],
    hooks: {
      position(err, st) {
        const p = anchor(st, 0, a1);
        const q = anchor(st, 1, a2);
        err[0] = Math.hypot(q.px - p.px, q.py - p.py);
      },
      jacobian(J, st) {
        const p = anchor(st, 0, a1);
        const q = anchor(st, 1, a2);
        const dx = q.px - p.px;
        const dy = q.py - p.py;
        const L = Math.hypot(dx, dy);
        if (L < 1e-4) return J.fill(0) as unknown as void;
        const nx = dx / L;
        const ny = dy / L;
        J.set([-nx, -ny, -(p.rx * ny - p.ry * nx), nx, ny, q.rx * ny - q.ry * nx]);
      },
    },
    ...extra,
  });
}

