/**
 * <SymbolicConstraint>'s wiring, with @fulcrum/symbolic's class and a one-row source that pins a
 * body's x to `k + off.x`: bodies by name, parameters in place, a new source builds a new object,
 * and every bad prop is a FulcrumPropError whose `.prop` comes from the error's own `.prop`.
 */
import type { Body as EngineBody } from '@fulcrum/physics';
import { SymbolicConstraint as EngineSymbolicConstraint, SymbolicError } from '@fulcrum/symbolic';
import { cleanup, render } from '@testing-library/react';
import { createRef, StrictMode, type ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { FulcrumPropError, FulcrumUnmountedError } from '../core/errors.js';
import { Circle } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import { SymbolicConstraint } from './index.js';

const SOURCE = 'body a\nscalar k\nvector off\nconstraint a.position.x - k - off.x';
const OTHER = 'body a\nscalar q\nvector off\nconstraint a.position.x - q - off.x';

afterEach(cleanup);

/** The error rendering `ui` throws (React's console noise silenced). */
function renderError(ui: ReactNode): unknown {
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    render(<Physics>{ui}</Physics>);
  } catch (e) {
    return e;
  } finally {
    quiet.mockRestore();
    cleanup();
  }
  return null;
}

describe('<SymbolicConstraint>', () => {
  it('resolves bodies by name, updates scalars and vectors in place, and keeps the object for an equal source', () => {
    const probe = makeProbe();
    const a = createRef<EngineBody>();
    const ref = createRef<EngineSymbolicConstraint>();
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
    expect(c).toBeInstanceOf(EngineSymbolicConstraint);
    expect(probe.space.constraints).toEqual([c]);
    expect(c.getBody('a')).toBe(a.current);
    expect([c.stiff, c.frequency]).toEqual([false, 5]);
    for (let i = 0; i < 120; i++) probe.api!.step();
    expect(a.current!.x).toBeCloseTo(1, 2);
    rerender(scene(2, 0.5));
    expect(ref.current).toBe(c);
    expect(c.getScalar('k')).toBe(2);
    expect(c.getVector('off')).toEqual({ x: 0.5, y: 0 });
    for (let i = 0; i < 120; i++) probe.api!.step();
    expect(a.current!.x).toBeCloseTo(2.5, 2);
    rerender(scene(3, 0.5, `body a\nscalar k\nvector ${'off'}\nconstraint a.position.x - k - off.x`));
    expect(ref.current).toBe(c); // an equal source string: the same object
    expect(c.getScalar('k')).toBe(3);
  });

  it('bad props: each error names its prop through the error’s .prop, never its message', () => {
    const a = createRef<EngineBody>();
    const cases: [ReactNode, string, RegExp][] = [
      [<SymbolicConstraint source={'body a\nconstraint a.rotatino'} bodies={{ a }} />, 'source', /^<SymbolicConstraint> prop source=\{"body a\\nconstraint a.rotatino"\} is invalid: unknown body field 'rotatino' at 2:14/],
      [<SymbolicConstraint source={'body a\nconstraint (a.rotation'} bodies={{ a }} />, 'source', /is invalid: .* at 2:/],
      [<SymbolicConstraint source={SOURCE} bodies={{ a }} scalars={{ nope: 1 }} />, 'scalars.nope', /^<SymbolicConstraint> prop scalars\.nope=\{1\} is invalid: .*no scalar 'nope' is declared/],
      [<SymbolicConstraint source={SOURCE} bodies={{ a }} scalars={{ k: NaN }} />, 'scalars.k', /^<SymbolicConstraint> prop scalars\.k=\{NaN\} is invalid: .*must be a number/],
      [<SymbolicConstraint source={SOURCE} bodies={{ a }} vectors={{ off: [1, Infinity] }} />, 'vectors.off', /^<SymbolicConstraint> prop vectors\.off=\{\[1, Infinity\]\} is invalid/],
      [<SymbolicConstraint source={SOURCE} bodies={{}} />, 'bodies', /^<SymbolicConstraint> prop bodies=\{\{\}\} is invalid: .*missing: a/],
      [<SymbolicConstraint source={SOURCE} bodies={{ a, z: a }} />, 'bodies.z', /^<SymbolicConstraint> prop bodies\.z=\{\{current: null\}\} is invalid: .*no body 'z' is declared/],
      [<SymbolicConstraint source={SOURCE} bodies={{ a: 3 as never }} />, 'bodies.a', /^<SymbolicConstraint> prop bodies\.a=\{3\} is invalid/],
      [<SymbolicConstraint source={SOURCE} bodies={{ a }} frequency={-1} />, 'frequency', /^<SymbolicConstraint> prop frequency=\{-1\} is invalid/],
      [<SymbolicConstraint source={SOURCE} bodies={{ a }} compile={'jit' as never} />, 'compile', /^<SymbolicConstraint> prop compile=\{"jit"\} is invalid/],
    ];
    for (const [ui, prop, message] of cases) {
      const err = renderError(ui);
      expect(err, prop).toBeInstanceOf(FulcrumPropError);
      expect((err as FulcrumPropError).prop).toBe(prop);
      expect((err as FulcrumPropError).component).toBe('SymbolicConstraint');
      expect((err as Error).message).toMatch(message);
    }
    // A source error keeps the place it is about, on the error it came from.
    const err = renderError(<SymbolicConstraint source={'body a\nconstraint a.rotatino'} bodies={{ a }} />) as FulcrumPropError;
    expect(err.cause).toBeInstanceOf(SymbolicError);
    expect([(err.cause as SymbolicError).line, (err.cause as SymbolicError).column]).toEqual([2, 14]);
  });

  it('a scalar that violates a declared limit is a bad scalars.<name>, at mount and on update', () => {
    const a = createRef<EngineBody>();
    const source = 'body a\nscalar lo, hi\nlimit lo (-inf) hi\nconstraint a.position.x\nlimit constraint lo hi';
    const ui = (lo: number) => <SymbolicConstraint source={source} bodies={{ a }} scalars={{ lo, hi: 1 }} />;
    const atMount = renderError(ui(2));
    expect(atMount).toBeInstanceOf(FulcrumPropError);
    expect((atMount as FulcrumPropError).prop).toBe('scalars.lo');
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const { rerender } = render(<Physics>{ui(0)}</Physics>);
      expect(() => rerender(<Physics>{ui(3)}</Physics>)).toThrow(expect.objectContaining({ name: 'FulcrumPropError', prop: 'scalars.lo', value: 3 }));
    } finally {
      quiet.mockRestore();
    }
  });

  it('a new source gives a new engine object; the old one is retired', () => {
    const a = createRef<EngineBody>();
    const ref = createRef<EngineSymbolicConstraint>();
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
    rerender(scene(OTHER));
    expect(ref.current).not.toBe(first);
    expect(ref.current!.source).toBe(OTHER);
    expect(() => first.setScalar('k', 1)).toThrow(FulcrumUnmountedError);
  });
});
