import { describe, expect, it } from 'vitest';
import { SymbolicError, SymbolicTypeError } from '../errors.js';
import { DISTANCE, LINE, MOTOR, PIVOT, WELD } from '../examples.js';
import { MAX_EXPR_DEPTH, MAX_ROWS, check } from './checker.js';

function typeError(src: string): SymbolicTypeError {
  try {
    check(src);
  } catch (e) {
    if (e instanceof SymbolicTypeError) return e;
    throw e;
  }
  throw new Error(`no error for ${JSON.stringify(src)}`);
}

const H = 'body b1, b2\nscalar s, t\nvector v, w\n';
/** The reason for a constraint expression that fails to check. */
const reason = (expr: string, decl = 'constraint'): string => typeError(`${H}${decl} ${expr}`).reason;

describe('checker: programs', () => {
  it('checks the seed examples, the pivot and the motor: kinds, rows, bodies, parameters, limits', () => {
    const summary = (src: string) => {
      const p = check(src);
      return {
        kind: p.kind,
        rows: p.rows,
        bodies: p.bodies.map((b) => b.name),
        params: [...p.scalars, ...p.vectors].map((d) => `${d.name}@${d.slot}`),
        limits: p.variableLimits.map((l) => `${l.text} reads ${l.params.join(',')}`),
        rowLimit: p.rowLimit?.text ?? null,
      };
    };
    expect(summary(WELD)).toEqual({ kind: 'position', rows: 3, bodies: ['body1', 'body2'], params: ['phase@4', 'anchor1@0', 'anchor2@2'], limits: [], rowLimit: null });
    expect(summary(DISTANCE)).toEqual({
      kind: 'position',
      rows: 1,
      bodies: ['body1', 'body2'],
      params: ['jointMin@4', 'jointMax@5', 'anchor1@0', 'anchor2@2'],
      limits: ['limit jointMin 0 jointMax reads jointMin,jointMax'],
      rowLimit: 'limit constraint jointMin jointMax',
    });
    expect(summary(LINE)).toMatchObject({ rows: 2, limits: ['limit jointMin (-inf) jointMax reads jointMin,jointMax', 'limit |direction| eps inf reads direction'], rowLimit: 'limit constraint { jointMin 0 } { jointMax 0 }' });
    expect(summary(PIVOT)).toMatchObject({ kind: 'position', rows: 2 });
    expect(summary(MOTOR)).toMatchObject({ kind: 'velocity', rows: 1, params: ['rate@0', 'ratio@1'] });
  });

  it('accepts declarations in any order, components, and lets that shadow lets', () => {
    const p = check('constraint let a = b1.position in let a = a.x in a + s\nscalar s\nbody b1');
    expect(p.rows).toBe(1);
    expect(check(`${H}constraint { v.x + b1.rotation  (b2.position - w).y }`).rows).toBe(2);
  });
});

describe('checker: errors a person can act on', () => {
  it('reports type mismatches at the operator: "cannot add scalar and vector at 4:18"', () => {
    const e = typeError('body body1\nvector anchor1\nconstraint\n  body1.rotation + anchor1 # oops\n');
    expect(e).toBeInstanceOf(SymbolicError);
    expect(e.message).toBe('cannot add scalar and vector at 4:18\n  4 |   body1.rotation + anchor1 # oops\n    |                  ^');
    expect([e.line, e.column]).toEqual([4, 18]);
  });

  it('suggests the closest name: "unknown body field \'rotatino\' at 3:24, did you mean \'rotation\'?"', () => {
    const e = typeError('body body1\nscalar s\nconstraint 100 + body1.rotatino');
    expect(e.message.split('\n')[0]).toBe("unknown body field 'rotatino' at 3:24, did you mean 'rotation'? (a body has position, rotation, velocity and angularVel)");
    expect(typeError('body body1\nconstraint body1.spin').message.split('\n')[0]).toBe("unknown body field 'spin' at 2:18, a body has position, rotation, velocity and angularVel");
    expect(reason('b1.rotation + sx')).toBe("unknown name 'sx'");
    expect(typeError(`${H}constraint b1.rotation + sx`).hint).toBe("did you mean 's'?");
    expect(typeError(`${H}constraint b1.rotation + zzzz`).hint).toBe('');
  });

  it('explains every operator that does not fit its operands', () => {
    expect(reason('b1.position - s')).toBe('cannot subtract scalar from vector');
    expect(reason('b1.position * v')).toBe('cannot multiply vector by vector (use dot, cross or outer)');
    expect(reason('b1.position * (v outer w)')).toBe('cannot multiply vector by matrix (only matrix * vector is defined)');
    expect(reason('b1.position / v')).toBe('cannot divide vector by vector (the divisor must be a scalar)');
    expect(reason('s dot b1.position')).toBe('dot needs two vectors, got scalar and vector');
    expect(reason('b1.rotation cross s')).toBe('cross needs two vectors, or a scalar and a vector, got scalar and scalar');
    expect(reason('b1.position outer s')).toBe('outer needs two vectors, got vector and scalar');
    expect(reason('unit b1.rotation')).toBe('unit needs a vector, got scalar');
    expect(reason('relative v b1.rotation')).toBe('relative needs an angle (a scalar) first, as in relative body1.rotation anchor1; got vector');
    expect(reason('relative b1.rotation s')).toBe('relative rotates a vector, got scalar');
    expect(reason('[b1.rotation] perp')).toBe('perp needs a vector, got scalar');
    expect(reason('|v outer b1.position|')).toBe('|…| is the absolute value of a scalar or the length of a vector, not defined for a matrix');
    expect(reason('[v 1] + b1.position')).toBe('literal entries must be scalars, got vector');
    expect(reason('b1.rotation.x')).toBe('only vectors have components .x and .y, this is a scalar');
    expect(reason('b1.rotation + s.x')).toBe("'s' is a scalar; only bodies have fields and only vectors have components .x and .y");
    expect(reason('b1.rotation + v.z')).toBe("a vector has components x and y, not 'z'");
  });

  it('keeps bodies, blocks and matrices where they belong', () => {
    expect(reason('b1 + s')).toBe("'b1' is a body; use one of its fields: b1.position, b1.rotation, b1.velocity, b1.angularVel");
    expect(reason('{ b1.rotation s } + s')).toBe("a block { … } cannot be used with '+'; blocks only stack the rows of a constraint or a limit");
    expect(reason('(b1.position outer v)')).toBe('a constraint must be a scalar, a vector or a block { … } of them, but this is a matrix');
    expect(reason('{ b1.rotation (v outer w) }')).toBe('a block { … } stacks scalars and vectors; this part is a matrix');
    expect(reason('let s = 1 in b1.rotation')).toBe("let s would hide the scalar 's' declared at 2:8; pick another name");
  });

  it('checks the declarations', () => {
    expect(typeError('body a\nscalar a\nconstraint a.rotation').reason).toBe("'a' is already declared as a body at 1:6");
    expect(typeError('body a\nconstraint a.rotation\nconstraint a.rotation').reason).toBe('only one constraint per source; the first is at 2:1');
    expect(typeError('body a\n').reason).toMatch(/^no constraint declared: add `constraint <expression>`/);
    expect(typeError('scalar s\nconstraint s').reason).toBe('no body declared: add `body body1, body2` before using bodies in the constraint');
    expect(reason('s + 1')).toBe('the constraint does not read any body (use body.position or body.rotation)');
    const rows = `{ ${Array.from({ length: MAX_ROWS / 2 + 1 }, () => 'b1.position').join(' ')} }`;
    expect(reason(rows)).toBe(`a constraint has at most ${MAX_ROWS} rows, this one has ${MAX_ROWS + 2}`);
  });

  it('keeps velocities out of position constraints and velocity constraints affine', () => {
    expect(reason('b1.position + b1.velocity')).toBe(
      'a position constraint cannot read b1.velocity: its velocity is derived from it; declare `velocity …` instead of `constraint …` to constrain velocities',
    );
    expect(reason('s', 'velocity')).toBe('a velocity constraint must read a body velocity (body.velocity or body.angularVel)');
    const e = typeError(`${H}velocity b1.rotation * b2.angularVel - b1.angularVel * b1.angularVel`);
    expect(e.reason).toBe('a velocity constraint must be affine in the body velocities, but this multiplies two velocity-dependent terms');
    expect(e.column).toBe(40); // at b1.angularVel * b1.angularVel
    expect(reason('s / b1.angularVel', 'velocity')).toBe('a velocity constraint must be affine in the body velocities, but this divides by a velocity-dependent term');
    expect(reason('|b1.velocity|', 'velocity')).toBe('a velocity constraint must be affine in the body velocities, but this takes the length of a velocity-dependent term');
    expect(reason('relative b1.angularVel v', 'velocity')).toBe('a velocity constraint must be affine in the body velocities, but this rotates by a velocity-dependent angle');
    // Affine: velocities times position-dependent terms, sums, rotations of velocities.
    expect(check(`${H}velocity (relative b1.rotation v) dot (b2.velocity - b1.velocity) + s * b1.angularVel - t`).kind).toBe('velocity');
  });

  it('checks limits', () => {
    expect(typeError(`${H}limit s b1.rotation 1\nconstraint b1.rotation`).reason).toBe(
      'a limit cannot read b1.rotation: limits are checked on the parameters, before the step',
    );
    expect(typeError(`${H}limit v 0 1\nconstraint b1.rotation`).reason).toBe('the limited expression of a limit must be a scalar, got vector (limit its length |v| instead)');
    expect(typeError(`${H}limit constraint 0 1\nconstraint b1.position`).reason).toBe('the lower bound has 1 row but the constraint has 2; give one bound per row, e.g. { lo1 lo2 }');
    expect(typeError(`${H}limit constraint v { 1 2 3 }\nconstraint b1.position`).reason).toBe('the upper bound has 3 rows but the constraint has 2; give one bound per row, e.g. { lo1 lo2 }');
    expect(typeError(`${H}limit constraint 0 1\nlimit constraint 0 1\nconstraint b1.rotation`).reason).toBe('the constraint already has row limits at 4:1');
    expect(typeError(`${H}limit constraint 0 1\nvelocity b1.angularVel`).reason).toBe('limit constraint applies to position constraints; a velocity constraint is bounded by maxForce instead');
    const p = check(`${H}limit constraint v { s t }\nconstraint b1.position`);
    expect(p.rowLimit!.lower.length).toBe(2);
    expect(p.rowLimit!.params).toEqual(['v', 's', 't']);
  });

  it('bounds the depth of expanded lets', () => {
    const chain = (x: string): string => Array.from({ length: 150 }, () => x).join(' + ');
    const src = `${H}constraint let a = ${chain('s')} in let b = ${chain('a')} in let c = ${chain('b')} in b1.rotation + c`;
    expect(typeError(src).reason).toBe(`expression too deep after expanding lets (more than ${MAX_EXPR_DEPTH} levels)`);
  });
});
