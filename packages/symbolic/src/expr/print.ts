/**
 * Printing typed expressions back in the language's syntax, for debug(). Subexpressions used
 * more than once become `let` bindings (named after the user's let when there was one), so
 * the text shows the sharing the builder found. Expressions built from the language's
 * operations print as source that parses back to the same expression; the derivation's own
 * leaves (worldCenter, invMass, invInertia) and sign(…) print readably but are not language.
 */
import type { Expr } from './expr.js';

// Binding strength, loosest first; mirrors the parser. `relative θ v` is as loose as a let: its
// vector extends as far right as it can, so it is parenthesised wherever something may follow.
const LOOSE = 0;
const ADD = 1;
const OUTER = 2;
const DOT = 3;
const MUL = 4;
const PREFIX = 5;
const ATOM = 6;

const BINARY: Partial<Record<Expr['op'], [string, number]>> = {
  add: ['+', ADD],
  sub: ['-', ADD],
  outer: ['outer', OUTER],
  dot: ['dot', DOT],
  cross: ['cross', DOT],
  mul: ['*', MUL],
  div: ['/', MUL],
};

export class Printer {
  private readonly names = new Map<number, string>();
  /** Bindings in dependency order: [name, expression]. */
  private readonly order: Expr[] = [];

  /** `roots` are everything that will be printed with this printer; `taken` are names to avoid. */
  constructor(roots: readonly Expr[], taken: Iterable<string> = []) {
    const uses = new Map<number, number>();
    const seen = new Set<number>();
    const postorder: Expr[] = [];
    const walk = (e: Expr): void => {
      uses.set(e.id, (uses.get(e.id) ?? 0) + 1);
      if (seen.has(e.id)) return;
      seen.add(e.id);
      for (const a of e.args) walk(a);
      postorder.push(e);
    };
    for (const r of roots) walk(r);
    const used = new Set<string>(taken);
    let counter = 0;
    for (const e of postorder) {
      if ((uses.get(e.id) ?? 0) < 2 || isSmall(e)) continue;
      let name = e.hint !== null && !used.has(e.hint) ? e.hint : '';
      while (name === '' || used.has(name)) name = `t${++counter}`;
      used.add(name);
      this.names.set(e.id, name);
      this.order.push(e);
    }
  }

  /** `let name = … in` lines, in the order they must appear. */
  bindings(): string[] {
    return this.order.map((e) => `let ${this.names.get(e.id)} = ${this.print(e, 0, true)} in`);
  }

  /** One expression (using the bindings' names). */
  print(e: Expr, min = 0, expand = false): string {
    const name = expand ? undefined : this.names.get(e.id);
    if (name !== undefined) return name;
    const [text, strength] = this.render(e);
    return strength < min ? `(${text})` : text;
  }

  /** Several parts as a block element list: parts starting with '-' are parenthesised (juxtaposition). */
  printParts(parts: readonly Expr[]): string {
    if (parts.length === 1) return this.print(parts[0]!);
    return `{ ${parts.map((p) => this.element(p)).join('\n  ')} }`;
  }

  /** A block element or limit bound: never starts with '-', which would continue the previous one. */
  element(e: Expr): string {
    const s = this.print(e);
    return s.startsWith('-') ? `(${s})` : s;
  }

  private render(e: Expr): [string, number] {
    const p = (x: Expr, min: number): string => this.print(x, min);
    const bin = BINARY[e.op];
    if (bin) {
      const [op, strength] = bin;
      return [`${p(e.args[0]!, strength)} ${op} ${p(e.args[1]!, strength + 1)}`, strength];
    }
    switch (e.op) {
      case 'num':
        return number(e.value);
      case 'param':
        return [e.name, ATOM];
      case 'field':
        return [`${e.name}.${e.field}`, ATOM];
      case 'vec':
        return [`[${this.entry(e.args[0]!)} ${this.entry(e.args[1]!)}]`, ATOM];
      case 'mat':
        return [`[${this.entry(e.args[0]!)} ${this.entry(e.args[1]!)} ; ${this.entry(e.args[2]!)} ${this.entry(e.args[3]!)}]`, ATOM];
      case 'comp':
        return [`${p(e.args[0]!, ATOM)}.${e.index === 0 ? 'x' : 'y'}`, ATOM];
      case 'neg': {
        const inner = p(e.args[0]!, PREFIX);
        return [inner.startsWith('-') ? `-(${inner})` : `-${inner}`, PREFIX];
      }
      case 'unit':
        return [`unit ${p(e.args[0]!, PREFIX)}`, PREFIX];
      case 'relative':
        return [`relative ${p(e.args[0]!, PREFIX)} ${p(e.args[1]!, LOOSE)}`, LOOSE];
      case 'perp': {
        // `[a - b] perp` would read as the literal (a, −b): parenthesise anything with spaces.
        const inner = p(e.args[0]!, 0);
        return [/\s/.test(inner) ? `[(${inner})] perp` : `[${inner}] perp`, ATOM];
      }
      case 'norm':
      case 'abs':
        return [`|${p(e.args[0]!, 0)}|`, ATOM];
      case 'sign':
        return [`sign(${p(e.args[0]!, 0)})`, ATOM];
      default:
        throw new Error(`internal: cannot print ${e.op}`);
    }
  }

  /** A literal entry: a signed atom, or a parenthesised expression. */
  private entry(e: Expr): string {
    const s = this.print(e);
    if (/^-?[A-Za-z0-9_.]+$/.test(s) || /^-?\d/.test(s) && !/\s/.test(s)) return s;
    return `(${s})`;
  }
}

function number(v: number): [string, number] {
  if (v === Infinity) return ['inf', ATOM];
  if (v === -Infinity) return ['-inf', PREFIX];
  if (Number.isNaN(v)) return ['(0 / 0)', ATOM];
  if (Object.is(v, -0)) return ['-0', PREFIX];
  const s = String(v);
  return [s, v < 0 ? PREFIX : ATOM];
}

/** Not worth a let: leaves, components, and a negated leaf. */
function isSmall(e: Expr): boolean {
  if (e.args.length === 0 || e.op === 'comp') return true;
  return e.op === 'neg' && e.args[0]!.args.length === 0;
}

/** Print a whole group of expressions: the let lines, then each expression. */
export function printGroup(roots: readonly Expr[], taken: Iterable<string> = []): { lets: string[]; texts: string[]; printer: Printer } {
  const printer = new Printer(roots, taken);
  return { lets: printer.bindings(), texts: roots.map((r) => printer.print(r)), printer };
}
