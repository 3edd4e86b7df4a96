/**
 * Random valid mutations: every setter of bodies, shapes, joints, user and symbolic constraints
 * and the space, membership changes, queries and read-outs, with values in the ranges a scene
 * of a user has. Each returns its code, or null when it does not apply to the scene.
 */
import type { Body, Constraint, Shape } from '@fulcrum/physics';
import { addBody, randomShape, RANGES, convexVertices } from './bodies.js';
import { lit, obj, round, v2 } from './code.js';
import { addConstraint, JOINT_KINDS, SYMBOLIC_KINDS, USER_KINDS } from './constraints.js';
import { describeError } from './errors.js';
import type { Rng } from './rng.js';
import type { SceneRun } from './run.js';
import type { ConstraintInfo, World } from './world.js';

// ---------------------------------------------------------------- picking

export function inSpaceBodies(w: World, filter: (b: Body) => boolean = () => true): string[] {
  return w.spaceBodies().filter((n) => filter(w.body(n)));
}

export function dynamicBodies(w: World): string[] {
  return inSpaceBodies(w, (b) => b.type === 'dynamic');
}

export function pickOr<T>(rng: Rng, items: T[]): T | null {
  return items.length ? rng.pick(items) : null;
}

/** Constraints in the space (optionally of kinds matching `pred`). */
export function spaceConstraints(w: World, pred: (i: ConstraintInfo, c: Constraint) => boolean = () => true): ConstraintInfo[] {
  return w.spaceConstraints().filter((i) => pred(i, w.constraint(i.name)));
}

function isJoint(i: ConstraintInfo): boolean {
  return (JOINT_KINDS as readonly string[]).includes(i.kind);
}

const has = (c: Constraint, p: string): boolean => p in c;

/** A body's shape names. */
function shapesOf(w: World, body: string): string[] {
  const b = w.body(body);
  return w.shapes.filter((s) => b.shapes.includes(w.shape(s)));
}

/**
 * After a change, a Nape-form constraint whose hand-written K is no longer positive definite (both
 * bodies pinned) is deactivated, as a user would: the engine rejects such a K by design.
 */
export function napeFixups(run: SceneRun): void {
  const w = run.w;
  for (const i of spaceConstraints(w, (i, c) => i.nape !== undefined && c.active)) {
    const c = w.constraint(i.name) as Constraint & { bodyList: readonly (Body | null)[] };
    const [a, b] = c.bodyList;
    if (!a || !b) continue;
    const k = i.nape === 'linear' ? a.constraintMass + b.constraintMass : a.constraintInertia + b.constraintInertia;
    if (!(k > 0)) run.valid(`$${i.name}.active = false`, 'fixup: deactivate a Nape constraint with K = 0');
  }
}

// ---------------------------------------------------------------- the mutations

type Gen = (w: World, rng: Rng, run: SceneRun) => string | null;

function speed(rng: Rng): number {
  return round(rng.float(-RANGES.speed, RANGES.speed));
}

function bodyGen(f: (w: World, rng: Rng, name: string, b: Body) => string | null, filter: (b: Body) => boolean = () => true, anySpace = false): Gen {
  return (w, rng) => {
    const names = anySpace ? w.bodies.filter((n) => filter(w.body(n))) : inSpaceBodies(w, filter);
    const n = pickOr(rng, names);
    return n === null ? null : f(w, rng, n, w.body(n));
  };
}

const dyn = (b: Body): boolean => b.type === 'dynamic';
const notStatic = (b: Body): boolean => b.type !== 'static';

const BODY: Record<string, Gen> = {
  'Body.position': bodyGen((w, rng, n, b) => `$${n}.position = ${v2(round(b.x + rng.float(-2, 2)), round(Math.max(0.3, b.y + rng.float(-2, 2))))}`),
  'Body.rotation': bodyGen((w, rng, n) => `$${n}.rotation = ${lit(round(rng.float(-4, 4)))}`),
  'Body.velocity': bodyGen((w, rng, n, b) => `$${n}.velocity = ${v2(b.type === 'kinematic' ? round(rng.float(-3, 3)) : speed(rng), b.type === 'kinematic' ? round(rng.float(-3, 3)) : speed(rng))}`, notStatic),
  'Body.velocity (static, zero)': bodyGen((w, rng, n) => `$${n}.velocity = [0, 0]`, (b) => b.type === 'static'),
  'Body.angularVel': bodyGen((w, rng, n, b) => `$${n}.angularVel = ${lit(round(rng.float(-1, 1) * (b.type === 'kinematic' ? 2 : RANGES.spin)))}`, notStatic),
  'Body.force': bodyGen((w, rng, n, b) => `$${n}.force = ${v2(round(rng.float(-10, 10) * b.mass), round(rng.float(-10, 10) * b.mass))}`, dyn),
  'Body.torque': bodyGen((w, rng, n, b) => `$${n}.torque = ${lit(round(rng.float(-5, 5) * b.inertia))}`, dyn),
  'Body.mass': bodyGen((w, rng, n) => `$${n}.mass = ${lit(round(rng.log(RANGES.mass[0], RANGES.mass[1])))}`),
  'Body.inertia': bodyGen((w, rng, n, b) => `$${n}.inertia = ${lit(round(b.inertia * rng.log(0.2, 5)))}`, (b) => b.inertia > 0),
  'Body.useShapeMass': bodyGen((w, rng, n) => `$${n}.useShapeMass()`),
  'Body.type': bodyGen((w, rng, n, b) => `$${n}.type = '${rng.pick((['dynamic', 'static', 'kinematic'] as const).filter((x) => x !== b.type))}'`),
  'Body.allowMovement': bodyGen((w, rng, n, b) => `$${n}.allowMovement = ${!b.allowMovement}`),
  'Body.allowRotation': bodyGen((w, rng, n, b) => `$${n}.allowRotation = ${!b.allowRotation}`),
  // Only where the docs allow it: a ball of centred circles, whose contacts do not depend on its
  // rotation and which no constraint holds (a joint's anchor off the centre would).
  'Body.allowFastRotation': (w, rng) => {
    const held = new Set(spaceConstraints(w).flatMap((i) => w.constraint(i.name).bodies));
    const n = pickOr(rng, inSpaceBodies(w, (b) => !held.has(b) && b.shapes.length > 0 && b.shapes.every((s) => s.kind === 'circle' && s.offsetX === 0 && s.offsetY === 0)));
    return n === null ? null : `$${n}.allowFastRotation = ${!w.body(n).allowFastRotation}`;
  },
  'Body.linearDrag': bodyGen((w, rng, n) => `$${n}.linearDrag = ${lit(round(rng.float(0, 3)))}`),
  'Body.angularDrag': bodyGen((w, rng, n) => `$${n}.angularDrag = ${lit(round(rng.float(0, 3)))}`),
  'Body.gravityScale': bodyGen((w, rng, n) => `$${n}.gravityScale = ${lit(round(rng.float(-1, 3)))}`),
  'Body.applyImpulse': bodyGen((w, rng, n, b) => `$${n}.applyImpulse(${v2(round(rng.float(-5, 5) * b.mass), round(rng.float(-5, 5) * b.mass))}${rng.chance(0.5) ? `, ${v2(round(b.x + rng.float(-0.5, 0.5)), round(b.y + rng.float(-0.5, 0.5)))}` : ''})`, dyn),
  'Body.applyAngularImpulse': bodyGen((w, rng, n, b) => `$${n}.applyAngularImpulse(${lit(round(rng.float(-5, 5) * b.inertia))})`, dyn),
  'Body.userData': bodyGen((w, rng, n) => `$${n}.userData = { tag: ${rng.int(0, 99)} }`),
  'Body.invalidate': bodyGen((w, rng, n) => `$${n}.invalidate()`),
  'Body (not in a space) setters': bodyGen((w, rng, n) => `$${n}.position = ${v2(round(rng.float(-5, 5)), round(rng.float(1, 8)))}; $${n}.velocity = [0, 0]`, (b) => b.type !== 'static' && b.space === null, true),
  'Body.addShape': (w, rng) => {
    const n = pickOr(rng, inSpaceBodies(w));
    if (n === null) return null;
    const s = w.fresh('s');
    const spec = randomShape(rng, { size: rng.log(0.1, 2) });
    w.shapes.push(s);
    return `$${s} = ${spec.code()}; $${n}.addShape($${s})`;
  },
  'Body.removeShape': (w, rng) => {
    const n = pickOr(rng, inSpaceBodies(w, (b) => b.shapes.length > 1 || rng.chance(0.3)));
    if (n === null) return null;
    const s = pickOr(rng, shapesOf(w, n));
    return s === null ? null : `$${n}.removeShape($${s})`;
  },
};

function shapeGen(f: (w: World, rng: Rng, name: string, s: Shape & Record<string, unknown>) => string | null, filter: (s: Shape) => boolean = () => true): Gen {
  return (w, rng) => {
    const inSpace = w.shapes.filter((n) => {
      const s = w.shape(n);
      const b = s.body as Body | null;
      return b !== null && b.space === w.space && filter(s);
    });
    const n = pickOr(rng, inSpace);
    return n === null ? null : f(w, rng, n, w.shape(n) as Shape & Record<string, unknown>);
  };
}

const SHAPE: Record<string, Gen> = {
  'Shape.offset': shapeGen((w, rng, n) => `$${n}.offset = ${v2(round(rng.float(-0.5, 0.5)), round(rng.float(-0.5, 0.5)))}`),
  'Shape.angle': shapeGen((w, rng, n) => `$${n}.angle = ${lit(round(rng.float(-3, 3)))}`),
  'Shape.density': shapeGen((w, rng, n) => `$${n}.density = ${lit(round(rng.log(0.05, 20)))}`),
  'Shape.friction': shapeGen((w, rng, n) => `$${n}.friction = ${lit(round(rng.float(0, 1.2)))}`),
  'Shape.restitution': shapeGen((w, rng, n) => `$${n}.restitution = ${lit(round(rng.float(0, 0.8)))}`),
  'Shape.sensor': shapeGen((w, rng, n, s) => `$${n}.sensor = ${!s.sensor}`),
  'Shape.filter': shapeGen((w, rng, n) => `$${n}.filter = ${rng.pick([obj({ group: '-1' }), obj({ mask: '0' }), obj({ category: '1', mask: '4294967295', group: '0' }), obj({ category: '2' }), obj({ group: '3' })])}`),
  'Circle.radius': shapeGen((w, rng, n) => `$${n}.radius = ${lit(round(rng.log(0.025, 2.5)))}`, (s) => s.kind === 'circle'),
  'Polygon.radius': shapeGen((w, rng, n) => `$${n}.radius = ${lit(round(rng.float(0, 0.2)))}`, (s) => s.kind === 'polygon'),
  'Polygon.vertices': shapeGen((w, rng, n) => `$${n}.vertices = [${convexVertices(rng, rng.log(0.05, 2.5)).map(([x, y]) => v2(x, y)).join(', ')}]`, (s) => s.kind === 'polygon'),
  'Capsule.radius': shapeGen((w, rng, n) => `$${n}.radius = ${lit(round(rng.log(0.02, 1)))}`, (s) => s.kind === 'capsule'),
  'Capsule.length': shapeGen((w, rng, n) => `$${n}.length = ${lit(round(rng.log(0.05, 4)))}`, (s) => s.kind === 'capsule'),
  'Capsule.setPoints': shapeGen((w, rng, n) => `$${n}.setPoints(${v2(round(rng.float(-1, 0)), round(rng.float(-0.5, 0.5)))}, ${v2(round(rng.float(0.05, 1)), round(rng.float(-0.5, 0.5)))})`, (s) => s.kind === 'capsule'),
  'Segment.setPoints': shapeGen((w, rng, n) => `$${n}.setPoints(${v2(round(rng.float(-2, 0)), round(rng.float(-0.5, 0.5)))}, ${v2(round(rng.float(0.05, 2)), round(rng.float(-0.5, 0.5)))})`, (s) => s.kind === 'segment'),
};

function conGen(f: (w: World, rng: Rng, i: ConstraintInfo, c: Constraint & Record<string, unknown>) => string | null, pred: (i: ConstraintInfo, c: Constraint) => boolean = () => true): Gen {
  return (w, rng) => {
    const i = pickOr(rng, spaceConstraints(w, pred));
    return i === null ? null : f(w, rng, i, w.constraint(i.name) as Constraint & Record<string, unknown>);
  };
}

/** jointMin/jointMax around the joint's range, set in the order that keeps min ≤ max at every call. */
function rangeCode(target: string, lo: number, hi: number, currentMax: number, setter: (p: string, v: number) => string): string {
  return lo > currentMax ? `${setter('jointMax', hi)}; ${setter('jointMin', lo)}` : `${setter('jointMin', lo)}; ${setter('jointMax', hi)}`;
}

function newRange(rng: Rng, c: Record<string, unknown>, nonNegative: boolean): [number, number] {
  const lo0 = c.jointMin as number;
  const hi0 = c.jointMax as number;
  const centre = Number.isFinite(lo0) && Number.isFinite(hi0) ? (lo0 + hi0) / 2 : Number.isFinite(lo0) ? lo0 : Number.isFinite(hi0) ? hi0 : 0;
  const r = rng.next();
  let lo = round(centre - rng.float(0, 1));
  let hi = round(centre + rng.float(0, 1));
  if (nonNegative) {
    lo = Math.max(0, lo);
    hi = Math.max(lo, hi);
  }
  if (r < 0.3) return [lo, lo];
  if (r < 0.4) return [nonNegative ? 0 : -Infinity, hi];
  if (r < 0.5) return [lo, Infinity];
  return [lo, hi];
}

/** Another body of the space for a slot (not the constraint's other slot). */
function otherBody(w: World, rng: Rng, exclude: (Body | null)[]): string | null {
  return pickOr(rng, inSpaceBodies(w, (b) => !exclude.includes(b)));
}

const CONSTRAINT: Record<string, Gen> = {
  'Constraint.active': conGen((w, rng, i, c) => {
    if (!c.active && i.nape !== undefined) {
      const [a, b] = c.bodies;
      if (!a || !b) return null;
      const k = i.nape === 'linear' ? a.constraintMass + b.constraintMass : a.constraintInertia + b.constraintInertia;
      if (!(k > 0)) return null;
    }
    return `$${i.name}.active = ${!c.active}`;
  }),
  'Constraint.stiff': conGen((w, rng, i, c) => `$${i.name}.stiff = ${!c.stiff}`, (i) => i.kind !== 'MotorJoint'),
  'Constraint.frequency': conGen((w, rng, i) => `$${i.name}.frequency = ${lit(round(rng.log(RANGES.frequency[0], RANGES.frequency[1])))}`),
  'Constraint.damping': conGen((w, rng, i) => `$${i.name}.damping = ${lit(round(rng.float(0, 2)))}`),
  'Constraint.maxForce': conGen((w, rng, i) => `$${i.name}.maxForce = ${rng.chance(0.3) ? 'Infinity' : lit(round(rng.log(RANGES.maxForce[0], RANGES.maxForce[1])))}`),
  'Constraint.maxError': conGen((w, rng, i) => `$${i.name}.maxError = ${rng.chance(0.4) ? 'Infinity' : lit(round(rng.log(0.01, 5)))}`),
  'Constraint.breakUnderForce': conGen((w, rng, i, c) => `$${i.name}.breakUnderForce = ${!c.breakUnderForce}`),
  'Constraint.breakUnderError': conGen((w, rng, i, c) => `$${i.name}.breakUnderError = ${!c.breakUnderError}`),
  'Constraint.removeOnBreak': conGen((w, rng, i, c) => `$${i.name}.removeOnBreak = ${!c.removeOnBreak}`),
  'Constraint.ignore': conGen((w, rng, i, c) => `$${i.name}.ignore = ${!c.ignore}`),
  'Constraint.userData': conGen((w, rng, i) => `$${i.name}.userData = 'tag ${rng.int(0, 99)}'`),
  'Joint.anchor1': conGen((w, rng, i) => `$${i.name}.anchor1 = ${v2(round(rng.float(-1, 1)), round(rng.float(-1, 1)))}`, (i, c) => isJoint(i) && has(c, 'anchor1')),
  'Joint.anchor2': conGen((w, rng, i) => `$${i.name}.anchor2 = ${v2(round(rng.float(-1, 1)), round(rng.float(-1, 1)))}`, (i, c) => isJoint(i) && has(c, 'anchor2')),
  'PulleyJoint.anchor3/4': conGen((w, rng, i) => `$${i.name}.anchor${rng.pick([3, 4])} = ${v2(round(rng.float(-0.5, 0.5)), round(rng.float(-0.5, 0.5)))}`, (i) => i.kind === 'PulleyJoint'),
  'Joint.jointMin/jointMax': conGen((w, rng, i, c) => {
    const nonNeg = i.kind === 'DistanceJoint' || i.kind === 'PulleyJoint';
    const [lo, hi] = newRange(rng, c, nonNeg);
    return rangeCode(i.name, lo, hi, c.jointMax as number, (p, v) => `$${i.name}.${p} = ${lit(v)}`);
  }, (i, c) => isJoint(i) && has(c, 'jointMin')),
  'Joint.ratio': conGen((w, rng, i) => `$${i.name}.ratio = ${lit(round(rng.sign() * rng.log(0.2, 4)))}`, (i, c) => isJoint(i) && has(c, 'ratio')),
  'WeldJoint.phase': conGen((w, rng, i) => `$${i.name}.phase = ${lit(round(rng.float(-3, 3)))}`, (i) => i.kind === 'WeldJoint'),
  'MotorJoint.rate': conGen((w, rng, i) => `$${i.name}.rate = ${lit(round(rng.float(-10, 10)))}`, (i) => i.kind === 'MotorJoint'),
  'LineJoint.direction': conGen((w, rng, i) => `$${i.name}.direction = ${v2(round(rng.float(-2, 2)) || 1, round(rng.float(-2, 2)))}`, (i) => i.kind === 'LineJoint'),
  'Joint.body1/body2': conGen((w, rng, i, c) => {
    const slot = rng.pick(['body1', 'body2']);
    const other = (slot === 'body1' ? c.body2 : c.body1) as Body | null;
    const n = otherBody(w, rng, [other]);
    return n === null ? null : `$${i.name}.${slot} = $${n}`;
  }, (i) => isJoint(i) && i.kind !== 'PulleyJoint'),
  'PulleyJoint.body1..4': conGen((w, rng, i, c) => {
    const k = rng.int(1, 4);
    const pair = (c[`body${k % 2 === 1 ? k + 1 : k - 1}`] ?? null) as Body | null;
    const n = otherBody(w, rng, [pair]);
    return n === null ? null : `$${i.name}.body${k} = $${n}`;
  }, (i) => i.kind === 'PulleyJoint'),
  'UserConstraint.bodyList': conGen((w, rng, i, c) => {
    const list = c.bodyList as (Body | null)[];
    if (list.some((b) => b === null)) return null;
    const k = rng.int(0, list.length - 1);
    const n = otherBody(w, rng, list);
    if (n === null) return null;
    const names = list.map((b) => `$${w.nameOf(b)}`);
    names[k] = `$${n}`;
    return `$${i.name}.bodyList = [${names.join(', ')}]`;
  }, (i) => i.kind.startsWith('user:') && i.kind !== 'user:subclass-rod' && i.nape === undefined),
  'UserConstraint.registerBody': conGen((w, rng, i, c) => {
    const slot = rng.pick(['a', 'b']);
    const n = otherBody(w, rng, [c.a as Body, c.b as Body]);
    return n === null ? null : `$${i.name}.${slot} = $${i.name}.registerBody($${i.name}.${slot}, $${n})`;
  }, (i) => i.kind === 'user:subclass-rod'),
  'UserConstraint.setLimit': conGen((w, rng, i, c) => {
    const dims = c.dimensions as number;
    const row = rng.int(0, dims - 1);
    if (rng.chance(0.3)) return `$${i.name}.setLimit(${row}, null)`;
    const lo = round(rng.float(-1, 1));
    return `$${i.name}.setLimit(${row}, ${v2(rng.chance(0.2) ? -Infinity : lo, rng.chance(0.2) ? Infinity : round(lo + rng.float(0, 2)))})`;
  }, (i) => i.limitable === true),
  'UserConstraint.hooks (replaced by a copy)': conGen((w, rng, i) => `$${i.name}.hooks = { ...$${i.name}.hooks }`, (i) => i.hooks !== undefined && i.kind !== 'user:subclass-rod' && i.kind !== 'user:bulk-pin'),
  'UserConstraint.invalidate': conGen((w, rng, i) => `$${i.name}.invalidate()`, (i) => i.kind.startsWith('user:')),
  'SymbolicConstraint.setScalar': conGen((w, rng, i) => {
    const s = i.symbolic!;
    if (s.divisor && rng.chance(0.5)) return `$${i.name}.setScalar('${s.divisor}', ${lit(round(rng.sign() * rng.log(0.5, 2)))})`;
    const name = pickOr(rng, s.scalars);
    if (name === null) return null;
    return `$${i.name}.setScalar('${name}', ${lit(round(name === 'ratio' ? rng.sign() * rng.log(0.2, 4) : rng.float(-3, 3)))})`;
  }, (i) => i.symbolic !== undefined),
  'SymbolicConstraint.setScalars (range)': conGen((w, rng, i, c) => {
    const [lo, hi, neg] = i.symbolic!.range!;
    const get = (n: string): number => (c as unknown as { getScalar(n: string): number }).getScalar(n);
    const [a, b] = newRange(rng, { jointMin: get(lo), jointMax: get(hi) }, !neg);
    return `$${i.name}.setScalars(${obj({ [lo]: lit(a), [hi]: lit(b) })})`;
  }, (i) => i.symbolic?.range !== undefined),
  'SymbolicConstraint.setVector': conGen((w, rng, i) => {
    const s = i.symbolic!;
    const names = [...s.vectors, ...(s.nonZeroVector ? [s.nonZeroVector] : [])];
    const name = pickOr(rng, names);
    if (name === null) return null;
    const x = round(rng.float(-1, 1));
    return `$${i.name}.setVector('${name}', ${v2(name === s.nonZeroVector && x === 0 ? 1 : x, round(rng.float(-1, 1)))})`;
  }, (i) => i.symbolic !== undefined),
  'SymbolicConstraint.getVector view': conGen((w, rng, i) => `$${i.name}.getVector('${i.symbolic!.vectors[0]}').x = ${lit(round(rng.float(-1, 1)))}`, (i) => (i.symbolic?.vectors.length ?? 0) > 0),
  'SymbolicConstraint.set': conGen((w, rng, i) => {
    const s = i.symbolic!;
    if (!s.vectors.length) return null;
    return `$${i.name}.set({ vectors: ${obj({ [s.vectors[0]!]: v2(round(rng.float(-1, 1)), round(rng.float(-1, 1))) })} })`;
  }, (i) => i.symbolic !== undefined),
  'SymbolicConstraint.setBody': conGen((w, rng, i, c) => {
    const s = i.symbolic!;
    const list = c.bodyList as (Body | null)[];
    const k = rng.int(0, s.bodies.length - 1);
    // Keep the bodies distinct where the source needs it.
    const n = otherBody(w, rng, list);
    return n === null ? null : `$${i.name}.setBody('${s.bodies[k]}', $${n})`;
  }, (i) => i.symbolic !== undefined),
};

/** Bodies and constraints in and out of the space. */
const MEMBERSHIP: Record<string, Gen> = {
  'Space.addBody (new)': (w, rng) => {
    const type = rng.weighted([[8, 'dynamic'], [1, 'static'], [1, 'kinematic']] as const);
    addBody(w, rng, { type, position: [rng.float(-10, 10), rng.float(1, 12)] }, 'Space.addBody (new)');
    return '';
  },
  'Space.removeBody (with its constraints)': (w, rng) => {
    const n = pickOr(rng, inSpaceBodies(w));
    if (n === null) return null;
    const b = w.body(n);
    const cons = spaceConstraints(w, (i, c) => c.bodies.includes(b)).map((i) => `$space.removeConstraint($${i.name}); `);
    return `${cons.join('')}$space.removeBody($${n})`;
  },
  'Space.addBody (re-add)': (w, rng) => {
    const n = pickOr(rng, w.bodies.filter((x) => w.body(x).space === null));
    return n === null ? null : `$space.addBody($${n})`;
  },
  'Space.addConstraint (new)': (w, rng) => {
    const bodies = inSpaceBodies(w);
    if (bodies.length < 2) return null;
    const kind = rng.pick([...JOINT_KINDS, ...USER_KINDS, ...SYMBOLIC_KINDS]);
    const a = rng.pick(bodies);
    const rest = bodies.filter((x) => x !== a);
    const picked = [a, rng.pick(rest)];
    if (kind === 'PulleyJoint' || kind === 'sym:MIDPOINT') picked.push(...rest.filter((x) => !picked.includes(x)).slice(0, 2));
    const info = addConstraint(w, rng, kind, picked, { label: 'Space.addConstraint (new)', add: false });
    if (info.nape !== undefined) {
      const c = w.constraint(info.name);
      const [x, y] = c.bodies;
      const k = x && y ? (info.nape === 'linear' ? x.constraintMass + y.constraintMass : x.constraintInertia + y.constraintInertia) : 0;
      if (!(k > 0)) return `$${info.name}.active = false; $space.addConstraint($${info.name})`;
    }
    return `$space.addConstraint($${info.name})`;
  },
  'Space.removeConstraint': (w, rng) => {
    const i = pickOr(rng, spaceConstraints(w));
    return i === null ? null : `$space.removeConstraint($${i.name})`;
  },
  'Space.addConstraint (re-add)': (w, rng) => {
    const i = pickOr(rng, w.constraints.filter((x) => {
      const c = w.constraint(x.name);
      return c.space === null && c.bodies.every((b) => b.space === w.space) && (c as unknown as { bodyList?: (Body | null)[] }).bodyList?.every((b) => b !== null) !== false;
    }));
    if (i === null) return null;
    const c = w.constraint(i.name) as Constraint & Record<string, unknown>;
    if (isJoint(i) && ['body1', 'body2', 'body3', 'body4'].some((p) => p in c && c[p] === null)) return null;
    if (i.nape !== undefined && c.active) {
      const [x, y] = c.bodies;
      const k = x && y ? (i.nape === 'linear' ? x.constraintMass + y.constraintMass : x.constraintInertia + y.constraintInertia) : 0;
      if (!(k > 0)) return null;
    }
    return `$space.addConstraint($${i.name})`;
  },
  'UserConstraint.copy': conGen((w, rng, i) => {
    const n = w.fresh('c');
    w.constraints.push({ ...i, name: n });
    return `$${n} = $space.addConstraint($${i.name}.copy())`;
  }, (i) => i.kind.startsWith('user:') && i.kind !== 'user:subclass-rod' && i.kind !== 'user:bulk-pin' || i.symbolic !== undefined),
};

const SPACE: Record<string, Gen> = {
  'Space.gravity': (w, rng) => `$space.gravity = ${rng.chance(0.5) ? v2(0, -10) : v2(round(rng.float(-6, 6)), round(rng.float(-20, 6)))}`,
  'Space.sleepDelay': (w, rng) => `$space.sleepDelay = ${lit(round(rng.float(0, 2)))}`,
  'Space.sleepThreshold': (w, rng) => `$space.sleepThreshold = ${lit(round(rng.float(0, 0.2)))}`,
  'Space.allowSleep': (w) => `$space.allowSleep = ${!w.space.allowSleep}`,
  'Space.jointIterations': (w, rng) => `$space.jointIterations = ${rng.int(1, 6)}`,
  'Space.jointHertz': (w, rng) => `$space.jointHertz = ${rng.chance(0.5) ? '0' : lit(round(rng.log(0.5, 60)))}`,
  'Space.jointDampingRatio': (w, rng) => `$space.jointDampingRatio = ${lit(round(rng.float(0, 4)))}`,
  // Finite caps: with a cap off, a driven scene may pass the blow-up speed by physics (a bead free on a spun rod).
  'Space.maxLinearSpeed': (w, rng) => `$space.maxLinearSpeed = ${lit(round(rng.log(20, 1e4)))}`,
  'Space.maxRotationPerSubstep': (w, rng) => `$space.maxRotationPerSubstep = ${lit(round(rng.log(0.05, 3)))}`,
  'Space.checkUserConstraints': (w) => `$space.checkUserConstraints = ${!w.space.checkUserConstraints}`,
  'Space.wakeAll': () => `$space.wakeAll()`,
};

/** Read-only calls: must not throw and must not change anything observable. */
export const QUERIES: Record<string, Gen> = {
  'Space.queryPoint': (w, rng) => `$space.queryPoint(${v2(round(rng.float(-10, 10)), round(rng.float(0, 10)))})`,
  'Space.queryAABB': (w, rng) => `$space.queryAABB(${v2(round(rng.float(-10, 0)), round(rng.float(0, 5)))}, ${v2(round(rng.float(0, 10)), round(rng.float(5, 12)))}, { includeSensors: ${rng.chance(0.5)} })`,
  'Space.rayCast': (w, rng) => `$space.rayCast(${v2(round(rng.float(-10, 10)), 12)}, ${v2(round(rng.float(-10, 10)), -1)})`,
  'Space.rayCastAll': (w, rng) => `$space.rayCastAll(${v2(-15, round(rng.float(0, 8)))}, ${v2(15, round(rng.float(0, 8)))})`,
  'Space.debugDraw': (w, rng) => `{ let n = 0; const f = () => { n++; }; $space.debugDraw({ drawPolygon: f, drawCircle: f, drawSegment: f, drawPoint: f }, { contacts: ${rng.chance(0.5)}, aabbs: ${rng.chance(0.5)} }); }`,
  'Space.countAwakeIslands': () => `$space.countAwakeIslands()`,
  'Constraint.impulse/bodyImpulse': conGen((w, rng, i, c) => {
    const b = c.bodies[0];
    return `$${i.name}.impulse()${b ? `; $${i.name}.bodyImpulse($${w.nameOf(b)})` : ''}`;
  }),
  'SymbolicConstraint.debug': conGen((w, rng, i) => `$${i.name}.debug()`, (i) => i.symbolic !== undefined),
  'Body frames': bodyGen((w, rng, n) => `$${n}.localPointToWorld([1, 2]); $${n}.worldVectorToLocal([0, 1]); $${n}.worldCenter; $${n}.constraintVelocity`),
};

export const VALID: Record<string, Gen> = { ...BODY, ...SHAPE, ...CONSTRAINT, ...MEMBERSHIP, ...SPACE };
export const VALID_KINDS = Object.keys(VALID);

/** Applies one random valid mutation (or query); false when the scene ended. */
export function validMutation(run: SceneRun, rng: Rng): boolean {
  const w = run.w;
  const query = rng.chance(0.12);
  const table = query ? QUERIES : VALID;
  const kinds = Object.keys(table);
  for (let attempt = 0; attempt < 8; attempt++) {
    const kind = rng.pick(kinds);
    let code: string | null;
    try {
      code = table[kind]!(w, rng, run);
    } catch (e) {
      // The generator ran recorded code of its own (a new body or constraint), and it threw.
      run.stats.bump(run.stats.valid, kind);
      run.fail('unexpected-throw', `a valid call threw (${kind}): ${describeError(e)}`, e);
      return false;
    }
    if (code === null) continue;
    if (code === '') {
      run.stats.bump(run.stats.valid, kind);
      napeFixups(run);
      return !run.dead;
    }
    const ok = query ? run.query(code, kind) : run.valid(code, kind);
    if (ok) napeFixups(run);
    return ok;
  }
  return true;
}
