import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { COLOURS, DYNAMIC_COLOURS, GraphColouring } from './graph-colouring.js';

/** Constraints as [a, b] solver-index pairs, laid out as a family's ends array (stride 2). */
function endsOf(pairs: readonly (readonly [number, number])[]): Int32Array {
  const ends = new Int32Array(pairs.length * 2);
  pairs.forEach(([a, b], i) => {
    ends[2 * i] = a;
    ends[2 * i + 1] = b;
  });
  return ends;
}

/** The colour of each constraint (COLOURS for the overflow), read back from order and start. */
function coloursOf(g: GraphColouring): number[] {
  const colour: number[] = new Array(g.count).fill(-1);
  for (let c = 0; c <= COLOURS; c++) {
    const end = c < COLOURS ? g.start[c + 1]! : g.count;
    for (let k = g.start[c]!; k < end; k++) colour[g.order[k]!] = c;
  }
  return colour;
}

/** Two different bodies, or both outside the solver (0): a constraint never joins a solver body to itself. */
const pairs = (bodies: number) =>
  fc.array(fc.tuple(fc.nat(bodies - 1), fc.nat(bodies - 1)).filter(([a, b]) => a !== b || a === 0), { maxLength: 400 });

describe('GraphColouring', () => {
  it('puts no solver body twice in a colour, keeps the order within each colour, and is a permutation with its inverse', () => {
    fc.assert(
      fc.property(pairs(40), (list) => {
        const g = new GraphColouring();
        g.colour(endsOf(list), 2, 0, list.length, 40);
        const order = Array.from(g.order.subarray(0, list.length));
        expect([...order].sort((x, y) => x - y)).toEqual(list.map((_, i) => i));
        list.forEach((_, i) => expect(order[g.position[i]!]).toBe(i));
        for (let c = 0; c < COLOURS; c++) {
          const seen = new Set<number>();
          for (let k = g.start[c]!; k < g.start[c + 1]!; k++) {
            const [a, b] = list[order[k]!]!;
            for (const body of [a, b]) {
              if (body === 0) continue;
              expect(seen.has(body), `body ${body} twice in colour ${c}`).toBe(false);
              seen.add(body);
            }
            if (k > g.start[c]!) expect(order[k]!).toBeGreaterThan(order[k - 1]!);
          }
        }
        for (let k = g.start[COLOURS]! + 1; k < list.length; k++) expect(order[k]!).toBeGreaterThan(order[k - 1]!);
      }),
    );
  });

  it('is greedy: each constraint has the first colour its range allows that neither body had yet', () => {
    fc.assert(
      fc.property(pairs(12), (list) => {
        const g = new GraphColouring();
        g.colour(endsOf(list), 2, 0, list.length, 12);
        const colour = coloursOf(g);
        // Replay: which colours each body is in after the constraints before i.
        const inColour = Array.from({ length: 12 }, () => new Set<number>());
        list.forEach(([a, b], i) => {
          const from = a !== 0 && b !== 0 ? 0 : a === 0 && b === 0 ? 0 : 1;
          const to = a !== 0 && b !== 0 ? DYNAMIC_COLOURS : COLOURS;
          let expected = COLOURS;
          if (a === 0 && b === 0) expected = 0;
          else {
            for (let c = from; c < to; c++) {
              if ((a === 0 || !inColour[a]!.has(c)) && (b === 0 || !inColour[b]!.has(c))) {
                expected = c;
                break;
              }
            }
          }
          expect(colour[i]).toBe(expected);
          if (expected < COLOURS) {
            if (a !== 0) inColour[a]!.add(expected);
            if (b !== 0) inColour[b]!.add(expected);
          }
        });
      }),
    );
  });

  it('sends a fan past its colours to the overflow, and a ground contact never to colour 0', () => {
    const g = new GraphColouring();
    // Body 1 joined to 30 others: 16 colours for pairs of solver bodies, then the overflow.
    const fan = Array.from({ length: 30 }, (_, i) => [1, i + 2] as const);
    g.colour(endsOf(fan), 2, 0, fan.length, 40);
    expect(g.start[COLOURS]).toBe(DYNAMIC_COLOURS);
    expect(Array.from(g.order.subarray(DYNAMIC_COLOURS, 30))).toEqual(Array.from({ length: 30 - DYNAMIC_COLOURS }, (_, i) => DYNAMIC_COLOURS + i));
    // Boxes on the ground (body 0) share no solver body: all in colour 1, whatever their number.
    const ground = Array.from({ length: 100 }, (_, i) => [0, i + 1] as const);
    g.colour(endsOf(ground), 2, 0, ground.length, 101);
    expect(g.start[1]).toBe(0);
    expect(g.start[2]).toBe(100);
    expect(g.used).toBe(1);
  });

  it('reads the pairs at any stride and offset (a contact solver keeps three ints a row)', () => {
    const list = [[1, 2], [2, 3], [0, 3], [1, 3]] as const;
    const ends = new Int32Array(list.length * 3);
    list.forEach(([a, b], i) => {
      ends[3 * i] = 99;
      ends[3 * i + 1] = a;
      ends[3 * i + 2] = b;
    });
    const g = new GraphColouring();
    g.colour(ends, 3, 1, list.length, 4);
    const strided = coloursOf(g);
    g.colour(endsOf(list), 2, 0, list.length, 4);
    expect(strided).toEqual(coloursOf(g));
    expect(strided).toEqual([0, 1, 2, 3]);
  });
});
