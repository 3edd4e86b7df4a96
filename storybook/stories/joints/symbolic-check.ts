/**
 * Checks a symbolic source the way the story will use it, without touching the scene: it must
 * compile, declare only the bodies and parameters the story provides, and pass the derivative
 * check the Storybook runs with (<Physics checkUserConstraints>, see StoryFrame). A source that
 * compiles but fails that check (a row constant by accident, such as
 * |unit(crate.position - hook.position)| - 1) would otherwise make every step of the scene throw.
 */
import { Body, Space } from '@fulcrum/physics';
import { SymbolicConstraint } from '@fulcrum/symbolic';

export interface SourceCheck {
  ok: boolean;
  /** A readable error (the compiler's message, with its line and column), or ''. */
  error: string;
  scalarNames: readonly string[];
  vectorNames: readonly string[];
}

export function checkSource(source: string, bodies: readonly string[], scalars: readonly string[], vectors: readonly string[]): SourceCheck {
  let c: SymbolicConstraint;
  try {
    c = new SymbolicConstraint(source);
  } catch (error) {
    return { ok: false, error: error instanceof Error ? error.message : String(error), scalarNames: [], vectorNames: [] };
  }
  const problems = [
    ...c.bodyNames.filter((n) => !bodies.includes(n)).map((n) => `body '${n}' (this story provides ${bodies.join(', ')})`),
    ...c.scalarNames.filter((n) => !scalars.includes(n)).map((n) => `scalar '${n}' (this story provides ${scalars.join(', ')})`),
    ...c.vectorNames.filter((n) => !vectors.includes(n)).map((n) => `vector '${n}' (this story provides ${vectors.join(', ')})`),
  ];
  if (problems.length > 0) return { ok: false, error: `The source declares ${problems.join('; ')}.`, scalarNames: [], vectorNames: [] };
  const rejected = derivativeCheck(c);
  if (rejected !== null) return { ok: false, error: rejected, scalarNames: [], vectorNames: [] };
  return { ok: true, error: '', scalarNames: c.scalarNames, vectorNames: c.vectorNames };
}

/**
 * One step of a throwaway space with checkUserConstraints on: the constraint's bodies dynamic
 * (a static body's columns are not judged), apart and turned, its parameters at 1 and [0.5, 0.5].
 * The engine's error message, or null.
 */
function derivativeCheck(c: SymbolicConstraint): string | null {
  const space = new Space({ checkUserConstraints: true });
  c.bodyNames.forEach((name, i) => c.setBody(name, space.addBody(new Body({ position: [3 * i, 2 - i], rotation: 0.3 * i, mass: 1, inertia: 1 }))));
  for (const name of c.scalarNames) c.setScalar(name, 1);
  for (const name of c.vectorNames) c.setVector(name, [0.5, 0.5]);
  try {
    space.addConstraint(c);
    space.step(1 / 60);
    return null;
  } catch (error) {
    return `The derivative check (checkUserConstraints) rejects it: ${error instanceof Error ? error.message : String(error)}`;
  }
}
