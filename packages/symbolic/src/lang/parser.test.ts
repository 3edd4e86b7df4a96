import { describe, expect, it } from 'vitest';
import { SymbolicSyntaxError } from '../errors.js';
import { DISTANCE, LINE, MOTOR, PIVOT, WELD } from '../examples.js';
import type { Node } from './ast.js';
import { MAX_DEPTH, parse } from './parser.js';

/** A compact rendering of the tree: shows exactly how the parser grouped things. */
function show(n: Node): string {
  switch (n.kind) {
    case 'number':
      return String(n.value);
    case 'constant':
    case 'name':
      return n.name;
    case 'member':
      return `${n.object}.${n.field}`;
    case 'component':
      return `${show(n.operand)}.${n.index === 0 ? 'x' : 'y'}`;
    case 'let':
      return `(let ${n.name} = ${show(n.value)} in ${show(n.body)})`;
    case 'binary':
      return `(${show(n.left)} ${n.op} ${show(n.right)})`;
    case 'negate':
      return `(-${show(n.operand)})`;
    case 'unit':
      return `(unit ${show(n.operand)})`;
    case 'relative':
      return `(relative ${show(n.angle)} ${show(n.operand)})`;
    case 'perp':
      return `(perp ${show(n.operand)})`;
    case 'norm':
      return `|${show(n.operand)}|`;
    case 'literal':
      return `[${n.rows.map((r) => r.map(show).join(' ')).join(' ; ')}]`;
    case 'block':
      return `{${n.parts.map(show).join(', ')}}`;
  }
}

const expr = (src: string): string => {
  const d = parse(`constraint ${src}`).declarations[0]!;
  return show((d as { expr: Node }).expr);
};

function syntaxError(src: string): SymbolicSyntaxError {
  try {
    parse(src);
  } catch (e) {
    if (e instanceof SymbolicSyntaxError) return e;
    throw e;
  }
  throw new Error(`no error for ${JSON.stringify(src)}`);
}

describe('parser: precedence and forms', () => {
  it('binds, loosest to tightest: let, + -, outer, dot cross, * /, prefix, atoms', () => {
    expect(expr('a + b * c')).toBe('(a + (b * c))');
    expect(expr('a - b - c')).toBe('((a - b) - c)');
    expect(expr('a dot b * c')).toBe('(a dot (b * c))');
    expect(expr('a outer b dot c + d')).toBe('((a outer (b dot c)) + d)');
    expect(expr('a cross b dot c')).toBe('((a cross b) dot c)');
    expect(expr('-a * b')).toBe('((-a) * b)');
    expect(expr('unit a + b')).toBe('((unit a) + b)');
    expect(expr('relative -t v')).toBe('(relative (-t) v)');
    expect(expr('let x = 1 in x + 2')).toBe('(let x = 1 in (x + 2))');
    expect(expr('2 * let x = a in x + 1')).toBe('(2 * (let x = a in (x + 1)))');
  });

  it('reads members, components, norms, perp, literals and blocks', () => {
    expect(expr('body1.position.x - v.y')).toBe('(body1.position.x - v.y)');
    expect(expr('(a + b).x')).toBe('(a + b).x');
    expect(expr('-a.x')).toBe('(-a.x)');
    expect(expr('||a| - b|')).toBe('|(|a| - b)|');
    expect(expr('[a + b] perp')).toBe('(perp (a + b))');
    // The brackets read as a literal when they hold entries, as they would without perp.
    expect(expr('[1 -2] perp')).toBe('(perp [1 (-2)])');
    expect(expr('[s t] perp')).toBe('(perp [s t])');
    expect(expr('[(a - b)] perp')).toBe('(perp (a - b))');
    expect(expr('[[v] perp] perp')).toBe('(perp (perp v))');
    expect(expr('[1 -2]')).toBe('[1 (-2)]');
    expect(expr('[1, 2]')).toBe('[1 2]');
    expect(expr('[1 ; 2]')).toBe('[1 ; 2]');
    expect(expr('[a (b + c) ; -d inf]')).toBe('[a (b + c) ; (-d) inf]');
    expect(expr('{ a - b c |d| }')).toBe('{(a - b), c, |d|}');
    expect(expr('{ a (-b) }')).toBe('{a, (-b)}');
    expect(expr('{ { a b } c }')).toBe('{{a, b}, c}');
  });

  it('parses the declarations: lists, limits and the constraint', () => {
    const t = parse('body b1, b2\nscalar s\nvector v, w\nlimit s (-inf) 2\nlimit constraint { 0 s } { 1 inf }\nconstraint { b1.rotation b2.rotation }');
    expect(t.declarations.map((d) => d.kind)).toEqual(['body', 'scalar', 'vector', 'varLimit', 'rowLimit', 'constraint']);
    const lim = t.declarations[3] as { expr: Node; lower: Node; upper: Node };
    expect([show(lim.expr), show(lim.lower), show(lim.upper)]).toEqual(['s', '(-inf)', '2']);
  });

  it('accepts the three seed examples, the pivot and the motor verbatim', () => {
    for (const src of [WELD, DISTANCE, LINE, PIVOT, MOTOR]) expect(() => parse(src)).not.toThrow();
    const line = parse(LINE).declarations.find((d) => d.kind === 'constraint') as { expr: Node };
    expect(show(line.expr)).toBe(
      '(let r1 = (relative body1.rotation anchor1) in (let r2 = (relative body2.rotation anchor2) in (let dir = (unit (relative body1.rotation direction)) in ' +
        '(let del = ((body2.position + r2) - (body1.position + r1)) in {(dir dot del), (dir cross del)}))))',
    );
  });
});

describe('parser: errors say where, what was expected and what was found', () => {
  it('formats the message with the location, the source line and a caret', () => {
    const e = syntaxError('body b1\nconstraint b1.rotation +\n');
    expect(e.message).toBe("expected an expression after '+', found the end of the source at 3:1\n  3 | \n    | ^");
    const f = syntaxError('body b1\nconstraint (b1.rotation + 1');
    expect(f.reason).toBe("expected ')' to close the '(' at 2:12, found the end of the source");
  });

  it('names the offending token', () => {
    expect(syntaxError('constraint 1 + )').reason).toBe("expected an expression after '+', found ')'");
    expect(syntaxError('scalar in').reason).toBe("expected a scalar name, found keyword 'in', which cannot be used as a name");
    expect(syntaxError('body b1 b2').reason).toBe("missing ',' between 'b1' and 'b2' in the body declaration");
    expect(syntaxError('body b\nconstraint b.rotation\nin').reason).toBe("expected a declaration (body, scalar, vector, limit, constraint, velocity), found keyword 'in'");
    expect(syntaxError('constraint let x 1 in x').reason).toBe("expected '=' after 'let x', found number 1");
    expect(syntaxError('constraint let x = 1 x').reason).toBe("expected 'in' after the value of x, found name 'x'");
    expect(syntaxError('constraint b1.').reason).toBe("expected a field name after 'b1.' (position, rotation, velocity or angularVel), found the end of the source");
    expect(syntaxError('constraint (a).z').reason).toBe("expected a component (x or y) after '.', found name 'z'");
  });

  it('explains literal shapes, empty blocks and initial values', () => {
    expect(syntaxError('constraint [1 2 3]').reason).toBe('a literal must be [a b] or [a ; b] (a vector) or [a b ; c d] (a matrix), found entries shaped [3]');
    expect(syntaxError('constraint [v]').reason).toMatch(/for the perpendicular of a vector write \[v\] perp/);
    expect(syntaxError('constraint [1 a + b]').reason).toBe("expected a literal entry or ']', found '+' (entries are numbers, names or parenthesised expressions)");
    expect(syntaxError('constraint {}').reason).toBe('empty block: a block { … } needs at least one expression');
    expect(syntaxError('scalar ratio = 1').reason).toMatch(/takes names only; set values with setScalar/);
    const e = syntaxError('constraint { a b');
    expect(e.reason).toBe("expected '}' to close the '{' at 1:12, found the end of the source");
  });

  it('rejects nesting deeper than MAX_DEPTH cleanly (no stack overflow)', () => {
    const deep = `constraint ${'('.repeat(MAX_DEPTH + 5)}1${')'.repeat(MAX_DEPTH + 5)}`;
    expect(syntaxError(deep).reason).toMatch(/nested too deeply/);
    const chain = `constraint ${Array.from({ length: MAX_DEPTH + 5 }, () => 'a').join(' + ')}`;
    expect(syntaxError(chain).reason).toMatch(/too deep/);
    const minus = `constraint ${'-'.repeat(MAX_DEPTH + 5)}a`;
    expect(syntaxError(minus).reason).toMatch(/nested too deeply|too deep/);
    // Just under the limit is fine.
    expect(() => parse(`constraint ${Array.from({ length: MAX_DEPTH - 2 }, () => 'a').join(' + ')}`)).not.toThrow();
  });
});

describe('parser: as nape-symbolic reads it', () => {
  it("relative's vector is a whole expression (nape-symbolic: relative name expr)", () => {
    expect(expr('relative body1.rotation anchor1 + x')).toBe('(relative body1.rotation (anchor1 + x))');
    expect(expr('relative t v * 2')).toBe('(relative t (v * 2))');
    expect(expr('relative t a - b dot c')).toBe('(relative t (a - (b dot c)))');
    expect(expr('x + relative t a - b')).toBe('(x + (relative t (a - b)))');
    expect(expr('2 * relative t v')).toBe('(2 * (relative t v))');
    expect(expr('(relative t v) * 2 + w')).toBe('(((relative t v) * 2) + w)');
    expect(expr('relative t let u = v in u + w')).toBe('(relative t (let u = v in (u + w)))');
    // It ends where its expression ends: at `in`, a closing bracket, or beside the next part.
    expect(expr('let r = relative t a + b in r - c')).toBe('(let r = (relative t (a + b)) in (r - c))');
    expect(expr('|relative t a + b| + c')).toBe('(|(relative t (a + b))| + c)');
    expect(expr('{ relative t a + b  c }')).toBe('{(relative t (a + b)), c}');
  });

  it('a sign starts the next expression of a limit or a block: -inf needs no parentheses', () => {
    const limit = (src: string): string[] => {
      const d = parse(src).declarations[0] as { expr?: Node; lower: Node; upper: Node };
      return [...(d.expr ? [d.expr] : []), d.lower, d.upper].map(show);
    };
    expect(limit('limit jointMin -inf jointMax')).toEqual(['jointMin', '(-inf)', 'jointMax']);
    expect(limit('limit jointMin (-inf) jointMax')).toEqual(['jointMin', '(-inf)', 'jointMax']);
    expect(limit('limit constraint -inf 0')).toEqual(['(-inf)', '0']);
    expect(limit('limit constraint { -inf 0 } { jointMax -1 }')).toEqual(['{(-inf), 0}', '{jointMax, (-1)}']);
    expect(limit('limit x -1 -2')).toEqual(['x', '(-1)', '(-2)']);
    // Spaced on both sides, or on neither, it subtracts.
    expect(limit('limit x - 1 0 1')).toEqual(['(x - 1)', '0', '1']);
    expect(limit('limit x-1 0 1')).toEqual(['(x - 1)', '0', '1']);
    expect(expr('{ a -b }')).toBe('{a, (-b)}');
    expect(expr('{ a - b  c-d  e -f }')).toBe('{(a - b), (c - d), e, (-f)}');
    expect(expr('{ relative t v -w }')).toBe('{(relative t v), (-w)}');
    // Inside brackets and a let's value nothing stands beside it: the sign subtracts.
    expect(expr('{ (a -b) |c -d| [(e -f)] perp }')).toBe('{(a - b), |(c - d)|, (perp (e - f))}');
    expect(expr('{ let x = a -b in x }')).toBe('{(let x = (a - b) in x)}');
    // The constraint itself stands alone.
    expect(expr('a -b')).toBe('(a - b)');
  });

  it('the messages for a token that cannot continue say what was meant', () => {
    const H = 'body b1, b2\nscalar s\n';
    const cases: [string, string, [number, number]][] = [
      [`${H}constraint sin(b1.rotation)`, "unknown function 'sin': the language has no function calls (its operations are + - * / dot cross outer, unit v, relative θ v, |x| and [v] perp; rotate vectors with relative θ v); to multiply, write sin * (…)", [3, 12]],
      [`${H}constraint sqrt (b1.rotation)`, "unknown function 'sqrt': the language has no function calls (its operations are + - * / dot cross outer, unit v, relative θ v, |x| and [v] perp; |v| is the length of a vector); to multiply, write sqrt * (…)", [3, 17]],
      [`${H}constraint { b1.rotation foo(s) }`, "unknown function 'foo': the language has no function calls (its operations are + - * / dot cross outer, unit v, relative θ v, |x| and [v] perp); to multiply, write foo * (…)", [3, 26]],
      [`${H}constraint b1.rotation b2.rotation`, "missing operator between 'b1.rotation' and 'b2'", [3, 24]],
      [`${H}constraint 2 b1.rotation`, "missing operator between '2' and 'b1'", [3, 14]],
      [`${H}constraint b1.rotation + s\n  b2.rotation`, "missing operator between 's' and 'b2'; to stack rows, put them in a block { … }", [4, 3]],
      [`${H}constraint (b1.rotation s)`, "missing operator between 'b1.rotation' and 's'", [3, 25]],
      [`${H}constraint |b1.position s|`, "missing operator between 'b1.position' and 's'", [3, 25]],
      [`${H}limit s 0 1 2\nconstraint b1.rotation`, "missing operator between '1' and '2' (a limit is `limit expr lower upper`, three expressions side by side)", [3, 13]],
      [`${H}limit s 0 1 -2\nconstraint b1.rotation`, 'a sign here starts a fourth expression, but a limit is `limit expr lower upper`, three expressions side by side; for a difference write `a - b` (a space on both sides)', [3, 13]],
      [`${H}b1.rotation - b2.rotation`, 'an expression at the top level needs `constraint` before it (or `velocity`, for a velocity constraint)', [3, 1]],
      [`${H}limit s 0 1\n  let d = b2.position - b1.position in |d|`, 'an expression at the top level needs `constraint` before it (or `velocity`, for a velocity constraint)', [4, 3]],
      [`${H}  let d = b2.position - b1.position in |d|`, 'an expression at the top level needs `constraint` before it (or `velocity`, for a velocity constraint)', [3, 3]],
      [`${H}|b2.position|`, 'an expression at the top level needs `constraint` before it (or `velocity`, for a velocity constraint)', [3, 1]],
      [`${H}constraint b1.rotation = b2.rotation`, "'=' is not an operator here: a constraint is an expression that the solver drives to 0; for a = b write `a - b`", [3, 24]],
      [`${H}velocity b1.angularVel = s`, "'=' is not an operator here: a velocity constraint is an expression that the solver drives to 0; for a = b write `a - b`", [3, 24]],
      [`${H}limit s = 1\nconstraint b1.rotation`, "'=' is not an operator here: a limit is `limit expr lower upper`, three expressions side by side (lower ≤ expr ≤ upper)", [3, 9]],
      [`${H}s = 1\nconstraint b1.rotation`, "'s = …' is not a declaration: parameters get their values from setScalar/setVector (or the options' scalars and vectors), not from the source", [3, 1]],
      [`${H}constraint b1.rotation)`, "unmatched ')': nothing is open here", [3, 23]],
    ];
    for (const [src, reason, [line, column]] of cases) {
      const e = syntaxError(src);
      expect(e.reason, src).toBe(reason);
      expect([e.line, e.column], src).toEqual([line, column]);
    }
  });
});
