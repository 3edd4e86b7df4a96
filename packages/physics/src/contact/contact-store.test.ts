import { describe, expect, it } from 'vitest';
import { Manifold } from '../collision/manifold.js';
import { Body } from '../body/body.js';
import { Circle } from '../shape/circle.js';
import { Polygon } from '../shape/polygon.js';
import { Space } from '../space/space.js';
import { groundBody, stepFor } from '../test-support/scenes.js';
import { roundingRadius, type Contact } from './contact.js';
import { ContactStore, SENSOR, TOUCHING } from './contact-store.js';

function manifold(points: [x: number, y: number, separation: number, id: number][], nx = 0, ny = 1): Manifold {
  const m = new Manifold();
  m.nx = nx;
  m.ny = ny;
  m.pointCount = points.length;
  points.forEach(([x, y, s, id], j) => {
    m.px[j] = x;
    m.py[j] = y;
    m.separation[j] = s;
    m.id[j] = id;
  });
  return m;
}

describe('ContactStore', () => {
  it('appends cleared slots with their material and sensor flag, and grows keeping the data', () => {
    const st = new ContactStore();
    for (let k = 0; k < 300; k++) {
      expect(st.add(k / 10, k / 1000, k % 3 === 0, k, k + 1, k / 100, 0.01)).toBe(k);
      st.update(k, manifold([[k, -k, -0.01, 7]]));
      st.normalImpulse[2 * k] = k + 0.5;
    }
    expect(st.count).toBe(300);
    for (const k of [0, 63, 64, 65, 200, 299]) {
      expect(st.friction[k]).toBe(k / 10);
      expect(st.restitution[k]).toBe(k / 1000);
      expect(st.flags[k]).toBe(k % 3 === 0 ? SENSOR : 0);
      expect([st.bodyA[k], st.bodyB[k], st.radiusA[k], st.radiusB[k]]).toEqual([k, k + 1, k / 100, 0.01]);
      expect(st.pointCount[k]).toBe(1);
      expect([st.px[2 * k], st.py[2 * k], st.id[2 * k]]).toEqual([k, -k, 7]);
      expect(st.normalImpulse[2 * k]).toBe(k + 0.5);
    }
  });

  it('update carries impulses to the new point with the same feature id, and zeroes the others', () => {
    const st = new ContactStore();
    const k = st.add(0.5, 0, false, 0, 0, 0, 0);
    st.update(k, manifold([[0, 0, -0.01, 0x0102], [1, 0, -0.02, 0x0201]]));
    expect([st.normalImpulse[0], st.normalImpulse[1]]).toEqual([0, 0]);
    st.normalImpulse.set([3, 4], 0);
    st.tangentImpulse.set([-1, -2], 0);
    // The points swap order and one feature changes.
    st.update(k, manifold([[1, 0, -0.02, 0x0201], [0, 0, -0.01, 0x0303]], 0.6, 0.8));
    expect([st.normalImpulse[0], st.normalImpulse[1]]).toEqual([4, 0]);
    expect([st.tangentImpulse[0], st.tangentImpulse[1]]).toEqual([-2, 0]);
    expect([st.nx[k], st.ny[k], st.pointCount[k]]).toEqual([0.6, 0.8, 2]);
    // No points: nothing is carried, even to an id that was there two updates ago.
    st.update(k, manifold([]));
    st.update(k, manifold([[1, 0, -0.02, 0x0201]]));
    expect(st.normalImpulse[0]).toBe(0);
  });

  it('moveSlot and truncate remove a slot; the next add reuses it cleared', () => {
    const st = new ContactStore();
    for (let k = 0; k < 3; k++) {
      st.add(k, 0, false, 10 + k, 20 + k, k / 10, 0);
      st.update(k, manifold([[k, k, -0.01, k], [k, k + 1, -0.02, k + 10]]));
      st.normalImpulse[2 * k + 1] = 100 + k;
      st.flags[k] |= TOUCHING;
    }
    // Remove slot 0 as the space does: the last slot moves in.
    st.moveSlot(2, 0);
    st.truncate(2);
    expect(st.count).toBe(2);
    const out = st.readManifold(0, new Manifold());
    expect([out.pointCount, out.px[0], out.py[1], out.id[1]]).toEqual([2, 2, 3, 12]);
    expect([st.friction[0], st.normalImpulse[1], st.flags[0]]).toEqual([2, 102, TOUCHING]);
    expect([st.bodyA[0], st.bodyB[0], st.radiusA[0]]).toEqual([12, 22, 0.2]);
    expect(st.add(9, 0, true, 1, 2, 0, 0)).toBe(2);
    expect([st.pointCount[2], st.flags[2], st.normalImpulse[4], st.normalImpulse[5], st.friction[2]]).toEqual([0, SENSOR, 0, 0, 9]);
  });
});

describe('contacts in the space', () => {
  const internals = (space: Space): { contacts: Contact[]; store: ContactStore } => {
    const m = (space as unknown as { _contacts: { contacts: Contact[]; store: ContactStore } })._contacts;
    return { contacts: m.contacts, store: m.store };
  };
  const store = (space: Space): ContactStore => internals(space).store;
  /** Every contact sits at its own index, and the store has one slot per contact. */
  const consistent = (space: Space): void => {
    const { contacts, store } = internals(space);
    expect(store.count).toBe(contacts.length);
    contacts.forEach((c, i) => expect(c.index).toBe(i));
    // The store's copies of what the contact solver reads of the objects.
    contacts.forEach((c, i) => expect([store.bodyA[i], store.bodyB[i], store.radiusA[i], store.radiusB[i]]).toEqual([c.bodyA._slot, c.bodyB._slot, roundingRadius(c.shapeA), roundingRadius(c.shapeB)]));
  };

  it("keep the shapes' proxies, kernels and geometry offsets, from when workers start and after a block moves", async () => {
    // Contacts made before the workers start: their shapes join the pool then.
    const space = new Space({ gravity: [0, -10], allowSleep: false });
    space.addBody(groundBody());
    const boxes = [-2, -1, 0, 1, 2].map((x) => space.addBody(new Body({ position: [x, 0.6], shapes: [Polygon.box(0.9, 0.9)] })));
    const ball = space.addBody(new Body({ position: [4, 0.6], shapes: [new Circle({ radius: 0.5 })] }));
    stepFor(space, 0.25);
    const copies = (): void => {
      const { contacts, store } = internals(space);
      expect(contacts.length).toBeGreaterThan(5);
      contacts.forEach((c, i) => {
        const geo = (s: typeof c.shapeA) => (s._geoPool !== null ? s._geoAt : -1);
        expect([store.proxyA[i], store.proxyB[i], store.kernel[i], store.geoA[i], store.geoB[i]]).toEqual([c.shapeA.proxyId, c.shapeB.proxyId, c._kernelPair, geo(c.shapeA), geo(c.shapeB)]);
      });
    };
    copies();
    space.workers = 1;
    await space.workersReady;
    copies();
    expect(internals(space).contacts.every((c) => c.shapeA._geoPool !== null && store(space).geoA[c.index]! >= 0)).toBe(true);
    // A vertex count change moves the shape's block in the pool.
    (boxes[2]!.shapes[0] as Polygon).vertices = [[-0.45, -0.45], [0.45, -0.45], [0.5, 0.2], [0, 0.5], [-0.5, 0.2]];
    copies();
    stepFor(space, 0.25);
    copies();
    void ball;
    space.dispose();
  });

  it('name the bodies by their slots (reused after a removal) and follow a shape radius that changes', () => {
    const space = new Space({ gravity: [0, -10] });
    const ground = space.addBody(groundBody());
    const rounded = Polygon.box(1, 1, { radius: 0.05 });
    const box = space.addBody(new Body({ position: [0, 0.6], shapes: [rounded] }));
    const ball = space.addBody(new Body({ position: [2, 0.6], shapes: [new Circle({ radius: 0.5 })] }));
    expect([ground._slot, box._slot, ball._slot]).toEqual([0, 1, 2]);
    stepFor(space, 0.25);
    consistent(space);
    rounded.radius = 0.1;
    consistent(space);
    stepFor(space, 0.25);
    space.removeBody(box);
    expect(box._slot).toBe(-1);
    const again = space.addBody(new Body({ position: [0, 0.6], shapes: [new Circle({ radius: 0.25 })] }));
    expect(again._slot).toBe(1);
    stepFor(space, 0.25);
    consistent(space);
    expect(internals(space).contacts.some((c) => c.bodyA === again || c.bodyB === again)).toBe(true);
  });

  it('keep list and store aligned as contacts come and go, and expose manifold and impulses', () => {
    const space = new Space({ gravity: [0, -10] });
    space.addBody(groundBody());
    const balls = [-3, -1, 1, 3].map((x) => space.addBody(new Body({ position: [x, 0.6], shapes: [new Circle({ radius: 0.5 })] })));
    const box = space.addBody(new Body({ position: [6, 0.6], shapes: [Polygon.box(1, 1)] }));
    stepFor(space, 0.5);
    consistent(space);
    const boxContact = internals(space).contacts.find((c) => c.bodyA === box || c.bodyB === box)!;
    expect(boxContact.touching).toBe(true);
    const m = boxContact.manifold;
    expect(m.pointCount).toBe(2);
    // The box rests: the ground carries its weight, split over its two points. The impulses
    // are a substep's (stepFor takes 1/60 s steps of 4 substeps).
    const weight = (box.mass * 10 * (1 / 60)) / 4;
    expect(boxContact.substepNormalImpulse(0) + boxContact.substepNormalImpulse(1)).toBeCloseTo(weight, 2);
    expect(boxContact.substepNormalImpulse(2)).toBe(0);
    // Throw two balls away: their contacts are destroyed mid-list (compaction), another
    // removed outright (swap removal).
    balls[0]!.velocity = [0, 30];
    balls[2]!.velocity = [0, 30];
    stepFor(space, 0.5);
    consistent(space);
    space.removeBody(balls[3]!);
    consistent(space);
    expect(boxContact.touching).toBe(true);
    expect(boxContact.substepNormalImpulse(0) + boxContact.substepNormalImpulse(1)).toBeCloseTo(weight, 2);
    space.removeBody(box);
    expect(boxContact.index).toBe(-1);
    expect(boxContact.touching).toBe(false);
    expect(boxContact.manifold.pointCount).toBe(0);
    consistent(space);
  });

  it('a contact moved to another slot keeps its manifold and warm start (the box never notices)', () => {
    // Two identical spaces; in one, balls whose contacts come before the box's are thrown away,
    // so the box's contact is moved down the list. The box touches only the ground, so its
    // motion must stay bit for bit the same as in the space where nothing left.
    const make = (): { space: Space; balls: Body[]; box: Body } => {
      const space = new Space({ gravity: [0, -10], allowSleep: false });
      space.addBody(groundBody());
      const balls = [-3, -1, 1].map((x) => space.addBody(new Body({ position: [x, 0.6], shapes: [new Circle({ radius: 0.5 })] })));
      const box = space.addBody(new Body({ position: [6, 0.7], rotation: 0.05, shapes: [Polygon.box(1, 1)] }));
      return { space, balls, box };
    };
    const a = make();
    const b = make();
    stepFor(a.space, 0.25);
    stepFor(b.space, 0.25);
    a.balls[0]!.velocity = [0, 30];
    a.balls[1]!.velocity = [0, 30];
    const before = internals(a.space).contacts.length;
    for (let i = 0; i < 30; i++) {
      a.space.step(1 / 60);
      b.space.step(1 / 60);
      expect([a.box.x, a.box.y, a.box.rotation]).toEqual([b.box.x, b.box.y, b.box.rotation]);
    }
    expect(internals(a.space).contacts.length).toBe(before - 2);
    consistent(a.space);
  });
});
