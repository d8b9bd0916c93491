import { chatwireVitePlugin } from '@chatwire/server';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { handleChat } from './server/chatHandler.ts';

// `npm run dev`: the app and its chat API on one origin. The plugin answers `/api/chat` only and
// leaves every other URL (the app's pages and assets) to Vite.
export default defineConfig({
  plugins: [react(), chatwireVitePlugin(handleChat, { path: '/api/chat' })],
});
