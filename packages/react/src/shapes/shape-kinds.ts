/**
 * The five shape components' link to the engine: which props are options, how to build the
 * engine shape (also used on trial, to validate), and how to update one in place.
 *
 * <Box> is the engine's Polygon.box (a polygon whose vertices follow width and height);
 * <Capsule> takes `length` or the two centres `p1`/`p2`, as the engine does.
 */
import { Capsule, Circle, Polygon, Segment } from '@fulcrum/physics';
import type { CapsuleOptions, CircleOptions, CollisionFilter, PolygonOptions, SegmentOptions, Shape, Vec2Like } from '@fulcrum/physics';
import { changedKeys } from '../core/props.js';

/** Props every shape takes. */
export interface CommonShapeProps {
  /** Body-local offset of the shape. */
  offset?: Vec2Like;
  /** Body-local rotation of the shape, radians. */
  angle?: number;
  /** kg/m², > 0. Default 1. */
  density?: number;
  /** Default 0.6. */
  friction?: number;
  /** Default 0. */
  restitution?: number;
  filter?: Partial<CollisionFilter>;
  /** Reports contacts without colliding. */
  sensor?: boolean;
  userData?: unknown;
}

export const COMMON_KEYS = ['offset', 'angle', 'density', 'friction', 'restitution', 'filter', 'sensor', 'userData'] as const;
const SETTABLE_COMMON = ['offset', 'angle', 'density', 'friction', 'restitution', 'filter', 'sensor'] as const;

export type ShapeOptionValues = Record<string, unknown>;

export interface ShapeKind {
  readonly component: string;
  /** Owner names the engine uses in its messages for this shape. */
  readonly owners: readonly string[];
  /** The kind's own (geometry) option keys. */
  readonly keys: readonly string[];
  build(o: ShapeOptionValues): Shape;
  /** Apply changed geometry options (`trial` holds every target value). */
  applyGeometry(shape: Shape, changed: readonly string[], o: ShapeOptionValues, trial: Shape): void;
}

type Settable = Record<string, unknown>;

export const CIRCLE: ShapeKind = {
  component: 'Circle',
  owners: ['Circle'],
  keys: ['radius'],
  build: (o) => new Circle(o as unknown as CircleOptions),
  applyGeometry(shape, changed, o) {
    if (changed.includes('radius')) (shape as Circle).radius = o.radius as number;
  },
};

export const BOX: ShapeKind = {
  component: 'Box',
  owners: ['Polygon.box', 'Polygon'],
  keys: ['width', 'height', 'radius'],
  build(o) {
    const { width, height, ...rest } = o;
    return Polygon.box(width as number, height as number, rest);
  },
  applyGeometry(shape, changed, _o, trial) {
    const p = shape as Polygon;
    if (changed.includes('width') || changed.includes('height')) p.vertices = (trial as Polygon).vertices;
    if (changed.includes('radius')) p.radius = (trial as Polygon).radius;
  },
};

export const POLYGON: ShapeKind = {
  component: 'Polygon',
  owners: ['Polygon'],
  keys: ['vertices', 'radius'],
  build: (o) => new Polygon(o as unknown as PolygonOptions),
  applyGeometry(shape, changed, _o, trial) {
    const p = shape as Polygon;
    if (changed.includes('vertices')) p.vertices = (trial as Polygon).vertices;
    if (changed.includes('radius')) p.radius = (trial as Polygon).radius;
  },
};

export const CAPSULE: ShapeKind = {
  component: 'Capsule',
  owners: ['Capsule'],
  keys: ['length', 'p1', 'p2', 'radius'],
  build: (o) => new Capsule(o as unknown as CapsuleOptions),
  applyGeometry(shape, changed, _o, trial) {
    const c = shape as Capsule;
    const t = trial as Capsule;
    if (changed.includes('length') || changed.includes('p1') || changed.includes('p2')) c.setPoints(t.p1, t.p2);
    if (changed.includes('radius')) c.radius = t.radius;
  },
};

export const SEGMENT: ShapeKind = {
  component: 'Segment',
  owners: ['Segment'],
  keys: ['p1', 'p2'],
  build: (o) => new Segment(o as unknown as SegmentOptions),
  applyGeometry(shape, changed, _o, trial) {
    const t = trial as Segment;
    if (changed.includes('p1') || changed.includes('p2')) (shape as Segment).setPoints(t.p1, t.p2);
  },
};

/** Update `shape` from `prev` to `o` (validated, with `trial` built from it). */
export function applyShapeOptions(kind: ShapeKind, shape: Shape, prev: ShapeOptionValues, o: ShapeOptionValues, trial: Shape): boolean {
  const changedGeometry = changedKeys(kind.keys, prev, o);
  const changedCommon = changedKeys(COMMON_KEYS, prev, o);
  if (changedGeometry.length === 0 && changedCommon.length === 0) return false;
  if (changedGeometry.length > 0) kind.applyGeometry(shape, changedGeometry, o, trial);
  for (const k of SETTABLE_COMMON) {
    if (changedCommon.includes(k)) (shape as unknown as Settable)[k] = (trial as unknown as Settable)[k];
  }
  if (changedCommon.includes('userData')) shape.userData = o.userData;
  return true;
}
