import { defineConfig } from 'vitest/config';

// The root vitest config runs every packages/* folder as a project, so this package needs its own config.
// These tests check the benchmark's scene data and statistics; the benchmark itself (`npm test` runs
// `node src/bench.mjs --quick`) is not a vitest test.
export default defineConfig({
  test: {
    name: 'bench',
    environment: 'node',
    include: ['src/**/*.test.mjs'],
  },
});
