import { defineConfig } from '@playwright/test';

/**
 * The recipes test's browser half, started by scripts/recipes.mjs once a recipe (examples/vite,
 * express, hono, nextjs) is installed from the tarballs, built and serving at RECIPE_URL.
 */
const baseURL = process.env['RECIPE_URL'];
if (!baseURL) throw new Error('Run the recipes test with `node scripts/recipes.mjs` (RECIPE_URL is not set).');

export default defineConfig({
  testDir: '.',
  outputDir: '../../test-results/recipes',
  workers: 1,
  retries: 0,
  forbidOnly: true,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  use: {
    baseURL,
    browserName: 'chromium',
    headless: true,
    trace: 'retain-on-failure',
    launchOptions: {
      executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--no-first-run',
      ],
    },
  },
});
