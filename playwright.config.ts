import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

/**
 * End-to-end tests in Debian's headless Chromium (browser downloads are impossible here, so
 * Playwright drives /usr/bin/chromium, or CHROMIUM_PATH). The built demo is served on loopback by
 * the test run itself and stops with it.
 */
const port = Number(process.env['E2E_PORT'] ?? 4317);
// One signing secret for both demo servers of the run.
const secret = randomBytes(32).toString('hex');
/** Where the served demo writes each run's record (records.spec.ts opens one in devtools). */
const RUN_RECORDS_DIR = new URL('./test-results/run-records/', import.meta.url).pathname;
/**
 * The MCP Apps fixture (packages/mcp/tests/fixtures/appServer.mjs) over Streamable HTTP on loopback, two
 * ports after the demo's: the MCP demo connects it through CHATWIRE_MCP_CONFIG twice, as `fixture` (eager)
 * and as `tides` (lazy: its tools wait for discovery), next to its own servers (mcpApps.spec.ts). Over HTTP, a 20 MB app is read and refused by its size (over
 * stdio the SDK's 10 MiB message limit would close the connection, under the other tests' feet).
 */
const appFixturePort = port + 2;
const MCP_APPS_CONFIG = new URL('./test-results/e2e-mcp-apps.json', import.meta.url).pathname;
mkdirSync(new URL('./test-results/', import.meta.url).pathname, { recursive: true });
writeFileSync(
  MCP_APPS_CONFIG,
  JSON.stringify({
    mcpServers: {
      fixture: { url: `http://127.0.0.1:${appFixturePort}/mcp`, lazy: false, connectTimeoutMs: 30_000 },
      tides: { url: `http://127.0.0.1:${appFixturePort}/mcp`, lazy: true, connectTimeoutMs: 30_000 },
    },
  }),
);

/** The built demo served on loopback by the test run itself, stopping with it. */
function demoServer(at: number, env: Record<string, string>) {
  return {
    command: 'npm run --silent -w @chatwire/demo serve',
    url: `http://127.0.0.1:${at}/api/tools`,
    reuseExistingServer: false,
    timeout: 60_000,
    // `vite preview` sets NODE_ENV=production in the server process, and the handler reads its signing
    // secret at the first request (since the missing-secret fix), so the served demo needs one, as deployed.
    // Threads in memory: each run starts with none, and the two servers never share a PGlite folder, with each other
    // or with an `npm start` (PGlite holds its folder alone: a second process is refused); a DATABASE_URL of the
    // developer's shell is emptied so the tests never write into that database. Page reloads and second pages still
    // see the threads (one server process).
    env: {
      PORT: String(at),
      HOST: '127.0.0.1',
      CHATWIRE_DELAY_MS: '12',
      CHATWIRE_MODEL: 'scripted',
      CHATWIRE_SECRET: secret,
      CHATWIRE_THREADS: 'memory',
      DATABASE_URL: '',
      CHATWIRE_RUN_RECORDS: RUN_RECORDS_DIR,
      // The client is a development build: the server sends each model call's request for the Requests view.
      CHATWIRE_INSPECT_REQUESTS: 'on',
      ...env,
    },
  };
}

/**
 * The MCP sign-in test's own servers (mcpOAuth.spec.ts): an authorization server and an OAuth-protected
 * MCP server on loopback (packages/mcp/tests/fixtures/oauthFixture.ts, SDK helpers), and the demo with
 * only that MCP server (`oauth: true`), whose config file is written here. On three ports from
 * `E2E_OAUTH_PORT` (the demo, the authorization server, the MCP server); defaults to `E2E_PORT` + 3 (+ 2 is the MCP Apps fixture).
 */
const oauthBase = Number(process.env['E2E_OAUTH_PORT'] ?? port + 3);
const OAUTH_PORTS = { demo: oauthBase, as: oauthBase + 1, mcp: oauthBase + 2 };
const oauthConfig = join(tmpdir(), `chatwire-e2e-oauth-${port}.json`);
writeFileSync(
  oauthConfig,
  JSON.stringify({ mcpServers: { secure: { url: `http://127.0.0.1:${OAUTH_PORTS.mcp}/mcp`, oauth: true, lazy: false } } }),
);
const oauthFixture = {
  command: 'node --conditions=@chatwire/source --import tsx packages/mcp/tests/fixtures/oauthFixture.ts',
  url: `http://127.0.0.1:${OAUTH_PORTS.as}/.well-known/oauth-authorization-server`,
  reuseExistingServer: false,
  timeout: 60_000,
  env: { OAUTH_AS_PORT: String(OAUTH_PORTS.as), OAUTH_MCP_PORT: String(OAUTH_PORTS.mcp) },
};

export default defineConfig({
  testDir: 'apps/demo/e2e',
  outputDir: 'test-results/e2e',
  fullyParallel: true,
  workers: 2,
  retries: 0,
  forbidOnly: true,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: [['list']],
  // Every demo and devtools test runs at desktop width and at 390 px (a phone); the cross-origin
  // checks are about the server and run once.
  projects: [
    { name: 'desktop', use: { viewport: { width: 1280, height: 800 } } },
    {
      name: 'mobile',
      testIgnore: /crossOrigin/,
      use: { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 2 },
    },
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
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
  },
  // The demo three times: as most tests use it, with its MCP servers connected (on the next port; mcp.spec.ts),
  // the MCP Apps fixture among them (started first, on the port after), and with an OAuth-protected MCP server
  // and its authorization server (mcpOAuth.spec.ts, on the three ports after that).
  webServer: [
    {
      command: `node packages/mcp/tests/fixtures/appServer.mjs http ${appFixturePort}`,
      port: appFixturePort,
      reuseExistingServer: false,
      timeout: 30_000,
    },
    demoServer(port, {}),
    demoServer(port + 1, { CHATWIRE_MCP: 'on', CHATWIRE_MCP_CONFIG: MCP_APPS_CONFIG }),
    oauthFixture,
    demoServer(OAUTH_PORTS.demo, { CHATWIRE_MCP: 'config', CHATWIRE_MCP_CONFIG: oauthConfig }),
  ],
});
