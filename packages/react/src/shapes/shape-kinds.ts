/**
 * The shape components' link to the engine: which props are the kind's own, how to build its
 * engine shapes (also on trial, to validate), and how to update one in place.
 *
 * A component stands for one engine shape, or for several: a <Polygon> whose outline is not
 * convex is the pieces of `Polygon.decompose`, and a <Chain> is the engine Chain's segments. The
 * kind's `plan` says which (its trial pieces), and builds each piece for a body.
 *
 * <Box> is the engine's Polygon.box (a polygon whose vertices follow width and height);
 * <Capsule> takes `length` or the two centres `p1`/`p2`, as the engine does.
 */
import { Capsule, Chain, Circle, FulcrumInputError, Polygon, Segment } from '@fulcrum/physics';
import type { CapsuleOptions, ChainOptions, ChainSegment, CircleOptions, CollisionFilter, PolygonOptions, SegmentOptions, Shape, Vec2Like } from '@fulcrum/physics';

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
  /**
   * Which shapes this one collides with: `{ category, mask, group }` (bits; a positive shared group
   * always collides, a negative one never). Default: everything.
   */
  filter?: Partial<CollisionFilter>;
  /** Reports contacts without colliding. */
  sensor?: boolean;
  /** Anything of yours, kept on the engine shape (`shape.userData`). */
  userData?: unknown;
  /**
   * A one-way shape: only the other bodies on one side collide with it, so that they pass through
   * from the other (a platform you jump through from below and stand on from above). `true`: the
   * side the shape's local +y points to; `[x, y]`: that side, a direction in the body's frame.
   * Contacts that begin from the other side are ignored while they touch.
   */
  oneWay?: boolean | Vec2Like;
  /**
   * A conveyor: the shape's surface moves at this speed (m/s), along its local +x on its top (and
   * round the shape the same way), and carries what touches it by friction.
   */
  tangentSpeed?: number;
}

/** The fluid's properties (Nape's FluidProperties). */
export interface FluidProps {
  /** kg/m², > 0. Default 1. */
  density?: number;
  /** ≥ 0. Default 1. */
  viscosity?: number;
}

/** The `fluid` prop of shapes with area. */
export interface FluidShapeProps {
  /**
   * Makes the shape a fluid (the engine's `fluidEnabled` with these `fluidProperties`): a sensor
   * that buoys every dynamic body's solid shape in it by the weight of the fluid it displaces and
   * slows it by its viscosity. A fluid shape is a sensor: `sensor` may be left out (or true).
   */
  fluid?: FluidProps;
}

export type ShapeOptionValues = Record<string, unknown>;

/** The engine shapes a component's props stand for. */
export interface ShapePlan {
  /** The engine shapes on trial, one per piece: validated, and holding every target value. */
  readonly pieces: readonly Shape[];
  /** A new engine shape for piece `i` (one per body that takes the component's shapes). */
  build(i: number): Shape;
}

export interface ShapeKind {
  readonly component: string;
  /** Owner names the engine uses in its messages for this shape. */
  readonly owners: readonly string[];
  /** The kind's own (geometry) option keys. */
  readonly keys: readonly string[];
  /** Common props that mean nothing for this kind, each with why (a FulcrumPropError if given). */
  readonly refuses?: Readonly<Record<string, string>>;
  /** Geometry keys the engine cannot change in place: a change replaces the engine shapes. */
  readonly replaceOn?: readonly string[];
  /** Drawn as lines (no area) rather than a filled mesh. */
  readonly line?: boolean;
  /** Validate the engine options (the engine throws) and plan the engine shapes. */
  plan(o: ShapeOptionValues): ShapePlan;
  /** Apply changed geometry options to one piece (`trial` is that piece on trial). */
  applyGeometry(shape: Shape, changed: readonly string[], o: ShapeOptionValues, trial: Shape): void;
  /** What the component's `ref` gets, from a <Body>'s engine shapes (null entries: instanced). */
  refValue(shapes: readonly (Shape | null)[]): unknown;
}

/** A plan of one engine shape, built by `build`. */
function single(build: () => Shape): ShapePlan {
  return { pieces: [build()], build };
}

const first = (shapes: readonly (Shape | null)[]): Shape | null => shapes[0] ?? null;

export const CIRCLE: ShapeKind = {
  component: 'Circle',
  owners: ['Circle'],
  keys: ['radius'],
  plan: (o) => single(() => new Circle(o as unknown as CircleOptions)),
  applyGeometry(shape, changed, o) {
    if (changed.includes('radius')) (shape as Circle).radius = o.radius as number;
  },
  refValue: first,
};

export const BOX: ShapeKind = {
  component: 'Box',
  owners: ['Polygon.box', 'Polygon'],
  keys: ['width', 'height', 'radius'],
  plan(o) {
    const { width, height, ...rest } = o;
    return single(() => Polygon.box(width as number, height as number, rest));
  },
  applyGeometry(shape, changed, _o, trial) {
    const p = shape as Polygon;
    if (changed.includes('width') || changed.includes('height')) p.vertices = (trial as Polygon).vertices;
    if (changed.includes('radius')) p.radius = (trial as Polygon).radius;
  },
  refValue: first,
};

/**
 * An outline the engine's Polygon accepts (strictly convex, 3 to 64 points) is one engine
 * Polygon; any other simple outline (concave, more points, straight corners) is the pieces of
 * `Polygon.decompose`, each an engine Polygon with the same options. A change keeps the pieces
 * that are still there (their vertices set in place) and adds or removes the rest.
 */
export const POLYGON: ShapeKind = {
  component: 'Polygon',
  owners: ['Polygon', 'Polygon.decompose'],
  keys: ['vertices', 'radius'],
  plan(o) {
    try {
      return single(() => new Polygon(o as unknown as PolygonOptions));
    } catch (e) {
      // Only an outline the convex constructor refuses goes on to the decomposition (whose error,
      // if it refuses it too, says what is wrong with it as an outline).
      if (!(e instanceof FulcrumInputError) || e.owner !== 'Polygon' || !/^vertices\b/.test(e.prop ?? '')) throw e;
    }
    const { vertices, ...rest } = o as unknown as PolygonOptions;
    const pieces = Polygon.decompose(vertices, rest);
    return { pieces, build: (i) => new Polygon({ ...rest, vertices: pieces[i]!.vertices }) };
  },
  applyGeometry(shape, changed, _o, trial) {
    const p = shape as Polygon;
    if (changed.includes('vertices')) p.vertices = (trial as Polygon).vertices;
    if (changed.includes('radius')) p.radius = (trial as Polygon).radius;
  },
  // One engine Polygon: that one; pieces: null (their list goes to `piecesRef`).
  refValue: (shapes) => (shapes.length === 1 ? (shapes[0] ?? null) : null),
};

export const CAPSULE: ShapeKind = {
  component: 'Capsule',
  owners: ['Capsule'],
  keys: ['length', 'p1', 'p2', 'radius'],
  plan: (o) => single(() => new Capsule(o as unknown as CapsuleOptions)),
  applyGeometry(shape, changed, _o, trial) {
    const c = shape as Capsule;
    const t = trial as Capsule;
    if (changed.includes('length') || changed.includes('p1') || changed.includes('p2')) c.setPoints(t.p1, t.p2);
    if (changed.includes('radius')) c.radius = t.radius;
  },
  refValue: first,
};

const NO_AREA_FLUID = 'needs a shape with area to hold it (Circle, Box, Polygon or Capsule)';

export const SEGMENT: ShapeKind = {
  component: 'Segment',
  owners: ['Segment'],
  keys: ['p1', 'p2'],
  refuses: { fluid: NO_AREA_FLUID },
  line: true,
  plan: (o) => single(() => new Segment(o as unknown as SegmentOptions)),
  applyGeometry(shape, changed, _o, trial) {
    const t = trial as Segment;
    if (changed.includes('p1') || changed.includes('p2')) (shape as Segment).setPoints(t.p1, t.p2);
  },
  refValue: first,
};

/**
 * The engine Chain's segments. Their points are fixed in the engine (each segment's neighbours
 * are its ghost vertices), so a new `vertices` or `loop` replaces them all with a new Chain's;
 * the other props update the segments in place.
 */
export const CHAIN: ShapeKind = {
  component: 'Chain',
  owners: ['Chain'],
  keys: ['vertices', 'loop'],
  refuses: {
    density: 'is not used: a chain has no area, and so no mass (give the body another shape for its mass)',
    fluid: NO_AREA_FLUID,
  },
  replaceOn: ['vertices', 'loop'],
  line: true,
  plan(o) {
    const trial = new Chain(o as unknown as ChainOptions);
    const pool = new ChainPool(o as unknown as ChainOptions);
    return { pieces: trial.segments, build: (i) => pool.take(i) };
  },
  applyGeometry() {
    // Never called: every geometry key is in replaceOn.
  },
  refValue: (shapes) => (shapes[0] as ChainSegment | null | undefined)?.chain ?? null,
};

/**
 * Hands out segment i of a Chain whose segment i nobody has taken yet, building a new Chain when
 * there is none: a body that takes segments 0, 1, … in turn gets all of its segments from one
 * Chain, and each body (one per instance of <InstancedBodies>) its own.
 */
class ChainPool {
  private open: { chain: Chain; taken: boolean[]; left: number }[] = [];
  constructor(private readonly options: ChainOptions) {}

  take(i: number): ChainSegment {
    let entry = this.open.find((e) => !e.taken[i]);
    if (entry === undefined) {
      const chain = new Chain(this.options);
      entry = { chain, taken: [], left: chain.segments.length };
      this.open.push(entry);
    }
    entry.taken[i] = true;
    if (--entry.left === 0) this.open = this.open.filter((e) => e !== entry);
    return entry.chain.segments[i]!;
  }
}
