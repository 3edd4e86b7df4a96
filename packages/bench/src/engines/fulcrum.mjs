// Fulcrum (@fulcrum/physics), consumed through its built output (dist/index.js): the working tree's
// build, as the package resolves from here. The adapter itself is fulcrum-adapter.mjs, written
// against an injected module so that `--compare` can run another build through the same code.
import * as physics from '@fulcrum/physics';
import { fulcrumAdapter } from './fulcrum-adapter.mjs';

export { SYMBOLIC_PIVOT } from './fulcrum-adapter.mjs';

const adapter = fulcrumAdapter(physics, () => import('@fulcrum/symbolic'));

/** Builds `spec`: { step(), pose(k), settings }. */
export const create = adapter.create;

/** The UserConstraint subclasses of scenes E, I, J-user and K-user (see fulcrum-adapter.mjs). */
export const { UserPivotHooks, UserPivot, UserWeldHooks, UserWeld, UserDistance } = adapter.userClasses();
