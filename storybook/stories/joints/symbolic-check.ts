/**
 * Checks a symbolic source the way the story will use it, without touching the scene: it must
 * compile, and declare only the bodies and parameters the story provides.
 */
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
  return { ok: true, error: '', scalarNames: c.scalarNames, vectorNames: c.vectorNames };
}
