/**
 * The observable state of a fuzz world, hashed from the exact bits of every number the public API
 * shows: bodies (pose, velocity, mass, type, flags, sleep), shapes, constraints' properties,
 * constraints' impulse read-outs and the spaces' settings. Object ids are left out (they are
 * global counters), so the same scene hashes the same in any run.
 */
import type { Body, Constraint, Shape, Space } from '@fulcrum/physics';
import type { World } from './world.js';

class Hasher {
  private buf = new Float64Array(256);
  private n = 0;

  num(x: number): void {
    if (this.n === this.buf.length) {
      const b = new Float64Array(this.buf.length * 2);
      b.set(this.buf);
      this.buf = b;
    }
    this.buf[this.n++] = x;
  }
  bool(b: boolean): void {
    this.num(b ? 1 : 0);
  }
  str(s: string): void {
    this.num(s.length);
    for (let i = 0; i < s.length; i++) this.num(s.charCodeAt(i));
  }
  vec(v: { x: number; y: number }): void {
    this.num(v.x);
    this.num(v.y);
  }

  /** Two 32-bit FNV-1a lanes over the raw bits: 16 hex digits. */
  digest(): string {
    const words = new Uint32Array(this.buf.buffer, 0, this.n * 2);
    let h1 = 0x811c9dc5;
    let h2 = 0x01000193 ^ this.n;
    for (let i = 0; i < words.length; i++) {
      const w = words[i]!;
      h1 = Math.imul(h1 ^ w, 0x01000193);
      h2 = Math.imul(h2 ^ (w + i), 0x5bd1e995);
      h2 ^= h2 >>> 15;
    }
    return (h1 >>> 0).toString(16).padStart(8, '0') + (h2 >>> 0).toString(16).padStart(8, '0');
  }
}

export interface StateHash {
  /** Pose and velocity of every tracked body. */
  motion: string;
  /** Everything else about bodies and shapes. */
  bodies: string;
  constraints: string;
  impulses: string;
  space: string;
}

export function hashEqual(a: StateHash, b: StateHash): boolean {
  return a.motion === b.motion && a.bodies === b.bodies && a.constraints === b.constraints && a.impulses === b.impulses && a.space === b.space;
}

/** The components that differ, for messages. */
export function hashDiff(a: StateHash, b: StateHash): string[] {
  return (Object.keys(a) as (keyof StateHash)[]).filter((k) => a[k] !== b[k]);
}

export function combined(h: StateHash): string {
  return `${h.motion}-${h.bodies}-${h.constraints}-${h.impulses}-${h.space}`;
}

const JOINT_PROPS = ['anchor1', 'anchor2', 'anchor3', 'anchor4', 'phase', 'jointMin', 'jointMax', 'ratio', 'direction', 'rate'] as const;
const SLOT_PROPS = ['body1', 'body2', 'body3', 'body4'] as const;

export function hashWorld(w: World): StateHash {
  const bodyIndex = new Map<unknown, number>();
  w.bodies.forEach((n, i) => bodyIndex.set(w.v[n], i));
  const shapeIndex = new Map<unknown, number>();
  w.shapes.forEach((n, i) => shapeIndex.set(w.v[n], i));
  const conIndex = new Map<unknown, number>();
  w.constraints.forEach((c, i) => conIndex.set(w.v[c.name], i));
  const spaces: Space[] = [w.space, w.other].filter(Boolean);
  const where = (o: { space: unknown }): number => (o.space === null ? 0 : 1 + spaces.indexOf(o.space as Space));
  const ref = (b: unknown): number => (b === null || b === undefined ? -1 : (bodyIndex.get(b) ?? -2));

  const motion = new Hasher();
  const bodies = new Hasher();
  for (const n of w.bodies) {
    const b = w.v[n] as Body;
    motion.num(b.x);
    motion.num(b.y);
    motion.num(b.rotation);
    motion.vec(b.velocity);
    motion.num(b.angularVel);
    bodies.num(where(b));
    bodies.str(b.type);
    bodies.vec(b.force);
    bodies.num(b.torque);
    bodies.num(b.mass);
    bodies.num(b.inertia);
    bodies.vec(b.localCenter);
    bodies.bool(b.allowMovement);
    bodies.bool(b.allowRotation);
    bodies.bool(b.allowFastRotation);
    bodies.num(b.linearDrag);
    bodies.num(b.angularDrag);
    bodies.num(b.gravityScale);
    bodies.bool(b.isSleeping);
    bodies.num(b.shapes.length);
    for (const s of b.shapes) bodies.num(shapeIndex.get(s) ?? -2);
  }
  for (const n of w.shapes) hashShape(bodies, w.v[n] as Shape, ref);

  const cons = new Hasher();
  const imps = new Hasher();
  for (const info of w.constraints) {
    const c = w.v[info.name] as Constraint & Record<string, unknown>;
    cons.num(where(c));
    cons.bool(c.active);
    cons.bool(c.stiff);
    cons.num(c.frequency);
    cons.num(c.damping);
    cons.num(c.maxForce);
    cons.num(c.maxError);
    cons.bool(c.breakUnderForce);
    cons.bool(c.breakUnderError);
    cons.bool(c.removeOnBreak);
    cons.bool(c.ignore);
    for (const p of SLOT_PROPS) if (p in c) cons.num(ref(c[p]));
    for (const p of JOINT_PROPS) {
      if (!(p in c)) continue;
      const x = c[p];
      if (typeof x === 'number') cons.num(x);
      else cons.vec(x as { x: number; y: number });
    }
    if ('bodyList' in c) {
      const u = c as unknown as { bodyList: readonly (Body | null)[]; dimensions: number; limit(r: number): [number, number] | null };
      for (const b of u.bodyList) cons.num(ref(b));
      for (let r = 0; r < u.dimensions; r++) {
        const l = u.limit(r);
        if (l === null) cons.num(-7);
        else {
          cons.num(l[0]);
          cons.num(l[1]);
        }
      }
    }
    if ('scalarNames' in c) {
      const s = c as unknown as { scalarNames: readonly string[]; vectorNames: readonly string[]; getScalar(n: string): number; getVector(n: string): { x: number; y: number } };
      for (const n of s.scalarNames) cons.num(s.getScalar(n));
      for (const n of s.vectorNames) cons.vec(s.getVector(n));
    }
    const imp = c.impulse() as number[];
    imps.num(imp.length);
    for (const x of imp) imps.num(x);
  }

  const sp = new Hasher();
  for (const s of spaces) {
    sp.vec(s.gravity);
    sp.num(s.sleepDelay);
    sp.num(s.sleepThreshold);
    sp.bool(s.allowSleep);
    sp.num(s.jointIterations);
    sp.num(s.jointHertz);
    sp.num(s.jointDampingRatio);
    sp.num(s.maxLinearSpeed);
    sp.num(s.maxRotationPerSubstep);
    sp.bool(s.checkUserConstraints);
    sp.num(s.time);
    sp.num(s.stepCount);
    sp.num(s.contactCount);
    sp.num(s.bodies.length);
    for (const b of s.bodies) sp.num(ref(b));
    sp.num(s.constraints.length);
    for (const c of s.constraints) sp.num(conIndex.get(c) ?? -2);
  }
  return { motion: motion.digest(), bodies: bodies.digest(), constraints: cons.digest(), impulses: imps.digest(), space: sp.digest() };
}

function hashShape(h: Hasher, s: Shape, ref: (b: unknown) => number): void {
  const o = s as Shape & Record<string, unknown>;
  h.str(s.kind);
  h.num(ref(s.body));
  h.vec(s.offset);
  h.num(s.angle);
  h.num(s.density);
  h.num(s.friction);
  h.num(s.restitution);
  h.bool(s.sensor);
  const f = s.filter;
  h.num(f.category);
  h.num(f.mask);
  h.num(f.group);
  if ('radius' in o) h.num(o.radius as number);
  if (s.kind === 'polygon') for (const p of o.vertices as { x: number; y: number }[]) h.vec(p);
  if (s.kind === 'capsule' || s.kind === 'segment') {
    h.vec(o.p1 as { x: number; y: number });
    h.vec(o.p2 as { x: number; y: number });
  }
}

/** Bodies' pose and velocity only (a failed step's atomicity). */
export function hashMotion(w: World): string {
  return hashWorld(w).motion;
}
