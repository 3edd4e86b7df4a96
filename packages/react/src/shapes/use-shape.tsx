/**
 * useShape: what every shape component does. It validates its props during render (trial engine
 * shapes: bad props throw a FulcrumPropError before anything changes), attaches its engine
 * shape(s) to the enclosing host, updates them in place when props change, registers its contact
 * rule (`oneWay`, `tangentSpeed`) with the world, and draws the default look when its <Body> has
 * nothing else to draw.
 *
 * A component may stand for several engine shapes (a decomposed <Polygon>, a <Chain>): each is a
 * piece with its own record in the host, so a <Body> gets one engine shape per piece and
 * <InstancedBodies> one per piece per instance.
 */
import type { Shape } from '@fulcrum/physics';
import { useContext, useEffect, useInsertionEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import { GeometrySinkContext, ShapeHostContext, ShapeLookContext, useInCanvas, useWorld, type ShapeHost, type ShapeRecord } from '../core/context.js';
import { propFail } from '../core/errors.js';
import type { PhysicsWorld } from '../core/physics-world.js';
import type { ContactRule, RuleOwner } from '../core/pre-solve-router.js';
import { changedKeys, pick, sameValue, useValidated } from '../core/props.js';
import { RefSlot } from '../core/ref-slot.js';
import { defaultMaterial, shapeGeometry } from './default-look.js';
import { pointerForwarding } from './pointer.js';
import type { ShapeKind, ShapeOptionValues } from './shape-kinds.js';
import { applyShapeOptions, COMMON_KEYS, validateShape, type ValidatedShape } from './shape-options.js';

/** Props of the default look. */
export interface ShapeLookProps {
  /** Colour of the default look, 0xRRGGBB; default: by body type. */
  color?: number;
}

export interface ShapeComponentProps<R> extends ShapeLookProps {
  /** The engine shape (inside <InstancedBodies>: null, as there is one per instance). */
  ref?: Ref<R | null>;
}

/** One engine shape of a component (its piece `index`), as the host knows it. */
class PieceRecord implements ShapeRecord {
  constructor(
    private readonly set: ShapeSet,
    private readonly index: number,
  ) {}
  get component(): string {
    return this.set.kind.component;
  }
  create(): Shape {
    const shape = this.set.latest!.plan.build(this.index);
    this.set.world.preSolve.claim(shape, this.set);
    return shape;
  }
  apply(shape: Shape, prev: Readonly<ShapeOptionValues>): void {
    const v = this.set.latest!;
    applyShapeOptions(this.set.kind, shape, prev, v.options, v.plan.pieces[this.index]!);
  }
}

/** A shape component's pieces in its host, and its contact rule. */
class ShapeSet implements RuleOwner {
  rule: ContactRule | null = null;
  /** The validated props of the last render that committed (set in an insertion effect). */
  latest: ValidatedShape | null = null;
  /** What the host's engine shapes were last built or updated from. */
  private applied: ValidatedShape | null = null;
  private records: PieceRecord[] = [];
  /** The engine shapes on a <Body> after the last commit (null entries inside <InstancedBodies>). */
  shapes: readonly (Shape | null)[] = [];
  /** Committed, and not released since: its engine shapes already existed before this commit. */
  mounted = false;

  constructor(
    readonly kind: ShapeKind,
    readonly world: PhysicsWorld,
  ) {}

  /** After every render: bring the host's engine shapes to `latest`; true if anything changed. */
  commit(host: ShapeHost): boolean {
    const next = this.latest!;
    const prev = this.applied;
    const changed = prev !== null && prev !== next;
    if (changed) {
      if (changedKeys(this.kind.replaceOn ?? [], prev.options, next.options).length > 0) {
        for (const r of this.records) host.unmountShape(r);
        this.records = [];
      } else {
        while (this.records.length > next.plan.pieces.length) host.unmountShape(this.records.pop()!);
        for (const r of this.records) {
          host.mountShape(r);
          host.updateShape(r, prev.options);
        }
      }
    }
    while (this.records.length < next.plan.pieces.length) this.records.push(new PieceRecord(this, this.records.length));
    this.shapes = this.records.map((r) => host.mountShape(r));
    this.applied = next;
    return changed;
  }

  /** Unmount: take every piece out of the host, and the rule out of the world. */
  release(host: ShapeHost): void {
    for (const r of this.records) host.unmountShape(r);
    this.shapes = [];
    this.mounted = false;
    this.world.preSolve.release(this);
  }
}

/**
 * The shape component `kind` with `props`; `onCommit` gets the engine shapes on a <Body> after
 * every commit (null entries inside <InstancedBodies>), for refs of the kind's own (piecesRef).
 */
export function useShape<R>(kind: ShapeKind, props: ShapeComponentProps<R> & object, onCommit?: (shapes: readonly (Shape | null)[]) => void): ReactNode {
  const host = useContext(ShapeHostContext);
  if (host === null) throw new Error(`<${kind.component}> must be inside <Body> or <InstancedBodies>`);
  const world = useWorld(kind.component);
  const look = useContext(ShapeLookContext);
  const inCanvas = useInCanvas();
  const input = pick(props as ShapeOptionValues, [...kind.keys, ...COMMON_KEYS]) as ShapeOptionValues;
  const validated = useValidated(input, (o) => validateShape(kind, o));
  const { color } = props;
  if (color !== undefined && (typeof color !== 'number' || !Number.isInteger(color) || color < 0 || color > 0xffffff)) {
    propFail(kind.component, 'color', color, 'must be a 0xRRGGBB number');
  }
  const [set] = useState(() => new ShapeSet(kind, world));
  // Not during render: a render React discards (a transition abandoned because a sibling
  // suspended) would leave its props here, and the host builds shapes from `latest` without this
  // component rendering again: a new instance of <InstancedBodies>, or a <Body> that a Suspense
  // boundary hid and shows again. An insertion effect runs before every layout effect of the
  // commit, so the host's effects (and this component's) see the committed props.
  useInsertionEffect(() => {
    set.latest = validated;
  });
  const refSlot = useRef<RefSlot<R> | null>(null);
  refSlot.current ??= new RefSlot<R>();

  useLayoutEffect(() => {
    const existed = set.mounted;
    const changed = set.commit(host);
    set.mounted = true;
    // A rule that changes on shapes that already existed wakes their bodies (a new shape has
    // woken its body by joining it).
    world.preSolve.setRule(set, validated.rule, existed);
    if (changed) world.requestFrame();
    refSlot.current!.set(props.ref, kind.refValue(set.shapes) as R | null);
    onCommit?.(set.shapes);
  });
  useLayoutEffect(
    () => () => {
      refSlot.current!.clear();
      set.release(host);
    },
    [host, set],
  );

  if (!look.draw || !inCanvas) return null;
  if (look.draw === 'geometry') return <AttachedGeometry kind={kind} validated={validated} />;
  return <DefaultLook kind={kind} validated={validated} color={color ?? look.color} set={set} />;
}

/** The shape's geometry, placed at its offset and angle, handed to the instanced mesh. */
function AttachedGeometry({ kind, validated }: { kind: ShapeKind; validated: ValidatedShape }): ReactNode {
  const geometry = useGeometry(kind, validated, true);
  const sink = useContext(GeometrySinkContext);
  useLayoutEffect(() => {
    sink?.(geometry);
    return () => sink?.(null);
  }, [sink, geometry]);
  useEffect(() => () => geometry.dispose(), [geometry]);
  return null;
}

/** The mesh (or lines, for a segment or a chain) a shape draws itself with; it forwards pointer events to its body. */
function DefaultLook({ kind, validated, color, set }: { kind: ShapeKind; validated: ValidatedShape; color: number; set: ShapeSet }): ReactNode {
  const geometry = useGeometry(kind, validated, false);
  useEffect(() => () => geometry.dispose(), [geometry]);
  const world = useWorld(kind.component);
  const [pointer] = useState(() => pointerForwarding(world, () => set.shapes));
  const trial = validated.plan.pieces[0]!;
  const offset = trial.offset;
  if (kind.line) {
    return <lineSegments geometry={geometry} material={defaultMaterial(color, false, true)} position={[offset.x, offset.y, 0]} rotation-z={trial.angle} {...pointer} />;
  }
  return <mesh geometry={geometry} material={defaultMaterial(color, trial.sensor, false)} position={[offset.x, offset.y, 0]} rotation-z={trial.angle} {...pointer} />;
}

/**
 * A geometry rebuilt only when the shape's geometry changes (not its friction, say). `placed`
 * bakes the shape's offset and angle into it (for an instanced mesh, which has no child mesh
 * to carry them).
 */
function useGeometry(kind: ShapeKind, validated: ValidatedShape, placed: boolean) {
  const o = validated.options;
  const key = [pick(o, kind.keys), placed ? [o.offset, o.angle] : null];
  const last = useRef<{ key: unknown; geometry: ReturnType<typeof shapeGeometry> } | null>(null);
  return useMemo(() => {
    if (last.current && sameValue(last.current.key, key)) return last.current.geometry;
    const trial = validated.plan.pieces[0]!;
    const geometry = shapeGeometry(kind.component, o, validated.plan.pieces);
    if (placed) geometry.rotateZ(trial.angle).translate(trial.offsetX, trial.offsetY, 0);
    last.current = { key, geometry };
    return geometry;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [kind, validated, placed]);
}
