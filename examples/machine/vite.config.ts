import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

export default defineConfig({
  plugins: [react()],
  // '@fulcrum/source' makes the workspace packages resolve to their TypeScript source: no build first.
  resolve: { conditions: ['@fulcrum/source', ...defaultClientConditions] },
  // Relative asset URLs, so dist/ works from any static path.
  base: './',
  // three.js alone is about 700 kB minified; one chunk is fine for an example.
  build: { chunkSizeWarningLimit: 2000 },
});
