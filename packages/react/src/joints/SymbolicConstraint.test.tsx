/**
 * <SymbolicConstraint> against a stand-in for @fulcrum/symbolic's class: a UserConstraint with
 * the documented API (new X({ source, scalars, vectors, ...common }), setBody/getBody,
 * setScalar/getScalar, setVector/getVector, bodyNames) that understands one tiny "source":
 * `pin <body>.x = <scalar> + <vector>.x`. It checks the component's wiring, not the real package.
 */
import { Body as EngineBody, FulcrumInputError, UserConstraint } from '@fulcrum/physics';
import type { Vec2Like } from '@fulcrum/physics';
import { cleanup, render } from '@testing-library/react';
import { createRef, StrictMode, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { FulcrumPropError, FulcrumUnmountedError } from '../core/errors.js';
import { Circle } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import { createSymbolicConstraintComponent, type SymbolicConstraintLike } from './SymbolicConstraint.js';

class SourceError extends Error {
  constructor(m: string) {
    super(m);
    this.name = 'SymbolicSyntaxError';
  }
}

class StandIn extends UserConstraint implements SymbolicConstraintLike {
  readonly source: string;
  readonly bodyNames: readonly string[];
  private readonly scalars = new Map<string, number>();
  private readonly vectors = new Map<string, { x: number; y: number }>();
  constructor(o: { source: string; scalars?: Record<string, number>; vectors?: Record<string, Vec2Like>; [k: string]: unknown }) {
    const m = /^pin (\w+)\.x = (\w+) \+ (\w+)\.x$/.exec(o.source);
    if (!m) throw new SourceError(`cannot read ${JSON.stringify(o.source)} at 1:1`);
    const { source: _s, scalars, vectors, compile: _c, ...base } = o;
    super({ ...(base as object), dimensions: 1, bodies: [null] });
    this.source = o.source;
    this.bodyNames = [m[1]!];
    this.scalars.set(m[2]!, 0);
    this.vectors.set(m[3]!, { x: 0, y: 0 });
    for (const [k, v] of Object.entries(scalars ?? {})) this.setScalar(k, v);
    for (const [k, v] of Object.entries(vectors ?? {})) this.setVector(k, v);
    const [, , s, v] = m;
    this.hooks = {
      position: (err: Float64Array) => {
        err[0] = this.bodyList[0]!.x - this.scalars.get(s!)! - this.vectors.get(v!)!.x;
      },
    };
  }
  private check(kind: string, map: Map<string, unknown> | readonly string[], name: string, value?: unknown): void {
    const known = Array.isArray(map) ? map.includes(name) : (map as Map<string, unknown>).has(name);
    if (!known) throw new FulcrumInputError(`SymbolicConstraint.${kind}(${JSON.stringify(name)}${value === undefined ? '' : `, ${String(value)}`}): unknown name`);
  }
  setBody(name: string, body: EngineBody | null): this {
    this.check('setBody', this.bodyNames, name);
    this.bodyList = [body];
    return this;
  }
  getBody(name: string): EngineBody | null {
    this.check('getBody', this.bodyNames, name);
    return this.bodyList[0] ?? null;
  }
  setScalar(name: string, value: number): this {
    this.check('setScalar', this.scalars, name, value);
    if (Number.isNaN(value)) throw new FulcrumInputError(`SymbolicConstraint.setScalar(${JSON.stringify(name)}, NaN): the value must be a number`);
    this.scalars.set(name, value);
    this.invalidate();
    return this;
  }
  getScalar(name: string): number {
    return this.scalars.get(name)!;
  }
  setVector(name: string, value: Vec2Like): this {
    this.check('setVector', this.vectors, name);
    this.vectors.set(name, Array.isArray(value) ? { x: value[0], y: value[1] } : { ...(value as { x: number; y: number }) });
    this.invalidate();
    return this;
  }
  getVector(name: string): { x: number; y: number } {
    return this.vectors.get(name)!;
  }
}

const SymbolicConstraint = createSymbolicConstraintComponent(() => StandIn);
const SOURCE = 'pin a.x = k + off.x';

afterEach(cleanup);

describe('<SymbolicConstraint> (with a stand-in class)', () => {
  it('resolves bodies by name, updates scalars and vectors in place, and rebuilds on a new source', () => {
    const probe = makeProbe();
    const a = createRef<EngineBody>();
    const ref = createRef<SymbolicConstraintLike>();
    const scene = (k: number, off: number, source = SOURCE) => (
      <StrictMode>
        <Physics gravity={[0, 0]}>
          <probe.Component />
          <SymbolicConstraint ref={ref} source={source} bodies={{ a }} scalars={{ k }} vectors={{ off: [off, 0] }} stiff={false} frequency={5} />
          <Body ref={a}>
            <Circle radius={0.5} />
          </Body>
        </Physics>
      </StrictMode>
    );
    const { rerender } = render(scene(1, 0));
    const c = ref.current!;
    expect(probe.space.constraints).toEqual([c]);
    expect(c.getBody('a')).toBe(a.current);
    for (let i = 0; i < 120; i++) probe.api!.step();
    expect(a.current!.x).toBeCloseTo(1, 2);
    rerender(scene(2, 0.5));
    expect(ref.current).toBe(c);
    expect(c.getScalar('k')).toBe(2);
    expect(c.getVector('off')).toEqual({ x: 0.5, y: 0 });
    for (let i = 0; i < 120; i++) probe.api!.step();
    expect(a.current!.x).toBeCloseTo(2.5, 2);
    rerender(scene(3, 0.5, `pin a.x = k + ${'off'}.x`));
    expect(ref.current).toBe(c); // an equal source string: the same object
    expect(c.getScalar('k')).toBe(3);
  });

  it('bad props: a source that does not compile, an unknown parameter, a missing body', () => {
    const a = createRef<EngineBody>();
    const cases: [ReactNode, RegExp][] = [
      [<SymbolicConstraint source="pin a.y" bodies={{ a }} />, /^<SymbolicConstraint> prop source=\{"pin a.y"\} is invalid: cannot read/],
      [<SymbolicConstraint source={SOURCE} bodies={{ a }} scalars={{ nope: 1 }} />, /^<SymbolicConstraint> prop scalars=\{\{nope: 1\}\} is invalid: SymbolicConstraint\.setScalar\("nope"/],
      [<SymbolicConstraint source={SOURCE} bodies={{}} />, /^<SymbolicConstraint> prop bodies=\{\{\}\} is invalid: .*missing: a/],
      [<SymbolicConstraint source={SOURCE} bodies={{ a, z: a }} />, /^<SymbolicConstraint> prop bodies=.* is invalid: SymbolicConstraint\.setBody\("z"\)/],
      [<SymbolicConstraint source={SOURCE} bodies={{ a: 3 as never }} />, /^<SymbolicConstraint> prop bodies\.a=\{3\} is invalid/],
    ];
    for (const [ui, message] of cases) {
      let err: unknown = null;
      const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
      try {
        render(<Physics>{ui}</Physics>);
      } catch (e) {
        err = e;
      } finally {
        quiet.mockRestore();
        cleanup();
      }
      expect(err).toBeInstanceOf(FulcrumPropError);
      expect((err as Error).message).toMatch(message);
    }
  });

  it('a new source gives a new engine object; the old one is retired', () => {
    const a = createRef<EngineBody>();
    const ref = createRef<SymbolicConstraintLike>();
    const scene = (source: string) => (
      <Physics>
        <Body ref={a}>
          <Circle radius={0.5} />
        </Body>
        <SymbolicConstraint ref={ref} source={source} bodies={{ a }} />
      </Physics>
    );
    const { rerender } = render(scene(SOURCE));
    const first = ref.current!;
    rerender(scene('pin a.x = q + off.x'));
    expect(ref.current).not.toBe(first);
    expect(ref.current!.source).toBe('pin a.x = q + off.x');
    expect(() => first.setScalar('k', 1)).toThrow(FulcrumUnmountedError);
  });
});
