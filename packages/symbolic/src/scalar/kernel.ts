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
import type { BatchArrays } from '@fulcrum/physics';
import { BODY_STATE_STRIDE } from '../body-state.js';
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
 * A kernel over many constraints at once (the engine's UserBatchKernel calling convention, with
 * its BatchArrays): constraint i, from ≤ i < to, reads body slot j's state at
 * states[slotState[i·slots + j] …] and its parameters at params[i·paramCount …], and writes its
 * outputs at out[i·(outputs per constraint) …]. The same operations as the single kernel, so the
 * results are bitwise the same.
 */
export type BulkKernel = (from: number, to: number, a: BatchArrays) => void;

/** Where a bulk kernel writes: J to a.J, or C (values) to a.C. */
export type BulkTarget = 'J' | 'C';

/** A constraint's strides in BatchArrays: its body slots and its parameters. */
export interface BulkLayout {
  slots: number;
  paramCount: number;
}

/**
 * The statements computing `outputs`, writing o[oo + k] (bulk) or o[k]. Single kernels read s[i]
 * and p[i]; bulk kernels read a state entry of slot j at s[b<j> + field] and p[po + i]. Outputs
 * from `skipConstFrom` on that are constants are not written (see constantOutputs), and the others
 * from there on are packed: the m-th of them goes to skipConstFrom + m.
 */
function kernelLines(g: ScalarGraph, outputs: readonly number[], indent: string, bulk: boolean, skipConstFrom = Infinity): string[] {
  const ref = (id: number): string => (g.op[id] === Op.CONST ? literal(g.value[id]!) : `t${id}`);
  const state = (i: number): string => (bulk ? `s[b${Math.floor(i / BODY_STATE_STRIDE)} + ${i % BODY_STATE_STRIDE}]` : `s[${i}]`);
  const lines: string[] = [];
  for (const id of g.schedule(outputs)) {
    const op = g.op[id]!;
    const a = g.a[id]!;
    const b = g.b[id]!;
    let rhs: string;
    if (op === Op.CONST) continue;
    else if (op === Op.STATE) rhs = state(g.value[id]!);
    else if (op === Op.PARAM) rhs = bulk ? `p[po + ${g.value[id]!}]` : `p[${g.value[id]!}]`;
    else if (op === Op.NEG) rhs = `-${ref(a)}`;
    else if (op === Op.SAFE_INV) rhs = `${ref(a)} > 0 ? 1 / ${ref(a)} : 0`;
    else if (BINARY[op]) rhs = `${ref(a)} ${BINARY[op]} ${ref(b)}`;
    else rhs = `${CALLS[op]}(${ref(a)})`;
    lines.push(`${indent}const t${id} = ${rhs};`);
  }
  let packed = 0;
  outputs.forEach((id, k) => {
    if (k >= skipConstFrom && isDeclaredConstant(g, id)) return;
    const at = k >= skipConstFrom ? skipConstFrom + packed++ : k;
    lines.push(`${indent}o[${bulk ? `oo + ${at}` : at}] = ${ref(id)};`);
  });
  return lines;
}

/**
 * The outputs that are finite constants, as [index, value] pairs: a J written in bulk leaves
 * these to the engine, which writes them once per plan, and packs the others
 * (UserBatchKernel.constantJacobian). A non-finite constant is never declared (the engine takes
 * finite values only): the kernels write it, and the engine's check reports it at the source.
 */
export function constantOutputs(g: ScalarGraph, outputs: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  outputs.forEach((id, k) => {
    if (isDeclaredConstant(g, id)) out.push([k, g.value[id]!]);
  });
  return out;
}

/** A finite constant output: left to the engine in a bulk J. */
function isDeclaredConstant(g: ScalarGraph, id: number): boolean {
  return g.op[id] === Op.CONST && Number.isFinite(g.value[id]!);
}

/** The body slots whose state the program computing `outputs` reads. */
function slotsRead(g: ScalarGraph, outputs: readonly number[]): number[] {
  const slots = new Set<number>();
  for (const id of g.schedule(outputs)) if (g.op[id] === Op.STATE) slots.add(Math.floor(g.value[id]! / BODY_STATE_STRIDE));
  return [...slots].sort((x, y) => x - y);
}

/** A bulk kernel's prologue and per-constraint header (constraint i, its parameter and output offsets, its slots' state offsets). */
function bulkHead(g: ScalarGraph, outputs: readonly number[], layout: BulkLayout, outOffsets: string): string {
  const slots = slotsRead(g, outputs);
  return (
    `  const s = a.states, slotState = a.slotState, p = a.params;\n` +
    `  for (let i = from; i < to; i++) {\n    const po = i * ${layout.paramCount};\n${outOffsets}` +
    (slots.length > 0 ? `    const sl = i * ${layout.slots};\n` : '') +
    slots.map((j) => `    const b${j} = slotState[sl + ${j}];\n`).join('')
  );
}

const safeName = (name: string): string => name.replace(/[^A-Za-z0-9_]/g, '_');

/** The JavaScript body of a kernel computing `outputs` (out[k] = node outputs[k]). */
export function kernelSource(g: ScalarGraph, outputs: readonly number[], name = 'kernel'): string {
  const lines = kernelLines(g, outputs, '  ', false);
  return `"use strict";\nreturn function ${safeName(name)}(s, p, o) {\n${lines.join('\n')}\n};`;
}

/** How many of `outputs` are not constants (a packed J's width). */
function variableCount(g: ScalarGraph, outputs: readonly number[]): number {
  return outputs.filter((id) => !isDeclaredConstant(g, id)).length;
}

/** The JavaScript body of the bulk form (see BulkKernel), writing its outputs to `target` (J: all but its constants, packed). */
export function bulkKernelSource(g: ScalarGraph, outputs: readonly number[], target: BulkTarget, layout: BulkLayout, name = 'bulkKernel'): string {
  const lines = kernelLines(g, outputs, '    ', true, target === 'J' ? 0 : Infinity);
  const width = target === 'J' ? variableCount(g, outputs) : outputs.length;
  return (
    `"use strict";\nreturn function ${safeName(name)}(from, to, a) {\n  const o = a.${target};\n` +
    bulkHead(g, outputs, layout, `    const oo = i * ${width};\n`) +
    `${lines.join('\n')}\n  }\n};`
  );
}

/** The compiled form. Throws whatever the factory throws (an EvalError under a strict CSP). */
export function compileKernel(g: ScalarGraph, outputs: readonly number[], name = 'kernel', factory: FunctionFactory = defaultFactory): Kernel {
  return factory(kernelSource(g, outputs, name))();
}

/**
 * The bulk form of a kernel with both outputs (see UserBatchKernel.positionAndJacobian):
 * outputs[0, split) are C, to a.C, and outputs[split, …) are J, to a.J.
 * One pass, so shared subexpressions of both halves are computed once; each output is the same
 * expression as in the single kernels. J's constants are left out and the rest packed, as in the
 * J-only form.
 */
export function bulkKernel2Source(g: ScalarGraph, outputs: readonly number[], split: number, layout: BulkLayout, name = 'bulkKernel2'): string {
  const lines = kernelLines(g, outputs, '    ', true, split).map((line) => {
    const m = /^(\s*)o\[oo \+ (\d+)\] = (.*)$/.exec(line);
    if (!m) return line;
    const k = Number(m[2]);
    return k < split ? line : `${m[1]}j[jo + ${k - split}] = ${m[3]}`;
  });
  return (
    `"use strict";\nreturn function ${safeName(name)}(from, to, a) {\n  const o = a.C, j = a.J;\n` +
    bulkHead(g, outputs, layout, `    const oo = i * ${split};\n    const jo = i * ${variableCount(g, outputs.slice(split))};\n`) +
    `${lines.join('\n')}\n  }\n};`
  );
}

export function compileBulkKernel2(g: ScalarGraph, outputs: readonly number[], split: number, layout: BulkLayout, name = 'bulkKernel2', factory: FunctionFactory = defaultFactory): BulkKernel {
  return (factory(bulkKernel2Source(g, outputs, split, layout, name)) as unknown as () => BulkKernel)();
}

/** The interpreted two-output bulk form. */
export function interpretBulkKernel2(g: ScalarGraph, outputs: readonly number[], split: number, layout: BulkLayout): BulkKernel {
  const first = interpreter(g, outputs.slice(0, split)).run;
  const second = interpreter(g, outputs.slice(split), 0).run;
  const bases = new Int32Array(slotCount(g));
  const jw = variableCount(g, outputs.slice(split));
  return (from, to, a) => {
    for (let i = from; i < to; i++) {
      constraintBases(a, i * layout.slots, bases);
      first(a.states, bases, a.params, i * layout.paramCount, a.C, i * split);
      second(a.states, bases, a.params, i * layout.paramCount, a.J, i * jw);
    }
  };
}

/** The compiled bulk form. */
export function compileBulkKernel(g: ScalarGraph, outputs: readonly number[], target: BulkTarget, layout: BulkLayout, name = 'bulkKernel', factory: FunctionFactory = defaultFactory): BulkKernel {
  return compileBulkText(bulkKernelSource(g, outputs, target, layout, name), factory);
}

/** A bulk kernel from its text (bulkKernelSource), as a worker makes it too: `new Function(text)()`. */
export function compileBulkText(text: string, factory: FunctionFactory = defaultFactory): BulkKernel {
  return (factory(text) as unknown as () => BulkKernel)();
}

/** State offsets of each body slot: `bases[j]` is where slot j's state starts. */
type Run = (state: Float64Array, bases: Int32Array, params: Float64Array, po: number, out: Float64Array, oo: number) => void;

/** One more than the highest body slot any state read of the graph names (the size of `bases`). */
function slotCount(g: ScalarGraph): number {
  let n = 0;
  for (let id = 0; id < g.op.length; id++) if (g.op[id] === Op.STATE) n = Math.max(n, Math.floor(g.value[id]! / BODY_STATE_STRIDE) + 1);
  return n;
}

/** Slot j's state at j·stride: the layout of one constraint's own packed state. */
function packedBases(g: ScalarGraph): Int32Array {
  return Int32Array.from({ length: slotCount(g) }, (_, j) => j * BODY_STATE_STRIDE);
}

/** A constraint's slot state offsets (BatchArrays.slotState from `sl`) into `bases`. */
function constraintBases(a: BatchArrays, sl: number, bases: Int32Array): void {
  for (let j = 0; j < bases.length; j++) bases[j] = a.slotState[sl + j]!;
}

/**
 * The scalar program as flat arrays and a loop over them (state, params and out read at offsets).
 * Outputs from `skipConstFrom` on that are constants are not written (as kernelLines).
 */
function interpreter(g: ScalarGraph, outputs: readonly number[], skipConstFrom = Infinity): { run: Run } {
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
    A[i] = g.a[id]! >= 0 ? register.get(g.a[id]!)! : g.value[id]!; // PARAM: the index
    B[i] = g.b[id]! >= 0 ? register.get(g.b[id]!)! : -1;
    if (op === Op.STATE) {
      // STATE: A is the body slot, B the field within its state.
      A[i] = Math.floor(g.value[id]! / BODY_STATE_STRIDE);
      B[i] = g.value[id]! % BODY_STATE_STRIDE;
    }
    if (op === Op.CONST) regs[i] = g.value[id]!; // constants are written once, here
  });
  const written = outputs.map((id, k) => [k, id] as const).filter(([k, id]) => !(k >= skipConstFrom && isDeclaredConstant(g, id)));
  // (Packed from skipConstFrom on, as kernelLines.)
  const first = written.findIndex(([k]) => k >= skipConstFrom);
  const outK = Int32Array.from(written, ([k], w) => (k >= skipConstFrom ? skipConstFrom + w - first : k));
  const outs = Int32Array.from(written, ([, id]) => register.get(id)!);
  return { run: (state, bases, params, po, out, oo) => {
    for (let i = 0; i < n; i++) {
      const op = ops[i]!;
      switch (op) {
        case Op.CONST:
          break;
        case Op.STATE:
          regs[i] = state[bases[A[i]!]! + B[i]!]!;
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
    for (let w = 0; w < outs.length; w++) out[oo + outK[w]!] = regs[outs[w]!]!;
  } };
}

/** The interpreted form. */
export function interpretKernel(g: ScalarGraph, outputs: readonly number[]): Kernel {
  const { run } = interpreter(g, outputs);
  const bases = packedBases(g);
  return (state, params, out) => run(state, bases, params, 0, out, 0);
}

/** The interpreted bulk form. */
export function interpretBulkKernel(g: ScalarGraph, outputs: readonly number[], target: BulkTarget, layout: BulkLayout): BulkKernel {
  const { run } = interpreter(g, outputs, target === 'J' ? 0 : Infinity);
  const bases = new Int32Array(slotCount(g));
  const width = target === 'J' ? variableCount(g, outputs) : outputs.length;
  return (from, to, a) => {
    const out = target === 'J' ? a.J : a.C;
    for (let i = from; i < to; i++) {
      constraintBases(a, i * layout.slots, bases);
      run(a.states, bases, a.params, i * layout.paramCount, out, i * width);
    }
  };
}
