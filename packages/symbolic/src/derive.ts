/**
 * The derivation, at the language's level (so debug() can show it):
 *
 *   position constraint:  C given;  V = dC/dt (position ↦ velocity, rotation ↦ angularVel)
 *   velocity constraint:  V given (checked affine in the velocities)
 *   J, per body and per row: Jx = ∂V/∂velocity.x, Jy = ∂V/∂velocity.y, Jω = ∂V/∂angularVel.
 *
 * The language's velocity is the ORIGIN's, v_o = v_c + ω·perp(p − c), while the engine's
 * Jacobian columns are the centre of mass's velocity v_c and ω. Substituting,
 *   V = Jx v_o.x + Jy v_o.y + Jω ω = Jx v_c.x + Jy v_c.y + (Jω + d.x·Jy − d.y·Jx) ω,  d = p − c,
 * so the engine's angular column is Jω_c = Jω + d.x·Jy − d.y·Jx; the linear ones are unchanged.
 *
 * K = J M⁻¹ Jᵀ is built here only for the debug text, with named inverse masses and inertias;
 * the engine computes K from the numeric J.
 */
import type { CheckedProgram } from './lang/checker.js';
import { differentiate, type LeafDerivative } from './expr/diff.js';
import type { Expr } from './expr/expr.js';

export interface BodyJacobian {
  readonly body: string;
  /** One expression per constraint part (same type as the part). */
  readonly x: readonly Expr[];
  readonly y: readonly Expr[];
  /** About the origin (the language's ω column). */
  readonly w: readonly Expr[];
  /** About the centre of mass (the engine's ω column). */
  readonly wc: readonly Expr[];
}

export interface Derivation {
  /** The position constraint's parts (null for a velocity constraint). */
  readonly C: readonly Expr[] | null;
  readonly V: readonly Expr[];
  readonly J: readonly BodyJacobian[];
}

export function derive(p: CheckedProgram): Derivation {
  const b = p.builder;
  let C: readonly Expr[] | null = null;
  let V: readonly Expr[];
  if (p.kind === 'position') {
    C = p.parts;
    const memo = new Map<number, Expr>();
    const time: LeafDerivative = (f) => {
      if (f.field === 'position') return b.field(f.name, f.index, 'velocity');
      if (f.field === 'rotation') return b.field(f.name, f.index, 'angularVel');
      throw new Error(`internal: a position constraint reads ${f.name}.${f.field}`);
    };
    V = C.map((part) => differentiate(b, part, time, memo));
  } else {
    V = p.parts;
  }

  const J = p.bodies.map((body): BodyJacobian => {
    const wrt = (field: 'velocity' | 'angularVel', value: Expr): Expr[] => {
      const memo = new Map<number, Expr>();
      const leaf: LeafDerivative = (f) => (f.index === body.slot && f.field === field ? value : null);
      return V.map((part) => differentiate(b, part, leaf, memo));
    };
    const one = b.num(1);
    const zero = b.num(0);
    const x = wrt('velocity', b.vec(one, zero));
    const y = wrt('velocity', b.vec(zero, one));
    const w = wrt('angularVel', one);
    const d = b.sub(b.field(body.name, body.slot, 'position'), b.field(body.name, body.slot, 'worldCenter'));
    const dx = b.comp(d, 0);
    const dy = b.comp(d, 1);
    const wc = w.map((wi, i) => b.add(wi, b.sub(b.mul(dx, y[i]!), b.mul(dy, x[i]!))));
    return { body: body.name, x, y, w, wc };
  });
  return { C, V, J };
}

/**
 * K = J M⁻¹ Jᵀ as blocks K[p][q] between constraint parts p and q (scalar·scalar, vector
 * outer vector, or scalar times vector), summed over bodies with their named inverse mass
 * and inertia. Assumes distinct bodies (the engine adds the cross terms of a shared body).
 */
export function effectiveMass(p: CheckedProgram, d: Derivation): Expr[][] {
  const b = p.builder;
  const parts = d.V.length;
  const pair = (u: Expr, v: Expr): Expr => {
    if (u.type === 'vector' && v.type === 'vector') return b.outer(u, v);
    return b.mul(u, v);
  };
  const K: Expr[][] = [];
  for (let i = 0; i < parts; i++) {
    const row: Expr[] = [];
    for (let j = 0; j < parts; j++) {
      let sum: Expr | null = null;
      for (const [s, jac] of d.J.entries()) {
        const body = p.bodies[s]!;
        const m = b.field(body.name, body.slot, 'invMass');
        const inertia = b.field(body.name, body.slot, 'invInertia');
        const linear = b.add(pair(jac.x[i]!, jac.x[j]!), pair(jac.y[i]!, jac.y[j]!));
        const term = b.add(b.mul(m, linear), b.mul(inertia, pair(jac.wc[i]!, jac.wc[j]!)));
        sum = sum === null ? term : b.add(sum, term);
      }
      row.push(sum!);
    }
    K.push(row);
  }
  return K;
}
