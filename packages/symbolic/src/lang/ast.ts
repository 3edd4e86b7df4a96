/**
 * The syntax tree the parser produces: what was written, with where it was written. Nothing
 * here is typed or resolved yet; the checker does that.
 */
import type { Span } from '../errors.js';

export type BinaryOp = '+' | '-' | '*' | '/' | 'dot' | 'cross' | 'outer';

export type Node =
  | { kind: 'number'; value: number; span: Span }
  | { kind: 'constant'; name: 'inf' | 'eps'; span: Span }
  | { kind: 'name'; name: string; span: Span }
  /** `object.field`; only bodies have fields. */
  | { kind: 'member'; object: string; objectSpan: Span; field: string; fieldSpan: Span; span: Span }
  | { kind: 'let'; name: string; nameSpan: Span; value: Node; body: Node; span: Span }
  | { kind: 'binary'; op: BinaryOp; left: Node; right: Node; opSpan: Span; span: Span }
  | { kind: 'negate'; operand: Node; span: Span }
  | { kind: 'unit'; operand: Node; span: Span }
  | { kind: 'relative'; angle: Node; operand: Node; span: Span }
  /** `e.x`, `e.y`: a vector's component (`name.x` is parsed as a member and resolved by the checker). */
  | { kind: 'component'; operand: Node; index: 0 | 1; span: Span }
  /** `[e] perp` */
  | { kind: 'perp'; operand: Node; span: Span }
  /** `|e|`: absolute value of a scalar, length of a vector. */
  | { kind: 'norm'; operand: Node; span: Span }
  /** `[a b]`, `[a ; b]` (vectors) and `[a b ; c d]` (a matrix): rows of entries. */
  | { kind: 'literal'; rows: Node[][]; span: Span }
  /** `{ e1 e2 … }`: the parts stacked into one constraint of their summed dimension. */
  | { kind: 'block'; parts: Node[]; span: Span };

export type Declaration =
  | { kind: 'body' | 'scalar' | 'vector'; names: { name: string; span: Span }[]; span: Span }
  /** `limit constraint lo hi`: per-row bounds of the constraint. */
  | { kind: 'rowLimit'; lower: Node; upper: Node; span: Span }
  /** `limit expr lo hi`: a check on the parameters (lo ≤ expr ≤ hi). */
  | { kind: 'varLimit'; expr: Node; lower: Node; upper: Node; span: Span }
  /** `constraint expr` (a position constraint C = 0) or `velocity expr` (V = 0). */
  | { kind: 'constraint' | 'velocity'; expr: Node; span: Span };

export interface SyntaxTree {
  declarations: Declaration[];
  /** Where the source ends (for "no constraint declared"). */
  end: Span;
}

/** The direct sub-expressions of a node. */
export function children(node: Node): Node[] {
  switch (node.kind) {
    case 'let':
      return [node.value, node.body];
    case 'binary':
      return [node.left, node.right];
    case 'negate':
    case 'unit':
    case 'component':
    case 'perp':
    case 'norm':
      return [node.operand];
    case 'relative':
      return [node.angle, node.operand];
    case 'literal':
      return node.rows.flat();
    case 'block':
      return node.parts;
    default:
      return [];
  }
}
