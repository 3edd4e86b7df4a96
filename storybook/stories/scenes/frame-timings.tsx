/**
 * Per-frame timings of the physics frame, for the browser benchmark (packages/bench):
 * - physics: the sum of every step's time this frame, from useBeforeStep to useAfterStep
 *   (space.step plus the package's per-step bookkeeping);
 * - sync: from the end of the frame's last step to the end of <Physics>'s frame callback, i.e.
 *   writing interpolated poses into three.js (2000 instance matrices here);
 * - frame: from a useFrame just before <Physics>'s (priority −51) to one just after (−49);
 * - render: the renderer's render call that follows, on the main thread (three.js's work and the
 *   WebGL calls it issues; the GPU, or SwiftShader in the GPU process, rasterises afterwards).
 * frame + render is the main thread's work for a frame: what must fit in 16.7 ms for 60 frames a
 * second whatever the GPU.
 * Samples go to `window.__fulcrumTimings` (a plain array, cleared by the benchmark).
 */
import { PHYSICS_FRAME_PRIORITY, useAfterStep, useBeforeStep } from '@fulcrum/react';
import { useFrame, useThree } from '@react-three/fiber';
import { useEffect, useRef } from 'react';

export interface FrameTiming {
  steps: number;
  physicsMs: number;
  syncMs: number;
  frameMs: number;
  /** The render call after this frame's callbacks; NaN until it has run. */
  renderMs: number;
}

declare global {
  // eslint-disable-next-line no-var
  var __fulcrumTimings: FrameTiming[] | undefined;
}

const MAX_SAMPLES = 5000;

export function FrameTimings() {
  const t = useRef({ frameStart: 0, stepStart: 0, lastStepEnd: 0, physics: 0, steps: 0 });
  const gl = useThree((state) => state.gl);
  // The render call is timed by wrapping the renderer's method: R3F calls it after every
  // useFrame callback of the frame, so it belongs to the sample the last callback pushed.
  useEffect(() => {
    const render = gl.render;
    gl.render = function timedRender(this: typeof gl, ...args: Parameters<typeof render>) {
      const start = performance.now();
      render.apply(this, args);
      const samples = globalThis.__fulcrumTimings;
      const last = samples?.[samples.length - 1];
      if (last !== undefined && Number.isNaN(last.renderMs)) last.renderMs = performance.now() - start;
    };
    return () => {
      gl.render = render;
    };
  }, [gl]);
  useFrame(() => {
    const s = t.current;
    s.frameStart = performance.now();
    s.lastStepEnd = 0;
    s.physics = 0;
    s.steps = 0;
  }, PHYSICS_FRAME_PRIORITY - 1);
  useBeforeStep(() => {
    t.current.stepStart = performance.now();
  });
  useAfterStep(() => {
    const s = t.current;
    s.lastStepEnd = performance.now();
    s.physics += s.lastStepEnd - s.stepStart;
    s.steps++;
  });
  useFrame(() => {
    const s = t.current;
    const end = performance.now();
    const samples = (globalThis.__fulcrumTimings ??= []);
    if (samples.length >= MAX_SAMPLES) samples.shift();
    samples.push({
      steps: s.steps,
      physicsMs: s.physics,
      // With no step this frame, sync is the whole callback (poses are still written).
      syncMs: end - (s.steps > 0 ? s.lastStepEnd : s.frameStart),
      frameMs: end - s.frameStart,
      renderMs: NaN,
    });
  }, PHYSICS_FRAME_PRIORITY + 1);
  return null;
}
