/**
 * The contexts that tie the components together. Their values are stable objects (a world, a
 * shape host), never recreated on render, so a fresh `gravity` array or any other prop change
 * on <Physics> re-renders no consumer.
 */
import { context as fiberContext } from '@react-three/fiber';
import { createContext, useContext } from 'react';
import type { Shape } from '@fulcrum/physics';
import type { BufferGeometry } from 'three';
import type { PhysicsWorld } from './physics-world.js';

export const WorldContext = createContext<PhysicsWorld | null>(null);

/** The world of the enclosing <Physics>; a clear error names the component when there is none. */
export function useWorld(component: string): PhysicsWorld {
  const world = useContext(WorldContext);
  if (world === null) throw new Error(`<${component}> must be inside <Physics> (hooks too: call them from a component inside <Physics>)`);
  return world;
}

/** True inside an R3F <Canvas>: three.js children can be rendered and useFrame works. */
export function useInCanvas(): boolean {
  return useContext(fiberContext) !== null;
}

/** How a shape component reaches the engine shapes it stands for. */
export interface ShapeRecord {
  /** The component's name, for messages. */
  readonly component: string;
  /** A new engine shape from the latest validated options. */
  create(): Shape;
  /** Apply the options that changed from `prev` to the latest ones. */
  apply(shape: Shape, prev: Readonly<Record<string, unknown>>): void;
}

/**
 * What a shape component is mounted in: a <Body> (one engine shape) or <InstancedBodies> (one
 * per instance). Shapes mount before their host's own effects run, so the host creates its
 * body on demand.
 */
export interface ShapeHost {
  /** Attach the record's shape(s); returns the single shape of a <Body>, null for instances. */
  mountShape(rec: ShapeRecord): Shape | null;
  updateShape(rec: ShapeRecord, prev: Readonly<Record<string, unknown>>): void;
  unmountShape(rec: ShapeRecord): void;
}

export const ShapeHostContext = createContext<ShapeHost | null>(null);

/**
 * Whether shapes draw themselves, and how: as their own mesh (a <Body> without render
 * children), or by handing their geometry to the instanced mesh (the first shape of an
 * <InstancedBodies> without a geometry of its own).
 */
export interface ShapeLook {
  readonly draw: false | 'mesh' | 'geometry';
  /** Default colour, 0xRRGGBB, from the body type. */
  readonly color: number;
}

export const ShapeLookContext = createContext<ShapeLook>({ draw: false, color: 0xffffff });

/** Where a shape drawn as 'geometry' hands its geometry (the instanced mesh's owner). */
export const GeometrySinkContext = createContext<((geometry: BufferGeometry | null) => void) | null>(null);
