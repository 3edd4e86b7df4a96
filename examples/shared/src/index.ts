/** What the example apps share. */
export { ExampleShell, type ExampleShellProps } from './ExampleShell.js';
export { StatsOverlay, type StatsOverlayProps } from './StatsOverlay.js';
export { StatsProbe, type StatsProbeProps } from './StatsProbe.js';
export { FrameCounter } from './FrameCounter.js';
export { debugHandle, type FulcrumDebugHandle, type StatsSnapshot } from './debug-handle.js';
export { countAwakeIslands } from './awake-islands.js';
export { TouchingPairs } from './touching-pairs.js';
