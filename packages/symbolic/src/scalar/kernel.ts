/**
 * Kernels: a scalar program turned into something that runs. Both forms have the signature
 *   kernel(state, params, out)
 * and fill `out` (a preallocated Float64Array) from the packed body state and the parameters,
 * allocating nothing.
 *
 *  - compiled: JavaScript source, one `const` per scheduled node, made into a function with
 *    `new Function` (V8 then compiles it like any other code);
 *  - interpreted: the same nodes as flat typed arrays, run by a loop over an opcode switch, for
 *    pages whose Content-Security-Policy forbids `new Function`.
 * They perform the same IEEE operations in the same order, so their results are bitwise equal.
 */
import { Op, applyOp, type ScalarGraph } from './ir.js';

export type Kernel = (state: Float64Array, params: Float64Array, out: Float64Array) => void;

/** Makes a function from a body of JavaScript (the default calls `new Function`). */
export type FunctionFactory = (body: string) => () => Kernel;

const defaultFactory: FunctionFactory = (body) => new Function(body) as () => Kernel;

/** A number as a JavaScript literal that reads back as exactly the same double. */
function literal(v: number): string {
  if (Object.is(v, -0)) return '(-0)';
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '(-Infinity)';
  const s = String(v); // shortest round-tripping representation
  return v < 0 ? `(${s})` : s;
}

const BINARY: Partial<Record<number, string>> = { [Op.ADD]: '+', [Op.SUB]: '-', [Op.MUL]: '*', [Op.DIV]: '/' };
const CALLS: Partial<Record<number, string>> = { [Op.SQRT]: 'Math.sqrt', [Op.ABS]: 'Math.abs', [Op.SIGN]: 'Math.sign', [Op.COS]: 'Math.cos', [Op.SIN]: 'Math.sin' };

/**
 * A kernel over many constraints at once (the engine's UserBatchKernel calling convention): for
 * i < count, constraint rows[i] reads its state at states[i·stride …] and its parameters at
 * params[pOff[rows[i]] …], and writes its outputs at out[oOff[rows[i]] …]. The same operations
 * as the single kernel, so the results are bitwise the same.
 */
export type BulkKernel = (
  count: number,
  rows: Int32Array,
  states: Float64Array,
  stride: number,
  params: Float64Array,
  pOff: Int32Array,
  out: Float64Array,
  oOff: Int32Array,
) => void;

/** The statements computing `outputs`, reading s[so + i] and p[po + i] and writing o[oo + k]. */
function kernelLines(g: ScalarGraph, outputs: readonly number[], indent: string, offsets: boolean): string[] {
  const ref = (id: number): string => (g.op[id] === Op.CONST ? literal(g.value[id]!) : `t${id}`);
  const at = (base: string, i: number): string => (offsets ? `${base} + ${i}` : `${i}`);
  const lines: string[] = [];
  for (const id of g.schedule(outputs)) {
    const op = g.op[id]!;
    const a = g.a[id]!;
    const b = g.b[id]!;
    let rhs: string;
    if (op === Op.CONST) continue;
    else if (op === Op.STATE) rhs = `s[${at('so', g.value[id]!)}]`;
    else if (op === Op.PARAM) rhs = `p[${at('po', g.value[id]!)}]`;
    else if (op === Op.NEG) rhs = `-${ref(a)}`;
    else if (op === Op.SAFE_INV) rhs = `${ref(a)} > 0 ? 1 / ${ref(a)} : 0`;
    else if (BINARY[op]) rhs = `${ref(a)} ${BINARY[op]} ${ref(b)}`;
    else rhs = `${CALLS[op]}(${ref(a)})`;
    lines.push(`${indent}const t${id} = ${rhs};`);
  }
  outputs.forEach((id, k) => lines.push(`${indent}o[${at('oo', k)}] = ${ref(id)};`));
  return lines;
}

const safeName = (name: string): string => name.replace(/[^A-Za-z0-9_]/g, '_');

/** The JavaScript body of a kernel computing `outputs` (out[k] = node outputs[k]). */
export function kernelSource(g: ScalarGraph, outputs: readonly number[], name = 'kernel'): string {
  const lines = kernelLines(g, outputs, '  ', false);
  return `"use strict";\nreturn function ${safeName(name)}(s, p, o) {\n${lines.join('\n')}\n};`;
}

/** The JavaScript body of the bulk form (see BulkKernel). */
export function bulkKernelSource(g: ScalarGraph, outputs: readonly number[], name = 'bulkKernel'): string {
  const lines = kernelLines(g, outputs, '    ', true);
  return (
    `"use strict";\nreturn function ${safeName(name)}(count, rows, s, stride, p, pOff, o, oOff) {\n` +
    `  for (let i = 0; i < count; i++) {\n    const r = rows[i];\n    const so = i * stride;\n    const po = pOff[r];\n    const oo = oOff[r];\n` +
    `${lines.join('\n')}\n  }\n};`
  );
}

/** The compiled form. Throws whatever the factory throws (an EvalError under a strict CSP). */
export function compileKernel(g: ScalarGraph, outputs: readonly number[], name = 'kernel', factory: FunctionFactory = defaultFactory): Kernel {
  return factory(kernelSource(g, outputs, name))();
}

/**
 * A bulk kernel with two output arrays (see UserBatchKernel.positionAndJacobian): outputs[0, split)
 * go to o[oOff[r] …] and outputs[split, …) to j[jOff[r] …]. One pass, so shared subexpressions of
 * both halves are computed once; each output is the same expression as in the single kernels.
 */
export type BulkKernel2 = (
  count: number,
  rows: Int32Array,
  states: Float64Array,
  stride: number,
  params: Float64Array,
  pOff: Int32Array,
  out: Float64Array,
  oOff: Int32Array,
  out2: Float64Array,
  o2Off: Int32Array,
) => void;

export function bulkKernel2Source(g: ScalarGraph, outputs: readonly number[], split: number, name = 'bulkKernel2'): string {
  const lines = kernelLines(g, outputs, '    ', true).map((line) => {
    const m = /^(\s*)o\[oo \+ (\d+)\] = (.*)$/.exec(line);
    if (!m) return line;
    const k = Number(m[2]);
    return k < split ? line : `${m[1]}j[jo + ${k - split}] = ${m[3]}`;
  });
  return (
    `"use strict";\nreturn function ${safeName(name)}(count, rows, s, stride, p, pOff, o, oOff, j, jOff) {\n` +
    `  for (let i = 0; i < count; i++) {\n    const r = rows[i];\n    const so = i * stride;\n    const po = pOff[r];\n    const oo = oOff[r];\n    const jo = jOff[r];\n` +
    `${lines.join('\n')}\n  }\n};`
  );
}

export function compileBulkKernel2(g: ScalarGraph, outputs: readonly number[], split: number, name = 'bulkKernel2', factory: FunctionFactory = defaultFactory): BulkKernel2 {
  return (factory(bulkKernel2Source(g, outputs, split, name)) as unknown as () => BulkKernel2)();
}

/** The interpreted two-output bulk form. */
export function interpretBulkKernel2(g: ScalarGraph, outputs: readonly number[], split: number): BulkKernel2 {
  const first = interpreter(g, outputs.slice(0, split)).run;
  const second = interpreter(g, outputs.slice(split)).run;
  return (count, rows, states, stride, params, pOff, out, oOff, out2, o2Off) => {
    for (let i = 0; i < count; i++) {
      const r = rows[i]!;
      first(states, i * stride, params, pOff[r]!, out, oOff[r]!);
      second(states, i * stride, params, pOff[r]!, out2, o2Off[r]!);
    }
  };
}

/** The compiled bulk form. */
export function compileBulkKernel(g: ScalarGraph, outputs: readonly number[], name = 'bulkKernel', factory: FunctionFactory = defaultFactory): BulkKernel {
  return (factory(bulkKernelSource(g, outputs, name)) as unknown as () => BulkKernel)();
}

type Run = (state: Float64Array, so: number, params: Float64Array, po: number, out: Float64Array, oo: number) => void;

/** The scalar program as flat arrays and a loop over them (state, params and out read at offsets). */
function interpreter(g: ScalarGraph, outputs: readonly number[]): { run: Run } {
  const order = g.schedule(outputs);
  const n = order.length;
  const register = new Map<number, number>();
  order.forEach((id, i) => register.set(id, i));
  const ops = new Uint8Array(n);
  const A = new Int32Array(n);
  const B = new Int32Array(n);
  const regs = new Float64Array(n);
  order.forEach((id, i) => {
    const op = g.op[id]!;
    ops[i] = op;
    A[i] = g.a[id]! >= 0 ? register.get(g.a[id]!)! : g.value[id]!; // STATE/PARAM: the index
    B[i] = g.b[id]! >= 0 ? register.get(g.b[id]!)! : -1;
    if (op === Op.CONST) regs[i] = g.value[id]!; // constants are written once, here
  });
  const outs = Int32Array.from(outputs, (id) => register.get(id)!);
  return { run: (state, so, params, po, out, oo) => {
    for (let i = 0; i < n; i++) {
      const op = ops[i]!;
      switch (op) {
        case Op.CONST:
          break;
        case Op.STATE:
          regs[i] = state[so + A[i]!]!;
          break;
        case Op.PARAM:
          regs[i] = params[po + A[i]!]!;
          break;
        case Op.ADD:
          regs[i] = regs[A[i]!]! + regs[B[i]!]!;
          break;
        case Op.SUB:
          regs[i] = regs[A[i]!]! - regs[B[i]!]!;
          break;
        case Op.MUL:
          regs[i] = regs[A[i]!]! * regs[B[i]!]!;
          break;
        case Op.DIV:
          regs[i] = regs[A[i]!]! / regs[B[i]!]!;
          break;
        default:
          regs[i] = applyOp(op as (typeof Op)[keyof typeof Op], regs[A[i]!]!, 0);
      }
    }
    for (let k = 0; k < outs.length; k++) out[oo + k] = regs[outs[k]!]!;
  } };
}

/** The interpreted form. */
export function interpretKernel(g: ScalarGraph, outputs: readonly number[]): Kernel {
  const { run } = interpreter(g, outputs);
  return (state, params, out) => run(state, 0, params, 0, out, 0);
}

/** The interpreted bulk form. */
export function interpretBulkKernel(g: ScalarGraph, outputs: readonly number[]): BulkKernel {
  const { run } = interpreter(g, outputs);
  return (count, rows, states, stride, params, pOff, out, oOff) => {
    for (let i = 0; i < count; i++) {
      const r = rows[i]!;
      run(states, i * stride, params, pOff[r]!, out, oOff[r]!);
    }
  };
}
