import { chatwireVitePlugin } from '@chatwire/server';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// `npm run dev`: the app and its chat API on one origin. The plugin answers `/api/chat` only and
// leaves every other URL (the app's pages and assets) to Vite. `vite build` only builds the page,
// so the chat handler (and the production secret it requires) is loaded for the dev server alone.
export default defineConfig(async ({ command }) => ({
  plugins: [
    react(),
    ...(command === 'serve' ? [chatwireVitePlugin((await import('./server/chatHandler.ts')).handleChat, { path: '/api/chat' })] : []),
  ],
}));
