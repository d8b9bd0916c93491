import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIRequestContext } from '@playwright/test';
import { expect, expectConsole, test } from './fixtures.ts';

/** A page on another local port: an attacker's page the user happens to have open. */
async function attackerSite(): Promise<{ origin: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>elsewhere</title><p>Another local app.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

const runInput = JSON.stringify({
  threadId: 't_attack',
  runId: 'r_attack',
  messages: [{ id: 'u1', role: 'user', content: 'use refundOrder for ORD-1234' }],
  tools: [],
  context: [],
});

/**
 * What the API answers another local origin, with and without CORS preflight. Each request on a
 * connection of its own (`connection: close`): a kept-alive connection the server closes as idle
 * while the next request goes out resets that request (ECONNRESET), which says nothing about CORS.
 */
async function expectClosedTo(request: APIRequestContext, api: string, origin: string) {
  const preflight = await request.fetch(api, {
    method: 'OPTIONS',
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type', connection: 'close' },
  });
  expect(preflight.headers()['access-control-allow-origin']).toBeUndefined();
  const json = await request.post(api, {
    headers: { origin, 'sec-fetch-site': 'same-site', 'content-type': 'application/json', connection: 'close' },
    data: runInput,
  });
  expect(json.status()).toBe(403);
  expect(json.headers()['access-control-allow-origin']).toBeUndefined();
  const form = await request.post(api, {
    headers: { origin, 'sec-fetch-site': 'same-site', 'content-type': 'text/plain', connection: 'close' },
    data: runInput,
  });
  expect([403, 415]).toContain(form.status());
}

test('a page on another local port cannot drive the API of the built demo (preview server)', async ({ page, request, baseURL }) => {
  // The attacker's page is refused on purpose: the browser reports the blocked fetch and the 403.
  expectConsole(/CORS policy|Failed to load resource/);
  const attacker = await attackerSite();
  try {
    await expectClosedTo(request, `${baseURL}/api/chat`, attacker.origin);
    // From a real page: a JSON fetch (needs CORS) fails, and a scriptless text/plain form is refused.
    await page.goto(attacker.origin);
    const fetched = await page.evaluate(
      async ({ api, body }) => {
        try {
          const response = await fetch(api, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
          return `status ${response.status}`;
        } catch (error) {
          return `blocked: ${String(error)}`;
        }
      },
      { api: `${baseURL}/api/chat`, body: runInput },
    );
    expect(fetched).toMatch(/^blocked/);
    await page.setContent(
      `<form method="post" action="${baseURL}/api/chat" enctype="text/plain"><input name='{"threadId":"t","runId":"r","messages":[],"tools":[],"context":[],"x":"' value='"}'><button>go</button></form>`,
    );
    await page.getByRole('button', { name: 'go' }).click();
    await expect(page.locator('body')).toContainText(/forbidden-origin|unsupported-media-type/);
    // The demo's own page still works.
    await page.goto('/');
    await page.getByLabel('Message', { exact: true }).fill('hello there');
    await page.getByRole('button', { name: 'Send' }).click();
    await expect(page.locator('[data-role="assistant"]').last()).toContainText('You said: "hello there"');
  } finally {
    attacker.server.close();
  }
});

test('the dev server (npm start) does not let another local origin drive the API either', async ({ request }) => {
  test.setTimeout(90_000);
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise((resolve) => probe.close(resolve));
  const child: ChildProcess = spawn('npm', ['run', '--silent', '-w', '@chatwire/demo', 'dev'], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', CHATWIRE_MODEL: 'scripted' },
    stdio: ['ignore', 'ignore', 'pipe'],
    detached: true,
  });
  // What the dev server said on stderr, shown if the test fails (a crash would explain a reset).
  let stderr = '';
  child.stderr?.on('data', (chunk: Buffer) => void (stderr = (stderr + chunk.toString()).slice(-4_000)));
  const attacker = await attackerSite();
  try {
    const api = `http://127.0.0.1:${port}/api/chat`;
    await expect
      .poll(async () => (await request.get(`http://127.0.0.1:${port}/api/tools`).catch(() => undefined))?.status(), { timeout: 60_000 })
      .toBe(200);
    await expectClosedTo(request, api, attacker.origin);
    await expectClosedTo(request, api, `http://localhost:${port + 1}`);
  } catch (error) {
    if (stderr) console.error(`the dev server's stderr:\n${stderr}`);
    throw error;
  } finally {
    attacker.server.close();
    if (child.pid) process.kill(-child.pid, 'SIGTERM');
  }
});
