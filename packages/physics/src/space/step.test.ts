/**
 * The step's stage list is written three times on purpose: in step.ts's header, in run()'s calls,
 * and in packages/physics/README.md. This test keeps the three the same, so a newcomer can find
 * where a stage happens from either list.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const stepSource = readFileSync(new URL('./step.ts', import.meta.url), 'utf8');
const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');

/** Which call in run() performs each stage. */
const CALLS: Record<string, string> = {
  begin: 'this.begin(',
  broadphase: 'w.contacts.updatePairs(',
  narrowphase: 'w.contacts.collideBegin(',
  gather: 'this.gather(',
  prepare: 'this.prepare(',
  substeps: 'this.substep(',
  restitution: 'this.contactSolver.applyRestitution(',
  positions: 'this.positionPass(',
  check: 'this.check(',
  finish: 'this.finish(',
  store: 'this.store(',
  'write back': 'this.writeBack(',
  contacts: 'this.finishContacts(',
  breaks: 'this.applyBreaks(',
  sleep: 'this.sleep(',
};

function headerStages(): string[] {
  const header = stepSource.slice(0, stepSource.indexOf('*/'));
  return [...header.matchAll(/^ \*\s+(\d+)\. ([a-z]+(?: back)?)\s/gm)].map((m) => m[2]!);
}

function readmeStages(): string[] {
  const section = readme.slice(readme.indexOf('### The step (`space/step.ts`)'), readme.indexOf('### Solver families'));
  return [...section.matchAll(/^\d+\. \*\*([a-z ]+)\*\*/gm)].map((m) => m[1]!);
}

describe('the step stage list', () => {
  it('is the same in step.ts, in run() and in the README', () => {
    const header = headerStages();
    expect(header).toEqual(Object.keys(CALLS));
    expect(readmeStages()).toEqual(header);
    const run = stepSource.slice(stepSource.indexOf('  run('), stepSource.indexOf('\n  }\n', stepSource.indexOf('  run(')));
    const positions = header.map((stage) => run.indexOf(CALLS[stage]!));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
  });
});
