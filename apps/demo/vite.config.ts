import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

/**
 * The demo's UI build. The API is mounted by server/dev.ts and server/serve.ts through
 * `chatwireVitePlugin`, so UI and API share one origin. CORS is off on both servers: Vite's default
 * lets any localhost origin through, and a page on another local port must not drive the API.
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  resolve: { conditions: ['@chatwire/source'] },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: { cors: false },
  preview: { cors: false },
});
