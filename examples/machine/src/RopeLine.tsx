/**
 * A straight line between two body points, for ropes the bodies don't draw themselves. Its
 * two vertices are rewritten in a useFrame callback (no React render, no allocation beyond the
 * engine's Vec2 results), so it only redraws while demand mode draws anyway.
 */
import type { Body as EngineBody } from '@fulcrum/physics';
import { useFrame } from '@react-three/fiber';
import { useMemo, type ReactNode, type RefObject } from 'react';
import { BufferAttribute, BufferGeometry, Line, LineBasicMaterial } from 'three';

export interface RopeLineProps {
  from: RefObject<EngineBody | null>;
  /** In `from`'s frame. */
  fromAnchor: readonly [number, number];
  to: RefObject<EngineBody | null>;
  /** In `to`'s frame. */
  toAnchor: readonly [number, number];
  color?: number;
}

export function RopeLine({ from, fromAnchor, to, toAnchor, color = 0xd8d2c0 }: RopeLineProps): ReactNode {
  const line = useMemo(() => {
    const geometry = new BufferGeometry();
    geometry.setAttribute('position', new BufferAttribute(new Float32Array(6), 3));
    return new Line(geometry, new LineBasicMaterial({ color }));
  }, [color]);
  useFrame(() => {
    const a = from.current;
    const b = to.current;
    line.visible = a !== null && b !== null;
    if (!a || !b) return;
    const p = a.localPointToWorld(fromAnchor);
    const q = b.localPointToWorld(toAnchor);
    const pos = line.geometry.getAttribute('position') as BufferAttribute;
    pos.setXYZ(0, p.x, p.y, -0.5);
    pos.setXYZ(1, q.x, q.y, -0.5);
    pos.needsUpdate = true;
    line.geometry.computeBoundingSphere();
  });
  return <primitive object={line} />;
}
