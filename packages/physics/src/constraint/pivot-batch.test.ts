/**
 * The typed-array PivotBatch must produce the same motion as the generic Joint path it
 * replaces (which the property tests verify against finite differences), stiff and soft.
 */
import { describe, expect, it } from 'vitest';
import { Body } from '../body/body.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from '../space/space.js';
import { PivotJoint } from './joints/pivot-joint.js';

function run(batched: boolean, stiff: boolean): number[] {
  const space = new Space({ gravity: [0, -10] });
  space._batchPivots = batched;
  const ground = space.addBody(new Body({ type: 'static' }));
  let prev = ground;
  const links: Body[] = [];
  for (let i = 0; i < 8; i++) {
    const link = space.addBody(new Body({ position: [i * 0.5 + 0.25, 0], rotation: 0.1 * i, shapes: [Polygon.box(0.5, 0.1, { offset: [0.02, 0] })] }));
    space.addConstraint(new PivotJoint({ body1: prev, body2: link, anchor1: i === 0 ? [0, 0] : [0.25, 0], anchor2: [-0.25, 0], stiff, frequency: 5, damping: 0.3, ignore: true }));
    links.push(link);
    prev = link;
  }
  for (let i = 0; i < 30; i++) space.step(1 / 60);
  return links.flatMap((b) => [b.x, b.y, b.rotation, b.angularVel]);
}

describe('PivotBatch', () => {
  for (const stiff of [true, false]) {
    it(`matches the generic joint path (${stiff ? 'stiff' : 'soft'})`, () => {
      const a = run(true, stiff);
      const b = run(false, stiff);
      let worst = 0;
      for (let i = 0; i < a.length; i++) worst = Math.max(worst, Math.abs(a[i]! - b[i]!));
      expect(worst).toBeLessThan(1e-9);
      expect(Math.abs(a[a.length - 3]!)).toBeGreaterThan(0.01); // it really swung
    });
  }

  it('reports the same impulses as the generic path', () => {
    const read = (batched: boolean): number[] => {
      const space = new Space({ gravity: [0, -10] });
      space._batchPivots = batched;
      const pin = space.addBody(new Body({ type: 'static' }));
      const b = space.addBody(new Body({ position: [0.5, -1], shapes: [Polygon.box(0.3, 0.3)] }));
      const j = space.addConstraint(new PivotJoint({ body1: pin, body2: b, anchor2: [-0.5, 1] }));
      for (let i = 0; i < 10; i++) space.step(1 / 60);
      const bi = j.bodyImpulse(b);
      return [...j.impulse(), bi.x, bi.y, bi.z];
    };
    const a = read(true);
    const b = read(false);
    for (let i = 0; i < a.length; i++) expect(a[i]).toBeCloseTo(b[i]!, 10);
  });
});
