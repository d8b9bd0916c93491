import { chatwireVitePlugin } from '@chatwire/server';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { handleChat, handleTools } from './server/chatHandler.ts';

// `npm run dev`: the app and its API on one origin. The plugin answers `/api/chat` and `/api/tools` (the
// tool catalog the devtools read) and leaves every other URL (the app's pages and assets) to Vite. Importing the handler here is safe for
// `vite build`: it reads CHATWIRE_SECRET at its first request, so building needs no secret.
export default defineConfig({
  plugins: [react(), chatwireVitePlugin({ '/api/chat': handleChat, '/api/tools': handleTools })],
});
