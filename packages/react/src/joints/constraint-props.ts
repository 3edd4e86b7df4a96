/**
 * The props every constraint component takes besides its own options, in a module of its own:
 * <SymbolicConstraint> (the symbolic entry) reads it without pulling in the seven joints.
 */
import { BASE_CONSTRAINT_OPTION_KEYS, type Constraint } from '@fulcrum/physics';
import { propNames } from '../core/props.js';
import type { CommonConstraintProps } from './joints.js';

/** Any other prop (beyond a component's own options) is an error: see checkPropNames. */
export const CONSTRAINT_PROPS = propNames<CommonConstraintProps<Constraint>>()([...BASE_CONSTRAINT_OPTION_KEYS, 'onBreak', 'ref']);
