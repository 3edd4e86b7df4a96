import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'browser-testing',
    environment: 'node',
    include: ['src/**/*.test.mjs'],
    // A browser launch on a busy 2-core machine can take several seconds.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
