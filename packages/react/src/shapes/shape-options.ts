/**
 * Shape props → engine shapes: validation during render, and in-place updates.
 *
 * Most props are engine shape options and are validated by the engine on trial shapes. Three are
 * this package's own: `fluid` (the engine's sensor + fluidEnabled + fluidProperties), and
 * `oneWay` and `tangentSpeed`, which are contact rules run by the world's pre-solve callback
 * (core/pre-solve-router.ts) rather than shape options.
 */
import { FulcrumInputError } from '@fulcrum/physics';
import type { Shape } from '@fulcrum/physics';
import { propFail, validateWith } from '../core/errors.js';
import type { ContactRule } from '../core/pre-solve-router.js';
import { changedKeys, pick, sameValue } from '../core/props.js';
import type { ShapeKind, ShapeOptionValues, ShapePlan } from './shape-kinds.js';

/** Every common prop a shape component reads. */
export const COMMON_KEYS = ['offset', 'angle', 'density', 'friction', 'restitution', 'filter', 'sensor', 'userData', 'fluid', 'oneWay', 'tangentSpeed'] as const;
/** The common props that are engine options as they are. */
const ENGINE_COMMON = ['offset', 'angle', 'density', 'friction', 'restitution', 'filter', 'sensor', 'userData'] as const;
/** The engine's options for a fluid, from `fluid`. */
const FLUID_OPTIONS = ['fluidEnabled', 'fluidProperties'] as const;
/** Set through the engine's setters when changed (sensor and the fluid go in their own order). */
const SETTABLE = ['offset', 'angle', 'density', 'friction', 'restitution', 'filter'] as const;

/** A shape component's props, validated. */
export interface ValidatedShape {
  /** The engine options (the kind's own and the common ones, `fluid` translated). */
  options: ShapeOptionValues;
  /** The engine shapes they stand for, on trial. */
  plan: ShapePlan;
  /** The contact rule of `oneWay` and `tangentSpeed`, or null. */
  rule: ContactRule | null;
}

/** Validate a shape component's props (kind keys and COMMON_KEYS); throws a FulcrumPropError. */
export function validateShape(kind: ShapeKind, props: ShapeOptionValues): ValidatedShape {
  const c = kind.component;
  for (const [key, why] of Object.entries(kind.refuses ?? {})) if (props[key] !== undefined) propFail(c, key, props[key], why);
  const rule = contactRule(c, props);
  const options = pick(props, [...kind.keys, ...ENGINE_COMMON]) as ShapeOptionValues;
  const { fluid } = props;
  if (fluid !== undefined) {
    if (fluid === null || typeof fluid !== 'object' || Array.isArray(fluid)) propFail(c, 'fluid', fluid, 'must be an object { density?, viscosity? }');
    const unknown = Object.keys(fluid).find((k) => k !== 'density' && k !== 'viscosity');
    if (unknown !== undefined) propFail(c, 'fluid', fluid, `has an unknown property '${unknown}' (it takes density and viscosity)`);
    if (props.sensor === false) propFail(c, 'sensor', false, 'must be true or left out on a shape with `fluid`: a fluid is a sensor');
    options.sensor = true;
    options.fluidEnabled = true;
    options.fluidProperties = fluid;
  }
  // The engine names its fluid options; the prop is `fluid`.
  const fluidProp = (e: Error) => (e instanceof FulcrumInputError && /^fluid/.test(e.prop ?? '') ? 'fluid' : null);
  const plan = validateWith(c, props, kind.owners, () => kind.plan(options), fluidProp);
  return { options, plan, rule };
}

/** The contact rule of the `oneWay` and `tangentSpeed` props (null: neither has an effect). */
function contactRule(component: string, props: ShapeOptionValues): ContactRule | null {
  const { oneWay, tangentSpeed } = props;
  if (tangentSpeed !== undefined && (typeof tangentSpeed !== 'number' || !Number.isFinite(tangentSpeed))) {
    propFail(component, 'tangentSpeed', tangentSpeed, 'must be a finite number (m/s)');
  }
  let dir: { x: number; y: number } | null = null;
  if (oneWay === true) {
    // The shape's local +y, in the body's frame. A bad angle is the engine's to report.
    const a = typeof props.angle === 'number' ? props.angle : 0;
    dir = { x: -Math.sin(a), y: Math.cos(a) };
  } else if (oneWay !== undefined && oneWay !== false) {
    const v = toXY(oneWay);
    const len = v === null ? 0 : Math.hypot(v.x, v.y);
    if (v === null || !(len > 0) || !Number.isFinite(len)) {
      propFail(component, 'oneWay', oneWay, 'must be true, false, or the colliding side as a direction [x, y] in the body frame (finite, not zero)');
    }
    dir = { x: v.x / len, y: v.y / len };
  }
  const speed = (tangentSpeed as number | undefined) ?? 0;
  return dir === null && speed === 0 ? null : { oneWay: dir, tangentSpeed: speed };
}

function toXY(v: unknown): { x: number; y: number } | null {
  if (Array.isArray(v)) return v.length === 2 && typeof v[0] === 'number' && typeof v[1] === 'number' ? { x: v[0], y: v[1] } : null;
  if (v !== null && typeof v === 'object') {
    const o = v as { x?: unknown; y?: unknown };
    if (typeof o.x === 'number' && typeof o.y === 'number') return { x: o.x, y: o.y };
  }
  return null;
}

type Settable = Record<string, unknown>;

/**
 * Update `shape` (one piece) from the options `prev` to `next`, through the engine's setters;
 * `trial` is the piece on trial (every target value). Only what changed is set: a material or
 * filter setter ends the shape's contacts.
 */
export function applyShapeOptions(kind: ShapeKind, shape: Shape, prev: ShapeOptionValues, next: ShapeOptionValues, trial: Shape): void {
  const geometry = changedKeys(kind.keys, prev, next);
  if (geometry.length > 0) kind.applyGeometry(shape, geometry, next, trial);
  const common = changedKeys([...ENGINE_COMMON, ...FLUID_OPTIONS], prev, next);
  if (common.length === 0) return;
  const s = shape as unknown as Settable;
  const t = trial as unknown as Settable;
  for (const k of SETTABLE) if (common.includes(k)) s[k] = t[k];
  // In an order the engine accepts at every step: a fluid must be a sensor.
  if (shape.fluidEnabled && !trial.fluidEnabled) shape.fluidEnabled = false;
  if (shape.sensor !== trial.sensor) shape.sensor = trial.sensor;
  if (!sameValue(shape.fluidProperties, trial.fluidProperties)) shape.fluidProperties = trial.fluidProperties;
  if (!shape.fluidEnabled && trial.fluidEnabled) shape.fluidEnabled = true;
  if (common.includes('userData')) shape.userData = next.userData;
}
