import { createServer, type IncomingMessage, type Server } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { connectMcpServers, type McpServers } from '../src/index.js';

/*
 * Startup is bounded by the slowest server, not the sum of all: every server's connection is started
 * before any of them finishes. Each server here (the SDK's own, over Streamable HTTP on loopback)
 * holds its `initialize` answer until all three have been asked, so connecting one after another
 * could never finish (the first would time out waiting for the others). Counted, never timed.
 */

const opened: Server[] = [];
let mcp: McpServers | undefined;
afterEach(async () => {
  await mcp?.close();
  mcp = undefined;
  await Promise.all(opened.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});

/** The JSON body of a request. */
async function bodyOf(request: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of request) chunks.push(chunk as Buffer);
  return chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

/** What the servers were asked: initialize requests received, and how many had been when the first was answered. */
interface Counts {
  asked: number;
  askedAtFirstAnswer?: number;
}

/** Servers named `names` that answer `initialize` only once every one of them has been asked. */
async function gatedServers(names: readonly string[], counts: Counts) {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const urls: Record<string, { url: string }> = {};
  for (const name of names) {
    const server = new McpServer({ name, version: '1.0.0' });
    server.registerTool(`ping_${name}`, { description: 'Answers pong.', inputSchema: { text: z.string() } }, async () => ({
      content: [{ type: 'text', text: 'pong' }],
    }));
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
    await server.connect(transport);
    const http = createServer((request, response) => {
      void (async () => {
        const body = request.method === 'POST' ? await bodyOf(request) : undefined;
        if ((body as { method?: unknown } | undefined)?.method === 'initialize') {
          counts.asked++;
          if (counts.asked === names.length) open();
          await gate;
          counts.askedAtFirstAnswer ??= counts.asked;
        }
        await transport.handleRequest(request, response, body);
      })();
    });
    await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
    opened.push(http);
    urls[name] = { url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp` };
  }
  return urls;
}

describe('connectMcpServers: servers connect in parallel', () => {
  it('asks every server to initialize before any answers, and connects all three', async () => {
    const counts: Counts = { asked: 0 };
    const names = ['alpha', 'beta', 'gamma'];
    // A serial start never asks the third server: the first times out waiting for it (and stays unconnected).
    const servers = await gatedServers(names, counts);
    mcp = await connectMcpServers(
      { mcpServers: Object.fromEntries(Object.entries(servers).map(([name, server]) => [name, { ...server, connectTimeoutMs: 3_000 }])) },
      { allowedHosts: ['127.0.0.1'] },
    );
    expect(counts.askedAtFirstAnswer).toBe(3);
    expect(mcp.status().map((status) => [status.name, status.state])).toEqual(names.map((name) => [name, 'connected']));
    expect(
      mcp
        .tools()
        .map((tool) => tool.name)
        .sort(),
    ).toEqual(names.map((name) => `${name}__ping_${name}`));
  });
});
