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
    expect(syntaxError('body b\nconstraint b.rotation\ndot').reason).toBe("expected a declaration (body, scalar, vector, limit, constraint, velocity), found keyword 'dot'");
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
