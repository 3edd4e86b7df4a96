/** The two static cliffs the bridge hangs between, and the ground far below. */
import type { Body as EngineBody } from '@fulcrum/physics';
import { Body, Box } from '@fulcrum/react';
import type { ReactNode, RefObject } from 'react';

export const CLIFF_WIDTH = 6;
export const CLIFF_HEIGHT = 10;
const ROCK = 0x56606e;

export interface CliffsProps {
  /** x of the inner cliff edges (±). */
  edge: number;
  /** y of the cliff tops. */
  top: number;
  left: RefObject<EngineBody | null>;
  right: RefObject<EngineBody | null>;
}

export function Cliffs({ edge, top, left, right }: CliffsProps): ReactNode {
  const y = top - CLIFF_HEIGHT / 2;
  return (
    <>
      <Body ref={left} type="static" position={[-edge - CLIFF_WIDTH / 2, y]}>
        <Box width={CLIFF_WIDTH} height={CLIFF_HEIGHT} color={ROCK} />
      </Body>
      <Body ref={right} type="static" position={[edge + CLIFF_WIDTH / 2, y]}>
        <Box width={CLIFF_WIDTH} height={CLIFF_HEIGHT} color={ROCK} />
      </Body>
      {/* The valley floor catches whatever falls off the bridge. */}
      <Body type="static" position={[0, top - CLIFF_HEIGHT + 0.5]}>
        <Box width={2 * edge + 2 * CLIFF_WIDTH} height={1} color={0x3f4a3a} />
      </Body>
    </>
  );
}
