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
 * Every result goes through the builder, so zero derivatives vanish as they are built.
 */
import type { Expr, ExprBuilder } from './expr.js';

/** The rate of change of a body field (a `field` expression), or null for "constant". */
export type LeafDerivative = (field: Expr) => Expr | null;

export function differentiate(b: ExprBuilder, e: Expr, leaf: LeafDerivative, memo = new Map<number, Expr>()): Expr {
  const d = (x: Expr): Expr => differentiate(b, x, leaf, memo);
  const known = memo.get(e.id);
  if (known) return known;
  const [x, y] = e.args as [Expr, Expr];
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
      r = b.add(b.mul(d(x), y), b.mul(x, d(y)));
      break;
    case 'dot':
      r = b.add(b.dot(d(x), y), b.dot(x, d(y)));
      break;
    case 'cross':
      r = b.add(b.cross(d(x), y), b.cross(x, d(y)));
      break;
    case 'outer':
      r = b.add(b.outer(d(x), y), b.outer(x, d(y)));
      break;
    case 'div':
      r = b.div(b.sub(d(x), b.mul(e, d(y))), y);
      break;
    case 'relative':
      r = b.add(b.cross(d(x), e), b.relative(x, d(y)));
      break;
    case 'perp':
      r = b.perp(d(x));
      break;
    case 'norm':
      r = b.dot(b.unit(x), d(x));
      break;
    case 'abs':
      r = b.mul(b.sign(x), d(x));
      break;
    case 'unit': {
      const dv = d(x);
      r = b.div(b.sub(dv, b.mul(b.dot(e, dv), e)), b.norm(x));
      break;
    }
  }
  memo.set(e.id, r);
  return r;
}
