import type { ParallelStatus } from '@fulcrum/physics';

/**
 * A space's workers as the stories' readouts say them: how many run of how many were asked for,
 * and why fewer (a space starts at most one fewer than the machine's cores, since the page's
 * thread takes a share of every stage), or why none.
 */
export function describeWorkers(p: ParallelStatus): string {
  if (p.requested === 0) return "no workers asked for (the page's thread only)";
  if (p.workers === 0) return `no workers running (${p.reason ?? 'starting'})`;
  const running = `${p.workers} of ${p.requested} workers running`;
  if (p.workers === p.requested) return running;
  const cores = (globalThis as { navigator?: { hardwareConcurrency?: number } }).navigator?.hardwareConcurrency;
  return `${running} (${cores ?? '?'} cores: at most one fewer workers than cores start)`;
}
