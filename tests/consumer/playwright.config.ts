import { randomBytes } from 'node:crypto';
import { defineConfig } from '@playwright/test';

/**
 * The consumer test's browser half, started by scripts/consumerApp.mjs once the example app is
 * installed from the tarballs and built: drives it in Debian's headless Chromium against the app's
 * own production server (`npm start` in CONSUMER_APP_DIR).
 */
const appDir = process.env['CONSUMER_APP_DIR'];
if (!appDir) throw new Error('Run the consumer test with `node scripts/consumerApp.mjs` (CONSUMER_APP_DIR is not set).');
const port = Number(process.env['CONSUMER_PORT'] ?? 4418);

export default defineConfig({
  testDir: '.',
  outputDir: '../../test-results/consumer',
  workers: 1,
  retries: 0,
  forbidOnly: true,
  timeout: 30_000,
  expect: { timeout: 10_000 },
  reporter: [['list']],
  // The copied example at desktop width and at 390 px (a phone), as the demo is tested.
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
    { name: 'mobile', use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 } },
  ],
  use: {
    baseURL: `http://127.0.0.1:${port}`,
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
  webServer: {
    command: 'npm start',
    cwd: appDir,
    url: `http://127.0.0.1:${port}/`,
    reuseExistingServer: false,
    timeout: 30_000,
    // As deployed: production mode, with the signing secret a production server needs.
    env: { PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'production', CHATWIRE_SECRET: randomBytes(32).toString('hex') },
  },
});
