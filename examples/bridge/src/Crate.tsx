/**
 * The crate that starts on the bridge. Its pose, and where it is on the canvas in CSS pixels,
 * go to the tests' probe (`window.__fulcrum.crate`) after every step, so a test can grab it.
 */
import type { Body as EngineBody } from '@fulcrum/physics';
import { setProbe } from '@fulcrum/browser-testing/probe';
import { Body, Box, useAfterStep } from '@fulcrum/react';
import { useThree } from '@react-three/fiber';
import { useRef, useState, type ReactNode } from 'react';
import { Vector3 } from 'three';

export interface CrateState {
  x: number;
  y: number;
  /** The crate's centre on the canvas, CSS pixels from its top-left corner. */
  canvasX: number;
  canvasY: number;
}

export function Crate({ position }: { position: readonly [number, number] }): ReactNode {
  const crate = useRef<EngineBody>(null);
  const camera = useThree((s) => s.camera);
  const size = useThree((s) => s.size);
  const [projected] = useState(() => new Vector3());
  useAfterStep(() => {
    const body = crate.current;
    if (!body) return;
    projected.set(body.x, body.y, 0).project(camera);
    const state: CrateState = {
      x: body.x,
      y: body.y,
      canvasX: ((projected.x + 1) / 2) * size.width,
      canvasY: ((1 - projected.y) / 2) * size.height,
    };
    setProbe({ crate: state });
  });
  return (
    <Body ref={crate} position={position}>
      <Box width={1.2} height={1} density={1} friction={0.8} color={0xc98b3c} />
    </Body>
  );
}

