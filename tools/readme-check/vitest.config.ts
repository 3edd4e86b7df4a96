import { defineConfig } from 'vitest/config';

// Type-checking every README block against the packages' sources takes a while on 2 cores.
export default defineConfig({
  test: {
    name: 'readme-check',
    environment: 'node',
    include: ['src/**/*.test.mjs'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
