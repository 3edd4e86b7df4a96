/**
 * The fuzz's only source of randomness: sfc32 seeded through splitmix32, so a scene is a pure
 * function of its seed (no Math.random anywhere in this package).
 */

/** splitmix32: spreads a 32-bit seed into well-mixed words. */
function splitmix32(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
    return (z ^ (z >>> 16)) >>> 0;
  };
}

/** The seed of scene `index` of a run seeded with `seed`. */
export function sceneSeed(seed: number, index: number): number {
  const m = splitmix32((seed ^ Math.imul(index + 1, 0x27d4eb2d)) >>> 0);
  m();
  return m();
}

export class Rng {
  private a: number;
  private b: number;
  private c: number;
  private d: number;

  constructor(seed: number) {
    const m = splitmix32(seed);
    this.a = m();
    this.b = m();
    this.c = m();
    this.d = m();
    for (let i = 0; i < 12; i++) this.u32();
  }

  /** A uniform 32-bit unsigned integer (sfc32). */
  u32(): number {
    const t = (((this.a + this.b) >>> 0) + this.d) >>> 0;
    this.d = (this.d + 1) >>> 0;
    this.a = this.b ^ (this.b >>> 9);
    this.b = (this.c + (this.c << 3)) >>> 0;
    this.c = (this.c << 21) | (this.c >>> 11);
    this.c = (this.c + t) >>> 0;
    return t;
  }

  /** Uniform in [0, 1). */
  next(): number {
    return this.u32() / 4294967296;
  }

  /** Uniform in [lo, hi). */
  float(lo: number, hi: number): number {
    return lo + (hi - lo) * this.next();
  }

  /** Log-uniform in [lo, hi] (lo > 0): masses, sizes and frequencies spread over decades. */
  log(lo: number, hi: number): number {
    return Math.exp(this.float(Math.log(lo), Math.log(hi)));
  }

  /** Uniform integer in [lo, hi], both included. */
  int(lo: number, hi: number): number {
    return lo + Math.floor(this.next() * (hi - lo + 1));
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('Rng.pick: empty list');
    return items[Math.floor(this.next() * items.length)]!;
  }

  /** Picks by weight: [[weight, value], ...]. */
  weighted<T>(items: readonly (readonly [number, T])[]): T {
    let total = 0;
    for (const [w] of items) total += w;
    let r = this.next() * total;
    for (const [w, v] of items) {
      r -= w;
      if (r < 0) return v;
    }
    return items[items.length - 1]![1];
  }

  sign(): number {
    return this.next() < 0.5 ? -1 : 1;
  }

  /** A fresh generator for a sub-task, so adding draws to one part leaves the others' streams alone. */
  fork(): Rng {
    return new Rng(this.u32());
  }
}
