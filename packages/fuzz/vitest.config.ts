import { defineConfig } from 'vitest/config';

// The root vitest config runs every packages/* folder as a project, so this package needs its own.
// @fulcrum/physics and @fulcrum/symbolic are imported by package name, as built (turbo's test task
// builds them first). The soak measures the heap after a full GC, so the test workers (forks) run
// with --expose-gc.
export default defineConfig({
  test: {
    name: 'fuzz',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    pool: 'forks',
    execArgv: ['--expose-gc'],
    // The quick fuzz and the soak each run for tens of seconds on 2 busy cores; a hang still fails.
    testTimeout: 180_000,
    hookTimeout: 180_000,
  },
});
