/**
 * Body references as components take them: a Body, a ref object holding one, or nothing.
 * A reference resolves to a body only when that body is live and in the world's space, so a
 * joint never hands the engine a body that is still mounting or already gone.
 */
import { Body } from '@fulcrum/physics';
import type { Space } from '@fulcrum/physics';
import type { RefObject } from 'react';
import { propFail } from './errors.js';
import { isRetired } from './retire.js';

export type BodyRef = Body | RefObject<Body | null> | null | undefined;

export function resolveBody(ref: BodyRef, space: Space): Body | null {
  const b = ref instanceof Body ? ref : ref !== null && typeof ref === 'object' ? ref.current : null;
  if (!(b instanceof Body) || isRetired(b) || b.space !== space) return null;
  return b;
}

/** Render-time check of a body reference prop. */
export function checkBodyRef(component: string, prop: string, ref: unknown): void {
  if (ref === undefined || ref === null || ref instanceof Body) return;
  if (typeof ref === 'object' && 'current' in ref) return;
  propFail(component, prop, ref, 'must be a Body, a ref to a <Body> (useRef), or null');
}
