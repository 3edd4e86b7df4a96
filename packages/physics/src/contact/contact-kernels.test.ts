import { describe, expect, it } from 'vitest';
import { CONTACT_LAYOUT } from './contact-solver.js';
import { mulberry32 } from '../test-support/random.js';
import { CONTACT_KERNEL_PARTS, CONTACT_KERNELS, contactKernels } from './contact-kernels.js';

const { warmStart: contactWarmStart, pass: contactPass, prepare: contactPrepare, store: contactStore } = CONTACT_KERNELS;

/** The kernels rebuilt from the factory's text and its parts' alone, as a worker builds them. */
function fromText(): ReturnType<typeof contactKernels> {
  return new Function(`"use strict"; return (${contactKernels.toString()})(${CONTACT_KERNEL_PARTS.map((f) => `(${f.toString()})`).join(', ')});`)();
}

/** The layout constants a kernel declares, evaluated from its text. */
function declaredLayout(f: (...args: never[]) => unknown): Record<string, number> {
  const decl = /const (STRIDE = [^;]+);/.exec(f.toString());
  expect(decl, 'the kernel declares its layout').not.toBeNull();
  return new Function(`"use strict"; const ${decl![1]}; return { ${decl![1]!.split(',').map((d) => d.split('=')[0]!.trim()).join(', ')} };`)() as Record<string, number>;
}

/** Rows of random numbers over random bodies (index 0 the static stand-in, at rest). */
function problem(seed: number) {
  const rnd = mulberry32(seed);
  const rows = 50;
  const bodies = 20;
  const d = new Float64Array(rows * CONTACT_LAYOUT.STRIDE).map(() => rnd() * 2 - 1);
  const ends = new Int32Array(rows * 3);
  const points = new Uint8Array(rows);
  const rigidSide = new Uint8Array(rows);
  for (let k = 0; k < rows; k++) {
    ends[3 * k + 1] = Math.floor(rnd() * bodies);
    ends[3 * k + 2] = Math.floor(rnd() * bodies);
    points[k] = rnd() < 0.5 ? 1 : 2;
    rigidSide[k] = rnd() < 0.3 ? 1 : 0;
  }
  const body = () => new Float64Array(bodies).map((_, i) => (i === 0 ? 0 : rnd() * 2 - 1));
  return { d, ends, points, rigidSide, vx: body(), vy: body(), w: body(), dpx: body(), dpy: body(), dqc: body().map((x, i) => (i === 0 ? 1 : Math.cos(x))), dqs: body().map((x, i) => (i === 0 ? 0 : Math.sin(x))) };
}

const bits = (...arrays: Float64Array[]) => arrays.map((a) => Array.from(new Uint32Array(a.slice().buffer)));

describe('contact kernels', () => {
  it("declare contact-solver.ts's layout", () => {
    for (const f of [contactWarmStart, contactPass, contactStore]) {
      for (const [name, value] of Object.entries(declaredLayout(f))) expect([name, value]).toEqual([name, CONTACT_LAYOUT[name as keyof typeof CONTACT_LAYOUT]]);
    }
  });

  it("run from their factory's text and its parts' alone (a worker has nothing else), bitwise as the calling thread's", () => {
    const { warmStart: warm, pass } = fromText();
    const soft = new Float64Array([2.5, 0.9, 0.1, 4, 0.8, 0.2]);
    for (let seed = 1; seed <= 20; seed++) {
      const a = problem(seed);
      const b = problem(seed);
      contactWarmStart(a.d, a.ends, a.points, a.vx, a.vy, a.w, 0, 50);
      warm(b.d, b.ends, b.points, b.vx, b.vy, b.w, 0, 50);
      for (const useBias of [true, false]) {
        contactPass(a.d, a.ends, a.points, a.rigidSide, a.vx, a.vy, a.w, a.dpx, a.dpy, a.dqc, a.dqs, 0, 50, 240, useBias, 3, soft);
        pass(b.d, b.ends, b.points, b.rigidSide, b.vx, b.vy, b.w, b.dpx, b.dpy, b.dqc, b.dqs, 0, 50, 240, useBias, 3, soft);
      }
      expect(bits(b.d, b.vx, b.vy, b.w)).toEqual(bits(a.d, a.vx, a.vy, a.w));
    }
  });

  it("store each row's point impulses and the step's totals in its own store slot, from text alone and in any split, as the calling thread does", () => {
    const L = CONTACT_LAYOUT;
    const a = problem(4);
    // Rows 0–49 in store slots 49 − k (a row's slot is ends[3k]); 60 slots, the last ten untouched.
    for (let k = 0; k < 50; k++) a.ends[3 * k] = 49 - k;
    const slots = () => [0, 1, 2, 3].map(() => new Float64Array(120).fill(7));
    const [ni, ti, tn, tt] = slots();
    contactStore(a.d, a.ends, a.points, ni!, ti!, tn!, tt!, 0, 50);
    for (let k = 0; k < 50; k++) {
      for (let j = 0; j < 2; j++) {
        const p = k * L.STRIDE + L.POINT + L.POINT_STRIDE * j;
        const at = 2 * (49 - k) + j;
        if (j >= a.points[k]!) {
          expect(ni![at]).toBe(7);
          continue;
        }
        expect([ni![at], ti![at]]).toEqual([a.d[p + L.NORMAL_IMPULSE], a.d[p + L.TANGENT_IMPULSE]]);
        expect([tn![at], tt![at]]).toEqual([a.d[p + L.TOTAL_NORMAL]! + a.d[p + L.NORMAL_IMPULSE]!, a.d[p + L.TOTAL_TANGENT]! + a.d[p + L.TANGENT_IMPULSE]!]);
      }
    }
    expect(Array.from(ni!.subarray(100))).toEqual(new Array(20).fill(7));
    const { store } = fromText();
    const b = slots();
    store(a.d, a.ends, a.points, b[0]!, b[1]!, b[2]!, b[3]!, 0, 17);
    store(a.d, a.ends, a.points, b[0]!, b[1]!, b[2]!, b[3]!, 17, 50);
    expect(bits(...b)).toEqual(bits(ni!, ti!, tn!, tt!));
  });

  it('solve a range as the same rows solved with the rest: [0, n) is [0, m) then [m, n)', () => {
    const soft = new Float64Array([2.5, 0.9, 0.1, 4, 0.8, 0.2]);
    const a = problem(7);
    const b = problem(7);
    contactPass(a.d, a.ends, a.points, a.rigidSide, a.vx, a.vy, a.w, a.dpx, a.dpy, a.dqc, a.dqs, 0, 50, 240, true, 3, soft);
    contactPass(b.d, b.ends, b.points, b.rigidSide, b.vx, b.vy, b.w, b.dpx, b.dpy, b.dqc, b.dqs, 0, 21, 240, true, 3, soft);
    contactPass(b.d, b.ends, b.points, b.rigidSide, b.vx, b.vy, b.w, b.dpx, b.dpy, b.dqc, b.dqs, 21, 50, 240, true, 3, soft);
    expect(bits(b.d, b.vx, b.vy, b.w)).toEqual(bits(a.d, a.vx, a.vy, a.w));
  });

  it('prepare rows from their text alone as the calling thread does, and in any split of the rows', () => {
    // Random manifolds in 30 store slots; a list of 40 contacts over them, bodies 0–19 (0 the
    // static stand-in); rows in a shuffled order of the list (the colouring's).
    const rows = 40;
    const views = () => {
      const r2 = mulberry32(9);
      const cslots = new Int32Array(rows);
      const cpairs = new Int32Array(rows * 2);
      for (let i = 0; i < rows; i++) {
        cslots[i] = Math.floor(r2() * 30);
        cpairs[2 * i] = r2() < 0.2 ? 0 : 1 + Math.floor(r2() * 19);
        cpairs[2 * i + 1] = cpairs[2 * i] === 0 ? 1 + Math.floor(r2() * 19) : Math.floor(r2() * 20);
      }
      const corder = Int32Array.from({ length: rows }, (_, k) => k);
      for (let k = rows - 1; k > 0; k--) {
        const j = Math.floor(r2() * (k + 1));
        [corder[k], corder[j]] = [corder[j]!, corder[k]!];
      }
      const body = (f: () => number) => Float64Array.from({ length: 20 }, (_, i) => (i === 0 ? 0 : f()));
      const g = mulberry32(13);
      const rand = () => g() * 2 - 1;
      return {
        d: new Float64Array(rows * CONTACT_LAYOUT.STRIDE), ends: new Int32Array(rows * 3), cslots, cpairs, corder, points: new Uint8Array(rows), rigidSide: new Uint8Array(rows),
        sradiusA: Float64Array.from({ length: 30 }, g), sradiusB: Float64Array.from({ length: 30 }, g),
        approach: new Float64Array(rows * 2), bounce: new Float64Array(rows), centre: Float64Array.from({ length: rows * 2 }, rand),
        snx: Float64Array.from({ length: 30 }, rand), sny: Float64Array.from({ length: 30 }, rand), sfriction: Float64Array.from({ length: 30 }, g), srestitution: Float64Array.from({ length: 30 }, g),
        stangentSpeed: Float64Array.from({ length: 30 }, rand), spointCount: Uint8Array.from({ length: 30 }, () => 1 + Math.floor(g() * 2)),
        spx: Float64Array.from({ length: 60 }, rand), spy: Float64Array.from({ length: 60 }, rand), sseparation: Float64Array.from({ length: 60 }, rand),
        snormalImpulse: Float64Array.from({ length: 60 }, g), stangentImpulse: Float64Array.from({ length: 60 }, rand),
        vx: body(rand), vy: body(rand), w: body(rand), invMass: body(() => (g() < 0.2 ? 0 : g())), invI: body(() => (g() < 0.2 ? 0 : g())), cx: body(rand), cy: body(rand),
      } as unknown as Parameters<typeof contactPrepare>[0];
    };
    const a = views();
    const b = views();
    const c = views();
    contactPrepare(a, 0, rows);
    fromText().prepare(b, 0, rows);
    contactPrepare(c, 0, 17);
    contactPrepare(c, 17, rows);
    for (const x of [b, c]) expect(bits(x.d, x.approach, x.bounce)).toEqual(bits(a.d, a.approach, a.bounce));
    expect(Array.from(a.points)).toEqual(Array.from(b.points));
    expect(a.d.some((x) => x !== 0)).toBe(true);
    // Row k is contact corder[k] of the list: its slot and bodies, and its slot's rounding radii.
    for (let k = 0; k < rows; k++) {
      const i = a.corder[k]!;
      expect([a.ends[3 * k], a.ends[3 * k + 1], a.ends[3 * k + 2]]).toEqual([a.cslots[i], a.cpairs[2 * i], a.cpairs[2 * i + 1]]);
      expect(a.d[k * CONTACT_LAYOUT.STRIDE + CONTACT_LAYOUT.RADIUS_A]).toBe(a.sradiusA[a.cslots[i]!]);
      expect(a.d[k * CONTACT_LAYOUT.STRIDE + CONTACT_LAYOUT.RADIUS_B]).toBe(a.sradiusB[a.cslots[i]!]);
      expect(Array.from(c.ends.subarray(3 * k, 3 * k + 3))).toEqual(Array.from(a.ends.subarray(3 * k, 3 * k + 3)));
    }
  });
});
