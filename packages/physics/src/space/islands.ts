/**
 * Islands and sleep. An island is a set of awake dynamic bodies linked by touching solid contacts
 * and by active constraints; static and kinematic bodies join none (a moving kinematic body keeps
 * what it touches awake instead). An island falls asleep when every body in it has rested for
 * sleepDelay, and wakes as a whole. Box2D v3 keeps islands persistent; here they are found again
 * by union-find over the solver's bodies, and only in a step where some body has rested long
 * enough that its island might sleep (most steps skip the pass entirely).
 */
import type { Body, SleepingIsland } from '../body/body.js';
import type { Constraint } from '../constraint/constraint.js';
import type { Contact } from '../contact/contact.js';
import { isSolved } from '../contact/contact-store.js';
import type { EventHub } from './events.js';
import type { SolverBodies } from './solver-bodies.js';

export class Islands {
  /** Union-find forest over node indices (solver indices, or countAwake's own numbering). */
  private parent = new Int32Array(64);
  /** Per root: the least rest time of its island. */
  private minSleep = new Float64Array(64);
  /** countAwake's scratch list. */
  private readonly awake: Body[] = [];
  /**
   * While a step may still fail (beginStep to endStep): each body wake() woke, with the island it
   * slept in and its rest time, so that rollbackStep can put it back to sleep.
   */
  private journaling = false;
  private readonly wokenBodies: Body[] = [];
  private readonly wokenFrom: (SleepingIsland | null)[] = [];
  private readonly wokenSleepTime: number[] = [];

  constructor(
    private readonly events: EventHub,
    /** Called whenever a body wakes or sleeps: the step plan is stale then. */
    private readonly membershipChanged: () => void,
    /** The space, to tell its bodies from removed ones in wake events. */
    private readonly space: unknown,
  ) {}

  /** From the start of a step: the wakes it makes are undone if it fails (rollbackStep). */
  beginStep(): void {
    this.endStep();
    this.journaling = true;
  }

  /** The step succeeded: its wakes stand. (rollbackStep ends the journal too.) */
  endStep(): void {
    this.journaling = false;
    this.wokenBodies.length = 0;
    this.wokenFrom.length = 0;
    this.wokenSleepTime.length = 0;
  }

  /** The step failed: the bodies it woke sleep again, in their islands, with their rest times. */
  rollbackStep(): void {
    const bodies = this.wokenBodies;
    if (bodies.length > 0) this.membershipChanged();
    for (let i = bodies.length - 1; i >= 0; i--) {
      const b = bodies[i]!;
      b._sleeping = true;
      b._island = this.wokenFrom[i]!;
      b._sleepTime = this.wokenSleepTime[i]!;
    }
    this.endStep();
  }

  private journal(b: Body): void {
    if (!this.journaling) return;
    this.wokenBodies.push(b);
    this.wokenFrom.push(b._island);
    this.wokenSleepTime.push(b._sleepTime);
  }

  /** How many wakes there have been: a stage that read the bodies' sleep before a wake reads again. */
  wakes = 0;

  /** Wake a body's island (or the body alone, if it never slept in one). */
  wake(body: Body): void {
    this.wakes++;
    this.membershipChanged();
    const island = body._island;
    const woken: Body[] = [];
    if (island === null) {
      this.journal(body);
      body._sleeping = false;
      body._sleepTime = 0;
      woken.push(body);
    } else {
      for (const b of island.bodies) {
        if (b._island !== island) continue;
        this.journal(b);
        b._sleeping = false;
        b._island = null;
        b._sleepTime = 0;
        if (b._space === this.space) woken.push(b);
      }
    }
    if (woken.length > 0 && this.events.has('wake')) this.events.emit({ type: 'wake', bodies: woken });
  }

  /**
   * A constraint links an island: if any of its dynamic bodies is awake, all of them must be.
   * Only a change (adding, activating, re-linking) can create such a mixed island.
   */
  wakeMixed(constraints: readonly Constraint[]): void {
    for (const c of constraints) {
      if (!c._active) continue;
      const bodies = c.bodies;
      let awake = false;
      let asleep = false;
      for (let i = 0; i < bodies.length; i++) {
        const b = bodies[i]!;
        if (b._type !== 'dynamic') continue;
        if (b._sleeping) asleep = true;
        else awake = true;
      }
      if (awake && asleep) for (const b of bodies) if (b._sleeping) this.wake(b);
    }
  }

  /**
   * Put to sleep every island of the solver's bodies whose bodies all rested for `delay`
   * (contacts: the space's, with their store flags; constraints: the step's active ones).
   */
  sleepRested(sb: SolverBodies, contacts: readonly Contact[], flags: Uint8Array, constraints: readonly Constraint[], delay: number): void {
    const n = sb.count;
    this.resetSets(n);
    for (let k = 0; k < contacts.length; k++) {
      if (!isSolved(flags[k]!)) continue; // not touching, a sensor, or ignored by the pre-solve callback
      const c = contacts[k]!;
      const a = c.bodyA._solverIndex;
      const b = c.bodyB._solverIndex;
      if (a <= 0 || b <= 0) {
        // A moving kinematic body keeps what it touches awake.
        if (a > 0 && sb.dynamic[a] === 0 && c.bodyB._type === 'dynamic') c.bodyB._sleepTime = 0;
        if (b > 0 && sb.dynamic[b] === 0 && c.bodyA._type === 'dynamic') c.bodyA._sleepTime = 0;
        continue;
      }
      const dynA = sb.dynamic[a] === 1;
      const dynB = sb.dynamic[b] === 1;
      if (dynA && dynB) this.union(a, b);
      else if (dynA) c.bodyA._sleepTime = 0;
      else if (dynB) c.bodyB._sleepTime = 0;
    }
    for (const c of constraints) {
      let first = -1;
      for (const b of c.bodies) {
        const i = b._solverIndex;
        if (i <= 0 || sb.dynamic[i] === 0) continue;
        if (first < 0) first = i;
        else this.union(first, i);
      }
    }
    const minSleep = this.minSleep;
    for (let i = 1; i < n; i++) minSleep[i] = Infinity;
    for (let i = 1; i < n; i++) {
      if (sb.dynamic[i] === 0) continue;
      const r = this.find(i);
      const t = sb.bodies[i]!._sleepTime;
      if (t < minSleep[r]!) minSleep[r] = t;
    }
    let islands: Map<number, Body[]> | null = null;
    for (let i = 1; i < n; i++) {
      if (sb.dynamic[i] === 0) continue;
      const r = this.find(i);
      if (minSleep[r]! < delay) continue;
      islands ??= new Map();
      let list = islands.get(r);
      if (!list) islands.set(r, (list = []));
      list.push(sb.bodies[i]!);
    }
    if (!islands) return;
    this.membershipChanged();
    for (const bodies of islands.values()) this.putToSleep(bodies);
  }

  /** One island falls asleep: its bodies stop, in body-id order, and the sleep event tells so. */
  private putToSleep(bodies: Body[]): void {
    bodies.sort((p, q) => p.id - q.id);
    const island: SleepingIsland = { bodies };
    for (const b of bodies) {
      b._sleeping = true;
      b._island = island;
      b._vx = b._vy = b._w = 0;
      b._sleepTime = 0;
    }
    if (this.events.has('sleep')) this.events.emit({ type: 'sleep', bodies });
  }

  /**
   * Body.sleep(): the awake island of `body` (by countAwake's rule) falls asleep now. A body of it
   * with allowSleep false is returned instead, and nothing changes.
   */
  sleepIslandOf(body: Body, bodies: readonly Body[], contacts: readonly Contact[], constraints: readonly Constraint[]): Body | null {
    this.linkAwake(bodies, contacts, constraints);
    const awake = this.awake;
    const root = this.find(body._islandIndex);
    const members: Body[] = [];
    for (let i = 0; i < awake.length; i++) if (this.find(i) === root) members.push(awake[i]!);
    awake.length = 0;
    const keeper = members.find((b) => !b._allowSleep) ?? null;
    if (keeper !== null) return keeper;
    this.membershipChanged();
    this.putToSleep(members);
    return null;
  }

  /**
   * How many islands are awake, by the same rule by which they fall asleep. 0 means the scene is
   * at rest. A pass over bodies, contacts and constraints, for an overlay or a test.
   */
  countAwake(bodies: readonly Body[], contacts: readonly Contact[], constraints: readonly Constraint[]): number {
    const n = this.linkAwake(bodies, contacts, constraints);
    let islands = 0;
    for (let i = 0; i < n; i++) if (this.find(i) === i) islands++;
    this.awake.length = 0;
    return islands;
  }

  /**
   * The awake dynamic bodies into `awake` (each its index in _islandIndex), joined into sets by
   * touching solid contacts and active constraints between them; returns how many there are.
   */
  private linkAwake(bodies: readonly Body[], contacts: readonly Contact[], constraints: readonly Constraint[]): number {
    const awake = this.awake;
    awake.length = 0;
    for (const b of bodies) {
      if (b._type !== 'dynamic' || b._sleeping) continue;
      b._islandIndex = awake.length;
      awake.push(b);
    }
    const n = awake.length;
    if (n === 0) return 0;
    this.resetSets(n);
    for (const c of contacts) {
      if (c.touching && !c.isSensor && awakeDynamic(c.bodyA) && awakeDynamic(c.bodyB)) this.union(c.bodyA._islandIndex, c.bodyB._islandIndex);
    }
    for (const c of constraints) {
      if (!c._active) continue;
      let first = -1;
      for (const b of c.bodies) {
        if (!awakeDynamic(b)) continue;
        if (first < 0) first = b._islandIndex;
        else this.union(first, b._islandIndex);
      }
    }
    return n;
  }

  /** n singleton sets (the arrays grow, never shrink: no allocation in steady state). */
  private resetSets(n: number): void {
    if (this.parent.length < n) {
      this.parent = new Int32Array(n * 2);
      this.minSleep = new Float64Array(n * 2);
    }
    const parent = this.parent;
    for (let i = 0; i < n; i++) parent[i] = i;
  }

  /** The root of i's set, halving the path on the way. */
  private find(i: number): number {
    const parent = this.parent;
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  }

  private union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    // The smaller index becomes the root, so islands never depend on discovery order.
    if (ra < rb) this.parent[rb] = ra;
    else if (rb < ra) this.parent[ra] = rb;
  }
}

/** A body that belongs to an awake island. */
function awakeDynamic(b: Body): boolean {
  return b._type === 'dynamic' && !b._sleeping;
}
