/**
 * The list of spawned things, as React state: each spawn appends one item with its own key and
 * drop position; past MAX_ITEMS the oldest go, so the scene stays light.
 */
import { useCallback, useState } from 'react';

export type SpawnKind = 'box' | 'ball' | 'ragdoll';

export interface SpawnedItem {
  key: number;
  kind: SpawnKind;
  x: number;
  y: number;
}

export const MAX_ITEMS = 40;
/** Drop points spread over the bridge without randomness, so runs are reproducible. */
const DROP_XS = [-3.5, 2, -0.5, 4.5, -5.5, 1, -2, 5.5, 3, -4.5];

export function useSpawner(dropHeight: number): { items: readonly SpawnedItem[]; spawn: (kind: SpawnKind) => void; clear: () => void } {
  const [state, setState] = useState<{ next: number; items: readonly SpawnedItem[] }>({ next: 0, items: [] });
  const spawn = useCallback(
    (kind: SpawnKind) =>
      setState(({ next, items }) => ({
        next: next + 1,
        items: [...items, { key: next, kind, x: DROP_XS[next % DROP_XS.length]!, y: dropHeight }].slice(-MAX_ITEMS),
      })),
    [dropHeight],
  );
  const clear = useCallback(() => setState(({ next }) => ({ next, items: [] })), []);
  return { items: state.items, spawn, clear };
}
