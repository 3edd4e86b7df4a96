/**
 * Random valid shapes and bodies, as code. The ranges are the ones a user's scene has: masses
 * 0.01–50 kg, sizes 0.05–5 m (log-uniform), speeds up to 20 m/s, friction 0–1.2, restitution 0–0.8.
 */
import { lit, obj, round, v2 } from './code.js';
import type { Rng } from './rng.js';
import type { World } from './world.js';

export const RANGES = {
  mass: [0.01, 50],
  size: [0.05, 5],
  frequency: [0.5, 60],
  damping: [0, 2],
  speed: 20,
  spin: 20,
  friction: [0, 1.2],
  restitution: [0, 0.8],
  maxForce: [1, 1e5],
  gravity: 20,
} as const;

export type ShapeKindName = 'circle' | 'box' | 'regular' | 'polygon' | 'rounded' | 'capsule' | 'capsule-points' | 'segment';

export interface ShapeSpec {
  /** The constructor call, with `extra` options (density, filter) merged into its options. */
  code: (extra?: Record<string, string>) => string;
  kind: ShapeKindName;
  /** Area (m²) as built, for choosing a density. */
  area: number;
  /** The shape's extent from the body origin (m). */
  reach: number;
}

/** Options every shape takes: offset, angle, friction, restitution, filter, sensor. */
function commonShapeOptions(rng: Rng, size: number, allowOffset: boolean): Record<string, string | undefined> {
  const o: Record<string, string | undefined> = {};
  if (allowOffset && rng.chance(0.3)) o.offset = v2(round(rng.float(-size, size)), round(rng.float(-size, size)));
  if (rng.chance(0.3)) o.angle = lit(round(rng.float(-Math.PI, Math.PI)));
  if (rng.chance(0.4)) o.friction = lit(round(rng.float(RANGES.friction[0], RANGES.friction[1])));
  if (rng.chance(0.25)) o.restitution = lit(round(rng.float(RANGES.restitution[0], RANGES.restitution[1])));
  if (rng.chance(0.1)) o.filter = obj({ group: lit(rng.pick([-1, -2, 1, 2])) });
  else if (rng.chance(0.05)) o.filter = obj({ mask: '0' });
  else if (rng.chance(0.05)) o.filter = obj({ category: lit(rng.pick([1, 2, 4])), mask: lit(rng.pick([0xffffffff, 1, 6])) });
  if (rng.chance(0.03)) o.sensor = 'true';
  return o;
}

/** A convex polygon of 3–8 vertices on an ellipse, any winding. */
export function convexVertices(rng: Rng, size: number): [number, number][] {
  const n = rng.int(3, 8);
  const a = size * rng.float(0.5, 1);
  const b = size * rng.float(0.5, 1);
  const phase = rng.float(0, 2 * Math.PI);
  const pts: [number, number][] = [];
  for (let k = 0; k < n; k++) {
    const t = phase + (2 * Math.PI * (k + rng.float(-0.25, 0.25))) / n;
    pts.push([round(a * Math.cos(t)), round(b * Math.sin(t))]);
  }
  if (rng.chance(0.5)) pts.reverse();
  return pts;
}

function polygonArea(pts: [number, number][]): number {
  let s = 0;
  for (let i = 0; i < pts.length; i++) {
    const [x1, y1] = pts[i]!;
    const [x2, y2] = pts[(i + 1) % pts.length]!;
    s += x1 * y2 - x2 * y1;
  }
  return Math.abs(s) / 2;
}

export function randomShape(rng: Rng, opts: { size?: number; kinds?: readonly ShapeKindName[]; allowOffset?: boolean } = {}): ShapeSpec {
  const size = opts.size ?? rng.log(RANGES.size[0], RANGES.size[1]);
  const kind: ShapeKindName = opts.kinds ? rng.pick(opts.kinds) : rng.weighted([[3, 'circle'], [3, 'box'], [1, 'regular'], [2, 'polygon'], [1, 'rounded'], [2, 'capsule'], [1, 'capsule-points'], [0.5, 'segment']] as const);
  const common = commonShapeOptions(rng, size, opts.allowOffset ?? true);
  const o = (own: Record<string, string | undefined>, extra?: Record<string, string>): string => obj({ ...own, ...common, ...extra });
  /** A factory's trailing options argument (left out when empty). */
  const tail = (own: Record<string, string | undefined>, extra?: Record<string, string>): string => {
    const all = { ...own, ...common, ...extra };
    return Object.values(all).some((x) => x !== undefined) ? `, ${obj(all)}` : '';
  };
  switch (kind) {
    case 'circle': {
      const r = round(size / 2);
      return { kind, code: (x) => `new Circle(${o({ radius: lit(r) }, x)})`, area: Math.PI * r * r, reach: r };
    }
    case 'box': {
      const w = round(size * rng.float(0.3, 1));
      const h = round(size * rng.float(0.3, 1));
      const own = rng.chance(0.2) ? { radius: lit(round(Math.min(w, h) * rng.float(0, 0.2))) } : {};
      return { kind, code: (x) => `Polygon.box(${lit(w)}, ${lit(h)}${tail(own, x)})`, area: w * h, reach: Math.hypot(w, h) / 2 };
    }
    case 'regular': {
      const r = round(size / 2);
      const n = rng.int(3, 12);
      return { kind, code: (x) => `Polygon.regular(${lit(r)}, ${n}${tail({}, x)})`, area: 0.5 * n * r * r * Math.sin((2 * Math.PI) / n), reach: r };
    }
    case 'polygon':
    case 'rounded': {
      const pts = convexVertices(rng, size / 2);
      const radius = kind === 'rounded' ? round((size / 2) * rng.float(0.02, 0.3)) : undefined;
      const own = { vertices: `[${pts.map(([x, y]) => v2(x, y)).join(', ')}]`, radius: radius !== undefined ? lit(radius) : undefined };
      return { kind, code: (x) => `new Polygon(${o(own, x)})`, area: polygonArea(pts) + (radius ?? 0) * 2 * size, reach: size / 2 + (radius ?? 0) };
    }
    case 'capsule': {
      const length = round(size * rng.float(0.3, 1));
      const radius = round(size * rng.float(0.05, 0.3));
      return { kind, code: (x) => `new Capsule(${o({ length: lit(length), radius: lit(radius) }, x)})`, area: 2 * radius * length + Math.PI * radius * radius, reach: length / 2 + radius };
    }
    case 'capsule-points': {
      const h = size / 2;
      const p1: [number, number] = [round(rng.float(-h, h)), round(rng.float(-h, h))];
      let p2: [number, number] = [round(rng.float(-h, h)), round(rng.float(-h, h))];
      if (Math.hypot(p2[0] - p1[0], p2[1] - p1[1]) < 0.02) p2 = [round(p1[0] + h), p1[1]];
      const radius = round(size * rng.float(0.05, 0.3));
      const length = Math.hypot(p2[0] - p1[0], p2[1] - p1[1]);
      return { kind, code: (x) => `new Capsule(${o({ p1: v2(...p1), p2: v2(...p2), radius: lit(radius) }, x)})`, area: 2 * radius * length + Math.PI * radius * radius, reach: h + radius };
    }
    case 'segment': {
      const h = size / 2;
      const own = { p1: v2(round(-h), 0), p2: v2(round(h), round(rng.float(-h, h) * 0.3)) };
      return { kind, code: (x) => `new Segment(${o(own, x)})`, area: 0, reach: h };
    }
  }
}

export interface BodySpec {
  type?: 'dynamic' | 'static' | 'kinematic';
  position: [number, number];
  size?: number;
  shapeCount?: number;
  shapeKinds?: ShapeKindName[];
  mass?: number;
  /** A velocity / spin for dynamic and kinematic bodies (default: a random small one, sometimes). */
  moving?: boolean;
  /** Override of every shape's options, as code (e.g. filter for joint-only bodies). */
  filter?: string;
  rotation?: number;
  space?: '$space' | '$other';
}

/**
 * Creates a body with its shapes and adds it to the space: one line of code, run and recorded.
 * Returns the body's variable name.
 */
export function addBody(w: World, rng: Rng, spec: BodySpec, label = 'build body'): string {
  const type = spec.type ?? 'dynamic';
  const size = spec.size ?? rng.log(RANGES.size[0], RANGES.size[1]);
  const count = spec.shapeCount ?? rng.weighted([[6, 1], [2, 2], [1, 3]] as const);
  const shapes: ShapeSpec[] = [];
  for (let i = 0; i < count; i++) shapes.push(randomShape(rng, { size: i === 0 ? size : size * rng.float(0.3, 1), kinds: spec.shapeKinds, allowOffset: i > 0 || rng.chance(0.2) }));
  if (type === 'dynamic' && shapes.every((s) => s.kind === 'segment') && rng.chance(0.7)) {
    shapes.push(randomShape(rng, { size, kinds: ['circle', 'box'] }));
  }
  const names = shapes.map(() => w.fresh('s'));
  const body = w.fresh('b');
  const area = shapes.reduce((a, s) => a + s.area, 0);
  const o: Record<string, string | undefined> = {};
  const extra: Record<string, string> = {};
  if (spec.filter !== undefined) extra.filter = spec.filter;
  if (type !== 'dynamic') o.type = `'${type}'`;
  o.position = v2(round(spec.position[0]), round(spec.position[1]));
  const rot = spec.rotation ?? (rng.chance(0.5) ? round(rng.float(-Math.PI, Math.PI)) : undefined);
  if (rot !== undefined) o.rotation = lit(rot);
  if (type === 'dynamic') {
    const m = spec.mass ?? round(rng.log(RANGES.mass[0], RANGES.mass[1]));
    // An explicit mass, or a density that gives about the same mass.
    if (spec.mass !== undefined || area === 0 || rng.chance(0.5)) o.mass = lit(round(m));
    else extra.density = lit(round(m / area));
    if (rng.chance(0.1)) o.inertia = lit(round(m * size * size * rng.float(0.05, 0.5)));
    if (rng.chance(0.08)) o.linearDrag = lit(round(rng.float(0, 3)));
    if (rng.chance(0.08)) o.angularDrag = lit(round(rng.float(0, 3)));
    if (rng.chance(0.08)) o.gravityScale = lit(round(rng.float(-1, 3)));
    if (rng.chance(0.05)) o.allowRotation = 'false';
    if (rng.chance(0.03)) o.allowMovement = 'false';
    if (rng.chance(0.05)) o.force = v2(round(rng.float(-10, 10) * m), round(rng.float(-10, 10) * m));
  } else if (type === 'kinematic' && rng.chance(0.3)) {
    o.mass = lit(round(rng.log(RANGES.mass[0], RANGES.mass[1])));
  }
  let code = '';
  shapes.forEach((s, i) => (code += `$${names[i]} = ${s.code(extra)}; `));
  const moving = spec.moving ?? (type !== 'static' && rng.chance(type === 'kinematic' ? 0.7 : 0.2));
  if (moving && type !== 'static') {
    const top = type === 'kinematic' ? 4 : RANGES.speed;
    o.velocity = v2(round(rng.float(-top, top)), round(rng.float(-top, top)));
    if (rng.chance(0.5)) o.angularVel = lit(round(rng.float(-(type === 'kinematic' ? 2 : RANGES.spin), type === 'kinematic' ? 2 : RANGES.spin)));
  }
  o.shapes = `[${names.map((n) => `$${n}`).join(', ')}]`;
  code += `$${body} = ${spec.space ?? '$space'}.addBody(new Body(${obj(o)}))`;
  w.run(code, label);
  w.bodies.push(body);
  w.shapes.push(...names);
  return body;
}

