/** For the bad-input tests: the FulcrumInputError a call throws. */
import { expect } from 'vitest';
import { FulcrumInputError } from '../util/validate.js';

/** The caught FulcrumInputError of `f` (fails the test if it throws nothing, or something else). */
export function inputError(f: () => unknown): FulcrumInputError {
  try {
    f();
  } catch (e) {
    expect(e).toBeInstanceOf(FulcrumInputError);
    return e as FulcrumInputError;
  }
  throw new Error('expected a FulcrumInputError, nothing was thrown');
}
