import { BASE_CONSTRAINT_OPTION_KEYS, Body as EngineBody, Constraint, DistanceJoint as EngineDistance, PivotJoint as EnginePivot } from '@fulcrum/physics';
import type { LineJointOptions } from '@fulcrum/physics';
import type { ConstraintBreakEvent } from '@fulcrum/physics';
import { cleanup, render } from '@testing-library/react';
import { Component, createRef, StrictMode, type ComponentType, type ReactNode, type RefObject } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Body } from '../components/Body.js';
import { Physics } from '../components/Physics.js';
import { FulcrumPropError, FulcrumUnmountedError } from '../core/errors.js';
import { Box, Circle } from '../shapes/shapes.js';
import { makeProbe } from '../test-support/probe.js';
import * as joints from './joints.js';
import { AngleJoint, DistanceJoint, JOINT_SPECS, JOINTS, LineJoint, MotorJoint, PivotJoint, PulleyJoint, WeldJoint, type JointName, type ListMismatch } from './joints.js';

afterEach(cleanup);

const COMMON_BEFORE = { active: true, stiff: true, frequency: 10, damping: 1, maxForce: Infinity, maxError: Infinity, breakUnderForce: false, breakUnderError: false, removeOnBreak: true, ignore: false };
const COMMON_AFTER = { active: false, stiff: false, frequency: 3, damping: 0.4, maxForce: 50, maxError: 0.2, breakUnderForce: true, breakUnderError: true, removeOnBreak: false, ignore: true };

interface Case {
  name: string;
  Component: ComponentType<Record<string, unknown>>;
  before: Record<string, unknown>;
  after: Record<string, unknown>;
  bodies?: number;
}

const v = (x: number, y: number) => ({ x, y });

const CASES: Case[] = [
  { name: 'PivotJoint', Component: PivotJoint as never, before: { anchor1: v(0, 0), anchor2: v(0, 1) }, after: { anchor1: v(0.5, 0), anchor2: v(0, -1) } },
  { name: 'WeldJoint', Component: WeldJoint as never, before: { anchor1: v(0, 0), anchor2: v(0, 1), phase: 0 }, after: { anchor1: v(1, 0), anchor2: v(0, 2), phase: 0.5 } },
  { name: 'AngleJoint', Component: AngleJoint as never, before: { jointMin: -1, jointMax: 1, ratio: 1 }, after: { jointMin: 2, jointMax: 3, ratio: 2 } },
  { name: 'DistanceJoint', Component: DistanceJoint as never, before: { anchor1: v(0, 0), anchor2: v(0, 0), jointMin: 1, jointMax: 2 }, after: { anchor1: v(0, 0.5), anchor2: v(0.5, 0), jointMin: 3, jointMax: 4 } },
  { name: 'LineJoint', Component: LineJoint as never, before: { anchor1: v(0, 0), anchor2: v(0, 0), direction: v(0, 1), jointMin: -0.5, jointMax: 0 }, after: { anchor1: v(1, 0), anchor2: v(0, 1), direction: v(1, 1), jointMin: 1, jointMax: 2 } },
  { name: 'MotorJoint', Component: MotorJoint as never, before: { rate: 1, ratio: 1 }, after: { rate: -4, ratio: 0.5 } },
  { name: 'PulleyJoint', Component: PulleyJoint as never, bodies: 4, before: { anchor1: v(0, 0), anchor2: v(0, 0), anchor3: v(0, 0), anchor4: v(0, 0), jointMin: 1, jointMax: 5, ratio: 1 }, after: { anchor1: v(0, 1), anchor2: v(1, 0), anchor3: v(0, -1), anchor4: v(-1, 0), jointMin: 6, jointMax: 7, ratio: 3 } },
];

function bodyRefs(n: number): RefObject<EngineBody | null>[] {
  return Array.from({ length: n }, () => createRef<EngineBody>());
}

function Bodies({ refs }: { refs: RefObject<EngineBody | null>[] }): ReactNode {
  return refs.map((r, i) => (
    <Body key={i} ref={r} position={[i * 2, 0]}>
      <Circle radius={0.5} />
    </Body>
  ));
}

function slots(refs: RefObject<EngineBody | null>[]): Record<string, unknown> {
  return Object.fromEntries(refs.map((r, i) => [`body${i + 1}`, r]));
}

describe('joint components', () => {
  for (const c of CASES) {
    it(`<${c.name}> applies every prop in place, with no new engine object`, () => {
      const probe = makeProbe();
      const refs = bodyRefs(c.bodies ?? 2);
      const joint = createRef<Constraint>();
      const scene = (p: Record<string, unknown>) => (
        <Physics>
          <probe.Component />
          <Bodies refs={refs} />
          <c.Component ref={joint} {...slots(refs)} {...p} />
        </Physics>
      );
      const { rerender } = render(scene({ ...COMMON_BEFORE, ...c.before }));
      const engine = joint.current!;
      expect(engine.constructor.name).toBe(c.name);
      expect(probe.space.constraints).toEqual([engine]);
      for (const [k, value] of Object.entries({ ...COMMON_BEFORE, ...c.before })) expect((engine as never)[k], k).toEqual(value);
      rerender(scene({ ...COMMON_AFTER, ...c.after, userData: 'u' }));
      expect(joint.current).toBe(engine);
      expect(probe.space.constraints).toEqual([engine]);
      for (const [k, value] of Object.entries({ ...COMMON_AFTER, ...c.after, userData: 'u' })) expect((engine as never)[k], k).toEqual(value);
      // Swapping the bodies is a setter call too.
      const swapped = { ...slots(refs), body1: refs[1], body2: refs[0] };
      rerender(
        <Physics>
          <probe.Component />
          <Bodies refs={refs} />
          <c.Component ref={joint} {...swapped} {...COMMON_AFTER} {...c.after} />
        </Physics>,
      );
      expect(joint.current).toBe(engine);
      expect((engine as never as { body1: EngineBody }).body1).toBe(refs[1]!.current);
      expect((engine as never as { body2: EngineBody }).body2).toBe(refs[0]!.current);
    });
  }

  it('mount, unmount and StrictMode leave exactly one constraint per component', () => {
    const probe = makeProbe();
    const a = createRef<EngineBody>();
    const b = createRef<EngineBody>();
    const scene = (joints: boolean) => (
      <StrictMode>
        <Physics>
          <probe.Component />
          <Bodies refs={[a, b]} />
          {joints && <PivotJoint body1={a} body2={b} />}
          {joints && <DistanceJoint body1={a} body2={b} jointMin={1} jointMax={2} />}
        </Physics>
      </StrictMode>
    );
    const { rerender, unmount } = render(scene(true));
    expect(probe.space.constraints.length).toBe(2);
    expect(probe.space.bodies.length).toBe(2);
    rerender(scene(false));
    expect(probe.space.constraints.length).toBe(0);
    rerender(scene(true));
    expect(probe.space.constraints.length).toBe(2);
    const space = probe.space;
    unmount();
    expect(space.constraints.length).toBe(0);
    expect(space.bodies.length).toBe(0);
  });

  it('resolves body refs that mount after the joint, and leaves the space when a body unmounts', () => {
    const probe = makeProbe();
    const a = createRef<EngineBody>();
    const b = createRef<EngineBody>();
    const joint = createRef<EnginePivot>();
    const scene = (showB: boolean) => (
      <Physics>
        <probe.Component />
        <PivotJoint ref={joint} body1={a} body2={b} anchor2={[0, 1]} />
        <Body ref={a}>
          <Circle radius={0.5} />
        </Body>
        {showB && (
          <Body ref={b} position={[0, -1]}>
            <Circle radius={0.5} />
          </Body>
        )}
      </Physics>
    );
    const { rerender } = render(scene(false));
    // Waiting for body2: created (the ref works), but not in the space.
    expect(joint.current).toBeInstanceOf(EnginePivot);
    expect(probe.space.constraints.length).toBe(0);
    probe.api!.step();
    rerender(scene(true));
    expect(probe.space.constraints).toEqual([joint.current]);
    expect(joint.current!.body1).toBe(a.current);
    expect(joint.current!.body2).toBe(b.current);
    rerender(scene(false));
    expect(probe.space.constraints.length).toBe(0);
    expect(joint.current!.body2).toBeNull();
    probe.api!.step(); // the space keeps stepping
    rerender(scene(true));
    expect(probe.space.constraints.length).toBe(1);
    expect(joint.current!.body2).toBe(b.current);
  });

  it('accepts Body objects, resolved once they are in the space', () => {
    const probe = makeProbe();
    const a = new EngineBody({ position: [0, 0] });
    const b = new EngineBody({ position: [1, 0] });
    const joint = createRef<EnginePivot>();
    render(
      <Physics>
        <probe.Component />
        <PivotJoint ref={joint} body1={a} body2={b} />
      </Physics>,
    );
    expect(probe.space.constraints.length).toBe(0);
    probe.space.addBody(a);
    probe.space.addBody(b);
    probe.api!.step(); // resolved before the step
    expect(probe.space.constraints).toEqual([joint.current]);
  });

  it('calls onBreak and keeps a joint that broke out of the space until it remounts', () => {
    const probe = makeProbe();
    const a = createRef<EngineBody>();
    const b = createRef<EngineBody>();
    const onBreak = vi.fn<(e: ConstraintBreakEvent) => void>();
    const scene = (n: number) => (
      <Physics gravity={[0, -10]}>
        <probe.Component />
        <Body ref={a} type="static" />
        <Body ref={b} position={[0, -1]} data-n={n}>
          <Box width={1} height={1} density={100} />
        </Body>
        <DistanceJoint body1={a} body2={b} jointMin={0} jointMax={1} breakUnderForce maxForce={10} onBreak={onBreak} />
      </Physics>
    );
    const { rerender } = render(scene(0));
    expect(probe.space.constraints.length).toBe(1);
    for (let i = 0; i < 5; i++) probe.api!.step();
    expect(onBreak).toHaveBeenCalledTimes(1);
    expect(onBreak.mock.calls[0]![0].reason).toBe('force');
    expect(probe.space.constraints.length).toBe(0);
    rerender(scene(1));
    probe.api!.step();
    expect(probe.space.constraints.length).toBe(0);
  });

  it('a prop change on a sleeping island wakes it', () => {
    const probe = makeProbe();
    const a = createRef<EngineBody>();
    const b = createRef<EngineBody>();
    const scene = (rate: number) => (
      <Physics gravity={[0, -10]}>
        <probe.Component />
        <Body type="static" position={[0, -0.5]}>
          <Box width={20} height={1} />
        </Body>
        <Body ref={a} position={[-1, 0.5]}>
          <Box width={1} height={1} />
        </Body>
        <Body ref={b} position={[1, 0.5]}>
          <Box width={1} height={1} />
        </Body>
        <MotorJoint body1={a} body2={b} rate={rate} maxForce={rate === 0 ? 0 : 10} />
      </Physics>
    );
    const { rerender } = render(scene(0));
    for (let i = 0; i < 300 && !b.current!.isSleeping; i++) probe.api!.step();
    expect(b.current!.isSleeping).toBe(true);
    rerender(scene(2));
    expect(a.current!.isSleeping).toBe(false);
    expect(b.current!.isSleeping).toBe(false);
  });

  it('refs are inert after unmount', () => {
    const probe = makeProbe();
    const a = createRef<EngineBody>();
    const b = createRef<EngineBody>();
    const joint = createRef<EnginePivot>();
    const scene = (show: boolean) => (
      <Physics>
        <probe.Component />
        <Bodies refs={[a, b]} />
        {show && <PivotJoint ref={joint} body1={a} body2={b} />}
      </Physics>
    );
    const { rerender } = render(scene(true));
    const kept = joint.current!;
    rerender(scene(false));
    expect(joint.current).toBeNull();
    expect(probe.space.constraints.length).toBe(0);
    expect(() => {
      kept.anchor1 = [1, 1];
    }).toThrow(FulcrumUnmountedError);
    expect(() => {
      kept.body1 = a.current;
    }).toThrow(/PivotJoint#\d+ belonged to a <PivotJoint> that has unmounted/);
    expect(() => kept.invalidate()).toThrow(FulcrumUnmountedError);
    expect(kept.anchor1).toEqual({ x: 0, y: 0 }); // reads still work
    probe.api!.step();
  });

  it('bad props throw a FulcrumPropError naming the component, the prop and the value', () => {
    const cases: [ReactNode, RegExp][] = [
      [<LineJoint direction={[0, 0]} />, /^<LineJoint> prop direction=\{\[0, 0\]\} is invalid: LineJoint\.direction must be a non-zero vector/],
      [<DistanceJoint jointMin={2} jointMax={1} />, /^<DistanceJoint> prop jointMin=\{2\} is invalid: DistanceJoint\.jointMin must not exceed jointMax/],
      [<PivotJoint frequency={-1} />, /^<PivotJoint> prop frequency=\{-1\} is invalid/],
      [<MotorJoint rate={Number.NaN} />, /^<MotorJoint> prop rate=\{NaN\} is invalid/],
      [<WeldJoint body1={42 as never} />, /^<WeldJoint> prop body1=\{42\} is invalid: must be a Body, a ref/],
      [<AngleJoint onBreak={'x' as never} />, /^<AngleJoint> prop onBreak=\{"x"\} is invalid: must be a function/],
    ];
    for (const [ui, message] of cases) {
      const err = renderError(<Physics>{ui}</Physics>);
      expect(err).toBeInstanceOf(FulcrumPropError);
      expect(err.message).toMatch(message);
    }
  });

  it('a bad prop on a mounted joint leaves the engine object and the rest of the scene untouched', () => {
    const probe = makeProbe();
    const a = createRef<EngineBody>();
    const b = createRef<EngineBody>();
    const joint = createRef<EngineDistance>();
    const scene = (min: number) => (
      <Physics>
        <probe.Component />
        <Bodies refs={[a, b]} />
        <Catch>
          <DistanceJoint ref={joint} body1={a} body2={b} jointMin={min} jointMax={3} frequency={min === 5 ? 1 : 10} />
        </Catch>
      </Physics>
    );
    const { rerender } = render(scene(1));
    const engine = joint.current!;
    const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
    rerender(scene(5)); // jointMin 5 > jointMax 3: rejected before frequency is touched
    quiet.mockRestore();
    expect(caught[caught.length - 1]).toBeInstanceOf(FulcrumPropError);
    expect(engine.jointMin).toBe(1);
    expect(engine.frequency).toBe(10);
    // The boundary took the joint out; the bodies stay and the space steps.
    expect(probe.space.constraints.length).toBe(0);
    expect(probe.space.bodies.length).toBe(2);
    probe.api!.step();
  });
});

/** A value unlike the engine default for every option name a joint has. */
const SAMPLE: Record<string, unknown> = {
  anchor1: v(0.25, -0.5),
  anchor2: v(-0.75, 0.5),
  anchor3: v(0.5, 0.5),
  anchor4: v(-0.5, -0.25),
  direction: v(0, 1),
  phase: 0.3,
  jointMin: 0.25,
  jointMax: 0.75,
  ratio: 2,
  rate: -1.5,
  active: false,
  stiff: false,
  frequency: 3,
  damping: 0.4,
  maxForce: 50,
  maxError: 0.2,
  breakUnderForce: true,
  breakUnderError: true,
  removeOnBreak: false,
  ignore: true,
  userData: { tag: 'sample' },
};

describe('the joint table', () => {
  const names = Object.keys(JOINTS) as JointName[];

  it('has the seven joints, each a named component with a display name and a spec from its row', () => {
    expect(names).toEqual(['PivotJoint', 'WeldJoint', 'AngleJoint', 'DistanceJoint', 'LineJoint', 'MotorJoint', 'PulleyJoint']);
    for (const name of names) {
      const component = joints[name];
      expect(component.name).toBe(name);
      expect(component.displayName).toBe(name);
      expect(JOINT_SPECS[name].component).toBe(name);
      expect(JOINT_SPECS[name].keys).toEqual([...JOINTS[name].keys, ...BASE_CONSTRAINT_OPTION_KEYS]);
    }
    expect(joints.PIVOT_SPEC).toBe(JOINT_SPECS.PivotJoint);
    expect(joints.PULLEY_SPEC.limits).toBeUndefined();
    expect(joints.LINE_SPEC.limits).toBe(JOINTS.LineJoint.limits);
  });

  for (const name of Object.keys(JOINTS) as JointName[]) {
    it(`<${name}> forwards every engine option of its row, at mount and as an update`, () => {
      const entry = JOINTS[name];
      const keys = [...entry.keys, ...BASE_CONSTRAINT_OPTION_KEYS];
      for (const k of keys) expect(SAMPLE, `a sample value for ${name}.${k}`).toHaveProperty(k);
      const values = Object.fromEntries(keys.map((k) => [k, SAMPLE[k]]));
      const Joint = joints[name] as unknown as ComponentType<Record<string, unknown>>;
      const defaults = new entry.engine({} as never) as unknown as Record<string, unknown>;
      const refs = bodyRefs(entry.bodies.length);
      const scene = (ref: RefObject<Constraint | null>, p: Record<string, unknown>) => (
        <Physics>
          <Bodies refs={refs} />
          <Joint ref={ref} {...slots(refs)} {...p} />
        </Physics>
      );
      const check = (engine: Constraint) => {
        const e = engine as unknown as Record<string, unknown>;
        for (const k of keys) {
          expect(defaults[k], `${name}.${k}: the sample must differ from the default`).not.toEqual(SAMPLE[k]);
          if (k === 'userData') expect(e[k]).toBe(SAMPLE[k]);
          else expect(e[k], `${name}.${k}`).toEqual(SAMPLE[k]);
        }
        entry.bodies.forEach((slot, i) => expect(e[slot], slot).toBe(refs[i]!.current));
      };
      // At mount: the constructor's options.
      const mounted = createRef<Constraint>();
      render(scene(mounted, values));
      check(mounted.current!);
      cleanup();
      // As an update: the setters, on the same engine object.
      const updated = createRef<Constraint>();
      const { rerender } = render(scene(updated, {}));
      const engine = updated.current!;
      rerender(scene(updated, values));
      expect(updated.current).toBe(engine);
      check(engine);
    });
  }

  it('props are typed from the engine options (compile-time checks, run by tsc -p tsconfig.test.json)', () => {
    const body = createRef<EngineBody>();
    const ok = (
      <>
        <PivotJoint body1={body} anchor1={[0, 1]} frequency={5} />
        <PulleyJoint body3={body} ratio={2} />
        {/* @ts-expect-error: not an option of PivotJoint */}
        <PivotJoint direction={[1, 0]} />
        {/* @ts-expect-error: an unknown prop */}
        <LineJoint body1={body} notAnOption={1} />
        {/* @ts-expect-error: a body slot takes a BodyRef, not a number */}
        <WeldJoint body2={3} />
        {/* @ts-expect-error: the pulley's fourth body does not exist on a two-body joint */}
        <DistanceJoint body4={body} />
      </>
    );
    expect(ok).toBeTruthy();
    // The table's check: a list that misses an engine option (or names one that does not exist) is a mismatch.
    const listed: [ListMismatch<LineJointOptions, keyof LineJointOptions>] extends [never] ? true : false = true;
    // @ts-expect-error: an option added to LineJointOptions and not listed
    const newOption: [ListMismatch<LineJointOptions & { newOption?: number }, keyof LineJointOptions>] extends [never] ? true : false = true;
    // @ts-expect-error: a listed key the options do not have
    const typo: [ListMismatch<LineJointOptions, keyof LineJointOptions | 'directoin'>] extends [never] ? true : false = true;
    expect([listed, newOption, typo]).toEqual([true, true, true]);
  });
});

const caught: unknown[] = [];
class Catch extends Component<{ children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }
  override componentDidCatch(e: unknown): void {
    caught.push(e);
  }
  override render(): ReactNode {
    return this.state.failed ? null : this.props.children;
  }
}

function renderError(ui: ReactNode): Error {
  let err: unknown = null;
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    render(ui);
  } catch (e) {
    err = e;
  } finally {
    quiet.mockRestore();
    cleanup();
  }
  if (!(err instanceof Error)) throw new Error('expected a render error');
  return err;
}
