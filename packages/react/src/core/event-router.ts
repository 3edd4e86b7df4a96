/**
 * EventRouter: one subscription per space event type, routed to the components that asked.
 *
 * Components register a handlers *ref* (the latest props), never the functions themselves, so a
 * new callback on every render re-registers nothing. Each body is routed to once per engine
 * event: a contact is reported to each of its two bodies exactly once (no duplicate calls from
 * shapes and bodies, rapier #322), each from its own side (its own shape first, the normal
 * pointing away from it). Instanced bodies carry their instance index.
 *
 * `contactForce` is subscribed to only while a routed body has a finite contactForceThreshold:
 * the engine skips its per-step scan of the contacts when nobody listens.
 */
import type { Body, Constraint, ConstraintBreakEvent, Contact, ContactEvent, ContactForceEvent, ContactPoint, IslandEvent, Shape, Space, Vec2 } from '@fulcrum/physics';
import type { ThreeEvent } from '@react-three/fiber';

/** A beginContact or endContact, as one of its two bodies sees it. */
export interface BodyContactEvent {
  type: 'beginContact' | 'endContact';
  /** The body whose handler is called. */
  body: Body;
  /** Its shape in contact. */
  shape: Shape;
  /** The body it touches. */
  other: Body;
  otherShape: Shape;
  /** The engine's contact handle (live: it reads the contact as it is when read). */
  contact: Contact;
  /**
   * beginContact: the unit normal at first touch, pointing from `body` towards `other` (the
   * engine's normal, which points from shapeA to shapeB, flipped for shapeB's body); endContact:
   * {0, 0}. A fresh object for each handler.
   */
  normal: Vec2;
  /**
   * beginContact: the contact points at first touch, each with the impulses it applied in that
   * step (the impact; 0 for a sensor); endContact: none. The same array goes to both bodies.
   */
  points: readonly ContactPoint[];
  /**
   * beginContact: how fast the surfaces approached along the normal as they met (m/s, ≥ 0),
   * from the velocities before the step: scale a landing sound by it. endContact: 0.
   */
  approachSpeed: number;
  /** Instance index of `body` when it belongs to <InstancedBodies>. */
  index?: number;
  /** Instance index of `other` when it belongs to <InstancedBodies>. */
  otherIndex?: number;
}

/**
 * A contact of `body` pushed harder, over a step, than the body's `contactForceThreshold` prop
 * (the engine's contactForce event, routed to each body whose own threshold it exceeds).
 */
export interface BodyContactForceEvent {
  type: 'contactForce';
  body: Body;
  shape: Shape;
  other: Body;
  otherShape: Shape;
  /** The engine's contact handle. */
  contact: Contact;
  /** The normal impulse over the step, summed over the points (N·s). */
  normalImpulse: number;
  /** normalImpulse / dt: the mean normal force over the step (N). */
  force: number;
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
  /** The body's island fell asleep (after the space's sleepDelay at rest). */
  onSleep?: (event: BodyIslandEvent) => void;
  /** The body's island woke: a prop change, a contact, a joint or `wake()`. */
  onWake?: (event: BodyIslandEvent) => void;
  /**
   * One of the body's shapes began touching another body's (a sensor: began overlapping). The
   * event carries the contact, its normal from this body to the other, the points with their
   * impulses in that step, and the approach speed.
   */
  onBeginContact?: (event: BodyContactEvent) => void;
  /** A contact of the body's ended (the shapes parted, or one of them went). */
  onEndContact?: (event: BodyContactEvent) => void;
  /**
   * A contact pushed harder than this body's `contactForceThreshold` (N) over a step. Only fires
   * while that prop is set: without it (the engine's default, Infinity) it never does.
   */
  onContactForce?: (event: BodyContactForceEvent) => void;
}

/**
 * An R3F pointer event on one of a body's default shape meshes, with the engine objects added:
 * `body`, and `shape`, the engine shape under the pointer.
 */
export type BodyPointerEvent<E = PointerEvent> = ThreeEvent<E> & {
  /** The engine body whose shape the pointer is on. */
  body: Body;
  /** The engine shape drawn by the mesh (for a decomposed <Polygon>, the piece under the pointer). */
  shape: Shape;
};

/** R3F's pointer events, forwarded by a <Body>'s default shape meshes. */
export interface BodyPointerHandlers {
  onClick?: (event: BodyPointerEvent<MouseEvent>) => void;
  onContextMenu?: (event: BodyPointerEvent<MouseEvent>) => void;
  onDoubleClick?: (event: BodyPointerEvent<MouseEvent>) => void;
  onWheel?: (event: BodyPointerEvent<WheelEvent>) => void;
  onPointerDown?: (event: BodyPointerEvent) => void;
  onPointerUp?: (event: BodyPointerEvent) => void;
  onPointerMove?: (event: BodyPointerEvent) => void;
  onPointerOver?: (event: BodyPointerEvent) => void;
  onPointerOut?: (event: BodyPointerEvent) => void;
  onPointerEnter?: (event: BodyPointerEvent) => void;
  onPointerLeave?: (event: BodyPointerEvent) => void;
  onPointerCancel?: (event: BodyPointerEvent) => void;
  onLostPointerCapture?: (event: BodyPointerEvent) => void;
}

/** The names of BodyPointerHandlers. */
export const POINTER_HANDLER_KEYS = [
  'onClick',
  'onContextMenu',
  'onDoubleClick',
  'onWheel',
  'onPointerDown',
  'onPointerUp',
  'onPointerMove',
  'onPointerOver',
  'onPointerOut',
  'onPointerEnter',
  'onPointerLeave',
  'onPointerCancel',
  'onLostPointerCapture',
] as const satisfies readonly (keyof BodyPointerHandlers)[];

export interface ConstraintEventHandlers {
  /** The constraint broke (breakUnderForce or breakUnderError): the event says which. */
  onBreak?: (event: ConstraintBreakEvent) => void;
}

interface BodyEntry {
  handlers: { readonly current: BodyEventHandlers };
  index: number | undefined;
}

export class EventRouter {
  private readonly bodies = new Map<Body, BodyEntry>();
  private readonly constraints = new Map<Constraint, { readonly current: ConstraintEventHandlers }>();
  /** Routed bodies with a finite contactForceThreshold: the contactForce subscription's reason. */
  private readonly forceBodies = new Set<Body>();
  private space: Space | null = null;
  private offForce: (() => void) | null = null;
  /** Called for every wake (a setter or a contact woke an island): the world requests a frame. */
  onAnyWake: () => void = () => {};

  /** Route `body`'s events (called after its props were applied, on every commit). */
  setBody(body: Body, handlers: { readonly current: BodyEventHandlers }, index?: number): void {
    const e = this.bodies.get(body);
    if (e && e.handlers === handlers) e.index = index;
    else this.bodies.set(body, { handlers, index });
    if (Number.isFinite(body.contactForceThreshold)) this.forceBodies.add(body);
    else this.forceBodies.delete(body);
    this.syncForce();
  }
  deleteBody(body: Body): void {
    this.bodies.delete(body);
    if (this.forceBodies.delete(body)) this.syncForce();
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
  /**
   * The pointer handlers of a routed body, or undefined. A <Body>'s handlers ref holds its props,
   * pointer handlers included (see HANDLER_KEYS in components/Body.tsx).
   */
  pointerHandlersOf(body: Body | null): BodyPointerHandlers | undefined {
    if (body === null) return undefined;
    return this.bodies.get(body)?.handlers.current as BodyPointerHandlers | undefined;
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
    this.space = space;
    this.syncForce();
    return () => {
      offs.forEach((off) => off());
      this.space = null;
      this.syncForce();
    };
  }

  /** Listen for contactForce exactly while attached with a routed body that has a threshold. */
  private syncForce(): void {
    const want = this.space !== null && this.forceBodies.size > 0;
    if (want && this.offForce === null) this.offForce = this.space!.on('contactForce', (e) => this.contactForce(e));
    else if (!want && this.offForce !== null) {
      this.offForce();
      this.offForce = null;
    }
  }

  private contact(e: ContactEvent): void {
    if (this.bodies.size === 0) return;
    const key = e.type === 'beginContact' ? 'onBeginContact' : 'onEndContact';
    const a = this.bodies.get(e.bodyA);
    const b = this.bodies.get(e.bodyB);
    const ha = a?.handlers.current[key];
    const hb = b?.handlers.current[key];
    const { contact, points, approachSpeed } = e;
    if (ha) {
      const normal = { x: e.normal.x, y: e.normal.y };
      ha({ type: e.type, body: e.bodyA, shape: e.shapeA, other: e.bodyB, otherShape: e.shapeB, contact, normal, points, approachSpeed, index: a!.index, otherIndex: b?.index });
    }
    if (hb) {
      // 0 − x rather than −x: an endContact's {0, 0} stays {0, 0}, not {−0, −0}.
      const normal = { x: 0 - e.normal.x, y: 0 - e.normal.y };
      hb({ type: e.type, body: e.bodyB, shape: e.shapeB, other: e.bodyA, otherShape: e.shapeA, contact, normal, points, approachSpeed, index: b!.index, otherIndex: a?.index });
    }
  }

  /**
   * The engine raised it because the step's impulse exceeded the lower threshold of the two
   * bodies: it goes to that body, and to the other only if its own threshold is exceeded too.
   */
  private contactForce(e: ContactForceEvent): void {
    const ta = e.bodyA.contactForceThreshold;
    const tb = e.bodyB.contactForceThreshold;
    const a = this.bodies.get(e.bodyA);
    const b = this.bodies.get(e.bodyB);
    const ha = a?.handlers.current.onContactForce;
    const hb = b?.handlers.current.onContactForce;
    const { contact, normalImpulse, force } = e;
    if (ha && Number.isFinite(ta) && (ta <= tb || force > ta)) {
      ha({ type: 'contactForce', body: e.bodyA, shape: e.shapeA, other: e.bodyB, otherShape: e.shapeB, contact, normalImpulse, force, index: a!.index, otherIndex: b?.index });
    }
    if (hb && Number.isFinite(tb) && (tb <= ta || force > tb)) {
      hb({ type: 'contactForce', body: e.bodyB, shape: e.shapeB, other: e.bodyA, otherShape: e.shapeA, contact, normalImpulse, force, index: b!.index, otherIndex: a?.index });
    }
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
