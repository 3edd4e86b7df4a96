/**
 * retire(): the behaviour of a retired engine object, pinned against the implementation it
 * replaced (`retireByShadowing` below, which shadowed every guarded member on the object itself):
 * the same members throw the same FulcrumUnmountedError, everything else (reads, the engine's own
 * methods, class checks) is what it was, and no per-object accessors are added.
 */
import {
  AngleJoint,
  Body,
  Capsule,
  Circle,
  Constraint,
  DistanceJoint,
  Joint,
  LineJoint,
  MotorJoint,
  PivotJoint,
  Polygon,
  PulleyJoint,
  Segment,
  Shape,
  Space,
  UserConstraint,
  WeldJoint,
} from '@fulcrum/physics';
import { SymbolicConstraint } from '@fulcrum/symbolic';
import { describe, expect, it } from 'vitest';
import { FulcrumUnmountedError } from './errors.js';
import { isRetired, retire } from './retire.js';

/** The previous retire(), verbatim but for the WeakSet: the reference for the behaviour. */
function retireByShadowing(obj: object, label: string, owner: string): void {
  const fail = (member: string): never => {
    throw new FulcrumUnmountedError(
      `${label} belonged to a ${owner} that has unmounted: it was removed from its space and ${member} is disabled. ` +
        'Read the live object from the ref (ref.current) after the component mounts again.',
    );
  };
  for (const key of REFERENCE_MUTATORS) {
    if (typeof (obj as Record<string, unknown>)[key] === 'function') {
      Object.defineProperty(obj, key, { configurable: true, writable: false, value: () => fail(`${key}()`) });
    }
  }
  const seen = new Set<string>();
  for (let proto = Object.getPrototypeOf(obj) as object | null; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null) {
    for (const key of Object.getOwnPropertyNames(proto)) {
      if (key.startsWith('_') || seen.has(key)) continue;
      seen.add(key);
      const d = Object.getOwnPropertyDescriptor(proto, key)!;
      if (!d.set) continue;
      const get = d.get;
      Object.defineProperty(obj, key, {
        configurable: true,
        get: get
          ? function (this: object) {
              return get.call(this);
            }
          : undefined,
        set: () => fail(`setting ${key}`),
      });
    }
  }
}

const REFERENCE_MUTATORS = [
  'applyImpulse',
  'applyAngularImpulse',
  'addShape',
  'removeShape',
  'useShapeMass',
  'invalidate',
  'setPoints',
  'registerBody',
  'bindVec2',
  'setBody',
  'setScalar',
  'setVector',
  'clearCache',
];

const SOURCE = 'body a\nscalar k\nvector off\nconstraint a.position.x - k - off.x';

/** One of every class the components retire, with some state (bodies in a space that stepped, shapes on bodies, joints between bodies). */
const KINDS: Record<string, () => object> = {
  Body: () => {
    const space = new Space({ gravity: [0, -10] });
    const b = space.addBody(new Body({ position: [1, 2], velocity: [0.5, 0], shapes: [new Circle({ radius: 0.5 })] }));
    space.step(1 / 60);
    space.removeBody(b);
    return b;
  },
  Circle: () => new Body({ shapes: [new Circle({ radius: 0.5, offset: [0.1, 0] })] }).shapes[0]!,
  Polygon: () => new Polygon({ vertices: [[0, 0], [1, 0], [0, 1]] }),
  Segment: () => new Segment({ p1: [0, 0], p2: [1, 0] }),
  Capsule: () => new Capsule({ p1: [0, 0], p2: [1, 0], radius: 0.2 }),
  PivotJoint: () => new PivotJoint({ body1: new Body(), body2: new Body(), anchor1: [0.5, 0] }),
  WeldJoint: () => new WeldJoint({ body1: new Body(), body2: new Body() }),
  AngleJoint: () => new AngleJoint({ body1: new Body(), body2: new Body(), jointMin: -1, jointMax: 1 }),
  DistanceJoint: () => new DistanceJoint({ body1: new Body(), body2: new Body(), jointMin: 1, jointMax: 2 }),
  LineJoint: () => new LineJoint({ body1: new Body(), body2: new Body() }),
  MotorJoint: () => new MotorJoint({ body1: new Body(), body2: new Body(), rate: 2 }),
  PulleyJoint: () => new PulleyJoint(),
  UserConstraint: () => new UserConstraint(2),
  SymbolicConstraint: () => new SymbolicConstraint(SOURCE),
};

/** Members each kind must guard (a sample: the full sets come from the reference). */
const MUST_GUARD: Record<string, string[]> = {
  Body: ['position', 'velocity', 'rotation', 'type', 'mass', 'applyImpulse', 'addShape', 'removeShape'],
  Circle: ['radius', 'offset', 'density'],
  Segment: ['setPoints'],
  PivotJoint: ['anchor1', 'body1', 'active', 'invalidate'],
  UserConstraint: ['invalidate', 'registerBody'],
  SymbolicConstraint: ['setScalar', 'setVector', 'setBody'],
};

/** Every string-keyed member name reachable from `obj` (own and inherited, up to Object.prototype). */
function memberNames(obj: object): string[] {
  const names = new Set<string>();
  for (let p: object | null = obj; p && p !== Object.prototype; p = Object.getPrototypeOf(p) as object | null) {
    for (const k of Object.getOwnPropertyNames(p)) names.add(k);
  }
  for (const k of REFERENCE_MUTATORS) names.add(k);
  return [...names].sort();
}

/** The descriptor `obj[key]` resolves to, and where (the depth in the chain). */
function resolve(obj: object, key: string): { depth: number; d: PropertyDescriptor } | undefined {
  let depth = 0;
  for (let p: object | null = obj; p; p = Object.getPrototypeOf(p) as object | null, depth++) {
    const d = Object.getOwnPropertyDescriptor(p, key);
    if (d) return { depth, d };
  }
  return undefined;
}

/** What happens when `fn` runs: its error's class and message, or 'ok'. */
function outcome(fn: () => unknown): string {
  try {
    fn();
    return 'ok';
  } catch (e) {
    return `${(e as Error).constructor.name}: ${(e as Error).message}`;
  }
}

/** The readable public state of `obj`: every public getter and data member (functions by name). */
function reads(obj: object, names: readonly string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const k of names) {
    if (k === 'constructor' || k.startsWith('_')) continue;
    const r = (obj as Record<string, unknown>)[k];
    out[k] = typeof r === 'function' ? `function ${k}` : r;
  }
  return out;
}

describe('retire', () => {
  for (const [kind, make] of Object.entries(KINDS)) {
    it(`${kind}: the same members throw the same errors as when every one was shadowed on the object; the rest is unchanged`, () => {
      const reference = make();
      const fresh = make();
      const obj = make();
      const names = memberNames(fresh);
      reads(obj, names); // (some getters set up lazy internals on first read)
      const before = reads(obj, names);
      const ownBefore = Object.getOwnPropertyNames(obj);
      const freshOwn = new Set(Object.getOwnPropertyNames(fresh));
      retireByShadowing(reference, `${kind}#7`, '<Owner>');
      retire(obj, `${kind}#7`, '<Owner>');
      expect(isRetired(obj)).toBe(true);
      expect(isRetired(fresh)).toBe(false);

      // What the reference guarded: the own properties it added.
      const guarded = Object.getOwnPropertyNames(reference).filter((k) => !freshOwn.has(k));
      expect(guarded).toEqual(expect.arrayContaining(MUST_GUARD[kind] ?? []));
      expect(guarded.length).toBeGreaterThan(0);
      for (const key of names) {
        const ref = Object.getOwnPropertyDescriptor(reference, key);
        if (guarded.includes(key)) {
          const r = resolve(obj, key)!;
          if ('value' in ref!) {
            // A mutator: calling it throws the same error; it stays read-only, not enumerable.
            expect(outcome(() => (obj as Record<string, () => unknown>)[key]!()), key).toBe(outcome(() => (reference as Record<string, () => unknown>)[key]!()));
            expect(outcome(() => (obj as Record<string, (...args: unknown[]) => unknown>)[key]!(1, 2)), key).toMatch(/^FulcrumUnmountedError: /);
            expect(outcome(() => ((obj as Record<string, unknown>)[key] = () => 0)), key).toBe(outcome(() => ((reference as Record<string, unknown>)[key] = () => 0)));
            expect({ ...r.d, value: typeof r.d.value }, key).toEqual({ ...ref, value: 'function' });
          } else {
            // A setter: setting it throws the same error and changes nothing; reading it works.
            expect(outcome(() => ((obj as Record<string, unknown>)[key] = 0)), key).toBe(outcome(() => ((reference as Record<string, unknown>)[key] = 0)));
            expect(outcome(() => ((obj as Record<string, unknown>)[key] = (obj as Record<string, unknown>)[key])), key).toMatch(/^FulcrumUnmountedError: /);
            expect({ configurable: r.d.configurable, enumerable: r.d.enumerable, get: r.d.get !== undefined }, key).toEqual({
              configurable: ref!.configurable,
              enumerable: ref!.enumerable,
              get: ref!.get !== undefined,
            });
          }
        } else {
          // Not guarded: it resolves to the very same member as on a live object.
          const live = resolve(fresh, key);
          const now = resolve(obj, key);
          if (freshOwn.has(key)) {
            expect(Object.hasOwn(obj, key), key).toBe(true);
          } else {
            expect(now?.d, key).toEqual(live?.d);
          }
        }
      }
      // Every read gives what it gave before, guarded or not.
      expect(reads(obj, names)).toEqual(before);
      expect(outcome(() => JSON.stringify(Object.keys(obj)))).toBe(outcome(() => JSON.stringify(Object.keys(fresh))));
      // No per-object accessors: the own string-keyed properties are exactly what they were, and
      // one symbol-keyed property holds the label and owner.
      expect(Object.getOwnPropertyNames(obj)).toEqual(ownBefore);
      expect(Reflect.ownKeys(obj).length).toBe(ownBefore.length + 1);
      expect(Object.keys(obj)).toEqual(Object.keys(fresh));
    });
  }

  it('keeps class checks: instanceof, constructor, the class prototype chain', () => {
    const body = KINDS.Body!() as Body;
    const circle = new Circle({ radius: 1 });
    const joint = new PivotJoint();
    const user = new SymbolicConstraint(SOURCE);
    for (const o of [body, circle, joint, user]) retire(o, 'X#1', '<X>');
    expect(body).toBeInstanceOf(Body);
    expect(body.constructor).toBe(Body);
    expect(circle).toBeInstanceOf(Circle);
    expect(circle).toBeInstanceOf(Shape);
    expect(circle.constructor).toBe(Circle);
    expect(joint).toBeInstanceOf(PivotJoint);
    expect(joint).toBeInstanceOf(Joint);
    expect(joint).toBeInstanceOf(Constraint);
    expect(user).toBeInstanceOf(SymbolicConstraint);
    expect(user).toBeInstanceOf(UserConstraint);
    expect(Body.prototype.isPrototypeOf(body)).toBe(true);
    expect(Object.prototype.toString.call(body)).toBe(Object.prototype.toString.call(new Body()));
  });

  it('names the object and its owner; retiring again keeps the first label', () => {
    const b = new Body();
    retire(b, 'Body#41', '<Body>');
    retire(b, 'Body#99', '<Other>');
    const message =
      'Body#41 belonged to a <Body> that has unmounted: it was removed from its space and applyImpulse() is disabled. ' +
      'Read the live object from the ref (ref.current) after the component mounts again.';
    expect(() => b.applyImpulse([1, 0])).toThrow(new FulcrumUnmountedError(message));
    expect(() => {
      b.position = [1, 1];
    }).toThrow(/^Body#41 belonged to a <Body> that has unmounted: it was removed from its space and setting position is disabled\. /);
    expect(b.x).toBe(0);
    // Two retired objects of one class share the retired prototype; each error names its own object.
    const c = new Body();
    retire(c, 'Body#42', '<InstancedBodies>');
    expect(Object.getPrototypeOf(c)).toBe(Object.getPrototypeOf(b));
    expect(() => c.applyImpulse([1, 0])).toThrow(/^Body#42 belonged to a <InstancedBodies> that has unmounted/);
    expect(() => b.applyImpulse([1, 0])).toThrow(/^Body#41 belonged to a <Body> that has unmounted/);
    // Detached from its object, a mutator still throws (it cannot name the object).
    const detached = c.applyImpulse;
    expect(() => detached([1, 0])).toThrow(FulcrumUnmountedError);
  });

  it('leaves live objects and the classes alone', () => {
    const protos = [Body.prototype, Circle.prototype, Shape.prototype, PivotJoint.prototype, Joint.prototype, Constraint.prototype];
    const namesBefore = protos.map((p) => Reflect.ownKeys(p));
    for (const [kind, make] of Object.entries(KINDS)) retire(make(), `${kind}#1`, '<X>');
    expect(protos.map((p) => Reflect.ownKeys(p))).toEqual(namesBefore);
    const live = new Body({ shapes: [new Circle({ radius: 0.5 })] });
    expect(Object.getPrototypeOf(live)).toBe(Body.prototype);
    expect(isRetired(live)).toBe(false);
    live.position = [3, 4];
    live.applyImpulse([1, 0]);
    expect(live.x).toBe(3);
    expect(live.velocity.x).toBeGreaterThan(0);
    const shape = live.shapes[0] as Circle;
    shape.radius = 2;
    expect(shape.radius).toBe(2);
  });

  it('guards a member the object has as an own property (which would shadow the retired prototype)', () => {
    class Thing {
      _x = 0;
      get x(): number {
        return this._x;
      }
      set x(v: number) {
        this._x = v;
      }
      invalidate(): void {}
    }
    const t = new Thing();
    const own = new Thing();
    Object.defineProperty(own, 'x', { configurable: true, writable: true, value: 5 });
    (own as { clearCache?: () => void }).clearCache = () => {};
    own.invalidate = () => {};
    const reference = new Thing();
    Object.defineProperty(reference, 'x', { configurable: true, writable: true, value: 5 });
    (reference as { clearCache?: () => void }).clearCache = () => {};
    reference.invalidate = () => {};
    for (const o of [t, own]) retire(o, 'Thing#1', '<Thing>');
    retireByShadowing(reference, 'Thing#1', '<Thing>');
    for (const o of [t, own]) {
      expect(outcome(() => (o.x = 1))).toBe(outcome(() => (reference.x = 1)));
      expect(outcome(() => o.invalidate())).toBe(outcome(() => reference.invalidate()));
      expect(outcome(() => (o as { clearCache?: () => void }).clearCache?.())).toBe(
        o === own ? outcome(() => (reference as { clearCache?: () => void }).clearCache!()) : 'ok',
      );
      expect(o.x).toBe(0); // the getter of the class, as before
    }
    expect(outcome(() => own.invalidate())).toMatch(/^FulcrumUnmountedError: Thing#1 belonged to a <Thing> that has unmounted/);
  });
});
