import { defaultClientConditions } from 'vite';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  resolve: {
    conditions: ['@fulcrum/source', ...defaultClientConditions],
    // @react-three/* ship CJS `main` + ESM `module` and no `exports`: prefer the ESM build.
    mainFields: ['module', 'main'],
  },
  // The same for the one test that runs in Node (ssr.test.tsx).
  environments: { ssr: { resolve: { mainFields: ['module', 'main'] } } },
  test: {
    name: 'react',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./vitest.setup.ts'],
    server: { deps: { inline: [/@react-three\//] } },
    // global gc(), for the churn test's heap measurements (src/churn.test.tsx).
    execArgv: ['--expose-gc'],
  },
});
