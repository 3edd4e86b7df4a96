/**
 * BodyController: the engine side of one <Body>.
 *
 * The engine Body is created on demand: its shape children mount first (React runs child
 * effects before the parent's) and need a body to attach to. The <Body>'s own effect then
 * applies prop changes, adds the body to the space, registers its events and its three.js
 * group, and hands it to the ref. On unmount the body is removed from the space and retired;
 * a StrictMode remount builds a fresh one, so exactly one engine Body exists per mounted <Body>.
 */
import { Body } from '@fulcrum/physics';
import type { BodyOptions, Shape, Space } from '@fulcrum/physics';
import type { Object3D } from 'three';
import type { Ref } from 'react';
import { applyBodyOptions, type BodyOptionValues, type ValidatedBody } from './body-options.js';
import type { ShapeHost, ShapeRecord } from './context.js';
import type { BodyEventHandlers } from './event-router.js';
import type { PhysicsWorld, TransformTarget } from './physics-world.js';
import { Pose } from './pose.js';
import { RefSlot } from './ref-slot.js';
import { isRetired, retire } from './retire.js';

export class BodyController implements ShapeHost, TransformTarget {
  body: Body | null = null;
  /** The three.js object that follows the body (inside a <Canvas>). */
  object: Object3D | null = null;
  private readonly shapes = new Map<ShapeRecord, Shape>();
  private latest: ValidatedBody | null = null;
  private applied: BodyOptionValues = {};
  private readonly pose = new Pose();
  private readonly refSlot = new RefSlot<Body>();
  private targeted = false;

  constructor(
    private readonly world: PhysicsWorld,
    readonly component: string,
    private readonly handlers: { readonly current: BodyEventHandlers },
  ) {}

  /** The latest validated props (set during render, read when the body is created). */
  setProps(v: ValidatedBody): void {
    this.latest = v;
  }

  /** The engine body, created from the latest props if there is none yet. */
  acquire(): Body {
    if (this.body === null) {
      this.body = new Body(this.latest!.options as BodyOptions);
      this.applied = this.latest!.options;
    }
    return this.body;
  }

  // ------------------------------------------------------------------ ShapeHost

  mountShape(rec: ShapeRecord): Shape {
    const body = this.acquire();
    let shape = this.shapes.get(rec);
    if (shape === undefined) {
      shape = rec.create();
      body.addShape(shape);
      this.shapes.set(rec, shape);
    }
    return shape;
  }

  updateShape(rec: ShapeRecord, prev: Readonly<Record<string, unknown>>): void {
    const shape = this.shapes.get(rec);
    if (shape) rec.apply(shape, prev);
  }

  unmountShape(rec: ShapeRecord): void {
    const shape = this.shapes.get(rec);
    if (shape === undefined) return;
    this.shapes.delete(rec);
    const body = this.body;
    if (body && !isRetired(body) && shape.body === body) body.removeShape(shape);
    retire(shape, `${shape.constructor.name}#${shape.id}`, `<${rec.component}>`);
    this.world.requestFrame();
  }

  // ------------------------------------------------------------------ commit / release

  /** After every render: apply props, join the space, register, hand out the ref. */
  commit(object: Object3D | null, ref: Ref<Body | null> | undefined): void {
    const world = this.world;
    const space = world.space;
    const isNew = this.body === null;
    const body = this.acquire();
    let changed = isNew;
    if (!isNew) {
      const u = applyBodyOptions(body, this.applied, this.latest!);
      this.applied = this.latest!.options;
      changed = u.changed;
      if (u.moved) this.pose.snap(body);
    }
    let added = false;
    if (body.space !== space) {
      (body.space as Space | null)?.removeBody(body);
      space.addBody(body);
      added = true;
    }
    world.events.setBody(body, this.handlers);
    if (object !== this.object || added) {
      this.object = object;
      this.pose.snap(body);
    }
    if (this.object !== null && !this.targeted) {
      world.addTarget(this);
      this.targeted = true;
    }
    if (changed || added) this.write(1);
    this.refSlot.set(ref, body);
    if (added) world.bodiesChanged();
    if (changed || added) world.requestFrame();
  }

  /** Unmount: leave the space, retire the body and its shapes, clear the ref. */
  release(): void {
    const body = this.body;
    this.refSlot.clear();
    if (this.targeted) {
      this.world.removeTarget(this);
      this.targeted = false;
    }
    if (body === null) return;
    this.body = null;
    this.world.events.deleteBody(body);
    const space = body.space as Space | null;
    if (space) space.removeBody(body);
    for (const [rec, shape] of this.shapes) retire(shape, `${shape.constructor.name}#${shape.id}`, `<${rec.component}>`);
    this.shapes.clear();
    retire(body, `Body#${body.id}`, `<${this.component}>`);
    this.world.bodiesChanged();
    this.world.requestFrame();
  }

  // ------------------------------------------------------------------ TransformTarget

  snapshot(): void {
    if (this.body) this.pose.snapshot(this.body);
  }

  write(alpha: number): void {
    const o = this.object;
    const b = this.body;
    if (o === null || b === null || !this.pose.compute(b, alpha)) return;
    o.position.x = this.pose.x;
    o.position.y = this.pose.y;
    o.rotation.z = this.pose.angle;
  }
}
