/**
 * SolverBodies.rotate composes small turns from series instead of calling cos/sin: the composed
 * rotation must stay as accurate as the trigonometry, on both sides of the series' threshold.
 */
import { describe, expect, it } from 'vitest';
import { SolverBodies } from './solver-bodies.js';

describe('SolverBodies.rotate', () => {
  it('keeps (dqc, dqs) = (cos dq, sin dq) to round-off, for turns below, at and above the series threshold', () => {
    const sb = new SolverBodies();
    const turns = [1e-9, -3e-4, 0.0099, 0.01, -0.05, 0.1, 0.1249, -0.1249, 0.125, 0.2, -1.3, 3];
    for (const da of turns) {
      for (const start of [0, 0.7, -2.9]) {
        sb.dq[1] = start;
        sb.dqc[1] = Math.cos(start);
        sb.dqs[1] = Math.sin(start);
        // Ten turns, as a step's substeps and position passes make.
        for (let k = 0; k < 10; k++) sb.rotate(1, da);
        const a = start + 10 * da;
        expect(Math.abs(sb.dq[1]! - a)).toBeLessThan(1e-14);
        const errCos = Math.abs(sb.dqc[1]! - Math.cos(sb.dq[1]!));
        const errSin = Math.abs(sb.dqs[1]! - Math.sin(sb.dq[1]!));
        if (errCos > 5e-15 || errSin > 5e-15) expect.fail(`turn ${da} from ${start}: cos off by ${errCos}, sin by ${errSin}`);
      }
    }
  });
});
