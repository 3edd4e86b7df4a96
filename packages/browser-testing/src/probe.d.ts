/** `window.__fulcrum`: `frames` counts renderer.render() calls; other fields are app status. */
export interface FulcrumProbe {
  frames: number;
  [field: string]: unknown;
}
export declare function fulcrumProbe(): FulcrumProbe;
export declare function setProbe(fields: Record<string, unknown>): void;
/** Counts `renderer.render()` calls into `window.__fulcrum.frames`; returns a restore function. */
export declare function countRenders(renderer: { render(...args: any[]): unknown }): () => void;

declare global {
  // eslint-disable-next-line no-var
  var __fulcrum: FulcrumProbe | undefined;
}
