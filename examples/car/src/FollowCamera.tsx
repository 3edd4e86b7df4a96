/**
 * Keeps the orthographic camera on the car. It eases towards the chassis and asks for another
 * frame while it is still catching up. Once the car sleeps it snaps onto it instead, so the
 * frame in which the car falls asleep is the last one demand mode draws.
 */
import type { Body as EngineBody } from '@fulcrum/physics';
import { useFrame } from '@react-three/fiber';
import type { ReactNode, RefObject } from 'react';

const FOLLOW_RATE = 4; // 1/s: the camera closes this fraction of the gap per second
const SETTLED = 0.002; // m

export function FollowCamera({ target }: { target: RefObject<EngineBody | null> }): ReactNode {
  useFrame(({ camera, invalidate }, delta) => {
    const body = target.current;
    if (!body) return;
    const k = body.isSleeping ? 1 : Math.min(1, delta * FOLLOW_RATE);
    // Look a little ahead and above, so the terrain to come shows.
    const dx = body.x + 3 - camera.position.x;
    const dy = body.y + 1.5 - camera.position.y;
    if (Math.abs(dx) < SETTLED && Math.abs(dy) < SETTLED) return;
    camera.position.x += dx * k;
    camera.position.y += dy * k;
    if (k < 1) invalidate();
  });
  return null;
}
