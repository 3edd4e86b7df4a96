/**
 * A copy-on-write list for what runs every frame (targets, step callbacks). Iterating it is a
 * plain indexed loop over an array that never changes under the loop, so a frame allocates no
 * iterator, and an item may add or remove items while the list is being run.
 */
export class CowList<T> {
  items: readonly T[] = [];

  add(item: T): () => void {
    if (!this.items.includes(item)) this.items = [...this.items, item];
    return () => this.remove(item);
  }

  remove(item: T): void {
    if (this.items.includes(item)) this.items = this.items.filter((x) => x !== item);
  }

  get size(): number {
    return this.items.length;
  }
}
