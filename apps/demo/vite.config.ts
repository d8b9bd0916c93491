import react from '@vitejs/plugin-react';
import { defaultClientConditions, defineConfig } from 'vite';

/**
 * The demo's UI build. The API is mounted by server/dev.ts and server/serve.ts through
 * `chatwireVitePlugin`, so UI and API share one origin. CORS is off on both servers: Vite's default
 * lets any localhost origin through, and a page on another local port must not drive the API.
 */
export default defineConfig({
  root: import.meta.dirname,
  plugins: [react()],
  // The packages' sources first; then Vite's own browser conditions, which replacing the list would drop
  // (the MCP SDK the MCP Apps bridge loads resolves `pkce-challenge` by its `browser` condition).
  resolve: { conditions: ['@chatwire/source', ...defaultClientConditions] },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
  server: { cors: false },
  preview: { cors: false },
});
