/**
 * The car example: the page, the controls and the scene.
 */
import type { Body as EngineBody } from '@fulcrum/physics';
import { countRenders } from '@fulcrum/browser-testing/probe';
import { ExampleShell, StatsOverlay, StatsProbe } from '@fulcrum/examples-shared';
import { Physics } from '@fulcrum/react';
import { Canvas } from '@react-three/fiber';
import { useRef, useState, type ReactNode } from 'react';
import { Car } from './Car.js';
import { CarProbe } from './CarProbe.js';
import { FollowCamera } from './FollowCamera.js';
import { Markers } from './Markers.js';
import { Terrain } from './Terrain.js';
import { useDriveKeys } from './use-drive-keys.js';

const START = [0, 1.2] as const;

export function App(): ReactNode {
  const drive = useDriveKeys();
  const [wheelSpeed, setWheelSpeed] = useState(14);
  const [debug, setDebug] = useState(false);
  // A new key remounts the car at the start.
  const [carKey, setCarKey] = useState(0);
  const chassis = useRef<EngineBody>(null);
  const stats = useRef<HTMLDivElement>(null);
  const speed = useRef<HTMLSpanElement>(null);

  return (
    <ExampleShell
      title="Car"
      instructions={
        <>
          Drive with <kbd>←</kbd> <kbd>→</kbd> (or <kbd>A</kbd> <kbd>D</kbd>), brake with <kbd>Space</kbd>. The wheels hang on soft
          LineJoint springs with travel limits and are turned by MotorJoints. Left alone, the car rolls to a stop and falls asleep,
          and the page stops drawing.
        </>
      }
      controls={
        <>
          <button type="button" onClick={() => setCarKey((k) => k + 1)}>
            Reset car
          </button>
          <label>
            Top wheel speed
            <input type="range" min={4} max={30} step={1} value={wheelSpeed} onChange={(e) => setWheelSpeed(Number(e.target.value))} />
            {wheelSpeed} rad/s
          </label>
          <label>
            <input type="checkbox" checked={debug} onChange={(e) => setDebug(e.target.checked)} />
            Debug view
          </label>
        </>
      }
      overlay={
        <StatsOverlay ref={stats}>
          <div>
            speed <span ref={speed}>0</span> km/h
          </div>
        </StatsOverlay>
      }
    >
      <Canvas
        orthographic
        frameloop="demand"
        // An explicit rotation stops R3F turning the camera towards the origin.
        camera={{ zoom: 40, position: [START[0] + 3, START[1] + 1.5, 100], rotation: [0, 0, 0] }}
        // The tests' frame counter (window.__fulcrum.frames): one per rendered frame.
        onCreated={({ gl }) => countRenders(gl)}
      >
        <color attach="background" args={[0x1b2330]} />
        <Physics debug={debug}>
          <Terrain />
          <Markers />
          <Car key={carKey} drive={drive} wheelSpeed={wheelSpeed} start={START} chassisRef={chassis} />
          <FollowCamera target={chassis} />
          <CarProbe chassis={chassis} speedOutput={speed} />
          <StatsProbe output={stats} />
        </Physics>
      </Canvas>
    </ExampleShell>
  );
}
