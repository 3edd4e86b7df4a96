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
  const d = new Differentiator(p);
  const C = p.kind === 'position' ? p.parts : null;
  const V = C ? C.map((part) => d.rate(part)) : p.parts;
  const J = p.bodies.map((body): BodyJacobian => {
    const col = d.columns(body.slot);
    return { body: body.name, x: V.map(col.x), y: V.map(col.y), w: V.map(col.w), wc: V.map(col.wc) };
  });
  return { C, V, J };
}

/** ∂V/∂(velocity.x, velocity.y, angularVel) of one body, and the engine's angular column about its centre of mass. */
export interface Columns {
  readonly x: (e: Expr) => Expr;
  readonly y: (e: Expr) => Expr;
  readonly w: (e: Expr) => Expr;
  readonly wc: (e: Expr) => Expr;
}

/**
 * The derivation's rules for any expression of a program: its time derivative (a position
 * expression's V) and the Jacobian columns of a V. derive() applies them to the constraint's
 * parts; the runtime error applies them to the parts' sub-expressions, to find the one whose
 * derivative is not finite. Memoised, and built in the program's builder, so a part's J here is
 * the same expression as the derivation's.
 */
export class Differentiator {
  private readonly timeMemo = new Map<number, Expr>();
  private readonly columnMemo = new Map<number, Columns>();

  constructor(private readonly p: CheckedProgram) {}

  /** dE/dt of a position expression: position ↦ velocity, rotation ↦ angularVel. */
  rate(e: Expr): Expr {
    const b = this.p.builder;
    const time: LeafDerivative = (f) => {
      if (f.field === 'position') return b.field(f.name, f.index, 'velocity');
      if (f.field === 'rotation') return b.field(f.name, f.index, 'angularVel');
      throw new Error(`internal: a position constraint reads ${f.name}.${f.field}`);
    };
    return differentiate(b, e, time, this.timeMemo);
  }

  /** The Jacobian columns of the body in `slot`, for a velocity expression. */
  columns(slot: number): Columns {
    const known = this.columnMemo.get(slot);
    if (known) return known;
    const b = this.p.builder;
    const body = this.p.bodies[slot]!;
    const wrt = (field: 'velocity' | 'angularVel', value: Expr): ((e: Expr) => Expr) => {
      const memo = new Map<number, Expr>();
      const leaf: LeafDerivative = (f) => (f.index === slot && f.field === field ? value : null);
      return (e) => differentiate(b, e, leaf, memo);
    };
    const one = b.num(1);
    const zero = b.num(0);
    const x = wrt('velocity', b.vec(one, zero));
    const y = wrt('velocity', b.vec(zero, one));
    const w = wrt('angularVel', one);
    const d = b.sub(b.field(body.name, slot, 'position'), b.field(body.name, slot, 'worldCenter'));
    const dx = b.comp(d, 0);
    const dy = b.comp(d, 1);
    const wc = (e: Expr): Expr => b.add(w(e), b.sub(b.mul(dx, y(e)), b.mul(dy, x(e))));
    const columns: Columns = { x, y, w, wc };
    this.columnMemo.set(slot, columns);
    return columns;
  }
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
