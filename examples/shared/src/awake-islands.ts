/**
 * Counts the awake islands of a space through its public API, with the engine's own rule
 * (README "Sleeping"): awake dynamic bodies are linked by a touching solid contact with another
 * dynamic body, or by an active constraint. Static and kinematic bodies never join islands.
 * The engine keeps no island count of its own between steps, hence this union-find.
 */
import type { Body, Space } from '@fulcrum/physics';
import type { TouchingPairs } from './touching-pairs.js';

export function countAwakeIslands(space: Space, touching: TouchingPairs): number {
  const index = new Map<Body, number>();
  for (const b of space.bodies) if (b.isDynamic && !b.isSleeping) index.set(b, index.size);
  if (index.size === 0) return 0;
  const parent = Array.from({ length: index.size }, (_, i) => i);
  const find = (i: number): number => {
    while (parent[i] !== i) i = parent[i] = parent[parent[i]!]!;
    return i;
  };
  const union = (a: Body, b: Body): void => {
    const i = index.get(a);
    const j = index.get(b);
    if (i === undefined || j === undefined) return;
    const ri = find(i);
    const rj = find(j);
    if (ri !== rj) parent[Math.max(ri, rj)] = Math.min(ri, rj);
  };
  touching.forEach(union);
  for (const c of space.constraints) {
    if (!c.active) continue;
    // Link through the first awake dynamic body: a static body1 must not split the rest.
    let first: Body | null = null;
    for (const b of c.bodies) {
      if (!index.has(b)) continue;
      if (first === null) first = b;
      else union(first, b);
    }
  }
  let islands = 0;
  for (let i = 0; i < parent.length; i++) if (find(i) === i) islands++;
  return islands;
}
