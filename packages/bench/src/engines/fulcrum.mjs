// Fulcrum (@fulcrum/physics), consumed through its built output (dist/index.js).
import { BODY_STATE_STRIDE, Body, BodyState, Circle, PivotJoint, Polygon, Space, UserConstraint } from '@fulcrum/physics';
import { SymbolicConstraint } from '@fulcrum/symbolic';

const DT = 1 / 60;

/** The defaults of Space.step(dt, velocityIterations = …, positionIterations = …), read from the build itself. */
function stepDefaults() {
  const src = Function.prototype.toString.call(Space.prototype.step);
  const v = /velocityIterations\s*=\s*(\d+)/.exec(src);
  const p = /positionIterations\s*=\s*(\d+)/.exec(src);
  return { velocityIterations: v ? Number(v[1]) : null, positionIterations: p ? Number(p[1]) : null };
}

/**
 * World anchor p = origin + R(θ)·a of body slot `slot`, and its offset r = p − centre of mass,
 * read from the packed body state the engine passes to the hooks (no getters, no allocation).
 */
function anchorX(st, o, ax, ay) {
  return st[o + BodyState.x] + st[o + BodyState.cos] * ax - st[o + BodyState.sin] * ay;
}
function anchorY(st, o, ax, ay) {
  return st[o + BodyState.y] + st[o + BodyState.sin] * ax + st[o + BodyState.cos] * ay;
}

/**
 * A pivot as a UserConstraint in Jacobian form over the packed body state (`packedState: true`):
 * C = p2 − p1 and J, the fast way to write a user constraint (the engine then solves it in its
 * user batch: V = J v, K = J M⁻¹ Jᵀ and Jᵀλ from J, with no hook call per velocity pass).
 *   J = [ −1   0   r1y   1  0  −r2y ]
 *       [  0  −1  −r1x   0  1   r2x ]     (r = anchor − centre of mass, world frame)
 * This is scene I's constraint: the hooks alone, called once per constraint and pose.
 */
export class UserPivotHooks extends UserConstraint {
  constructor(b1, b2, a1, a2) {
    super({ dimensions: 2, packedState: true, bodies: [b1, b2] });
    this.a1x = a1[0];
    this.a1y = a1[1];
    this.a2x = a2[0];
    this.a2y = a2[1];
  }
  position(err, st) {
    const o2 = BODY_STATE_STRIDE;
    err[0] = anchorX(st, o2, this.a2x, this.a2y) - anchorX(st, 0, this.a1x, this.a1y);
    err[1] = anchorY(st, o2, this.a2x, this.a2y) - anchorY(st, 0, this.a1x, this.a1y);
  }
  jacobian(J, st) {
    pivotJacobian(J, 0, st, 0, BODY_STATE_STRIDE, this.a1x, this.a1y, this.a2x, this.a2y);
  }
}

/** The pivot's J (see UserPivotHooks) into J[jo …], from body states at st[o1] and st[o2]. */
function pivotJacobian(J, jo, st, o1, o2, a1x, a1y, a2x, a2y) {
  const r1x = anchorX(st, o1, a1x, a1y) - st[o1 + BodyState.comX];
  const r1y = anchorY(st, o1, a1x, a1y) - st[o1 + BodyState.comY];
  const r2x = anchorX(st, o2, a2x, a2y) - st[o2 + BodyState.comX];
  const r2y = anchorY(st, o2, a2x, a2y) - st[o2 + BodyState.comY];
  J[jo] = -1; J[jo + 1] = 0; J[jo + 2] = r1y; J[jo + 3] = 1; J[jo + 4] = 0; J[jo + 5] = -r2y;
  J[jo + 6] = 0; J[jo + 7] = -1; J[jo + 8] = -r1x; J[jo + 9] = 0; J[jo + 10] = 1; J[jo + 11] = r2x;
}

/**
 * The same pivot's hooks in bulk (UserConstraint.batchKernel): one call per pose evaluates every
 * UserPivot of the step, from the engine's per-body states and each pivot's anchors, with the
 * hooks' arithmetic. J's eight constant entries are declared once (constantJacobian) and the
 * kernel writes the other four, packed (J[4i …]); it declares the state fields it reads. Scene E's
 * constraint.
 */
const PIVOT_KERNEL = {
  paramCount: 4,
  constantJacobian: [[0, -1], [1, 0], [3, 1], [4, 0], [6, 0], [7, -1], [9, 0], [10, 1]],
  // The state fields it reads: the batch need not keep the angle and the velocities current.
  reads: [BodyState.x, BodyState.y, BodyState.cos, BodyState.sin, BodyState.comX, BodyState.comY],
  position(from, to, a) {
    const { states, slotState, params, C } = a;
    for (let i = from; i < to; i++) {
      const o1 = slotState[2 * i];
      const o2 = slotState[2 * i + 1];
      const p = 4 * i;
      C[2 * i] = anchorX(states, o2, params[p + 2], params[p + 3]) - anchorX(states, o1, params[p], params[p + 1]);
      C[2 * i + 1] = anchorY(states, o2, params[p + 2], params[p + 3]) - anchorY(states, o1, params[p], params[p + 1]);
    }
  },
  // (Every load comes before the first store: J and the states are both Float64Arrays, so the
  // compiler cannot keep a loaded number across a store to J and would load it again.)
  jacobian(from, to, a) {
    const { states, slotState, params, J } = a;
    for (let i = from; i < to; i++) {
      const o1 = slotState[2 * i];
      const o2 = slotState[2 * i + 1];
      const p = 4 * i;
      const jo = 4 * i;
      const a1x = params[p], a1y = params[p + 1], a2x = params[p + 2], a2y = params[p + 3];
      const r1x = anchorX(states, o1, a1x, a1y) - states[o1 + BodyState.comX];
      const r1y = anchorY(states, o1, a1x, a1y) - states[o1 + BodyState.comY];
      const r2x = anchorX(states, o2, a2x, a2y) - states[o2 + BodyState.comX];
      const r2y = anchorY(states, o2, a2x, a2y) - states[o2 + BodyState.comY];
      J[jo] = r1y;
      J[jo + 1] = -r2y;
      J[jo + 2] = -r1x;
      J[jo + 3] = r2x;
    }
  },
  // A position pass needs C and J at one pose: one call, the world anchors computed once.
  positionAndJacobian(from, to, a) {
    const { states, slotState, params, J, C } = a;
    for (let i = from; i < to; i++) {
      const o1 = slotState[2 * i];
      const o2 = slotState[2 * i + 1];
      const p = 4 * i;
      const jo = 4 * i;
      const a1x = params[p], a1y = params[p + 1], a2x = params[p + 2], a2y = params[p + 3];
      const p1x = anchorX(states, o1, a1x, a1y);
      const p1y = anchorY(states, o1, a1x, a1y);
      const p2x = anchorX(states, o2, a2x, a2y);
      const p2y = anchorY(states, o2, a2x, a2y);
      const r1x = p1x - states[o1 + BodyState.comX];
      const r1y = p1y - states[o1 + BodyState.comY];
      const r2x = p2x - states[o2 + BodyState.comX];
      const r2y = p2y - states[o2 + BodyState.comY];
      C[2 * i] = p2x - p1x;
      C[2 * i + 1] = p2y - p1y;
      J[jo] = r1y;
      J[jo + 1] = -r2y;
      J[jo + 2] = -r1x;
      J[jo + 3] = r2x;
    }
  },
};

/** UserPivotHooks with its bulk kernel: scene E's constraint. */
export class UserPivot extends UserPivotHooks {
  batchKernel() {
    return PIVOT_KERNEL;
  }
  batchParams(out, at) {
    out[at] = this.a1x;
    out[at + 1] = this.a1y;
    out[at + 2] = this.a2x;
    out[at + 3] = this.a2y;
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

/**
 * Builds `spec`.
 * @returns {{ step(): void, pose(k: number): number[], settings: object }}
 */
export async function create(spec) {
  const space = new Space({ gravity: [0, -10], allowSleep: false });
  const bodies = spec.bodies.map((b) => {
    const opts = { density: 1, friction: 0.6, restitution: 0, ...(b.collide ? {} : { filter: { mask: 0 } }) };
    const shapes = !b.shape ? [] : b.shape.kind === 'box' ? [Polygon.box(b.shape.w, b.shape.h, opts)] : [new Circle({ radius: b.shape.r, ...opts })];
    return space.addBody(new Body({ type: b.type, position: [b.x, b.y], shapes }));
  });
  for (const j of spec.joints) {
    const b1 = bodies[j.a];
    const b2 = bodies[j.b];
    let c;
    if (spec.jointKind === 'pivot') c = new PivotJoint({ body1: b1, body2: b2, anchor1: j.anchorA, anchor2: j.anchorB });
    else if (spec.jointKind === 'user') c = new UserPivot(b1, b2, j.anchorA, j.anchorB);
    else if (spec.jointKind === 'user-hooks') c = new UserPivotHooks(b1, b2, j.anchorA, j.anchorB);
    else {
      // Nape-symbolic's API: new SymbolicConstraint(source), setBody(name, body), setVector(name, v).
      // Every constraint shares one compiled program (cached by source).
      c = new SymbolicConstraint(SYMBOLIC_PIVOT);
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
      noCollide: 'shape filter { mask: 0 } (collides with nothing)',
      joint: {
        pivot: 'PivotJoint',
        user: 'UserPivot extends UserConstraint (packedState, position + jacobian, and their bulk form: batchKernel)',
        'user-hooks': 'UserPivotHooks extends UserConstraint (packedState, position + jacobian hooks only)',
        symbolic: 'SymbolicConstraint',
      }[spec.jointKind],
    },
  };
}
