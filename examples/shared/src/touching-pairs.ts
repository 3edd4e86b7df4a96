/**
 * The body pairs whose solid shapes touch, kept from the space's beginContact/endContact events.
 * The engine links two dynamic bodies into one island through such a contact, but does not
 * expose its contacts, so the island count rebuilds them from the events.
 */
import type { Body, ContactEvent, Space } from '@fulcrum/physics';

export class TouchingPairs {
  /** Touching solid shape pairs per body pair ("idA:idB", smaller id first). */
  private readonly counts = new Map<string, { a: Body; b: Body; n: number }>();

  /** Listen to `space`; returns the unsubscribe function. Start before the first step. */
  watch(space: Space): () => void {
    const offBegin = space.on('beginContact', (e) => this.change(e, +1));
    const offEnd = space.on('endContact', (e) => this.change(e, -1));
    return () => {
      offBegin();
      offEnd();
      this.counts.clear();
    };
  }

  /** Calls `visit(a, b)` once per touching body pair. */
  forEach(visit: (a: Body, b: Body) => void): void {
    for (const p of this.counts.values()) visit(p.a, p.b);
  }

  get size(): number {
    return this.counts.size;
  }

  private change(e: ContactEvent, delta: 1 | -1): void {
    // Sensors overlap but never link islands.
    if (e.shapeA.sensor || e.shapeB.sensor) return;
    const [a, b] = e.bodyA.id < e.bodyB.id ? [e.bodyA, e.bodyB] : [e.bodyB, e.bodyA];
    const key = `${a.id}:${b.id}`;
    const p = this.counts.get(key);
    const n = (p?.n ?? 0) + delta;
    if (n <= 0) this.counts.delete(key);
    else if (p) p.n = n;
    else this.counts.set(key, { a, b, n });
  }
}
