/**
 * Distance posts every 5 m: plain three.js meshes, not bodies, so that the ground visibly
 * scrolls past when the camera follows the car.
 */
import { useMemo, type ReactNode } from 'react';
import { groundHeight, TERRAIN_END, TERRAIN_START } from './terrain.js';

const SPACING = 5;
const POST_HEIGHT = 1.2;

export function Markers(): ReactNode {
  const xs = useMemo(() => {
    const out: number[] = [];
    for (let x = Math.ceil(TERRAIN_START / SPACING) * SPACING; x <= TERRAIN_END; x += SPACING) out.push(x);
    return out;
  }, []);
  return (
    <group position={[0, 0, -1]}>
      {xs.map((x) => (
        <mesh key={x} position={[x, groundHeight(x) + POST_HEIGHT / 2, 0]}>
          <planeGeometry args={[0.12, POST_HEIGHT]} />
          <meshBasicMaterial color={x % 50 === 0 ? 0xf0e6a0 : 0x6d7688} />
        </mesh>
      ))}
    </group>
  );
}
