/**
 * PreSolveRouter: the one engine `space.preSolve` a <Physics> installs, shared by every
 * usePreSolve callback and by the shapes' contact rules (`oneWay`, `tangentSpeed`).
 *
 * The engine has a single pre-solve callback per space (Nape's PreListener), so the world owns
 * it: it is installed while anything is registered, and removed when nothing is, because a space
 * with a callback pays for a snapshot of its contacts' materials on every step.
 *
 * For each touching contact the engine asks about, the shapes' rules run first (a one-way shape
 * ignores what comes from its closed side; a conveyor sets the contact's tangentSpeed), then the
 * usePreSolve callbacks in mount order, every one of them. Their answers combine so that
 * ignoring wins: any 'ignore' gives 'ignore' (the engine then leaves the contact out while it
 * touches), else any 'ignoreOnce' gives 'ignoreOnce', else the contact is kept for this step.
 * 'accept' is never passed on: with several askers sharing one engine callback, none may stop the
 * others being asked on the next step, and a rule that changes must be seen at once.
 */
import { FulcrumInputError } from '@fulcrum/physics';
import type { Body, Contact, PreSolveCallback, PreSolveFlag, Shape, Space } from '@fulcrum/physics';
import { CowList } from './cow-list.js';
import { sameValue } from './props.js';

/** What a shape component asks of its contacts (from its `oneWay` and `tangentSpeed` props). */
export interface ContactRule {
  /** The side that collides, a unit vector in the body's frame; null: both sides. */
  readonly oneWay: { readonly x: number; readonly y: number } | null;
  /** Conveyor speed, m/s: the surface moves along the shape's local +x on its top (0: none). */
  readonly tangentSpeed: number;
}

/** Whoever made a set of engine shapes (a shape component), with its current rule. */
export interface RuleOwner {
  rule: ContactRule | null;
}

export class PreSolveRouter {
  private readonly callbacks = new CowList<{ readonly current: PreSolveCallback }>();
  /** Every engine shape a shape component made, to its component (weak: shapes come and go). */
  private readonly owners = new WeakMap<Shape, RuleOwner>();
  /** Owners with a rule. */
  private readonly ruled = new Set<RuleOwner>();
  private space: Space | null = null;
  /** The function installed as the space's preSolve (one per router, so it can be recognised). */
  private readonly run: PreSolveCallback = (contact) => this.decide(contact);

  /** How many usePreSolve callbacks and ruled shape components are registered. */
  get size(): number {
    return this.callbacks.size + this.ruled.size;
  }

  /** Register a usePreSolve callback (after those already registered); returns its removal. */
  add(callback: { readonly current: PreSolveCallback }): () => void {
    this.callbacks.add(callback);
    this.sync();
    return () => {
      this.callbacks.remove(callback);
      this.sync();
    };
  }

  /** Record that `owner` made `shape`, so that the shape's contacts follow the owner's rule. */
  claim(shape: Shape, owner: RuleOwner): void {
    this.owners.set(shape, owner);
  }

  /**
   * Set `owner`'s rule (null: none). When its shapes `existed` before (the rule of live shapes
   * changes), the bodies they are on wake (a sleeping contact is not asked) and their touching
   * contacts take the new tangentSpeed at once (it persists on a contact, and would otherwise
   * outlive the rule that set it). That looks through the space's bodies: a prop change, not a
   * per-frame cost.
   */
  setRule(owner: RuleOwner, rule: ContactRule | null, existed: boolean): void {
    if (sameValue(owner.rule, rule)) return;
    owner.rule = rule;
    if (rule) this.ruled.add(owner);
    else this.ruled.delete(owner);
    this.sync();
    const space = this.space;
    if (space === null || !existed) return;
    for (const body of space.bodies) {
      if (!body.shapes.some((s) => this.owners.get(s) === owner)) continue;
      body.invalidate();
      for (const c of body.contacts) {
        if (c.isSensor || (this.owners.get(c.shapeA) !== owner && this.owners.get(c.shapeB) !== owner)) continue;
        c.tangentSpeed = this.tangentSpeedOf(c);
      }
    }
  }

  /** Drop `owner` (its component unmounted). */
  release(owner: RuleOwner): void {
    owner.rule = null;
    if (this.ruled.delete(owner)) this.sync();
  }

  /** Serve `space` (from <Physics>'s mount effect); returns the function that stops. */
  attach(space: Space): () => void {
    this.space = space;
    this.sync();
    return () => {
      if (space.preSolve === this.run) space.preSolve = null;
      if (this.space === space) this.space = null;
    };
  }

  /** Install the engine callback while anything is registered; remove it when nothing is. */
  private sync(): void {
    const space = this.space;
    if (space === null) return;
    const want = this.size > 0;
    if (want && space.preSolve !== this.run) space.preSolve = this.run;
    else if (!want && space.preSolve === this.run) space.preSolve = null;
  }

  private ruleOf(shape: Shape): ContactRule | null {
    return this.owners.get(shape)?.rule ?? null;
  }

  /** The conveyor speeds of the contact's two shapes, summed (each drives its own surface). */
  private tangentSpeedOf(c: Contact): number {
    return (this.ruleOf(c.shapeA)?.tangentSpeed ?? 0) + (this.ruleOf(c.shapeB)?.tangentSpeed ?? 0);
  }

  private decide(contact: Contact): PreSolveFlag | undefined {
    let ignore = 0; // 0: keep, 1: ignoreOnce, 2: ignore
    const ra = this.ruleOf(contact.shapeA);
    const rb = this.ruleOf(contact.shapeB);
    if (ra !== null || rb !== null) {
      if ((ra?.oneWay && !fromCollidingSide(contact, contact.bodyA, ra.oneWay, 1)) || (rb?.oneWay && !fromCollidingSide(contact, contact.bodyB, rb.oneWay, -1))) ignore = 2;
      // The engine's tangentSpeed means the same whichever shape is shape1 (a positive speed
      // carries a box on a horizontal belt to +x), so each conveyor adds its own speed.
      contact.tangentSpeed = (ra?.tangentSpeed ?? 0) + (rb?.tangentSpeed ?? 0);
    }
    const list = this.callbacks.items;
    for (let i = 0; i < list.length; i++) {
      const answer = list[i]!.current(contact);
      if (answer === undefined || answer === null || answer === 'accept' || answer === 'acceptOnce') continue;
      if (answer === 'ignore') ignore = 2;
      else if (answer === 'ignoreOnce') ignore = Math.max(ignore, 1);
      else {
        throw new FulcrumInputError(
          `usePreSolve callback returned ${String(answer)} for the contact of Body#${contact.bodyA.id} and Body#${contact.bodyB.id}: return 'accept', 'ignore', 'acceptOnce', 'ignoreOnce' or nothing`,
          { owner: 'usePreSolve', prop: 'callback' },
        );
      }
    }
    return ignore === 2 ? 'ignore' : ignore === 1 ? 'ignoreOnce' : undefined;
  }
}

/**
 * Whether the other shape of `contact` meets the ruled one (on `body`) from the side that
 * collides: the contact normal, turned to point away from the ruled shape (`sign` −1 when it is
 * shape2, as the engine's normal points from shape1 to shape2), has a positive component along
 * the colliding side's direction (`dir`, body frame, turned with the body).
 */
function fromCollidingSide(contact: Contact, body: Body, dir: { readonly x: number; readonly y: number }, sign: number): boolean {
  const n = contact.normal;
  const a = body.rotation;
  const c = Math.cos(a);
  const s = Math.sin(a);
  const dx = c * dir.x - s * dir.y;
  const dy = s * dir.x + c * dir.y;
  return sign * (n.x * dx + n.y * dy) > 0;
}
