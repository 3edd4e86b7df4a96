import { Body, Circle, Space } from '@fulcrum/physics';
import { describe, expect, it } from 'vitest';
import { anyAwake } from './awake.js';

describe('anyAwake', () => {
  it('is true for an awake dynamic body or a moving kinematic one, false for static bodies and sleepers', () => {
    const space = new Space({ gravity: [0, -10] });
    expect(anyAwake(space)).toBe(false);
    space.addBody(new Body({ type: 'static', shapes: [new Circle({ radius: 1 })] }));
    expect(anyAwake(space)).toBe(false);
    const k = space.addBody(new Body({ type: 'kinematic' }));
    expect(anyAwake(space)).toBe(false);
    k.angularVel = 1;
    expect(anyAwake(space)).toBe(true);
    k.angularVel = 0;
    k.velocity = [0, 1];
    expect(anyAwake(space)).toBe(true);
    space.removeBody(k);
    const d = space.addBody(new Body({ position: [5, 0], shapes: [new Circle({ radius: 1 })] }));
    expect(anyAwake(space)).toBe(true);
    d.type = 'static';
    expect(anyAwake(space)).toBe(false);
  });
});
