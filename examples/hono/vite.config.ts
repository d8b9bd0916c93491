import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// Builds the page only (`npm run build` → dist/); the server in server/main.ts serves it and the chat API.
export default defineConfig({ plugins: [react()] });
