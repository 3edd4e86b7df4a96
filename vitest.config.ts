import { defineConfig } from 'vitest/config';

// `npx vitest run` at the root runs every package's own vitest.config.ts as a project.
// Every directory matched here must therefore have its own vitest.config.ts.
export default defineConfig({
  test: {
    projects: ['packages/*'],
  },
});
