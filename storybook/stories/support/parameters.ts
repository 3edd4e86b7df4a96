/** The `parameters.fulcrum` a story may set (read by the StoryFrame decorator). */
import type { ComponentType } from 'react';
import type { FrameSettings } from './StoryFrame';

export interface StoryPanelProps {
  args: Record<string, unknown>;
  updateArgs(update: Record<string, unknown>): void;
}

export interface FulcrumParameters extends FrameSettings {
  /** Start with the debug view on. */
  debug?: boolean;
  /**
   * For the browser tests of joint stories: a control change that visibly changes the scene
   * once it is at rest (applied through Storybook's channel, like the Controls panel does).
   */
  controlChange?: Record<string, unknown>;
  /**
   * For the browser tests' drag: how far to move the pointer from the drag handle, in CSS
   * pixels [dx, dy] (y down). Default [60, -100]: up and to the right.
   */
  dragBy?: [number, number];
  /** HTML shown under the canvas (e.g. a source editor), given the story's args. */
  panel?: ComponentType<StoryPanelProps>;
}
