/**
 * Telling shape children from render children. A <Body> whose children are all shape
 * components has nothing of its own to draw, so its shapes draw themselves; one with a mesh
 * (or any other element) draws that instead. Shape components carry a static marker.
 */
import { Children, cloneElement, Fragment, isValidElement, type ReactElement, type ReactNode } from 'react';

const SHAPE_MARK = Symbol.for('fulcrum.shape');

/** Mark a component as a shape component. */
export function markShape<T extends object>(component: T): T {
  (component as Record<symbol, unknown>)[SHAPE_MARK] = true;
  return component;
}

export function isShapeElement(node: ReactNode): boolean {
  return isValidElement(node) && typeof node.type !== 'string' && (node.type as unknown as Record<symbol, unknown>)[SHAPE_MARK] === true;
}

/** True when `children` holds anything besides shape components (fragments are looked into). */
export function hasRenderChildren(children: ReactNode): boolean {
  let found = false;
  Children.forEach(children, (child) => {
    if (found || child === null || child === undefined || typeof child === 'boolean') return;
    if (isShapeElement(child)) return;
    if (isValidElement(child) && child.type === Fragment) {
      found = hasRenderChildren((child as ReactElement<{ children?: ReactNode }>).props.children);
      return;
    }
    found = true;
  });
  return found;
}

/** Split children into shape components and everything else (fragments are looked into). */
export function partitionChildren(children: ReactNode, prefix = ''): { shapes: ReactNode[]; others: ReactNode[] } {
  const shapes: ReactNode[] = [];
  const others: ReactNode[] = [];
  for (const child of Children.toArray(children)) {
    const keyed = prefix && isValidElement(child) ? cloneElement(child, { key: `${prefix}${String(child.key)}` }) : child;
    if (isShapeElement(child)) shapes.push(keyed);
    else if (isValidElement(child) && child.type === Fragment) {
      const inner = partitionChildren((child as ReactElement<{ children?: ReactNode }>).props.children, `${prefix}${String(child.key)}/`);
      shapes.push(...inner.shapes);
      others.push(...inner.others);
    } else others.push(keyed);
  }
  return { shapes, others };
}
