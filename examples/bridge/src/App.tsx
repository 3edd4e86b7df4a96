/**
 * The bridge example: a rope bridge between two cliffs, a crate on it, buttons that drop more
 * things onto it, and pointer dragging.
 */
import { countRenders } from '@fulcrum/browser-testing/probe';
import type { Body as EngineBody } from '@fulcrum/physics';
import { ExampleShell, StatsOverlay, StatsProbe } from '@fulcrum/examples-shared';
import { Physics } from '@fulcrum/react';
import { Canvas } from '@react-three/fiber';
import { useRef, useState, type ReactNode } from 'react';
import { Cliffs } from './Cliffs.js';
import { Crate } from './Crate.js';
import { RopeBridge } from './RopeBridge.js';
import { Spawned } from './Spawned.js';
import { useSpawner, type SpawnKind } from './spawner.js';

const EDGE = 8;
const TOP = 0;
const DROP_HEIGHT = 6;
const SPAWN_BUTTONS: readonly { kind: SpawnKind; label: string }[] = [
  { kind: 'box', label: 'Spawn box' },
  { kind: 'ball', label: 'Spawn ball' },
  { kind: 'ragdoll', label: 'Spawn ragdoll' },
];

export function App(): ReactNode {
  const left = useRef<EngineBody>(null);
  const right = useRef<EngineBody>(null);
  const stats = useRef<HTMLDivElement>(null);
  const { items, spawn, clear } = useSpawner(DROP_HEIGHT);
  const [planks, setPlanks] = useState(18);
  const [debug, setDebug] = useState(false);

  return (
    <ExampleShell
      title="Rope bridge"
      instructions={
        <>
          Planks hang between two cliffs on PivotJoints. Drop boxes, balls and ragdolls onto the bridge, and drag anything with the
          mouse.
        </>
      }
      controls={
        <>
          {SPAWN_BUTTONS.map(({ kind, label }) => (
            <button key={kind} type="button" onClick={() => spawn(kind)}>
              {label}
            </button>
          ))}
          <button type="button" onClick={clear}>
            Clear
          </button>
          <label>
            Planks
            {/* The bridge remounts with the new count (its key), so it starts from its unstrained V again. */}
            <input type="range" min={18} max={26} step={2} value={planks} onChange={(e) => setPlanks(Number(e.target.value))} />
            {planks}
          </label>
          <label>
            <input type="checkbox" checked={debug} onChange={(e) => setDebug(e.target.checked)} />
            Debug view
          </label>
        </>
      }
      overlay={<StatsOverlay ref={stats} />}
    >
      {/* An explicit rotation stops R3F turning the camera towards the origin, so position is the view's centre.
          onCreated installs the tests' frame counter (window.__fulcrum.frames). */}
      <Canvas orthographic frameloop="demand" camera={{ zoom: 38, position: [0, -1.5, 100], rotation: [0, 0, 0] }} onCreated={({ gl }) => countRenders(gl)}>
        <color attach="background" args={[0x1d2633]} />
        <Physics debug={debug} dragging>
          <Cliffs edge={EDGE} top={TOP} left={left} right={right} />
          <RopeBridge key={planks} planks={planks} plankLength={(2 * EDGE) / (planks - 1.5)} edge={EDGE} top={TOP} left={left} right={right} />
          <Crate position={[-2, 1]} />
          {items.map((item) => (
            <Spawned key={item.key} item={item} />
          ))}
          <StatsProbe output={stats} />
        </Physics>
      </Canvas>
    </ExampleShell>
  );
}
