// Scene specifications: plain data that every engine adapter builds the same way.
//
// A spec is { id, title, bodies, joints, jointKind, top? } where
//   bodies[k] = { type: 'static' | 'dynamic', x, y, shape, collide, velocity?, restitution? }
//     shape   = { kind: 'box', w, h } | { kind: 'circle', r } | null (a static anchor with no shape)
//     collide = false puts the shape in a "never collides" filter (Fulcrum group -1, Box2D/planck
//               groupIndex -1, matter group -1, p2 mask 0, Rapier groups 0x00010000)
//     velocity    = [vx, vy] initial linear velocity (m/s) of a dynamic body; absent: at rest (scene L only;
//                   only the Fulcrum adapter reads it, and only Fulcrum runs L)
//     restitution = the shape's restitution; absent: 0 (scene L only, read by the Fulcrum adapter)
//   joints[k] = { a, b, anchorA: [x, y], anchorB: [x, y] }  body indices and body-local anchors (y up)
//   jointKind = 'pivot' (native revolute/pivot) | 'user' (Fulcrum UserConstraint with a bulk kernel)
//               | 'user-hooks' (the same UserConstraint without it) | 'symbolic' (@fulcrum/symbolic)
//               | 'distance' | 'distance-user' | 'distance-sym' (scene J: a distance limit, three ways)
//               | 'weld' | 'weld-user' | 'weld-sym' (scene K: a weld, three ways)
//   limits    = [jointMin, jointMax] of the distance joints (scene J)
//   measure   = 'distance' (J: worst violation of the limits) | 'weld' (K: anchor gap and angle error)
//               | 'escape' (L: bodies outside the box, mean speed)
//               | 'pyramids' (M: pyramids standing, worst top-box displacement); absent: anchor separation (C to I)
//               or the pyramid's top box (A, B)
//   box       = { x, y, half }: scene L's box, its inside the square of half-width `half` about (x, y)
//   top       = index of the pyramid's top box (scenes A and B)
//   tops      = indices of every pyramid's top box (scene M, measure 'pyramids')
// Every shape has density 1, friction 0.6, restitution 0 (unless the body says otherwise); y points up;
// bodies start with angle 0, at rest unless they have a velocity.

/**
 * Problem sizes: the full benchmark and the `--quick` smoke run. Scene M's quick size is Box2D v3's
 * debug-build size of many_pyramids (5 x 5 pyramids).
 */
export const SIZES = {
  full: {
    A: { rows: 20 }, B: { rows: 100 }, C: { n: 100 }, D: { links: 200 }, G: { links: 1000 }, J: { n: 100 }, K: { n: 100 }, L: { n: 500 },
    M: { rows: 20, columns: 20, base: 10 },
  },
  quick: {
    A: { rows: 20 }, B: { rows: 20 }, C: { n: 20 }, D: { links: 40 }, G: { links: 100 }, J: { n: 20 }, K: { n: 20 }, L: { n: 100 },
    M: { rows: 5, columns: 5, base: 10 },
  },
};

/** Every scene `--scenes` accepts, in table order. */
export const SCENE_IDS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I', 'J', 'J-user', 'J-sym', 'K', 'K-user', 'K-sym', 'L', 'M'];

/**
 * Scenes that run only when `--scenes` names them: not in a run without `--scenes` (the full sweep,
 * `--quick`, the published results/latest.json). M (22,000 boxes) takes about 5 minutes a repetition
 * on its five engines (2 cores): it would make the 28-minute sweep half again as long.
 */
export const OPT_IN_SCENES = ['M'];

/** The scenes of a run without `--scenes`. */
export const DEFAULT_SCENE_IDS = SCENE_IDS.filter((id) => !OPT_IN_SCENES.includes(id));

/** Scene J's distance limits (m), between body centres 1 m apart at rest. */
export const J_LIMITS = [0.9, 1.1];

/** One-line descriptions (the README has the long form). */
export const SCENE_INFO = {
  A: 'pyramid of 1x1 m boxes on a static ground, sleeping off',
  B: 'large pyramid, sleeping off; quality: top box displacement after all steps',
  C: 'joint grid (Box2D v3 joint_grid): circles r 0.4 joined to right and lower neighbours by pivots, no collisions',
  D: '1 x 0.25 m box chain pinned at its left end to a static anchor at the origin, released horizontally, no collisions',
  E: 'scene C with every pivot written as a Fulcrum UserConstraint (jacobian-form hooks and their bulk kernel); Fulcrum only',
  F: 'scene C with every pivot written as a @fulcrum/symbolic SymbolicConstraint; Fulcrum only',
  G: 'scene D with 1000 links (built-in PivotJoints); Fulcrum only, the reference for H',
  H: 'scene G with every pivot written as a @fulcrum/symbolic SymbolicConstraint; Fulcrum only',
  I: 'scene E without the bulk kernel: the UserConstraint hooks alone, called per constraint; Fulcrum only',
  J:
    "scene C's grid with each pivot a DistanceJoint, jointMin 0.9 m, jointMax 1.1 m, anchored at the body centres " +
    "((0, 0) / (0, 0), 1 m apart at rest; C's anchors coincide at rest, where [0.9, 1.1] would push the bodies apart): " +
    'one inequality row per joint, slack at rest, active as the grid sags; quality: worst violation of [0.9, 1.1]; Fulcrum only',
  'J-user':
    'scene J with each joint a UserConstraint subclass (UserDistance: C = |p2 - p1|, J = [-n, -(r1 x n), n, r2 x n], ' +
    'a limit row through prepare/velocity/clamp hooks, so solved one by one); Fulcrum only',
  'J-sym': "scene J with each joint a @fulcrum/symbolic SymbolicConstraint from the seed's examples.DISTANCE; Fulcrum only",
  K:
    "scene C's grid with each pivot a WeldJoint at C's anchors ((0.5, 0) / (-0.5, 0) and (0, -0.5) / (0, 0.5)): " +
    'three equality rows per joint; quality: worst anchor separation and worst relative angle; Fulcrum only',
  'K-user':
    'scene K with each weld a UserConstraint subclass in Jacobian form (UserWeld: C = (p2 + r2) - (p1 + r1), θ2 - θ1 - phase; ' +
    'position + jacobian hooks and their bulk kernel); Fulcrum only',
  'K-sym': "scene K with each weld a @fulcrum/symbolic SymbolicConstraint from the seed's examples.WELD; Fulcrum only",
  L:
    'small fast bodies (circles r 0.05-0.1 m and boxes of sides 0.1-0.2 m, seeded) in a closed 20 m box of 0.1 m thick static walls, ' +
    'each started at 50-150 m/s in a random direction, restitution 1, continuous collision as the engine defaults; ' +
    'quality: bodies outside the box (must be 0) and the mean speed at the end; Fulcrum only',
  M:
    "Box2D v3's many_pyramids: 20 x 20 pyramids of 10 rows (55 boxes of 1 x 1 m each, 22,000 boxes), 20 tiers 11 m apart, " +
    "1 m between neighbouring pyramids' bases, each tier on a 220 m ground, sleeping off; opt-in (--scenes M). " +
    "Departs from Box2D v3 in its grounds only: 20 static bodies, each a 220 x 0.1 m box whose top face lies on Box2D's line, " +
    'where Box2D has one static body with 20 two-sided segments (the spec has one shape per body, and boxes for every engine); ' +
    "the steps are this bench's protocol and each engine's default iterations, not Box2D's 200 steps of 4 substeps. " +
    'Quality: pyramids standing (top box within 1 m of its start) and the worst top-box displacement',
};

export function pyramid(id, rows) {
  const bodies = [{ type: 'static', x: 0, y: -0.5, shape: { kind: 'box', w: 200, h: 1 }, collide: true }];
  let top = -1;
  for (let r = 0; r < rows; r++) {
    const n = rows - r;
    for (let i = 0; i < n; i++) {
      if (r === rows - 1) top = bodies.length;
      bodies.push({ type: 'dynamic', x: i - (n - 1) / 2, y: 0.5 + r, shape: { kind: 'box', w: 1, h: 1 }, collide: true });
    }
  }
  return {
    id,
    title: `${id === 'A' ? 'pyramid' : 'large pyramid'} ${rows} rows (${bodies.length - 1} boxes)`,
    bodies,
    joints: [],
    jointKind: 'pivot',
    top,
  };
}

/** Scene M's ground boxes' thickness (m): Box2D v3's grounds are segments (no thickness); see manyPyramids. */
export const M_GROUND_THICKNESS = 0.1;

/**
 * Scene M, Box2D v3's many_pyramids (shared/benchmarks.c, CreateManyPyramids): `rows` tiers of
 * `columns` pyramids, each pyramid `base` rows of 1 x 1 m boxes (base + (base − 1) + … + 1 boxes).
 * Tier t stands on the ground line y = t·(base + 1); the lines are columns·(base + 1) m long, centred
 * on x = 0, so each tier's top box has 1 m of room below the next line. In a tier, pyramid c is centred
 * at x = (c − (columns − 1)/2)·(base + 1): 1 m between neighbouring bases, 0.5 m from the line's ends.
 * Box (row r, index i) of a pyramid centred at cx is at x = cx + i − (base − r − 1)/2, y = line + 0.5 + r,
 * as in A and B. Bodies 0 … rows − 1 are the grounds (tier order), then the boxes in Box2D's creation
 * order (tier by tier, pyramid by pyramid left to right, each bottom row first, left to right).
 *
 * One departure: Box2D makes one static body with a two-sided segment per line. A spec body has one
 * shape, and boxes every engine here builds alike, so each line is a static body of its own, a box
 * columns·(base + 1) m long and M_GROUND_THICKNESS thick whose top face is the line. Its underside is
 * 0.9 m above the top box of the tier below, which it never touches (nor do Box2D's segments).
 */
export function manyPyramids(id, { rows, columns, base }) {
  const pitch = base + 1; // tier height and pyramid spacing (m): Box2D's 2·extent·(baseCount + 1) with extent 0.5
  const width = columns * pitch;
  const t = M_GROUND_THICKNESS;
  const bodies = [];
  for (let tier = 0; tier < rows; tier++) {
    bodies.push({ type: 'static', x: 0, y: tier * pitch - t / 2, shape: { kind: 'box', w: width, h: t }, collide: true });
  }
  const tops = [];
  for (let tier = 0; tier < rows; tier++) {
    const floor = tier * pitch;
    for (let c = 0; c < columns; c++) {
      const cx = (c - (columns - 1) / 2) * pitch;
      for (let r = 0; r < base; r++) {
        const n = base - r;
        for (let i = 0; i < n; i++) {
          if (r === base - 1) tops.push(bodies.length);
          bodies.push({ type: 'dynamic', x: cx + i - (n - 1) / 2, y: floor + 0.5 + r, shape: { kind: 'box', w: 1, h: 1 }, collide: true });
        }
      }
    }
  }
  const boxes = bodies.length - rows;
  return {
    id,
    title: `many pyramids ${columns}x${rows}, ${base} rows each (${boxes} boxes)`,
    bodies,
    joints: [],
    jointKind: 'pivot',
    measure: 'pyramids',
    tops,
  };
}

/**
 * Box2D v3's joint_grid: body (i, j) at (i, -j); index i * n + j; the 7 middle bodies of row j = 0 are static.
 * `centres`: every joint anchored at the two body centres (scene J) instead of the shared edge point.
 */
export function jointGrid(id, n, jointKind, { centres = false } = {}) {
  const bodies = [];
  const lo = Math.floor(n / 2) - 3;
  const hi = Math.floor(n / 2) + 3;
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const fixed = j === 0 && i >= lo && i <= hi;
      bodies.push({ type: fixed ? 'static' : 'dynamic', x: i, y: -j, shape: { kind: 'circle', r: 0.4 }, collide: false });
    }
  }
  const joints = [];
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < n; j++) {
      const k = i * n + j;
      if (i + 1 < n) joints.push({ a: k, b: (i + 1) * n + j, anchorA: centres ? [0, 0] : [0.5, 0], anchorB: centres ? [0, 0] : [-0.5, 0] });
      if (j + 1 < n) joints.push({ a: k, b: k + 1, anchorA: centres ? [0, 0] : [0, -0.5], anchorB: centres ? [0, 0] : [0, 0.5] });
    }
  }
  const how = {
    pivot: 'pivots',
    user: 'UserConstraint pivots',
    'user-hooks': 'UserConstraint pivots, hooks only',
    symbolic: 'SymbolicConstraint pivots',
    distance: 'DistanceJoints [0.9, 1.1] m',
    'distance-user': 'UserConstraint distance limits',
    'distance-sym': 'SymbolicConstraint distance limits',
    weld: 'WeldJoints',
    'weld-user': 'UserConstraint welds',
    'weld-sym': 'SymbolicConstraint welds',
  }[jointKind];
  return { id, title: `joint grid ${n}x${n} (${joints.length} ${how})`, bodies, joints, jointKind };
}

/** Scene J (and its two rewrites): scene C's grid, each joint a distance limit between the body centres. */
export function distanceGrid(id, n, jointKind) {
  return { ...jointGrid(id, n, jointKind, { centres: true }), limits: [...J_LIMITS], measure: 'distance' };
}

/** Scene K (and its two rewrites): scene C's grid, each joint a weld at C's anchors. */
export function weldGrid(id, n, jointKind) {
  return { ...jointGrid(id, n, jointKind), measure: 'weld' };
}

/** Horizontal chain: body 0 is the static anchor at the origin (no shape), link k is body k + 1. */
export function chain(id, links, jointKind = 'pivot') {
  const bodies = [{ type: 'static', x: 0, y: 0, shape: null, collide: false }];
  const joints = [];
  for (let k = 0; k < links; k++) {
    bodies.push({ type: 'dynamic', x: k + 0.5, y: 0, shape: { kind: 'box', w: 1, h: 0.25 }, collide: false });
    if (k === 0) joints.push({ a: 0, b: 1, anchorA: [0, 0], anchorB: [-0.5, 0] });
    else joints.push({ a: k, b: k + 1, anchorA: [0.5, 0], anchorB: [-0.5, 0] });
  }
  const how = { pivot: '', symbolic: ', SymbolicConstraint pivots' }[jointKind];
  return { id, title: `chain ${links} links${how}`, bodies, joints, jointKind };
}

/** Scene L's box (m): the inside is 2·half square about the origin, walls `wall` thick; bodies start `margin` from the walls. */
export const L_BOX = { half: 10, wall: 0.1, margin: 0.5 };
/** Scene L's initial speeds (m/s): each body's is uniform in this range, in a uniform direction. */
export const L_SPEED = [50, 150];
/** Scene L's restitution (every shape, walls included); see fastBodies. */
export const L_RESTITUTION = 1;
/** Scene L's seed (its layout, shapes and velocities are a function of it and the body count). */
export const L_SEED = 0x5eed_1;

/** A seeded generator of uniform numbers in [0, 1) (mulberry32: integer arithmetic only, the same on every platform). */
export function seededRandom(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Scene L: `n` small fast bodies in a closed box of four thin static walls. Bodies 0 to 3 are the
 * walls (left, right, bottom, top; each 2·(half + wall) long, so they close the corners), the rest
 * are dynamic: each a circle (r 0.05 to 0.1 m) or a box (sides 0.1 to 0.2 m), even odds.
 * Body k sits in cell k of a grid of ceil(√n) columns over the box less `margin`, at a random point of
 * its cell that keeps the body (whatever its shape, at any angle) inside the cell: no overlaps.
 * Each gets a random velocity of 50 to 150 m/s in a random direction: 0.8 to 2.5 m a step, 8 to
 * 25 times a wall's thickness, so without continuous collision they would pass through the walls.
 * Restitution 1 (walls and bodies; Fulcrum takes the larger of two), not the other scenes' 0: with 0
 * a body loses its speed into a wall at its first impact, so the box is a pile nearly at rest before
 * the timed steps begin (the 60 warm-up steps last 1 s; a body crosses the box in 0.13 to 0.4 s) and
 * they would time a resting pile, not fast motion. With 1 the bodies keep bouncing through all 360
 * steps (friction, spin and gravity still take energy out: the mean speed is about 40 m/s when the
 * timed steps begin and a few m/s at the end).
 */
export function fastBodies(id, n, { seed = L_SEED } = {}) {
  const { half, wall, margin } = L_BOX;
  const rand = seededRandom(seed);
  const between = (lo, hi) => lo + (hi - lo) * rand();
  const e = L_RESTITUTION;
  const len = 2 * (half + wall);
  const off = half + wall / 2;
  const bodies = [
    { type: 'static', x: -off, y: 0, shape: { kind: 'box', w: wall, h: len }, collide: true, restitution: e },
    { type: 'static', x: off, y: 0, shape: { kind: 'box', w: wall, h: len }, collide: true, restitution: e },
    { type: 'static', x: 0, y: -off, shape: { kind: 'box', w: len, h: wall }, collide: true, restitution: e },
    { type: 'static', x: 0, y: off, shape: { kind: 'box', w: len, h: wall }, collide: true, restitution: e },
  ];
  const cols = Math.ceil(Math.sqrt(n));
  const rows = Math.ceil(n / cols);
  const span = 2 * (half - margin);
  const cw = span / cols;
  const ch = span / rows;
  const reach = Math.hypot(0.1, 0.1); // the largest body's farthest point from its centre (a 0.2 x 0.2 box's corner)
  if (Math.min(cw, ch) < 2 * reach) throw new Error(`scene L: ${n} bodies do not fit in the box`);
  const [vmin, vmax] = L_SPEED;
  for (let k = 0; k < n; k++) {
    const i = k % cols;
    const j = Math.floor(k / cols);
    const x = -half + margin + (i + 0.5) * cw + between(-1, 1) * (cw / 2 - reach);
    const y = -half + margin + (j + 0.5) * ch + between(-1, 1) * (ch / 2 - reach);
    const shape = rand() < 0.5 ? { kind: 'circle', r: between(0.05, 0.1) } : { kind: 'box', w: between(0.1, 0.2), h: between(0.1, 0.2) };
    const speed = between(vmin, vmax);
    const dir = between(0, 2 * Math.PI);
    bodies.push({ type: 'dynamic', x, y, shape, collide: true, velocity: [speed * Math.cos(dir), speed * Math.sin(dir)], restitution: e });
  }
  return {
    id,
    title: `${n} fast bodies in a closed box (${vmin}–${vmax} m/s, walls ${wall} m thick)`,
    bodies,
    joints: [],
    jointKind: 'pivot',
    measure: 'escape',
    box: { x: 0, y: 0, half },
  };
}

/** The spec of scene `id` at the given sizes (SIZES.full or SIZES.quick). */
export function buildScene(id, sizes) {
  switch (id) {
    case 'A':
      return pyramid('A', sizes.A.rows);
    case 'B':
      return pyramid('B', sizes.B.rows);
    case 'C':
      return jointGrid('C', sizes.C.n, 'pivot');
    case 'D':
      return chain('D', sizes.D.links);
    case 'E':
      return jointGrid('E', sizes.C.n, 'user');
    case 'F':
      return jointGrid('F', sizes.C.n, 'symbolic');
    case 'G':
      return chain('G', sizes.G.links, 'pivot');
    case 'H':
      return chain('H', sizes.G.links, 'symbolic');
    case 'I':
      return jointGrid('I', sizes.C.n, 'user-hooks');
    case 'J':
      return distanceGrid('J', sizes.J.n, 'distance');
    case 'J-user':
      return distanceGrid('J-user', sizes.J.n, 'distance-user');
    case 'J-sym':
      return distanceGrid('J-sym', sizes.J.n, 'distance-sym');
    case 'K':
      return weldGrid('K', sizes.K.n, 'weld');
    case 'K-user':
      return weldGrid('K-user', sizes.K.n, 'weld-user');
    case 'K-sym':
      return weldGrid('K-sym', sizes.K.n, 'weld-sym');
    case 'L':
      return fastBodies('L', sizes.L.n);
    case 'M':
      return manyPyramids('M', sizes.M);
    default:
      throw new Error(`unknown scene ${JSON.stringify(id)} (expected one of ${SCENE_IDS.join(', ')})`);
  }
}

// ------------------------------------------------------------------ measurement (engine-independent)

/** World point of body-local point a for a pose [x, y, angle] (body origin = shape centre here). */
export function worldPoint(pose, a) {
  const c = Math.cos(pose[2]);
  const s = Math.sin(pose[2]);
  return [pose[0] + c * a[0] - s * a[1], pose[1] + s * a[0] + c * a[1]];
}

/** Worst distance between the two world anchors of any joint; `pose(k)` gives [x, y, angle]. */
export function worstSeparation(spec, pose) {
  let worst = 0;
  for (const j of spec.joints) {
    const p = worldPoint(pose(j.a), j.anchorA);
    const q = worldPoint(pose(j.b), j.anchorB);
    const d = Math.hypot(q[0] - p[0], q[1] - p[1]);
    if (Number.isNaN(d)) return NaN; // an exploded simulation is reported as NaN (null in the JSON)
    if (d > worst) worst = d;
  }
  return worst;
}

/**
 * Scene J's figure: the anchor distance d of every joint against [lo, hi]; the worst violation
 * max(lo − d, d − hi, 0) over the joints (m), and the shortest and longest d.
 */
export function limitViolation(spec, pose) {
  const [lo, hi] = spec.limits;
  let worst = 0;
  let min = Infinity;
  let max = 0;
  for (const j of spec.joints) {
    const p = worldPoint(pose(j.a), j.anchorA);
    const q = worldPoint(pose(j.b), j.anchorB);
    const d = Math.hypot(q[0] - p[0], q[1] - p[1]);
    if (Number.isNaN(d)) return { worstViolation: NaN, minDistance: NaN, maxDistance: NaN };
    worst = Math.max(worst, lo - d, d - hi);
    if (d < min) min = d;
    if (d > max) max = d;
  }
  return { worstViolation: worst, minDistance: min, maxDistance: max };
}

/** Scene K's figures: the worst anchor separation (m) and the worst |θ2 − θ1| (rad, the welds' phase is 0). */
export function weldError(spec, pose) {
  let angle = 0;
  for (const j of spec.joints) {
    const e = Math.abs(pose(j.b)[2] - pose(j.a)[2]);
    if (Number.isNaN(e)) return { worstSeparation: NaN, worstAngle: NaN };
    if (e > angle) angle = e;
  }
  return { worstSeparation: worstSeparation(spec, pose), worstAngle: angle };
}

/**
 * Scene L's figures: `escaped`, how many dynamic bodies have their centre outside the box's inside
 * (in a wall or beyond it; a NaN pose counts as escaped), and `meanSpeed`, the mean |v| (m/s) of the
 * dynamic bodies; `velocity(k)` gives [vx, vy]. (A body's centre is its centre of mass here.)
 */
export function escapes(spec, pose, velocity) {
  if (typeof velocity !== 'function') throw new Error(`scene ${spec.id}'s quality needs the adapter's velocity(k)`);
  const { x, y, half } = spec.box;
  let escaped = 0;
  let sum = 0;
  let n = 0;
  for (let k = 0; k < spec.bodies.length; k++) {
    if (spec.bodies[k].type !== 'dynamic') continue;
    const p = pose(k);
    const inside = Math.abs(p[0] - x) < half && Math.abs(p[1] - y) < half; // false for NaN
    if (!inside) escaped++;
    const v = velocity(k);
    sum += Math.hypot(v[0], v[1]);
    n++;
  }
  return { escaped, meanSpeed: sum / n };
}

/**
 * Scene M's figures: of the `pyramids`, how many are `standing` (the top box within 1 m of its start in
 * x and in y, as A and B's "stands"), and the top boxes' largest displacements, `worstTopDx` and
 * `worstTopDy` (m, signed: the Δx and the Δy of largest magnitude, each over every pyramid). A NaN
 * pose is a pyramid down, and makes both worst figures NaN.
 */
export function pyramidsStanding(spec, pose) {
  let standing = 0;
  let worstTopDx = 0;
  let worstTopDy = 0;
  for (const k of spec.tops) {
    const b = spec.bodies[k];
    const p = pose(k);
    const dx = p[0] - b.x;
    const dy = p[1] - b.y;
    if (Number.isNaN(dx) || Number.isNaN(dy)) {
      worstTopDx = NaN;
      worstTopDy = NaN;
      continue;
    }
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1) standing++;
    if (Math.abs(dx) > Math.abs(worstTopDx)) worstTopDx = dx; // false once it is NaN: NaN stays
    if (Math.abs(dy) > Math.abs(worstTopDy)) worstTopDy = dy;
  }
  return { pyramids: spec.tops.length, standing, worstTopDx, worstTopDy };
}

/**
 * Quality metrics after the run: pyramid top displacement (A, B), worst anchor separation (C–I),
 * worst limit violation (J), worst anchor separation and angle (K), bodies escaped and mean speed (L,
 * which needs `velocity(k)` → [vx, vy] as well), pyramids standing and the worst top displacement (M).
 */
export function measureQuality(spec, pose, velocity) {
  if (spec.measure === 'pyramids') return pyramidsStanding(spec, pose);
  if (spec.measure === 'distance') return limitViolation(spec, pose);
  if (spec.measure === 'weld') return weldError(spec, pose);
  if (spec.measure === 'escape') return escapes(spec, pose, velocity);
  if (spec.top !== undefined) {
    const b = spec.bodies[spec.top];
    const p = pose(spec.top);
    const dx = p[0] - b.x;
    const dy = p[1] - b.y;
    return { topDx: dx, topDy: dy, stands: Math.abs(dx) < 1 && Math.abs(dy) < 1 };
  }
  return { worstSeparation: worstSeparation(spec, pose) };
}

// ------------------------------------------------------------------ statistics

export function median(values) {
  const s = Array.from(values).sort((x, y) => x - y);
  const n = s.length;
  if (n === 0) return NaN;
  return n % 2 ? s[(n - 1) / 2] : 0.5 * (s[n / 2 - 1] + s[n / 2]);
}

export function summarize(values) {
  const a = Array.from(values);
  let sum = 0;
  for (const v of a) sum += v;
  return { median: median(a), mean: sum / a.length, min: Math.min(...a), max: Math.max(...a) };
}
