/**
 * The machine example: a weld-built crane with breakable joints, a hook to drop loads on, and
 * a pulley lift. The "joints broken" counter counts the crane's onBreak events.
 */
import { countRenders, setProbe } from '@fulcrum/browser-testing/probe';
import type { Body as EngineBody } from '@fulcrum/physics';
import { ExampleShell, StatsOverlay, StatsProbe } from '@fulcrum/examples-shared';
import { Body, Box, Physics } from '@fulcrum/react';
import { Canvas } from '@react-three/fiber';
import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { Crane } from './Crane.js';
import { craneLayout, hookPoint } from './crane-layout.js';
import { LOAD_KINDS, useLoads } from './loads.js';
import { PulleyLift } from './PulleyLift.js';

const CRANE_X = -9;
const GROUND_ORIGIN = [0, -0.5] as const;
/** Straight above the hook, below the boom. */
const DROP_AT = [hookPoint(craneLayout(CRANE_X))[0], 5] as const;
const DEFAULT_WELD_STRENGTH = 3500;

export function App(): ReactNode {
  const ground = useRef<EngineBody>(null);
  const stats = useRef<HTMLDivElement>(null);
  const { loads, drop, clear } = useLoads();
  const [craneKey, setCraneKey] = useState(0);
  const [broken, setBroken] = useState<readonly string[]>([]);
  const [weldStrength, setWeldStrength] = useState(DEFAULT_WELD_STRENGTH);
  const [debug, setDebug] = useState(false);

  const onWeldBreak = useCallback((weld: { label: string }) => setBroken((b) => [...b, weld.label]), []);
  const rebuild = () => {
    setCraneKey((k) => k + 1);
    setBroken([]);
    clear();
  };
  useEffect(() => setProbe({ brokenJoints: broken.length }), [broken]);

  return (
    <ExampleShell
      title="Machine: crane and pulley"
      instructions={
        <>
          The crane is welded together from segments, and each WeldJoint breaks under too much force. A light load hangs safely
          from the hook; a heavy one snaps the welds. On the right, a PulleyJoint lift.
        </>
      }
      controls={
        <>
          {LOAD_KINDS.map((kind) => (
            <button key={kind.id} type="button" onClick={() => drop(kind)}>
              {kind.label}
            </button>
          ))}
          <button type="button" onClick={rebuild}>
            Rebuild crane
          </button>
          <label>
            Weld strength
            <input type="range" min={1000} max={12000} step={500} value={weldStrength} onChange={(e) => setWeldStrength(Number(e.target.value))} />
            {weldStrength} N
          </label>
          <label>
            <input type="checkbox" checked={debug} onChange={(e) => setDebug(e.target.checked)} />
            Debug view
          </label>
          <output aria-label="Joints broken" className="counter">
            joints broken: <strong data-testid="broken-count">{broken.length}</strong>
            {broken.length > 0 ? ` (${broken.join(', ')})` : null}
          </output>
        </>
      }
      overlay={<StatsOverlay ref={stats} />}
    >
      {/* An explicit rotation stops R3F turning the camera towards the origin, so position is the view's centre.
          onCreated installs the tests' frame counter (window.__fulcrum.frames). */}
      <Canvas orthographic frameloop="demand" camera={{ zoom: 36, position: [0, 5, 100], rotation: [0, 0, 0] }} onCreated={({ gl }) => countRenders(gl)}>
        <color attach="background" args={[0x1c2230]} />
        <Physics debug={debug}>
          <Body ref={ground} type="static" position={GROUND_ORIGIN}>
            <Box width={40} height={1} color={0x4d5566} />
          </Body>
          <Crane key={craneKey} baseX={CRANE_X} ground={ground} groundOrigin={GROUND_ORIGIN} weldStrength={weldStrength} onWeldBreak={onWeldBreak} />
          {loads.map(({ key, kind }) => (
            // Drag damps a loaded hook's swing (the hook itself is light), so the scene can rest.
            <Body key={key} position={DROP_AT} linearDrag={0.6} angularDrag={1}>
              <Box width={kind.size} height={kind.size} density={kind.density} color={kind.color} />
            </Body>
          ))}
          <PulleyLift wheels={[4, 8]} beamY={7} hang={4.5} />
          <StatsProbe output={stats} />
        </Physics>
      </Canvas>
    </ExampleShell>
  );
}
