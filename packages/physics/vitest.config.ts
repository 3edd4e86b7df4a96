import { defaultClientConditions } from 'vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    conditions: ['@fulcrum/source', ...defaultClientConditions],
  },
  test: {
    name: 'physics',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    setupFiles: ['src/test-support/check-user-constraints.ts', 'src/test-support/threads-beyond-cores.ts'],
  },
});
