import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };

export default defineConfig({
  plugins: [react()],
  // '@fulcrum/source' makes the workspace packages resolve to their TypeScript source: no build first.
  resolve: { conditions: ['@fulcrum/source', ...defaultClientConditions] },
  // Relative asset URLs, so dist/ works from any static path.
  base: './',
  // Cross-origin isolated (COOP + COEP), in development and preview: SharedArrayBuffer, which
  // Fulcrum's workers need, exists only on such a page. A host serving dist/ should send the same.
  server: { headers: ISOLATION },
  preview: { headers: ISOLATION },
  // three.js alone is about 700 kB minified; one chunk is fine for an example.
  build: { chunkSizeWarningLimit: 2000 },
});
