/**
 * In-place ascending sort of the first `count` entries of an Int32Array.
 * Why not `subarray(0, n).sort()`: that allocates a view per call, and the broadphase sorts
 * every step. Insertion sort for short runs (per-query hit lists), heapsort otherwise
 * (the move buffer): O(n log n) worst case, no recursion, no allocation.
 */
const INSERTION_LIMIT = 24;

export function sortInt32(a: Int32Array, count: number): void {
  if (count <= INSERTION_LIMIT) {
    insertionSort(a, count);
    return;
  }
  // Build a max-heap, then repeatedly move the max to the end.
  for (let i = (count >> 1) - 1; i >= 0; i--) siftDown(a, i, count);
  for (let end = count - 1; end > 0; end--) {
    const t = a[0];
    a[0] = a[end];
    a[end] = t;
    siftDown(a, 0, end);
  }
}

function insertionSort(a: Int32Array, count: number): void {
  for (let i = 1; i < count; i++) {
    const v = a[i];
    let j = i - 1;
    while (j >= 0 && a[j] > v) {
      a[j + 1] = a[j];
      j--;
    }
    a[j + 1] = v;
  }
}

function siftDown(a: Int32Array, start: number, end: number): void {
  let root = start;
  const v = a[root];
  for (;;) {
    let child = 2 * root + 1;
    if (child >= end) break;
    if (child + 1 < end && a[child + 1] > a[child]) child++;
    if (a[child] <= v) break;
    a[root] = a[child];
    root = child;
  }
  a[root] = v;
}
