/**
 * The public vector type. Inputs accept `{x, y}` or `[x, y]`; outputs are always `{x, y}`.
 * Inside the solver, vectors are scalarised: these types are for the API surface only.
 */
export interface Vec2 {
  x: number;
  y: number;
}

/** What every public vector-valued input accepts. */
export type Vec2Like = Vec2 | readonly [number, number];

/** A 3-vector used by Nape-style constraint read-outs: x, y linear and z angular. */
export interface Vec3 {
  x: number;
  y: number;
  z: number;
}

export function vec2(x: number, y: number): Vec2 {
  return { x, y };
}
