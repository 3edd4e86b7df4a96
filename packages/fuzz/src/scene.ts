/**
 * Scene families: each builds a random valid scene through the public API, as recorded code.
 *
 *   pile      shapes of every kind dropped on a ground between walls, a kinematic platform
 *   chain     chains of links (pivots, distance rods, welds, user and symbolic pivots) with loads
 *   joints    bodies linked by the seven joints, stiff and soft, limits, motors, a few loops
 *   user      the same with UserConstraints of every form
 *   symbolic  the same with SymbolicConstraints
 *   mixed     all of it
 */
import { addBody, RANGES } from './bodies.js';
import { lit, obj, round, v2 } from './code.js';
import { addConstraint, JOINT_KINDS, SYMBOLIC_KINDS, USER_KINDS, type ConstraintKind } from './constraints.js';
import type { Rng } from './rng.js';
import type { World } from './world.js';

export const FAMILIES = ['pile', 'chain', 'joints', 'user', 'symbolic', 'mixed'] as const;
export type Family = (typeof FAMILIES)[number];

/** The space, its step parameters, a second space (for cross-space mistakes) and a ground. */
export function buildSpace(w: World, rng: Rng): string {
  const o: Record<string, string | undefined> = {};
  o.gravity = rng.chance(0.75) ? v2(0, -10) : v2(round(rng.float(-RANGES.gravity, RANGES.gravity) * 0.3), round(rng.float(-RANGES.gravity, RANGES.gravity * 0.3)));
  if (rng.chance(0.2)) o.sleepDelay = lit(round(rng.float(0, 2)));
  if (rng.chance(0.2)) o.sleepThreshold = lit(round(rng.float(0, 0.2)));
  if (rng.chance(0.15)) o.allowSleep = 'false';
  if (rng.chance(0.15)) o.contactHertz = lit(round(rng.log(5, 60)));
  if (rng.chance(0.15)) o.contactDampingRatio = lit(round(rng.float(0, 20)));
  if (rng.chance(0.2)) o.jointIterations = lit(rng.int(1, 6));
  if (rng.chance(0.15)) o.jointHertz = lit(round(rng.log(0.5, 60)));
  if (rng.chance(0.1)) o.jointDampingRatio = lit(round(rng.float(0, 4)));
  if (rng.chance(0.05)) o.checkUserConstraints = 'true';
  w.run(`$space = new Space(${obj(o)})`, 'build space');
  w.run(`$other = new Space()`, 'build space');
  w.dt = rng.weighted([[1, 1 / 30], [6, 1 / 60], [2, 1 / 120], [1, 1 / 240]] as const);
  w.vi = rng.weighted([[1, 1], [2, 2], [6, 4], [2, 8]] as const);
  w.pi = rng.weighted([[1, 0], [2, 1], [6, 2], [1, 4]] as const);
  w.trace.push({ t: 'step-params', dt: w.dt, vi: w.vi, pi: w.pi });
  w.otherBody = addBody(w, rng, { type: 'dynamic', position: [0, 0], space: '$other', shapeKinds: ['circle'], size: 0.5, moving: false }, 'build other');
  w.otherConstraint = w.fresh('c');
  w.run(`$${w.otherConstraint} = $other.addConstraint(new PivotJoint({ body1: $${w.otherBody}, active: false }))`, 'build other');
  w.constraints.push({ name: w.otherConstraint, kind: 'PivotJoint' });
  // The ground: a box, or segments; walls sometimes.
  const ground = rng.chance(0.5)
    ? groundBox(w, rng.chance(0.6))
    : addBody(w, rng, { type: 'static', position: [0, 0], shapeCount: 1, shapeKinds: ['segment'], size: 5, rotation: 0 }, 'build ground');
  return ground;
}

function groundBox(w: World, walls: boolean): string {
  const b = w.fresh('b');
  const s = w.fresh('s');
  let code = `$${s} = Polygon.box(60, 1, { offset: [0, -0.5] }); `;
  const names = [s];
  if (walls) {
    const l = w.fresh('s');
    const r = w.fresh('s');
    code += `$${l} = new Segment({ p1: [-15, 0], p2: [-15, 20] }); $${r} = new Segment({ p1: [15, 0], p2: [15, 20] }); `;
    names.push(l, r);
  }
  code += `$${b} = $space.addBody(new Body({ type: 'static', shapes: [${names.map((n) => `$${n}`).join(', ')}] }))`;
  w.run(code, 'build ground');
  w.bodies.push(b);
  w.shapes.push(...names);
  return b;
}

export function buildScene(w: World, rng: Rng, family: Family): void {
  const ground = buildSpace(w, rng);
  switch (family) {
    case 'pile':
      return pile(w, rng);
    case 'chain':
      return chains(w, rng, ground);
    case 'joints':
      return linked(w, rng, ground, JOINT_KINDS);
    case 'user':
      return linked(w, rng, ground, rng.chance(0.3) ? [...USER_KINDS, ...JOINT_KINDS] : USER_KINDS);
    case 'symbolic':
      return linked(w, rng, ground, rng.chance(0.3) ? [...SYMBOLIC_KINDS, ...JOINT_KINDS] : SYMBOLIC_KINDS);
    case 'mixed':
      pile(w, rng, 0.5);
      if (rng.chance(0.5)) chains(w, rng, ground, 1);
      return linked(w, rng, ground, [...JOINT_KINDS, ...USER_KINDS, ...SYMBOLIC_KINDS], 0.6);
  }
}

function randomPosition(rng: Rng): [number, number] {
  return [rng.float(-10, 10), rng.float(1, 12)];
}

function pile(w: World, rng: Rng, scale = 1): void {
  const n = Math.max(1, Math.round(rng.int(3, 24) * scale));
  for (let i = 0; i < n; i++) addBody(w, rng, { position: randomPosition(rng) });
  if (rng.chance(0.3)) addBody(w, rng, { type: 'kinematic', position: [rng.float(-8, 8), rng.float(0.5, 4)], shapeKinds: ['box', 'capsule'], size: rng.float(1, 5), moving: true });
  if (rng.chance(0.2)) addBody(w, rng, { type: 'static', position: randomPosition(rng), size: rng.float(0.5, 5) });
  // A few joints between what fell, sometimes.
  const dyn = w.bodies.slice(2);
  const joints = rng.chance(0.3) ? rng.int(1, 3) : 0;
  for (let i = 0; i < joints && dyn.length >= 2; i++) {
    const a = rng.pick(dyn);
    const b = rng.pick(dyn.filter((x) => x !== a));
    addConstraint(w, rng, rng.pick(JOINT_KINDS.filter((k) => k !== 'PulleyJoint')), [a, b]);
  }
}

const CHAIN_LINKS: readonly ConstraintKind[] = ['PivotJoint', 'PivotJoint', 'PivotJoint', 'DistanceJoint', 'WeldJoint', 'user:pivot-packed', 'user:pivot-bodies', 'user:nape-pivot', 'sym:PIVOT', 'sym:WELD', 'sym:SCALED'];

/**
 * Chains hung from a static anchor (or the ground): links of random mass and length, one link
 * kind per chain (sometimes mixed), joints added from the top or from the bottom, and sometimes a
 * heavy load at the end.
 */
function chains(w: World, rng: Rng, ground: string, count?: number): void {
  const k = count ?? rng.int(1, 3);
  for (let c = 0; c < k; c++) {
    const top: [number, number] = [rng.float(-8, 8), rng.float(6, 14)];
    const anchor = rng.chance(0.7) ? addBody(w, rng, { type: 'static', position: top, shapeKinds: ['circle'], size: 0.2 }, 'build anchor') : ground;
    const links = rng.int(2, 14);
    const length = rng.log(0.1, 3);
    const horizontal = rng.chance(0.5);
    const filter = rng.weighted([[2, obj({ group: '-1' })], [2, obj({ mask: '0' })], [1, undefined]] as const);
    const kind = rng.pick(CHAIN_LINKS);
    const mixed = rng.chance(0.15);
    const names: string[] = [anchor];
    const ends: [number, number][] = [anchor === ground ? [top[0], 0] : top];
    const massSpread = rng.chance(0.5) ? [0.5, 5] : [RANGES.mass[0], RANGES.mass[1]];
    for (let i = 0; i < links; i++) {
      const [x0, y0] = ends[ends.length - 1]!;
      const dx = horizontal ? length : 0;
      const dy = horizontal ? 0 : -length;
      const centre: [number, number] = [x0 + dx / 2, y0 + dy / 2];
      const heavyLoad = i === links - 1 && rng.chance(0.3);
      const b = addBody(w, rng, {
        position: centre,
        rotation: horizontal ? 0 : Math.PI / 2,
        size: length,
        shapeCount: 1,
        shapeKinds: heavyLoad ? ['circle'] : ['capsule', 'box'],
        mass: round(heavyLoad ? rng.float(5, 50) : rng.log(massSpread[0]!, massSpread[1]!)),
        filter: filter ?? undefined,
        moving: false,
      }, 'build link');
      names.push(b);
      ends.push([x0 + dx, y0 + dy]);
    }
    // Joints at the link ends; added top-down or bottom-up (the solve order follows).
    const order = Array.from({ length: links }, (_, i) => i);
    if (rng.chance(0.4)) order.reverse();
    for (const i of order) {
      const a = names[i]!;
      const b = names[i + 1]!;
      const k2 = mixed ? rng.pick(CHAIN_LINKS) : kind;
      chainJoint(w, rng, k2, a, b, ends[i]!);
    }
  }
}

/** A joint of a chain at world point p (where link a ends and link b starts). */
function chainJoint(w: World, rng: Rng, kind: ConstraintKind, a: string, b: string, p: [number, number]): void {
  addConstraint(w, rng, kind, [a, b], { label: 'build chain joint', at: p });
}

/**
 * Bodies linked by constraints of the given kinds: a random tree (every body linked to an earlier
 * one, or to the ground), plus a few extra links that close loops.
 */
function linked(w: World, rng: Rng, ground: string, kinds: readonly ConstraintKind[], scale = 1): void {
  const n = Math.max(2, Math.round(rng.int(2, 10) * scale));
  const names: string[] = [];
  for (let i = 0; i < n; i++) {
    const near = names.length ? w.body(rng.pick(names)) : null;
    const pos: [number, number] = near ? [near.x + rng.float(-2.5, 2.5), near.y + rng.float(-2.5, 2.5)] : randomPosition(rng);
    const type = rng.weighted([[12, 'dynamic'], [1, 'static'], [1, 'kinematic']] as const);
    names.push(addBody(w, rng, { type, position: [pos[0], Math.max(0.5, pos[1])] }));
  }
  const pool = [ground, ...names];
  const links: [string, string][] = [];
  for (let i = 0; i < names.length; i++) {
    const b = names[i]!;
    const a = i === 0 || rng.chance(0.25) ? ground : rng.pick(names.slice(0, i));
    links.push([a, b]);
  }
  const extra = rng.int(0, Math.ceil(n / 3));
  for (let i = 0; i < extra; i++) {
    const a = rng.pick(pool);
    const b = rng.pick(pool.filter((x) => x !== a));
    links.push([a, b]);
  }
  for (const [a, b] of links) {
    const kind = rng.pick(kinds);
    const others = pool.filter((x) => x !== a && x !== b);
    const bodies = kind === 'PulleyJoint' || kind === 'sym:MIDPOINT' ? [a, b, ...pickSome(rng, others, kind === 'PulleyJoint' ? rng.int(0, 2) : 1)] : [a, b];
    addConstraint(w, rng, kind, rng.chance(0.5) ? bodies : swapFirst(bodies));
  }
}

function pickSome(rng: Rng, items: string[], k: number): string[] {
  const out: string[] = [];
  const rest = items.slice();
  for (let i = 0; i < k && rest.length; i++) out.push(...rest.splice(rng.int(0, rest.length - 1), 1));
  return out;
}

function swapFirst(b: string[]): string[] {
  return [b[1]!, b[0]!, ...b.slice(2)];
}
