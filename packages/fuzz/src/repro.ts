/**
 * A scene's trace as a standalone script (ESM, public API only), and its replay: the fuzz's own
 * checks over a trace, to tell whether a shortened trace still fails the same way (minimise.ts).
 */
import { describeError, signature } from './errors.js';
import { HookRuntime } from './runtime.js';
import { driversReaching } from './drivers.js';
import { atDefaultCap, BLOW_UP_SPEED, BLOW_UP_SPIN, capsFail, type Category } from './run.js';
import { toPrintable, World, type TraceEntry } from './world.js';

/** The script's prelude: imports, the step helper with the fuzz's checks. */
function prelude(trace: TraceEntry[], usesF: boolean): string {
  const vars = new Set<string>();
  for (const e of trace) if ('code' in e) for (const m of e.code.matchAll(/\$([A-Za-z_]\w*)/g)) vars.add(m[1]!);
  const lines = [
    `import { Space, Body, Circle, Polygon, Capsule, Segment, PivotJoint, WeldJoint, AngleJoint, DistanceJoint, LineJoint, MotorJoint, PulleyJoint, UserConstraint, BODY_STATE_STRIDE, BodyState } from '@fulcrum/physics';`,
    `import { SymbolicConstraint, examples } from '@fulcrum/symbolic';`,
    '',
  ];
  if (usesF) lines.push(`const F = new (${String(HookRuntime)})();`, `F.hashState = () => JSON.stringify(space.bodies.map((b) => [b.x, b.y, b.rotation, b.velocity, b.angularVel]));`);
  lines.push(
    `let dt = 1 / 60, vi = 4, pi = 2;`,
    `// Steps n times; after each, every body must be finite, slower than ${BLOW_UP_SPEED} m/s and ${BLOW_UP_SPIN} rad/s, and`,
    `// moved less than ${BLOW_UP_SPEED}·dt m and ${BLOW_UP_SPIN}·dt rad by the step.`,
    `function run(n) {`,
    `  for (let i = 0; i < n; i++) {`,
    `    const before = space.bodies.map((b) => [b.x, b.y, b.rotation]);`,
    `    space.step(dt, vi, pi);`,
    `    space.bodies.forEach((b, k) => {`,
    `      const v = b.velocity, speed = Math.hypot(v.x, v.y), [x, y, a] = before[k] ?? [b.x, b.y, b.rotation];`,
    `      if (![b.x, b.y, b.rotation, v.x, v.y, b.angularVel].every(Number.isFinite) || speed > ${BLOW_UP_SPEED} || Math.abs(b.angularVel) > ${BLOW_UP_SPIN} ||`,
    `          Math.hypot(b.x - x, b.y - y) > ${BLOW_UP_SPEED} * dt || Math.abs(b.rotation - a) > ${BLOW_UP_SPIN} * dt)`,
    '        throw new Error(`step ${space.stepCount}: Body#${b.id} at (${b.x}, ${b.y}), rotation ${b.rotation}, velocity (${v.x}, ${v.y}), angularVel ${b.angularVel}`);',
    `    });`,
    `  }`,
    `}`,
    `function rejected(f) { try { f(); } catch (e) { return; } throw new Error('not rejected: ' + f); }`,
    `function stepFails() { try { space.step(dt, vi, pi); } catch (e) { return; } console.log('the step did not fail'); }`,
  );
  if (vars.size) lines.push(`let ${[...vars].join(', ')};`);
  lines.push('');
  return lines.join('\n');
}

export function printRepro(trace: TraceEntry[], header: string[] = []): string {
  const usesF = trace.some((e) => 'code' in e && /\bF\./.test(e.code));
  const out: string[] = header.map((h) => `// ${h}`);
  out.push(prelude(trace, usesF));
  for (const e of trace) {
    switch (e.t) {
      case 'code':
        out.push(`${toPrintable(e.code)};`);
        break;
      case 'reject':
        out.push(`rejected(() => { ${toPrintable(e.code)}; }); // ${e.label}`);
        break;
      case 'steps':
        out.push(`run(${e.n});`);
        break;
      case 'step-throws':
        out.push(`stepFails(); // ${e.label}`);
        break;
      case 'step-params':
        out.push(`dt = ${e.dt === 1 / 60 ? '1 / 60' : e.dt === 1 / 30 ? '1 / 30' : e.dt === 1 / 120 ? '1 / 120' : e.dt === 1 / 240 ? '1 / 240' : e.dt}, vi = ${e.vi}, pi = ${e.pi};`);
        break;
    }
  }
  out.push(`console.log('done: no failure');`);
  return out.join('\n') + '\n';
}

export interface ReplayOutcome {
  category: Category | 'ok' | 'broken';
  message: string;
  /** For a throw, the error's signature. */
  signature?: string;
  /** Steps taken when it failed. */
  steps: number;
}

/**
 * Replays a trace with the fuzz's checks, then steps `tail` more times. A line that throws where the
 * trace says it succeeded makes the replay 'broken' (the shortened trace no longer makes sense),
 * unless that throw is itself the failure being minimised ('unexpected-throw').
 */
/** Step parameters forced on a replay (the fingerprint's variants). */
export interface StepOverride {
  velocityIterations?: number;
  positionIterations?: number;
  /** Each step is this many steps of dt / n (the same simulated time). */
  split?: number;
}

export function replay(trace: TraceEntry[], tail: number, override: StepOverride = {}): ReplayOutcome {
  const w = new World();
  let steps = 0;
  const stepSpace = (): void => {
    const n = override.split ?? 1;
    for (let i = 0; i < n; i++) w.space.step(w.dt / n, override.velocityIterations ?? w.vi, override.positionIterations ?? w.pi);
  };
  const step = (): ReplayOutcome | null => {
    steps++;
    const before = w.space.bodies.map((b) => [b.x, b.y, b.rotation] as const);
    try {
      stepSpace();
    } catch (e) {
      if (e instanceof Error && e.name === 'FulcrumDivergenceError') return { category: 'divergence', message: describeError(e), signature: signature(e), steps };
      return { category: 'unexpected-throw', message: describeError(e), signature: signature(e), steps };
    }
    const bodies = w.space.bodies;
    for (let k = 0; k < bodies.length; k++) {
      const b = bodies[k]!;
      const v = b.velocity;
      if (![b.x, b.y, b.rotation, v.x, v.y, b.angularVel].every(Number.isFinite)) return { category: 'nan', message: `Body#${b.id} not finite`, steps };
      if (Math.hypot(v.x, v.y) > BLOW_UP_SPEED || Math.abs(b.angularVel) > BLOW_UP_SPIN) return { category: 'blow-up', message: `Body#${b.id} at ${Math.hypot(v.x, v.y).toPrecision(3)} m/s, ${b.angularVel.toPrecision(3)} rad/s`, steps };
      if (capsFail()) {
        const at = atDefaultCap(b, w.dt, w.vi);
        if ((at.speed || at.spin) && driversReaching(w.space, b).length === 0) return { category: 'blow-up', message: `Body#${b.id} at a default speed cap (${Math.hypot(v.x, v.y).toPrecision(3)} m/s, ${b.angularVel.toPrecision(3)} rad/s), undriven`, steps };
      }
      const [x, y, a] = before[k] ?? [b.x, b.y, b.rotation];
      if (Math.hypot(b.x - x, b.y - y) > BLOW_UP_SPEED * w.dt || Math.abs(b.rotation - a) > BLOW_UP_SPIN * w.dt) return { category: 'blow-up', message: `Body#${b.id} jumped ${Math.hypot(b.x - x, b.y - y).toPrecision(3)} m, ${Math.abs(b.rotation - a).toPrecision(3)} rad in one step`, steps };
    }
    return null;
  };
  try {
    for (const e of trace) {
      switch (e.t) {
        case 'code':
          try {
            w.exec(e.code);
          } catch (err) {
            // A line that threw: the failure itself when its error is the one being minimised.
            return { category: 'unexpected-throw', message: describeError(err), signature: signature(err), steps };
          }
          break;
        case 'reject': {
          let threw = false;
          try {
            w.exec(e.code);
          } catch {
            threw = true;
          }
          if (!threw) return { category: 'invalid-accepted', message: e.label, steps };
          break;
        }
        case 'steps':
          for (let i = 0; i < e.n; i++) {
            if (!w.v.space) return { category: 'broken', message: 'no space', steps };
            const r = step();
            if (r) return r;
          }
          break;
        case 'step-throws':
          steps++;
          try {
            stepSpace();
          } catch {
            break;
          }
          break;
        case 'step-params':
          w.dt = e.dt;
          w.vi = e.vi;
          w.pi = e.pi;
          break;
      }
    }
    if (!w.v.space) return { category: 'broken', message: 'no space', steps };
    for (let i = 0; i < tail; i++) {
      const r = step();
      if (r) return r;
    }
  } catch (e) {
    return { category: 'broken', message: describeError(e), steps };
  }
  return { category: 'ok', message: '', steps };
}
