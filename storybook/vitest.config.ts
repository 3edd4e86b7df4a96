import { defineConfig } from 'vitest/config';

// Browser tests over the built static Storybook (`npm test` builds it first). They run in Node
// and drive the system Chromium through @fulcrum/browser-testing.
export default defineConfig({
  test: {
    name: 'storybook',
    environment: 'node',
    include: ['tests/**/*.test.ts'],
    // One Chromium per file, two files at a time. Why two: one at a time took 12 minutes, most
    // of it waiting on scenes that settle in real time, and left a core idle once the other
    // packages' tests were done; the story checks are split in two files (stories-a, stories-b)
    // so that the two longest files run side by side.
    fileParallelism: true,
    maxWorkers: 2,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
