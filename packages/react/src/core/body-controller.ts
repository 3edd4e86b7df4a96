/**
 * BodyController: the engine side of one <Body>.
 *
 * The engine Body is created on demand: its shape children mount first (React runs child
 * effects before the parent's) and need a body to attach to. The <Body>'s own effect then
 * applies prop changes, adds the body to the space, registers its events and its three.js
 * group, and hands it to the ref. On unmount the body is removed from the space and retired;
 * a StrictMode remount builds a fresh one, so exactly one engine Body exists per mounted <Body>.
 *
 * A kinematic target is steered to before every step (see `steer`), and the three.js group is
 * drawn at the body's world pose whatever groups it is inside (drawAtWorldPose).
 *
 * Only committed props reach the engine: the validated props <Body> hands over during render are
 * checked against its committed props before they are applied or built from (see `settle`).
 */
import { Body } from '@fulcrum/physics';
import type { BodyOptions, Shape, Space } from '@fulcrum/physics';
import type { Object3D } from 'three';
import type { Ref } from 'react';
import {
  applyBodyOptions,
  BODY_OPTION_KEYS,
  validateBodyOptions,
  validateTarget,
  type BodyOptionProps,
  type BodyOptionValues,
  type BodyTarget,
  type KinematicTargetProps,
  type ValidatedBody,
} from './body-options.js';
import type { ShapeHost, ShapeRecord } from './context.js';
import type { BodyEventHandlers } from './event-router.js';
import type { PhysicsWorld, TransformTarget } from './physics-world.js';
import { drawAtWorldPose, Pose } from './pose.js';
import { pick, sameValue } from './props.js';
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
  private undoWorldPose: (() => void) | null = null;
  /** The target from the latest props, and the one committed (which the steering follows). */
  private latestTarget: BodyTarget | null = null;
  private target: BodyTarget | null = null;
  /** The target changed and the body has not been steered to it in a step yet. */
  private steerPending = false;
  /** Steering gave the body a velocity, to be taken back once it has arrived. */
  private steered = false;
  private unsteer: (() => void) | null = null;
  private readonly steering = { current: (_space: Space, dt: number): void => this.steer(dt) };

  /**
   * `handlers` holds <Body>'s committed props, whole (it assigns them in an insertion effect,
   * useCommitted): the event handlers routed to the body, and the body props `settle` checks.
   */
  constructor(
    private readonly world: PhysicsWorld,
    readonly component: string,
    private readonly handlers: { readonly current: BodyEventHandlers & BodyOptionProps & KinematicTargetProps },
  ) {}

  /** The validated props of the latest render (set during render; see `settle`). */
  setProps(v: ValidatedBody, target: BodyTarget | null = null): void {
    this.latest = v;
    this.latestTarget = target;
  }

  /**
   * Make `latest` the committed props before the engine sees them. `setProps` runs during render,
   * so a render React discards (a transition abandoned because a sibling suspended) leaves its
   * props there, and the <Body> need not render again before its effects next run: a Suspense
   * boundary that hid it and shows it again rebuilds the body from `latest` without rendering
   * it. So `latest` is compared with the committed props, and when it is not theirs they are
   * validated again (they passed when they were rendered, so this does not throw). A committed
   * render set `latest` itself: the comparison, a pick of the props, is all it costs.
   */
  private settle(): void {
    const props = this.handlers.current;
    if (sameValue(this.latest!.options, pick(props as BodyOptionValues, BODY_OPTION_KEYS)) && sameTarget(this.latestTarget, props)) return;
    this.latest = validateBodyOptions(this.component, props);
    this.latestTarget = validateTarget(this.component, props, this.latest.trial.type);
  }

  /**
   * The engine body, created from the latest props if there is none yet. A kinematic body with
   * a target and no `position` (or `rotation`) starts at its target, rather than sweeping there
   * from the origin in its first step.
   */
  acquire(): Body {
    if (this.body === null) {
      this.settle();
      const o = this.latest!.options;
      const t = this.latestTarget;
      const start = t === null ? o : { ...o, position: o.position ?? (t.x !== undefined ? [t.x, t.y] : undefined), rotation: o.rotation ?? t.rotation };
      this.body = new Body(start as BodyOptions);
      this.applied = o;
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
    if (!isNew) this.settle(); // (acquire settles before it builds a body)
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
    if (this.commitTarget(body)) changed = true;
    if (object !== this.object || added) {
      if (object !== this.object) {
        this.undoWorldPose?.();
        this.undoWorldPose = object === null ? null : drawAtWorldPose(object);
      }
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
    this.undoWorldPose?.();
    this.undoWorldPose = null;
    this.object = null;
    this.unsteer?.();
    this.unsteer = null;
    this.target = null;
    this.steerPending = this.steered = false;
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

  // ------------------------------------------------------------------ kinematic target

  /**
   * Take the latest target (from commit). A changed target is steered to before the next step;
   * until then the body already has the velocity that gets it there in a step of the fixed time
   * step (corrected to the real dt before the step), so it wakes what it touches now, as any
   * prop change does, and demand mode sees it moving. True when anything changed.
   */
  private commitTarget(body: Body): boolean {
    const t = this.latestTarget;
    const prev = this.target;
    if (t === prev || (t !== null && prev !== null && t.x === prev.x && t.y === prev.y && t.rotation === prev.rotation)) return false;
    this.target = t;
    if (t === null) {
      this.unsteer?.();
      this.unsteer = null;
      this.steerPending = false;
      // Dropped mid-move: the body stays where it is (unless it is no longer kinematic: a new type
      // was applied first, and a static body takes no velocity).
      if (this.steered && body.isKinematic) this.stop(body);
      this.steered = false;
      return true;
    }
    this.unsteer ??= this.world.addStepCallback('before', this.steering);
    // Already there (a body created at its target): nothing to steer.
    this.steerPending = (t.x !== undefined && (t.x !== body.x || t.y !== body.y)) || (t.rotation !== undefined && t.rotation !== body.rotation);
    if (this.steerPending) {
      const ts = this.world.options.timeStep;
      this.steerTowards(body, t, ts === 'vary' ? 1 / 60 : ts);
    }
    return true;
  }

  /**
   * Before every step: a changed target gets the velocity that reaches it by the end of the frame
   * (in this step when it is the frame's last, as it usually is; Nape's setVelocityFromTarget: the
   * body arrives exactly, and carries what rests on it); in the step after it arrived, the target
   * unchanged, the velocity goes back to 0, so the body stays where it arrived.
   */
  private steer(dt: number): void {
    const body = this.body;
    const t = this.target;
    if (body === null || t === null) return;
    if (this.steerPending) {
      // Spread over the steps left in the frame: the render that set the target comes once per
      // frame, so the target is where the body should be when the frame is drawn. Recomputed each
      // step from where the body is, which gives the same velocity on every one of them.
      const left = this.world.stepsLeftInFrame;
      this.steerTowards(body, t, dt * left);
      if (left <= 1) this.steerPending = false;
    } else if (this.steered) {
      this.stop(body);
    }
  }

  private steerTowards(body: Body, t: BodyTarget, dt: number): void {
    body.setVelocityFromTarget(t.x === undefined ? [body.x, body.y] : [t.x, t.y!], t.rotation ?? body.rotation, dt);
    this.steered = true;
  }

  private stop(body: Body): void {
    this.steered = false;
    body.velocity = [0, 0];
    body.angularVel = 0;
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

/** Whether a validated target is the one the target props give. */
function sameTarget(t: BodyTarget | null, props: KinematicTargetProps): boolean {
  const { target, targetRotation } = props;
  if (target === undefined && targetRotation === undefined) return t === null;
  if (t === null || !Object.is(t.rotation, targetRotation)) return false;
  if (target === undefined) return t.x === undefined && t.y === undefined;
  const [x, y] = Array.isArray(target) ? target : [(target as { x: number }).x, (target as { y: number }).y];
  return Object.is(t.x, x) && Object.is(t.y, y);
}
