/**
 * FrameDriver: the bridge to R3F's render loop, mounted by <Physics> inside a <Canvas> only.
 *
 * It steps in `useFrame` at a negative priority: before user frame code (which then sees the
 * new state), and without taking over R3F's rendering (any priority > 0 would). It also tells
 * the world how to request a frame, for demand mode.
 */
import { useFrame, useStore } from '@react-three/fiber';
import { useLayoutEffect, type ReactNode } from 'react';
import type { PhysicsWorld } from '../core/physics-world.js';

/** The useFrame priority physics steps at. */
export const PHYSICS_FRAME_PRIORITY = -50;

export function FrameDriver({ world }: { world: PhysicsWorld }): ReactNode {
  const store = useStore();
  useLayoutEffect(() => {
    world.setFrameRequester(() => store.getState().invalidate());
    world.requestFrame();
    return () => world.setFrameRequester(null);
  }, [world, store]);
  useFrame((state, delta) => world.frame(delta, state), PHYSICS_FRAME_PRIORITY);
  return null;
}
