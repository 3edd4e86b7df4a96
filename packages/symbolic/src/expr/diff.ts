/**
 * Symbolic differentiation of typed expressions: the directional derivative of e when each
 * body field changes at the rate `leaf(field)` gives (parameters are constant).
 *
 * One rule set serves two purposes:
 *  - the time derivative, V = dC/dt: position ↦ velocity, rotation ↦ angularVel;
 *  - a partial derivative, ∂V/∂(body.velocity.x): that field ↦ [1 0], every other field ↦ 0.
 *
 * Rules (u' is the derivative of u):
 *   (a ± b)' = a' ± b'            (−a)' = −a'            [v] perp' = [v'] perp
 *   (a ∘ b)' = a' ∘ b + a ∘ b'    for ∘ in *, dot, cross, outer (all bilinear)
 *   (a / s)' = (a' − (a/s)·s') / s
 *   (relative θ v)' = θ' × relative θ v + relative θ v'     (d/dθ R(θ) = R(θ + π/2))
 *   |v|' = unit(v) · v'           |s|' = sign(s)·s'       sign(s)' = 0
 *   (unit v)' = (v' − u (u · v')) / |v|   with u = unit v
 *   [a b]' = [a' b'], and likewise for matrices and components
 * Every result goes through the builder. A term whose derivative factor is zero is left out (in
 * (a ∘ b)' = a' ∘ b + a ∘ b', the term a' ∘ b when a does not vary): it is absent from the
 * derivative whatever b is, so it is not built as 0 ∘ b, which IEEE makes NaN for an infinite b
 * (and the builder keeps, see expr.ts).
 */
import type { Expr, ExprBuilder } from './expr.js';

/** The rate of change of a body field (a `field` expression), or null for "constant". */
export type LeafDerivative = (field: Expr) => Expr | null;

export function differentiate(b: ExprBuilder, e: Expr, leaf: LeafDerivative, memo = new Map<number, Expr>()): Expr {
  const d = (x: Expr): Expr => differentiate(b, x, leaf, memo);
  const known = memo.get(e.id);
  if (known) return known;
  const [x, y] = e.args as [Expr, Expr];
  /** `make()`, or the zero of `type` when the derivative factor `dx` is zero. */
  const term = (dx: Expr, type: Expr['type'], make: () => Expr): Expr => (b.isZero(dx) ? b.zero(type) : make());
  /** (a ∘ b)' = a' ∘ b + a ∘ b' for a bilinear ∘, without the terms whose factor is zero. */
  const product = (op: (p: Expr, q: Expr) => Expr): Expr => {
    const dx = d(x);
    const dy = d(y);
    return b.add(term(dx, e.type, () => op(dx, y)), term(dy, e.type, () => op(x, dy)));
  };
  let r: Expr;
  switch (e.op) {
    case 'num':
    case 'param':
    case 'sign':
      r = b.zero(e.type);
      break;
    case 'field':
      r = leaf(e) ?? b.zero(e.type);
      break;
    case 'vec':
      r = b.vec(d(x), d(y));
      break;
    case 'mat':
      r = b.mat(d(e.args[0]!), d(e.args[1]!), d(e.args[2]!), d(e.args[3]!));
      break;
    case 'comp':
      r = b.comp(d(x), e.index as 0 | 1);
      break;
    case 'neg':
      r = b.neg(d(x));
      break;
    case 'add':
      r = b.add(d(x), d(y));
      break;
    case 'sub':
      r = b.sub(d(x), d(y));
      break;
    case 'mul':
      r = product((p, q) => b.mul(p, q));
      break;
    case 'dot':
      r = product((p, q) => b.dot(p, q));
      break;
    case 'cross':
      r = product((p, q) => b.cross(p, q));
      break;
    case 'outer':
      r = product((p, q) => b.outer(p, q));
      break;
    case 'div': {
      // (a / s)' = (a' − (a/s)·s') / s; with s' zero, a' / s.
      const da = d(x);
      const ds = d(y);
      r = b.isZero(ds) ? term(da, e.type, () => b.div(da, y)) : b.div(b.sub(da, b.mul(e, ds)), y);
      break;
    }
    case 'relative': {
      const dt = d(x);
      const dv = d(y);
      r = b.add(term(dt, 'vector', () => b.cross(dt, e)), term(dv, 'vector', () => b.relative(x, dv)));
      break;
    }
    case 'perp':
      r = b.perp(d(x));
      break;
    case 'norm': {
      const dv = d(x);
      r = term(dv, 'scalar', () => b.dot(b.unit(x), dv));
      break;
    }
    case 'abs': {
      const ds = d(x);
      r = term(ds, 'scalar', () => b.mul(b.sign(x), ds));
      break;
    }
    case 'unit': {
      const dv = d(x);
      r = term(dv, 'vector', () => b.div(b.sub(dv, b.mul(b.dot(e, dv), e)), b.norm(x)));
      break;
    }
  }
  memo.set(e.id, r);
  return r;
}
