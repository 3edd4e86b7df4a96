/**
 * Fluids (Nape's fluidEnabled shapes, Shape.FluidProperties): every dynamic body's solid shape
 * that overlaps a fluid shape is buoyed and slowed by it, in every substep, from the pose the
 * substep starts at:
 *
 *   A, c      the area of the shape inside the fluid and its centroid, exactly
 *             (collision/submerged.ts);
 *   buoyancy  F = −density·A·gravity at c: the body's velocity gains h·F/m and its spin
 *             h·((c − centre of mass) × F)/I;
 *   drag      then v ← v/(1 + h·viscosity·A/m) and ω ← ω/(1 + h·viscosity·A·(A/2π + |c − centre
 *             of mass|²)/I): implicit, as linearDrag and angularDrag are, so stable for any
 *             viscosity, and a body sinking through it settles at exactly
 *             (ρ_body − density)·g/viscosity. A/2π is the squared radius of gyration of a disc of
 *             area A: the turning drag of the submerged part about its own centroid, taken as a
 *             disc's. The fluid is at rest.
 *
 * Why every substep and not once per step: buoyancy is a spring (the deeper, the stronger), and
 * a spring force held for a whole step while the substeps move the body gains energy: a ball
 * bobbing in an inviscid pool went from 3 m to 15 m amplitude in a minute. From each substep's
 * pose it is the same symplectic update as gravity's, and the same ball bobs for ever at its
 * first amplitude.
 *
 * The overlaps are the space's sensor contacts (a fluid is a sensor), gathered once per step in
 * contact order, so the forces add up in the same order every run. The submerged area reads the
 * shapes' world caches: each substep places the body's shape at the substep's pose, and restore
 * puts it back at the body's own pose (after the substeps, or when the step fails).
 */
import type { Body } from '../body/body.js';
import { SENSOR, TOUCHING } from '../contact/contact-store.js';
import { submergedArea, type SubmergedArea } from '../collision/submerged.js';
import type { Shape } from '../shape/shape.js';
import type { ContactManager } from './contact-manager.js';
import type { SolverBodies } from './solver-bodies.js';

export class Fluids {
  private readonly part: SubmergedArea = { area: 0, cx: 0, cy: 0 };
  /** This step's overlaps: the fluid, the body's shape, the body's solver index. */
  private readonly fluid: Shape[] = [];
  private readonly shape: Shape[] = [];
  private index = new Int32Array(16);
  /** This step's overlaps (the step calls substep only when there are some). */
  count = 0;

  /** After gather: the overlaps of fluids and the gathered dynamic bodies' solid shapes. */
  gather(contacts: ContactManager, sb: SolverBodies): void {
    this.count = 0;
    this.fluid.length = 0;
    this.shape.length = 0;
    if (contacts.fluidCount === 0) return;
    const list = contacts.contacts;
    const flags = contacts.store.flags;
    for (let k = 0; k < list.length; k++) {
      // A sensor's contact touches while the shapes overlap.
      if ((flags[k]! & (TOUCHING | SENSOR)) !== (TOUCHING | SENSOR)) continue;
      const c = list[k]!;
      if (c.shapeA.fluidEnabled && !c.shapeB.sensor) this.add(c.shapeA, c.shapeB, c.bodyB, sb);
      else if (c.shapeB.fluidEnabled && !c.shapeA.sensor) this.add(c.shapeB, c.shapeA, c.bodyA, sb);
    }
  }

  private add(fluid: Shape, shape: Shape, body: Body, sb: SolverBodies): void {
    const k = body._solverIndex;
    if (k <= 0 || sb.dynamic[k] === 0) return;
    if (this.count === this.index.length) {
      const grown = new Int32Array(2 * this.count);
      grown.set(this.index);
      this.index = grown;
    }
    this.fluid.push(fluid);
    this.shape.push(shape);
    this.index[this.count++] = k;
  }

  /** One substep's buoyancy and drag, from the pose the substep starts at. */
  substep(sb: SolverBodies, h: number, gx: number, gy: number): void {
    for (let n = 0; n < this.count; n++) {
      const k = this.index[n]!;
      const shape = this.shape[n]!;
      const body = shape.body as Body;
      // The body at the substep's pose: centre c0 + Δp, turned by Δθ.
      const cx = sb.cx[k]! + sb.dpx[k]!;
      const cy = sb.cy[k]! + sb.dpy[k]!;
      const c = sb.c0[k]! * sb.dqc[k]! - sb.s0[k]! * sb.dqs[k]!;
      const s = sb.s0[k]! * sb.dqc[k]! + sb.c0[k]! * sb.dqs[k]!;
      shape.updateWorld(cx - (c * body._lcx - s * body._lcy), cy - (s * body._lcx + c * body._lcy), c, s);
      const fluid = this.fluid[n]!;
      const part = submergedArea(fluid, shape, this.part);
      const a = part.area;
      if (!(a > 0)) continue;
      const im = sb.invMass[k]!;
      const ii = sb.invI[k]!;
      const fx = -fluid._fluidDensity * a * gx;
      const fy = -fluid._fluidDensity * a * gy;
      const rx = part.cx - cx;
      const ry = part.cy - cy;
      const drag = fluid._fluidViscosity * a;
      sb.vx[k] = (sb.vx[k]! + h * fx * im) / (1 + h * drag * im);
      sb.vy[k] = (sb.vy[k]! + h * fy * im) / (1 + h * drag * im);
      sb.w[k] = (sb.w[k]! + h * (rx * fy - ry * fx) * ii) / (1 + h * drag * (a / (2 * Math.PI) + rx * rx + ry * ry) * ii);
    }
  }

  /** The shapes' world caches back at their bodies' own poses (write back moves them on). */
  restore(): void {
    for (let n = 0; n < this.count; n++) {
      const shape = this.shape[n]!;
      const b = shape.body as Body;
      shape.updateWorld(b._x, b._y, b._c, b._s);
    }
  }
}
