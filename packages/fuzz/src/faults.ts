/**
 * Faults around a step:
 *  - hooks that throw or write NaN / ±Infinity (injected through F, the fuzz's hook runtime), and
 *    symbolic parameters that make a constraint non-finite (k = 0, ±Infinity): the step must
 *    throw the documented error and leave bodies, impulses, sleep and contacts as before
 *    (STRICT_ATOMIC: a run fails otherwise);
 *  - mutations of the space from inside a hook while it steps: rejected with a FulcrumInputError
 *    that changes nothing, whether the hook catches it or lets it out of step();
 *  - changes the docs allow from inside a hook (a constraint's parameters): must not throw;
 *  - deferred rejections: a mistake the setter accepts and step() rejects before anything moves
 *    (a body of another space or of no space, an unset slot, a Nape hook pair broken, limits
 *    with effMass, a throwing validate() hook, a wrong Jacobian under checkUserConstraints, a
 *    symbolic limit violated by a default): nothing may change.
 */
import type { Body, Constraint } from '@fulcrum/physics';
import { lit, round, v2 } from './code.js';
import type { Expected } from './errors.js';
import type { Rng } from './rng.js';
import type { SceneRun } from './run.js';
import { inSpaceBodies, napeFixups, pickOr, spaceConstraints } from './valid.js';
import type { ConstraintInfo, World } from './world.js';

/** Hook-form constraints whose hooks call F.hook, active and in the space. */
function hookTargets(w: World): ConstraintInfo[] {
  return spaceConstraints(w, (i, c) => i.hooks !== undefined && c.active);
}

function isPacked(c: Constraint): boolean {
  return (c as unknown as { packedState: boolean }).packedState;
}

/** Arms F, steps expecting the failure, disarms. */
function injectedStep(run: SceneRun, armCode: string, kind: string, expected: Expected): boolean {
  const w = run.w;
  if (!run.harness(armCode, 'arm a hook fault')) return false;
  const outcome = run.stepExpectingFailure(kind, expected, 'hook', () => w.F.fired);
  w.run('F.disarm()', 'disarm');
  return outcome !== 'dead';
}

export function hookFault(run: SceneRun, rng: Rng): boolean {
  const w = run.w;
  const symbolic = spaceConstraints(w, (i, c) => i.symbolic !== undefined && c.active);
  const hooks = hookTargets(w);
  if (symbolic.length && (hooks.length === 0 || rng.chance(0.3))) return symbolicFault(run, rng, rng.pick(symbolic));
  const i = pickOr(rng, hooks);
  if (i === null) return true;
  const c = w.constraint(i.name);
  const hook = rng.pick(i.hooks!);
  const form = `${i.kind}${isPacked(c) ? ' packed' : ''}`;
  const countdown = rng.int(0, 6);
  if (rng.chance(0.5)) {
    return injectedStep(run, `F.arm({ mode: 'throw', target: $${i.name}, hook: '${hook}', countdown: ${countdown} })`, `hook throws: ${hook}() of ${form}`, 'injected');
  }
  const value = rng.pick(['NaN', 'Infinity', '-Infinity']);
  return injectedStep(run, `F.arm({ mode: 'nan', target: $${i.name}, hook: '${hook}', countdown: ${countdown}, value: ${value}, index: ${rng.int(0, 11)} })`, `hook writes ${value}: ${hook}() of ${form}`, 'input');
}

/** A parameter that makes a symbolic constraint's C, J or V non-finite: SymbolicRuntimeError. */
function symbolicFault(run: SceneRun, rng: Rng, i: ConstraintInfo): boolean {
  const w = run.w;
  const s = i.symbolic!;
  const c = w.constraint(i.name) as unknown as { getScalar(n: string): number };
  let param: string | null = null;
  let value = 'Infinity';
  if (s.divisor) {
    param = s.divisor;
    value = '0';
  } else if (s.source === 'WELD') param = 'phase';
  else if (s.source === 'MOTOR') param = rng.pick(['rate', 'ratio']);
  else if (s.source === 'ANGLE') param = 'ratio';
  if (param === null) return true;
  if (value === 'Infinity') value = rng.pick(['Infinity', '-Infinity']);
  const old = c.getScalar(param);
  if (!run.valid(`$${i.name}.setScalar('${param}', ${value})`, 'symbolic parameter made non-finite')) return false;
  // The runtime error comes only where the value is computed (a sleeping or unsolved constraint computes nothing).
  const outcome = run.stepExpectingFailure(`symbolic ${s.source}: ${param} = ${value}`, 'runtime-or-input', 'hook', () => false);
  if (outcome === 'dead') return false;
  return run.valid(`$${i.name}.setScalar('${param}', ${lit(old)})`, 'repair');
}

/** Forbidden mutations, attempted from inside a hook while the space steps. */
function forbiddenInHook(w: World, rng: Rng): { code: string; kind: string } | null {
  const b = pickOr(rng, inSpaceBodies(w));
  const shape = pickOr(rng, w.shapes.filter((n) => (w.shape(n).body as Body | null)?.space === w.space));
  const c = pickOr(rng, spaceConstraints(w));
  const options: { code: string; kind: string }[] = [
    { code: `$space.gravity = [0, -9]`, kind: 'Space.gravity' },
    { code: `$space.step(1 / 60)`, kind: 'Space.step (re-entrant)' },
    { code: `$space.addBody(new Body())`, kind: 'Space.addBody' },
    { code: `$space.jointIterations = 3`, kind: 'Space.jointIterations' },
    { code: `$space.allowSleep = !$space.allowSleep`, kind: 'Space.allowSleep' },
  ];
  if (b) {
    const body = w.body(b);
    options.push(
      { code: `$${b}.position = [0, 5]`, kind: 'Body.position' },
      { code: `$${b}.rotation = 1`, kind: 'Body.rotation' },
      { code: `$${b}.mass = 2`, kind: 'Body.mass' },
      { code: `$${b}.type = '${body.type === 'static' ? 'dynamic' : 'static'}'`, kind: 'Body.type' },
      { code: `$${b}.allowMovement = ${!body.allowMovement}`, kind: 'Body.allowMovement' },
      { code: `$${b}.applyImpulse([0, 1])`, kind: 'Body.applyImpulse' },
      { code: `$${b}.useShapeMass()`, kind: 'Body.useShapeMass' },
      { code: `$${b}.addShape(new Circle({ radius: 0.2 }))`, kind: 'Body.addShape' },
      { code: `$space.removeBody($${b})`, kind: 'Space.removeBody' },
    );
    if (body.type !== 'static') options.push({ code: `$${b}.velocity = [1, 0]`, kind: 'Body.velocity' });
  }
  if (shape) {
    options.push({ code: `$${shape}.friction = 0.1`, kind: 'Shape.friction' }, { code: `$${shape}.offset = [0.1, 0]`, kind: 'Shape.offset' }, { code: `$${shape}.filter = { group: 5 }`, kind: 'Shape.filter' });
    const s = w.shape(shape);
    if (s.kind === 'circle' || s.kind === 'capsule') options.push({ code: `$${shape}.radius = 0.3`, kind: `${s.kind === 'circle' ? 'Circle' : 'Capsule'}.radius` });
    if (s.kind === 'polygon') options.push({ code: `$${shape}.vertices = [[0, 0], [1, 0], [0, 1]]`, kind: 'Polygon.vertices' });
  }
  if (c) {
    const con = w.constraint(c.name);
    options.push({ code: `$space.removeConstraint($${c.name})`, kind: 'Space.removeConstraint' }, { code: `$${c.name}.active = ${!con.active}`, kind: 'Constraint.active' }, { code: `$${c.name}.ignore = ${!con.ignore}`, kind: 'Constraint.ignore' });
    if (b && 'body1' in con && !con.bodies.includes(w.body(b)) && c.kind !== 'PulleyJoint') options.push({ code: `$${c.name}.body1 = $${b}`, kind: 'Joint.body1' });
  }
  return rng.pick(options);
}

/** Constraint parameters, changed from inside a hook (documented as allowed). */
function allowedInHook(w: World, rng: Rng): { code: string; kind: string } | null {
  const c = pickOr(rng, spaceConstraints(w, (i) => !i.kind.startsWith('user:') || i.limitable === true));
  if (c === null) return null;
  const con = w.constraint(c.name) as Constraint & Record<string, unknown>;
  const options: { code: string; kind: string }[] = [
    { code: `$${c.name}.frequency = ${lit(round(rng.log(0.5, 60)))}`, kind: 'Constraint.frequency' },
    { code: `$${c.name}.damping = ${lit(round(rng.float(0, 2)))}`, kind: 'Constraint.damping' },
    { code: `$${c.name}.maxForce = ${lit(round(rng.log(1, 1e5)))}`, kind: 'Constraint.maxForce' },
  ];
  if ('anchor1' in con && !c.kind.includes(':')) options.push({ code: `$${c.name}.anchor1 = ${v2(round(rng.float(-0.5, 0.5)), round(rng.float(-0.5, 0.5)))}`, kind: 'Joint.anchor1' });
  if ('rate' in con) options.push({ code: `$${c.name}.rate = ${lit(round(rng.float(-5, 5)))}`, kind: 'MotorJoint.rate' });
  if ('phase' in con) options.push({ code: `$${c.name}.phase = ${lit(round(rng.float(-1, 1)))}`, kind: 'WeldJoint.phase' });
  if (c.symbolic?.vectors.length) options.push({ code: `$${c.name}.setVector('${c.symbolic.vectors[0]}', ${v2(round(rng.float(-0.5, 0.5)), round(rng.float(-0.5, 0.5)))})`, kind: 'SymbolicConstraint.setVector' });
  if (c.limitable) options.push({ code: `$${c.name}.setLimit(0, ${v2(-1, round(rng.float(0, 2)))})`, kind: 'UserConstraint.setLimit' });
  return rng.pick(options);
}

export function inHookMutation(run: SceneRun, rng: Rng): boolean {
  const w = run.w;
  const i = pickOr(rng, hookTargets(w));
  if (i === null) return true;
  const hook = rng.pick(i.hooks!);
  const countdown = rng.int(0, 4);
  const r = rng.next();
  if (r < 0.3) {
    const m = allowedInHook(w, rng);
    if (m === null) return true;
    run.stats.bump(run.stats.valid, `from a hook: ${m.kind}`);
    if (!run.harness(`F.arm({ mode: 'valid', target: $${i.name}, hook: '${hook}', countdown: ${countdown}, run: () => { ${m.code}; } })`, 'arm an in-hook change')) return false;
    run.pendingHook = { mode: 'valid', kind: `from a hook: ${m.kind}` };
    const ok = run.step();
    run.pendingHook = null;
    if (!ok) return false;
    w.run('F.disarm()', 'disarm');
    napeFixups(run);
    return true;
  }
  const m = forbiddenInHook(w, rng);
  if (m === null) return true;
  const kind = `mutation from a hook while stepping: ${m.kind}`;
  if (r < 0.7) {
    run.stats.bump(run.stats.invalid, kind);
    if (!run.harness(`F.arm({ mode: 'mutate-caught', target: $${i.name}, hook: '${hook}', countdown: ${countdown}, run: () => { ${m.code}; } })`, 'arm an in-hook mutation')) return false;
    run.pendingHook = { mode: 'mutate-caught', kind };
    const ok = run.step();
    if (run.pendingHook !== null) run.stats.notTriggered++;
    run.pendingHook = null;
    if (!ok) return false;
    w.run('F.disarm()', 'disarm');
    return true;
  }
  if (!run.harness(`F.arm({ mode: 'mutate-throw', target: $${i.name}, hook: '${hook}', countdown: ${countdown}, run: () => { ${m.code}; } })`, 'arm an in-hook mutation')) return false;
  const outcome = run.stepExpectingFailure(`${kind} (not caught)`, 'input', 'hook', () => w.F.fired);
  if (outcome === 'dead') return false;
  w.run('F.disarm()', 'disarm');
  return true;
}

// ---------------------------------------------------------------- deferred rejections

interface Deferred {
  kind: string;
  /** Accepted by its setter (valid), rejected by the next step. */
  setup: string;
  /** Undoes it. */
  repair: string;
  expect: Expected;
}

function deferredCases(w: World, rng: Rng): Deferred[] {
  const out: Deferred[] = [];
  const joint = pickOr(rng, spaceConstraints(w, (i, c) => !i.kind.includes(':') && i.kind !== 'PulleyJoint' && c.active));
  if (joint) {
    const c = w.constraint(joint.name) as Constraint & Record<string, unknown>;
    const slot = rng.pick(['body1', 'body2']);
    const old = c[slot] as Body;
    const oldName = w.nameOf(old);
    const other = slot === 'body1' ? c.body2 : c.body1;
    if (oldName) {
      if (other !== w.body(w.otherBody)) out.push({ kind: 'a joint body of another space', setup: `$${joint.name}.${slot} = $${w.otherBody}`, repair: `$${joint.name}.${slot} = $${oldName}`, expect: 'input' });
      out.push({ kind: 'a joint body in no space', setup: `$${joint.name}.${slot} = new Body()`, repair: `$${joint.name}.${slot} = $${oldName}`, expect: 'input' });
      out.push({ kind: 'an active joint with an unset body', setup: `$${joint.name}.${slot} = null`, repair: `$${joint.name}.${slot} = $${oldName}`, expect: 'input' });
    }
  }
  const user = pickOr(rng, spaceConstraints(w, (i, c) => i.kind.startsWith('user:') && i.kind !== 'user:subclass-rod' && i.kind !== 'user:bulk-pin' && c.active));
  if (user) {
    const c = w.constraint(user.name) as Constraint & Record<string, unknown>;
    const list = c.bodyList as (Body | null)[];
    if (list.every((b) => b !== null)) {
      const names = list.map((b) => `$${w.nameOf(b)}`);
      const k = rng.int(0, names.length - 1);
      const bad = names.slice();
      bad[k] = `$${w.otherBody}`;
      out.push({ kind: 'a user constraint body of another space', setup: `$${user.name}.bodyList = [${bad.join(', ')}]`, repair: `$${user.name}.bodyList = [${names.join(', ')}]`, expect: 'input' });
    }
    const h = w.fresh('h');
    if (user.nape) {
      const drop = rng.pick(['impulse', 'effMass']);
      out.push({ kind: `Nape's form with ${drop === 'impulse' ? 'effMass' : 'impulse'} but no ${drop}`, setup: `$${h} = $${user.name}.hooks; $${user.name}.hooks = { ...$${h}, ${drop}: undefined }`, repair: `$${user.name}.hooks = $${h}`, expect: 'input' });
      out.push({ kind: "limits with Nape's effMass form", setup: `$${user.name}.setLimit(0, [-1, 1])`, repair: `$${user.name}.setLimit(0, null)`, expect: 'input' });
    }
    if ((user.hooks ?? []).includes('position')) out.push({ kind: 'a user constraint without position()', setup: `$${h} = $${user.name}.hooks; $${user.name}.hooks = { ...$${h}, position: undefined }`, repair: `$${user.name}.hooks = $${h}`, expect: 'input' });
    out.push({ kind: 'a validate() hook that throws', setup: `$${h} = $${user.name}.hooks; $${user.name}.hooks = { ...$${h}, validate() { throw new F.constructor.Injected('validate() refused'); } }`, repair: `$${user.name}.hooks = $${h}`, expect: 'injected' });
  }
  const sym = pickOr(rng, spaceConstraints(w, (i, c) => i.symbolic !== undefined && c.active));
  if (sym) {
    const c = w.constraint(sym.name) as Constraint & Record<string, unknown>;
    const s = sym.symbolic!;
    const slot = rng.pick(s.bodies);
    const old = (c as unknown as { getBody(n: string): Body | null }).getBody(slot);
    const oldName = old ? w.nameOf(old) : undefined;
    if (oldName) out.push({ kind: 'a symbolic body of another space', setup: `$${sym.name}.setBody('${slot}', $${w.otherBody})`, repair: `$${sym.name}.setBody('${slot}', $${oldName})`, expect: 'input' });
    if (oldName) out.push({ kind: 'an active symbolic constraint with an unset body', setup: `$${sym.name}.setBody('${slot}', null)`, repair: `$${sym.name}.setBody('${slot}', $${oldName})`, expect: 'input' });
  }
  const bodies = inSpaceBodies(w);
  const used = pickOr(rng, bodies.filter((n) => spaceConstraints(w, (i, c) => c.active && c.bodies.includes(w.body(n))).length > 0));
  if (used) out.push({ kind: 'a body removed while an active constraint holds it', setup: `$space.removeBody($${used})`, repair: `$space.addBody($${used})`, expect: 'input' });
  const movable = bodies.filter((n) => w.body(n).constraintMass > 0);
  if (bodies.length >= 2 && movable.length) {
    // The wrong entry is in a's x column: a must be movable for the check to judge it.
    const [a, b] = [rng.pick(movable), rng.pick(bodies)];
    if (a !== b) {
      const c = w.fresh('c');
      out.push({
        kind: 'a new LINE symbolic constraint with its default zero direction',
        setup: `$${c} = $space.addConstraint(new SymbolicConstraint({ source: examples.LINE, bodies: { body1: $${a}, body2: $${b} } }))`,
        repair: `$space.removeConstraint($${c})`,
        expect: 'limit',
      });
      const c2 = w.fresh('c');
      out.push({
        kind: 'a wrong hand-written Jacobian under checkUserConstraints',
        setup: `$space.checkUserConstraints = true; $${c2} = $space.addConstraint(new UserConstraint({ dimensions: 1, bodies: [$${a}, $${b}], hooks: { position(err) { const [p, q] = this.bodyList; err[0] = q.x - p.x; }, jacobian(J) { J.set([1, 0, 0, 1, 0, 0]); } } }))`,
        repair: `$space.removeConstraint($${c2}); $space.checkUserConstraints = ${w.space.checkUserConstraints}`,
        expect: 'input',
      });
    }
  }
  return out;
}

export function deferredRejection(run: SceneRun, rng: Rng): boolean {
  const w = run.w;
  const cases = deferredCases(w, rng);
  if (!cases.length) return true;
  const d = rng.pick(cases);
  if (!run.valid(d.setup, `setup: ${d.kind}`)) return false;
  const outcome = run.stepExpectingFailure(`deferred: ${d.kind}`, d.expect, 'strict');
  if (outcome === 'dead') return false;
  if (!run.valid(d.repair, `repair: ${d.kind}`)) return false;
  napeFixups(run);
  return true;
}
