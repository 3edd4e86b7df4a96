// The Fulcrum adapter, written against a @fulcrum/physics module that is passed in (and a loader of
// @fulcrum/symbolic), so that one worker can run either the working tree's build (fulcrum.mjs) or
// another build from a directory (`--compare <ref>`: a git worktree's packages/*/dist; see
// loadFulcrumFrom). The module is read as a namespace: an export an older build lacks makes only
// the scenes that need it fail, each with a message naming what is missing.
import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const DT = 1 / 60;

/** The built entry points of a checkout rooted at `root` (the repo or a worktree of it). */
export function fulcrumDistPaths(root) {
  return {
    physics: join(root, 'packages', 'physics', 'dist', 'index.js'),
    symbolic: join(root, 'packages', 'symbolic', 'dist', 'index.js'),
  };
}

/**
 * The adapter over the build of the checkout at `root`: its packages/physics/dist and, when a scene
 * needs it, its packages/symbolic/dist. Symbolic's own `import '@fulcrum/physics'` must reach that
 * same physics build (a worktree gets its own node_modules/@fulcrum links for that): it is checked
 * when symbolic loads, through the prototype chain of SymbolicConstraint.
 */
export async function loadFulcrumFrom(root) {
  const paths = fulcrumDistPaths(root);
  const physics = await import(pathToFileURL(paths.physics).href);
  const loadSymbolic = async () => {
    let symbolic;
    try {
      symbolic = await import(pathToFileURL(paths.symbolic).href);
    } catch (e) {
      throw new Error(`this build has no loadable @fulcrum/symbolic (packages/symbolic/dist): ${e.message}`);
    }
    if (typeof symbolic.SymbolicConstraint !== 'function') throw new Error("this build's @fulcrum/symbolic has no SymbolicConstraint");
    // Its UserConstraint must be this physics build's (not, say, the working tree's).
    const chain = [];
    for (let p = Object.getPrototypeOf(symbolic.SymbolicConstraint.prototype); p; p = Object.getPrototypeOf(p)) chain.push(p);
    if (!physics.UserConstraint || !chain.includes(physics.UserConstraint.prototype)) {
      const other = chain.some((p) => p.constructor?.name === 'UserConstraint');
      throw new Error(
        other
          ? '@fulcrum/symbolic of this build resolved another @fulcrum/physics than packages/physics/dist beside it'
          : "this build's SymbolicConstraint is not a UserConstraint of its @fulcrum/physics",
      );
    }
    return symbolic;
  };
  return fulcrumAdapter(physics, loadSymbolic, { physicsDist: realpathSync(join(paths.physics, '..')) });
}

/**
 * @param physics  the @fulcrum/physics module (namespace)
 * @param loadSymbolic  async () => the @fulcrum/symbolic module (called only by scenes that need it)
 * @param where  { physicsDist }: the directory the physics build was loaded from (reported by the worker)
 */
export function fulcrumAdapter(physics, loadSymbolic, where = {}) {
  /** The named exports of this build, or an error naming what it lacks (for `what`). */
  const need = (what, ...names) => {
    const missing = names.filter((n) => physics[n] === undefined);
    if (missing.length) throw new Error(`${what} needs ${missing.join(', ')} from @fulcrum/physics, which this build does not export`);
    return physics;
  };

  let classes = null;
  /** The UserConstraint subclasses, made on first use (they need this build's UserConstraint and BodyState). */
  function userClasses() {
    if (!classes) classes = makeUserClasses(need('a UserConstraint scene', 'UserConstraint', 'BodyState', 'BODY_STATE_STRIDE'));
    return classes;
  }

  /** Scene J/K/E/F/H/I joints that need @fulcrum/symbolic: its module, loaded once. */
  let symbolic = null;

  /**
   * Builds `spec`.
   * @returns {{ step(): void, pose(k: number): number[], velocity(k: number): number[], settings: object }}
   */
  /** `workers` (--workers): Space.workers, started before the first step; 0 (and old builds): none. */
  async function create(spec, { workers = 0 } = {}) {
    const { Space, Body, Polygon, Circle } = need('every scene', 'Space', 'Body', 'Polygon', 'Circle');
    const kind = spec.jointKind;
    if (/sym/.test(kind) && !symbolic) symbolic = await loadSymbolic();
    const space = new Space({ gravity: [0, -10], allowSleep: false, ...(workers > 0 ? { workers } : {}) });
    // The workers that run: as many as asked for, or (Space.parallel) one fewer than the cores.
    let running = 0;
    if (workers > 0) {
      const status = await space.workersReady;
      if (status.workers === 0) throw new Error(`asked for ${workers} workers, none run: ${status.reason}`);
      running = status.workers;
    }
    const bodies = spec.bodies.map((b) => {
      const opts = { density: 1, friction: 0.6, restitution: b.restitution ?? 0, ...(b.collide ? {} : { filter: { mask: 0 } }) };
      const shapes = !b.shape ? [] : b.shape.kind === 'box' ? [Polygon.box(b.shape.w, b.shape.h, opts)] : [new Circle({ radius: b.shape.r, ...opts })];
      // An initial velocity (scene L) is that of the centre of mass, which is the body origin here.
      // Continuous collision stays at the engine's default (against static and kinematic shapes; no
      // isBullet, no disableCCD), which is what scene L measures.
      const velocity = b.velocity ? { velocity: b.velocity } : {};
      return space.addBody(new Body({ type: b.type, position: [b.x, b.y], shapes, ...velocity }));
    });
    const make = jointMaker(spec);
    let first = null;
    for (const j of spec.joints) {
      const c = make(bodies[j.a], bodies[j.b], j);
      first ??= c;
      space.addConstraint(c);
    }
    const defaults = stepDefaults(Space);
    return {
      step: () => space.step(DT),
      pose: (k) => {
        const b = bodies[k];
        return [b.x, b.y, b.rotation];
      },
      velocity: (k) => {
        const v = bodies[k].velocity;
        return [v.x, v.y];
      },
      settings: {
        call: workers > 0 ? `space.step(1/60) (defaults), ${running} workers${running < workers ? ` (${workers} asked for; at most one fewer than the cores start)` : ''}` : 'space.step(1/60) (defaults)',
        workers: running,
        ...(running < workers ? { workersRequested: workers } : {}),
        velocityIterations: defaults.velocityIterations,
        velocityIterationsMeaning: 'substeps',
        positionIterations: defaults.positionIterations,
        jointIterations: space.jointIterations,
        jointHertz: space.jointHertz,
        allowSleep: space.allowSleep,
        noCollide: 'shape filter { mask: 0 } (collides with nothing)',
        joint: JOINT_NAMES[kind],
        // Which of the engine's solver families takes the scene's constraints (a diagnostic of an
        // internal method, so absent when the build has none).
        ...(first && typeof first._solverFamily === 'function' ? { solverFamily: first._solverFamily() } : {}),
      },
    };
  }

  /** (b1, b2, joint data) → the constraint of the scene's joint kind. */
  function jointMaker(spec) {
    const kind = spec.jointKind;
    const [lo, hi] = spec.limits ?? [0, 0];
    switch (kind) {
      case 'pivot': {
        const { PivotJoint } = need('a pivot scene', 'PivotJoint');
        return (b1, b2, j) => new PivotJoint({ body1: b1, body2: b2, anchor1: j.anchorA, anchor2: j.anchorB });
      }
      case 'user':
        return (b1, b2, j) => new (userClasses().UserPivot)(b1, b2, j.anchorA, j.anchorB);
      case 'user-hooks':
        return (b1, b2, j) => new (userClasses().UserPivotHooks)(b1, b2, j.anchorA, j.anchorB);
      case 'symbolic':
        // Nape-symbolic's API: new SymbolicConstraint(source), setBody(name, body), setVector(name, v).
        // Every constraint shares one compiled program (cached by source).
        return (b1, b2, j) => {
          const c = new symbolic.SymbolicConstraint(SYMBOLIC_PIVOT);
          c.setBody('body1', b1);
          c.setBody('body2', b2);
          c.setVector('anchor1', j.anchorA);
          c.setVector('anchor2', j.anchorB);
          return c;
        };
      case 'distance': {
        const { DistanceJoint } = need('scene J', 'DistanceJoint');
        return (b1, b2, j) => new DistanceJoint({ body1: b1, body2: b2, anchor1: j.anchorA, anchor2: j.anchorB, jointMin: lo, jointMax: hi });
      }
      case 'distance-user':
        return (b1, b2, j) => new (userClasses().UserDistance)(b1, b2, j.anchorA, j.anchorB, lo, hi);
      case 'distance-sym': {
        const source = symbolicExample(symbolic, 'DISTANCE');
        return (b1, b2, j) => {
          const c = new symbolic.SymbolicConstraint(source);
          c.setBody('body1', b1);
          c.setBody('body2', b2);
          c.setVector('anchor1', j.anchorA);
          c.setVector('anchor2', j.anchorB);
          // The source's `limit jointMin 0 jointMax` is checked on every set: raise the maximum first.
          c.setScalar('jointMax', hi);
          c.setScalar('jointMin', lo);
          return c;
        };
      }
      case 'weld': {
        const { WeldJoint } = need('scene K', 'WeldJoint');
        return (b1, b2, j) => new WeldJoint({ body1: b1, body2: b2, anchor1: j.anchorA, anchor2: j.anchorB });
      }
      case 'weld-user':
        return (b1, b2, j) => new (userClasses().UserWeld)(b1, b2, j.anchorA, j.anchorB, 0);
      case 'weld-user-hooks': // (no scene: the tests' reference for the weld's bulk kernel)
        return (b1, b2, j) => new (userClasses().UserWeldHooks)(b1, b2, j.anchorA, j.anchorB, 0);
      case 'weld-sym': {
        const source = symbolicExample(symbolic, 'WELD');
        return (b1, b2, j) => {
          const c = new symbolic.SymbolicConstraint(source);
          c.setBody('body1', b1);
          c.setBody('body2', b2);
          c.setVector('anchor1', j.anchorA);
          c.setVector('anchor2', j.anchorB);
          c.setScalar('phase', 0);
          return c;
        };
      }
      default:
        throw new Error(`unknown joint kind ${JSON.stringify(kind)}`);
    }
  }

  return { create, userClasses, physicsDist: where.physicsDist ?? null };
}

function symbolicExample(symbolic, name) {
  const source = symbolic.examples?.[name];
  if (typeof source !== 'string') throw new Error(`this build's @fulcrum/symbolic has no examples.${name}`);
  return source;
}

const JOINT_NAMES = {
  pivot: 'PivotJoint',
  user: 'UserPivot extends UserConstraint (packedState, position + jacobian, and their bulk form: batchKernel)',
  'user-hooks': 'UserPivotHooks extends UserConstraint (packedState, position + jacobian hooks only)',
  symbolic: 'SymbolicConstraint',
  distance: 'DistanceJoint',
  'distance-user': 'UserDistance extends UserConstraint (packedState, position + jacobian hooks, limits [jointMin, jointMax]: a limited row)',
  'distance-sym': 'SymbolicConstraint (examples.DISTANCE)',
  weld: 'WeldJoint',
  'weld-user': 'UserWeld extends UserConstraint (packedState, position + jacobian, and their bulk form: batchKernel)',
  'weld-sym': 'SymbolicConstraint (examples.WELD)',
  'weld-user-hooks': 'UserWeldHooks extends UserConstraint (packedState, position + jacobian hooks only)',
};

/** The defaults of Space.step(dt, velocityIterations = …, positionIterations = …), read from the build itself. */
function stepDefaults(Space) {
  const src = Function.prototype.toString.call(Space.prototype.step);
  const v = /velocityIterations\s*=\s*(\d+)/.exec(src);
  const p = /positionIterations\s*=\s*(\d+)/.exec(src);
  return { velocityIterations: v ? Number(v[1]) : null, positionIterations: p ? Number(p[1]) : null };
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
 * The UserConstraint subclasses of scenes E, I, J-user and K-user, over one build's UserConstraint
 * and packed body state layout.
 */
function makeUserClasses({ UserConstraint, BodyState, BODY_STATE_STRIDE }) {
  // The state offsets as plain numbers (the hooks and kernels read them in their loops).
  const SX = BodyState.x, SY = BodyState.y, SROT = BodyState.rotation, SCOS = BodyState.cos, SSIN = BodyState.sin;
  const SVX = BodyState.vx, SVY = BodyState.vy, SW = BodyState.angularVel, SCOMX = BodyState.comX, SCOMY = BodyState.comY;
  const O2 = BODY_STATE_STRIDE;

  /**
   * World anchor p = origin + R(θ)·a of the body whose state starts at st[o], and its offset
   * r = p − centre of mass, read from the packed body state the engine passes to the hooks.
   */
  const anchorX = (st, o, ax, ay) => st[o + SX] + st[o + SCOS] * ax - st[o + SSIN] * ay;
  const anchorY = (st, o, ax, ay) => st[o + SY] + st[o + SSIN] * ax + st[o + SCOS] * ay;

  /**
   * A pivot as a UserConstraint in Jacobian form over the packed body state (`packedState: true`):
   * C = p2 − p1 and J, the fast way to write a user constraint (the engine then solves it in its
   * user batch: V = J v, K = J M⁻¹ Jᵀ and Jᵀλ from J, with no hook call per velocity pass).
   *   J = [ −1   0   r1y   1  0  −r2y ]
   *       [  0  −1  −r1x   0  1   r2x ]     (r = anchor − centre of mass, world frame)
   * This is scene I's constraint: the hooks alone, called once per constraint and pose.
   */
  class UserPivotHooks extends UserConstraint {
    constructor(b1, b2, a1, a2) {
      super({ dimensions: 2, packedState: true, bodies: [b1, b2] });
      this.a1x = a1[0];
      this.a1y = a1[1];
      this.a2x = a2[0];
      this.a2y = a2[1];
    }
    position(err, st) {
      err[0] = anchorX(st, O2, this.a2x, this.a2y) - anchorX(st, 0, this.a1x, this.a1y);
      err[1] = anchorY(st, O2, this.a2x, this.a2y) - anchorY(st, 0, this.a1x, this.a1y);
    }
    jacobian(J, st) {
      pointJacobian(J, st, this.a1x, this.a1y, this.a2x, this.a2y);
    }
  }

  /** The point rows' J (pivot, and the weld's first two rows) into J[0 …] (rows of 6), bodies at st[0] and st[O2]. */
  function pointJacobian(J, st, a1x, a1y, a2x, a2y) {
    const r1x = anchorX(st, 0, a1x, a1y) - st[SCOMX];
    const r1y = anchorY(st, 0, a1x, a1y) - st[SCOMY];
    const r2x = anchorX(st, O2, a2x, a2y) - st[O2 + SCOMX];
    const r2y = anchorY(st, O2, a2x, a2y) - st[O2 + SCOMY];
    J[0] = -1; J[1] = 0; J[2] = r1y; J[3] = 1; J[4] = 0; J[5] = -r2y;
    J[6] = 0; J[7] = -1; J[8] = -r1x; J[9] = 0; J[10] = 1; J[11] = r2x;
  }

  /**
   * The bulk form of the point hooks (UserConstraint.batchKernel): one call per pose evaluates every
   * constraint of the step that shares the kernel, from the engine's per-body states and each
   * constraint's parameters, with the hooks' arithmetic. C = (p2 + r2) − (p1 + r1) at the anchors
   * (the pivot, scene E), and with `angle` a third row θ2 − θ1 − phase (the weld, scene K-user).
   * J's constant entries are declared once (constantJacobian) and the kernel writes the four
   * lever-arm entries (J[2], J[5], J[8], J[11]), packed at J[4i …]. Parameters: a1x, a1y, a2x, a2y
   * and, with `angle`, phase.
   */
  function pointKernel(angle) {
    const rows = angle ? 3 : 2;
    const pc = angle ? 5 : 4;
    const constantJacobian = [[0, -1], [1, 0], [3, 1], [4, 0], [6, 0], [7, -1], [9, 0], [10, 1]];
    if (angle) constantJacobian.push([12, 0], [13, 0], [14, -1], [15, 0], [16, 0], [17, 1]);
    return {
      paramCount: pc,
      constantJacobian,
      position(from, to, a) {
        const { states, slotState, params, C } = a;
        for (let i = from; i < to; i++) {
          const o1 = slotState[2 * i];
          const o2 = slotState[2 * i + 1];
          const p = pc * i;
          C[rows * i] = anchorX(states, o2, params[p + 2], params[p + 3]) - anchorX(states, o1, params[p], params[p + 1]);
          C[rows * i + 1] = anchorY(states, o2, params[p + 2], params[p + 3]) - anchorY(states, o1, params[p], params[p + 1]);
          if (angle) C[rows * i + 2] = states[o2 + SROT] - states[o1 + SROT] - params[p + 4];
        }
      },
      // (Every load comes before the first store: J and the states are both Float64Arrays, so the
      // compiler cannot keep a loaded number across a store to J and would load it again.)
      jacobian(from, to, a) {
        const { states, slotState, params, J } = a;
        for (let i = from; i < to; i++) {
          const o1 = slotState[2 * i];
          const o2 = slotState[2 * i + 1];
          const p = pc * i;
          const jo = 4 * i;
          const a1x = params[p], a1y = params[p + 1], a2x = params[p + 2], a2y = params[p + 3];
          const r1x = anchorX(states, o1, a1x, a1y) - states[o1 + SCOMX];
          const r1y = anchorY(states, o1, a1x, a1y) - states[o1 + SCOMY];
          const r2x = anchorX(states, o2, a2x, a2y) - states[o2 + SCOMX];
          const r2y = anchorY(states, o2, a2x, a2y) - states[o2 + SCOMY];
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
          const p = pc * i;
          const jo = 4 * i;
          const a1x = params[p], a1y = params[p + 1], a2x = params[p + 2], a2y = params[p + 3];
          const p1x = anchorX(states, o1, a1x, a1y);
          const p1y = anchorY(states, o1, a1x, a1y);
          const p2x = anchorX(states, o2, a2x, a2y);
          const p2y = anchorY(states, o2, a2x, a2y);
          const r1x = p1x - states[o1 + SCOMX];
          const r1y = p1y - states[o1 + SCOMY];
          const r2x = p2x - states[o2 + SCOMX];
          const r2y = p2y - states[o2 + SCOMY];
          const third = angle ? states[o2 + SROT] - states[o1 + SROT] - params[p + 4] : 0;
          C[rows * i] = p2x - p1x;
          C[rows * i + 1] = p2y - p1y;
          if (angle) C[rows * i + 2] = third;
          J[jo] = r1y;
          J[jo + 1] = -r2y;
          J[jo + 2] = -r1x;
          J[jo + 3] = r2x;
        }
      },
    };
  }
  /** A point kernel's first four parameters: the constraint's anchors a1x, a1y, a2x, a2y. */
  function writeAnchors(c, out, at) {
    out[at] = c.a1x;
    out[at + 1] = c.a1y;
    out[at + 2] = c.a2x;
    out[at + 3] = c.a2y;
  }
  const PIVOT_KERNEL = pointKernel(false);
  const WELD_KERNEL = pointKernel(true);

  /** UserPivotHooks with its bulk kernel: scene E's constraint. */
  class UserPivot extends UserPivotHooks {
    batchKernel() {
      return PIVOT_KERNEL;
    }
    batchParams(out, at) {
      writeAnchors(this, out, at);
    }
  }

  /**
   * A weld as a UserConstraint in Jacobian form (scene K-user's, without its bulk kernel; the test
   * checks that the kernel steps bitwise like these hooks):
   *   C = [ (p2 + r2) − (p1 + r1) ;  θ2 − θ1 − phase ]      (p the body origins, so p + r is the world anchor)
   *   J = [ −1   0   r1y   1  0  −r2y ]
   *       [  0  −1  −r1x   0  1   r2x ]
   *       [  0   0  −1     0  0   1   ]                    (r = anchor − centre of mass, world frame)
   * The pivot's rows plus the angle row, whose derivative by each angle is ±1 and by the
   * positions 0. Three equality rows, solved as one 3×3 block.
   */
  class UserWeldHooks extends UserConstraint {
    constructor(b1, b2, a1, a2, phase = 0) {
      super({ dimensions: 3, packedState: true, bodies: [b1, b2] });
      this.a1x = a1[0];
      this.a1y = a1[1];
      this.a2x = a2[0];
      this.a2y = a2[1];
      this.phase = phase;
    }
    position(err, st) {
      err[0] = anchorX(st, O2, this.a2x, this.a2y) - anchorX(st, 0, this.a1x, this.a1y);
      err[1] = anchorY(st, O2, this.a2x, this.a2y) - anchorY(st, 0, this.a1x, this.a1y);
      err[2] = st[O2 + SROT] - st[SROT] - this.phase;
    }
    jacobian(J, st) {
      pointJacobian(J, st, this.a1x, this.a1y, this.a2x, this.a2y);
      J[12] = 0; J[13] = 0; J[14] = -1; J[15] = 0; J[16] = 0; J[17] = 1;
    }
  }

  /** UserWeldHooks with its bulk kernel: scene K-user's constraint. */
  class UserWeld extends UserWeldHooks {
    batchKernel() {
      return WELD_KERNEL;
    }
    batchParams(out, at) {
      writeAnchors(this, out, at);
      out[at + 4] = this.phase;
    }
  }

  /**
   * A distance limit as a UserConstraint (scene J-user's): jointMin ≤ |p2 − p1| ≤ jointMax, with
   * p the world anchors. With d = p2 − p1, L = |d|, n = d / L and r = anchor − centre of mass:
   *   C = L,   dC/dt = n · (v2 + ω2 × r2 − v1 − ω1 × r1)
   *   J = [ −nx  −ny  −(r1 × n)   nx  ny  r2 × n ]          (ω × r · n = ω (r × n), r × n = rx ny − ry nx)
   * so with the anchors at the centres (scene J) the angular entries are 0: J = [−n, 0, n, 0].
   * One inequality row, in the scheme @fulcrum/symbolic uses for its limited rows (and the built-in
   * joints' speculative limits): prepare() picks the row's state per pose: at the lower bound
   * (scale −1), the upper (+1) or slack (0), active when the bound is reached or will be within the
   * substep at the current rate, or while the row still carries impulse; the row's J and error are
   * scaled so that a violation is positive, velocity() adds the speculative bias (C − bound)/h of a
   * bound not yet reached, and clamp() keeps the impulse a push (λ ≤ 0; 0 when slack).
   * The clamp and velocity hooks keep it out of the engine's user batch (which takes Jacobian
   * rows without per-pass hooks), so it has no bulk kernel: it is solved one by one.
   */
  /**
   * Scene J-user: DistanceJoint's row as a UserConstraint. C = |p2 − p1| is held within
   * [jointMin, jointMax] by the engine's limited rows (the built-in joints' limit scheme); the
   * hooks give only C and J.
   */
  class UserDistance extends UserConstraint {
    constructor(b1, b2, a1, a2, jointMin, jointMax) {
      super({ dimensions: 1, packedState: true, bodies: [b1, b2], limits: [[jointMin, jointMax]] });
      this.a1x = a1[0];
      this.a1y = a1[1];
      this.a2x = a2[0];
      this.a2y = a2[1];
    }

    /** C = |p2 − p1| at the state st. */
    length(st) {
      const dx = anchorX(st, O2, this.a2x, this.a2y) - anchorX(st, 0, this.a1x, this.a1y);
      const dy = anchorY(st, O2, this.a2x, this.a2y) - anchorY(st, 0, this.a1x, this.a1y);
      return Math.sqrt(dx * dx + dy * dy);
    }

    /** J of C = |p2 − p1| at st into row[0 … 5]; returns C (row zeroed when the direction is undefined: the row is slack). */
    lengthJacobian(row, st) {
      const p1x = anchorX(st, 0, this.a1x, this.a1y);
      const p1y = anchorY(st, 0, this.a1x, this.a1y);
      const p2x = anchorX(st, O2, this.a2x, this.a2y);
      const p2y = anchorY(st, O2, this.a2x, this.a2y);
      const dx = p2x - p1x;
      const dy = p2y - p1y;
      const L2 = dx * dx + dy * dy;
      const L = Math.sqrt(L2);
      if (L2 < 1e-8) {
        row.fill(0);
        return L;
      }
      const nx = dx / L;
      const ny = dy / L;
      const r1x = p1x - st[SCOMX];
      const r1y = p1y - st[SCOMY];
      const r2x = p2x - st[O2 + SCOMX];
      const r2y = p2y - st[O2 + SCOMY];
      row[0] = -nx; row[1] = -ny; row[2] = -(r1x * ny - r1y * nx);
      row[3] = nx; row[4] = ny; row[5] = r2x * ny - r2y * nx;
      return L;
    }

    position(err, st) {
      err[0] = this.length(st);
    }
    jacobian(J, st) {
      this.lengthJacobian(J, st);
    }
  }

  return { UserPivotHooks, UserPivot, UserWeldHooks, UserWeld, UserDistance, PIVOT_KERNEL, WELD_KERNEL };
}
