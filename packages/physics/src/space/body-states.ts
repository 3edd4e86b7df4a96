/**
 * The states of a space's bodies (body/state-layout.ts) in one array, each body's numbers at
 * its slot (Body._slot): the step's write back writes them from the solver arrays in one kernel,
 * on every thread when there are workers. A body is adopted as it joins the space and released,
 * with a copy of its state in an array of its own, as it leaves. When a slot beyond the array
 * comes, it doubles, and every adopted body moves to the new one; once the space has workers
 * (share) the array is over a SharedArrayBuffer.
 */
import type { Body } from '../body/body.js';
import { STATE_LENGTH } from '../body/state-layout.js';

export class BodyStates {
  array: Float64Array = new Float64Array(STATE_LENGTH * 64);
  /** The adopted bodies, by slot. */
  private readonly bySlot: (Body | undefined)[] = [];
  private shared = false;

  /** Move a body's state into its slot (its current numbers kept). */
  adopt(b: Body): void {
    const at = b._slot * STATE_LENGTH;
    if (at + STATE_LENGTH > this.array.length) this.grow(at + STATE_LENGTH);
    this.array.set(b._st.subarray(b._sa, b._sa + STATE_LENGTH), at);
    b._st = this.array;
    b._sa = at;
    this.bySlot[b._slot] = b;
  }

  /** Give a body its state back, in an array of its own (it leaves the space). */
  release(b: Body): void {
    if (this.bySlot[b._slot] !== b) return;
    b._st = this.array.slice(b._sa, b._sa + STATE_LENGTH);
    b._sa = 0;
    this.bySlot[b._slot] = undefined;
  }

  /** Over a SharedArrayBuffer from now on (the space's workers start). */
  share(): void {
    if (this.shared) return;
    this.shared = true;
    this.moveTo(this.array.length);
  }

  private grow(need: number): void {
    let length = this.array.length;
    while (length < need) length *= 2;
    this.moveTo(length);
  }

  /** A new array of `length` numbers: every adopted body's state moves to it. */
  private moveTo(length: number): void {
    const next = this.shared ? new Float64Array(new SharedArrayBuffer(8 * length)) : new Float64Array(length);
    next.set(this.array);
    this.array = next;
    for (const b of this.bySlot) if (b !== undefined) b._st = next;
  }
}
