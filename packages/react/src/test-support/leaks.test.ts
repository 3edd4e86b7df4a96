/**
 * The leak helpers read the engine's event hub: every event type it can hold counts, whether or
 * not anything still listens.
 */
import { Space } from '@fulcrum/physics';
import { describe, expect, it } from 'vitest';
import { spaceListenerCount, spaceListeners } from './leaks.js';

describe('spaceListeners', () => {
  it('counts every engine event type, contactForce included, before, during and after a subscription', () => {
    const space = new Space();
    const none = { beginContact: 0, endContact: 0, sleep: 0, wake: 0, constraintBreak: 0, contactForce: 0 };
    expect(spaceListeners(space)).toEqual(none);
    const offs = [space.on('contactForce', () => {}), space.on('contactForce', () => {}), space.on('wake', () => {})];
    expect(spaceListeners(space)).toEqual({ ...none, contactForce: 2, wake: 1 });
    expect(spaceListenerCount(space)).toBe(3);
    // The hub keeps an empty list for a type that had listeners.
    for (const off of offs) off();
    expect(spaceListeners(space)).toEqual(none);
    expect(spaceListenerCount(space)).toBe(0);
  });
});
