/**
 * fast-check arbitraries of well-typed sources: random expressions over two bodies, two
 * scalars and two vectors, using every operation of the language. Every operation is
 * parenthesised, so the intended tree is the parsed one (precedence has its own tests).
 * Divisions are by 1 + x² (never zero), so the expressions stay smooth where the
 * finite-difference checks evaluate them; `unit` and `|v|` can still meet a near-zero vector,
 * which the checks detect (two step sizes disagree) and skip.
 */
import fc from 'fast-check';

export const HEADER = 'body b1, b2\nscalar s1, s2\nvector v1, v2\n';

type T = 'scalar' | 'vector' | 'matrix';

const num = fc.integer({ min: -20, max: 20 }).map((n) => (n < 0 ? `(${n / 10})` : String(n / 10)));

function leaves(type: T): fc.Arbitrary<string> {
  if (type === 'scalar') return fc.oneof(num, fc.constantFrom('s1', 's2', 'b1.rotation', 'b2.rotation'));
  if (type === 'vector') return fc.oneof(fc.constantFrom('b1.position', 'b2.position', 'v1', 'v2'), fc.tuple(num, num).map(([a, b]) => `[${a} ${b}]`));
  return fc.tuple(num, num, num, num).map(([a, b, c, d]) => `[${a} ${b} ; ${c} ${d}]`);
}

/** A random expression of `type`, at most `depth` operations deep. */
export function expression(type: T, depth: number): fc.Arbitrary<string> {
  if (depth <= 0) return leaves(type);
  const s = (): fc.Arbitrary<string> => expression('scalar', depth - 1);
  const v = (): fc.Arbitrary<string> => expression('vector', depth - 1);
  const m = (): fc.Arbitrary<string> => expression('matrix', depth - 1);
  const two = <A, B>(a: fc.Arbitrary<A>, b: fc.Arbitrary<B>, f: (a: A, b: B) => string): fc.Arbitrary<string> => fc.tuple(a, b).map(([x, y]) => f(x, y));
  const smooth = (x: string): string => `(1 + ${x} * ${x})`;
  if (type === 'scalar') {
    return fc.oneof(
      { weight: 3, arbitrary: leaves('scalar') },
      two(s(), s(), (a, b) => `(${a} + ${b})`),
      two(s(), s(), (a, b) => `(${a} - ${b})`),
      two(s(), s(), (a, b) => `(${a} * ${b})`),
      two(s(), s(), (a, b) => `(${a} / ${smooth(b)})`),
      two(v(), v(), (a, b) => `(${a} dot ${b})`),
      two(v(), v(), (a, b) => `(${a} cross ${b})`),
      v().map((a) => `|${a}|`),
      s().map((a) => `(-${a})`),
      v().map((a) => `(${a}).y`),
      two(s(), s(), (a, b) => `(let x${depth} = ${a} in (x${depth} * ${b} + x${depth}))`),
    );
  }
  if (type === 'vector') {
    return fc.oneof(
      { weight: 3, arbitrary: leaves('vector') },
      two(v(), v(), (a, b) => `(${a} + ${b})`),
      two(v(), v(), (a, b) => `(${a} - ${b})`),
      two(s(), v(), (a, b) => `(${a} * ${b})`),
      two(v(), s(), (a, b) => `(${a} * ${b})`),
      two(m(), v(), (a, b) => `(${a} * ${b})`),
      two(v(), s(), (a, b) => `(${a} / ${smooth(b)})`),
      two(s(), v(), (a, b) => `(relative ${a} ${b})`),
      v().map((a) => `[${a}] perp`),
      two(s(), v(), (a, b) => `(${a} cross ${b})`),
      two(v(), s(), (a, b) => `(${a} cross ${b})`),
      v().map((a) => `unit(${a})`),
      v().map((a) => `(-${a})`),
      two(s(), s(), (a, b) => `[(${a}) (${b})]`),
    );
  }
  return fc.oneof(
    { weight: 2, arbitrary: leaves('matrix') },
    two(v(), v(), (a, b) => `(${a} outer ${b})`),
    two(m(), m(), (a, b) => `(${a} + ${b})`),
    two(m(), m(), (a, b) => `(${a} * ${b})`),
    two(s(), m(), (a, b) => `(${a} * ${b})`),
  );
}

/**
 * A position constraint: a scalar, a vector or a block of both, each part made to read a body
 * (a constraint that reads none is rejected by the checker).
 */
export function positionSource(depth: number): fc.Arbitrary<string> {
  const part = fc.oneof(
    expression('scalar', depth).map((e) => `(${e} + b1.rotation)`),
    expression('vector', depth).map((e) => `(${e} + b2.position)`),
  );
  return fc.array(part, { minLength: 1, maxLength: 3 }).map((parts) => `${HEADER}constraint ${parts.length === 1 ? parts[0] : `{ ${parts.join('\n  ')} }`}\n`);
}

/** Random parameter values for HEADER's scalars and vectors (the parameter array). */
export const params = fc.array(fc.double({ min: -1.5, max: 1.5, noNaN: true }), { minLength: 6, maxLength: 6 }).map((a) => Float64Array.from(a));

/** A random body for test-support/state.ts. */
export const testBody = fc.record({
  px: fc.double({ min: -2, max: 2, noNaN: true }),
  py: fc.double({ min: -2, max: 2, noNaN: true }),
  angle: fc.double({ min: -3, max: 3, noNaN: true }),
  lcx: fc.double({ min: -0.5, max: 0.5, noNaN: true }),
  lcy: fc.double({ min: -0.5, max: 0.5, noNaN: true }),
  vx: fc.double({ min: -2, max: 2, noNaN: true }),
  vy: fc.double({ min: -2, max: 2, noNaN: true }),
  w: fc.double({ min: -3, max: 3, noNaN: true }),
});

/**
 * A velocity constraint, affine in the velocities by construction: position-dependent
 * coefficients times velocities, plus a position-dependent term.
 */
export function velocitySource(depth: number): fc.Arbitrary<string> {
  return fc
    .tuple(expression('vector', depth), expression('scalar', depth), expression('vector', depth), expression('scalar', depth))
    .map(([a, s, c, t]) => `${HEADER}velocity (${a}) dot b2.velocity + (${s}) * b1.angularVel + (${c}) cross b1.velocity - b2.angularVel + ${t}\n`);
}
