import { chatwireVitePlugin } from '@chatwire/server';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { POST } from './src/server.ts';

// The handler is imported at the top, as in any Vite config: `vite build` needs no CHATWIRE_SECRET
// (the handler reads it at its first request). `vite` and `vite preview` serve it at /api/chat.
export default defineConfig({ plugins: [react(), chatwireVitePlugin(POST)] });
