import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createToolsHandler } from '@chatwire/server';
import type { ToolCatalog } from '@chatwire/core/shared';
import { connectMcpServers, MCP_PROGRESS_EVENT, type McpServers } from '../src/index.js';
import { SERVERS, byName, run, stdio, until } from './mcpFixtures.js';

const HTTP_PORT = Number(process.env.MCP_TEST_HTTP_PORT ?? 4421);

describe('the real npm servers over stdio', () => {
  let folder: string;
  let mcp: McpServers;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), 'chatwire-mcp-'));
    await writeFile(join(folder, 'hello.txt'), 'Hello from the temp folder');
    mcp = await connectMcpServers({
      mcpServers: {
        files: stdio(SERVERS.filesystem, [folder]),
        memory: stdio(SERVERS.memory, [], { env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') } }),
        everything: stdio(SERVERS.everything, ['stdio']),
      },
    });
  }, 60_000);
  afterAll(async () => {
    await mcp?.close();
    await rm(folder, { recursive: true, force: true });
  });

  it('connects all three, each tool prefixed by its server and grouped under it', () => {
    const status = mcp.status();
    expect(status.map((server) => [server.name, server.state, server.transport])).toEqual([
      ['files', 'connected', 'stdio'],
      ['memory', 'connected', 'stdio'],
      ['everything', 'connected', 'stdio'],
    ]);
    const names = mcp.tools().map((tool) => tool.name);
    expect(names).toContain('files__list_directory');
    expect(names).toContain('memory__create_entities');
    expect(names).toContain('everything__echo');
    for (const tool of mcp.tools()) {
      expect(tool.name).toMatch(/^[a-zA-Z0-9_-]{1,64}$/);
      expect(tool.group).toBe(tool.name.split('__')[0]);
    }
    expect(mcp.groups().every((group) => group.description.length > 0)).toBe(true);
  });

  it("each server's token count is the catalog's, tool by tool (the definitions the model is sent, without `$schema`)", async () => {
    const body = (await (
      await createToolsHandler(() => mcp.tools(), { servers: () => mcp.catalogStatus() })(new Request('http://localhost/api/tools'))
    ).json()) as ToolCatalog;
    for (const server of body.servers ?? []) {
      const listed = body.tools.filter((tool) => tool.group === server.name);
      expect(listed.length).toBe(server.toolCount);
      expect(server.tokens).toBe(listed.reduce((sum, tool) => sum + tool.tokens, 0));
    }
    expect(body.servers?.map((server) => server.name)).toEqual(['files', 'memory', 'everything']);
  });

  it('describes a server by its instructions as plain text, never their Markdown', () => {
    const everything = mcp.status().find((server) => server.name === 'everything');
    expect(everything?.description.length).toBeGreaterThan(0);
    expect(everything?.description).not.toMatch(/^#|[*_`]{2}|\]\(/);
  });

  it('filesystem: lists and reads the temp folder; writing asks for approval (not read-only)', async () => {
    const listed = (await run(byName(mcp.tools(), 'files__list_directory'), { path: folder })) as {
      content: { type: string; text: string }[];
    };
    expect(listed.content[0]?.text).toContain('hello.txt');
    const write = byName(mcp.tools(), 'files__write_file');
    expect(write?.needsApproval).toBe(true);
    expect(byName(mcp.tools(), 'files__list_directory')?.needsApproval).toBe(false);
  });

  it('filesystem: a path outside the folder is a tool error naming the server', async () => {
    await expect(run(byName(mcp.tools(), 'files__list_directory'), { path: '/etc' })).rejects.toThrow(/server 'files' reported an error/);
  });

  it('memory: keeps what it is told in the file its configured env names', async () => {
    await run(byName(mcp.tools(), 'memory__create_entities'), {
      entities: [{ name: 'Ada', entityType: 'person', observations: ['wrote the first program'] }],
    });
    const graph = (await run(byName(mcp.tools(), 'memory__read_graph'), {})) as {
      content: { text: string }[];
      structuredContent?: unknown;
    };
    expect(JSON.stringify(graph)).toContain('wrote the first program');
    expect(await readFile(join(folder, 'memory.jsonl'), 'utf8')).toContain('Ada');
  });

  it('everything: invalid arguments are refused before the server is called', async () => {
    await expect(run(byName(mcp.tools(), 'everything__get-sum'), { a: 'one', b: 2 })).rejects.toThrow(/a/);
  });

  it('everything: structuredContent kept, images described, progress surfaced as CUSTOM events', async () => {
    const sum = (await run(byName(mcp.tools(), 'everything__get-structured-content'), { location: 'New York' })) as {
      structuredContent?: Record<string, unknown>;
    };
    expect(sum.structuredContent).toHaveProperty('temperature');
    const image = (await run(byName(mcp.tools(), 'everything__get-tiny-image'), {})) as {
      content: { type: string; mimeType?: string; bytes?: number }[];
    };
    const picture = image.content.find((item) => item.type === 'image');
    expect(picture?.mimeType).toBe('image/png');
    expect(picture?.bytes).toBeGreaterThan(0);
    const events: { name: string; value: unknown }[] = [];
    await run(
      byName(mcp.tools(), 'everything__trigger-long-running-operation'),
      { duration: 0.4, steps: 2 },
      { emit: (name: string, value: unknown) => events.push({ name, value }) },
    );
    // The last notification can race the result (the SDK drops progress after the response): at least the first arrives.
    expect(events.length).toBeGreaterThanOrEqual(1);
    expect(events.every((event) => event.name === MCP_PROGRESS_EVENT)).toBe(true);
    expect(events[0]?.value).toEqual({
      id: 'call_1',
      data: expect.objectContaining({ toolCallId: 'call_1', server: 'everything', progress: 1, total: 2 }),
    });
  });

  it('everything: its elicitation reaches requestInput, and the answer goes back to the server', async () => {
    const asked: { message: string; schema: Record<string, unknown> }[] = [];
    const requestInput = async (request: { message: string; schema: Record<string, unknown> }) => {
      asked.push(request);
      return { action: 'accept' as const, content: { name: 'Ada Lovelace', check: true, email: 'ada@example.com' } };
    };
    const result = await run(byName(mcp.tools(), 'everything__trigger-elicitation-request'), {}, { requestInput });
    expect(asked).toHaveLength(1);
    expect(asked[0]?.schema).toMatchObject({ type: 'object' });
    expect(JSON.stringify(result)).toContain('Ada Lovelace');
  });

  it('everything: without requestInput the elicitation is declined and the call still ends', async () => {
    const result = await run(byName(mcp.tools(), 'everything__trigger-elicitation-request'), {});
    expect(JSON.stringify(result)).toMatch(/decline/i);
  });
});

/** Starts server-everything's Streamable HTTP mode on 127.0.0.1:HTTP_PORT; resolves once it listens. */
async function startHttpEverything(): Promise<ChildProcess> {
  const loopback = fileURLToPath(new URL('./fixtures/loopbackOnly.mjs', import.meta.url));
  const child = spawn(process.execPath, ['--import', loopback, SERVERS.everything, 'streamableHttp'], {
    env: { PATH: process.env.PATH ?? '', PORT: String(HTTP_PORT) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('server-everything did not start')), 20_000);
    child.stderr?.on('data', (chunk: Buffer) => {
      if (chunk.toString().includes('listening')) {
        clearTimeout(timer);
        resolve();
      }
    });
  });
  return child;
}

describe('server-everything over Streamable HTTP on loopback', () => {
  let child: ChildProcess;
  let mcp: McpServers;
  beforeAll(async () => {
    child = await startHttpEverything();
    mcp = await connectMcpServers({ mcpServers: { web: { url: `http://127.0.0.1:${HTTP_PORT}/mcp` } } });
  }, 40_000);
  afterAll(async () => {
    await mcp?.close();
    child?.kill('SIGTERM');
  });

  it('connects with Streamable HTTP and calls a tool', async () => {
    expect(mcp.status()[0]).toMatchObject({ state: 'connected', transport: 'streamable-http' });
    const result = (await run(byName(mcp.tools(), 'web__echo'), { message: 'over http' })) as { content: { text: string }[] };
    expect(result.content[0]?.text).toBe('Echo: over http');
  });

  it('a restarted HTTP server: the call in between fails naming the server, then the client reconnects', async () => {
    child.kill('SIGTERM');
    await new Promise((resolve) => child.once('exit', resolve));
    await expect(run(byName(mcp.tools(), 'web__echo'), { message: 'gone' })).rejects.toThrow(/MCP server 'web'/);
    child = await startHttpEverything();
    await until(() => mcp.status()[0]?.state === 'connected', 20_000);
    const result = (await run(byName(mcp.tools(), 'web__echo'), { message: 'back' })) as { content: { text: string }[] };
    expect(result.content[0]?.text).toBe('Echo: back');
  }, 40_000);

  it('refuses a host that is not allowed, before connecting', async () => {
    await expect(connectMcpServers({ mcpServers: { far: { url: 'https://mcp.example.com/mcp' } } })).rejects.toThrow(
      /host 'mcp.example.com' is not in allowedHosts/,
    );
  });
});
