/**
 * EventRouter: one subscription per space event type, routed to the components that asked.
 *
 * Components register a handlers *ref* (the latest props), never the functions themselves, so a
 * new callback on every render re-registers nothing. Each body is routed to once per engine
 * event: a contact is reported to each of its two bodies exactly once (no duplicate calls from
 * shapes and bodies, rapier #322). Instanced bodies carry their instance index.
 */
import type { Body, Constraint, ConstraintBreakEvent, ContactEvent, IslandEvent, Shape, Space } from '@fulcrum/physics';

export interface BodyContactEvent {
  type: 'beginContact' | 'endContact';
  /** The body whose handler is called. */
  body: Body;
  /** Its shape in contact. */
  shape: Shape;
  /** The body it touches. */
  other: Body;
  otherShape: Shape;
  /** Instance index of `body` when it belongs to <InstancedBodies>. */
  index?: number;
  /** Instance index of `other` when it belongs to <InstancedBodies>. */
  otherIndex?: number;
}

export interface BodyIslandEvent {
  type: 'sleep' | 'wake';
  body: Body;
  /** Instance index when the body belongs to <InstancedBodies>. */
  index?: number;
}

export interface BodyEventHandlers {
  onSleep?: (event: BodyIslandEvent) => void;
  onWake?: (event: BodyIslandEvent) => void;
  onBeginContact?: (event: BodyContactEvent) => void;
  onEndContact?: (event: BodyContactEvent) => void;
}

export interface ConstraintEventHandlers {
  onBreak?: (event: ConstraintBreakEvent) => void;
}

interface BodyEntry {
  handlers: { readonly current: BodyEventHandlers };
  index: number | undefined;
}

export class EventRouter {
  private readonly bodies = new Map<Body, BodyEntry>();
  private readonly constraints = new Map<Constraint, { readonly current: ConstraintEventHandlers }>();
  /** Called for every wake (a setter or a contact woke an island): the world requests a frame. */
  onAnyWake: () => void = () => {};

  setBody(body: Body, handlers: { readonly current: BodyEventHandlers }, index?: number): void {
    const e = this.bodies.get(body);
    if (e && e.handlers === handlers) e.index = index;
    else this.bodies.set(body, { handlers, index });
  }
  deleteBody(body: Body): void {
    this.bodies.delete(body);
  }
  setConstraint(c: Constraint, handlers: { readonly current: ConstraintEventHandlers }): void {
    this.constraints.set(c, handlers);
  }
  deleteConstraint(c: Constraint): void {
    this.constraints.delete(c);
  }
  /** The instance index a body was registered with, if any. */
  indexOf(body: Body): number | undefined {
    return this.bodies.get(body)?.index;
  }

  /** Subscribe to `space`; returns the function that unsubscribes. */
  attach(space: Space): () => void {
    const offs = [
      space.on('beginContact', (e) => this.contact(e)),
      space.on('endContact', (e) => this.contact(e)),
      space.on('sleep', (e) => this.island(e, 'onSleep')),
      space.on('wake', (e) => {
        this.onAnyWake();
        this.island(e, 'onWake');
      }),
      space.on('constraintBreak', (e) => this.constraints.get(e.constraint)?.current.onBreak?.(e)),
    ];
    return () => offs.forEach((off) => off());
  }

  private contact(e: ContactEvent): void {
    if (this.bodies.size === 0) return;
    const key = e.type === 'beginContact' ? 'onBeginContact' : 'onEndContact';
    const a = this.bodies.get(e.bodyA);
    const b = this.bodies.get(e.bodyB);
    const ha = a?.handlers.current[key];
    const hb = b?.handlers.current[key];
    if (ha) ha({ type: e.type, body: e.bodyA, shape: e.shapeA, other: e.bodyB, otherShape: e.shapeB, index: a!.index, otherIndex: b?.index });
    if (hb) hb({ type: e.type, body: e.bodyB, shape: e.shapeB, other: e.bodyA, otherShape: e.shapeA, index: b!.index, otherIndex: a?.index });
  }

  private island(e: IslandEvent, key: 'onSleep' | 'onWake'): void {
    if (this.bodies.size === 0) return;
    for (const body of e.bodies) {
      const entry = this.bodies.get(body);
      const h = entry?.handlers.current[key];
      if (h) h({ type: e.type, body, index: entry!.index });
    }
  }
}
