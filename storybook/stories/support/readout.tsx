/**
 * A line of readings under the canvas, as in the speed-caps story: the scene writes it after its
 * steps (`set`), the story's `parameters.fulcrum.panel` shows it with a `data-testid`, and the
 * story's browser test (`tests/`) reads it there, as a user would.
 */
import { useSyncExternalStore, type ComponentType } from 'react';
import type { StoryPanelProps } from './parameters';

export interface Readout {
  /** Show `text` (re-renders the panel only when it changed). */
  set(text: string): void;
  /** The panel under the canvas, for `parameters.fulcrum.panel`. */
  Panel: ComponentType<StoryPanelProps>;
}

export function createReadout(testId: string): Readout {
  let current = '';
  const listeners = new Set<() => void>();
  const subscribe = (l: () => void) => {
    listeners.add(l);
    return () => void listeners.delete(l);
  };
  function Panel() {
    const text = useSyncExternalStore(subscribe, () => current);
    return (
      <div data-testid={testId} style={{ padding: '6px 8px', fontVariantNumeric: 'tabular-nums' }}>
        {text}
      </div>
    );
  }
  return {
    set(text) {
      if (text === current) return;
      current = text;
      for (const l of listeners) l();
    },
    Panel,
  };
}
