/**
 * Joint limits for the debug view. The engine's debug drawing shows a joint's anchors and the
 * line between them; the limits (where a LineJoint's slider stops, the range of a
 * DistanceJoint, the angles an AngleJoint allows) are drawn here, from the public API.
 *
 * Anchors and directions are read from the props when they change (`cache`), because the
 * engine's getters allocate; the per-frame part reads only numbers (body poses, jointMin and
 * jointMax), so drawing limits allocates nothing.
 */
import type { Body, DebugDraw } from '@fulcrum/physics';

export const LIMIT_COLOR = 0xffc040;
const TICK = 0.12;
/** How far an open (infinite) side of a line joint is drawn, metres. */
const OPEN_LENGTH = 1;
/** Length of an angle joint's limit rays, metres. */
const RAY = 0.6;

/** What a joint with limits looks like to the overlay; `cache` has 6 slots. */
export interface LimitDrawer {
  /** Store the joint's local geometry (anchor1, anchor2, direction) from its props. */
  cache(joint: object, out: Float64Array): void;
  draw(joint: LimitedJoint, cache: Float64Array, sink: DebugDraw): void;
}

export interface LimitedJoint {
  readonly body1: Body | null;
  readonly body2: Body | null;
  readonly jointMin: number;
  readonly jointMax: number;
}

interface Vec {
  x: number;
  y: number;
}

function cacheAnchors(joint: object, out: Float64Array): void {
  const j = joint as { anchor1?: Vec; anchor2?: Vec; direction?: Vec };
  out[0] = j.anchor1?.x ?? 0;
  out[1] = j.anchor1?.y ?? 0;
  out[2] = j.anchor2?.x ?? 0;
  out[3] = j.anchor2?.y ?? 0;
  const d = j.direction ?? { x: 1, y: 0 };
  const l = Math.hypot(d.x, d.y) || 1;
  out[4] = d.x / l;
  out[5] = d.y / l;
}

/** A tick across the direction (ux, uy) at (x, y). */
function tick(sink: DebugDraw, x: number, y: number, ux: number, uy: number): void {
  sink.drawSegment(x - TICK * uy, y + TICK * ux, x + TICK * uy, y - TICK * ux, LIMIT_COLOR);
}

export const LINE_LIMITS: LimitDrawer = {
  cache: cacheAnchors,
  draw(j, k, sink) {
    const b = j.body1;
    if (!b) return;
    const c = Math.cos(b.rotation);
    const s = Math.sin(b.rotation);
    const px = b.x + c * k[0]! - s * k[1]!;
    const py = b.y + s * k[0]! + c * k[1]!;
    const ux = c * k[4]! - s * k[5]!;
    const uy = s * k[4]! + c * k[5]!;
    const lo = Number.isFinite(j.jointMin) ? j.jointMin : Math.min(0, j.jointMax) - OPEN_LENGTH;
    const hi = Number.isFinite(j.jointMax) ? j.jointMax : Math.max(0, j.jointMin) + OPEN_LENGTH;
    sink.drawSegment(px + lo * ux, py + lo * uy, px + hi * ux, py + hi * uy, LIMIT_COLOR);
    if (Number.isFinite(j.jointMin)) tick(sink, px + lo * ux, py + lo * uy, ux, uy);
    if (Number.isFinite(j.jointMax)) tick(sink, px + hi * ux, py + hi * uy, ux, uy);
  },
};

export const DISTANCE_LIMITS: LimitDrawer = {
  cache: cacheAnchors,
  draw(j, k, sink) {
    const a = j.body1;
    const b = j.body2;
    if (!a || !b) return;
    const ca = Math.cos(a.rotation);
    const sa = Math.sin(a.rotation);
    const cb = Math.cos(b.rotation);
    const sb = Math.sin(b.rotation);
    const x1 = a.x + ca * k[0]! - sa * k[1]!;
    const y1 = a.y + sa * k[0]! + ca * k[1]!;
    const x2 = b.x + cb * k[2]! - sb * k[3]!;
    const y2 = b.y + sb * k[2]! + cb * k[3]!;
    const l = Math.hypot(x2 - x1, y2 - y1);
    if (l < 1e-9) return;
    const ux = (x2 - x1) / l;
    const uy = (y2 - y1) / l;
    tick(sink, x1 + j.jointMin * ux, y1 + j.jointMin * uy, ux, uy);
    if (Number.isFinite(j.jointMax)) tick(sink, x1 + j.jointMax * ux, y1 + j.jointMax * uy, ux, uy);
  },
};

export const ANGLE_LIMITS: LimitDrawer = {
  cache() {},
  draw(j, _k, sink) {
    const a = j.body1;
    const b = j.body2;
    const ratio = (j as unknown as { ratio: number }).ratio;
    if (!a || !b || ratio === 0) return;
    angleRay(sink, a, b, j.jointMin, ratio);
    angleRay(sink, a, b, j.jointMax, ratio);
  },
};

/** ratio·θ2 − θ1 = limit  ⇒  θ2 = (θ1 + limit) / ratio: an angle body2 may reach, drawn at body2. */
function angleRay(sink: DebugDraw, a: Body, b: Body, limit: number, ratio: number): void {
  if (!Number.isFinite(limit)) return;
  const t = (a.rotation + limit) / ratio;
  sink.drawSegment(b.x, b.y, b.x + RAY * Math.cos(t), b.y + RAY * Math.sin(t), LIMIT_COLOR);
}
