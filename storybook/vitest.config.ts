import { defineConfig } from 'vitest/config';

// Browser tests over the built static Storybook (`npm test` builds it first). They run in Node
// and drive the system Chromium through @fulcrum/browser-testing.
export default defineConfig({
  test: {
    name: 'storybook',
    environment: 'node',
    include: ['tests/**/*.test.ts'],
    // One Chromium per file; files run one after another so that two WebGL pages don't fight
    // over the two cores (turbo may be running other packages' tests at the same time).
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
