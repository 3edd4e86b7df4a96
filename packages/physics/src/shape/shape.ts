/**
 * Shape base class: the material and filtering properties every shape shares, and the
 * contract each concrete shape (Circle, Polygon, Capsule, Segment) implements.
 *
 * Geometry lives in two frames:
 *  - body-local: the shape's geometry after its own `offset`/`angle` are applied. Used for mass.
 *  - world: refreshed by `updateWorld(x, y, c, s)` from the body's transform (origin x, y and
 *    rotation cos c / sin s). The narrowphase, queries and AABBs read only the world cache,
 *    so no transform is recomputed per contact pair.
 */
import { DEFAULT_FILTER, type CollisionFilter } from '../collision/filter.js';
import { checkBoolean, checkFinite, checkInteger, checkNonNegative, checkOptionKeys, checkPositive, checkVec2, fail, optionKeys } from '../util/validate.js';
import type { Vec2, Vec2Like } from '../math/vec2.js';
import type { GeometryPool } from '../collision/geometry-pool.js';

export type ShapeKind = 'circle' | 'polygon' | 'capsule' | 'segment';

/** Numeric kind index, used by the collision dispatch table. Order matters: see collide.ts. */
export const SHAPE_KIND_INDEX: Record<ShapeKind, number> = { circle: 0, capsule: 1, segment: 2, polygon: 3 };

export interface ShapeOptions {
  /** Body-local offset of the shape. Default (0, 0). */
  offset?: Vec2Like;
  /** Body-local rotation of the shape, radians. Default 0. */
  angle?: number;
  /** kg/m². Must be > 0. Default 1. */
  density?: number;
  /** Coulomb friction coefficient ≥ 0. Default 0.6. */
  friction?: number;
  /** Restitution (bounciness) ≥ 0. Default 0. */
  restitution?: number;
  /** Collision filter; missing fields take the defaults. */
  filter?: Partial<CollisionFilter>;
  /** A sensor reports begin/end contact events but produces no collision response. */
  sensor?: boolean;
  /**
   * true: the shape is a fluid (Nape's fluidEnabled): every dynamic body's solid shape in it is
   * buoyed up by the weight of the fluid it displaces and slowed by its viscosity. A fluid shape
   * must be a sensor. Default false.
   */
  fluidEnabled?: boolean;
  /** The fluid's density (kg/m², default 1) and viscosity (default 1), as Nape's FluidProperties. */
  fluidProperties?: Partial<FluidProperties>;
  userData?: unknown;
}

/**
 * Nape's FluidProperties. A body's shape overlapping the fluid over an area A (exactly, whatever
 * the two shapes: collision/submerged.ts), with its centroid at c, takes each step:
 *   buoyancy  −density·A·gravity, at c;
 *   drag      −viscosity·A·v (v its velocity; the fluid is taken to be at rest), and a turning
 *             drag −viscosity·A·(A/2π + |c − its centre of mass|²)·ω,
 * the drags applied implicitly, as linearDrag and angularDrag are, so that they are stable for any
 * viscosity. A body denser than the fluid, fully in it, sinks at (ρ_body − density)·g/viscosity.
 */
export interface FluidProperties {
  density: number;
  viscosity: number;
}

/** Mass properties of a shape in body-local coordinates. */
export interface MassData {
  mass: number;
  /** Centre of mass, body-local. */
  cx: number;
  cy: number;
  /** Rotational inertia about the body-local origin (not the centroid). */
  inertia: number;
}

/** What a shape tells its body when it changes; implemented by Body. */
export interface ShapeOwner {
  /** Throws if the shape may not change now (its space is stepping); called before anything is assigned. */
  _assertShapeMutable(what: string): void;
  /** Geometry or density changed: recompute mass, refresh the broadphase, wake. */
  _shapeGeometryChanged(shape: Shape): void;
  /** Material/filter changed: wake so the change takes effect. */
  _shapeMaterialChanged(shape: Shape): void;
}

export interface RayCastOutput {
  fraction: number;
  normalX: number;
  normalY: number;
}

let nextShapeId = 1;

/** A shape's geometry block before it has one. */
const NO_GEOMETRY = new Float64Array(0);

export abstract class Shape {
  abstract readonly kind: ShapeKind;
  /** Creation-order id; used for deterministic pair keys (never object identity). */
  readonly id: number = nextShapeId++;

  /** The body this shape is attached to, or null. */
  body: ShapeOwner | null = null;

  /** World-space AABB, refreshed by `computeAABB` after `updateWorld`. */
  /**
   * @internal Pairs with nothing (see the space's pairsWithNothing): the space refreshes its
   * world cache and proxy lazily, only before a query or a debug draw needs them.
   */
  _inert = false;
  aabbMinX = 0;
  aabbMinY = 0;
  aabbMaxX = 0;
  aabbMaxY = 0;
  /** Broadphase proxy id, −1 while the shape is not in a space. Owned by the space. */
  proxyId = -1;

  private _offsetX = 0;
  private _offsetY = 0;
  private _angle = 0;
  private _density = 1;
  private _friction = 0.6;
  private _restitution = 0;
  private _sensor = false;
  private _fluidEnabled = false;
  /** @internal (read by the step without a copy) */ _fluidDensity = 1;
  /** @internal */ _fluidViscosity = 1;
  private _category = DEFAULT_FILTER.category;
  private _mask = DEFAULT_FILTER.mask;
  private _group = DEFAULT_FILTER.group;
  userData: unknown = undefined;

  /** Name used in error messages: "Circle", "Polygon", ... */
  protected abstract get typeName(): string;

  /** The keys this kind's options may have (SHAPE_OPTION_KEYS and its own): any other is an error. */
  protected abstract get optionKeys(): readonly string[];

  /**
   * Validate and apply the common options. Concrete constructors call this after validating
   * their own geometry, and then call `rebuildLocal()`.
   */
  protected applyCommonOptions(opts: ShapeOptions): void {
    const owner = this.typeName;
    checkOptionKeys(owner, opts, this.optionKeys);
    // Validate everything first so nothing is half-applied.
    const offset = opts.offset !== undefined ? checkVec2(owner, 'offset', opts.offset) : { x: 0, y: 0 };
    const angle = opts.angle !== undefined ? checkFinite(owner, 'angle', opts.angle) : 0;
    const density = opts.density !== undefined ? checkPositive(owner, 'density', opts.density) : 1;
    const friction = opts.friction !== undefined ? checkNonNegative(owner, 'friction', opts.friction) : 0.6;
    const restitution = opts.restitution !== undefined ? checkNonNegative(owner, 'restitution', opts.restitution) : 0;
    const sensor = opts.sensor !== undefined ? checkBoolean(owner, 'sensor', opts.sensor) : false;
    const fluidEnabled = opts.fluidEnabled !== undefined ? checkBoolean(owner, 'fluidEnabled', opts.fluidEnabled) : false;
    if (fluidEnabled && !sensor) fail(owner, 'fluidEnabled', true, 'needs sensor: true (a fluid is a sensor that buoys what is in it)');
    const fluid = checkFluidProperties(owner, opts.fluidProperties, 1, 1);
    const { category, mask, group } = checkFilter(owner, opts.filter ?? {}, DEFAULT_FILTER);
    this._offsetX = offset.x;
    this._offsetY = offset.y;
    this._angle = angle;
    this._density = density;
    this._friction = friction;
    this._restitution = restitution;
    this._sensor = sensor;
    this._fluidEnabled = fluidEnabled;
    this._fluidDensity = fluid.density;
    this._fluidViscosity = fluid.viscosity;
    this._category = category;
    this._mask = mask;
    this._group = group;
    this.userData = opts.userData;
  }

  get offset(): Vec2 {
    return { x: this._offsetX, y: this._offsetY };
  }
  set offset(v: Vec2Like) {
    this.beforeChange('offset');
    const o = checkVec2(this.typeName, 'offset', v);
    this._offsetX = o.x;
    this._offsetY = o.y;
    this.geometryChanged();
  }
  get offsetX(): number {
    return this._offsetX;
  }
  get offsetY(): number {
    return this._offsetY;
  }

  get angle(): number {
    return this._angle;
  }
  set angle(v: number) {
    this.beforeChange('angle');
    this._angle = checkFinite(this.typeName, 'angle', v);
    this.geometryChanged();
  }

  get density(): number {
    return this._density;
  }
  set density(v: number) {
    this.beforeChange('density');
    this._density = checkPositive(this.typeName, 'density', v);
    this.body?._shapeGeometryChanged(this);
  }

  get friction(): number {
    return this._friction;
  }
  set friction(v: number) {
    this.beforeChange('friction');
    this._friction = checkNonNegative(this.typeName, 'friction', v);
    this.body?._shapeMaterialChanged(this);
  }

  get restitution(): number {
    return this._restitution;
  }
  set restitution(v: number) {
    this.beforeChange('restitution');
    this._restitution = checkNonNegative(this.typeName, 'restitution', v);
    this.body?._shapeMaterialChanged(this);
  }

  get sensor(): boolean {
    return this._sensor;
  }
  set sensor(v: boolean) {
    this.beforeChange('sensor');
    const sensor = checkBoolean(this.typeName, 'sensor', v);
    if (!sensor && this._fluidEnabled) fail(this.typeName, 'sensor', v, 'must stay true while fluidEnabled is (set fluidEnabled false first)');
    this._sensor = sensor;
    this.body?._shapeMaterialChanged(this);
  }

  /** See ShapeOptions.fluidEnabled. */
  get fluidEnabled(): boolean {
    return this._fluidEnabled;
  }
  set fluidEnabled(v: boolean) {
    this.beforeChange('fluidEnabled');
    const on = checkBoolean(this.typeName, 'fluidEnabled', v);
    if (on && !this._sensor) fail(this.typeName, 'fluidEnabled', v, 'needs sensor: true (a fluid is a sensor that buoys what is in it)');
    this._fluidEnabled = on;
    this.body?._shapeMaterialChanged(this);
  }

  /** A copy of the fluid's properties; assign a (partial) object to change them. */
  get fluidProperties(): FluidProperties {
    return { density: this._fluidDensity, viscosity: this._fluidViscosity };
  }
  set fluidProperties(v: Partial<FluidProperties>) {
    this.beforeChange('fluidProperties');
    const f = checkFluidProperties(this.typeName, v, this._fluidDensity, this._fluidViscosity);
    this._fluidDensity = f.density;
    this._fluidViscosity = f.viscosity;
    this.body?._shapeMaterialChanged(this);
  }

  /** A copy of the filter; assign a (partial) filter object to change it. */
  get filter(): CollisionFilter {
    return { category: this._category, mask: this._mask, group: this._group };
  }
  set filter(f: Partial<CollisionFilter>) {
    this.beforeChange('filter');
    const { category, mask, group } = checkFilter(this.typeName, f, this.filter);
    this._category = category;
    this._mask = mask;
    this._group = group;
    this.body?._shapeMaterialChanged(this);
  }
  /** Filter fields without allocation, for the broadphase pair test. */
  get category(): number {
    return this._category;
  }
  get mask(): number {
    return this._mask;
  }
  get group(): number {
    return this._group;
  }

  /**
   * Call first in every setter: a shape of a stepping space (a change from inside a constraint
   * hook) is rejected before anything is assigned, so nothing is half-applied.
   */
  protected beforeChange(prop: string): void {
    this.body?._assertShapeMutable(`${this.typeName}.${prop}`);
  }

  /** Call after any geometry change: rebuild the body-local cache and tell the body. */
  protected geometryChanged(): void {
    this.rebuildLocal();
    this.body?._shapeGeometryChanged(this);
  }

  /** Rebuild body-local geometry from the shape's own parameters, offset and angle. */
  protected abstract rebuildLocal(): void;

  /**
   * @internal The geometry block the narrowphase reads (collision/collide-kernels.ts), at _geoAt:
   * [vertex count, radius, …] (a circle's count is 0; see PolyShape and Circle). The shape's own
   * array, or a slice of its space's shared pool while the space has workers (_geoPool,
   * collision/geometry-pool.ts), where every thread reads it.
   */
  _geo: Float64Array = NO_GEOMETRY;
  _geoAt = 0;
  _geoPool: GeometryPool | null = null;
  /** @internal The shape's index in its pool's list. */
  _geoSlot = -1;

  /** @internal The length of the shape's geometry block. */
  abstract geometryLength(): number;

  /** @internal Make block `at` of `g` this shape's geometry (its contents already the shape's, or about to be). */
  abstract bindGeometry(g: Float64Array, at: number): void;

  /** Mass properties at this shape's density, body-local. */
  abstract computeMass(): MassData;

  /**
   * Refresh the world-space cache from the body's transform: origin (x, y), rotation cos c, sin s.
   * Must also refresh the AABB fields (aabbMin/Max, tight, no margin).
   */
  abstract updateWorld(x: number, y: number, c: number, s: number): void;

  /** True if the world point lies inside the shape (uses the world cache). */
  abstract containsPoint(x: number, y: number): boolean;

  /**
   * Ray p1 → p2 against the shape (world cache). Hits only from outside.
   * Returns true and fills `out` when it hits at fraction ≤ maxFraction.
   */
  abstract rayCast(p1x: number, p1y: number, p2x: number, p2y: number, maxFraction: number, out: RayCastOutput): boolean;

  /** Distance from the body's centre of mass to the farthest point of the shape (sleep test). */
  abstract maxExtent(localCenterX: number, localCenterY: number): number;

  /**
   * How thin the shape is: the smallest distance from its own centre to its surface (a circle's
   * radius, a polygon's nearest face plus its rounding, a segment's 0). A body that moves less
   * than a share of this in a step cannot pass through anything (continuous collision skips it).
   */
  abstract minExtent(): number;
}

/** Every key of ShapeOptions, which each kind's list starts with. */
export const SHAPE_OPTION_KEYS = optionKeys<ShapeOptions>()(['offset', 'angle', 'density', 'friction', 'restitution', 'filter', 'sensor', 'fluidEnabled', 'fluidProperties', 'userData']);
const FILTER_KEYS = optionKeys<CollisionFilter>()(['category', 'mask', 'group']);
const FLUID_KEYS = optionKeys<FluidProperties>()(['density', 'viscosity']);

/** A filter's given fields, checked, over `base` for those not given. */
function checkFilter(owner: string, f: unknown, base: CollisionFilter): CollisionFilter {
  if (f === null || typeof f !== 'object') fail(owner, 'filter', f, 'must be an object {category?, mask?, group?}');
  checkOptionKeys(owner, f, FILTER_KEYS, 'filter');
  const o = f as Partial<CollisionFilter>;
  return {
    category: o.category !== undefined ? checkInteger(owner, 'filter.category', o.category, 0, 0xffffffff) : base.category,
    mask: o.mask !== undefined ? checkInteger(owner, 'filter.mask', o.mask, 0, 0xffffffff) : base.mask,
    group: o.group !== undefined ? checkInteger(owner, 'filter.group', o.group, -0x7fffffff, 0x7fffffff) : base.group,
  };
}

/** Validate a (partial) FluidProperties; missing fields take the given values. */
function checkFluidProperties(owner: string, v: unknown, density: number, viscosity: number): FluidProperties {
  if (v === undefined) return { density, viscosity };
  if (v === null || typeof v !== 'object') fail(owner, 'fluidProperties', v, 'must be an object { density, viscosity }');
  checkOptionKeys(owner, v, FLUID_KEYS, 'fluidProperties');
  const o = v as Partial<FluidProperties>;
  return {
    density: o.density !== undefined ? checkPositive(owner, 'fluidProperties.density', o.density) : density,
    viscosity: o.viscosity !== undefined ? checkNonNegative(owner, 'fluidProperties.viscosity', o.viscosity) : viscosity,
  };
}
