import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The demo's UI build. The API is mounted by server/dev.ts and server/serve.ts through
 * `chatwireVitePlugin`, so UI and API share one origin.
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  resolve: { conditions: ['@chatwire/source'] },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
});
