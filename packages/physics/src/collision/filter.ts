/**
 * Collision filtering, Box2D/Nape style. Two shapes collide when
 *  - they share a non-zero `group`: positive → always collide, negative → never;
 *  - otherwise when (a.category & b.mask) !== 0 && (b.category & a.mask) !== 0.
 */
export interface CollisionFilter {
  /** Bit(s) this shape belongs to. Default 0x0001. */
  category: number;
  /** Bits this shape collides with. Default 0xFFFFFFFF (everything). */
  mask: number;
  /** Group index; see above. Default 0. */
  group: number;
}

export const DEFAULT_FILTER: Readonly<CollisionFilter> = Object.freeze({ category: 0x0001, mask: 0xffffffff, group: 0 });

export function shouldCollide(a: CollisionFilter, b: CollisionFilter): boolean {
  if (a.group === b.group && a.group !== 0) return a.group > 0;
  return (a.category & b.mask) !== 0 && (b.category & a.mask) !== 0;
}
