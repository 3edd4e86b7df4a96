/**
 * useShape: what every shape component does. It validates its props during render (a trial
 * engine shape: bad props throw a FulcrumPropError before anything changes), attaches its engine
 * shape(s) to the enclosing host, updates them in place when props change, and draws the
 * default look when its <Body> has nothing else to draw.
 */
import type { Shape } from '@fulcrum/physics';
import { useContext, useEffect, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import { GeometrySinkContext, ShapeHostContext, ShapeLookContext, useInCanvas, useWorld, type ShapeRecord } from '../core/context.js';
import { propFail, validateWith } from '../core/errors.js';
import { pick, sameValue, useValidated } from '../core/props.js';
import { RefSlot } from '../core/ref-slot.js';
import { defaultMaterial, shapeGeometry } from './default-look.js';
import { applyShapeOptions, COMMON_KEYS, type ShapeKind, type ShapeOptionValues } from './shape-kinds.js';

/** Props of the default look. */
export interface ShapeLookProps {
  /** Colour of the default look, 0xRRGGBB; default: by body type. */
  color?: number;
}

export interface ShapeComponentProps<S extends Shape> extends ShapeLookProps {
  /** The engine shape (inside <InstancedBodies>: null, as there is one per instance). */
  ref?: Ref<S | null>;
}

interface Validated {
  options: ShapeOptionValues;
  trial: Shape;
}

class Record_ implements ShapeRecord {
  latest: Validated | null = null;
  applied: ShapeOptionValues | null = null;
  constructor(private readonly kind: ShapeKind) {}
  get component(): string {
    return this.kind.component;
  }
  create(): Shape {
    return this.kind.build(this.latest!.options);
  }
  apply(shape: Shape, prev: Readonly<ShapeOptionValues>): void {
    applyShapeOptions(this.kind, shape, prev, this.latest!.options, this.latest!.trial);
  }
}

export function useShape<S extends Shape>(kind: ShapeKind, props: ShapeComponentProps<S> & object): ReactNode {
  const host = useContext(ShapeHostContext);
  if (host === null) throw new Error(`<${kind.component}> must be inside <Body> or <InstancedBodies>`);
  const world = useWorld(kind.component);
  const look = useContext(ShapeLookContext);
  const inCanvas = useInCanvas();
  const input = pick(props as ShapeOptionValues, [...kind.keys, ...COMMON_KEYS]);
  const validated = useValidated(input, (o): Validated => ({ options: o, trial: validateWith(kind.component, props, kind.owners, () => kind.build(o)) }));
  const { color } = props;
  if (color !== undefined && (typeof color !== 'number' || !Number.isInteger(color) || color < 0 || color > 0xffffff)) {
    propFail(kind.component, 'color', color, 'must be a 0xRRGGBB number');
  }
  const [rec] = useState(() => new Record_(kind));
  rec.latest = validated;
  const refSlot = useRef<RefSlot<S> | null>(null);
  refSlot.current ??= new RefSlot<S>();

  useLayoutEffect(() => {
    const prev = rec.applied;
    const shape = host.mountShape(rec);
    if (prev !== null && prev !== validated.options) {
      host.updateShape(rec, prev);
      world.requestFrame();
    }
    rec.applied = validated.options;
    refSlot.current!.set(props.ref, shape as S | null);
  });
  useLayoutEffect(
    () => () => {
      refSlot.current!.clear();
      host.unmountShape(rec);
    },
    [host, rec],
  );

  if (!look.draw || !inCanvas) return null;
  if (look.draw === 'geometry') return <AttachedGeometry component={kind.component} trial={validated.trial} />;
  return <DefaultLook component={kind.component} trial={validated.trial} color={color ?? look.color} />;
}

/** The shape's geometry, placed at its offset and angle, handed to the instanced mesh. */
function AttachedGeometry({ component, trial }: { component: string; trial: Shape }): ReactNode {
  const geometry = useGeometry(component, trial, true);
  const sink = useContext(GeometrySinkContext);
  useLayoutEffect(() => {
    sink?.(geometry);
    return () => sink?.(null);
  }, [sink, geometry]);
  useEffect(() => () => geometry.dispose(), [geometry]);
  return null;
}

/** The mesh (or line, for a segment) a shape draws itself with. */
function DefaultLook({ component, trial, color }: { component: string; trial: Shape; color: number }): ReactNode {
  const geometry = useGeometry(component, trial, false);
  useEffect(() => () => geometry.dispose(), [geometry]);
  const offset = trial.offset;
  if (component === 'Segment') {
    return <lineSegments geometry={geometry} material={defaultMaterial(color, false, true)} position={[offset.x, offset.y, 0]} rotation-z={trial.angle} />;
  }
  return <mesh geometry={geometry} material={defaultMaterial(color, trial.sensor, false)} position={[offset.x, offset.y, 0]} rotation-z={trial.angle} />;
}

/**
 * A geometry rebuilt only when the shape's geometry changes (not its friction, say). `placed`
 * bakes the shape's offset and angle into it (for an instanced mesh, which has no child mesh
 * to carry them).
 */
function useGeometry(component: string, trial: Shape, placed: boolean) {
  const key = geometryKey(trial, placed);
  const last = useRef<{ key: unknown; geometry: ReturnType<typeof shapeGeometry> } | null>(null);
  return useMemo(() => {
    if (last.current && sameValue(last.current.key, key)) return last.current.geometry;
    const geometry = shapeGeometry(component, trial);
    if (placed) geometry.rotateZ(trial.angle).translate(trial.offsetX, trial.offsetY, 0);
    last.current = { key, geometry };
    return geometry;
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [component, trial, placed]);
}

function geometryKey(s: Shape, placed: boolean): unknown {
  const t = s as unknown as Record<string, unknown>;
  return [t.radius, 'vertices' in t ? t.vertices : null, 'p1' in t ? [t.p1, t.p2] : null, placed ? [s.offset, s.angle] : null];
}
