/**
 * RefSlot: hands an engine object to the user's `ref` prop (object or callback ref, React 19
 * callback cleanups included) and takes it back on unmount, so `ref.current` is null once the
 * component is gone. Components set refs themselves (not through useImperativeHandle) because
 * the object they expose is created lazily in effects and can change (StrictMode remounts).
 */
import type { Ref } from 'react';

export class RefSlot<T> {
  private ref: Ref<T | null> | undefined = undefined;
  private value: T | null = null;
  private cleanup: (() => void) | null = null;

  /** Point `ref` at `value` (a no-op when both are unchanged). */
  set(ref: Ref<T | null> | undefined, value: T | null): void {
    if (ref === this.ref && value === this.value) return;
    this.clear();
    this.ref = ref;
    this.value = value;
    if (!ref || value === null) return;
    if (typeof ref === 'function') {
      const c = ref(value);
      this.cleanup = typeof c === 'function' ? c : () => ref(null);
    } else {
      ref.current = value;
    }
  }

  /** Detach: the ref reads null. */
  clear(): void {
    const ref = this.ref;
    if (ref && this.value !== null) {
      if (typeof ref === 'function') this.cleanup?.();
      else if (ref.current === this.value) ref.current = null;
    }
    this.cleanup = null;
    this.value = null;
  }
}
