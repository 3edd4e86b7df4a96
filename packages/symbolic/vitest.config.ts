import { defaultClientConditions, defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    conditions: ['@fulcrum/source', ...defaultClientConditions],
  },
  // Node tests resolve through Vite's ssr environment, whose conditions are separate from
  // `resolve.conditions`: without this, @fulcrum/physics would resolve to its dist/ build.
  environments: { ssr: { resolve: { conditions: ['@fulcrum/source', ...defaultServerConditions] } } },
  test: {
    name: 'symbolic',
    environment: 'node',
    include: ['src/**/*.test.ts'],
    // The property and fuzz tests run thousands of cases: on 2 busy cores (browser tests beside
    // them) they can take several times vitest's default 5 s. A hang still fails, after a minute.
    testTimeout: 60_000,
  },
});
