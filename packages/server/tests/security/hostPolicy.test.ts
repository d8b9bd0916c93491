import { request as httpRequest, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createChatHandler, createScriptedModel, toNodeListener } from '@chatwire/server';
import type { HostPolicyOptions } from '@chatwire/server/extension';
import { runInput, user } from '../fixtures.js';

/** A POST of a small run with a given Host header (node's client sends the header as given). */
function postWithHost(port: number, host: string): Promise<{ status: number; body: string }> {
  const body = JSON.stringify(runInput([user('hello')]));
  return new Promise((resolve, reject) => {
    const request = httpRequest(
      {
        host: '127.0.0.1',
        port,
        path: '/api/chat',
        method: 'POST',
        headers: { host, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
      },
      (response) => {
        let text = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (text += chunk));
        response.on('end', () => resolve({ status: response.statusCode ?? 0, body: text }));
      },
    );
    request.on('error', reject);
    request.end(body);
  });
}

async function withServer(options: HostPolicyOptions | undefined, run: (port: number) => Promise<void>) {
  const handler = createChatHandler({ model: createScriptedModel() });
  const server = createServer(options ? toNodeListener(handler, options) : toNodeListener(handler));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  try {
    await run((server.address() as AddressInfo).port);
  } finally {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
}

describe('Host allowlist (DNS rebinding)', () => {
  it('a loopback server answers local names and IPs by default, and refuses a foreign Host with 403', async () => {
    await withServer(undefined, async (port) => {
      // What a DNS-rebound page sends: its own name, now resolving to 127.0.0.1.
      const foreign = await postWithHost(port, `attacker.example:${port}`);
      expect(foreign.status).toBe(403);
      expect(JSON.parse(foreign.body)).toMatchObject({ code: 'forbidden-host', error: expect.stringContaining('allowedHosts') });
      for (const host of [`localhost:${port}`, `127.0.0.1:${port}`, `app.localhost:${port}`, `[::1]:${port}`]) {
        expect((await postWithHost(port, host)).status, host).toBe(200);
      }
    });
  });

  it('serves the names listed in allowedHosts (a proxy in front forwarding to loopback), subdomains with a leading dot', async () => {
    await withServer({ allowedHosts: ['chat.example.com', '.apps.example.com'] }, async (port) => {
      expect((await postWithHost(port, 'chat.example.com')).status).toBe(200);
      expect((await postWithHost(port, 'eu.apps.example.com')).status).toBe(200);
      expect((await postWithHost(port, 'apps.example.com')).status).toBe(200);
      expect((await postWithHost(port, 'chat.example.com.evil.example')).status).toBe(403);
      expect((await postWithHost(port, 'evilapps.example.com')).status).toBe(403);
    });
  });

  it("'any' turns the check off", async () => {
    await withServer({ allowedHosts: 'any' }, async (port) => {
      expect((await postWithHost(port, 'anything.example')).status).toBe(200);
    });
  });

  it('the handler checks Host itself when given allowedHosts (any framework, not only node:http)', async () => {
    const handler = createChatHandler({ model: createScriptedModel(), allowedHosts: ['chat.example.com'] });
    const post = (url: string) =>
      handler(
        new Request(url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(runInput([user('hello')])),
        }),
      );
    const refused = await post('http://rebound.example/api/chat');
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ code: 'forbidden-host' });
    const served = await post('http://chat.example.com/api/chat');
    expect(served.status).toBe(200);
    await served.body?.cancel();
  });
});
