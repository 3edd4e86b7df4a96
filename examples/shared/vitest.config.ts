import { defaultServerConditions } from 'vite';
import { defineConfig } from 'vitest/config';

// Node tests resolve through Vite's ssr environment, whose conditions are separate from
// `resolve.conditions`: without this they would need the packages' dist/ builds.
export default defineConfig({
  environments: { ssr: { resolve: { conditions: ['@fulcrum/source', ...defaultServerConditions] } } },
  test: {
    name: 'examples-shared',
    environment: 'node',
    include: ['src/**/*.test.ts'],
  },
});
