/** What the example apps share. */
export { ExampleShell, type ExampleShellProps } from './ExampleShell.js';
export { StatsOverlay, type StatsOverlayProps } from './StatsOverlay.js';
export { StatsProbe, type StatsProbeProps, type StatsSnapshot } from './StatsProbe.js';
