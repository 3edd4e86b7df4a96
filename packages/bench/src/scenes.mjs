// Scene specifications: plain data that every engine adapter builds the same way.
//
// A spec is { id, title, bodies, joints, jointKind, top? } where
//   bodies[k] = { type: 'static' | 'dynamic', x, y, shape, collide }
//     shape   = { kind: 'box', w, h } | { kind: 'circle', r } | null (a static anchor with no shape)
//     collide = false puts the shape in a "never collides" filter (Fulcrum group -1, Box2D/planck
//               groupIndex -1, matter group -1, p2 mask 0, Rapier groups 0x00010000)
//   joints[k] = { a, b, anchorA: [x, y], anchorB: [x, y] }  body indices and body-local anchors (y up)
//   jointKind = 'pivot' (native revolute/pivot) | 'user' (Fulcrum UserConstraint with a bulk kernel)
//               | 'user-hooks' (the same UserConstraint without it) | 'symbolic' (@fulcrum/symbolic)
//   top       = index of the pyramid's top box (scenes A and B)
// Every shape has density 1, friction 0.6, restitution 0; y points up; bodies start at rest, angle 0.

/** Problem sizes: the full benchmark and the `--quick` smoke run. */
export const SIZES = {
  full: { A: { rows: 20 }, B: { rows: 100 }, C: { n: 100 }, D: { links: 200 }, G: { links: 1000 } },
  quick: { A: { rows: 20 }, B: { rows: 20 }, C: { n: 20 }, D: { links: 40 }, G: { links: 100 } },
};

export const SCENE_IDS = ['A', 'B', 'C', 'D', 'E', 'F', 'G', 'H', 'I'];

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

/** Box2D v3's joint_grid: body (i, j) at (i, -j); index i * n + j; the 7 middle bodies of row j = 0 are static. */
export function jointGrid(id, n, jointKind) {
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
      if (i + 1 < n) joints.push({ a: k, b: (i + 1) * n + j, anchorA: [0.5, 0], anchorB: [-0.5, 0] });
      if (j + 1 < n) joints.push({ a: k, b: k + 1, anchorA: [0, -0.5], anchorB: [0, 0.5] });
    }
  }
  const how = { pivot: 'pivots', user: 'UserConstraint pivots', 'user-hooks': 'UserConstraint pivots, hooks only', symbolic: 'SymbolicConstraint pivots' }[jointKind];
  return { id, title: `joint grid ${n}x${n} (${joints.length} ${how})`, bodies, joints, jointKind };
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

/** Quality metrics after the run: pyramid top displacement (A, B) or worst anchor separation (C–I). */
export function measureQuality(spec, pose) {
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
