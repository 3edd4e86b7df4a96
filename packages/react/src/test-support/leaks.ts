/**
 * Test helpers for leak checks: what a Space, a <Physics> world and a DOM element still have
 * registered. They read private state on purpose (the engine's EventHub, the world's lists), and
 * throw if that state is not where they expect it, so a refactor makes them fail loudly instead
 * of reading `undefined` as "nothing left".
 */
import type { Space, SpaceEventType } from '@fulcrum/physics';
import type { PhysicsApi } from '../hooks/hooks.js';

/** Every Space event type. The engine exports the type but not a list of its values, so it is listed here. */
const SPACE_EVENTS = ['beginContact', 'endContact', 'sleep', 'wake', 'constraintBreak', 'contactForce'] as const satisfies readonly SpaceEventType[];
// The list must name every event type: a new one in the engine's SpaceEventMap fails to compile here until added.
const everyEventListed: [Exclude<SpaceEventType, (typeof SPACE_EVENTS)[number]>] extends [never] ? true : never = true;
void everyEventListed;

interface EventHubInternals {
  handlers: Map<SpaceEventType, unknown[]>;
  has(type: SpaceEventType): boolean;
}

/**
 * The listeners of each Space event type (Space.on subscriptions still in the space's EventHub,
 * packages/physics/src/space/events.ts).
 */
export function spaceListeners(space: Space): Record<SpaceEventType, number> {
  const hub = (space as unknown as { _events?: EventHubInternals })._events;
  if (!hub || !(hub.handlers instanceof Map) || typeof hub.has !== 'function') throw new Error('Space._events is not the EventHub this helper knows');
  const out = {} as Record<SpaceEventType, number>;
  for (const type of SPACE_EVENTS) {
    const n = hub.handlers.get(type)?.length ?? 0;
    if (hub.has(type) !== n > 0) throw new Error(`EventHub.has('${type}') disagrees with its list`);
    out[type] = n;
  }
  for (const type of hub.handlers.keys()) if (!(SPACE_EVENTS as readonly SpaceEventType[]).includes(type)) throw new Error(`EventHub has listeners for an unknown type '${type}'`);
  return out;
}

/** The total of spaceListeners(space). */
export function spaceListenerCount(space: Space): number {
  return Object.values(spaceListeners(space)).reduce((a, b) => a + b, 0);
}

/** What a <Physics> world holds for its children (see core/physics-world.ts and core/event-router.ts). */
export interface WorldRegistrations {
  /** Bodies and instanced meshes drawn every frame. */
  targets: number;
  /** useBeforeStep / useAfterStep callbacks. */
  beforeStep: number;
  afterStep: number;
  /** Run after every frame (the debug view). */
  afterFrame: number;
  /** Joints resolving their bodies, useBody, an active drag. */
  bodyWatchers: number;
  /** Joints waiting for a body, re-checked before every step. */
  pending: number;
  /** Joint-limit drawings for the debug view. */
  overlays: number;
  /** Bodies and constraints whose events are routed to a component. */
  routedBodies: number;
  routedConstraints: number;
  /** Routed bodies with a contactForceThreshold (the reason for the contactForce subscription). */
  forceBodies: number;
  /** 1 while the world is subscribed to contactForce. */
  forceSubscription: number;
  /** usePreSolve callbacks. */
  preSolveCallbacks: number;
  /** Shape components with a contact rule (oneWay, tangentSpeed). */
  contactRules: number;
  /** 1 while a frame driver (inside a <Canvas>) can request frames. */
  frameRequester: number;
  /** 1 while the world is subscribed to its space's events. */
  attached: number;
}

interface Sized {
  size: number;
}

/** What `api` (usePhysics(), the world itself) still has registered. */
export function worldRegistrations(api: PhysicsApi): WorldRegistrations {
  const w = api as unknown as Record<string, unknown>;
  const list = (key: string): number => {
    const v = w[key] as Sized | undefined;
    if (!v || typeof v.size !== 'number') throw new Error(`PhysicsWorld.${key} is not a list this helper knows`);
    return v.size;
  };
  const router = w.events as { bodies?: unknown; constraints?: unknown; forceBodies?: unknown; offForce?: unknown } | undefined;
  if (!router || !(router.bodies instanceof Map) || !(router.constraints instanceof Map) || !(router.forceBodies instanceof Set) || !('offForce' in router)) {
    throw new Error('PhysicsWorld.events is not the EventRouter this helper knows');
  }
  const preSolve = w.preSolve as { callbacks?: Partial<Sized>; ruled?: unknown } | undefined;
  if (!preSolve || typeof preSolve.callbacks?.size !== 'number' || !(preSolve.ruled instanceof Set)) throw new Error('PhysicsWorld.preSolve is not the PreSolveRouter this helper knows');
  if (!('requester' in w) || !('detachEvents' in w)) throw new Error('PhysicsWorld has no requester / detachEvents');
  return {
    targets: list('targets'),
    beforeStep: list('before'),
    afterStep: list('after'),
    afterFrame: list('afterFrame'),
    bodyWatchers: list('bodyWatchers'),
    pending: list('pending'),
    overlays: list('overlays'),
    routedBodies: router.bodies.size,
    routedConstraints: router.constraints.size,
    forceBodies: router.forceBodies.size,
    forceSubscription: router.offForce === null ? 0 : 1,
    preSolveCallbacks: preSolve.callbacks.size,
    contactRules: preSolve.ruled.size,
    frameRequester: w.requester === null ? 0 : 1,
    attached: w.detachEvents === null ? 0 : 1,
  };
}

/** Every count of worldRegistrations(api) at zero. */
export const NO_REGISTRATIONS: Readonly<WorldRegistrations> = Object.freeze({
  targets: 0,
  beforeStep: 0,
  afterStep: 0,
  afterFrame: 0,
  bodyWatchers: 0,
  pending: 0,
  overlays: 0,
  routedBodies: 0,
  routedConstraints: 0,
  forceBodies: 0,
  forceSubscription: 0,
  preSolveCallbacks: 0,
  contactRules: 0,
  frameRequester: 0,
  attached: 0,
});

/**
 * Counts the listeners added to an EventTarget and not yet removed, by wrapping its
 * addEventListener and removeEventListener (install it before anything listens).
 */
export function listenerLedger(target: EventTarget): { readonly count: number; readonly types: string[] } {
  const live = new Map<string, Set<unknown>>();
  const capture = (options: boolean | EventListenerOptions | undefined): boolean => (typeof options === 'boolean' ? options : options?.capture === true);
  const key = (type: string, options: boolean | EventListenerOptions | undefined) => `${type}/${capture(options)}`;
  const add = target.addEventListener.bind(target);
  const remove = target.removeEventListener.bind(target);
  target.addEventListener = (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | AddEventListenerOptions) => {
    if (listener) {
      const k = key(type, options);
      if (!live.has(k)) live.set(k, new Set());
      live.get(k)!.add(listener);
    }
    add(type, listener, options);
  };
  target.removeEventListener = (type: string, listener: EventListenerOrEventListenerObject | null, options?: boolean | EventListenerOptions) => {
    if (listener) live.get(key(type, options))?.delete(listener);
    remove(type, listener, options);
  };
  return {
    get count() {
      let n = 0;
      for (const s of live.values()) n += s.size;
      return n;
    },
    get types() {
      return [...live].filter(([, s]) => s.size > 0).map(([k, s]) => `${k}×${s.size}`);
    },
  };
}
