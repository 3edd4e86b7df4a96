/**
 * Graph colouring of a family's constraints, as Box2D v3 does it: constraints are put into
 * colours so that no body in the solver appears twice within a colour. The constraints of one
 * colour touch disjoint bodies, so they can be solved in any order, or at once on several
 * threads, with bitwise the same result: the order that decides the result is the colours' order,
 * and within a colour nothing depends on anything else. That is what lets the parallel step give
 * the same bits for every worker count (packages/physics/README.md, "Parallel step").
 *
 *   who      solver index 0 (a static body, or one outside the solver) is never written by a
 *            pass, so it does not count: a ground touched by a hundred boxes colours like a
 *            hundred separate bodies. Every other solver body counts, kinematic ones too (a
 *            pass writes their velocity back, unchanged, and two threads writing one body are
 *            a race even then).
 *   greedy   in the family's own order, each constraint takes the first colour where neither of
 *            its bodies is yet. A constraint between two solver bodies may take the first
 *            DYNAMIC_COLOURS colours; one with a static side starts from colour 1 and may take
 *            any: what touches the ground is solved after what rests on it within a pass, so
 *            the ground has the last word, as in Box2D v3.
 *   overflow what finds no colour (one body in more than COLOURS constraints, a fan) goes to the
 *            overflow, solved serially after the colours, in the family's order.
 *
 * The result is a permutation (`order`: the family's indices, colour by colour, then the
 * overflow) and the colours' bounds within it (`start[c]` to `start[c + 1]`; the overflow from
 * `start[COLOURS]` to `count`). It depends only on the family's order and its bodies' solver
 * indices: never on the thread count.
 */
import { resized } from '../util/typed-arrays.js';

/** Colours before the overflow (Box2D v3 has 24 in all, its overflow included). */
export const COLOURS = 24;
/** The colours a constraint between two solver bodies may take (the rest are for static sides). */
export const DYNAMIC_COLOURS = 16;

export class GraphColouring {
  /** The constraints' indices in solve order: colour 0's, colour 1's, ..., then the overflow's. */
  order = new Int32Array(0);
  /** The inverse: where constraint i is in `order`. */
  position = new Int32Array(0);
  /** start[c]: where colour c begins in `order`; start[COLOURS]: where the overflow begins. */
  readonly start = new Int32Array(COLOURS + 1);
  /** How many were coloured (and the overflow's end): the family's count. */
  count = 0;
  /** Colours that hold at least one constraint. */
  used = 0;
  /** Per body (solver index), one bit per colour it is in: 24 colours fit one int. */
  private bodyColours = new Int32Array(0);
  /** Each constraint's colour (COLOURS for the overflow), before the counting sort. */
  private colourOf = new Uint8Array(0);

  /**
   * Colour `count` constraints whose bodies are ends[stride·i + offset] and
   * ends[stride·i + offset + 1] (solver indices, 0 for static), over `bodyCount` solver bodies.
   */
  colour(ends: Int32Array, stride: number, offset: number, count: number, bodyCount: number): void {
    this.reserve(count, bodyCount);
    const bits = this.bodyColours;
    bits.fill(0, 0, bodyCount);
    const colourOf = this.colourOf;
    const start = this.start;
    start.fill(0);
    let overflow = 0;
    for (let i = 0; i < count; i++) {
      const a = ends[stride * i + offset]!;
      const b = ends[stride * i + offset + 1]!;
      // The colours either body is already in (body 0 is in none); the first free one in range.
      const taken = bits[a]! | bits[b]!;
      let colour = COLOURS;
      if (a !== 0 && b !== 0) colour = firstFree(taken, 0, DYNAMIC_COLOURS);
      else if (a !== 0 || b !== 0) colour = firstFree(taken, 1, COLOURS);
      else colour = 0; // two bodies outside the solver: nothing to race on
      colourOf[i] = colour;
      if (colour === COLOURS) {
        overflow++;
        continue;
      }
      const bit = 1 << colour;
      if (a !== 0) bits[a] = bits[a]! | bit;
      if (b !== 0) bits[b] = bits[b]! | bit;
      start[colour]++;
    }
    this.sort(count, overflow);
  }

  /**
   * Colour `count` constraints of any number of bodies: constraint i's are
   * bodies[first[i]] … bodies[first[i] + size[i] − 1] (solver indices, 0 for static). One with
   * two or more solver bodies may take the first DYNAMIC_COLOURS colours, one with a single
   * solver body any from colour 1, as colour() does for pairs. A constraint with `serial[i]` set
   * goes to the overflow whatever its bodies (what only the calling thread may solve).
   */
  colourSets(bodies: Int32Array, first: Int32Array, size: Uint8Array, serial: Uint8Array, count: number, bodyCount: number): void {
    this.reserve(count, bodyCount);
    const bits = this.bodyColours;
    bits.fill(0, 0, bodyCount);
    const colourOf = this.colourOf;
    this.start.fill(0);
    let overflow = 0;
    for (let i = 0; i < count; i++) {
      const f = first[i]!;
      const e = f + size[i]!;
      let taken = 0;
      let inSolver = 0;
      for (let j = f; j < e; j++) {
        const k = bodies[j]!;
        if (k === 0) continue;
        taken |= bits[k]!;
        inSolver++;
      }
      let colour = COLOURS;
      if (serial[i] === 1) colour = COLOURS;
      else if (inSolver >= 2) colour = firstFree(taken, 0, DYNAMIC_COLOURS);
      else if (inSolver === 1) colour = firstFree(taken, 1, COLOURS);
      else colour = 0;
      colourOf[i] = colour;
      if (colour === COLOURS) {
        overflow++;
        continue;
      }
      const bit = 1 << colour;
      for (let j = f; j < e; j++) {
        const k = bodies[j]!;
        if (k !== 0) bits[k] = bits[k]! | bit;
      }
      this.start[colour]++;
    }
    this.sort(count, overflow);
  }

  private reserve(count: number, bodyCount: number): void {
    if (this.bodyColours.length < bodyCount) this.bodyColours = resized(this.bodyColours, Math.max(64, bodyCount * 2));
    if (this.colourOf.length < count) {
      const cap = Math.max(64, count * 2);
      this.colourOf = resized(this.colourOf, cap);
      this.order = resized(this.order, cap);
      this.position = resized(this.position, cap);
    }
  }

  /** From each colour's count (in start) and colourOf: the order, colour by colour, and the bounds. */
  private sort(count: number, overflow: number): void {
    const start = this.start;
    const colourOf = this.colourOf;
    // Counting sort into colour order, keeping the family's order within each colour.
    let at = 0;
    let used = 0;
    for (let c = 0; c < COLOURS; c++) {
      const n = start[c]!;
      if (n > 0) used++;
      start[c] = at;
      at += n;
    }
    start[COLOURS] = at;
    const next = this.nextSlot;
    next.set(start);
    const order = this.order;
    const position = this.position;
    for (let i = 0; i < count; i++) {
      const p = next[colourOf[i]!]!++;
      order[p] = i;
      position[i] = p;
    }
    this.count = count;
    this.used = used + (overflow > 0 ? 1 : 0);
  }

  /** The next free place of each colour during the sort (overflow last). */
  private readonly nextSlot = new Int32Array(COLOURS + 1);
}

/** The lowest colour in [from, to) that `taken` has not set, or COLOURS when there is none. */
function firstFree(taken: number, from: number, to: number): number {
  // The free colours at or above `from`, below `to`; the lowest set bit of that is the colour.
  const free = ~taken & (((to >= 32 ? -1 : (1 << to) - 1) >>> 0) & ~((1 << from) - 1));
  if (free === 0) return COLOURS;
  return 31 - Math.clz32(free & -free);
}
