/**
 * SymbolicConstraint as a UserConstraint: its API and its errors, limits (variable limits and
 * limited rows going slack and engaging), waking, softness and breaking, compile modes, copy()
 * and debug().
 */
import { Body, Circle, FulcrumInputError, Polygon, Space } from '@fulcrum/physics';
import { describe, expect, it } from 'vitest';
import { SymbolicLimitError, SymbolicSyntaxError, SymbolicTypeError } from './errors.js';
import { DISTANCE, LINE, MOTOR, PIVOT, WELD } from './examples.js';
import { SymbolicConstraint } from './symbolic-constraint.js';

const DT = 1 / 60;

function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('nothing was thrown');
}

describe('API', () => {
  it('has the nape-symbolic setters and getters, chainable, plus the options form', () => {
    const a = new Body();
    const b = new Body();
    const c = new SymbolicConstraint(WELD).setBody('body1', a).setBody('body2', b).setScalar('phase', 0.25).setVector('anchor1', [1, 2]).setVector('anchor2', { x: -1, y: 0.5 });
    expect(c.getBody('body1')).toBe(a);
    expect(c.getBody('body2')).toBe(b);
    expect(c.getScalar('phase')).toBe(0.25);
    expect({ ...c.getVector('anchor1') }).toEqual({ x: 1, y: 2 });
    expect(c.bodyList).toEqual([a, b]);
    expect([c.dimensions, c.velocityOnly, c.typeName]).toEqual([3, false, 'SymbolicConstraint']);
    expect([c.bodyNames, c.scalarNames, c.vectorNames]).toEqual([['body1', 'body2'], ['phase'], ['anchor1', 'anchor2']]);

    const o = new SymbolicConstraint({ source: WELD, bodies: { body2: b, body1: a }, scalars: { phase: 0.25 }, vectors: { anchor1: [1, 2], anchor2: [-1, 0.5] }, stiff: false, frequency: 4, damping: 0.2, maxForce: 50, userData: 'x' });
    expect(o.bodyList).toEqual([a, b]);
    expect([o.getScalar('phase'), o.getVector('anchor2').y, o.stiff, o.frequency, o.damping, o.maxForce, o.userData]).toEqual([0.25, 0.5, false, 4, 0.2, 50, 'x']);
    // Unset bodies are null; unset parameters are 0.
    const bare = new SymbolicConstraint(WELD);
    expect([bare.getBody('body1'), bare.getScalar('phase'), bare.getVector('anchor1').x]).toEqual([null, 0, 0]);
    expect(new SymbolicConstraint(MOTOR).velocityOnly).toBe(true);
  });

  it('getVector is a live view: setting x or y is a checked setVector', () => {
    const c = new SymbolicConstraint(WELD);
    const v = c.getVector('anchor1');
    expect(c.getVector('anchor1')).toBe(v);
    v.x = 3;
    v.y = -2;
    c.setVector('anchor1', [5, 6]);
    expect([v.x, v.y]).toEqual([5, 6]);
    expect(() => (v.y = NaN)).toThrow(/setVector\("anchor1", \{x: 5, y: NaN\}\): the value must be a vector/);
    expect(v.y).toBe(6);
  });

  it('rejects misuse with the method, the name and the value', () => {
    const c = new SymbolicConstraint(WELD);
    const cases: [() => unknown, string][] = [
      [() => c.setScalar('phse', 1), `SymbolicConstraint.setScalar("phse", 1): no scalar 'phse' is declared, did you mean 'phase'? (declared scalars: phase)`],
      [() => c.setScalar('anchor1', 1), `SymbolicConstraint.setScalar("anchor1", 1): 'anchor1' is a vector, not a scalar; use setVector`],
      [() => c.getScalar('anchor1'), `SymbolicConstraint.getScalar("anchor1"): 'anchor1' is a vector, not a scalar; use getVector`],
      [() => c.setScalar('phase', NaN), 'SymbolicConstraint.setScalar("phase", NaN): the value must be a number (not NaN; ±Infinity is allowed, for limits)'],
      [() => c.setScalar('phase', '1' as unknown as number), 'SymbolicConstraint.setScalar("phase", "1"): the value must be a number (not NaN; ±Infinity is allowed, for limits)'],
      [() => c.setScalar(7 as unknown as string, 1), 'SymbolicConstraint.setScalar(7, 1): the name must be a string'],
      [() => c.setVector('anchor1', [1] as unknown as [number, number]), 'SymbolicConstraint.setVector("anchor1", [1]): the value must be a vector {x, y} or [x, y] with finite components'],
      [() => c.setVector('anchor1', { x: 1, y: Infinity }), 'SymbolicConstraint.setVector("anchor1", {x: 1, y: Infinity}): the value must be a vector {x, y} or [x, y] with finite components'],
      [() => c.setBody('body1', {} as Body), 'SymbolicConstraint.setBody("body1", {}): the value must be a Body or null'],
      [() => c.setBody('body3', null), `SymbolicConstraint.setBody("body3", null): no body 'body3' is declared, did you mean 'body1'? (declared bodies: body1, body2)`],
      [() => c.getBody('phase'), `SymbolicConstraint.getBody("phase"): 'phase' is a scalar, not a body; use getScalar`],
      [() => new SymbolicConstraint(42 as unknown as string), 'SymbolicConstraint needs a source string or an options object { source, bodies, scalars, vectors, … }, got 42'],
      [() => new SymbolicConstraint({ source: 1 } as unknown as { source: string }), 'SymbolicConstraint options.source must be a string, got 1'],
      [() => new SymbolicConstraint({ source: WELD, stif: true } as unknown as { source: string }), "SymbolicConstraint options: unknown option 'stif', did you mean 'stiff'?"],
      [() => new SymbolicConstraint({ source: WELD, compile: 'jit' } as unknown as { source: string }), `SymbolicConstraint options.compile must be one of 'function', 'interpreter', 'auto', got "jit"`],
      [() => new SymbolicConstraint({ source: WELD, scalars: { ratio: 2 } }), `SymbolicConstraint options.scalars.ratio = 2: no scalar 'ratio' is declared (declared scalars: phase)`],
      [() => new SymbolicConstraint({ source: WELD, scalars: { anchor1: 2 } }), `SymbolicConstraint options.scalars.anchor1 = 2: 'anchor1' is a vector, not a scalar; put it in options.vectors`],
      [() => new SymbolicConstraint({ source: WELD, vectors: { anchor1: [1, NaN] } }), `SymbolicConstraint options.vectors.anchor1 = [1, NaN]: the value must be a vector`],
      [() => new SymbolicConstraint({ source: WELD, bodies: 3 as unknown as Record<string, Body> }), 'SymbolicConstraint options.bodies must be an object keyed by declared names, got 3'],
      [() => new SymbolicConstraint({ source: WELD, frequency: -1 }), 'SymbolicConstraint.frequency must be a positive finite number, got -1'],
    ];
    for (const [f, message] of cases) {
      const e = thrown(f);
      expect(e).toBeInstanceOf(FulcrumInputError);
      expect(e.message.startsWith(message), `${e.message}\n  should start with\n${message}`).toBe(true);
    }
    // A failed set changes nothing.
    expect(c.getScalar('phase')).toBe(0);
    expect(c.getVector('anchor1').x).toBe(0);
  });

  it('reports source errors as SymbolicErrors with a location', () => {
    const e = thrown(() => new SymbolicConstraint('body b\nconstraint b.rotatino'));
    expect(e).toBeInstanceOf(SymbolicTypeError);
    expect(e.message.split('\n')[0]).toBe("unknown body field 'rotatino' at 2:14, did you mean 'rotation'? (a body has position, rotation, velocity and angularVel)");
  });

  it('names the declared body that is missing when stepping', () => {
    const space = new Space();
    const c = space.addConstraint(new SymbolicConstraint(PIVOT).setBody('body1', space.addBody(new Body())));
    expect(() => space.step(DT)).toThrow(`SymbolicConstraint#${c.id}.body2 is not set`);
  });

  it('a non-finite J (a division by a zero parameter) fails naming the constraint and the division', () => {
    const space = new Space();
    const c = new SymbolicConstraint('body b\nscalar s\nconstraint b.rotation / s');
    space.addConstraint(c.setBody('b', space.addBody(new Body({ shapes: [new Circle({ radius: 0.5 })] }))));
    expect(() => space.step(DT)).toThrow(`SymbolicConstraint#${c.id}: jacobian() wrote Infinity in row 0, column 2 (θ of b, about its centre of mass): in the derivative of \`b.rotation / s\`, \`1 / s\` = Infinity, from \`1\` = 1 and \`s\` = 0 at 3:12`);
    c.setScalar('s', 2);
    expect(() => space.step(DT)).not.toThrow();
  });
});

describe('errors name the option at fault (.prop), so bindings need not parse messages', () => {
  it('source errors: prop source, with the line and column; API errors: the collection and the name', () => {
    const a = new Body();
    const cases: [() => unknown, new (...args: never[]) => Error, string][] = [
      [() => new SymbolicConstraint('body b\nconstraint b.rotatino'), SymbolicTypeError, 'source'],
      [() => new SymbolicConstraint('body b\nconstraint (b.rotation'), SymbolicSyntaxError, 'source'],
      [() => new SymbolicConstraint({ source: WELD, scalars: { phse: 1 } }), FulcrumInputError, 'scalars.phse'],
      [() => new SymbolicConstraint({ source: WELD, scalars: { phase: NaN } }), FulcrumInputError, 'scalars.phase'],
      [() => new SymbolicConstraint({ source: WELD, vectors: { anchor1: [NaN, 0] } }), FulcrumInputError, 'vectors.anchor1'],
      [() => new SymbolicConstraint({ source: WELD, bodies: { a } }), FulcrumInputError, 'bodies.a'],
      [() => new SymbolicConstraint({ source: WELD, scalars: 3 as never }), FulcrumInputError, 'scalars'],
      [() => new SymbolicConstraint({ source: WELD, frequncy: 3 } as never), FulcrumInputError, 'frequncy'],
      [() => new SymbolicConstraint({ source: WELD, frequency: -3 }), FulcrumInputError, 'frequency'],
      [() => new SymbolicConstraint({ source: WELD, compile: 'jit' as never }), FulcrumInputError, 'compile'],
      [() => new SymbolicConstraint(WELD).setScalar('length', 1), FulcrumInputError, 'scalars.length'],
      [() => new SymbolicConstraint(WELD).setScalar('phase', NaN), FulcrumInputError, 'scalars.phase'],
      [() => new SymbolicConstraint(WELD).setVector('phase', [1, 0]), FulcrumInputError, 'vectors.phase'],
      [() => new SymbolicConstraint(WELD).setBody('a', a), FulcrumInputError, 'bodies.a'],
      [() => new SymbolicConstraint(DISTANCE).setScalar('jointMin', 2), SymbolicLimitError, 'scalars.jointMin'],
      [() => new SymbolicConstraint({ source: DISTANCE, scalars: { jointMax: -1 } }), SymbolicLimitError, 'scalars.jointMax'],
      [() => new SymbolicConstraint(LINE).setVector('direction', [1e-12, 0]), SymbolicLimitError, 'vectors.direction'],
    ];
    for (const [bad, type, prop] of cases) {
      const e = thrown(bad) as Error & { prop: string | null; owner: string | null };
      expect(e, prop).toBeInstanceOf(type);
      expect(e.prop, e.message).toBe(prop);
      expect(e.owner).toBe('SymbolicConstraint');
    }
    const e = thrown(() => new SymbolicConstraint('body b\nconstraint b.rotatino')) as SymbolicTypeError;
    expect([e.line, e.column]).toEqual([2, 14]);
  });
});

describe('limits', () => {
  it('a set that violates a limit throws a SymbolicLimitError naming the limit, the values and the place, and changes nothing', () => {
    const c = new SymbolicConstraint(DISTANCE);
    const e = thrown(() => c.setScalar('jointMin', 2));
    expect(e).toBeInstanceOf(SymbolicLimitError);
    expect(e.message).toBe(
      `SymbolicConstraint#${c.id}: limit 'limit jointMin 0 jointMax' is violated by setScalar: the value 2 is above its upper bound 0 (jointMin = 2, jointMax = 0) at 5:1, set both at once with setScalars({ jointMin: 2, jointMax: … })\n` +
        '  5 | limit jointMin 0 jointMax\n' +
        '    | ^~~~~~~~~~~~~~~~~~~~~~~~~',
    );
    expect(c.getScalar('jointMin')).toBe(0);
    expect(thrown(() => c.setScalar('jointMin', -1)).message).toMatch(/the value -1 is below its lower bound 0/);
    c.setScalar('jointMax', 3).setScalar('jointMin', 2);
    expect([c.getScalar('jointMin'), c.getScalar('jointMax')]).toEqual([2, 3]);
    // The options form sets everything, then checks.
    expect(new SymbolicConstraint({ source: DISTANCE, scalars: { jointMin: 0.5, jointMax: 1 } }).getScalar('jointMin')).toBe(0.5);
    expect(() => new SymbolicConstraint({ source: DISTANCE, scalars: { jointMin: 2, jointMax: 1 } })).toThrow(SymbolicLimitError);
  });

  it('setScalars, setVectors and set assign several parameters, then check the limits once; a failed call changes nothing', () => {
    const c = new SymbolicConstraint(DISTANCE);
    // From the default 0 ≤ 0 ≤ 0, neither jointMin = 2 nor jointMax = 3 alone is allowed first... jointMin is not:
    expect(thrown(() => c.setScalar('jointMin', 2))).toBeInstanceOf(SymbolicLimitError);
    // ...but together they are.
    expect(c.setScalars({ jointMin: 2, jointMax: 3 })).toBe(c);
    expect([c.getScalar('jointMin'), c.getScalar('jointMax')]).toEqual([2, 3]);
    // A range that violates the limit: nothing changes, and the error names the call; no hint, both were set.
    const e = thrown(() => c.setScalars({ jointMin: 5, jointMax: 4 })) as SymbolicLimitError;
    expect(e).toBeInstanceOf(SymbolicLimitError);
    expect(e.message.split('\n')[0]).toBe(`SymbolicConstraint#${c.id}: limit 'limit jointMin 0 jointMax' is violated by setScalars: the value 5 is above its upper bound 4 (jointMin = 5, jointMax = 4) at 5:1`);
    expect([e.prop, e.hint]).toEqual(['scalars.jointMin', '']);
    expect([c.getScalar('jointMin'), c.getScalar('jointMax')]).toEqual([2, 3]);
    // A bad name or value anywhere in the call: nothing is assigned, not even the valid entries before it.
    const bad: [() => unknown, string, string][] = [
      [() => c.setScalars({ jointMin: 1, jointMx: 2 }), `SymbolicConstraint.setScalars({jointMx: 2}): no scalar 'jointMx' is declared, did you mean 'jointMax'? (declared scalars: jointMin, jointMax)`, 'scalars.jointMx'],
      [() => c.setScalars({ jointMin: 1, jointMax: NaN }), 'SymbolicConstraint.setScalars({jointMax: NaN}): the value must be a number (not NaN; ±Infinity is allowed, for limits)', 'scalars.jointMax'],
      [() => c.setScalars({ jointMin: 1, anchor1: 2 }), `SymbolicConstraint.setScalars({anchor1: 2}): 'anchor1' is a vector, not a scalar; use setVectors`, 'scalars.anchor1'],
      [() => c.setScalars(3 as never), 'SymbolicConstraint.setScalars(3): the argument must be an object keyed by declared scalar names', 'scalars'],
      [() => c.setVectors({ anchor1: [1, 0], anchor2: [Infinity, 0] }), 'SymbolicConstraint.setVectors({anchor2: [Infinity, 0]}): the value must be a vector {x, y} or [x, y] with finite components', 'vectors.anchor2'],
      [() => c.set({ scalars: { jointMin: 1 }, vectors: { jointMax: [1, 0] } }), `SymbolicConstraint.set({vectors: {jointMax: [1, 0]}}): 'jointMax' is a scalar, not a vector; put it in scalars`, 'vectors.jointMax'],
      [() => c.set({ scalar: { jointMin: 1 } } as never), `SymbolicConstraint.set({"scalar":{"jointMin":1}}): unknown key 'scalar', did you mean 'scalars'? (set takes { scalars, vectors })`, 'scalar'],
      [() => c.set(null as never), 'SymbolicConstraint.set(null): the argument must be { scalars?, vectors? }', 'set'],
    ];
    for (const [f, message, prop] of bad) {
      const err = thrown(f) as FulcrumInputError;
      expect(err).toBeInstanceOf(FulcrumInputError);
      expect(err.message).toBe(message);
      expect(err.prop).toBe(prop);
    }
    expect([c.getScalar('jointMin'), c.getScalar('jointMax'), c.getVector('anchor1').x]).toEqual([2, 3, 0]);
    // Vectors, and both kinds at once.
    c.setVectors({ anchor1: [1, 0], anchor2: { x: 0, y: -1 } }).set({ scalars: { jointMin: 0.5 }, vectors: { anchor1: [0.25, 0] } });
    expect([c.getVector('anchor1').x, c.getVector('anchor2').y, c.getScalar('jointMin')]).toEqual([0.25, -1, 0.5]);
  });

  it('a limit that reads another parameter too: the single setter says to set both at once, naming the call', () => {
    const source = 'body b\nvector v\nscalar lo\nlimit |v| lo inf\nconstraint b.position - v';
    const c = new SymbolicConstraint({ source, vectors: { v: [1, 0] }, scalars: { lo: 0.5 } });
    const e = thrown(() => c.setVector('v', [0.1, 0])) as SymbolicLimitError;
    expect(e.message.split('\n')[0]).toBe(`SymbolicConstraint#${c.id}: limit 'limit |v| lo inf' is violated by setVector: the value 0.1 is below its lower bound 0.5 (v = (0.1, 0), lo = 0.5) at 4:1, set both at once with set({ scalars: { lo: … }, vectors: { v: [0.1, 0] } })`);
    expect(e.hint).toBe('set both at once with set({ scalars: { lo: … }, vectors: { v: [0.1, 0] } })');
    expect(c.getVector('v').x).toBe(1);
    c.set({ scalars: { lo: 0.05 }, vectors: { v: [0.1, 0] } });
    expect([c.getVector('v').x, c.getScalar('lo')]).toEqual([0.1, 0.05]);
    // A limit on one parameter only gets no hint.
    const line = new SymbolicConstraint(LINE);
    expect((thrown(() => line.setVector('direction', [1e-12, 0])) as SymbolicLimitError).hint).toBe('');
  });

  it('the row limits follow setScalars, and the limits are still checked before each step', () => {
    const space = new Space({ gravity: [0, -10] });
    const pin = space.addBody(new Body({ type: 'static' }));
    const ball = space.addBody(new Body({ position: [0.3, -0.4], shapes: [new Circle({ radius: 0.1 })] }));
    const rope = space.addConstraint(new SymbolicConstraint({ source: DISTANCE, bodies: { body1: pin, body2: ball } }));
    rope.setScalars({ jointMin: 0.2, jointMax: 0.5 });
    expect(rope.limit(0)).toEqual([0.2, 0.5]);
    space.step(DT);
    expect(Math.hypot(ball.x, ball.y)).toBeLessThan(0.5 + 1e-3);
    const a = space.addBody(new Body({ shapes: [new Circle({ radius: 0.3 })] }));
    const b = space.addBody(new Body({ position: [1, 0], shapes: [new Circle({ radius: 0.3 })] }));
    const line = space.addConstraint(new SymbolicConstraint({ source: LINE, bodies: { body1: a, body2: b } }));
    line.setScalars({ jointMin: -1, jointMax: 1 }); // the zero direction is not read by this call...
    expect(thrown(() => space.step(DT))).toBeInstanceOf(SymbolicLimitError); // ...and the step checks it
  });

  it('-inf needs no parentheses in a limit: the Line written with -inf is the Line', () => {
    const written = LINE.replace('(-inf)', '-inf');
    expect(written).toContain('limit jointMin -inf jointMax');
    const c = new SymbolicConstraint({ source: written, vectors: { direction: [1, 0] } });
    c.setScalars({ jointMin: -3, jointMax: -1 });
    expect(thrown(() => c.setScalar('jointMin', 2)).message).toMatch(/the value 2 is above its upper bound -1/);
    c.setScalar('jointMin', -Infinity);
    expect(c.getScalar('jointMin')).toBe(-Infinity);
    expect(thrown(() => c.setScalar('jointMax', -Infinity)).message).toMatch(/has row 0 bounds \[-inf, -inf\], which no value satisfies/);
  });

  it('limits are checked before each step: the Line with its default zero direction does not step, and nothing moves', () => {
    const space = new Space({ gravity: [0, -10] });
    const a = space.addBody(new Body({ shapes: [new Circle({ radius: 0.3 })] }));
    const b = space.addBody(new Body({ position: [1, 0], shapes: [new Circle({ radius: 0.3 })] }));
    const c = space.addConstraint(new SymbolicConstraint({ source: LINE, bodies: { body1: a, body2: b }, scalars: { jointMin: -1, jointMax: 1 } }));
    const e = thrown(() => space.step(DT));
    expect(e).toBeInstanceOf(SymbolicLimitError);
    expect(e.message.split('\n')[0]).toBe(`SymbolicConstraint#${c.id}: limit 'limit |direction| eps inf' is violated before the step: the value 0 is below its lower bound 1e-10 (direction = (0, 0)) at 6:1`);
    expect(b.position).toEqual({ x: 1, y: 0 });
    c.setVector('direction', [1, 0]);
    space.step(DT);
    expect(b.y).toBeLessThan(0);
  });

  it('row bounds that no value satisfies are rejected', () => {
    const c = new SymbolicConstraint('body b\nscalar lo, hi\nlimit constraint lo hi\nconstraint b.rotation');
    expect(thrown(() => c.setScalar('lo', 2)).message.split('\n')[0]).toBe(
      `SymbolicConstraint#${c.id}: limit 'limit constraint lo hi' has row 0 bounds [2, 0], which no value satisfies (after setScalar) (lo = 2, hi = 0) at 3:1, set both at once with setScalars({ lo: 2, hi: … })`,
    );
    c.setScalar('hi', Infinity).setScalar('lo', 2);
    expect(c.getScalar('hi')).toBe(Infinity);
  });

  it('a limited row is slack between its bounds, engages at them, and lets go again', () => {
    // A ball on a rope of length 1 from a static pin: starts 0.5 below it, at rest.
    const make = (rope: boolean) => {
      const space = new Space({ gravity: [0, -10] });
      const pin = space.addBody(new Body({ type: 'static' }));
      const ball = space.addBody(new Body({ position: [0.3, -0.4], shapes: [new Circle({ radius: 0.1 })] }));
      const c = new SymbolicConstraint({ source: DISTANCE, bodies: { body1: pin, body2: ball }, scalars: { jointMax: 1 } });
      if (rope) space.addConstraint(c);
      return { space, ball, c };
    };
    const roped = make(true);
    const free = make(false);
    const distance = (): number => Math.hypot(roped.ball.x, roped.ball.y);
    let slackSteps = 0;
    let engagedSteps = 0;
    for (let i = 0; i < 90; i++) {
      roped.space.step(DT);
      free.space.step(DT);
      const impulse = roped.c.impulse()[0]!;
      if (distance() < 0.99) {
        // slack: no impulse, and the ball falls exactly as a free one
        expect(impulse).toBe(0);
        expect(roped.ball.position).toEqual(free.ball.position);
        slackSteps++;
      } else {
        expect(distance()).toBeLessThan(1 + 1e-3);
        if (impulse !== 0) engagedSteps++;
        expect(impulse).toBeLessThanOrEqual(0); // a rope only pulls
      }
    }
    expect(slackSteps).toBeGreaterThan(5);
    expect(engagedSteps).toBeGreaterThan(30);
    // Thrown back towards the pin, the rope goes slack again.
    roped.ball.velocity = { x: -0.6 * roped.ball.x * 10, y: -0.6 * roped.ball.y * 10 };
    roped.space.step(DT);
    roped.space.step(DT);
    expect(distance()).toBeLessThan(0.99);
    expect(roped.c.impulse()[0]).toBe(0);
  });
});

describe('as a UserConstraint', () => {
  /** A box welded under a static pin: it does not move, so it falls asleep. */
  function sleepingScene() {
    const space = new Space({ gravity: [0, -10] });
    const pin = space.addBody(new Body({ type: 'static' }));
    const box = space.addBody(new Body({ position: [0, -1], shapes: [Polygon.box(0.5, 0.5)] }));
    const other = space.addBody(new Body({ type: 'static', position: [2, 0] }));
    const c = space.addConstraint(new SymbolicConstraint({ source: WELD, bodies: { body1: pin, body2: box }, vectors: { anchor1: [0, -1] } }));
    for (let i = 0; i < 600 && !box.isSleeping; i++) space.step(DT);
    expect(box.isSleeping).toBe(true);
    return { space, box, c, other };
  }

  it('setScalar, setVector, the live vector and setBody wake a sleeping island', () => {
    const changes: [string, (s: ReturnType<typeof sleepingScene>) => void][] = [
      ['setScalar', ({ c }) => c.setScalar('phase', 0.1)],
      ['setScalars', ({ c }) => c.setScalars({ phase: 0.1 })],
      ['setVectors', ({ c }) => c.setVectors({ anchor2: [0.1, 0] })],
      ['set', ({ c }) => c.set({ scalars: { phase: 0.1 }, vectors: { anchor2: [0.1, 0] } })],
      ['setVector', ({ c }) => c.setVector('anchor2', [0.1, 0])],
      ['getVector().x =', ({ c }) => (c.getVector('anchor1').x = 0.2)],
      ['setBody', ({ c, other }) => c.setBody('body1', other)],
      ['stiff', ({ c }) => (c.stiff = false)],
    ];
    for (const [what, change] of changes) {
      const s = sleepingScene();
      change(s);
      expect(s.box.isSleeping, `${what} wakes`).toBe(false);
    }
  });

  it('breaks under force, with the event, and is removed', () => {
    const space = new Space({ gravity: [0, -10] });
    const pin = space.addBody(new Body({ type: 'static' }));
    const box = space.addBody(new Body({ position: [0, -1], shapes: [Polygon.box(1, 1, { density: 5 })] }));
    const c = space.addConstraint(new SymbolicConstraint({ source: PIVOT, bodies: { body1: pin, body2: box }, vectors: { anchor1: [0, -0.5] }, maxForce: 10, breakUnderForce: true }));
    const reasons: string[] = [];
    space.on('constraintBreak', (e) => reasons.push(e.reason));
    for (let i = 0; i < 5; i++) space.step(DT);
    expect(reasons).toEqual(['force']);
    expect(space.constraints).not.toContain(c);
  });

  it('breaks under error when soft and stretched too far', () => {
    const space = new Space({ gravity: [0, -10] });
    const pin = space.addBody(new Body({ type: 'static' }));
    const box = space.addBody(new Body({ position: [0, -3], shapes: [Polygon.box(1, 1)] }));
    space.addConstraint(new SymbolicConstraint({ source: PIVOT, bodies: { body1: pin, body2: box }, stiff: false, frequency: 2, maxError: 1, breakUnderError: true }));
    const reasons: string[] = [];
    space.on('constraintBreak', (e) => reasons.push(e.reason));
    space.step(DT);
    expect(reasons).toEqual(['error']);
  });

  it('copy() has the same source, bodies, parameters and settings, and is independent', () => {
    const a = new Body();
    const b = new Body();
    const c = new SymbolicConstraint({ source: WELD, bodies: { body1: a, body2: b }, scalars: { phase: 0.3 }, vectors: { anchor1: [1, 0] }, stiff: false, frequency: 2 });
    const d = c.copy();
    expect(d).toBeInstanceOf(SymbolicConstraint);
    expect([d.source, d.getBody('body1'), d.getBody('body2'), d.getScalar('phase'), d.getVector('anchor1').x, d.stiff, d.frequency]).toEqual([WELD, a, b, 0.3, 1, false, 2]);
    d.setScalar('phase', 1);
    expect(c.getScalar('phase')).toBe(0.3);
  });
});

describe('compilation', () => {
  /** A chain of three symbolic pivots and a weld; returns every body coordinate at every step. */
  function simulate(compile: 'function' | 'interpreter' | 'auto', batched = true, pivotsOnly = false, softWeld = false): { trace: number[]; modes: string[] } {
    const space = new Space({ gravity: [0, -10] });
    // (The engine's test routing: with batched false, the user batch takes no constraint.)
    Object.assign((space as unknown as { _pipeline: { plan: { routing: object } } })._pipeline.plan.routing, { userBatch: batched });
    let prev = space.addBody(new Body({ type: 'static' }));
    const modes: string[] = [];
    for (let k = 0; k < 3; k++) {
      const link = space.addBody(new Body({ position: [k + 0.5, 0], shapes: [Polygon.box(1, 0.2, { offset: [0.1, 0] })] }));
      // (The middle pivot is soft: its spring needs C at every pose, which runs the values kernel too.)
      // (A soft weld needs C, its angle row included, at every pose.)
      const stiff = pivotsOnly || (k !== 1 && !(softWeld && k === 2));
      const c = new SymbolicConstraint({ source: k === 2 && !pivotsOnly ? WELD : PIVOT, compile, stiff, frequency: 6, bodies: { body1: prev, body2: link }, vectors: { anchor1: [k === 0 ? 0 : 0.5, 0], anchor2: [-0.5, 0] } });
      modes.push(c.compileMode);
      space.addConstraint(c);
      prev = link;
    }
    const trace: number[] = [];
    for (let i = 0; i < 120; i++) {
      space.step(DT);
      for (const b of space.bodies) trace.push(b.x, b.y, b.rotation);
    }
    return { trace, modes };
  }

  it('compiled and interpreted constraints simulate bitwise identically', () => {
    const f = simulate('function');
    const i = simulate('interpreter');
    expect(f.modes).toEqual(['function', 'function', 'function']);
    expect(i.modes).toEqual(['interpreter', 'interpreter', 'interpreter']);
    expect(f.trace.length).toBe(i.trace.length);
    for (let k = 0; k < f.trace.length; k++) if (!Object.is(f.trace[k], i.trace[k])) throw new Error(`step value ${k}: ${f.trace[k]} vs ${i.trace[k]}`);
    expect(Math.abs(f.trace[f.trace.length - 2]!)).toBeGreaterThan(0.5); // it swung
  });

  it("the engine's batch runs the kernels in bulk, bitwise like the per-constraint hooks", () => {
    // (Stiff pivots only: the batch's own loops for such a plan, position passes included. A soft
    // weld: its kernels read the rotation angle, which the batch then keeps current.)
    for (const [pivotsOnly, softWeld] of [[false, false], [true, false], [false, true]] as const) {
      for (const compile of ['function', 'interpreter'] as const) {
        const bulk = simulate(compile, true, pivotsOnly, softWeld);
        const each = simulate(compile, false, pivotsOnly, softWeld);
        for (let k = 0; k < bulk.trace.length; k++) if (!Object.is(bulk.trace[k], each.trace[k])) throw new Error(`${compile}, pivots only ${pivotsOnly}, soft weld ${softWeld}, value ${k}: ${bulk.trace[k]} vs ${each.trace[k]}`);
      }
    }
  });

  it('limited rows (DISTANCE ropes) are the engine\'s: batched in bulk, bitwise like one by one, following setScalar', () => {
    const run = (batched: boolean, compile: 'function' | 'interpreter') => {
      const space = new Space({ gravity: [0, -10] });
      // (Ropes on shared bodies make a joint island: kept out of it, to test the batch.)
      Object.assign((space as unknown as { _pipeline: { plan: { routing: object } } })._pipeline.plan.routing, { userBatch: batched, jointIsland: false });
      let prev = space.addBody(new Body({ type: 'static' }));
      const cs: SymbolicConstraint[] = [];
      for (let k = 0; k < 4; k++) {
        const link = space.addBody(new Body({ position: [k + 0.6, 0.1 * k], angularVel: 1, shapes: [Polygon.box(0.8, 0.2, { offset: [0.1, 0], filter: { group: -1 } })] }));
        // Ropes [0.2, 0.9], one soft; the third a rod (jointMin = jointMax: an equality measured from 0.6, no bulk kernel).
        const [lo, hi] = k === 2 ? [0.6, 0.6] : [0.2, 0.9];
        const c = new SymbolicConstraint({ source: DISTANCE, compile, stiff: k !== 1, frequency: 5, bodies: { body1: prev, body2: link }, vectors: { anchor1: [k === 0 ? 0 : 0.4, 0], anchor2: [-0.4, 0] }, scalars: { jointMax: hi, jointMin: lo } });
        space.addConstraint(c);
        cs.push(c);
        prev = link;
      }
      const trace: number[] = [];
      let engaged = 0;
      for (let i = 0; i < 150; i++) {
        if (i === 60) cs[0]!.setScalar('jointMax', 0.5); // the bounds move: the engine's limit follows
        if (i === 100) cs[2]!.setScalar('jointMax', 1).setScalar('jointMin', 0.3); // the rod becomes a rope
        space.step(DT);
        for (const b of space.bodies) trace.push(b.x, b.y, b.rotation);
        for (const c of cs) trace.push(...(c.impulse() as Float64Array));
        if (cs[0]!.impulse()[0] !== 0) engaged++;
        const batch = (space as unknown as { _pipeline: { userBatch: { count: number } } })._pipeline.userBatch;
        expect(batch.count).toBe(batched ? 4 : 0);
      }
      expect(engaged).toBeGreaterThan(10);
      expect(cs[0]!.limit(0)).toEqual([0.2, 0.5]);
      expect(cs[2]!.limit(0)).toEqual([0.3, 1]);
      return trace;
    };
    for (const compile of ['function', 'interpreter'] as const) {
      const bulk = run(true, compile);
      const each = run(false, compile);
      for (let k = 0; k < bulk.length; k++) if (!Object.is(bulk[k], each[k])) throw new Error(`${compile}, value ${k}: ${bulk[k]} vs ${each[k]}`);
    }
  });

  it("the bulk J kernels leave J's constant entries to the engine (constantJacobian), compiled and interpreted", () => {
    for (const compile of ['function', 'interpreter'] as const) {
      const c = new SymbolicConstraint({ source: PIVOT, compile, bodies: { body1: new Body(), body2: new Body() } });
      const kernel = c.batchKernel()!;
      // A pivot's J = [−1 0 r1y 1 0 −r2y; 0 −1 −r1x 0 1 r2x]: eight constant entries.
      expect(kernel.constantJacobian).toEqual([[0, -1], [1, 0], [3, 1], [4, 0], [6, 0], [7, -1], [9, 0], [10, 1]]);
      // The kernels write only the other four, packed at the start of the constraint's J (NaN marks what they leave alone).
      const J = new Float64Array(12).fill(NaN);
      const C = new Float64Array(2).fill(NaN);
      const states = new Float64Array(20);
      states[3] = states[13] = 1; // cos of both bodies
      // Origins (1, 2) and (3, 4), centres of mass at 0, anchors at the origins: r1 = (1, 2), r2 = (3, 4).
      states[0] = 1;
      states[1] = 2;
      states[10] = 3;
      states[11] = 4;
      const a = { states, slotState: Int32Array.of(0, 10), params: new Float64Array(4), J, C };
      kernel.jacobian(0, 1, a);
      // J[2], J[5], J[8], J[11] = r1y, −r2y, −r1x, r2x, in that order.
      const packed = [2, -4, -1, 3, NaN, NaN, NaN, NaN, NaN, NaN, NaN, NaN];
      expect(Array.from(J)).toEqual(packed);
      J.fill(NaN);
      kernel.positionAndJacobian!(0, 1, a);
      expect(Array.from(J)).toEqual(packed);
      expect(Array.from(C, (v) => Number.isNaN(v))).toEqual([false, false]);
    }
  });

  it("'auto' runs the interpreter where new Function is forbidden", () => {
    const source = `${PIVOT}# compiled under a strict Content-Security-Policy\n`;
    const original = globalThis.Function;
    const forbidden = function () {
      throw new EvalError("Refused to evaluate a string as JavaScript because 'unsafe-eval' is not an allowed source");
    } as unknown as FunctionConstructor;
    globalThis.Function = forbidden;
    let c: SymbolicConstraint;
    try {
      c = new SymbolicConstraint({ source, compile: 'auto' });
    } finally {
      globalThis.Function = original;
    }
    expect(c.compileMode).toBe('interpreter');
  });

  it('constraints with the same source share one compiled program', () => {
    const kernelsOf = (c: SymbolicConstraint): unknown => (c as unknown as { main: unknown }).main;
    const a = new SymbolicConstraint(PIVOT);
    const b = new SymbolicConstraint(PIVOT);
    expect(kernelsOf(a)).toBe(kernelsOf(b));
    expect(kernelsOf(new SymbolicConstraint(WELD))).not.toBe(kernelsOf(a));
  });
});

describe('the debug view', () => {
  it("links the declared bodies' origins in order, so a space's debugDraw shows what the constraint holds", () => {
    const space = new Space();
    const pin = space.addBody(new Body({ type: 'static', position: [0, 2] }));
    const ball = space.addBody(new Body({ position: [1, -0.5], shapes: [new Circle({ radius: 0.1 })] }));
    space.addConstraint(new SymbolicConstraint({ source: DISTANCE, bodies: { body1: pin, body2: ball }, scalars: { jointMin: 0.2, jointMax: 1 } }));
    const segments: number[][] = [];
    const points: number[][] = [];
    space.debugDraw(
      { drawPolygon() {}, drawCircle() {}, drawSegment: (...a: number[]) => segments.push(a.slice(0, 4)), drawPoint: (x: number, y: number) => points.push([x, y]) },
      { shapes: false },
    );
    expect(segments).toEqual([[0, 2, 1, -0.5]]);
    expect(points).toEqual([[0, 2], [1, -0.5]]);
  });
});

describe('debug()', () => {
  it('shows C, V, J and K, with the bodies, parameters and limits as they are now', () => {
    const space = new Space({ gravity: [0, -10] });
    const pin = space.addBody(new Body({ type: 'static' }));
    const ball = space.addBody(new Body({ position: [0, -0.5], shapes: [new Circle({ radius: 0.1 })] }));
    const c = space.addConstraint(new SymbolicConstraint({ source: DISTANCE, bodies: { body1: pin, body2: ball }, scalars: { jointMin: 0.2, jointMax: 1 }, vectors: { anchor2: [0.1, 0] } }));
    space.step(DT);
    const text = c.debug();
    for (const piece of [
      `SymbolicConstraint#${c.id}: position constraint C = 0, 1 row, 2 bodies, kernels: compiled function`,
      `body1 = Body#${pin.id} (static)`,
      `body2 = Body#${ball.id} (dynamic)`,
      'jointMin = 0.2',
      'jointMax = 1',
      'anchor2 = (0.1, 0)',
      'limit jointMin 0 jointMax   (5:1)',
      'row 0: 0.2 ≤ C ≤ 1 (slack)',
      'C (the position error',
      'relative body2.rotation anchor2',
      'V = dC/dt',
      'body2.angularVel',
      'body2.velocity',
      '∂V/∂body1.velocity.x',
      '∂V/∂body2.angularVel about the centre of mass',
      'body2.worldCenter',
      'K = J M⁻¹ Jᵀ',
      'body1.invMass',
      'body2.invInertia',
    ]) {
      expect(text, `debug() contains ${piece}`).toContain(piece);
    }
    // The motor: a velocity constraint shows V, not C.
    const m = new SymbolicConstraint(MOTOR).debug();
    expect(m).toContain('velocity constraint V = 0');
    expect(m).not.toContain('C (the position error');
    expect(m).toMatch(/ratio \* body2\.angularVel|body2\.angularVel \* ratio/);
  });
});

