/**
 * Lowering: a typed expression (scalar, vector, matrix) to its scalar components in a
 * ScalarGraph. Matrices are row-major [a b ; c d].
 *
 * Body fields read the packed state (see body-state.ts):
 *   position   = (x, y)                         rotation = rotation
 *   worldCenter = (comX, comY)                  angularVel = ω
 *   velocity   = the ORIGIN's velocity, v_o = v_c + ω·perp(p − c) = (vx − ω (y − comY), vy + ω (x − comX)),
 *                since the language's position is the origin and the engine's velocity is the
 *                centre of mass's.
 * `relative body.rotation v` uses the state's cos and sin instead of computing them again.
 */
import { BODY_STATE_STRIDE, BodyState } from '../body-state.js';
import type { Expr } from '../expr/expr.js';
import type { ScalarGraph } from './ir.js';

export class Lowering {
  private readonly memo = new Map<number, number[]>();

  constructor(private readonly g: ScalarGraph) {}

  lower(e: Expr): number[] {
    const known = this.memo.get(e.id);
    if (known) return known;
    const r = this.lowerNode(e);
    this.memo.set(e.id, r);
    return r;
  }

  /** The state index of a field of the body in `slot`. */
  state(slot: number, offset: number): number {
    return this.g.state(slot * BODY_STATE_STRIDE + offset);
  }

  private lowerNode(e: Expr): number[] {
    const g = this.g;
    const L = (x: Expr): number[] => this.lower(x);
    const args = e.args;
    switch (e.op) {
      case 'num':
        return [g.constant(e.value)];
      case 'param':
        // Scalars may be ±Infinity; vectors are finite (setVector checks).
        return e.type === 'scalar' ? [g.param(e.index)] : [g.param(e.index, true), g.param(e.index + 1, true)];
      case 'field':
        return this.field(e);
      case 'vec':
      case 'mat':
        return args.map((a) => L(a)[0]!);
      case 'comp':
        return [L(args[0]!)[e.index]!];
      case 'neg':
        return L(args[0]!).map((x) => g.neg(x));
      case 'add': {
        const [a, b] = [L(args[0]!), L(args[1]!)];
        return a.map((x, i) => g.add(x, b[i]!));
      }
      case 'sub': {
        const [a, b] = [L(args[0]!), L(args[1]!)];
        return a.map((x, i) => g.sub(x, b[i]!));
      }
      case 'mul':
        return this.mul(args[0]!, args[1]!);
      case 'div': {
        const s = L(args[1]!)[0]!;
        return L(args[0]!).map((x) => g.div(x, s));
      }
      case 'dot': {
        const [a, b] = [L(args[0]!), L(args[1]!)];
        return [g.add(g.mul(a[0]!, b[0]!), g.mul(a[1]!, b[1]!))];
      }
      case 'cross': {
        // vector × vector only: the builder rewrote the scalar forms as products with perp.
        const [a, b] = [L(args[0]!), L(args[1]!)];
        return [g.sub(g.mul(a[0]!, b[1]!), g.mul(a[1]!, b[0]!))];
      }
      case 'outer': {
        const [a, b] = [L(args[0]!), L(args[1]!)];
        return [g.mul(a[0]!, b[0]!), g.mul(a[0]!, b[1]!), g.mul(a[1]!, b[0]!), g.mul(a[1]!, b[1]!)];
      }
      case 'relative': {
        const [angle, v] = args as [Expr, Expr];
        const [x, y] = L(v) as [number, number];
        let c: number;
        let s: number;
        if (angle.op === 'field' && angle.field === 'rotation') {
          c = this.state(angle.index, BodyState.cos);
          s = this.state(angle.index, BodyState.sin);
        } else {
          const t = L(angle)[0]!;
          c = g.cos(t);
          s = g.sin(t);
        }
        return [g.sub(g.mul(c, x), g.mul(s, y)), g.add(g.mul(s, x), g.mul(c, y))];
      }
      case 'perp': {
        const [x, y] = L(args[0]!) as [number, number];
        return [g.neg(y), x];
      }
      case 'norm': {
        const [x, y] = L(args[0]!) as [number, number];
        return [g.sqrt(g.add(g.mul(x, x), g.mul(y, y)))];
      }
      case 'unit': {
        const [x, y] = L(args[0]!) as [number, number];
        const inv = g.safeInv(g.sqrt(g.add(g.mul(x, x), g.mul(y, y))));
        return [g.mul(x, inv), g.mul(y, inv)];
      }
      case 'abs':
        return [g.abs(L(args[0]!)[0]!)];
      case 'sign':
        return [g.sign(L(args[0]!)[0]!)];
    }
  }

  private field(e: Expr): number[] {
    const s = e.index;
    const st = (o: number): number => this.state(s, o);
    switch (e.field) {
      case 'position':
        return [st(BodyState.x), st(BodyState.y)];
      case 'rotation':
        return [st(BodyState.rotation)];
      case 'angularVel':
        return [st(BodyState.angularVel)];
      case 'worldCenter':
        return [st(BodyState.comX), st(BodyState.comY)];
      case 'velocity': {
        const g = this.g;
        const w = st(BodyState.angularVel);
        const dx = g.sub(st(BodyState.x), st(BodyState.comX));
        const dy = g.sub(st(BodyState.y), st(BodyState.comY));
        return [g.sub(st(BodyState.vx), g.mul(w, dy)), g.add(st(BodyState.vy), g.mul(w, dx))];
      }
      default:
        throw new Error(`internal: ${e.field} is not part of the compiled state`);
    }
  }

  private mul(a: Expr, b: Expr): number[] {
    const g = this.g;
    const A = this.lower(a);
    const B = this.lower(b);
    if (a.type === 'scalar') return B.map((x) => g.mul(A[0]!, x));
    if (b.type === 'scalar') return A.map((x) => g.mul(x, B[0]!));
    const [m00, m01, m10, m11] = A as [number, number, number, number];
    const dot = (p: number, q: number, r: number, s: number): number => g.add(g.mul(p, r), g.mul(q, s));
    if (b.type === 'vector') {
      const [x, y] = B as [number, number];
      return [dot(m00, m01, x, y), dot(m10, m11, x, y)];
    }
    const [n00, n01, n10, n11] = B as [number, number, number, number];
    return [dot(m00, m01, n00, n10), dot(m00, m01, n01, n11), dot(m10, m11, n00, n10), dot(m10, m11, n01, n11)];
  }
}
