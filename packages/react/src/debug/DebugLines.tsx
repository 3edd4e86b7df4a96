import type { DebugDrawOptions } from '@fulcrum/physics';
import type { ReactNode } from 'react';
export function DebugLines(_: { options?: DebugDrawOptions }): ReactNode {
  return null;
}
