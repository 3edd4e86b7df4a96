/**
 * Exact mass properties of a "rounded convex polygon": a convex core (≥ 2 vertices, CCW,
 * with outward edge normals) swept by a disc of `radius`. Why one routine: Polygon (any
 * radius), Capsule (2-vertex core, radius > 0) and Segment (2-vertex core, radius 0) share it.
 *
 * The swept region decomposes exactly into
 *  - the core polygon (triangle fan; empty for a 2-vertex core),
 *  - one rectangle per edge, of size |edge| × radius on the edge's outer side,
 *  - one circular sector per vertex, apex at the vertex, opening angle = exterior angle
 *    (the sectors' angles sum to 2π; a capsule's two end sectors are half discs).
 * Each piece adds mass m, first moment m·c and second moment about the origin I_c + m|c|²,
 * so the result is the centroid and the inertia about the BODY-LOCAL ORIGIN.
 */
import type { MassData } from './shape.js';

export function roundedPolygonMass(
  v: ArrayLike<number>,
  n: ArrayLike<number>,
  count: number,
  radius: number,
  density: number,
): MassData {
  let mass = 0;
  let sx = 0;
  let sy = 0;
  let inertia = 0; // about the origin

  if (count >= 3) {
    // Triangle fan from vertex 0 (reference point r), for precision away from the origin.
    const rx = v[0]!;
    const ry = v[1]!;
    let area = 0;
    let cx = 0; // area-weighted centroid, relative to r
    let cy = 0;
    let ir = 0; // ∫|p − r|² dA
    for (let i = 1; i < count - 1; i++) {
      const e1x = v[2 * i]! - rx;
      const e1y = v[2 * i + 1]! - ry;
      const e2x = v[2 * i + 2]! - rx;
      const e2y = v[2 * i + 3]! - ry;
      const d = e1x * e2y - e1y * e2x;
      const a = 0.5 * d;
      area += a;
      cx += (a * (e1x + e2x)) / 3;
      cy += (a * (e1y + e2y)) / 3;
      // ∫ over the triangle (0, e1, e2) of |p|² = (D/12)(e1·e1 + e1·e2 + e2·e2)
      ir += (d / 12) * (e1x * e1x + e1x * e2x + e2x * e2x + e1y * e1y + e1y * e2y + e2y * e2y);
    }
    const m = density * area;
    const crx = cx / area; // centroid relative to r
    const cry = cy / area;
    const gx = rx + crx; // centroid
    const gy = ry + cry;
    mass += m;
    sx += m * gx;
    sy += m * gy;
    // about r → about centroid → about origin
    inertia += density * ir - m * (crx * crx + cry * cry) + m * (gx * gx + gy * gy);
  }

  if (radius > 0) {
    const rr = radius * radius;
    for (let i = 0; i < count; i++) {
      const j = i + 1 < count ? i + 1 : 0;
      const ax = v[2 * i]!;
      const ay = v[2 * i + 1]!;
      const nx = n[2 * i]!;
      const ny = n[2 * i + 1]!;

      // Edge rectangle: |edge| × radius, centred half a radius outside the edge midpoint.
      const ex = v[2 * j]! - ax;
      const ey = v[2 * j + 1]! - ay;
      const len2 = ex * ex + ey * ey;
      const mr = density * Math.sqrt(len2) * radius;
      const rcx = ax + 0.5 * ex + 0.5 * radius * nx;
      const rcy = ay + 0.5 * ey + 0.5 * radius * ny;
      mass += mr;
      sx += mr * rcx;
      sy += mr * rcy;
      inertia += (mr * (len2 + rr)) / 12 + mr * (rcx * rcx + rcy * rcy);

      // Vertex sector: from the previous edge's normal, turning CCW to this edge's normal.
      const p = i > 0 ? i - 1 : count - 1;
      const px = n[2 * p]!;
      const py = n[2 * p + 1]!;
      // |cross|: the turn is CCW (≥ 0) for a convex core; abs also maps −0 to +0 so that
      // opposite normals (2-vertex cores) give +π, not −π.
      const theta = Math.atan2(Math.abs(px * ny - py * nx), px * nx + py * ny);
      if (theta <= 0) continue;
      const half = 0.5 * theta;
      const ch = Math.cos(half);
      const sh = Math.sin(half);
      const bx = ch * px - sh * py; // bisector: previous normal rotated CCW by θ/2
      const by = sh * px + ch * py;
      const ms = 0.5 * density * theta * rr;
      const dist = (4 * radius * sh) / (3 * theta); // sector centroid distance from the apex
      const scx = ax + dist * bx;
      const scy = ay + dist * by;
      // About the apex: ∫ρ² dA = θ r⁴ / 4, i.e. ms·r²/2.
      const iApex = 0.5 * ms * rr;
      mass += ms;
      sx += ms * scx;
      sy += ms * scy;
      inertia += iApex - ms * dist * dist + ms * (scx * scx + scy * scy);
    }
  }

  if (mass > 0) return { mass, cx: sx / mass, cy: sy / mass, inertia };
  // Zero area (a segment): no mass; report the core's average point as the centroid.
  let ax = 0;
  let ay = 0;
  for (let i = 0; i < count; i++) {
    ax += v[2 * i]!;
    ay += v[2 * i + 1]!;
  }
  return { mass: 0, cx: count > 0 ? ax / count : 0, cy: count > 0 ? ay / count : 0, inertia: 0 };
}
