/**
 * Random valid constraints, as code: the seven joints (stiff and soft, limits, motors), hook-form
 * UserConstraints (jacobian form packed and unpacked, finite differences, Nape's effMass+impulse
 * form, velocity-only motors with clamp, a subclass, a bulk batch kernel) and SymbolicConstraints
 * (the package's examples and three sources of the fuzz's own).
 */
import type { Body } from '@fulcrum/physics';
import { lit, obj, round, v2 } from './code.js';
import { RANGES } from './bodies.js';
import type { Rng } from './rng.js';
import type { ConstraintInfo, SymbolicInfo, World } from './world.js';

export const JOINT_KINDS = ['PivotJoint', 'WeldJoint', 'AngleJoint', 'DistanceJoint', 'LineJoint', 'MotorJoint', 'PulleyJoint'] as const;
export const USER_KINDS = [
  'user:pivot-packed',
  'user:rope-limited',
  'user:pivot-bodies',
  'user:fd-distance',
  'user:nape-pivot',
  'user:nape-angle',
  'user:motor',
  'user:subclass-rod',
  'user:bulk-pin',
] as const;
export const SYMBOLIC_KINDS = ['sym:WELD', 'sym:DISTANCE', 'sym:LINE', 'sym:PIVOT', 'sym:MOTOR', 'sym:ANGLE', 'sym:SCALED', 'sym:MIDPOINT'] as const;
export type ConstraintKind = (typeof JOINT_KINDS)[number] | (typeof USER_KINDS)[number] | (typeof SYMBOLIC_KINDS)[number];

/** Sources of the fuzz's own, beside the package's examples. */
export const SOURCES = {
  ANGLE: `# ratio·θ2 − θ1 within [jointMin, jointMax]
body body1, body2
scalar ratio, jointMin, jointMax
limit jointMin (-inf) jointMax
constraint ratio * body2.rotation - body1.rotation
limit constraint jointMin jointMax
`,
  SCALED: `# a pivot scaled by 1/k: k = 0 makes it non-finite
body body1, body2
vector anchor1, anchor2
scalar k
constraint ((body2.position + relative body2.rotation anchor2) - (body1.position + relative body1.rotation anchor1)) / k
`,
  MIDPOINT: `# body3 stays at the midpoint of body1 and body2 (3 bodies, 2 rows)
body body1, body2, body3
constraint body3.position - (body1.position + body2.position) / 2
`,
} as const;

/** The Constraint options, random: stiff or soft, sometimes limited force or error, breakable, ignore. */
export function baseOptions(rng: Rng, kind: string): Record<string, string | undefined> {
  const o: Record<string, string | undefined> = {};
  const motor = kind === 'MotorJoint' || kind === 'user:motor' || kind === 'sym:MOTOR';
  if (!motor && rng.chance(0.35)) {
    o.stiff = 'false';
    o.frequency = lit(round(rng.log(RANGES.frequency[0], RANGES.frequency[1])));
    if (rng.chance(0.7)) o.damping = lit(round(rng.float(RANGES.damping[0], RANGES.damping[1])));
  } else if (rng.chance(0.1)) {
    o.frequency = lit(round(rng.log(RANGES.frequency[0], RANGES.frequency[1])));
  }
  if (motor ? rng.chance(0.8) : rng.chance(0.12)) o.maxForce = lit(round(rng.log(RANGES.maxForce[0], RANGES.maxForce[1])));
  if (rng.chance(0.08)) o.maxError = lit(round(rng.log(0.01, 5)));
  if (rng.chance(0.04)) {
    o.breakUnderForce = 'true';
    o.maxForce ??= lit(round(rng.log(10, 1e5)));
  }
  if (rng.chance(0.04)) {
    o.breakUnderError = 'true';
    o.maxError ??= lit(round(rng.log(0.05, 5)));
  }
  if ((o.breakUnderForce || o.breakUnderError) && rng.chance(0.4)) o.removeOnBreak = 'false';
  if (rng.chance(0.35)) o.ignore = 'true';
  if (rng.chance(0.03)) o.active = 'false';
  return o;
}

/** Where the constraint being built meets, when the caller says (a chain's link ends). */
let meetAt: [number, number] | null = null;

/** A world point between two bodies (where a joint connects them), with some spread. */
function meetingPoint(rng: Rng, a: Body, b: Body): [number, number] {
  if (meetAt !== null) return meetAt;
  const t = rng.float(0, 1);
  const spread = 0.3;
  return [a.x + t * (b.x - a.x) + rng.float(-spread, spread), a.y + t * (b.y - a.y) + rng.float(-spread, spread)];
}

function local(b: Body, p: [number, number]): [number, number] {
  const q = b.worldPointToLocal(p);
  return [round(q.x), round(q.y)];
}

/** Anchors of a joint at one world point (usually), or at two unrelated points (it starts violated). */
function anchorsFor(rng: Rng, a: Body, b: Body, apart = false): { a1: [number, number]; a2: [number, number]; p1: [number, number]; p2: [number, number] } {
  const p1 = meetingPoint(rng, a, b);
  let p2 = p1;
  if (apart || rng.chance(0.15)) p2 = [p1[0] + rng.float(-1, 1), p1[1] + rng.float(-1, 1)];
  return { a1: local(a, p1), a2: local(b, p2), p1, p2 };
}

/** ratio for Angle, Motor, Pulley: away from 0 mostly. */
function ratio(rng: Rng): number {
  return rng.chance(0.05) ? 0 : round(rng.sign() * rng.log(0.2, 4));
}

/**
 * Makes a constraint of `kind` between `bodies` (2 names; 3–4 for a pulley or the midpoint), adds
 * it to the space and records it. Returns its info.
 */
export function addConstraint(w: World, rng: Rng, kind: ConstraintKind, bodies: string[], opts: { label?: string; add?: boolean; at?: [number, number] } = {}): ConstraintInfo {
  const label = opts.label ?? 'build constraint';
  const add = opts.add ?? true;
  meetAt = opts.at ?? null;
  const name = w.fresh('c');
  const [n1, n2] = bodies as [string, string];
  const A = w.body(n1);
  const B = w.body(n2);
  const base = baseOptions(rng, kind);
  const info: ConstraintInfo = { name, kind };
  let code: string;
  const bodyOpts = { body1: `$${n1}`, body2: `$${n2}` };
  switch (kind) {
    case 'PivotJoint': {
      const { a1, a2 } = anchorsFor(rng, A, B);
      code = `new PivotJoint(${obj({ ...bodyOpts, anchor1: v2(...a1), anchor2: v2(...a2), ...base })})`;
      break;
    }
    case 'WeldJoint': {
      const { a1, a2 } = anchorsFor(rng, A, B);
      const phase = rng.chance(0.6) ? round(B.rotation - A.rotation) : round(rng.float(-Math.PI, Math.PI));
      code = `new WeldJoint(${obj({ ...bodyOpts, anchor1: v2(...a1), anchor2: v2(...a2), phase: lit(phase), ...base })})`;
      break;
    }
    case 'AngleJoint': {
      const r = ratio(rng);
      const value = r * B.rotation - A.rotation;
      const [lo, hi] = limitsAround(rng, value, 1.5, true);
      code = `new AngleJoint(${obj({ ...bodyOpts, jointMin: lit(lo), jointMax: lit(hi), ratio: lit(r), ...base })})`;
      break;
    }
    case 'DistanceJoint': {
      const { a1, a2 } = anchorsFor(rng, A, B, true);
      const q1 = A.localPointToWorld(a1);
      const q2 = B.localPointToWorld(a2);
      const d = Math.hypot(q2.x - q1.x, q2.y - q1.y);
      const [lo, hi] = limitsAround(rng, d, d, false);
      code = `new DistanceJoint(${obj({ ...bodyOpts, anchor1: v2(...a1), anchor2: v2(...a2), jointMin: lit(lo), jointMax: lit(hi), ...base })})`;
      break;
    }
    case 'LineJoint': {
      const { a1, a2 } = anchorsFor(rng, A, B);
      const ang = rng.float(-Math.PI, Math.PI);
      const len = rng.log(0.1, 10);
      const dir = v2(round(len * Math.cos(ang)), round(len * Math.sin(ang)));
      const o: Record<string, string | undefined> = { ...bodyOpts, anchor1: v2(...a1), anchor2: v2(...a2), direction: dir };
      if (rng.chance(0.6)) {
        const [lo, hi] = limitsAround(rng, 0, 3, true);
        o.jointMin = lit(lo);
        o.jointMax = lit(hi);
      }
      code = `new LineJoint(${obj({ ...o, ...base })})`;
      break;
    }
    case 'MotorJoint': {
      const o = { ...bodyOpts, rate: lit(round(rng.float(-10, 10))), ratio: lit(ratio(rng)) };
      code = `new MotorJoint(${obj({ ...o, ...base })})`;
      break;
    }
    case 'PulleyJoint': {
      // 4 bodies, or the 3- and 2-body forms with a shared body (body1 ≠ body2, body3 ≠ body4).
      const n3 = bodies[2] ?? n1;
      const n4 = bodies[3] ?? (n3 === n2 ? n1 : n2);
      const [C, D] = [w.body(n3), w.body(n4)];
      const an = [A, B, C, D].map((b) => [round(rng.float(-0.3, 0.3)), round(rng.float(-0.3, 0.3))] as [number, number]);
      const wp = [A, B, C, D].map((b, i) => b.localPointToWorld(an[i]!));
      const r = Math.abs(ratio(rng)) || 1;
      const value = Math.hypot(wp[1]!.x - wp[0]!.x, wp[1]!.y - wp[0]!.y) + r * Math.hypot(wp[3]!.x - wp[2]!.x, wp[3]!.y - wp[2]!.y);
      const [lo, hi] = limitsAround(rng, value, value, false);
      const o = { body1: `$${n1}`, body2: `$${n2}`, body3: `$${n3}`, body4: `$${n4}`, anchor1: v2(...an[0]!), anchor2: v2(...an[1]!), anchor3: v2(...an[2]!), anchor4: v2(...an[3]!), jointMin: lit(lo), jointMax: lit(hi), ratio: lit(r) };
      code = `new PulleyJoint(${obj({ ...o, ...base })})`;
      break;
    }
    default:
      if (kind.startsWith('user:')) code = userConstraint(w, rng, kind, bodies, base, info);
      else code = symbolicConstraint(w, rng, kind, bodies, base, info);
  }
  meetAt = null;
  w.constraints.push(info);
  w.run(add ? `$${name} = $space.addConstraint(${code})` : `$${name} = ${code}`, label);
  return info;
}

/**
 * [jointMin, jointMax] around a current value: an equality (min = max = value), a range that
 * holds the value, a one-sided range, or (allowNegative) ±Infinity bounds.
 */
function limitsAround(rng: Rng, value: number, spread: number, allowNegative: boolean): [number, number] {
  const v = round(value);
  const clampLo = (x: number): number => (allowNegative ? x : Math.max(0, x));
  const r = rng.next();
  if (r < 0.35) return allowNegative || v >= 0 ? [v, v] : [0, 0];
  const lo = round(clampLo(v - rng.float(0, spread)));
  const hi = round(v + rng.float(0, spread));
  if (r < 0.75) return [lo, Math.max(lo, hi)];
  if (r < 0.87) return [allowNegative ? -Infinity : 0, Math.max(lo, hi)];
  return [lo, Infinity];
}

// ---------------------------------------------------------------- user constraints

/** Packed-state reads of slot `s`: origin, cos, sin, centre of mass. */
function packed(s: number): { x: string; y: string; c: string; s: string; cx: string; cy: string } {
  const o = s === 0 ? '' : `${s} * BODY_STATE_STRIDE + `;
  return { x: `st[${o}BodyState.x]`, y: `st[${o}BodyState.y]`, c: `st[${o}BodyState.cos]`, s: `st[${o}BodyState.sin]`, cx: `st[${o}BodyState.comX]`, cy: `st[${o}BodyState.comY]` };
}

function userConstraint(w: World, rng: Rng, kind: string, bodies: string[], base: Record<string, string | undefined>, info: ConstraintInfo): string {
  const [n1, n2] = bodies as [string, string];
  const A = w.body(n1);
  const B = w.body(n2);
  const { a1, a2, p1, p2 } = anchorsFor(rng, A, B);
  const [ax1, ay1] = a1.map(lit);
  const [ax2, ay2] = a2.map(lit);
  const opts = (extra: Record<string, string | undefined>): string => obj({ ...extra, ...base });
  switch (kind) {
    case 'user:pivot-packed': {
      info.hooks = ['position', 'jacobian'];
      info.limitable = true;
      const P = packed(0);
      const Q = packed(1);
      const hooks = `{
  position(err, st) {
    err[0] = ${Q.x} + ${Q.c} * ${ax2} - ${Q.s} * ${ay2} - (${P.x} + ${P.c} * ${ax1} - ${P.s} * ${ay1});
    err[1] = ${Q.y} + ${Q.s} * ${ax2} + ${Q.c} * ${ay2} - (${P.y} + ${P.s} * ${ax1} + ${P.c} * ${ay1});
    F.hook(this, 'position', err);
  },
  jacobian(J, st) {
    const r1x = ${P.x} + ${P.c} * ${ax1} - ${P.s} * ${ay1} - ${P.cx}, r1y = ${P.y} + ${P.s} * ${ax1} + ${P.c} * ${ay1} - ${P.cy};
    const r2x = ${Q.x} + ${Q.c} * ${ax2} - ${Q.s} * ${ay2} - ${Q.cx}, r2y = ${Q.y} + ${Q.s} * ${ax2} + ${Q.c} * ${ay2} - ${Q.cy};
    J[0] = -1; J[1] = 0; J[2] = r1y; J[3] = 1; J[4] = 0; J[5] = -r2y;
    J[6] = 0; J[7] = -1; J[8] = -r1x; J[9] = 0; J[10] = 1; J[11] = r2x;
    F.hook(this, 'jacobian', J);
  },
}`;
      return `new UserConstraint(${opts({ dimensions: '2', packedState: 'true', bodies: `[$${n1}, $${n2}]`, hooks })})`;
    }
    case 'user:rope-limited': {
      info.hooks = ['position', 'jacobian'];
      info.limitable = true;
      const P = packed(0);
      const Q = packed(1);
      const d = Math.hypot(p2[0] - p1[0], p2[1] - p1[1]) + rng.float(0, 2);
      const lo = rng.chance(0.5) ? 0 : round(d * rng.float(0.2, 1));
      const hi = rng.chance(0.15) ? Infinity : round(Math.max(lo, d));
      const hooks = `{
  position(err, st) {
    const dx = ${Q.x} + ${Q.c} * ${ax2} - ${Q.s} * ${ay2} - (${P.x} + ${P.c} * ${ax1} - ${P.s} * ${ay1});
    const dy = ${Q.y} + ${Q.s} * ${ax2} + ${Q.c} * ${ay2} - (${P.y} + ${P.s} * ${ax1} + ${P.c} * ${ay1});
    err[0] = Math.hypot(dx, dy);
    F.hook(this, 'position', err);
  },
  jacobian(J, st) {
    const q1x = ${P.x} + ${P.c} * ${ax1} - ${P.s} * ${ay1}, q1y = ${P.y} + ${P.s} * ${ax1} + ${P.c} * ${ay1};
    const q2x = ${Q.x} + ${Q.c} * ${ax2} - ${Q.s} * ${ay2}, q2y = ${Q.y} + ${Q.s} * ${ax2} + ${Q.c} * ${ay2};
    const L = Math.hypot(q2x - q1x, q2y - q1y);
    const nx = L > 1e-9 ? (q2x - q1x) / L : 1, ny = L > 1e-9 ? (q2y - q1y) / L : 0;
    const r1x = q1x - ${P.cx}, r1y = q1y - ${P.cy}, r2x = q2x - ${Q.cx}, r2y = q2y - ${Q.cy};
    J[0] = -nx; J[1] = -ny; J[2] = -(r1x * ny - r1y * nx); J[3] = nx; J[4] = ny; J[5] = r2x * ny - r2y * nx;
    F.hook(this, 'jacobian', J);
  },
}`;
      return `new UserConstraint(${opts({ dimensions: '1', packedState: 'true', bodies: `[$${n1}, $${n2}]`, limits: `[${v2(lo, hi)}]`, hooks })})`;
    }
    case 'user:pivot-bodies': {
      // Reads the Body objects (packedState false): solved one by one, the bodies show each substep.
      info.hooks = ['position', 'jacobian'];
      info.limitable = true;
      const hooks = `{
  ${pivotPositionHook(a1, a2)},
  jacobian(J) {
    ${worldAnchors(a1, a2)}
    const c1 = a.worldCenter, c2 = b.worldCenter;
    J.set([-1, 0, q1.y - c1.y, 1, 0, -(q2.y - c2.y), 0, -1, -(q1.x - c1.x), 0, 1, q2.x - c2.x]);
    F.hook(this, 'jacobian', J);
  },
}`;
      return `new UserConstraint(${opts({ dimensions: '2', bodies: `[$${n1}, $${n2}]`, hooks })})`;
    }
    case 'user:fd-distance': {
      // position() only: J by central differences.
      info.hooks = ['position'];
      info.limitable = true;
      const L = round(Math.hypot(p2[0] - p1[0], p2[1] - p1[1]) + rng.float(0, 1));
      const packedState = rng.chance(0.5);
      const P = packed(0);
      const Q = packed(1);
      const hooks = packedState
        ? `{
  position(err, st) {
    const dx = ${Q.x} + ${Q.c} * ${ax2} - ${Q.s} * ${ay2} - (${P.x} + ${P.c} * ${ax1} - ${P.s} * ${ay1});
    const dy = ${Q.y} + ${Q.s} * ${ax2} + ${Q.c} * ${ay2} - (${P.y} + ${P.s} * ${ax1} + ${P.c} * ${ay1});
    err[0] = Math.hypot(dx, dy) - ${lit(L)};
    F.hook(this, 'position', err);
  },
}`
        : `{
  position(err) {
    ${worldAnchors(a1, a2)}
    err[0] = Math.hypot(q2.x - q1.x, q2.y - q1.y) - ${lit(L)};
    F.hook(this, 'position', err);
  },
}`;
      return `new UserConstraint(${opts({ dimensions: '1', packedState: packedState ? 'true' : undefined, bodies: `[$${n1}, $${n2}]`, hooks })})`;
    }
    case 'user:nape-pivot': {
      // Nape's form: position, velocity, effMass (packed upper triangle) and impulse (Jᵀλ per body).
      info.hooks = ['position', 'velocity', 'effMass', 'impulse'];
      info.nape = 'linear';
      const hooks = `{
  ${pivotPositionHook(a1, a2)},
  velocity(err) {
    ${worldAnchors(a1, a2)}
    const c1 = a.worldCenter, c2 = b.worldCenter, v1 = a.constraintVelocity, v2 = b.constraintVelocity;
    err[0] = v2.x - v2.z * (q2.y - c2.y) - (v1.x - v1.z * (q1.y - c1.y));
    err[1] = v2.y + v2.z * (q2.x - c2.x) - (v1.y + v1.z * (q1.x - c1.x));
    F.hook(this, 'velocity', err);
  },
  effMass(eff) {
    ${worldAnchors(a1, a2)}
    const c1 = a.worldCenter, c2 = b.worldCenter;
    const r1x = q1.x - c1.x, r1y = q1.y - c1.y, r2x = q2.x - c2.x, r2y = q2.y - c2.y;
    const m = a.constraintMass + b.constraintMass, i1 = a.constraintInertia, i2 = b.constraintInertia;
    eff[0] = m + i1 * r1y * r1y + i2 * r2y * r2y;
    eff[1] = -i1 * r1x * r1y - i2 * r2x * r2y;
    eff[2] = m + i1 * r1x * r1x + i2 * r2x * r2x;
    F.hook(this, 'effMass', eff);
  },
  impulse(imp, body, out) {
    const [a, b] = this.bodyList;
    const s = body === a ? -1 : 1;
    const q = body.localPointToWorld(body === a ? ${v2(a1[0], a1[1])} : ${v2(a2[0], a2[1])}), c = body.worldCenter;
    out.x = s * imp[0];
    out.y = s * imp[1];
    out.z = s * ((q.x - c.x) * imp[1] - (q.y - c.y) * imp[0]);
    F.hook(this, 'impulse', out);
  },
}`;
      return `new UserConstraint(${opts({ dimensions: '2', bodies: `[$${n1}, $${n2}]`, hooks })})`;
    }
    case 'user:nape-angle': {
      info.hooks = ['position', 'velocity', 'effMass', 'impulse'];
      info.nape = 'angular';
      const phase = round(B.rotation - A.rotation);
      const hooks = `{
  position(err) {
    const [a, b] = this.bodyList;
    err[0] = b.rotation - a.rotation - ${lit(phase)};
    F.hook(this, 'position', err);
  },
  velocity(err) {
    const [a, b] = this.bodyList;
    err[0] = b.constraintVelocity.z - a.constraintVelocity.z;
    F.hook(this, 'velocity', err);
  },
  effMass(eff) {
    const [a, b] = this.bodyList;
    eff[0] = a.constraintInertia + b.constraintInertia;
    F.hook(this, 'effMass', eff);
  },
  impulse(imp, body, out) {
    out.x = 0;
    out.y = 0;
    out.z = body === this.bodyList[0] ? -imp[0] : imp[0];
    F.hook(this, 'impulse', out);
  },
}`;
      return `new UserConstraint(${opts({ dimensions: '1', bodies: `[$${n1}, $${n2}]`, hooks })})`;
    }
    case 'user:motor': {
      // velocityOnly: V = ratio·ω2 − ω1 − rate, J given, and clamp() keeps |λ| within a bound.
      info.hooks = ['velocity', 'jacobian', 'clamp'];
      const r = ratio(rng) || 1;
      const rate = round(rng.float(-10, 10));
      const cap = round(rng.log(0.01, 100));
      const hooks = `{
  velocity(err, st) {
    err[0] = ${lit(r)} * st[BODY_STATE_STRIDE + BodyState.angularVel] - st[BodyState.angularVel] - ${lit(rate)};
    F.hook(this, 'velocity', err);
  },
  jacobian(J) {
    J.set([0, 0, -1, 0, 0, ${lit(r)}]);
    F.hook(this, 'jacobian', J);
  },
  clamp(jAcc) {
    jAcc[0] = Math.max(-${lit(cap)}, Math.min(${lit(cap)}, jAcc[0]));
    F.hook(this, 'clamp', jAcc);
  },
}`;
      return `new UserConstraint(${opts({ dimensions: '1', velocityOnly: 'true', packedState: 'true', bodies: `[$${n1}, $${n2}]`, hooks })})`;
    }
    case 'user:subclass-rod': {
      // The README's subclass form: registerBody, position() only (finite-difference J).
      info.hooks = ['position'];
      const L = round(Math.hypot(B.x - A.x, B.y - A.y) + rng.float(-0.5, 0.5));
      ensureClass(w, 'Rod', `class extends UserConstraint {
  constructor(a, b, length, options) {
    super(1);
    this.length = length;
    this.a = this.registerBody(null, a);
    this.b = this.registerBody(null, b);
    Object.assign(this, options);
  }
  position(err) {
    err[0] = Math.hypot(this.b.x - this.a.x, this.b.y - this.a.y) - this.length;
    F.hook(this, 'position', err);
  }
}`);
      const o = obj(base);
      return `new $Rod($${n1}, $${n2}, ${lit(Math.max(0, L))}, ${o})`;
    }
    case 'user:bulk-pin': {
      // A UserBatchKernel shared by every pin: body1's anchor held at a world point. body2 is not used.
      info.hooks = ['position', 'jacobian'];
      ensureClass(w, 'PIN', `{
  paramCount: 4,
  position(from, to, a) {
    for (let i = from; i < to; i++) {
      const o = a.slotState[i], p = 4 * i, st = a.states;
      a.C[2 * i] = st[o + BodyState.x] + st[o + BodyState.cos] * a.params[p] - st[o + BodyState.sin] * a.params[p + 1] - a.params[p + 2];
      a.C[2 * i + 1] = st[o + BodyState.y] + st[o + BodyState.sin] * a.params[p] + st[o + BodyState.cos] * a.params[p + 1] - a.params[p + 3];
    }
  },
  jacobian(from, to, a) {
    for (let i = from; i < to; i++) {
      const o = a.slotState[i], p = 4 * i, st = a.states;
      const rx = st[o + BodyState.x] + st[o + BodyState.cos] * a.params[p] - st[o + BodyState.sin] * a.params[p + 1] - st[o + BodyState.comX];
      const ry = st[o + BodyState.y] + st[o + BodyState.sin] * a.params[p] + st[o + BodyState.cos] * a.params[p + 1] - st[o + BodyState.comY];
      a.J[2 * i] = -ry;
      a.J[2 * i + 1] = rx;
    }
  },
  constantJacobian: [[0, 1], [1, 0], [3, 0], [4, 1]],
}`);
      ensureClass(w, 'Pin', `class extends UserConstraint {
  constructor(body, ax, ay, px, py, options) {
    super({ dimensions: 2, packedState: true, bodies: [body], ...options });
    this.ax = ax; this.ay = ay; this.px = px; this.py = py;
  }
  position(err, st) {
    err[0] = st[BodyState.x] + st[BodyState.cos] * this.ax - st[BodyState.sin] * this.ay - this.px;
    err[1] = st[BodyState.y] + st[BodyState.sin] * this.ax + st[BodyState.cos] * this.ay - this.py;
    F.hook(this, 'position', err);
  }
  jacobian(J, st) {
    const rx = st[BodyState.x] + st[BodyState.cos] * this.ax - st[BodyState.sin] * this.ay - st[BodyState.comX];
    const ry = st[BodyState.y] + st[BodyState.sin] * this.ax + st[BodyState.cos] * this.ay - st[BodyState.comY];
    J[0] = 1; J[1] = 0; J[2] = -ry; J[3] = 0; J[4] = 1; J[5] = rx;
    F.hook(this, 'jacobian', J);
  }
  batchKernel() { return $PIN; }
  batchParams(out, at) { out[at] = this.ax; out[at + 1] = this.ay; out[at + 2] = this.px; out[at + 3] = this.py; }
}`);
      const px = round(p2[0]);
      const py = round(p2[1]);
      return `new $Pin($${n2}, ${ax2}, ${ay2}, ${lit(px)}, ${lit(py)}, ${obj(base)})`;
    }
  }
  throw new Error(`fuzz: unknown user constraint kind ${kind}`);
}

/** Defines a class or kernel once per scene (a recorded line), as variable `$name`. */
function ensureClass(w: World, name: string, code: string): void {
  if (w.v[name] !== undefined) return;
  w.run(`$${name} = ${code}`, `define ${name}`);
}

// ---------------------------------------------------------------- symbolic constraints

function symbolicConstraint(w: World, rng: Rng, kind: string, bodies: string[], base: Record<string, string | undefined>, info: ConstraintInfo): string {
  const [n1, n2] = bodies as [string, string];
  const A = w.body(n1);
  const B = w.body(n2);
  const { a1, a2, p1, p2 } = anchorsFor(rng, A, B);
  const which = kind.slice(4);
  const source = which in SOURCES ? JSON.stringify(SOURCES[which as keyof typeof SOURCES]) : `examples.${which}`;
  const bodyNames = which === 'MIDPOINT' ? ['body1', 'body2', 'body3'] : ['body1', 'body2'];
  const bodyRec = obj(Object.fromEntries(bodyNames.map((n, i) => [n, `$${bodies[i] ?? n1}`])));
  const scalars: Record<string, string> = {};
  const vectors: Record<string, string> = {};
  const sym: SymbolicInfo = { source: which, bodies: bodyNames, scalars: [], vectors: [] };
  const anchors = (): void => {
    vectors.anchor1 = v2(...a1);
    vectors.anchor2 = v2(...a2);
    sym.vectors.push('anchor1', 'anchor2');
  };
  switch (which) {
    case 'WELD':
      anchors();
      scalars.phase = lit(round(rng.chance(0.6) ? B.rotation - A.rotation : rng.float(-Math.PI, Math.PI)));
      sym.scalars.push('phase');
      break;
    case 'PIVOT':
      anchors();
      break;
    case 'DISTANCE': {
      anchors();
      const d = Math.hypot(p2[0] - p1[0], p2[1] - p1[1]);
      const [lo, hi] = limitsAround(rng, d + rng.float(0, 1), 1, false);
      scalars.jointMin = lit(lo);
      scalars.jointMax = lit(hi);
      sym.range = ['jointMin', 'jointMax', false];
      break;
    }
    case 'LINE': {
      anchors();
      const ang = rng.float(-Math.PI, Math.PI);
      vectors.direction = v2(round(Math.cos(ang)), round(Math.sin(ang)));
      sym.nonZeroVector = 'direction';
      const [lo, hi] = limitsAround(rng, 0, 3, true);
      scalars.jointMin = lit(lo);
      scalars.jointMax = lit(hi);
      sym.range = ['jointMin', 'jointMax', true];
      break;
    }
    case 'MOTOR':
      scalars.rate = lit(round(rng.float(-10, 10)));
      scalars.ratio = lit(ratio(rng) || 1);
      sym.scalars.push('rate', 'ratio');
      break;
    case 'ANGLE': {
      const r = ratio(rng);
      const [lo, hi] = limitsAround(rng, r * B.rotation - A.rotation, 1.5, true);
      scalars.ratio = lit(r);
      scalars.jointMin = lit(lo);
      scalars.jointMax = lit(hi);
      sym.scalars.push('ratio');
      sym.range = ['jointMin', 'jointMax', true];
      break;
    }
    case 'SCALED':
      anchors();
      scalars.k = lit(round(rng.sign() * rng.log(0.5, 2)));
      sym.divisor = 'k';
      break;
    case 'MIDPOINT':
      break;
  }
  info.symbolic = sym;
  const compile = rng.weighted([[2, undefined], [1, "'function'"], [1, "'interpreter'"]] as const);
  const o: Record<string, string | undefined> = { source, bodies: bodyRec };
  if (Object.keys(scalars).length) o.scalars = obj(scalars);
  if (Object.keys(vectors).length) o.vectors = obj(vectors);
  o.compile = compile;
  return `new SymbolicConstraint(${obj({ ...o, ...base })})`;
}

/** Generated hook text: the two bodies (bodyList) and their anchors a1, a2 in world coordinates, q1 and q2. */
function worldAnchors(a1: readonly number[], a2: readonly number[]): string {
  return `const [a, b] = this.bodyList;
    const q1 = a.localPointToWorld(${v2(a1[0]!, a1[1]!)}), q2 = b.localPointToWorld(${v2(a2[0]!, a2[1]!)});`;
}

/** Generated hook text: a pivot's position() over Body objects, C = q2 − q1. */
function pivotPositionHook(a1: readonly number[], a2: readonly number[]): string {
  return `position(err) {
    ${worldAnchors(a1, a2)}
    err[0] = q2.x - q1.x;
    err[1] = q2.y - q1.y;
    F.hook(this, 'position', err);
  }`;
}
