/**
 * ConstraintController: the engine side of one joint or constraint component.
 *
 * - The constraint is created once per mount, without bodies, and lives as long as the
 *   component: every prop is applied in place through the engine's setters (the joint limits in
 *   an order the engine accepts). Only a spec's identity props (a UserConstraint's
 *   `dimensions`) build a new one, and the ref follows.
 * - Bodies are references (refs or Body objects) resolved against the world's space. The
 *   constraint is in the space exactly while every body is live there: it waits, outside the
 *   space, for a body that has not mounted yet (re-checked when any <Body> mounts and before
 *   every step), and leaves the space the moment one of its bodies unmounts, so the engine never
 *   steps a constraint with a missing body.
 * - A constraint that broke with `removeOnBreak` stays out of the space until remounted.
 */
import type { Body, Constraint, ConstraintBreakEvent, DebugDraw, Space } from '@fulcrum/physics';
import type { LimitDrawer, LimitedJoint } from '../debug/limits.js';
import type { Ref } from 'react';
import { resolveBody, type BodyRef } from './body-ref.js';
import { validateWith } from './errors.js';
import type { ConstraintEventHandlers } from './event-router.js';
import type { PhysicsWorld } from './physics-world.js';
import { changedKeys } from './props.js';
import { RefSlot } from './ref-slot.js';
import { retire } from './retire.js';

export type OptionValues = Record<string, unknown>;

/** How a constraint's bodies are named and assigned. */
export interface BodyBinding<C extends Constraint> {
  /** The body references in the props, in a fixed order. */
  refs(props: OptionValues): BodyRef[];
  /** Give the constraint these bodies (null where unresolved); true when anything changed. */
  assign(c: C, bodies: readonly (Body | null)[], props: OptionValues): boolean;
}

export interface ConstraintSpec<C extends Constraint> {
  readonly component: string;
  /** Owner names the engine uses in its messages. */
  readonly owners: readonly string[];
  /** Props applied through setters (`userData` by assignment). */
  readonly keys: readonly string[];
  /** Props that can only be given at construction: changing one builds a new constraint. */
  readonly identityKeys?: readonly string[];
  /** Props applied by `applyExtra` (e.g. a symbolic constraint's scalars). */
  readonly extraKeys?: readonly string[];
  create(options: OptionValues): C;
  readonly bodies: BodyBinding<C>;
  applyExtra?(c: C, prev: OptionValues, next: OptionValues): void;
  /** How the debug view draws the joint's limits, if it has any. */
  readonly limits?: LimitDrawer;
  /** Names the prop of an error the engine's message format does not cover. */
  propOf?(e: Error): string | null;
}

export interface ValidatedConstraint {
  options: OptionValues;
  /** A detached constraint built from the options: every property at its target value. */
  trial: Constraint;
}

/** Validate constraint props during render (throws FulcrumPropError). */
export function validateConstraint<C extends Constraint>(spec: ConstraintSpec<C>, props: object, options: OptionValues): ValidatedConstraint {
  return { options, trial: validateWith(spec.component, props, spec.owners, () => spec.create(options), spec.propOf) };
}

/** Apply the setter props that changed from `prev` to `next`. */
export function applyConstraintOptions(c: Constraint, keys: readonly string[], prev: OptionValues, v: ValidatedConstraint): boolean {
  const changed = changedKeys(keys, prev, v.options);
  if (changed.length === 0) return false;
  const target = c as unknown as OptionValues;
  const trial = v.trial as unknown as OptionValues;
  const order = [...changed];
  // Limits are checked against each other: move the one that keeps min ≤ max valid first.
  if (changed.includes('jointMin') && changed.includes('jointMax') && (trial.jointMin as number) > (target.jointMax as number)) {
    order.splice(order.indexOf('jointMax'), 1);
    order.splice(order.indexOf('jointMin'), 0, 'jointMax');
  }
  for (const k of order) {
    if (k === 'userData') c.userData = v.options.userData;
    else target[k] = trial[k];
  }
  return true;
}

export class ConstraintController<C extends Constraint> {
  constraint: C | null = null;
  private latest: ValidatedConstraint | null = null;
  private refs: BodyRef[] = [];
  private props: OptionValues = {};
  private applied: OptionValues = {};
  private broken = false;
  private unwatch: (() => void) | null = null;
  private readonly refSlot = new RefSlot<C>();
  private readonly routed = { current: { onBreak: (e: ConstraintBreakEvent) => this.broke(e) } };
  private readonly pendingResolve = (): void => this.resolve(false);
  private readonly watchResolve = (): void => this.resolve(false);
  private readonly limitCache = new Float64Array(6);
  private unoverlay: (() => void) | null = null;
  private readonly drawLimits = (sink: DebugDraw): void => {
    const c = this.constraint;
    if (c !== null && c.space !== null && c.active) this.spec.limits!.draw(c as unknown as LimitedJoint, this.limitCache, sink);
  };

  constructor(
    private readonly world: PhysicsWorld,
    private readonly spec: ConstraintSpec<C>,
    private readonly handlers: { readonly current: ConstraintEventHandlers },
  ) {}

  /** The latest committed props (set in an insertion effect, before commit reads them). */
  setProps(v: ValidatedConstraint, props: OptionValues): void {
    this.latest = v;
    this.props = props;
    this.refs = this.spec.bodies.refs(props);
  }

  /** After every render: apply props, resolve bodies, hand out the ref. */
  commit(ref: Ref<C | null> | undefined): void {
    const spec = this.spec;
    const v = this.latest!;
    if (this.constraint && spec.identityKeys && changedKeys(spec.identityKeys, this.applied, v.options).length > 0) this.destroy();
    let changed = false;
    if (this.constraint === null) {
      this.constraint = spec.create(v.options);
      this.broken = false;
      this.world.events.setConstraint(this.constraint, this.routed);
      changed = true;
    } else {
      changed = applyConstraintOptions(this.constraint, spec.keys, this.applied, v);
      if (spec.applyExtra && spec.extraKeys && changedKeys(spec.extraKeys, this.applied, v.options).length > 0) {
        spec.applyExtra(this.constraint, this.applied, v.options);
        changed = true;
      }
    }
    this.applied = v.options;
    if (spec.limits) {
      if (changed) spec.limits.cache(v.trial, this.limitCache);
      this.unoverlay ??= this.world.overlays.add(this.drawLimits);
    }
    this.unwatch ??= this.world.watchBodies(this.watchResolve);
    this.resolve(true);
    this.refSlot.set(ref, this.constraint);
    if (changed) this.world.requestFrame();
  }

  /** Unmount: leave the space, retire the constraint, clear the ref. */
  release(): void {
    this.unwatch?.();
    this.unwatch = null;
    this.unoverlay?.();
    this.unoverlay = null;
    this.world.removePending(this.pendingResolve);
    this.refSlot.clear();
    this.destroy();
  }

  private destroy(): void {
    const c = this.constraint;
    if (c === null) return;
    this.constraint = null;
    const space = c.space as Space | null;
    if (space) space.removeConstraint(c);
    this.world.events.deleteConstraint(c);
    retire(c, c.label, `<${this.spec.component}>`);
    this.world.requestFrame();
  }

  /**
   * Put the constraint in the space when all its bodies are live there, out of it otherwise.
   * `strict` (from a commit) reports bad body combinations as prop errors; before a step they
   * just keep the constraint waiting.
   */
  private resolve(strict: boolean): void {
    const c = this.constraint;
    if (c === null) return;
    const world = this.world;
    const space = world.space;
    const bodies = this.refs.map((r) => resolveBody(r, space));
    const ready = !this.broken && bodies.every((b) => b !== null);
    if (!ready) {
      if (c.space === space) space.removeConstraint(c);
      this.assign(c, bodies, strict);
      if (!this.broken) world.addPending(this.pendingResolve);
      return;
    }
    world.removePending(this.pendingResolve);
    if (!this.assign(c, bodies, strict)) return;
    if (c.space !== space) {
      (c.space as Space | null)?.removeConstraint(c);
      space.addConstraint(c);
      world.requestFrame();
    }
  }

  private assign(c: C, bodies: (Body | null)[], strict: boolean): boolean {
    try {
      validateWith(this.spec.component, this.props, this.spec.owners, () => this.spec.bodies.assign(c, bodies, this.props), this.spec.propOf);
      return true;
    } catch (e) {
      if (strict) throw e;
      return false;
    }
  }

  private broke(e: ConstraintBreakEvent): void {
    if (e.constraint !== this.constraint) return;
    if (e.constraint.removeOnBreak) this.broken = true;
    this.handlers.current.onBreak?.(e);
  }
}

/** Bodies in named slots (`body1`, `body2`, ...), as the built-in joints have them. */
export function slotBinding<C extends Constraint>(names: readonly string[]): BodyBinding<C> {
  return {
    refs: (props) => names.map((n) => props[n] as BodyRef),
    assign(c, bodies) {
      const t = c as unknown as Record<string, Body | null>;
      const changed = names.filter((n, i) => t[n] !== bodies[i]);
      if (changed.length === 0) return false;
      // Clear first, so that swapping two bodies never has one body in two slots on the way.
      for (const n of changed) if (t[n] !== null) t[n] = null;
      names.forEach((n, i) => {
        const b = bodies[i];
        if (changed.includes(n) && b) t[n] = b;
      });
      return true;
    },
  };
}

