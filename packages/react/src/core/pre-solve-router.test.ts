/**
 * PreSolveRouter on its own: when it installs the space's one preSolve callback, and that it
 * leaves a space's own callback alone while nothing is registered.
 */
import { Space, type PreSolveCallback } from '@fulcrum/physics';
import { describe, expect, it } from 'vitest';
import { PreSolveRouter, type RuleOwner } from './pre-solve-router.js';

describe('PreSolveRouter', () => {
  it('installs its callback while a callback or a rule is registered, from attach to detach', () => {
    const router = new PreSolveRouter();
    const space = new Space();
    const off = router.add({ current: () => undefined });
    expect(space.preSolve).toBeNull(); // not attached yet
    const detach = router.attach(space);
    const installed = space.preSolve;
    expect(installed).toBeTypeOf('function');
    off();
    expect(space.preSolve).toBeNull();
    const owner: RuleOwner = { rule: null };
    router.setRule(owner, { oneWay: null, tangentSpeed: 1 }, false);
    expect(space.preSolve).toBe(installed);
    expect(router.size).toBe(1);
    router.release(owner);
    expect(space.preSolve).toBeNull();
    expect(router.size).toBe(0);
    router.setRule(owner, { oneWay: { x: 0, y: 1 }, tangentSpeed: 0 }, false);
    detach();
    expect(space.preSolve).toBeNull();
  });

  it('leaves a callback the space was given by hand alone while nothing is registered', () => {
    const router = new PreSolveRouter();
    const space = new Space();
    const own: PreSolveCallback = () => undefined;
    space.preSolve = own;
    const detach = router.attach(space);
    expect(space.preSolve).toBe(own);
    detach();
    expect(space.preSolve).toBe(own);
  });
});
