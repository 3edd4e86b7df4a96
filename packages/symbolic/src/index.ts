/**
 * @fulcrum/symbolic: constraints written as a formula. A position constraint C(x) (or a
 * velocity constraint V) in a small language; its velocity, Jacobian and effective mass are
 * derived symbolically and compiled to JavaScript. See README.md for the language.
 */

/** The package version; kept equal to package.json's "version" (a test checks it). */
export const VERSION = '0.1.0';

export { SymbolicConstraint } from './symbolic-constraint.js';
export type { SymbolicConstraintOptions, SymbolicParameters } from './symbolic-constraint.js';
export type { CompileMode } from './compile.js';
export { SymbolicError, SymbolicSyntaxError, SymbolicTypeError, SymbolicLimitError, SymbolicRuntimeError } from './errors.js';
export type { ErrorWhere, Span } from './errors.js';
/** Example sources: WELD, DISTANCE, LINE (the Nape manual's), PIVOT and MOTOR. */
export * as examples from './examples.js';
