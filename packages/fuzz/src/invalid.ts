/**
 * Invalid inputs of every kind the engine documents as rejected: NaN and ±Infinity, wrong types,
 * non-positive sizes and masses, degenerate and concave polygons, jointMin > jointMax, the same
 * body twice, bodies of another space, bad hooks and limits, symbolic sources with syntax and type
 * errors, violated symbolic limits, bad step arguments, options a constructor does not know. Each
 * must throw the documented error at the call and leave the observable state unchanged
 * (SceneRun.reject).
 */
import type { Body, Constraint, Shape } from '@fulcrum/physics';
import { lit, round, v2 } from './code.js';
import type { Expected } from './errors.js';
import type { Rng } from './rng.js';
import { inSpaceBodies, pickOr, spaceConstraints } from './valid.js';
import type { ConstraintInfo, World } from './world.js';

interface Bad {
  code: string;
  expect: Expected;
}
type BadGen = (w: World, rng: Rng) => Bad | null;

const input = (code: string): Bad => ({ code, expect: 'input' });

/** Values that are not finite numbers, or not numbers. */
const BAD_NUMBERS = ['NaN', 'Infinity', '-Infinity', "'1'", 'null', 'undefined', '{}', '[1]', 'true', '1n'];
/** Values that are not valid vectors. */
const BAD_VECTORS = ['[NaN, 0]', '[0, Infinity]', '{ x: -Infinity, y: 0 }', '[1, 2, 3]', '[1]', "'0,0'", 'null', '{ x: 1 }', "{ x: '1', y: 2 }", '5', '[]'];
const BAD_BOOLEANS = ["'yes'", '1', '0', 'null', '{}'];

function body(w: World, rng: Rng, filter: (b: Body) => boolean = () => true): string | null {
  return pickOr(rng, inSpaceBodies(w, filter));
}

function shape(w: World, rng: Rng, filter: (s: Shape) => boolean = () => true): string | null {
  return pickOr(rng, w.shapes.filter((n) => {
    const s = w.shape(n);
    return s.body !== null && filter(s);
  }));
}

function constraint(w: World, rng: Rng, pred: (i: ConstraintInfo, c: Constraint & Record<string, unknown>) => boolean = () => true): ConstraintInfo | null {
  return pickOr(rng, spaceConstraints(w, (i, c) => pred(i, c as Constraint & Record<string, unknown>)));
}

const onBody = (prop: string, values: string[], filter?: (b: Body) => boolean): BadGen => (w, rng) => {
  const n = body(w, rng, filter);
  return n === null ? null : input(`$${n}.${prop} = ${rng.pick(values)}`);
};

const onShape = (prop: string, values: string[], filter?: (s: Shape) => boolean): BadGen => (w, rng) => {
  const n = shape(w, rng, filter);
  return n === null ? null : input(`$${n}.${prop} = ${rng.pick(values)}`);
};

const onConstraint = (prop: string, values: string[], pred?: (i: ConstraintInfo, c: Constraint & Record<string, unknown>) => boolean): BadGen => (w, rng) => {
  const i = constraint(w, rng, pred);
  return i === null ? null : input(`$${i.name}.${prop} = ${rng.pick(values)}`);
};

const isJoint = (i: ConstraintInfo): boolean => !i.kind.includes(':');

export const INVALID: Record<string, BadGen> = {
  // ---------------------------------------------------------------- step and space
  'Space.step(dt) not a positive finite number': (w, rng) => input(`$space.step(${rng.pick(['0', '-1 / 60', 'NaN', 'Infinity', "'1/60'", 'undefined', 'null', '-0'])})`),
  'Space.step(velocityIterations) not an integer in [1, 1000]': (w, rng) => input(`$space.step(1 / 60, ${rng.pick(['0', '2.5', '1001', '-1', 'NaN', "'4'", 'Infinity'])})`),
  'Space.step(positionIterations) not an integer in [0, 1000]': (w, rng) => input(`$space.step(1 / 60, 4, ${rng.pick(['-1', '1.5', '1001', 'NaN', 'null'])})`),
  'Space.gravity not a finite vector': (w, rng) => input(`$space.gravity = ${rng.pick(BAD_VECTORS)}`),
  'Space.sleepDelay negative or not finite': (w, rng) => input(`$space.sleepDelay = ${rng.pick(['-1', ...BAD_NUMBERS])}`),
  'Space.sleepThreshold negative or not finite': (w, rng) => input(`$space.sleepThreshold = ${rng.pick(['-0.1', ...BAD_NUMBERS])}`),
  'Space.allowSleep not a boolean': (w, rng) => input(`$space.allowSleep = ${rng.pick(BAD_BOOLEANS)}`),
  'Space.jointIterations not an integer in [1, 1000]': (w, rng) => input(`$space.jointIterations = ${rng.pick(['0', '1.5', '1001', ...BAD_NUMBERS])}`),
  'Space.jointHertz negative or not finite': (w, rng) => input(`$space.jointHertz = ${rng.pick(['-1', ...BAD_NUMBERS])}`),
  'Space.maxLinearSpeed not positive': (w, rng) => input(`$space.maxLinearSpeed = ${rng.pick(['0', '-5', '-Infinity', 'NaN', "'fast'", 'null', 'undefined'])}`),
  'Space.maxRotationPerSubstep not positive': (w, rng) => input(`$space.maxRotationPerSubstep = ${rng.pick(['0', '-0.1', '-Infinity', 'NaN', 'true', '[1]'])}`),
  'Space.jointDampingRatio negative or not finite': (w, rng) => input(`$space.jointDampingRatio = ${rng.pick(['-1', ...BAD_NUMBERS])}`),
  'Space.checkUserConstraints not a boolean': (w, rng) => input(`$space.checkUserConstraints = ${rng.pick(BAD_BOOLEANS)}`),
  'new Space with a bad option': (w, rng) => input(`new Space(${rng.pick(['{ gravity: [NaN, 0] }', '{ contactHertz: 0 }', '{ contactDampingRatio: -1 }', '{ jointIterations: 0 }', '{ sleepDelay: -1 }', '{ allowSleep: 1 }', '5', 'null', '{ jointHertz: NaN }', '{ maxLinearSpeed: 0 }', '{ maxRotationPerSubstep: NaN }', '{ gravty: [0, -10] }', '{ iterations: 8 }'])})`),
  'Space.addBody of a non-body': (w, rng) => input(`$space.addBody(${rng.pick(['{}', 'null', '$space', `new Circle({ radius: 1 })`, "'body'"])})`),
  'Space.addBody of a body already in it': (w, rng) => {
    const n = body(w, rng);
    return n === null ? null : input(`$space.addBody($${n})`);
  },
  'Space.addBody of a body of another space': (w) => input(`$space.addBody($${w.otherBody})`),
  'Space.removeBody of a body not in it': (w, rng) => input(rng.chance(0.5) ? `$space.removeBody($${w.otherBody})` : `$space.removeBody(new Body())`),
  'Space.removeBody of a non-body': (w, rng) => input(`$space.removeBody(${rng.pick(['null', '{}', '3'])})`),
  'Space.addConstraint of a non-constraint': (w, rng) => {
    const n = body(w, rng);
    return input(`$space.addConstraint(${rng.pick(['null', '{}', ...(n ? [`$${n}`] : [])])})`);
  },
  'Space.addConstraint of a constraint already in it': (w, rng) => {
    const i = constraint(w, rng);
    return i === null ? null : input(`$space.addConstraint($${i.name})`);
  },
  'Space.addConstraint of a constraint of another space': (w) => input(`$space.addConstraint($${w.otherConstraint})`),
  'Space.removeConstraint of a constraint not in it': (w, rng) => input(rng.chance(0.5) ? `$space.removeConstraint($${w.otherConstraint})` : `$space.removeConstraint(new PivotJoint())`),
  'Space.on with an unknown event or a non-function': (w, rng) => input(rng.chance(0.5) ? `$space.on(${rng.pick(["'explode'", "'contact'", 'null', '5'])}, () => {})` : `$space.on('wake', ${rng.pick(['5', 'null', "'f'", '{}'])})`),
  'Space queries with bad arguments': (w, rng) =>
    input(rng.pick(['$space.queryPoint([NaN, 0])', '$space.queryAABB([1, 1], [0, 0])', '$space.queryAABB([0, 0], [Infinity, 1])', '$space.rayCast([0, NaN], [1, 1])', '$space.rayCastAll([0, 0], null)', "$space.queryPoint('here')", '$space.queryPoint([0, 0], { includeSensor: true })', '$space.rayCast([0, 0], [1, 1], { filter: 1 })', '$space.queryAABB([0, 0], [1, 1], null)'])),

  // ---------------------------------------------------------------- bodies
  'Body.position not a finite vector': onBody('position', BAD_VECTORS),
  'Body.rotation not a finite number': onBody('rotation', BAD_NUMBERS),
  'Body.velocity not a finite vector': onBody('velocity', BAD_VECTORS),
  'Body.angularVel not a finite number': onBody('angularVel', BAD_NUMBERS),
  'Body.force not a finite vector': onBody('force', BAD_VECTORS),
  'Body.torque not a finite number': onBody('torque', BAD_NUMBERS),
  'Body.mass not positive': onBody('mass', ['0', '-1', '-0', ...BAD_NUMBERS]),
  'Body.inertia not positive': onBody('inertia', ['0', '-2', ...BAD_NUMBERS]),
  'Body.linearDrag negative or not finite': onBody('linearDrag', ['-0.5', ...BAD_NUMBERS]),
  'Body.angularDrag negative or not finite': onBody('angularDrag', ['-0.5', ...BAD_NUMBERS]),
  'Body.gravityScale not finite': onBody('gravityScale', BAD_NUMBERS),
  'Body.allowMovement not a boolean': onBody('allowMovement', BAD_BOOLEANS),
  'Body.allowRotation not a boolean': onBody('allowRotation', BAD_BOOLEANS),
  'Body.allowFastRotation not a boolean': onBody('allowFastRotation', BAD_BOOLEANS),
  'Body.type not a body type': onBody('type', ["'floating'", "'Dynamic'", 'null', '0', 'undefined']),
  'Body.velocity non-zero on a static body': onBody('velocity', ['[1, 0]', '[0, -0.5]'], (b) => b.type === 'static'),
  'Body.angularVel non-zero on a static body': onBody('angularVel', ['1', '-0.1'], (b) => b.type === 'static'),
  'Body.applyImpulse with a bad impulse or point': (w, rng) => {
    const n = body(w, rng);
    return n === null ? null : input(rng.chance(0.5) ? `$${n}.applyImpulse(${rng.pick(BAD_VECTORS)})` : `$${n}.applyImpulse([1, 0], ${rng.pick(BAD_VECTORS.filter((v) => v !== 'undefined'))})`);
  },
  'Body.applyAngularImpulse not finite': (w, rng) => {
    const n = body(w, rng);
    return n === null ? null : input(`$${n}.applyAngularImpulse(${rng.pick(BAD_NUMBERS)})`);
  },
  'Body frame conversions with a bad point': (w, rng) => {
    const n = body(w, rng);
    return n === null ? null : input(`$${n}.${rng.pick(['localPointToWorld', 'worldPointToLocal', 'localVectorToWorld', 'worldVectorToLocal'])}(${rng.pick(BAD_VECTORS)})`);
  },
  'Body.addShape of an attached shape or a non-shape': (w, rng) => {
    const n = body(w, rng);
    const s = shape(w, rng);
    if (n === null) return null;
    return input(`$${n}.addShape(${rng.chance(0.6) && s ? `$${s}` : rng.pick(['{}', 'null', '$space'])})`);
  },
  'Body.removeShape of a shape not on it': (w, rng) => {
    const n = body(w, rng);
    if (n === null) return null;
    const b = w.body(n);
    const s = shape(w, rng, (x) => !b.shapes.includes(x));
    return input(`$${n}.removeShape(${s && rng.chance(0.7) ? `$${s}` : rng.pick(['null', 'new Circle({ radius: 1 })'])})`);
  },
  'new Body with a bad option': (w, rng) => {
    const s = shape(w, rng);
    return input(
      `new Body(${rng.pick([
        '{ mass: -1 }',
        '{ mass: 0 }',
        "{ type: 'floating' }",
        '{ position: [NaN, 0] }',
        '{ inertia: -1 }',
        "{ type: 'static', velocity: [1, 0] }",
        "{ type: 'static', angularVel: 2 }",
        "{ shapes: 'circle' }",
        '{ shapes: [{}] }',
        '{ linearDrag: -1 }',
        '{ allowRotation: 1 }',
        "{ allowFastRotation: 'yes' }",
        '{ gravtyScale: 2 }',
        '{ angle: 1 }',
        '{ linearVelocity: [1, 0] }',
        'null',
        ...(s ? [`{ shapes: [$${s}] }`] : []),
      ])})`,
    );
  },
  'new Body listing a shape twice': () => input(`{ const s = new Circle({ radius: 1 }); new Body({ shapes: [s, s] }); }`),

  // ---------------------------------------------------------------- shapes
  'Shape.offset not a finite vector': onShape('offset', BAD_VECTORS),
  'Shape.angle not finite': onShape('angle', BAD_NUMBERS),
  'Shape.density not positive': onShape('density', ['0', '-1', ...BAD_NUMBERS]),
  'Shape.friction negative or not finite': onShape('friction', ['-0.1', ...BAD_NUMBERS]),
  'Shape.restitution negative or not finite': onShape('restitution', ['-0.5', ...BAD_NUMBERS]),
  'Shape.sensor not a boolean': onShape('sensor', BAD_BOOLEANS),
  'Shape.filter with bad fields': onShape('filter', ['{ mask: 0.5 }', '{ category: -1 }', '{ group: 2 ** 31 }', '{ mask: 2 ** 32 }', '{ category: NaN }', 'null', "'none'", "{ group: '1' }", '{ categry: 2 }', '{ mask: 1, groups: 1 }']),
  'Circle.radius not positive': onShape('radius', ['0', '-1', ...BAD_NUMBERS], (s) => s.kind === 'circle'),
  'Capsule.radius not positive': onShape('radius', ['0', '-0.5', ...BAD_NUMBERS], (s) => s.kind === 'capsule'),
  'Polygon.radius negative': onShape('radius', ['-0.1', ...BAD_NUMBERS], (s) => s.kind === 'polygon'),
  'Segment.radius not 0': onShape('radius', ['0.1', '1', 'NaN'], (s) => s.kind === 'segment'),
  'Polygon.vertices degenerate, concave or too many': onShape(
    'vertices',
    [
      '[[0, 0], [1, 0], [2, 0]]',
      '[[0, 0], [1, 0]]',
      '[[0, 0], [2, 0], [2, 2], [1, 0.5], [0, 2]]',
      '[[0, 0], [1, 0], [1, 0], [0, 1]]',
      '[[0, 0], [1, 1], [1, 0], [0, 1]]',
      '[[0, 0], [NaN, 0], [0, 1]]',
      'Array.from({ length: 65 }, (_, i) => [Math.cos(i / 65 * 2 * Math.PI), Math.sin(i / 65 * 2 * Math.PI)])',
      "'triangle'",
      'null',
    ],
    (s) => s.kind === 'polygon',
  ),
  'Capsule.length below the weld distance': onShape('length', ['0', '1e-9', '-1', 'NaN'], (s) => s.kind === 'capsule'),
  'Capsule/Segment.setPoints coincident or not finite': (w, rng) => {
    const n = shape(w, rng, (s) => s.kind === 'capsule' || s.kind === 'segment');
    return n === null ? null : input(`$${n}.setPoints(${rng.pick(['[1, 1], [1, 1]', '[0, 0], [1e-9, 0]', '[0, 0], [NaN, 1]', 'null, [1, 0]'])})`);
  },
  'Capsule/Segment.p1/p2 onto the other point': (w, rng) => {
    const n = shape(w, rng, (s) => s.kind === 'capsule' || s.kind === 'segment');
    return n === null ? null : input(rng.chance(0.5) ? `$${n}.p1 = $${n}.p2` : `$${n}.p2 = $${n}.p1`);
  },
  'new shape with a bad option': (w, rng) =>
    input(
      rng.pick([
        'new Circle({ radius: 0 })',
        'new Circle({ radius: -1 })',
        'new Circle(null)',
        'new Circle({ radius: 1, density: 0 })',
        'new Circle({ radius: 1, friction: -1 })',
        "new Circle({ radius: 1, filter: { mask: 'all' } })",
        'new Polygon({ vertices: [[0, 0], [1, 0], [2, 0]] })',
        'new Polygon({ vertices: [[0, 0], [1, 0], [0, 1]], radius: -1 })',
        'Polygon.box(0, 1)',
        'Polygon.box(1, NaN)',
        'Polygon.box(-1, 1)',
        'Polygon.regular(1, 2)',
        'Polygon.regular(1, 65)',
        'Polygon.regular(1, 3.5)',
        'Polygon.regular(0, 5)',
        'new Capsule({ length: 1, radius: 0 })',
        'new Capsule({ length: 0, radius: 1 })',
        'new Capsule({ length: 1, p1: [0, 0], p2: [1, 0], radius: 0.1 })',
        'new Capsule({ p1: [0, 0], p2: [0, 0], radius: 0.1 })',
        'new Segment({ p1: [0, 0], p2: [0, 0] })',
        'new Segment({ p1: [0, 0], p2: [Infinity, 0] })',
        'new Segment({ p1: [0, 0], p2: [1, 0], offset: [NaN, 0] })',
        'new Circle({ radius: 1, fricton: 0.2 })',
        'Polygon.box(1, 1, { densty: 2 })',
        'new Capsule({ length: 1, radius: 0.2, filter: { maks: 1 } })',
        'new Segment({ p1: [0, 0], p2: [1, 0], p3: [2, 0] })',
      ]),
    ),

  // ---------------------------------------------------------------- constraints (every kind)
  'Constraint.frequency not positive': onConstraint('frequency', ['0', '-1', ...BAD_NUMBERS]),
  'Constraint.damping negative': onConstraint('damping', ['-1', ...BAD_NUMBERS]),
  'Constraint.maxForce negative or NaN': onConstraint('maxForce', ['-1', 'NaN', "'big'", 'null']),
  'Constraint.maxError negative or NaN': onConstraint('maxError', ['-0.5', 'NaN', 'null']),
  'Constraint.active not a boolean': onConstraint('active', BAD_BOOLEANS),
  'Constraint.stiff not a boolean': onConstraint('stiff', BAD_BOOLEANS),
  'Constraint.ignore not a boolean': onConstraint('ignore', BAD_BOOLEANS),
  'Constraint.breakUnderForce/breakUnderError/removeOnBreak not a boolean': (w, rng) => {
    const i = constraint(w, rng);
    return i === null ? null : input(`$${i.name}.${rng.pick(['breakUnderForce', 'breakUnderError', 'removeOnBreak'])} = ${rng.pick(BAD_BOOLEANS)}`);
  },
  'Constraint.bodyImpulse of a body it does not hold': (w, rng) => {
    const i = constraint(w, rng);
    if (i === null) return null;
    const c = w.constraint(i.name);
    const n = body(w, rng, (b) => !c.bodies.includes(b));
    return input(`$${i.name}.bodyImpulse(${n ? `$${n}` : 'null'})`);
  },
  'Joint.body1/body2 the same as the other slot': (w, rng) => {
    const i = constraint(w, rng, (i, c) => isJoint(i) && i.kind !== 'PulleyJoint' && c.body1 !== null && c.body2 !== null);
    return i === null ? null : input(rng.chance(0.5) ? `$${i.name}.body1 = $${i.name}.body2` : `$${i.name}.body2 = $${i.name}.body1`);
  },
  'Joint body slot set to a non-body': (w, rng) => {
    const i = constraint(w, rng, (i) => isJoint(i));
    return i === null ? null : input(`$${i.name}.body${i.kind === 'PulleyJoint' ? rng.int(1, 4) : rng.int(1, 2)} = ${rng.pick(['{}', '5', "'b'", '$space', 'new Circle({ radius: 1 })'])}`);
  },
  'PulleyJoint body pairs the same': (w, rng) => {
    const i = constraint(w, rng, (i, c) => i.kind === 'PulleyJoint' && c.body1 !== null && c.body3 !== null);
    return i === null ? null : input(rng.pick([`$${i.name}.body2 = $${i.name}.body1`, `$${i.name}.body4 = $${i.name}.body3`]));
  },
  'Joint anchors not finite vectors': (w, rng) => {
    const i = constraint(w, rng, (i, c) => isJoint(i) && 'anchor1' in c);
    return i === null ? null : input(`$${i.name}.anchor${i.kind === 'PulleyJoint' ? rng.int(1, 4) : rng.int(1, 2)} = ${rng.pick(BAD_VECTORS)}`);
  },
  'Joint.jointMin above jointMax': (w, rng) => {
    const i = constraint(w, rng, (i, c) => isJoint(i) && 'jointMin' in c && Number.isFinite(c.jointMax as number));
    if (i === null) return null;
    const c = w.constraint(i.name) as unknown as { jointMax: number };
    return input(`$${i.name}.jointMin = ${lit(round(c.jointMax + 0.5 + rng.float(0, 2)))}`);
  },
  'Joint.jointMax below jointMin': (w, rng) => {
    const i = constraint(w, rng, (i, c) => isJoint(i) && 'jointMin' in c && Number.isFinite(c.jointMin as number));
    if (i === null) return null;
    const c = w.constraint(i.name) as unknown as { jointMin: number };
    return input(`$${i.name}.jointMax = ${lit(round(c.jointMin - 0.5 - rng.float(0, 2)))}`);
  },
  'Joint.jointMin/jointMax NaN, +Infinity min, -Infinity max': (w, rng) => {
    const i = constraint(w, rng, (i, c) => isJoint(i) && 'jointMin' in c);
    return i === null ? null : input(rng.pick([`$${i.name}.jointMin = NaN`, `$${i.name}.jointMax = NaN`, `$${i.name}.jointMin = Infinity`, `$${i.name}.jointMax = -Infinity`, `$${i.name}.jointMin = '0'`]));
  },
  'DistanceJoint/PulleyJoint negative limits': (w, rng) => {
    const i = constraint(w, rng, (i) => i.kind === 'DistanceJoint' || i.kind === 'PulleyJoint');
    return i === null ? null : input(`$${i.name}.jointMin = ${lit(-round(rng.float(0.01, 2)))}`);
  },
  'Joint.ratio/phase/rate not finite': (w, rng) => {
    const i = constraint(w, rng, (i, c) => isJoint(i) && ('ratio' in c || 'phase' in c || 'rate' in c));
    if (i === null) return null;
    const c = w.constraint(i.name);
    const props = ['ratio', 'phase', 'rate'].filter((p) => p in c);
    return input(`$${i.name}.${rng.pick(props)} = ${rng.pick(BAD_NUMBERS)}`);
  },
  'LineJoint.direction zero or not finite': onConstraint('direction', ['[0, 0]', '{ x: 0, y: 0 }', '[-0, 0]', ...BAD_VECTORS], (i) => i.kind === 'LineJoint'),
  'new joint with bad options': (w, rng) => {
    const n = body(w, rng);
    const same = n ? [`new PivotJoint({ body1: $${n}, body2: $${n} })`, `new WeldJoint({ body1: $${n}, body2: $${n} })`, `new PulleyJoint({ body1: $${n}, body2: $${n} })`] : [];
    return input(
      rng.pick([
        ...same,
        'new DistanceJoint({ jointMin: 2, jointMax: 1 })',
        'new DistanceJoint({ jointMin: -1 })',
        'new LineJoint({ direction: [0, 0] })',
        'new AngleJoint({ jointMin: NaN })',
        'new AngleJoint({ jointMin: 1, jointMax: 0 })',
        'new WeldJoint({ phase: Infinity })',
        'new MotorJoint({ rate: NaN })',
        'new PivotJoint({ ancor1: [0, 0] })',
        'new WeldJoint({ stif: false })',
        'new DistanceJoint({ min: 0, max: 1 })',
        'new MotorJoint({ ratio: Infinity })',
        'new PulleyJoint({ ratio: Infinity })',
        'new PulleyJoint({ jointMin: 3, jointMax: 2 })',
        'new PivotJoint(5)',
        'new PivotJoint(null)',
        'new PivotJoint({ frequency: 0 })',
        'new PivotJoint({ damping: -1 })',
        'new PivotJoint({ maxForce: -1 })',
        'new PivotJoint({ anchor1: [NaN, 0] })',
        'new PivotJoint({ body1: {} })',
        "new PivotJoint({ active: 'yes' })",
      ]),
    );
  },

  // ---------------------------------------------------------------- user constraints
  'new UserConstraint with bad options': (w, rng) =>
    input(
      `new UserConstraint(${rng.pick([
        '0',
        '65',
        '1.5',
        "'two'",
        'null',
        '{ dimensions: 0 }',
        '{ dimensions: 2, hooks: { position: 5 } }',
        '{ dimensions: 1, hooks: { bogus() {} } }',
        '{ dimensions: 1, hooks: null }',
        '{ dimensions: 2, limits: [[0, 1]] }',
        '{ dimensions: 1, limits: [[2, 1]] }',
        '{ dimensions: 1, limits: [[NaN, 1]] }',
        '{ dimensions: 1, limits: [[Infinity, Infinity]] }',
        '{ dimensions: 1, velocityOnly: true, limits: [[0, 1]] }',
        "{ dimensions: 1, packedState: 'yes' }",
        "{ dimensions: 1, velocityOnly: 'no' }",
        "{ dimensions: 1, bodies: 'ab' }",
        '{ dimensions: 1, bodies: [{}] }',
        '{ dimensions: 1, frequency: -3 }',
      ])})`,
    ),
  'UserConstraint.setLimit with a bad row or limits': (w, rng) => {
    const i = constraint(w, rng, (i) => i.kind.startsWith('user:') || i.symbolic !== undefined);
    if (i === null) return null;
    const c = w.constraint(i.name) as unknown as { dimensions: number; velocityOnly: boolean };
    const options = [`${c.dimensions}, [0, 1]`, '-1, null', '0.5, null', '0, [1, 0]', '0, [NaN, 1]', '0, [Infinity, Infinity]', '0, [-Infinity, -Infinity]', '0, [0]', "0, 'loose'"];
    if (c.velocityOnly) options.push('0, [0, 1]');
    return input(`$${i.name}.setLimit(${rng.pick(options)})`);
  },
  'UserConstraint.limit(row) out of range': (w, rng) => {
    const i = constraint(w, rng, (i) => i.kind.startsWith('user:') || i.symbolic !== undefined);
    return i === null ? null : input(`$${i.name}.limit(${rng.pick(['-1', '64', '0.5', 'NaN'])})`);
  },
  'UserConstraint.hooks not hook functions': (w, rng) => {
    const i = constraint(w, rng, (i) => i.hooks !== undefined && i.kind !== 'user:subclass-rod' && i.kind !== 'user:bulk-pin');
    return i === null ? null : input(`$${i.name}.hooks = ${rng.pick(['5', 'null', '{ position: 1 }', '{ solve() {} }', "{ jacobian: 'J' }"])}`);
  },
  'UserConstraint.bodyList not bodies': (w, rng) => {
    const i = constraint(w, rng, (i) => i.kind.startsWith('user:') && i.kind !== 'user:subclass-rod');
    return i === null ? null : input(`$${i.name}.bodyList = ${rng.pick(["'ab'", '[{}]', '5', '[1, 2]'])}`);
  },
  'UserConstraint.registerBody of a non-body': (w, rng) => {
    const i = constraint(w, rng, (i) => i.kind === 'user:subclass-rod');
    return i === null ? null : input(`$${i.name}.registerBody(null, ${rng.pick(['{}', '5', "'b'"])})`);
  },
  'UserConstraint.bindVec2 not finite': (w, rng) => {
    const i = constraint(w, rng, (i) => i.kind.startsWith('user:'));
    return i === null ? null : input(`$${i.name}.bindVec2(${rng.pick(['NaN, 0', '0, Infinity', "'1', 2"])})`);
  },

  // ---------------------------------------------------------------- symbolic constraints
  'new SymbolicConstraint with a syntax error': (w, rng) =>
    ({ code: `new SymbolicConstraint(${JSON.stringify(rng.pick(['body a\nconstraint (a.position', 'body a, b\nconstraint a.rotation b.rotation )', 'body body1\nconstraint sin(body1.rotation)', 'constraint a = b', 'body a b', '@@', 'body a\nconstraint a.rotation\nlimit a 0 1 2']))})`, expect: 'syntax' }),
  'new SymbolicConstraint with a type error': (w, rng) =>
    ({ code: `new SymbolicConstraint(${JSON.stringify(rng.pick(['body a\nconstraint a.position + a.rotation', 'body a\nconstraint a.position * a.position', 'body a\nconstraint a.rotatino', 'body a\nconstraint a.position.x * inf', 'body a\nscalar s\nlimit a.rotation 0 1\nconstraint a.rotation - s', 'body a\nconstraint inf - inf + a.rotation']))})`, expect: 'type' }),
  'new SymbolicConstraint with a bad option': (w, rng) =>
    input(`new SymbolicConstraint(${rng.pick(["{ source: examples.WELD, stif: true }", "{ source: examples.WELD, compile: 'jit' }", '{ source: examples.WELD, scalars: { phse: 1 } }', '{ source: examples.WELD, scalars: { phase: NaN } }', '{ source: examples.WELD, vectors: { anchor1: [NaN, 0] } }', '{ source: examples.WELD, scalars: { anchor1: 1 } }', '{ source: examples.WELD, bodies: { body3: null } }', '{ source: 5 }', 'null', '{ source: examples.WELD, frequency: 0 }'])})`),
  'SymbolicConstraint.setScalar unknown, NaN or not a number': (w, rng) => {
    const i = constraint(w, rng, (i) => i.symbolic !== undefined);
    if (i === null) return null;
    const s = [...i.symbolic!.scalars, ...(i.symbolic!.range ?? []).slice(0, 2) as string[], ...(i.symbolic!.divisor ? [i.symbolic!.divisor] : [])];
    const name = s.length ? rng.pick(s) : 'phase';
    return input(rng.pick([`$${i.name}.setScalar('nope', 1)`, `$${i.name}.setScalar('${name}', NaN)`, `$${i.name}.setScalar('${name}', '1')`, `$${i.name}.setScalar('${name}')`, ...(i.symbolic!.vectors.length ? [`$${i.name}.setScalar('${i.symbolic!.vectors[0]}', 1)`] : [])]));
  },
  'SymbolicConstraint.setVector unknown or not finite': (w, rng) => {
    const i = constraint(w, rng, (i) => i.symbolic !== undefined);
    if (i === null) return null;
    const v = [...i.symbolic!.vectors, ...(i.symbolic!.nonZeroVector ? [i.symbolic!.nonZeroVector] : [])];
    const name = v.length ? rng.pick(v) : 'anchor1';
    return input(rng.pick([`$${i.name}.setVector('nope', [0, 0])`, `$${i.name}.setVector('${name}', ${rng.pick(BAD_VECTORS)})`, ...(i.symbolic!.scalars.length ? [`$${i.name}.setVector('${i.symbolic!.scalars[0]}', [0, 0])`] : [])]));
  },
  'SymbolicConstraint.setScalars/setVectors/set with a bad name or value': (w, rng) => {
    const i = constraint(w, rng, (i) => i.symbolic !== undefined);
    return i === null ? null : input(rng.pick([`$${i.name}.setScalars({ nope: 1 })`, `$${i.name}.setScalars(null)`, `$${i.name}.setVectors({ nope: [0, 0] })`, `$${i.name}.set({ bogus: {} })`, `$${i.name}.set(5)`, `$${i.name}.setScalars({ ${i.symbolic!.scalars[0] ?? 'x'}: NaN })`]));
  },
  'SymbolicConstraint.setBody unknown or not a body': (w, rng) => {
    const i = constraint(w, rng, (i) => i.symbolic !== undefined);
    const n = body(w, rng);
    return i === null ? null : input(rng.pick([`$${i.name}.setBody('nope', ${n ? `$${n}` : 'null'})`, `$${i.name}.setBody('body1', {})`, `$${i.name}.setBody('body1', 5)`]));
  },
  'SymbolicConstraint.getScalar/getVector/getBody unknown': (w, rng) => {
    const i = constraint(w, rng, (i) => i.symbolic !== undefined);
    return i === null ? null : input(`$${i.name}.${rng.pick(['getScalar', 'getVector', 'getBody'])}('nope')`);
  },
  'SymbolicConstraint range limit violated (jointMin > jointMax)': (w, rng) => {
    const i = constraint(w, rng, (i) => i.symbolic?.range !== undefined);
    if (i === null) return null;
    const [lo, hi] = i.symbolic!.range!;
    const c = w.constraint(i.name) as unknown as { getScalar(n: string): number };
    const max = c.getScalar(hi);
    const min = c.getScalar(lo);
    const options = [`$${i.name}.setScalars({ ${lo}: 2, ${hi}: 1 })`];
    if (Number.isFinite(max)) options.push(`$${i.name}.setScalar('${lo}', ${lit(round(max + 1 + rng.float(0, 2)))})`);
    if (Number.isFinite(min)) options.push(`$${i.name}.setScalar('${hi}', ${lit(round(min - 1 - rng.float(0, 2)))})`);
    if (!i.symbolic!.range![2]) options.push(`$${i.name}.setScalars({ ${lo}: -1, ${hi}: 1 })`);
    return { code: rng.pick(options), expect: 'limit' };
  },
  'SymbolicConstraint LINE direction zero': (w, rng) => {
    const i = constraint(w, rng, (i) => i.symbolic?.nonZeroVector !== undefined);
    return i === null ? null : { code: `$${i.name}.setVector('direction', [0, 0])`, expect: 'limit' };
  },
};

export const INVALID_KINDS = Object.keys(INVALID);

/** What an invalid call is about, from its kind's name: a group is picked first, then a kind in it. */
function group(kind: string): string {
  const k = kind.replace(/^new /, '');
  if (k.startsWith('Space')) return 'space';
  if (k.startsWith('Body')) return 'body';
  if (/^(Shape|Circle|Capsule|Polygon|Segment|shape)/.test(k)) return 'shape';
  if (k.startsWith('UserConstraint')) return 'user';
  if (k.startsWith('SymbolicConstraint')) return 'symbolic';
  return 'constraint';
}
const GROUPS = new Map<string, string[]>();
for (const k of INVALID_KINDS) GROUPS.set(group(k), [...(GROUPS.get(group(k)) ?? []), k]);
const GROUP_NAMES = [...GROUPS.keys()];

/**
 * Applies one random invalid call (it must be rejected without a trace); false when the scene
 * ended. The group (space, bodies, shapes, joints, user, symbolic) is picked first, so the kinds
 * about rarer objects get their share.
 */
export function invalidInput(run: import('./run.js').SceneRun, rng: Rng): boolean {
  for (let attempt = 0; attempt < 12; attempt++) {
    const kinds = GROUPS.get(rng.pick(GROUP_NAMES))!;
    const kind = rng.pick(kinds);
    const bad = INVALID[kind]!(run.w, rng);
    if (bad === null) continue;
    return run.reject(bad.code, kind, bad.expect);
  }
  return true;
}

export { v2 };
