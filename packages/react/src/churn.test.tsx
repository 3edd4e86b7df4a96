/**
 * React churn (an issue requirement): 10,000 StrictMode mount/unmount cycles of a scene with
 * every component kind. Afterwards the space has 0 bodies and 0 constraints, there are no
 * listeners left, and the heap is flat.
 *
 * The scene is test-support/every-component.tsx: every component of both entries, every event
 * prop, every hook, every kind of ref. Each cycle mounts it under <StrictMode> (so every effect
 * runs mount, unmount, mount), steps the space once (contacts, a joint that breaks, user and
 * symbolic constraints), and unmounts it. The derivative check that vitest.setup.ts turns on for
 * every test space is turned off here (`checkUserConstraints={false}`): it checks hand-written
 * hooks, costs a step's worth of hook calls for each new constraint, and has nothing to churn.
 *
 * The cycles go through four harnesses, so that one heap measurement covers them all (every
 * fifth cycle is a canvas one, the others take turns among the three react-dom ones):
 *
 * - dom/given: react-dom (jsdom, no canvas), the whole `<Physics space={given}>` tree mounted and
 *   unmounted. The space lives outside the churned tree, and <Physics> leaves a given space as it
 *   is on unmount, so every component must take out what it put in.
 * - dom/persistent: the scene mounted and unmounted as the children of one persistent <Physics>
 *   that owns its space: the world's lists and the space must be back where they were each time.
 * - dom/owned: whole `<Physics>` trees that own their spaces (with the sleep settings and speed
 *   caps); each cycle's space (held from outside) must be left empty and unsubscribed.
 * - canvas: @react-three/test-renderer (a real R3F root with three.js objects, over a mocked WebGL
 *   context) and `<Physics space={given}>`. The frame driver steps through useFrame, the debug view
 *   draws, and a pointer drag is in progress when the scene unmounts. <PointerDrag> and
 *   <DebugLines> are mounted as the scene's children in one cycle, through `<Physics dragging
 *   debug>` in the next.
 *
 * An R3F mount costs about 1.6 times a react-dom one (every body is a group, every shape a mesh
 * with its own geometry), and 10,000 of them alone would not fit the time budget: every fifth
 * cycle is a canvas one, the others the same components and effects under react-dom.
 *
 * After every cycle the test checks, from outside: the space's bodies, constraints, event
 * listeners (the engine's EventHub, contactForce included) and preSolve callback; what the
 * <Physics> world still has registered (frame targets, step callbacks, body watchers, pending
 * joints, debug overlays, routed events, the bodies with a contact-force threshold and the
 * contactForce subscription, usePreSolve callbacks and shape contact rules, the frame requester,
 * its space subscription); and, for the canvas, the DOM listeners on the canvas, R3F's frame
 * subscribers and the objects R3F raycasts for pointer events. The first cycle that leaves
 * anything behind fails the test.
 *
 * The heap is measured after forced GCs (vitest.config.ts runs the tests with --expose-gc) around
 * cycle 1,000, when every path has run and the JIT has settled, and around cycle 10,000. The loop
 * yields to the event loop every 100 cycles, as an app does between frames. Without that, one
 * synchronous job of 10,000 cycles holds what the environment only releases from its own tasks:
 * about 3 MB after 4,000 cycles of either renderer, all of it freed by the first yield (the
 * heap then drops below its cycle-1,000 level). @fulcrum/react, the engine and @fulcrum/symbolic
 * schedule no tasks, timers or microtasks.
 */
import { Space } from '@fulcrum/physics';
import { useStore } from '@react-three/fiber';
import ReactThreeTestRenderer from '@react-three/test-renderer';
import { act, StrictMode, useState, type ReactNode } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { describe, expect, it } from 'vitest';
import { Physics } from './components/Physics.js';
import type { PhysicsApi } from './hooks/hooks.js';
import { BALL_POSITION, EVERY_COMPONENT_COUNTS, EveryComponent, sceneEvents, type SceneEvents } from './test-support/every-component.js';
import { listenerLedger, NO_REGISTRATIONS, spaceListenerCount, worldRegistrations, type WorldRegistrations } from './test-support/leaks.js';
import { makeProbe } from './test-support/probe.js';

const CYCLES = 10_000;
/** Every this many cycles is a canvas one; the others go round the react-dom harnesses. */
const CANVAS_EVERY = 5;
/** Yield to the event loop every this many cycles. */
const YIELD_EVERY = 100;
/** The heap is sampled at these cycles (after a yield); each side's lowest sample is compared. */
const EARLY = [600, 700, 800, 900, 1_000];
const LATE = [CYCLES - 400, CYCLES - 300, CYCLES - 200, CYCLES - 100, CYCLES];
/** Samples for the log only. */
const PROGRESS = [2_000, 4_000, 6_000, 8_000];
/**
 * Allowed heap growth from the early samples to the late ones: 3 MB. The heap after GC is about
 * 78 MB (jsdom, three.js, React, R3F, the engine, vitest). Samples a few hundred cycles apart
 * differ by up to about 2 MB, in steps: hash tables change capacity by powers of two as GC clears
 * their dead entries (a WeakSet that once marked retired engine objects was 0.5 MB in one heap
 * snapshot and 2 MB in another), and the JIT keeps adding code. The lowest of five samples on
 * each side is steadier: 10,000-cycle runs gave between -0.9 and +0.8 MB. 3 MB is 3.9% of the
 * heap (the issue allows 5%). Over the 9,000 cycles between the two sides it is 350 bytes a
 * cycle, or at most 1.7 kB a cycle of one harness alone (each runs 1,800 to 2,400 cycles there),
 * while a retired engine joint is about 4.4 kB, a three.js group 1.4 kB and a mesh 2.9 kB: keeping
 * any one of them each cycle, even of one harness, fails. A retired engine Body is about 0.6 kB,
 * 1.2 kB with a shape (retiring adds about 0.1 kB to what they weigh live): keeping one each cycle
 * of every harness fails, of one harness alone it need not. A leaked closure (160 bytes) a cycle
 * would not: the per-cycle checks of every registration are there for that.
 */
const MAX_GROWTH_BYTES = 3 * 2 ** 20;

declare const gc: (() => void) | undefined;

/** Heap in use after full collections. */
function settledHeap(): number {
  if (typeof gc !== 'function') throw new Error('global gc() is missing: vitest.config.ts must run the tests with --expose-gc');
  for (let i = 0; i < 3; i++) gc();
  return process.memoryUsage().heapUsed;
}

/** One way of mounting the scene; `cycle` mounts, steps and unmounts it once, and checks what is left. */
interface Harness {
  readonly name: string;
  cycles: number;
  cycle(): void;
}

/** The space is empty and has `listeners` event listeners; the world holds nothing (but its subscription, if `listeners`). */
function expectClean(where: string, space: Space, world: PhysicsApi, listeners = 0): void {
  const left = { bodies: space.bodies.length, constraints: space.constraints.length, listeners: spaceListenerCount(space), preSolve: space.preSolve !== null };
  if (left.bodies !== 0 || left.constraints !== 0 || left.listeners !== listeners || left.preSolve) {
    expect.fail(`${where}: the space kept ${JSON.stringify(left)} (expected no bodies, no constraints, ${listeners} listeners, no preSolve callback)`);
  }
  const reg = worldRegistrations(world);
  const expected: WorldRegistrations = { ...NO_REGISTRATIONS, attached: listeners > 0 ? 1 : 0 };
  for (const k of Object.keys(expected) as (keyof WorldRegistrations)[]) {
    if (reg[k] !== expected[k]) expect.fail(`${where}: <Physics> still has ${JSON.stringify(reg)}`);
  }
}

/** The mounted, stepped scene is all there (plus a drag's anchor body and joint). */
function expectMounted(where: string, space: Space, drags: number): void {
  const want = { bodies: EVERY_COMPONENT_COUNTS.bodies + drags, constraints: EVERY_COMPONENT_COUNTS.constraintsAfterStep + drags };
  const got = { bodies: space.bodies.length, constraints: space.constraints.length };
  if (got.bodies !== want.bodies || got.constraints !== want.constraints) expect.fail(`${where}: the mounted scene has ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
}

interface DomHarnesses {
  harnesses: Harness[];
  given: Space;
  /** Unmounts the persistent <Physics> and returns its world. */
  unmountPersistent(): PhysicsApi;
  unmountAll(): void;
}

function domHarnesses(events: SceneEvents): DomHarnesses {
  const gravity = [0, -10] as const;
  const roots: Root[] = [];
  const newRoot = (): Root => {
    const r = createRoot(document.createElement('div'));
    roots.push(r);
    return r;
  };

  // dom/given: the whole tree, into a space made outside it.
  const given = new Space({ gravity });
  const givenRoot = newRoot();
  const givenProbe = makeProbe();
  const givenTree = (
    <StrictMode>
      <Physics space={given} gravity={gravity} checkUserConstraints={false}>
        <givenProbe.Component />
        <EveryComponent events={events} canvas={false} />
      </Physics>
    </StrictMode>
  );
  const domGiven: Harness = {
    name: 'dom/given',
    cycles: 0,
    cycle() {
      const where = `${this.name} cycle ${++this.cycles}`;
      act(() => givenRoot.render(givenTree));
      const world = givenProbe.api!;
      act(() => world.step());
      expectMounted(where, given, 0);
      act(() => givenRoot.render(null));
      expectClean(where, given, world);
    },
  };

  // dom/persistent: the scene as the children of one <Physics> that owns its space and stays.
  const persistentRoot = newRoot();
  const persistentProbe = makeProbe();
  const persistentTree = (scene: boolean) => (
    <StrictMode>
      <Physics gravity={gravity} checkUserConstraints={false}>
        <persistentProbe.Component />
        {scene && <EveryComponent events={events} canvas={false} />}
      </Physics>
    </StrictMode>
  );
  const withScene = persistentTree(true);
  const withoutScene = persistentTree(false);
  act(() => persistentRoot.render(withoutScene));
  const persistentWorld = persistentProbe.api!;
  const persistentSpace = persistentWorld.space;
  const domPersistent: Harness = {
    name: 'dom/persistent',
    cycles: 0,
    cycle() {
      const where = `${this.name} cycle ${++this.cycles}`;
      act(() => persistentRoot.render(withScene));
      if (persistentProbe.api !== persistentWorld || persistentWorld.space !== persistentSpace) expect.fail(`${where}: the persistent <Physics> changed its world or space`);
      act(() => persistentWorld.step());
      expectMounted(where, persistentSpace, 0);
      act(() => persistentRoot.render(withoutScene));
      // The persistent world's own subscription stays: one listener per event type.
      expectClean(where, persistentSpace, persistentWorld, 5);
    },
  };

  // dom/owned: whole <Physics> trees that own their spaces, with the sleep settings and speed caps.
  const ownedRoot = newRoot();
  const ownedProbe = makeProbe();
  const ownedTree = (
    <StrictMode>
      <Physics gravity={gravity} checkUserConstraints={false} allowSleep sleepDelay={0.4} sleepThreshold={0.06} maxLinearSpeed={300} maxRotationPerSubstep={0.5}>
        <ownedProbe.Component />
        <EveryComponent events={events} canvas={false} />
      </Physics>
    </StrictMode>
  );
  let lastOwned: Space | null = null;
  const domOwned: Harness = {
    name: 'dom/owned',
    cycles: 0,
    cycle() {
      const where = `${this.name} cycle ${++this.cycles}`;
      act(() => ownedRoot.render(ownedTree));
      const world = ownedProbe.api!;
      const space = world.space;
      if (space === lastOwned || space === given || space === persistentSpace) expect.fail(`${where}: <Physics> did not make a space of its own`);
      lastOwned = space;
      act(() => world.step());
      expectMounted(where, space, 0);
      act(() => ownedRoot.render(null));
      expectClean(where, space, world);
    },
  };

  return {
    harnesses: [domGiven, domPersistent, domOwned],
    given,
    unmountPersistent() {
      act(() => persistentRoot.render(null));
      return persistentWorld;
    },
    unmountAll() {
      for (const r of roots) act(() => r.unmount());
    },
  };
}

interface CanvasHarness extends Harness {
  readonly space: Space;
  unmountRoot(): Promise<void>;
}

/** canvas: one R3F root; the scene is swapped in and out by state, under StrictMode. */
async function canvasHarness(events: SceneEvents): Promise<CanvasHarness> {
  const W = 800;
  const H = 600;
  const ZOOM = 40;
  const host = { set: null as ((node: ReactNode) => void) | null, store: null as ReturnType<typeof useStore> | null };
  function Host(): ReactNode {
    const [node, set] = useState<ReactNode>(null);
    host.set = set;
    host.store = useStore();
    return node;
  }
  let canvas: HTMLCanvasElement | null = null;
  let ledger: ReturnType<typeof listenerLedger> | null = null;
  const renderer = await ReactThreeTestRenderer.create(
    <StrictMode>
      <Host />
    </StrictMode>,
    {
      width: W,
      height: H,
      orthographic: true,
      camera: { zoom: ZOOM, position: [0, 0, 100] },
      beforeReturn: (c: HTMLCanvasElement) => {
        canvas = c;
        ledger = listenerLedger(c);
        c.getBoundingClientRect = () => ({ left: 0, top: 0, width: W, height: H, right: W, bottom: H, x: 0, y: 0, toJSON() {} });
      },
    },
  );
  const store = host.store!;
  const r3f = () => {
    const { subscribers, interaction } = store.getState().internal;
    return { canvasListeners: ledger!.count, frameSubscribers: subscribers.length, interactive: interaction.length };
  };
  const before = r3f();
  const space = new Space({ gravity: [0, -10] });
  const probe = makeProbe();
  // The drag and debug tools as the scene's own children, or through <Physics>'s props.
  const scenes = [
    <Physics space={space} gravity={[0, -10]} checkUserConstraints={false}>
      <probe.Component />
      <EveryComponent events={events} canvas />
    </Physics>,
    <Physics space={space} gravity={[0, -10]} checkUserConstraints={false} debug={{ shapes: true, contacts: true, constraints: true, aabbs: true }} dragging={{ frequency: 4, damping: 0.5, filter: () => true, onDrag: () => {} }}>
      <probe.Component />
      <EveryComponent events={events} canvas canvasTools={false} />
    </Physics>,
  ];
  // World (x, y) is at pixel (W/2 + ZOOM·x, H/2 − ZOOM·y).
  const press = () =>
    canvas!.dispatchEvent(new PointerEvent('pointerdown', { clientX: W / 2 + ZOOM * BALL_POSITION[0], clientY: H / 2 - ZOOM * BALL_POSITION[1], button: 0, pointerId: 1, bubbles: true }));
  const harness: CanvasHarness = {
    name: 'canvas',
    cycles: 0,
    space,
    cycle() {
      const where = `${this.name} cycle ${++this.cycles}`;
      act(() => host.set!(scenes[this.cycles % 2]));
      const world = probe.api!;
      act(() => void renderer.advanceFrames(1, 1 / 60)); // one frame: one step, then the debug view draws
      press(); // a drag starts: its anchor body and joint join the space, and stay until unmount
      expectMounted(where, space, 1);
      act(() => host.set!(null));
      expectClean(where, space, world);
      const after = r3f();
      if (after.canvasListeners !== before.canvasListeners || after.frameSubscribers !== before.frameSubscribers || after.interactive !== before.interactive) {
        expect.fail(`${where}: R3F kept ${JSON.stringify(after)}, it had ${JSON.stringify(before)} before (canvas listeners: ${ledger!.types.join(', ')})`);
      }
    },
    unmountRoot: () => renderer.unmount(),
  };
  return harness;
}

/**
 * The test's time limit, a guard against a hang: the cycles take about 100 s of CPU (12 ms a
 * cycle), and twice that in wall time on a 2-core machine busy with other work (210 s seen).
 */
const TIMEOUT_MS = 600_000;

describe('React churn', () => {
  it(`${CYCLES} StrictMode mount/unmount cycles of every component leave no bodies, constraints or listeners, and a flat heap`, { timeout: TIMEOUT_MS }, async () => {
    const events = sceneEvents();
    const dom = domHarnesses(events);
    const canvas = await canvasHarness(events);
    const harnesses = [...dom.harnesses, canvas];

    const startedWall = performance.now();
    const startedCpu = process.cpuUsage();
    const heap = new Map<number, number>();
    for (let i = 1; i <= CYCLES; i++) {
      (i % CANVAS_EVERY === 0 ? canvas : dom.harnesses[(i - 1 - Math.floor(i / CANVAS_EVERY)) % dom.harnesses.length]!).cycle();
      if (i % YIELD_EVERY === 0) await new Promise((resolve) => setTimeout(resolve, 0));
      if (EARLY.includes(i) || LATE.includes(i) || PROGRESS.includes(i)) heap.set(i, settledHeap());
    }
    const wall = performance.now() - startedWall;
    const cpu = process.cpuUsage(startedCpu);

    // StrictMode really mounted everything twice: each cycle's layout effects ran mount,
    // unmount, mount, unmount, and the callback ref got two bodies and two cleanups.
    expect(events.mounts).toBe(2 * CYCLES);
    expect(events.unmounts).toBe(2 * CYCLES);
    expect(events.refCalls).toBe(2 * CYCLES);
    expect(events.refCleanups).toBe(2 * CYCLES);
    // The scene ran: one step a cycle, breaking the weld and making contacts.
    expect(events.beforeStep).toBe(CYCLES);
    expect(events.afterStep).toBe(CYCLES);
    expect(events.broke).toBe(CYCLES);
    expect(events.beginContact).toBeGreaterThanOrEqual(CYCLES);
    expect(events.contactForce).toBeGreaterThanOrEqual(CYCLES);
    expect(events.preSolve).toBeGreaterThanOrEqual(CYCLES);
    expect(dom.given.stepCount).toBe(dom.harnesses[0]!.cycles);
    expect(canvas.space.stepCount).toBe(canvas.cycles);

    // The persistent <Physics> empties its own space and unsubscribes when it goes.
    const persistent = dom.unmountPersistent();
    expectClean('dom/persistent after unmounting <Physics>', persistent.space, persistent);
    dom.unmountAll();
    await canvas.unmountRoot();
    for (const s of [dom.given, canvas.space]) expect(spaceListenerCount(s)).toBe(0);

    const early = Math.min(...EARLY.map((c) => heap.get(c)!));
    const late = Math.min(...LATE.map((c) => heap.get(c)!));
    const growth = late - early;
    const mb = (b: number) => (b / 2 ** 20).toFixed(2);
    console.log(
      `React churn: ${CYCLES} cycles (${harnesses.map((h) => `${h.name} ${h.cycles}`).join(', ')}) in ${(wall / 1000).toFixed(1)} s ` +
        `(${((cpu.user + cpu.system) / 1e6).toFixed(1)} s CPU on all threads, ${(wall / CYCLES).toFixed(2)} ms a cycle).\n` +
        `Heap after GC, MB: ${[...heap].map(([c, b]) => `${c}: ${mb(b)}`).join(', ')}.\n` +
        `Growth from the lowest of cycles ${EARLY.join('/')} (${mb(early)}) to the lowest of ${LATE.join('/')} (${mb(late)}): ` +
        `${(growth / 1024).toFixed(0)} kB (${((100 * growth) / early).toFixed(2)}%), allowed ${(MAX_GROWTH_BYTES / 1024).toFixed(0)} kB.`,
    );
    expect(growth).toBeLessThanOrEqual(MAX_GROWTH_BYTES);
  });
});
