/**
 * The frame every story renders in: a toolbar (debug toggle, reset, status) above an
 * orthographic R3F canvas (1 unit = 1 m) with <Physics dragging checkUserConstraints>. Reset
 * remounts the scene (that is its purpose); nothing else does. The canvas renders on demand, so
 * a scene at rest costs nothing, and every frame is counted into the test probe.
 */
import { countRenders, setProbe } from '@fulcrum/browser-testing/probe';
import { Physics } from '@fulcrum/react';
import type { Body, Vec2Like } from '@fulcrum/physics';
import { Canvas } from '@react-three/fiber';
import { useLayoutEffect, useState, type ReactNode } from 'react';
import { fonts, ui } from './palette';
import { SceneProbe } from './SceneProbe';
import { SleepStatus } from './SleepStatus';

/**
 * The browser tests open stories with `&antialias=off`. Without multisampling, software WebGL
 * (SwiftShader, in CI) draws a frame with about a third less CPU, and the tests run four pages
 * at once on two cores. People browsing the Storybook get antialiasing.
 */
const ANTIALIAS = typeof location === 'undefined' || new URLSearchParams(location.search).get('antialias') !== 'off';

export interface FrameSettings {
  /** Pixels per metre (the orthographic camera's zoom). Default 40. */
  zoom?: number;
  /** World point at the centre of the canvas. Default [0, 0]. */
  center?: [number, number];
  gravity?: Vec2Like;
  /**
   * <Physics checkUserConstraints>: check every user constraint's hand-written derivatives
   * against finite differences of its position(). Default true in the Storybook; a story whose
   * derivatives are deliberately wrong or approximate turns it off, saying why.
   */
  checkUserConstraints?: boolean;
  /** <Physics workers>: worker threads beside the page's thread. Default 0. */
  workers?: number;
  /** Canvas size in CSS pixels. Default 800 × 500. */
  width?: number;
  height?: number;
}

/**
 * With the debug view off, a story still draws its constraints (anchors, lines, limits): a
 * pulley's ropes and a pendulum's pivot are what the story is about. The toggle adds the rest
 * (shape outlines, contacts). One constant object, so the prop never changes identity.
 */
const JOINTS_ONLY = { shapes: false, contacts: false, constraints: true, aabbs: false } as const;

export const CANVAS_WIDTH = 800;
export const CANVAS_HEIGHT = 500;

export interface StoryFrameProps {
  settings?: FrameSettings;
  /** Start with the debug view on. */
  debugInitially?: boolean;
  storyId: string;
  /** HTML under the canvas. */
  panel?: ReactNode;
  children: ReactNode;
}

export function StoryFrame({ settings = {}, debugInitially = false, storyId, panel, children }: StoryFrameProps) {
  const { zoom = 40, center = [0, 0], gravity = [0, -9.81], checkUserConstraints = true, workers = 0, width = CANVAS_WIDTH, height = CANVAS_HEIGHT } = settings;
  const [debug, setDebug] = useState(debugInitially);
  const [resets, setResets] = useState(0);

  return (
    <div style={{ width, fontFamily: fonts.base, fontSize: 13, color: ui.text, background: ui.surface }}>
      {/* A fixed-height toolbar: the status text must not reflow the canvas. */}
      <div style={{ display: 'flex', gap: 12, alignItems: 'center', height: 32, padding: '0 8px', whiteSpace: 'nowrap', overflow: 'hidden', background: ui.surface, borderBottom: `1px solid ${ui.border}` }}>
        <label>
          <input type="checkbox" data-testid="debug-toggle" checked={debug} onChange={(e) => setDebug(e.target.checked)} /> debug view
        </label>
        <button type="button" data-testid="reset" onClick={() => setResets((n) => n + 1)}>
          reset
        </button>
        <SleepStatus />
        <span style={{ marginLeft: 'auto', color: ui.muted }}>drag bodies with the mouse</span>
      </div>
      <div style={{ width, height, background: ui.canvas }}>
        <Canvas
          orthographic
          frameloop="demand"
          // rotation: R3F turns a camera without one towards the origin, which would tilt a
          // camera centred elsewhere: the view must look straight down −z (see Getting started).
          camera={{ zoom, position: [center[0], center[1], 100], rotation: [0, 0, 0], near: 0.1, far: 1000 }}
          gl={{ preserveDrawingBuffer: true, antialias: ANTIALIAS }}
          onCreated={({ gl }) => {
            countRenders(gl);
          }}
        >
          <color attach="background" args={[ui.canvas]} />
          <Physics key={resets} gravity={gravity} checkUserConstraints={checkUserConstraints} workers={workers} debug={debug ? true : JOINTS_ONLY} dragging={PUBLISH_GRAB}>
            <SceneMounts storyId={storyId} />
            <SceneProbe />
            {children}
          </Physics>
        </Canvas>
      </div>
      {panel}
    </div>
  );
}

/** The body the pointer holds, for the drag test: it presses again if the press missed. */
const PUBLISH_GRAB = { onDrag: (body: Body | null) => setProbe({ grabbed: body === null ? null : body.id }) };

/** Counts scene mounts, so that tests can tell a control update from a remount. */
function SceneMounts({ storyId }: { storyId: string }) {
  useLayoutEffect(() => {
    const probe = (globalThis.__fulcrum ??= { frames: 0 });
    setProbe({ storyId, sceneMounts: ((probe.sceneMounts as number | undefined) ?? 0) + 1 });
  }, [storyId]);
  return null;
}
