// Fulcrum (@fulcrum/physics), consumed through its built output (dist/index.js).
import { Body, Circle, PivotJoint, Polygon, Space, UserConstraint } from '@fulcrum/physics';

const DT = 1 / 60;

/** The defaults of Space.step(dt, velocityIterations = …, positionIterations = …), read from the build itself. */
function stepDefaults() {
  const src = Function.prototype.toString.call(Space.prototype.step);
  const v = /velocityIterations\s*=\s*(\d+)/.exec(src);
  const p = /positionIterations\s*=\s*(\d+)/.exec(src);
  return { velocityIterations: v ? Number(v[1]) : null, positionIterations: p ? Number(p[1]) : null };
}

/** World anchor offset r = R(θ)(a − localCenter) and world point p = c + r (as in user-constraint.test.ts). */
function anchorOf(b, a) {
  const p = b.localPointToWorld(a);
  const c = b.worldCenter;
  return { rx: p.x - c.x, ry: p.y - c.y, px: p.x, py: p.y };
}

/** Nape-form pivot: position, velocity, effMass (packed) and impulse, all by hand (the engine test's UserPivot). */
export class UserPivot extends UserConstraint {
  constructor(b1, b2, a1, a2) {
    super(2);
    this.a1 = a1;
    this.a2 = a2;
    this.b1 = this.registerBody(null, b1);
    this.b2 = this.registerBody(null, b2);
  }
  position(err) {
    const p1 = anchorOf(this.b1, this.a1);
    const p2 = anchorOf(this.b2, this.a2);
    err[0] = p2.px - p1.px;
    err[1] = p2.py - p1.py;
  }
  velocity(err) {
    const r1 = anchorOf(this.b1, this.a1);
    const r2 = anchorOf(this.b2, this.a2);
    const v1 = this.b1.constraintVelocity;
    const v2 = this.b2.constraintVelocity;
    err[0] = v2.x - v2.z * r2.ry - (v1.x - v1.z * r1.ry);
    err[1] = v2.y + v2.z * r2.rx - (v1.y + v1.z * r1.rx);
  }
  effMass(eff) {
    const r1 = anchorOf(this.b1, this.a1);
    const r2 = anchorOf(this.b2, this.a2);
    const m = this.b1.constraintMass + this.b2.constraintMass;
    const i1 = this.b1.constraintInertia;
    const i2 = this.b2.constraintInertia;
    eff[0] = m + i1 * r1.ry * r1.ry + i2 * r2.ry * r2.ry;
    eff[1] = -i1 * r1.rx * r1.ry - i2 * r2.rx * r2.ry;
    eff[2] = m + i1 * r1.rx * r1.rx + i2 * r2.rx * r2.rx;
  }
  // impulse() with no arguments is the read-out; impulse(imp, body, out) is the hook.
  impulse(imp, body, out) {
    if (!imp || !body || !out) return super.impulse();
    const first = body === this.b1;
    const r = first ? anchorOf(body, this.a1) : anchorOf(body, this.a2);
    const s = first ? -1 : 1;
    out.x = s * imp[0];
    out.y = s * imp[1];
    out.z = s * (r.rx * imp[1] - r.ry * imp[0]);
  }
}

/** Nape-symbolic source of a pivot (the Weld example of the Nape manual without its angle row). */
export const SYMBOLIC_PIVOT = `body body1, body2
vector anchor1, anchor2
constraint
  let r1 = relative body1.rotation anchor1 in
  let r2 = relative body2.rotation anchor2 in
  (body2.position + r2) - (body1.position + r1)
`;

export const PENDING_SYMBOLIC = 'pending: @fulcrum/symbolic (issue 5)';

/** SymbolicConstraint from @fulcrum/symbolic, or null while the package does not export it yet. */
export async function loadSymbolic() {
  let mod;
  try {
    mod = await import('@fulcrum/symbolic');
  } catch {
    return null;
  }
  return typeof mod.SymbolicConstraint === 'function' ? mod.SymbolicConstraint : null;
}

/**
 * Builds `spec`. Throws `{ pending }` for scene F while @fulcrum/symbolic has no SymbolicConstraint.
 * @returns {{ step(): void, pose(k: number): number[], settings: object }}
 */
export async function create(spec) {
  let Symbolic = null;
  if (spec.jointKind === 'symbolic') {
    Symbolic = await loadSymbolic();
    if (!Symbolic) return { pending: PENDING_SYMBOLIC };
  }
  const space = new Space({ gravity: [0, -10], allowSleep: false });
  const bodies = spec.bodies.map((b) => {
    const opts = { density: 1, friction: 0.6, restitution: 0, ...(b.collide ? {} : { filter: { group: -1 } }) };
    const shapes = !b.shape ? [] : b.shape.kind === 'box' ? [Polygon.box(b.shape.w, b.shape.h, opts)] : [new Circle({ radius: b.shape.r, ...opts })];
    return space.addBody(new Body({ type: b.type, position: [b.x, b.y], shapes }));
  });
  for (const j of spec.joints) {
    const b1 = bodies[j.a];
    const b2 = bodies[j.b];
    let c;
    if (spec.jointKind === 'pivot') c = new PivotJoint({ body1: b1, body2: b2, anchor1: j.anchorA, anchor2: j.anchorB });
    else if (spec.jointKind === 'user') c = new UserPivot(b1, b2, j.anchorA, j.anchorB);
    else {
      // Nape-symbolic's API: new SymbolicConstraint(source), setBody(name, body), setVector(name, v).
      c = new Symbolic(SYMBOLIC_PIVOT);
      c.setBody('body1', b1);
      c.setBody('body2', b2);
      c.setVector('anchor1', j.anchorA);
      c.setVector('anchor2', j.anchorB);
    }
    space.addConstraint(c);
  }
  const defaults = stepDefaults();
  return {
    step: () => space.step(DT),
    pose: (k) => {
      const b = bodies[k];
      return [b.x, b.y, b.rotation];
    },
    settings: {
      call: 'space.step(1/60) (defaults)',
      velocityIterations: defaults.velocityIterations,
      velocityIterationsMeaning: 'substeps',
      positionIterations: defaults.positionIterations,
      jointIterations: space.jointIterations,
      jointHertz: space.jointHertz,
      allowSleep: space.allowSleep,
      noCollide: 'shape filter { group: -1 }',
      joint: { pivot: 'PivotJoint', user: 'UserPivot extends UserConstraint', symbolic: 'SymbolicConstraint' }[spec.jointKind],
    },
  };
}
