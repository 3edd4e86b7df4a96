/**
 * A line of readings under the canvas, as in the speed-caps story: the scene writes it after its
 * steps (`set`), the story's `parameters.fulcrum.panel` shows it with a `data-testid`, and the
 * story's browser test (`tests/`) reads it there, as a user would.
 */
import { useSyncExternalStore, type ComponentType, type CSSProperties } from 'react';
import { ui } from './palette';
import type { StoryPanelProps } from './parameters';

/** The look of every line of text under a canvas: readouts, captions, status. */
export const CAPTION_STYLE: CSSProperties = {
  padding: '6px 8px',
  minHeight: 18,
  background: ui.surface,
  borderTop: `1px solid ${ui.border}`,
  color: ui.text,
  fontVariantNumeric: 'tabular-nums',
};

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
      <div data-testid={testId} style={CAPTION_STYLE}>
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
