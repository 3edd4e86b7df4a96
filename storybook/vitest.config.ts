import { defineConfig } from 'vitest/config';

// Browser tests over the built static Storybook (`npm test` builds it first). They run in Node
// and drive the system Chromium through @fulcrum/browser-testing.
export default defineConfig({
  test: {
    name: 'storybook',
    environment: 'node',
    include: ['tests/**/*.test.ts'],
    // One Chromium per file, four files at a time, on two cores. Most of a story check waits in
    // real time for scenes to fall and settle, so the cores idle: one file at a time took 12
    // minutes, two took 8. The story checks are split in four files (stories-1 … stories-4) so
    // that the longest files run side by side.
    fileParallelism: true,
    maxWorkers: 4,
    testTimeout: 120_000,
    hookTimeout: 120_000,
  },
});
