/** The static ground: one body with a polygon per terrain quad, and a wall at each end. */
import { Body, Box, Polygon } from '@fulcrum/react';
import { useMemo, type ReactNode } from 'react';
import { groundQuads, TERRAIN_END, TERRAIN_START } from './terrain.js';

const GROUND_COLOR = 0x3f6b45;
const WALL_COLOR = 0x5b5f6b;

export function Terrain(): ReactNode {
  const quads = useMemo(groundQuads, []);
  return (
    <Body type="static">
      {quads.map((vertices, i) => (
        <Polygon key={i} vertices={vertices} friction={1} color={GROUND_COLOR} />
      ))}
      <Box width={1} height={12} offset={[TERRAIN_START - 0.5, 2]} color={WALL_COLOR} />
      <Box width={1} height={12} offset={[TERRAIN_END + 0.5, 2]} color={WALL_COLOR} />
    </Body>
  );
}
