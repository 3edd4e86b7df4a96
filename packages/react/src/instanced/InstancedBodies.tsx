/**
 * <InstancedBodies>: many bodies of one kind drawn by a single InstancedMesh.
 *
 *   <InstancedBodies instances={balls} linearDrag={0.1} onBeginContact={(e) => hit(e.index)}>
 *     <Circle radius={0.2} restitution={0.5} />
 *     <meshBasicMaterial color="tomato" />
 *   </InstancedBodies>
 *
 * `instances` lists each body's own props (position, velocity, ...; any Body prop), with an
 * optional `key` that keeps an instance's body across renders when the list is reordered or
 * resized (the default key is the index). The other props apply to every instance. Shape
 * children are copied onto every body; the rest (geometry, material, ...) go inside the
 * <instancedMesh>. Without a geometry child or prop, the first shape's outline is used; without
 * a material, the default one. Events report the instance's current `index`, and pointer events
 * on the mesh (`onClick`, `onPointerOver`, …) the engine `body` of the instance under the pointer
 * too. The ref is the array of engine bodies in instance order.
 */
import type { Body as EngineBody } from '@fulcrum/physics';
import { isValidElement, useLayoutEffect, useMemo, useRef, useState, type ReactNode, type Ref } from 'react';
import type { BufferGeometry, InstancedMesh, Material } from 'three';
import { BODY_OPTION_KEYS, validateBodyOptions, type BodyOptionProps, type BodyOptionValues, type ValidatedBody } from '../core/body-options.js';
import { partitionChildren } from '../core/children.js';
import { GeometrySinkContext, ShapeHostContext, ShapeLookContext, useInCanvas, useWorld, type ShapeLook } from '../core/context.js';
import { FulcrumPropError, propFail } from '../core/errors.js';
import { POINTER_HANDLER_KEYS, type BodyEventHandlers } from '../core/event-router.js';
import { checkPropNames, pick, propNames, sameValue } from '../core/props.js';
import { RefSlot } from '../core/ref-slot.js';
import { checkHandler, typeColor } from '../components/Body.js';
import { useCommitted } from '../hooks/hooks.js';
import { defaultMaterial } from '../shapes/default-look.js';
import { instancePointerForwarding, type InstancePointerHandlers } from './instance-pointer.js';
import { InstancedController, type ValidatedInstance } from './instanced-controller.js';

export interface InstanceProps extends BodyOptionProps {
  /** Identifies the instance across renders (default: its index). */
  key?: string | number;
}

export interface InstancedBodiesProps extends BodyOptionProps, BodyEventHandlers, InstancePointerHandlers {
  /**
   * One entry per body, with any body props of its own (its pose, velocity, …) and a `key`; the
   * other props here apply to every instance. Entries added or removed add and remove bodies;
   * a `key` keeps an instance's body when the list is reordered (the default key is the index).
   */
  instances: readonly InstanceProps[];
  /** Shape components (copied onto every body), and children of the instanced mesh. */
  children?: ReactNode;
  /** The mesh's geometry (default: a geometry child, else the first shape's outline). */
  geometry?: BufferGeometry;
  /** The mesh's material (default: a material child, else the default material). */
  material?: Material;
  /** The engine bodies, in instance order. */
  ref?: Ref<readonly EngineBody[] | null>;
  /** The InstancedMesh. */
  meshRef?: Ref<InstancedMesh | null>;
}

const HANDLER_KEYS = ['onSleep', 'onWake', 'onBeginContact', 'onEndContact', 'onContactForce', ...POINTER_HANDLER_KEYS] as const;

/** Every prop of <InstancedBodies>, and every key of an instance (any other is an error). */
const INSTANCED_BODIES_PROPS = propNames<InstancedBodiesProps>()([...BODY_OPTION_KEYS, ...HANDLER_KEYS, 'instances', 'children', 'geometry', 'material', 'ref', 'meshRef']);
const INSTANCE_KEYS = propNames<InstanceProps>()([...BODY_OPTION_KEYS, 'key']);

export function InstancedBodies(props: InstancedBodiesProps): ReactNode {
  const { instances, children, geometry, material, ref, meshRef } = props;
  const world = useWorld('InstancedBodies');
  checkPropNames('InstancedBodies', props, INSTANCED_BODIES_PROPS);
  const inCanvas = useInCanvas();
  if (!Array.isArray(instances)) propFail('InstancedBodies', 'instances', instances, 'must be an array of instance props');
  for (const k of HANDLER_KEYS) checkHandler('InstancedBodies', k, props[k]);
  const validated = useValidatedInstances(props);

  const handlers = useRef<BodyEventHandlers & InstancePointerHandlers>(props);
  useCommitted(handlers, props); // in an effect: a render React discards must not reach the solver
  const [controller] = useState(() => new InstancedController(world, handlers));
  const [pointer] = useState(() => instancePointerForwarding(handlers, (i) => controller.bodyAt(i)));
  const mesh = useRef<InstancedMesh>(null);
  const meshSlot = useRef<RefSlot<InstancedMesh> | null>(null);
  meshSlot.current ??= new RefSlot<InstancedMesh>();

  useLayoutEffect(() => {
    controller.commit(validated, mesh.current, ref);
    meshSlot.current!.set(meshRef, mesh.current);
  });
  useLayoutEffect(
    () => () => {
      meshSlot.current!.clear();
      controller.release();
    },
    [controller],
  );

  const { shapes, others } = partitionChildren(children);
  const ownGeometry = geometry !== undefined || others.some((c) => attaches(c, 'geometry'));
  const ownMaterial = material !== undefined || others.some((c) => attaches(c, 'material'));
  const [shapeGeometry, setShapeGeometry] = useState<BufferGeometry | null>(null);
  const color = typeColor((props.type as string | undefined) ?? 'dynamic');
  const first = useMemo<ShapeLook>(() => ({ draw: inCanvas && !ownGeometry ? 'geometry' : false, color }), [inCanvas, ownGeometry, color]);
  const rest = useMemo<ShapeLook>(() => ({ draw: false, color }), [color]);
  // Templates stay outside the mesh: a bigger mesh (below) must not remount them, which would
  // replace every instance's shapes.
  const templates = (
    <ShapeHostContext.Provider value={controller}>
      <GeometrySinkContext.Provider value={setShapeGeometry}>
        {shapes.map((s, i) => (
          <ShapeLookContext.Provider key={i} value={i === 0 ? first : rest}>
            {s}
          </ShapeLookContext.Provider>
        ))}
      </GeometrySinkContext.Provider>
    </ShapeHostContext.Provider>
  );
  if (!inCanvas) return templates;
  // The mesh's buffer has a fixed size: grow it in powers of two (a new mesh each time).
  const capacity = Math.max(16, 2 ** Math.ceil(Math.log2(Math.max(1, instances.length))));
  const meshGeometry = geometry ?? (ownGeometry ? undefined : (shapeGeometry ?? undefined));
  const meshMaterial = material ?? (ownMaterial ? undefined : defaultMaterial(color, false, false));
  return (
    <>
      {templates}
      <instancedMesh
        key={capacity}
        ref={mesh}
        args={[undefined, undefined, capacity]}
        frustumCulled={false}
        {...(meshGeometry ? { geometry: meshGeometry } : {})}
        {...(meshMaterial ? { material: meshMaterial } : {})}
        {...pointer}
      >
        {others}
      </instancedMesh>
    </>
  );
}

/** Whether an instanced-mesh child provides the geometry or the material. */
function attaches(node: ReactNode, what: 'geometry' | 'material'): boolean {
  if (!isValidElement(node)) return false;
  const attach = (node.props as { attach?: unknown }).attach;
  if (attach !== undefined) return attach === what;
  return typeof node.type === 'string' && node.type.toLowerCase().endsWith(what);
}

/**
 * Validate every instance (shared props merged with its own) during render. Each instance is
 * re-validated only when its merged props changed, so re-rendering thousands of unchanged
 * instances costs a comparison each, not a trial body each.
 */
function useValidatedInstances(props: InstancedBodiesProps): ValidatedInstance[] {
  const cache = useRef(new Map<string | number, { input: BodyOptionValues; body: ValidatedBody }>());
  const shared = pick(props as BodyOptionValues, BODY_OPTION_KEYS);
  const seen = new Set<string | number>();
  const out: ValidatedInstance[] = [];
  const next = new Map<string | number, { input: BodyOptionValues; body: ValidatedBody }>();
  props.instances.forEach((inst, i) => {
    if (inst === null || typeof inst !== 'object') propFail('InstancedBodies', `instances[${i}]`, inst, 'must be an object of Body props');
    checkPropNames('InstancedBodies', inst, INSTANCE_KEYS, `instances[${i}]`);
    const key = inst.key ?? i;
    if (typeof key !== 'string' && typeof key !== 'number') propFail('InstancedBodies', `instances[${i}].key`, key, 'must be a string or a number');
    if (seen.has(key)) propFail('InstancedBodies', `instances[${i}].key`, key, 'must be unique');
    seen.add(key);
    const input = { ...shared, ...pick(inst as BodyOptionValues, BODY_OPTION_KEYS) };
    const hit = cache.current.get(key);
    const body = hit && sameValue(hit.input, input) ? hit.body : validateInstance(input, inst, i);
    next.set(key, { input, body });
    out.push({ key, body });
  });
  cache.current = next;
  return out;
}

/** Validate one instance; a bad value that came from the instance is named `instances[i].prop`. */
function validateInstance(input: BodyOptionValues, inst: InstanceProps, i: number): ValidatedBody {
  try {
    return validateBodyOptions('InstancedBodies', input as BodyOptionProps);
  } catch (e) {
    if (e instanceof FulcrumPropError && e.prop in inst) throw new FulcrumPropError('InstancedBodies', `instances[${i}].${e.prop}`, e.value, e.reason);
    throw e;
  }
}
