/**
 * Continuous collision (stage 8b of the step, after the position passes): a dynamic body that
 * moved far enough in the step to have passed through something is swept from where it started to
 * where the solver put it, and stopped at the first time of impact, as Box2D v3 does.
 *
 *   fast      a dynamic body (not disableCCD) whose step, |Δp| + |Δθ|·maxExtent, exceeds FAST_SHARE
 *             of its thinnest shape (Body._minExtent; SolverBodies.ccdSlack): slower, and nothing
 *             can slip between its two poses that it would not already overlap at one of them.
 *   sweep     its centre of mass and angle at the step's start and end (SolverBodies' c, a0 and
 *             the deltas). Each solid shape's box over the sweep (collision/proxy-bounds.ts):
 *             inside the shape's fat box (whose proxy looks ahead along its motion by up to twice
 *             its size: the usual case), anything it can meet already has a contact with it, and
 *             those are the candidates; otherwise the box queries the broadphase.
 *   against   static shapes, moving kinematic ones (along their own sweep), and, for a bullet
 *             (isBullet), dynamic bodies that are not bullets, where the solver left them; never a
 *             sensor, a filtered pair, a pair a joint's `ignore` keeps apart, a pair the
 *             pre-solve callback ignores, nor a chain segment the body is behind or moving along
 *             (passesChain).
 *   impact    collision/time-of-impact.ts, conservative advancement to one LINEAR_SLOP of overlap.
 *             A pair already that close at the start keeps its contact (the solver's), but is
 *             swept again to stop a slop nearer than it started, so that no other part of the
 *             shape follows it in; cores that already overlap sweep the shape's centroid (a
 *             small circle there, Box2D v3's rule) instead. A time of 0 leaves the body as it is.
 *   result    the body's end pose moves back to the earliest impact, with its velocity kept: the
 *             next step's narrowphase finds the contact and the solver takes the velocity out. If
 *             what it hit moves on (a kinematic paddle), the body is carried with it for the rest
 *             of the step, so that it ends in front of it rather than passed through by it.
 *
 * Bodies are taken in solver order and each against what the step already fixed, so the result
 * does not depend on the broadphase tree: every candidate's time is computed, the earliest kept.
 */
import type { Body } from '../body/body.js';
import { shouldCollide } from '../collision/filter.js';
import { LINEAR_SLOP } from '../collision/manifold.js';
import { DistanceProxy, setProxyFromShape } from '../collision/gjk.js';
import { turnReach } from '../collision/proxy-bounds.js';
import { timeOfImpact, TimeOfImpactOutput, type Sweep } from '../collision/time-of-impact.js';
import type { Circle } from '../shape/circle.js';
import { ChainSegment } from '../shape/chain.js';
import type { PolyShape } from '../shape/poly-shape.js';
import type { Shape } from '../shape/shape.js';
import type { AABBOut } from '../broadphase/dynamic-tree.js';
import type { Contact } from '../contact/contact.js';
import type { ContactManager } from './contact-manager.js';
import type { SolverBodies } from './solver-bodies.js';


/** A sweep that stays at the body's current pose (a static body, or a query's target). */
export function bodySweep(b: Body, out: Sweep): void {
  const cx = b._x + b._c * b._lcx - b._s * b._lcy;
  const cy = b._y + b._s * b._lcx + b._c * b._lcy;
  out.localCenterX = b._lcx;
  out.localCenterY = b._lcy;
  out.c1x = out.c2x = cx;
  out.c1y = out.c2y = cy;
  out.a1 = out.a2 = b._angle;
}

export class ContinuousCollision {
  private readonly proxy = new DistanceProxy();
  private readonly otherProxy = new DistanceProxy();
  /** A small circle at the swept shape's centroid (the fallback when it starts touching). */
  private readonly centroid = new DistanceProxy();
  private readonly sweep: Sweep = { localCenterX: 0, localCenterY: 0, c1x: 0, c1y: 0, a1: 0, c2x: 0, c2y: 0, a2: 0 };
  private readonly otherSweep: Sweep = { localCenterX: 0, localCenterY: 0, c1x: 0, c1y: 0, a1: 0, c2x: 0, c2y: 0, a2: 0 };
  private readonly box = new Float64Array(4);
  private readonly toi = new TimeOfImpactOutput();
  /** The body being swept and its earliest impact so far (the broadphase callback's state). */
  private body: Body | null = null;
  private shape: Shape | null = null;
  /** The shape this.proxy holds (filled lazily: most fast bodies meet no candidate). */
  private proxyShape: Shape | null = null;
  private earliest = 1;
  /** The sweep of what the earliest impact is with (a copy: it may move, a kinematic body). */
  private readonly hitSweep: Sweep = { localCenterX: 0, localCenterY: 0, c1x: 0, c1y: 0, a1: 0, c2x: 0, c2y: 0, a2: 0 };
  /** The shape of the earliest impact (ties go to the lower id: the tree's order never shows). */
  private hitId = Infinity;
  private sb: SolverBodies | null = null;
  /** This step: some static or kinematic shape exists for a body that is not a bullet to meet. */
  private plainHaveTargets = false;
  private readonly visit = (proxy: number): boolean => this.candidate(proxy);
  private readonly fat: AABBOut = { minX: 0, minY: 0, maxX: 0, maxY: 0 };

  constructor(private readonly contacts: ContactManager) {}

  /** Sweep every fast body of the step, in solver order. */
  solve(sb: SolverBodies): void {
    // Without a static or kinematic shape to meet, only bullets have anything to sweep against.
    this.plainHaveTargets = this.contacts.solidTargets() > 0;
    if (!this.plainHaveTargets && sb.bullets === 0) return;
    this.sb = sb;
    const { dpx, dpy, dq, ccdSlack, reach, bullet } = sb;
    const plain = this.plainHaveTargets;
    for (let i = 1, n = sb.count; i < n; i++) {
      if (!plain && bullet[i] === 0) continue;
      // |Δp| + |Δθ|·maxExtent ≤ FAST_SHARE·minExtent (SolverBodies.ccdSlack), without a square
      // root and without reading the Body: most bodies stop here.
      const dx = dpx[i]!, dy = dpy[i]!;
      const slack = ccdSlack[i]! - Math.abs(dq[i]!) * reach[i]!;
      if (slack > 0 && dx * dx + dy * dy <= slack * slack) continue;
      this.sweepBody(sb, i, sb.bodies[i]!);
    }
    this.sb = null;
  }

  private sweepBody(sb: SolverBodies, i: number, b: Body): void {
    // Nothing to sweep for a body of sensors and shapes that pair with nothing (a joint chain).
    let solid = false;
    for (const s of b._shapes) if (!s.sensor && !s._inert) solid = true;
    if (!solid) return;
    const sweep = this.sweep;
    sweep.localCenterX = b._lcx;
    sweep.localCenterY = b._lcy;
    sweep.c1x = sb.cx[i]!;
    sweep.c1y = sb.cy[i]!;
    sweep.a1 = sb.a0[i]!;
    const dx = sb.dpx[i]!, dy = sb.dpy[i]!;
    sweep.c2x = sweep.c1x + dx;
    sweep.c2y = sweep.c1y + dy;
    sweep.a2 = sweep.a1 + sb.dq[i]!;
    // Every point moves by the translation and at most `reach` more (proxy-bounds.ts, turnReach):
    // each shape's box at the start, stretched along the translation and grown by it, holds its
    // sweep, with no vertex transformed.
    const reach = turnReach(b._maxExtent, sb.dq[i]!);
    this.body = b;
    this.earliest = 1;
    this.hitId = Infinity;
    this.proxyShape = null;
    const fat = this.fat;
    const box = this.box;
    for (const s of b._shapes) {
      if (s.sensor || s._inert) continue;
      box[0] = Math.min(s.aabbMinX, s.aabbMinX + dx) - reach;
      box[1] = Math.min(s.aabbMinY, s.aabbMinY + dy) - reach;
      box[2] = Math.max(s.aabbMaxX, s.aabbMaxX + dx) + reach;
      box[3] = Math.max(s.aabbMaxY, s.aabbMaxY + dy) + reach;
      this.shape = s;
      this.contacts.broadphase.getFatAABB(s.proxyId, fat);
      if (box[0]! >= fat.minX && box[1]! >= fat.minY && box[2]! <= fat.maxX && box[3]! <= fat.maxY) {
        // The sweep stays in the shape's fat box (its proxy looks ahead along its motion), so
        // anything it can meet overlaps that box and already has a contact with it: no query.
        for (const c of b._contacts as Contact[]) {
          if (c.shapeA === s) this.against(c.shapeB);
          else if (c.shapeB === s) this.against(c.shapeA);
        }
      } else this.contacts.broadphase.query(box[0]!, box[1]!, box[2]!, box[3]!, this.visit);
    }
    this.body = null;
    this.shape = null;
    const t = this.earliest;
    if (!(t > 0 && t < 1)) return;
    // Back to the impact, velocity kept; then carried for the rest of the step as what it hit
    // moves (a kinematic paddle's translation and turn about its centre; nothing for a static
    // body), so that it ends the step in front of it, not passed through by it.
    const u = 1 - t;
    let cx = u * sweep.c1x + t * sweep.c2x;
    let cy = u * sweep.c1y + t * sweep.c2y;
    let a = u * sweep.a1 + t * sweep.a2;
    const o = this.hitSweep;
    const turn = o.a2 - (u * o.a1 + t * o.a2);
    const ox = u * o.c1x + t * o.c2x;
    const oy = u * o.c1y + t * o.c2y;
    if (turn !== 0 || ox !== o.c2x || oy !== o.c2y) {
      const c = Math.cos(turn), s = Math.sin(turn);
      const rx = cx - ox, ry = cy - oy;
      cx = o.c2x + c * rx - s * ry;
      cy = o.c2y + s * rx + c * ry;
      a += turn;
    }
    sb.dpx[i] = cx - sweep.c1x;
    sb.dpy[i] = cy - sweep.c1y;
    const dq = a - sweep.a1;
    sb.dq[i] = dq;
    sb.dqc[i] = Math.cos(dq);
    sb.dqs[i] = Math.sin(dq);
  }

  /** One broadphase candidate for the body being swept. */
  private candidate(proxy: number): boolean {
    const other = this.contacts.shapeFromProxy(proxy);
    if (other) this.against(other);
    return true;
  }

  /** One shape the body being swept might meet: its impact time, if earlier. */
  private against(other: Shape): void {
    const body = this.body!;
    const shape = this.shape!;
    if (other.sensor) return;
    const ob = other.body as Body;
    if (ob === body || !shouldCollide(shape, other)) return;
    if (ob._type === 'dynamic' && !(body._isBullet && !ob._isBullet)) return;
    if (this.contacts.keptApart(shape, other)) return;
    if (other instanceof ChainSegment && this.passesChain(shape, other)) return;
    // The swept shape's proxy, filled at its first real candidate.
    if (this.proxyShape !== shape) {
      setProxyFromShape(this.proxy, shape);
      this.proxyShape = shape;
    }
    setProxyFromShape(this.otherProxy, other);
    this.sweepOf(ob, this.otherSweep);
    timeOfImpact(this.proxy, this.sweep, this.otherProxy, this.otherSweep, this.earliest, this.toi);
    const r = this.toi;
    if ((r.state === 'overlapped' || (r.state === 'hit' && r.t === 0)) && r.startDistance > LINEAR_SLOP) {
      // Already touching at the start (a rod that landed on one end, about which the solver now
      // pivots it): the contact is the solver's, but the rest of the shape may not follow it in.
      // Swept again to stop a slop nearer than it started: the far end swinging down is stopped
      // as it reaches the surface. (A body pressing that same point in stops at once, its
      // velocity kept, and the solver takes the velocity out next step.)
      timeOfImpact(this.proxy, this.sweep, this.otherProxy, this.otherSweep, this.earliest, this.toi, r.startDistance - LINEAR_SLOP);
    } else if (r.state === 'overlapped' || (r.state === 'hit' && r.t === 0)) {
      // The cores themselves overlap (or nearly): Box2D v3's rule, a small circle at the shape's
      // centroid swept instead, keeps the body's middle on this side.
      centroidProxy(shape, this.centroid);
      timeOfImpact(this.centroid, this.sweep, this.otherProxy, this.otherSweep, this.earliest, this.toi);
    }
    if ((r.state === 'hit' || r.state === 'failed') && (r.t < this.earliest || (r.t === this.earliest && other.id < this.hitId))) {
      this.earliest = r.t;
      this.hitId = other.id;
      copySweep(this.otherSweep, this.hitSweep);
    }
  }

  /**
   * A chain segment is one-sided (shape/chain.ts): the sweep skips it, as Box2D v3 does, when the
   * swept shape's centroid starts behind it (it passes through from behind), or ends in front of
   * it by more than a quarter of the shape's thinness (it moves along the chain, or away from it,
   * and the narrowphase holds it there; swept, it stopped at each segment's end).
   */
  private passesChain(shape: Shape, seg: ChainSegment): boolean {
    const v = seg.worldVerts;
    const p1x = v[0]!, p1y = v[1]!;
    const ex = v[2]! - p1x, ey = v[3]! - p1y;
    const lx = shape.kind === 'circle' ? (shape as Circle).localX : (shape as PolyShape).localCentroidX;
    const ly = shape.kind === 'circle' ? (shape as Circle).localY : (shape as PolyShape).localCentroidY;
    const w = this.sweep;
    // The centroid at the sweep's two ends (body frame offsets from the centre of mass, turned).
    const rx = lx - w.localCenterX, ry = ly - w.localCenterY;
    const c1 = Math.cos(w.a1), s1 = Math.sin(w.a1), c2 = Math.cos(w.a2), s2 = Math.sin(w.a2);
    const x1 = w.c1x + c1 * rx - s1 * ry, y1 = w.c1y + s1 * rx + c1 * ry;
    const x2 = w.c2x + c2 * rx - s2 * ry, y2 = w.c2y + s2 * rx + c2 * ry;
    // (c − p1) × e: positive in front (the segment's right, its normal's side), in units of |e|.
    const len = Math.hypot(ex, ey);
    const front1 = ((x1 - p1x) * ey - (y1 - p1y) * ex) / len;
    const front2 = ((x2 - p1x) * ey - (y2 - p1y) * ex) / len;
    return front1 < 0 || front2 > 0.25 * shape.minExtent();
  }

  /** A static or sleeping body stays put; a moving kinematic body, or a dynamic one for a bullet, moves as the step moved it. */
  private sweepOf(b: Body, out: Sweep): void {
    bodySweep(b, out);
    const k = b._solverIndex;
    if (k <= 0) return;
    const sb = this.sb!;
    out.c1x = sb.cx[k]!;
    out.c1y = sb.cy[k]!;
    out.a1 = sb.a0[k]!;
    out.c2x = out.c1x + sb.dpx[k]!;
    out.c2y = out.c1y + sb.dpy[k]!;
    out.a2 = out.a1 + sb.dq[k]!;
    // A dynamic body (a bullet's target) is where the solver left it, for the whole step.
    if (b._type === 'dynamic') {
      out.c1x = out.c2x;
      out.c1y = out.c2y;
      out.a1 = out.a2;
    }
  }
}

/** A circle of a quarter of the shape's thinness at its centroid (body frame), into `out`. */
function centroidProxy(shape: Shape, out: DistanceProxy): void {
  if (shape.kind === 'circle') {
    const c = shape as Circle;
    out.verts[0] = c.localX;
    out.verts[1] = c.localY;
  } else {
    const p = shape as PolyShape;
    out.verts[0] = p.localCentroidX;
    out.verts[1] = p.localCentroidY;
  }
  out.count = 1;
  out.radius = CENTROID_SHARE * shape.minExtent();
}

/** The centroid circle's radius as a share of the shape's thinness (Box2D v3's 0.25). */
const CENTROID_SHARE = 0.25;

function copySweep(from: Sweep, to: Sweep): void {
  to.localCenterX = from.localCenterX;
  to.localCenterY = from.localCenterY;
  to.c1x = from.c1x;
  to.c1y = from.c1y;
  to.a1 = from.a1;
  to.c2x = from.c2x;
  to.c2y = from.c2y;
  to.a2 = from.a2;
}
