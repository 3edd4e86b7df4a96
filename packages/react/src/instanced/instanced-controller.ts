/**
 * InstancedController: the engine side of <InstancedBodies>. One engine Body per instance, all
 * drawn by one InstancedMesh whose matrices are written straight into its buffer every frame.
 *
 * Instances are matched by key across renders (an instance's `key`, or its index), so the
 * count can change freely: new keys get new bodies, missing keys are removed and retired, and
 * the others are updated in place. Shape children are templates: every instance gets its own
 * engine copy of each, and a template prop change updates all copies in place. Each body is
 * registered for events with its current index.
 */
import { Body } from '@fulcrum/physics';
import type { BodyOptions, Shape, Space } from '@fulcrum/physics';
import type { Ref } from 'react';
import type { InstancedMesh } from 'three';
import { applyBodyOptions, type BodyOptionValues, type ValidatedBody } from '../core/body-options.js';
import type { ShapeHost, ShapeRecord } from '../core/context.js';
import type { BodyEventHandlers } from '../core/event-router.js';
import type { PhysicsWorld, TransformTarget } from '../core/physics-world.js';
import { drawAtWorldPose, Pose } from '../core/pose.js';
import { RefSlot } from '../core/ref-slot.js';
import { isRetired, retire } from '../core/retire.js';

interface Entry {
  body: Body;
  applied: BodyOptionValues;
  readonly shapes: Map<ShapeRecord, Shape>;
  readonly pose: Pose;
}

/** One instance as validated during render. */
export interface ValidatedInstance {
  key: string | number;
  body: ValidatedBody;
}

const COMPONENT = '<InstancedBodies>';

export class InstancedController implements ShapeHost, TransformTarget {
  private entries = new Map<string | number, Entry>();
  private order: Entry[] = [];
  private readonly templates: ShapeRecord[] = [];
  private mesh: InstancedMesh | null = null;
  private undoWorldPose: (() => void) | null = null;
  private readonly refSlot = new RefSlot<readonly Body[]>();
  private targeted = false;

  constructor(
    private readonly world: PhysicsWorld,
    private readonly handlers: { readonly current: BodyEventHandlers },
  ) {}

  /** The bodies in instance order. */
  get bodies(): readonly Body[] {
    return this.order.map((e) => e.body);
  }

  /** The body of the instance at `index` (its slot in the mesh), or null. */
  bodyAt(index: number): Body | null {
    return this.order[index]?.body ?? null;
  }

  // ------------------------------------------------------------------ ShapeHost (templates)

  mountShape(rec: ShapeRecord): null {
    if (!this.templates.includes(rec)) {
      this.templates.push(rec);
      for (const e of this.order) this.addShape(e, rec);
    }
    return null;
  }

  updateShape(rec: ShapeRecord, prev: Readonly<Record<string, unknown>>): void {
    for (const e of this.order) {
      const s = e.shapes.get(rec);
      if (s) rec.apply(s, prev);
    }
  }

  unmountShape(rec: ShapeRecord): void {
    const i = this.templates.indexOf(rec);
    if (i < 0) return;
    this.templates.splice(i, 1);
    for (const e of this.order) {
      const s = e.shapes.get(rec);
      if (!s) continue;
      e.shapes.delete(rec);
      if (!isRetired(e.body) && s.body === e.body) e.body.removeShape(s);
      retire(s, `${s.constructor.name}#${s.id}`, `<${rec.component}>`);
    }
    this.world.requestFrame();
  }

  private addShape(e: Entry, rec: ShapeRecord): void {
    const s = rec.create();
    e.body.addShape(s);
    e.shapes.set(rec, s);
  }

  // ------------------------------------------------------------------ commit / release

  /** After every render: match instances by key, create, update and remove bodies. */
  commit(instances: readonly ValidatedInstance[], mesh: InstancedMesh | null, ref: Ref<readonly Body[] | null> | undefined): void {
    const world = this.world;
    const space = world.space;
    const next = new Map<string | number, Entry>();
    const order: Entry[] = [];
    let membership = false;
    let changed = false;
    for (let i = 0; i < instances.length; i++) {
      const inst = instances[i]!;
      let e = this.entries.get(inst.key);
      if (e === undefined) {
        const body = new Body(inst.body.options as BodyOptions);
        e = { body, applied: inst.body.options, shapes: new Map(), pose: new Pose() };
        for (const rec of this.templates) this.addShape(e, rec);
        space.addBody(body);
        e.pose.snap(body);
        membership = true;
      } else {
        const u = applyBodyOptions(e.body, e.applied, inst.body);
        e.applied = inst.body.options;
        if (u.moved) e.pose.snap(e.body);
        changed ||= u.changed;
      }
      if (this.order[i] !== e) e.pose.redraw(); // its slot in the mesh changed
      world.events.setBody(e.body, this.handlers, i);
      next.set(inst.key, e);
      order.push(e);
    }
    for (const [key, e] of this.entries) {
      if (next.get(key) === e) continue;
      this.drop(e);
      membership = true;
    }
    this.entries = next;
    this.order = order;
    if (mesh !== this.mesh) {
      // Instance matrices are world poses: the mesh cancels whatever groups it is inside.
      this.undoWorldPose?.();
      this.undoWorldPose = mesh === null ? null : drawAtWorldPose(mesh);
      this.mesh = mesh;
      for (const e of order) e.pose.redraw();
    }
    if (mesh !== null && !this.targeted) {
      world.addTarget(this);
      this.targeted = true;
    }
    if (mesh !== null) mesh.count = order.length;
    this.write(1);
    this.refSlot.set(ref, Object.freeze(order.map((e) => e.body)));
    if (membership) world.bodiesChanged();
    if (membership || changed) world.requestFrame();
  }

  /** Unmount: remove and retire every instance body. */
  release(): void {
    this.refSlot.clear();
    if (this.targeted) {
      this.world.removeTarget(this);
      this.targeted = false;
    }
    const had = this.order.length > 0;
    for (const e of this.order) this.drop(e);
    this.entries = new Map();
    this.order = [];
    this.undoWorldPose?.();
    this.undoWorldPose = null;
    this.mesh = null;
    if (had) {
      this.world.bodiesChanged();
      this.world.requestFrame();
    }
  }

  private drop(e: Entry): void {
    this.world.events.deleteBody(e.body);
    (e.body.space as Space | null)?.removeBody(e.body);
    for (const [rec, s] of e.shapes) retire(s, `${s.constructor.name}#${s.id}`, `<${rec.component}>`);
    retire(e.body, `Body#${e.body.id}`, COMPONENT);
  }

  // ------------------------------------------------------------------ TransformTarget

  snapshot(): void {
    const order = this.order;
    for (let i = 0; i < order.length; i++) order[i]!.pose.snapshot(order[i]!.body);
  }

  write(alpha: number): void {
    const mesh = this.mesh;
    if (mesh === null) return;
    const m = mesh.instanceMatrix.array as Float32Array;
    const order = this.order;
    const n = Math.min(order.length, m.length >> 4);
    let dirty = false;
    for (let i = 0; i < n; i++) {
      const e = order[i]!;
      const p = e.pose;
      if (!p.compute(e.body, alpha)) continue;
      const c = Math.cos(p.angle);
      const s = Math.sin(p.angle);
      const o = i << 4;
      // Column-major rotation about z plus translation, scale 1.
      m[o] = c;
      m[o + 1] = s;
      m[o + 2] = 0;
      m[o + 3] = 0;
      m[o + 4] = -s;
      m[o + 5] = c;
      m[o + 6] = 0;
      m[o + 7] = 0;
      m[o + 8] = 0;
      m[o + 9] = 0;
      m[o + 10] = 1;
      m[o + 11] = 0;
      m[o + 12] = p.x;
      m[o + 13] = p.y;
      m[o + 14] = 0;
      m[o + 15] = 1;
      dirty = true;
    }
    if (dirty) mesh.instanceMatrix.needsUpdate = true;
  }
}
