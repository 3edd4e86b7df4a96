/** The error classes the engine documents, and how the fuzz tells them apart. */
import { FulcrumDivergenceError, FulcrumInputError } from '@fulcrum/physics';
import { SymbolicError, SymbolicLimitError, SymbolicRuntimeError, SymbolicSyntaxError, SymbolicTypeError } from '@fulcrum/symbolic';
import { HookRuntime } from './runtime.js';

/** What an invalid call must throw. */
export type Expected = 'input' | 'syntax' | 'type' | 'limit' | 'runtime' | 'runtime-or-input' | 'injected' | 'divergence';

export function isDocumented(e: unknown): boolean {
  return e instanceof FulcrumInputError || e instanceof FulcrumDivergenceError || e instanceof SymbolicError;
}

export function matches(e: unknown, expected: Expected): boolean {
  switch (expected) {
    case 'input':
      return e instanceof FulcrumInputError;
    case 'syntax':
      return e instanceof SymbolicSyntaxError;
    case 'type':
      return e instanceof SymbolicTypeError;
    case 'limit':
      return e instanceof SymbolicLimitError;
    case 'runtime':
      return e instanceof SymbolicRuntimeError;
    case 'runtime-or-input':
      return e instanceof SymbolicRuntimeError || e instanceof FulcrumInputError;
    case 'injected':
      return e instanceof HookRuntime.Injected;
    case 'divergence':
      return e instanceof FulcrumDivergenceError;
  }
}

/** "FulcrumInputError: Body.mass must be …" (first line, shortened). */
export function describeError(e: unknown): string {
  if (e instanceof Error) {
    const first = e.message.split('\n')[0]!;
    return `${e.name}: ${first.length > 300 ? `${first.slice(0, 300)}…` : first}`;
  }
  return `non-Error thrown: ${String(e)}`;
}

/** An error's message without its numbers and object ids: two errors with the same signature have the same cause. */
export function signature(e: unknown): string {
  return describeError(e).replace(/#\d+/g, '#').replace(/-?\d[\d.]*(e[-+]?\d+)?/g, 'N').slice(0, 160);
}
