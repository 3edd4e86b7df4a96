/**
 * Space events. Events raised during a step are queued and delivered after the step ends,
 * so handlers may freely add/remove bodies and change properties. Events raised outside a
 * step (a setter waking an island) are delivered at once.
 */
import type { Body } from '../body/body.js';
import type { Constraint } from '../constraint/constraint.js';
import type { Contact, ContactPoint } from '../contact/contact.js';
import type { Vec2 } from '../math/vec2.js';
import type { Shape } from '../shape/shape.js';

export interface ContactEvent {
  type: 'beginContact' | 'endContact';
  shapeA: Shape;
  shapeB: Shape;
  bodyA: Body;
  bodyB: Body;
  /** The contact's handle (live: it reads the contact as it is when read). */
  contact: Contact;
  /** beginContact: the unit normal from shapeA to shapeB at first touch; endContact: {0, 0}. */
  normal: Vec2;
  /**
   * beginContact: the points at first touch, each with the impulses it applied in that step (the
   * impact; 0 for a sensor); endContact: none.
   */
  points: ContactPoint[];
  /**
   * beginContact: how fast the surfaces approached along the normal as they met (m/s, ≥ 0; the
   * fastest point), from the velocities before the step: scale a landing sound by it. endContact: 0.
   */
  approachSpeed: number;
}

/**
 * A contact whose normal impulse over a step, summed over its points, exceeded dt times the
 * lower contactForceThreshold of its two bodies (Body.contactForceThreshold, default Infinity:
 * never).
 */
export interface ContactForceEvent {
  type: 'contactForce';
  contact: Contact;
  shapeA: Shape;
  shapeB: Shape;
  bodyA: Body;
  bodyB: Body;
  /** The normal impulse over the step, summed over the points (N·s). */
  normalImpulse: number;
  /** normalImpulse / dt: the mean normal force over the step (N). */
  force: number;
}

export interface IslandEvent {
  type: 'sleep' | 'wake';
  /** Every body of the island that changed state, in body-id order. */
  bodies: readonly Body[];
}

export interface ConstraintBreakEvent {
  type: 'constraintBreak';
  constraint: Constraint;
  /** Why it broke: its impulse exceeded maxForce·dt, or its error exceeded maxError. */
  reason: 'force' | 'error';
}

export interface SpaceEventMap {
  beginContact: ContactEvent;
  endContact: ContactEvent;
  sleep: IslandEvent;
  wake: IslandEvent;
  constraintBreak: ConstraintBreakEvent;
  contactForce: ContactForceEvent;
}

export type SpaceEventType = keyof SpaceEventMap;
export type SpaceEventHandler<K extends SpaceEventType> = (event: SpaceEventMap[K]) => void;

const EVENT_TYPES: readonly SpaceEventType[] = ['beginContact', 'endContact', 'sleep', 'wake', 'constraintBreak', 'contactForce'];

export class EventHub {
  private readonly handlers = new Map<SpaceEventType, Array<(e: never) => void>>();
  private readonly queue: SpaceEventMap[SpaceEventType][] = [];
  deferring = false;

  isEventType(t: unknown): t is SpaceEventType {
    return EVENT_TYPES.includes(t as SpaceEventType);
  }

  on<K extends SpaceEventType>(type: K, handler: SpaceEventHandler<K>): () => void {
    let list = this.handlers.get(type);
    if (!list) this.handlers.set(type, (list = []));
    const h = handler as (e: never) => void;
    list.push(h);
    return () => {
      const l = this.handlers.get(type);
      if (!l) return;
      const i = l.indexOf(h);
      if (i >= 0) l.splice(i, 1);
    };
  }

  /** Cheap check so callers allocate event objects only when someone listens. */
  has(type: SpaceEventType): boolean {
    const l = this.handlers.get(type);
    return l !== undefined && l.length > 0;
  }

  emit<K extends SpaceEventType>(event: SpaceEventMap[K]): void {
    if (this.deferring) this.queue.push(event);
    else this.dispatch(event);
  }

  /** A step failed: the events it queued never happened. */
  discardQueued(): void {
    this.queue.length = 0;
  }

  flush(): void {
    // Handlers may raise new events (delivered immediately, as we are outside the step).
    for (let i = 0; i < this.queue.length; i++) this.dispatch(this.queue[i]!);
    this.queue.length = 0;
  }

  private dispatch(event: SpaceEventMap[SpaceEventType]): void {
    const list = this.handlers.get(event.type);
    if (!list || list.length === 0) return;
    // Copy so a handler can unsubscribe itself during dispatch.
    for (const h of list.slice()) (h as (e: typeof event) => void)(event);
  }
}
