import { defineConfig } from 'vitest/config';

// The root vitest config treats every packages/* folder as a project; without a config of
// its own this one would be given vitest's defaults. The benchmarks are not tests.
export default defineConfig({
  test: {
    name: 'bench',
    include: ['src/**/*.test.ts'],
    passWithNoTests: true,
  },
});
