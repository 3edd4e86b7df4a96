/**
 * Rendering a bad prop: the error it throws during render, with React's own console report of it
 * silenced, and the tree cleaned up whatever happens.
 */
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { expect, vi } from 'vitest';
import { FulcrumPropError } from '../core/errors.js';

/** Renders `ui` and checks that it throws a FulcrumPropError whose message matches `message`. */
export function expectPropError(ui: ReactNode, message: RegExp): void {
  let err: unknown = null;
  const quiet = vi.spyOn(console, 'error').mockImplementation(() => {});
  try {
    render(ui);
  } catch (e) {
    err = e;
  } finally {
    quiet.mockRestore();
    cleanup();
  }
  expect(err).toBeInstanceOf(FulcrumPropError);
  expect((err as Error).message).toMatch(message);
}
