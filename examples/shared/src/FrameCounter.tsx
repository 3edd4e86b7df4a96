/**
 * Counts rendered frames into `window.__fulcrum.frames`. Mount it once inside the <Canvas>.
 * A useFrame callback runs exactly once per rendered frame, so the count is what demand mode
 * saves: it stops growing while the scene rests.
 */
import { useFrame } from '@react-three/fiber';
import type { ReactNode } from 'react';
import { debugHandle } from './debug-handle.js';

export function FrameCounter(): ReactNode {
  useFrame(() => {
    debugHandle().frames++;
  });
  return null;
}
