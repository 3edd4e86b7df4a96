/**
 * @fulcrum/react/symbolic: <SymbolicConstraint>, a constraint written as a formula with
 * @fulcrum/symbolic (an optional peer dependency: install it to use this entry). Kept apart from
 * the main entry so that @fulcrum/react never loads @fulcrum/symbolic unless this entry is used.
 */
export { SymbolicConstraint, type SymbolicConstraintProps } from './SymbolicConstraint.js';
