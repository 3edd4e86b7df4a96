/** The loads the buttons drop on the crane's hook: React state, one item per drop. */
import { useCallback, useState } from 'react';

export interface LoadKind {
  id: 'heavy' | 'light';
  label: string;
  size: number;
  /** kg/m², so mass = density × size². */
  density: number;
  color: number;
}

export const LOAD_KINDS: readonly LoadKind[] = [
  { id: 'light', label: 'Drop light load (4 kg)', size: 0.8, density: 6.25, color: 0x7fb2e5 },
  { id: 'heavy', label: 'Drop heavy load (60 kg)', size: 1, density: 60, color: 0xb0483c },
];

export interface DroppedLoad {
  key: number;
  kind: LoadKind;
}

const MAX_LOADS = 12;

export function useLoads(): { loads: readonly DroppedLoad[]; drop: (kind: LoadKind) => void; clear: () => void } {
  const [state, setState] = useState<{ next: number; loads: readonly DroppedLoad[] }>({ next: 0, loads: [] });
  const drop = useCallback((kind: LoadKind) => setState(({ next, loads }) => ({ next: next + 1, loads: [...loads, { key: next, kind }].slice(-MAX_LOADS) })), []);
  const clear = useCallback(() => setState(({ next }) => ({ next, loads: [] })), []);
  return { loads: state.loads, drop, clear };
}
