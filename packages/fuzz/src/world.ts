/**
 * One fuzz scene's world: the objects it made (by variable name), and the trace of what it did.
 *
 * Every action is a line of JavaScript (the trace is the repro): `$b3` names variable b3. The
 * line is compiled with `new Function` and run, so what is printed as a repro is exactly what
 * ran. Steps are not code: the harness runs them (with its checks) and the trace records
 * `run(n)`.
 */
import * as physics from '@fulcrum/physics';
import * as symbolic from '@fulcrum/symbolic';
import type { Body, Constraint, Shape, Space } from '@fulcrum/physics';
import { HookRuntime } from './runtime.js';

/** What a trace entry is: code that must succeed, a call that must be rejected, steps. */
export type TraceEntry =
  | { t: 'code'; code: string; label: string }
  | { t: 'reject'; code: string; label: string }
  | { t: 'steps'; n: number }
  /** One step that is meant to throw (an armed fault or a deferred rejection). */
  | { t: 'step-throws'; label: string }
  | { t: 'step-params'; dt: number; vi: number; pi: number };

/** The names every line of code sees. */
const LIB_NAMES = [
  'Space', 'Body', 'Circle', 'Polygon', 'Capsule', 'Segment',
  'PivotJoint', 'WeldJoint', 'AngleJoint', 'DistanceJoint', 'LineJoint', 'MotorJoint', 'PulleyJoint',
  'UserConstraint', 'BODY_STATE_STRIDE', 'BodyState', 'SymbolicConstraint', 'examples',
] as const;

function makeLib(F: HookRuntime): Record<string, unknown> {
  const all = { ...physics, ...symbolic } as Record<string, unknown>;
  const lib: Record<string, unknown> = { F };
  for (const n of LIB_NAMES) {
    if (!(n in all)) throw new Error(`fuzz: @fulcrum/physics or @fulcrum/symbolic no longer exports ${n}`);
    lib[n] = all[n];
  }
  return lib;
}

const PRELUDE = `const { F, ${LIB_NAMES.join(', ')} } = lib;\n`;

/** `$name` → `v.name` (to run) or `name` (to print). */
const VAR = /\$([A-Za-z_]\w*)/g;

export function toRunnable(code: string): string {
  return code.replace(VAR, 'v.$1');
}
export function toPrintable(code: string): string {
  return code.replace(VAR, '$1');
}

export type BodyKind = 'dynamic' | 'static' | 'kinematic';

/** What the generators remember about a constraint (the object itself is in `v`). */
export interface ConstraintInfo {
  name: string;
  /** 'PivotJoint', …, 'user:<form>', 'symbolic:<source>'. */
  kind: string;
  /** User constraints in Nape's effMass form need a movable body (K must be positive definite). */
  nape?: 'linear' | 'angular';
  /** Symbolic constraints: declared parameters with their valid ranges. */
  symbolic?: SymbolicInfo;
  /** Hook-form user constraints: the hooks the fuzz's F.hook calls are in. */
  hooks?: string[];
  /** The constraint can hold limits (user jacobian form, no velocity/effMass hooks). */
  limitable?: boolean;
}

export interface SymbolicInfo {
  source: string;
  bodies: string[];
  /** A parameter whose value 0 makes C non-finite (the custom pivot's k). */
  divisor?: string;
  /** Scalars that hold a range (jointMin/jointMax) and must be set together. */
  range?: [string, string, boolean];
  /** Scalars/vectors that are free (any finite value is valid). */
  scalars: string[];
  vectors: string[];
  /** A vector that must not be zero (LINE's direction). */
  nonZeroVector?: string;
}

export class World {
  /** The variables, by name. */
  readonly v: Record<string, unknown> = {};
  readonly F = new HookRuntime();
  readonly lib: Record<string, unknown>;
  readonly trace: TraceEntry[] = [];
  /** Tracked objects in creation order (their variable names). */
  readonly bodies: string[] = [];
  readonly shapes: string[] = [];
  readonly constraints: ConstraintInfo[] = [];
  private counters: Record<string, number> = {};
  /** A body and a constraint of the second space `$other` (for cross-space mistakes). */
  otherBody = '';
  otherConstraint = '';
  /** The main space is `$space`; `$other` is a second space for cross-space mistakes. */
  dt = 1 / 60;
  vi = 4;
  pi = 2;

  constructor() {
    this.lib = makeLib(this.F);
  }

  get space(): Space {
    return this.v.space as Space;
  }
  get other(): Space {
    return this.v.other as Space;
  }

  body(name: string): Body {
    return this.v[name] as Body;
  }
  shape(name: string): Shape {
    return this.v[name] as Shape;
  }
  constraint(name: string): Constraint {
    return this.v[name] as Constraint;
  }

  /** A fresh variable name: b1, b2, … */
  fresh(prefix: string): string {
    const n = (this.counters[prefix] ?? 0) + 1;
    this.counters[prefix] = n;
    return `${prefix}${n}`;
  }

  /** Compile and run one line (no trace). */
  exec(code: string): unknown {
    let fn: (v: Record<string, unknown>, lib: Record<string, unknown>) => unknown;
    try {
      fn = new Function('v', 'lib', PRELUDE + toRunnable(code)) as typeof fn;
    } catch (e) {
      throw new Error(`fuzz: generated code does not compile: ${(e as Error).message}\n${code}`);
    }
    return fn(this.v, this.lib);
  }

  /** Run a line that must succeed and record it. Throws what the line throws. */
  run(code: string, label: string): void {
    this.trace.push({ t: 'code', code, label });
    this.exec(code);
  }

  /** Record `n` steps (merged with the previous entry when it is steps too). */
  recordSteps(n: number): void {
    const last = this.trace[this.trace.length - 1];
    if (last && last.t === 'steps') last.n += n;
    else this.trace.push({ t: 'steps', n });
  }

  /** Bodies of the main space that are tracked, with their names. */
  spaceBodies(): string[] {
    const s = this.space;
    return this.bodies.filter((n) => this.body(n).space === s);
  }

  spaceConstraints(): ConstraintInfo[] {
    const s = this.space;
    return this.constraints.filter((c) => this.constraint(c.name).space === s);
  }

  info(c: Constraint): ConstraintInfo | undefined {
    return this.constraints.find((i) => this.v[i.name] === c);
  }

  nameOf(o: unknown): string | undefined {
    for (const [k, x] of Object.entries(this.v)) if (x === o) return k;
    return undefined;
  }
}
