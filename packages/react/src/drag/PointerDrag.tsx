import type { ReactNode } from 'react';
export interface PointerDragProps { children?: ReactNode }
export function PointerDrag(_: PointerDragProps): ReactNode {
  return null;
}
