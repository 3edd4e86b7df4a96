/**
 * The engine describes what it contains to a `DebugDraw` sink; it never renders anything
 * itself, so it stays free of any rendering dependency. A canvas, three.js or SVG adapter
 * implements this interface. Colours are 0xRRGGBB numbers.
 *
 * Calls happen synchronously inside `space.debugDraw(sink)`. Array arguments are scratch
 * buffers owned by the engine: copy what you need, do not keep the reference.
 */
import { checkBoolean, checkOptionKeys, fail, optionKeys } from '../util/validate.js';

export interface DebugDraw {
  /** Closed convex polygon; `vertices` holds x0, y0, x1, y1, ... (`count` vertices). */
  drawPolygon(vertices: ArrayLike<number>, count: number, color: number): void;
  /** Circle with a radius line at `angle` so rotation is visible. */
  drawCircle(x: number, y: number, radius: number, angle: number, color: number): void;
  /** Line segment. */
  drawSegment(x1: number, y1: number, x2: number, y2: number, color: number): void;
  /** A point marker of `size` metres. */
  drawPoint(x: number, y: number, size: number, color: number): void;
}

export interface DebugDrawOptions {
  /** Shapes (default true). */
  shapes?: boolean;
  /** Contact points and normals (default false). */
  contacts?: boolean;
  /** Broadphase AABBs (default false). */
  aabbs?: boolean;
  /** Joints and constraints (default true). */
  constraints?: boolean;
}

const DEBUG_DRAW_OPTION_KEYS = optionKeys<DebugDrawOptions>()(['shapes', 'contacts', 'aabbs', 'constraints']);

/** Space.debugDraw's options, checked: each is a boolean, and there is no other. */
export function checkDebugDrawOptions(o: DebugDrawOptions): void {
  if (o === null || typeof o !== 'object') fail('Space', 'debugDraw(options)', o, 'must be an object { shapes?, contacts?, aabbs?, constraints? }');
  checkOptionKeys('Space', o, DEBUG_DRAW_OPTION_KEYS, 'debugDraw(options)');
  for (const k of DEBUG_DRAW_OPTION_KEYS) if (o[k] !== undefined) checkBoolean('Space', `debugDraw(options.${k})`, o[k]);
}

/** The palette the engine uses; exported so adapters and tests can refer to it. */
export const DebugColors = Object.freeze({
  dynamic: 0xe0a030,
  sleeping: 0x8080a0,
  static: 0x60c060,
  kinematic: 0x6090e0,
  sensor: 0xd060d0,
  contactPoint: 0xff3030,
  contactNormal: 0xffffff,
  aabb: 0x606060,
  constraint: 0x40e0e0,
});
