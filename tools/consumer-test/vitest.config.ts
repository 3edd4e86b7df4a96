import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    name: 'consumer-test',
    environment: 'node',
    include: ['src/**/*.test.mjs'],
    // Packs the three packages once, into the system's temp folder, for both test files.
    globalSetup: ['src/global-setup.mjs'],
    // npm install on a cold cache, tsc and three Vite builds on a busy 2-core machine are slow.
    testTimeout: 240_000,
    hookTimeout: 240_000,
  },
});
