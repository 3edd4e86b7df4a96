/**
 * <StatsProbe>: measures the space from inside <Physics> and writes the numbers into a DOM
 * node outside the <Canvas>, and into the browser tests' probe (`window.__fulcrum`, see
 * @fulcrum/browser-testing). It never re-renders React:
 * it refreshes at most every REFRESH_MS, plus once when an island falls asleep, so the overlay
 * shows the resting state when demand mode stops drawing.
 */
import { setProbe } from '@fulcrum/browser-testing/probe';
import { useAfterStep, useBeforeStep, useSpace } from '@fulcrum/react';
import { useLayoutEffect, useRef, type ReactNode, type RefObject } from 'react';

const REFRESH_MS = 250;

/** What the overlay shows, as published to the probe. */
export interface StatsSnapshot {
  /** Bodies in the space, static ones included. */
  bodies: number;
  /** Dynamic bodies not asleep (the harness's "at rest" test: 0). */
  awakeBodies: number;
  /** Islands of awake dynamic bodies. */
  awakeIslands: number;
  /** Mean wall time of one space step over the last refresh window, in milliseconds. */
  stepMs: number;
  /** Steps taken so far. */
  steps: number;
}

export interface StatsProbeProps {
  /** The overlay element; its `[data-stat=bodies|awakeIslands|stepMs]` children get the numbers. */
  output: RefObject<HTMLElement | null>;
}

export function StatsProbe({ output }: StatsProbeProps): ReactNode {
  const space = useSpace();
  const acc = useRef({ stepStart: 0, ms: 0, steps: 0, lastWrite: -Infinity, slept: false, totalSteps: 0 });

  useLayoutEffect(
    () =>
      space.on('sleep', () => {
        acc.current.slept = true;
      }),
    [space],
  );

  useBeforeStep(() => {
    acc.current.stepStart = performance.now();
  });
  useAfterStep((s) => {
    const w = acc.current;
    const now = performance.now();
    w.ms += now - w.stepStart;
    w.steps++;
    w.totalSteps++;
    if (now - w.lastWrite < REFRESH_MS && !w.slept) return;
    const stats: StatsSnapshot = {
      bodies: s.bodies.length,
      awakeBodies: s.bodies.filter((b) => b.isDynamic && !b.isSleeping).length,
      awakeIslands: s.countAwakeIslands(),
      stepMs: w.ms / w.steps,
      steps: w.totalSteps,
    };
    setProbe({ ...stats });
    if (output.current) writeStats(output.current, stats);
    w.ms = 0;
    w.steps = 0;
    w.lastWrite = now;
    w.slept = false;
  });
  return null;
}

function writeStats(el: HTMLElement, stats: StatsSnapshot): void {
  const text: Record<string, string> = {
    bodies: String(stats.bodies),
    awakeIslands: String(stats.awakeIslands),
    stepMs: stats.stepMs.toFixed(2),
  };
  for (const node of el.querySelectorAll<HTMLElement>('[data-stat]')) {
    const t = text[node.dataset.stat!];
    if (t !== undefined && node.textContent !== t) node.textContent = t;
  }
}
