/**
 * The contact manager: shapes' broadphase proxies, and the contacts between shapes whose fat
 * boxes overlap. It creates a contact when the broadphase reports a new pair (stage 2), runs the
 * narrowphase on each contact with a simulated side (stage 3; begin/end events on a change of
 * touching; touching a sleeping island wakes it), destroys contacts whose boxes part, and keeps
 * proxies in step with moving bodies (stage 8). Box2D v3 splits the same job between its
 * broadphase and its contact module.
 */
import type { Body } from '../body/body.js';
import { BroadPhase } from '../broadphase/broadphase.js';
import { collideShapes } from '../collision/collide.js';
import { shouldCollide } from '../collision/filter.js';
import { Manifold } from '../collision/manifold.js';
import type { Constraint } from '../constraint/constraint.js';
import { Contact, pairKey, roundingRadius } from '../contact/contact.js';
import { ContactStore, DOOMED, isSolved, PRE_ACCEPT, PRE_IGNORE, PRE_SOLVE_FLAGS, SENSOR, SKIP, TOUCHING } from '../contact/contact-store.js';
import { FulcrumInputError } from '../util/validate.js';
import type { Shape } from '../shape/shape.js';
import type { ContactEvent, EventHub } from './events.js';
import type { ContactPoint } from '../contact/contact.js';
import type { Vec2 } from '../math/vec2.js';
import { GeometryPool } from '../collision/geometry-pool.js';
import type { PolyShape } from '../shape/poly-shape.js';
import { PAIR } from '../collision/collide-kernels.js';
import { ChainSegment } from '../shape/chain.js';
import type { WorkerPool } from '../parallel/worker-pool.js';
import type { StageViews } from '../parallel/thread-runtime.js';
import { COMMAND } from '../parallel/control.js';
import { grown, shareArray } from '../util/typed-arrays.js';

/**
 * Nape's PreFlag: 'acceptOnce' (or nothing) solves the contact in this step and asks again in the
 * next; 'ignoreOnce' leaves it out of this step and asks again; 'accept' and 'ignore' hold while
 * the contact touches, and it is not asked again until it has stopped touching and touches again.
 */
export type PreSolveFlag = 'accept' | 'ignore' | 'acceptOnce' | 'ignoreOnce';
/** Space.preSolve: called during the step, once per touching solid contact before it is solved. */
export type PreSolveCallback = (contact: Contact) => PreSolveFlag | void;

export interface ContactOwner {
  /** Wake a sleeping body's island. */
  wake(body: Body): void;
  /** A body's neighbourhood changed (a contact it rested on went away). */
  invalidateBody(body: Body): void;
  /** The space, to tell its bodies from removed ones. */
  readonly space: unknown;
}

/**
 * How far a proxy's fat box may look ahead, in multiples of its shape's size (syncShapes). In
 * bench scene L (500 small bodies at 50–150 m/s), measured warm: 1 size, 138 ms over the first
 * 60 steps and 1.72 ms/step after; 2 sizes, 142 and 1.59; 4, 166 and 1.67; unbounded, 245 and 1.81.
 */
const LOOKAHEAD_MAX_SIZES = 2;

/**
 * Contacts from which a space with workers splits the narrowphase's polygon pairs over its threads
 * (firstPass, lastPass). Under it the runs' hand-offs cost more than the share saves.
 */
export const PARALLEL_MIN_CONTACTS = 256;

/** The parallel narrowphase's slot states (firstPass, lastPass): not simulated when listed (a wake
 * later in the pass may change that), */
const WAITING = 0;
/** nothing more to do in this step (doomed), */
const SETTLED = 1;
/** collided by the kernels (collide-kernels.ts), or here on the calling thread, */
const KERNEL = 2;
const HERE = 4;
/** and a flag: a side was asleep when listed. */
const ASLEEP = 8;
/** A body's state as the narrowphase starts (ContactManager.markBodies): awake and not static; asleep. */
const SIMULATED_BODY = 1;
const SLEEPING_BODY = 2;

export class ContactManager {
  readonly broadphase = new BroadPhase();
  /** Every live contact; contact i's numbers are at slot i of `store`. */
  readonly contacts: Contact[] = [];
  readonly store = new ContactStore();
  /** The narrowphase writes here; the store then takes the points and carries the impulses. */
  private readonly manifold = new Manifold();
  private readonly byPair = new Map<number, Contact>();
  private readonly shapeById = new Map<number, Shape>();
  /** syncShapes's proxy box [minX, minY, maxX, maxY, dx, dy]. */
  private readonly moveBox = new Float64Array(6);
  /** How far ahead (s) a re-inserted proxy stretches along its body's motion (set each step). */
  lookahead = 0;
  /** Bodies whose inert shapes have not followed them yet (see syncShapes). */
  private readonly staleInert: Body[] = [];
  private readonly pairCallback = (a: number, b: number): void => this.addPair(a, b);
  /** The contact count when the step began (beginStep): later ones are the step's own. */
  private stepStartCount = 0;
  /** Some contact was doomed in this step's narrowphase: commitStep destroys it. */
  private doomedPending = false;
  /** This step's beginContact events, whose points take the step's impulses once it is solved (contactData). */
  private readonly begun: ContactEvent[] = [];
  /** Space.preSolve: asked about each touching solid contact before it is solved (runPreSolve). */
  private preSolveCallback: PreSolveCallback | null = null;
  /** True while the callback runs: the contact's material setters are open then, inside a step. */
  inPreSolve = false;
  /** While the space has workers, or has had them: its shapes' geometry blocks, shared (collision/geometry-pool.ts). */
  private geometry: GeometryPool | null = null;
  /** The space's workers (null: none). */
  private pool: WorkerPool | null = null;
  /** The parallel narrowphase's: each slot's state, and the jobs (slot, block A, block B, routine) the kernels take. */
  private narrowState = new Uint8Array(64);
  private jobs = new Int32Array(256);

  constructor(
    private readonly events: EventHub,
    private readonly owner: ContactOwner,
  ) {}

  // ------------------------------------------------------------------ a step's contacts, atomically

  /**
   * Before stage 2: keep what a failed step must put back (rollbackStep). Stages 2 and 3 only
   * append contacts and rewrite the store's slots, and contacts whose boxes parted are destroyed
   * at commitStep, so a copy of the store and the count are enough.
   */
  beginStep(): void {
    this.stepStartCount = this.contacts.length;
    this.store.snapshot();
    this.doomedPending = false;
    this.begun.length = 0;
  }

  /** The step succeeded: destroy the contacts stage 3 doomed (their endContact events follow its own). */
  commitStep(): void {
    if (this.doomedPending) this.compact();
    this.doomedPending = false;
  }

  /**
   * The step failed: every contact as at beginStep. The step's new contacts go (from the map and
   * their bodies' lists, where they were last), the store takes back its copy (manifolds, impulses,
   * touching flags, doomed marks), and the broadphase queues again the proxies stage 2 re-paired, so
   * that the next step finds the same pairs in the same order.
   */
  rollbackStep(): void {
    const contacts = this.contacts;
    for (let i = contacts.length - 1; i >= this.stepStartCount; i--) {
      const c = contacts[i]!;
      this.byPair.delete(c.key);
      removeLast(c.bodyB._contacts, c);
      removeLast(c.bodyA._contacts, c);
      c.index = -1;
    }
    contacts.length = this.stepStartCount;
    this.store.restore();
    this.broadphase.requeueLastUpdate();
    this.doomedPending = false;
  }

  // ------------------------------------------------------------------ stages 2 and 3

  /** Stage 2: new overlapping proxy pairs become contacts. */
  updatePairs(): void {
    this.broadphase.updatePairs(this.pairCallback);
  }

  /**
   * Stage 3: the narrowphase for every contact with a simulated side. A contact whose boxes parted
   * is doomed: the solver skips it, and commitStep destroys it once the step has succeeded.
   */
  collide(bodies: readonly Body[], bodySlots: number): void {
    this.collideBegin(bodies, bodySlots);
    this.collideEnd();
  }

  /**
   * Stage 3 in two halves. With workers, the first pass runs here and the workers start on the
   * stage of jobs, which the calling thread joins at collideEnd: in between it may do what reads
   * no contact and writes nothing a wake would change (the step's gather, which it repeats when
   * the last pass woke a body). Without workers, or below PARALLEL_MIN_CONTACTS, all of it runs
   * here.
   */
  collideBegin(bodies: readonly Body[], bodySlots: number): void {
    this.narrowphaseOpen = false;
    if (this.pool !== null && this.contacts.length >= PARALLEL_MIN_CONTACTS) {
      this.firstPass(bodies, bodySlots);
      this.narrowphaseOpen = true;
    } else this.collideHere();
  }

  /** The end of stage 3 (collideBegin): the calling thread's part of the jobs, then the last pass. */
  collideEnd(): void {
    if (!this.narrowphaseOpen) return;
    this.narrowphaseOpen = false;
    if (this.narrowphaseStage >= 0) {
      const seq = this.narrowphaseStage;
      this.narrowphaseStage = -1;
      this.pool!.join(COMMAND.NARROWPHASE, seq);
    }
    this.lastPass();
  }

  /** Between collideBegin and collideEnd with workers: the last pass is still to run. */
  private narrowphaseOpen = false;
  /** The narrowphase stage opened and not joined yet, or −1. */
  private narrowphaseStage = -1;
  /** What the first pass leaves the last: whether it doomed a contact. */
  private firstPassDoomed = false;

  /** Each body's state by its slot (Body._slot) as the narrowphase starts: SIMULATED_BODY, SLEEPING_BODY. */
  private bodyStates = new Uint8Array(0);

  /** bodyStates for the space's bodies (slots below bodySlots). */
  private markBodies(bodies: readonly Body[], bodySlots: number): Uint8Array {
    if (this.bodyStates.length < bodySlots) this.bodyStates = new Uint8Array(Math.max(bodySlots, 2 * this.bodyStates.length));
    const states = this.bodyStates;
    for (let i = 0, n = bodies.length; i < n; i++) {
      const b = bodies[i]!;
      states[b._slot] = isSimulated(b) ? SIMULATED_BODY : b._sleeping ? SLEEPING_BODY : 0;
    }
    return states;
  }

  /** Stage 3 on the calling thread alone: each contact in list order. */
  private collideHere(): void {
    const contacts = this.contacts;
    const store = this.store;
    const m = this.manifold;
    let destroyed = false;
    for (let i = 0; i < contacts.length; i++) {
      const c = contacts[i]!;
      const bA = c.bodyA;
      const bB = c.bodyB;
      if (!isSimulated(bA) && !isSimulated(bB)) continue;
      if (!this.broadphase.testOverlap(c.shapeA.proxyId, c.shapeB.proxyId)) {
        store.flags[i] |= DOOMED;
        destroyed = true;
        continue;
      }
      collideShapes(c.shapeA, c.shapeB, m);
      store.update(i, m);
      const flags = store.flags[i]!;
      const sensor = (flags & SENSOR) !== 0;
      let touching = m.pointCount > 0;
      if (touching && sensor) touching = minSeparation(m) < 0;
      if (touching !== ((flags & TOUCHING) !== 0)) {
        // A pre-solve decision lasts while the contact touches.
        store.flags[i] = (flags ^ TOUCHING) & ~PRE_SOLVE_FLAGS;
        this.emitContact(touching ? 'beginContact' : 'endContact', c);
      }
      if (touching && !sensor) {
        if (bA._sleeping) this.owner.wake(bA);
        if (bB._sleeping) this.owner.wake(bB);
      }
    }
    if (destroyed) this.doomedPending = true;
  }

  /**
   * Stage 3 with workers, to the bit what collideHere does, in three passes:
   *   1. here, in list order (firstPass, at collideBegin): the tests collideHere makes before
   *      colliding (simulated sides, boxes apart: doomed); each pair of polygons and circles
   *      becomes a job for the kernels, each other pair (two capsules, a chain segment) is marked
   *      to be collided here; the jobs' stage opens;
   *   2. every thread: the jobs, each writing its own slot (COMMAND.NARROWPHASE); the calling
   *      thread joins at collideEnd;
   *   3. here, in list order (lastPass, at collideEnd): the other pairs collided, and every slot's
   *      touching change (events), wakes, as collideHere. A contact that was not simulated in pass 1
   *      is taken up here, whole, when a wake earlier in this pass has made it simulated, as
   *      collideHere would have.
   */
  private firstPass(bodies: readonly Body[], bodySlots: number): void {
    const store = this.store;
    const n = this.contacts.length;
    const g = this.geometry!.array;
    if (this.narrowState.length < n) this.narrowState = new Uint8Array(Math.max(n, 2 * this.narrowState.length));
    this.jobs = grown(this.jobs, 4 * n);
    const state = this.narrowState;
    const jobs = this.jobs;
    let jobCount = 0;
    let destroyed = false;
    // Pass 1 reads typed arrays only (the store's copies of the contacts' bodies, proxies, kernels
    // and geometry offsets, the bodies' states and the tree's fat boxes), not the Contact, Body and
    // Shape objects: on the 5,050-box pyramid it took 0.7–0.8 ms a step, and takes 0.3.
    const bodyState = this.markBodies(bodies, bodySlots);
    const bodyA = store.bodyA, bodyB = store.bodyB, proxyA = store.proxyA, proxyB = store.proxyB;
    const kernel = store.kernel, geoA = store.geoA, geoB = store.geoB, flags = store.flags;
    const broadphase = this.broadphase;
    for (let i = 0; i < n; i++) {
      const sides = bodyState[bodyA[i]!]! | bodyState[bodyB[i]!]!;
      if ((sides & SIMULATED_BODY) === 0) {
        state[i] = WAITING;
        continue;
      }
      if (!broadphase.fatBoxesOverlap(proxyA[i]!, proxyB[i]!)) {
        flags[i] |= DOOMED;
        destroyed = true;
        state[i] = SETTLED;
        continue;
      }
      const asleep = (sides & SLEEPING_BODY) !== 0 ? ASLEEP : 0;
      const k = kernel[i]!;
      const ga = geoA[i]!;
      const gb = geoB[i]!;
      if (k >= 0 && ga >= 0 && gb >= 0) {
        jobs[4 * jobCount] = i;
        jobs[4 * jobCount + 1] = ga;
        jobs[4 * jobCount + 2] = gb;
        jobs[4 * jobCount + 3] = k;
        jobCount++;
        state[i] = KERNEL | asleep;
      } else state[i] = HERE | asleep;
    }
    this.firstPassDoomed = destroyed;
    if (jobCount > 0) {
      const pool = this.pool!;
      store.writeViews(pool.views);
      pool.views.geo = g;
      pool.views.njobs = jobs;
      this.narrowphaseStage = pool.openRange(COMMAND.NARROWPHASE, 0, jobCount);
    }
  }

  /** Pass 3 of stage 3 with workers (see firstPass), once the jobs are done. */
  private lastPass(): void {
    const contacts = this.contacts;
    const store = this.store;
    const n = contacts.length;
    const state = this.narrowState;
    let destroyed = this.firstPassDoomed;
    const m = this.manifold;
    let woke = false;
    for (let i = 0; i < n; i++) {
      let st = state[i]!;
      if (st === SETTLED) continue;
      if (st === WAITING) {
        if (!woke) continue;
        const c = contacts[i]!;
        if (!isSimulated(c.bodyA) && !isSimulated(c.bodyB)) continue;
        if (!this.broadphase.testOverlap(c.shapeA.proxyId, c.shapeB.proxyId)) {
          store.flags[i] |= DOOMED;
          destroyed = true;
          continue;
        }
        st = HERE | (c.bodyA._sleeping || c.bodyB._sleeping ? ASLEEP : 0);
      }
      if ((st & HERE) !== 0) {
        const c = contacts[i]!;
        collideShapes(c.shapeA, c.shapeB, m);
        store.update(i, m);
      }
      const flags = store.flags[i]!;
      const sensor = (flags & SENSOR) !== 0;
      const points = store.pointCount[i]!;
      let touching = points > 0;
      if (touching && sensor) touching = (points > 1 ? Math.min(store.separation[2 * i]!, store.separation[2 * i + 1]!) : store.separation[2 * i]!) < 0;
      if (touching !== ((flags & TOUCHING) !== 0)) {
        store.flags[i] = (flags ^ TOUCHING) & ~PRE_SOLVE_FLAGS;
        this.emitContact(touching ? 'beginContact' : 'endContact', contacts[i]!);
      }
      if (touching && !sensor && (st & ASLEEP) !== 0) {
        const c = contacts[i]!;
        if (c.bodyA._sleeping) {
          this.owner.wake(c.bodyA);
          woke = true;
        }
        if (c.bodyB._sleeping) {
          this.owner.wake(c.bodyB);
          woke = true;
        }
      }
    }
    if (destroyed) this.doomedPending = true;
  }

  /**
   * Before workers start: the shapes' geometry goes into a shared pool (every shape of the space
   * now, and each one that joins later), and the narrowphase's jobs into a shared array.
   */
  share(): void {
    if (this.geometry === null) {
      const geometry = new GeometryPool();
      for (const s of this.shapeById.values()) geometry.adopt(s);
      this.geometry = geometry;
      for (const c of this.contacts) this.refreshGeometry(c);
    }
    this.jobs = shareArray(this.jobs);
  }

  /** The arrays of `v` that are the narrowphase's. */
  writeViews(v: StageViews): void {
    v.geo = this.geometry!.array;
    v.njobs = this.jobs;
  }

  /** Collide with these workers from now on (null: alone). share() must have run. */
  attach(pool: WorkerPool | null): void {
    this.pool = pool;
  }

  /** Drop the doomed contacts, keeping the others' order (list and store alike). */
  private compact(): void {
    const contacts = this.contacts;
    const store = this.store;
    let w = 0;
    for (let r = 0; r < contacts.length; r++) {
      const c = contacts[r]!;
      if ((store.flags[r]! & DOOMED) !== 0) {
        store.flags[r] &= ~DOOMED;
        this.detach(c);
        c.index = -1;
        continue;
      }
      if (w !== r) {
        store.moveSlot(r, w);
        c.index = w;
        contacts[w] = c;
      }
      w++;
    }
    contacts.length = w;
    store.truncate(w);
  }

  private addPair(idA: number, idB: number): void {
    // Most reported pairs already have their contact (a proxy moved near its old partners):
    // check that first, before the two shape look-ups.
    const key = pairKey(idA, idB);
    if (this.byPair.has(key)) return;
    const sA = this.shapeById.get(idA);
    const sB = this.shapeById.get(idB);
    if (!sA || !sB) return;
    const bA = sA.body as Body;
    const bB = sB.body as Body;
    if (bA === bB) return;
    if (bA._type !== 'dynamic' && bB._type !== 'dynamic' && !sensesKinematic(sA, sB)) return;
    if (!shouldCollide(sA, sB)) return;
    if (bodiesIgnoreEachOther(bA, bB)) return;
    // Order shapes by id so the pair's orientation never depends on discovery order.
    const store = this.store;
    const c = sA.id < sB.id ? new Contact(sA, sB, bA, bB, key, store) : new Contact(sB, sA, bB, bA, key, store);
    c._kernelPair = kernelPair(c.shapeA, c.shapeB);
    const k = c.index;
    store.proxyA[k] = c.shapeA.proxyId;
    store.proxyB[k] = c.shapeB.proxyId;
    store.kernel[k] = c._kernelPair;
    this.refreshGeometry(c);
    this.contacts.push(c); // at c.index, the store's new last slot
    this.byPair.set(key, c);
    (bA._contacts as Contact[]).push(c);
    (bB._contacts as Contact[]).push(c);
  }

  private emitContact(type: 'beginContact' | 'endContact', c: Contact): void {
    if (!this.events.has(type)) return;
    const e: ContactEvent = { type, shapeA: c.shapeA, shapeB: c.shapeB, bodyA: c.bodyA, bodyB: c.bodyB, contact: c, normal: { x: 0, y: 0 }, points: [], approachSpeed: 0 };
    if (type === 'beginContact') {
      e.normal = c.normal;
      e.points = c.points;
      e.approachSpeed = approachSpeed(c, e.normal, e.points);
      this.begun.push(e);
    }
    this.events.emit(e);
  }

  /**
   * Whether two shapes' bodies never collide with each other though their filters let them: a
   * joint between them with `ignore`, or their touching contact ignored by the pre-solve callback.
   * (Continuous collision asks.)
   */
  keptApart(a: Shape, b: Shape): boolean {
    if (bodiesIgnoreEachOther(a.body as Body, b.body as Body)) return true;
    const c = this.byPair.get(pairKey(a.id, b.id));
    return c !== undefined && c.index >= 0 && (this.store.flags[c.index]! & (PRE_IGNORE | SKIP)) !== 0;
  }

  get preSolve(): PreSolveCallback | null {
    return this.preSolveCallback;
  }
  /** A new callback (or none): every contact's earlier decision is forgotten, and it is asked again. */
  set preSolve(cb: PreSolveCallback | null) {
    this.preSolveCallback = cb;
    const flags = this.store.flags;
    for (let k = 0; k < this.contacts.length; k++) flags[k] = flags[k]! & ~PRE_SOLVE_FLAGS;
    this.store.snapshotMaterials = cb !== null;
  }

  /**
   * Stage 5, before the contacts are prepared: the pre-solve callback (Nape's PreListener) is
   * asked about each touching solid contact the solver would take, in list order, unless its
   * answer while it touches is already known ('accept', 'ignore'). A throw, or an answer that is
   * not a PreSolveFlag, fails the step (the flags are part of the contacts' snapshot).
   */
  runPreSolve(): void {
    const cb = this.preSolveCallback;
    if (cb === null) return;
    const contacts = this.contacts;
    const flags = this.store.flags;
    this.inPreSolve = true;
    try {
      for (let k = 0; k < contacts.length; k++) {
        const f = flags[k]! & ~SKIP;
        flags[k] = f;
        if ((f & (TOUCHING | SENSOR | DOOMED | PRE_IGNORE | PRE_ACCEPT)) !== TOUCHING) continue;
        const c = contacts[k]!;
        if (c.bodyA._solverIndex < 0 && c.bodyB._solverIndex < 0) continue; // asleep, not solved
        const answer = cb(c);
        if (answer === undefined || answer === null || answer === 'acceptOnce') continue;
        if (answer === 'ignoreOnce') flags[k] = f | SKIP;
        else if (answer === 'ignore') flags[k] = f | PRE_IGNORE;
        else if (answer === 'accept') flags[k] = f | PRE_ACCEPT;
        else
          throw new FulcrumInputError(`Space.preSolve returned ${String(answer)} for the contact of Body#${c.bodyA.id} and Body#${c.bodyB.id}: return 'accept', 'ignore', 'acceptOnce', 'ignoreOnce' or nothing`, { owner: 'Space', prop: 'preSolve' });
      }
    } finally {
      this.inPreSolve = false;
    }
  }

  /**
   * After the solver stored this step's impulses (stage 13, contacts): the step's beginContact
   * events take them (the impact), and contacts pushed harder than their bodies'
   * contactForceThreshold raise contactForce. Both only when someone listens.
   */
  contactData(dt: number): void {
    const st = this.store;
    for (const e of this.begun) {
      const k = e.contact.index;
      for (let j = 0; j < e.points.length; j++) {
        e.points[j]!.normalImpulse = st.totalNormalImpulse[2 * k + j]!;
        e.points[j]!.tangentImpulse = st.totalTangentImpulse[2 * k + j]!;
      }
    }
    this.begun.length = 0;
    // What the pre-solve callback kept out of this step applied nothing in it.
    if (this.preSolveCallback !== null) {
      for (let k = 0; k < this.contacts.length; k++) {
        if ((st.flags[k]! & (PRE_IGNORE | SKIP)) === 0) continue;
        st.totalNormalImpulse[2 * k] = st.totalNormalImpulse[2 * k + 1] = 0;
        st.totalTangentImpulse[2 * k] = st.totalTangentImpulse[2 * k + 1] = 0;
      }
    }
    if (!this.events.has('contactForce')) return;
    const contacts = this.contacts;
    for (let k = 0; k < contacts.length; k++) {
      const c = contacts[k]!;
      const threshold = Math.min(c.bodyA._contactForceThreshold, c.bodyB._contactForceThreshold);
      if (threshold === Infinity || !isSolved(st.flags[k]!)) continue;
      const impulse = c.normalImpulse;
      if (impulse > threshold * dt) this.events.emit({ type: 'contactForce', contact: c, shapeA: c.shapeA, shapeB: c.shapeB, bodyA: c.bodyA, bodyB: c.bodyB, normalImpulse: impulse, force: impulse / dt });
    }
  }

  // ------------------------------------------------------------------ destroying contacts

  /** Remove a contact from the map and body lists (not from `contacts`); end event if touching. */
  private detach(c: Contact): void {
    this.byPair.delete(c.key);
    removeFrom(c.bodyA._contacts, c);
    removeFrom(c.bodyB._contacts, c);
    const flags = this.store.flags;
    if ((flags[c.index]! & TOUCHING) !== 0) {
      flags[c.index] &= ~TOUCHING;
      this.emitContact('endContact', c);
    }
  }

  private destroy(c: Contact): void {
    // Wake both sides: something they were resting on may be gone.
    if (c.touching) {
      this.owner.invalidateBody(c.bodyA);
      this.owner.invalidateBody(c.bodyB);
    }
    this.detach(c);
    const contacts = this.contacts;
    const store = this.store;
    const i = c.index;
    const last = contacts.pop()!;
    if (last !== c) {
      contacts[i] = last;
      last.index = i;
      store.moveSlot(contacts.length, i);
    }
    store.truncate(contacts.length);
    c.index = -1;
  }

  /** Destroy every contact of a shape (shape removed, or its filter changed). */
  destroyShapeContacts(shape: Shape): void {
    const body = shape.body as Body | null;
    if (!body) return;
    const list = (body._contacts as Contact[]).filter((c) => c.shapeA === shape || c.shapeB === shape);
    for (const c of list) this.destroy(c);
  }

  /** A constraint with `ignore` set: its bodies' contacts with each other go. */
  destroyIgnoredContacts(c: Constraint): void {
    const bodies = c.bodies;
    for (const b of bodies) {
      for (const k of (b._contacts as Contact[]).slice()) {
        const other = k.bodyA === b ? k.bodyB : k.bodyA;
        if (bodies.includes(other)) this.destroy(k);
      }
    }
  }

  /** Have the broadphase report these bodies' pairs again (an `ignore` was lifted). */
  touchBodies(bodies: readonly Body[]): void {
    for (const b of bodies) {
      for (const s of b._shapes) {
        // A body of another space has a proxy there, not here (#21: a foreign id must not reach this tree).
        if (s.proxyId >= 0 && this.shapeById.get(s.id) === s) this.broadphase.touchProxy(s.proxyId);
      }
    }
  }

  // ------------------------------------------------------------------ proxies

  /** How many of the space's shapes are fluids (Shape.fluidEnabled): the step looks for fluid contacts only when some are. */
  fluidCount = 0;
  /** Whether solidTargets must be counted again (a shape came or went, a filter or a body's type changed). */
  private solidStale = true;
  private solidCount = 0;

  /**
   * How many shapes of static and kinematic bodies can collide with something (not sensors, not
   * inert): continuous collision has nothing to sweep a plain body against when there are none (a
   * rope in the air). Counted again only after a change.
   */
  solidTargets(): number {
    if (this.solidStale) {
      let n = 0;
      for (const s of this.shapeById.values()) if (!s.sensor && !s._inert && (s.body as Body)._type !== 'dynamic') n++;
      this.solidCount = n;
      this.solidStale = false;
    }
    return this.solidCount;
  }

  /**
   * A body's type changed: it may have become, or stopped being, a target of continuous
   * collision; its contacts that no longer pair go (a kinematic body made static leaves the
   * sensor it was in), and its proxies are looked at again for the pairs it now makes (a static
   * body made kinematic inside a sensor, or made dynamic on the ground).
   */
  bodyTypeChanged(body: Body): void {
    this.solidStale = true;
    for (const c of (body._contacts as Contact[]).slice()) {
      if (c.bodyA._type !== 'dynamic' && c.bodyB._type !== 'dynamic' && !sensesKinematic(c.shapeA, c.shapeB)) this.destroy(c);
    }
    this.touchBodies([body]);
  }

  addProxy(body: Body, s: Shape): void {
    if (s.fluidEnabled) this.fluidCount++;
    this.solidStale = true;
    s.updateWorld(body._x, body._y, body._c, body._s);
    s.proxyId = this.broadphase.createProxy(s.aabbMinX, s.aabbMinY, s.aabbMaxX, s.aabbMaxY, s.id);
    this.geometry?.adopt(s);
    s._inert = pairsWithNothing(s);
    if (s._inert) this.broadphase.setInert(s.proxyId, true);
    else body._pairingShapes++;
    this.shapeById.set(s.id, s);
  }

  removeProxy(s: Shape): void {
    if (s.fluidEnabled) this.fluidCount--;
    this.solidStale = true;
    this.destroyShapeContacts(s);
    if (s.proxyId >= 0) {
      this.broadphase.destroyProxy(s.proxyId);
      if (!s._inert) (s.body as Body)._pairingShapes--;
    }
    s.proxyId = -1;
    this.shapeById.delete(s.id);
    this.geometry?.release(s);
  }

  /** A body was moved by hand: its shapes and proxies follow at once, and re-pair. */
  bodyMoved(body: Body): void {
    for (const s of body._shapes) {
      s.updateWorld(body._x, body._y, body._c, body._s);
      this.broadphase.moveProxy(s.proxyId, s.aabbMinX, s.aabbMinY, s.aabbMaxX, s.aabbMaxY);
      this.broadphase.touchProxy(s.proxyId);
    }
    // A shape's geometry may have changed (its radius, or its vertex count, which moves its block
    // in the pool): its contacts' copies in the store follow.
    const store = this.store;
    for (const c of body._contacts as Contact[]) {
      store.radiusA[c.index] = roundingRadius(c.shapeA);
      store.radiusB[c.index] = roundingRadius(c.shapeB);
      this.refreshGeometry(c);
    }
  }

  /** Contact c's shapes' geometry offsets in the store: their blocks' in the pool, or −1 for a shape outside it. */
  private refreshGeometry(c: Contact): void {
    const g = this.geometry;
    this.store.geoA[c.index] = g !== null && c.shapeA._geoPool === g ? c.shapeA._geoAt : -1;
    this.store.geoB[c.index] = g !== null && c.shapeB._geoPool === g ? c.shapeB._geoAt : -1;
  }

  /** A shape's filter or sensor flag changed: re-pair it from scratch. */
  shapeFilterChanged(shape: Shape): void {
    let fluids = 0;
    for (const s of this.shapeById.values()) if (s.fluidEnabled) fluids++;
    this.fluidCount = fluids;
    this.solidStale = true;
    // From an up-to-date world cache, which an inert shape's may not be.
    this.flushInert();
    this.destroyShapeContacts(shape);
    if (shape.proxyId >= 0) {
      const wasInert = shape._inert;
      shape._inert = pairsWithNothing(shape);
      if (wasInert !== shape._inert) (shape.body as Body)._pairingShapes += wasInert ? 1 : -1;
      this.broadphase.setInert(shape.proxyId, shape._inert);
      this.broadphase.touchProxy(shape.proxyId);
    }
  }

  /**
   * Stage 8: refresh a moved body's shapes and proxies. A proxy that must be re-inserted is
   * stretched along the body's motion over `lookahead` seconds (Box2D 2.4's predictive AABBs),
   * by no more than twice the shape's size, so bodies in steady motion are not re-inserted
   * every step.
   */
  syncShapes(b: Body): void {
    // The numbers go to the broadphase in one array: a call with six doubles boxed each of
    // them (about half a megabyte per step in the 5050-box pyramid).
    const box = this.moveBox;
    const lookahead = this.lookahead;
    let stale = false;
    for (const s of b._shapes) {
      // A shape that pairs with nothing matters only to queries and debug draws: refreshed then.
      if (s._inert) {
        stale = true;
        continue;
      }
      s.updateWorld(b._x, b._y, b._c, b._s);
      box[0] = s.aabbMinX;
      box[1] = s.aabbMinY;
      box[2] = s.aabbMaxX;
      box[3] = s.aabbMaxY;
      // The stretch is at most LOOKAHEAD_MAX_SIZES times the shape's size. Why: a longer fat box
      // overlaps more neighbours, and each overlap is a contact tested every step (500 small
      // bodies at 100 m/s made 5,400 contacts instead of 450); a re-insert costs less than those.
      const size = LOOKAHEAD_MAX_SIZES * Math.max(box[2]! - box[0]!, box[3]! - box[1]!);
      box[4] = Math.max(-size, Math.min(size, b._vx * lookahead));
      box[5] = Math.max(-size, Math.min(size, b._vy * lookahead));
      this.broadphase.moveProxyBox(s.proxyId, box);
    }
    if (stale && !b._inertStale) {
      b._inertStale = true;
      this.staleInert.push(b);
    }
  }

  /**
   * How many flushInert calls have found stale bodies: each turns bodies' _inertStale off, which
   * gather's kept choice of bodies (space/steady-gather.ts) reads in SolverBodies.shapeSync.
   */
  inertFlushes = 0;

  /** Bring the inert shapes of bodies that moved up to date (world cache and tree proxy). */
  flushInert(): void {
    const list = this.staleInert;
    if (list.length > 0) this.inertFlushes++;
    for (let i = 0; i < list.length; i++) {
      const b = list[i]!;
      b._inertStale = false;
      if (b._space !== this.owner.space) continue;
      for (const s of b._shapes) {
        if (!s._inert || s.proxyId < 0) continue;
        s.updateWorld(b._x, b._y, b._c, b._s);
        this.broadphase.moveProxy(s.proxyId, s.aabbMinX, s.aabbMinY, s.aabbMaxX, s.aabbMaxY);
      }
    }
    list.length = 0;
  }

  shapeFromProxy(proxy: number): Shape | undefined {
    return this.shapeById.get(this.broadphase.getUserData(proxy));
  }
}

/**
 * Two bodies that are not dynamic pair only when a sensor meets a kinematic body (a goal sees a
 * moving platform pass, a kinematic trigger sees the walls): the pair reports begin and end and
 * is never solved. Two static bodies never pair; two solid non-dynamic shapes never touch.
 */
function sensesKinematic(sA: Shape, sB: Shape): boolean {
  return (sA.sensor || sB.sensor) && ((sA.body as Body)._type === 'kinematic' || (sB.body as Body)._type === 'kinematic');
}

/**
 * The narrowphase kernel that collideShapes takes a pair to (PAIR of collide-kernels.ts), or −1:
 * two rounded polygons (not two 2-vertex cores, which collideCapsules takes), a polygon and a
 * circle either way round, two circles; never a chain segment. A shape's kind and vertex count
 * class never change, so a contact's answer holds.
 */
function kernelPair(a: Shape, b: Shape): number {
  if (a instanceof ChainSegment || b instanceof ChainSegment) return -1;
  const circleA = a.kind === 'circle';
  const circleB = b.kind === 'circle';
  if (circleA) return circleB ? PAIR.CIRCLES : PAIR.CIRCLE_POLYGON;
  if (circleB) return PAIR.POLYGON_CIRCLE;
  return (a as PolyShape).count === 2 && (b as PolyShape).count === 2 ? -1 : PAIR.POLYGONS;
}

function isSimulated(b: Body): boolean {
  return !b._sleeping && b._type !== 'static';
}

function minSeparation(m: Manifold): number {
  let s = Infinity;
  for (let i = 0; i < m.pointCount; i++) s = Math.min(s, m.separation[i]!);
  return s;
}

function bodiesIgnoreEachOther(a: Body, b: Body): boolean {
  for (const c of a._constraints as Constraint[]) {
    if (c._ignore && c.bodies.includes(b)) return true;
  }
  return false;
}

/** Remove the last occurrence (a contact the step appended is last in its bodies' lists). */
function removeLast(list: unknown[], item: unknown): void {
  const i = list.lastIndexOf(item);
  if (i >= 0) list.splice(i, 1);
}

function removeFrom(list: unknown[], item: unknown): void {
  const i = list.indexOf(item);
  if (i >= 0) list.splice(i, 1);
}

/**
 * A shape whose filter rejects every other filter never forms a pair: mask 0 or category 0,
 * unless a positive group (which always collides within the group) overrides the bits.
 */
function pairsWithNothing(s: Shape): boolean {
  const f = s.filter;
  return (f.mask === 0 || f.category === 0) && f.group <= 0;
}

/**
 * How fast contact c's surfaces approach along `normal` at its fastest point (m/s, 0 if they
 * separate everywhere), from its bodies' velocities: v + ω × r at each point, r from the centre of mass.
 */
function approachSpeed(c: Contact, normal: Vec2, points: readonly ContactPoint[]): number {
  const a = c.bodyA;
  const b = c.bodyB;
  const ax = a._x + a._c * a._lcx - a._s * a._lcy;
  const ay = a._y + a._s * a._lcx + a._c * a._lcy;
  const bx = b._x + b._c * b._lcx - b._s * b._lcy;
  const by = b._y + b._s * b._lcx + b._c * b._lcy;
  let fastest = 0;
  for (const p of points) {
    const dvx = b._vx - b._w * (p.y - by) - (a._vx - a._w * (p.y - ay));
    const dvy = b._vy + b._w * (p.x - bx) - (a._vy + a._w * (p.x - ax));
    const closing = -(dvx * normal.x + dvy * normal.y);
    if (closing > fastest) fastest = closing;
  }
  return fastest;
}
