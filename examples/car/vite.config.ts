import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

// '@fulcrum/source' makes the workspace packages resolve to their TypeScript source: no build first.
export default defineConfig({
  plugins: [react()],
  resolve: { conditions: ['@fulcrum/source', ...defaultClientConditions] },
  // Relative asset URLs, so dist/ works from any static path.
  base: './',
});
