import { defineConfig } from 'vitest/config';

// Unit tests of the pure layout code, and the browser tests: they run in Node and drive Chromium
// against the built dist/ (`npm test` builds first).
export default defineConfig({
  test: {
    name: 'example-car',
    environment: 'node',
    include: ['src/**/*.test.ts', 'test/**/*.browser.test.ts'],
    // Launching Chromium and software WebGL on a busy 2-core machine are slow.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
