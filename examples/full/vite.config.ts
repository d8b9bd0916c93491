// vite.config.ts
import { chatwireVitePlugin } from '@chatwire/server';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { routes } from './src/server.ts';

export default defineConfig({ plugins: [react(), chatwireVitePlugin(routes)] });
