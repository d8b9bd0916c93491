import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Event } from '@ag-ui/core';
import { readServerSentEvents } from '@chatwire/core/wire';
import { McpConfigError, type McpServers } from '@chatwire/mcp';
import { createMemoryThreadStore, createScriptedModel } from '@chatwire/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startDemoMcp, userMcpServers } from '../server/mcp.ts';
import { createDemoRoutes, demoToolNames } from '../server/routes.ts';

describe('CHATWIRE_MCP_CONFIG', () => {
  const folder = mkdtempSync(join(tmpdir(), 'chatwire-demo-config-'));
  afterAll(() => rmSync(folder, { recursive: true, force: true }));
  const file = (name: string, text: string) => {
    const path = join(folder, name);
    writeFileSync(path, text);
    return path;
  };

  it('reads the mcpServers shape', () => {
    const path = file('ok.json', '{"mcpServers":{"mine":{"command":"node","args":["server.js"]}}}');
    expect(Object.keys(userMcpServers({ CHATWIRE_MCP_CONFIG: path }))).toEqual(['mine']);
  });

  it('a malformed file, a wrong entry or a missing file is an error naming the file and the problem', () => {
    const config = (path: string) => ({ CHATWIRE_MCP_CONFIG: path });
    expect(() => userMcpServers(config(file('bad.json', '{"mcpServers": {')))).toThrow(McpConfigError);
    expect(() => userMcpServers(config(file('bad.json', '{"mcpServers": {')))).toThrow(
      /CHATWIRE_MCP_CONFIG \(.*bad\.json\) is not valid JSON/,
    );
    expect(() => userMcpServers(config(file('entry.json', '{"mcpServers":{"mine":{"url":"ftp://x"}}}')))).toThrow(
      /MCP server 'mine': url must be http: or https:/,
    );
    expect(() => userMcpServers(config(join(folder, 'missing.json')))).toThrow(/cannot be read/);
  });

  it('a relative path is read from the folder the command was started from (npm sets INIT_CWD), where its stdio servers start', () => {
    const started = mkdtempSync(join(tmpdir(), 'chatwire-demo-started-'));
    try {
      writeFileSync(
        join(started, 'mcp.json'),
        JSON.stringify({
          mcpServers: {
            here: { command: 'node', args: ['server.js'] },
            below: { command: 'node', args: ['server.js'], cwd: 'tools' },
            web: { url: 'http://localhost:3001/mcp' },
          },
        }),
      );
      // `npm start` runs the demo in apps/demo; the file is where the user typed the command.
      const servers = userMcpServers({ CHATWIRE_MCP_CONFIG: 'mcp.json', INIT_CWD: started });
      expect(servers['here']).toMatchObject({ cwd: started });
      expect(servers['below']).toMatchObject({ cwd: join(started, 'tools') });
      expect(servers['web']).not.toHaveProperty('cwd');
      // Without npm, the process's own folder; the message names what was given and where it was looked for.
      expect(() => userMcpServers({ CHATWIRE_MCP_CONFIG: 'no-such-mcp.json' })).toThrow(
        `CHATWIRE_MCP_CONFIG=no-such-mcp.json (${join(process.cwd(), 'no-such-mcp.json')}) cannot be read`,
      );
    } finally {
      rmSync(started, { recursive: true, force: true });
    }
  });
});

describe('the demo with its MCP servers', () => {
  let mcp: McpServers;
  beforeAll(async () => {
    mcp = await startDemoMcp({}, demoToolNames());
  }, 60_000);
  afterAll(async () => {
    await mcp?.close();
  });

  it('connects filesystem, memory and everything over stdio, all lazy, and the MCP App servers basic and budget, eager', () => {
    expect(mcp.status().map((server) => [server.name, server.state, server.lazy.lazy])).toEqual([
      ['files', 'connected', true],
      ['memory', 'connected', true],
      ['everything', 'connected', true],
      ['basic', 'connected', false],
      ['budget', 'connected', false],
    ]);
  });

  it('the scripted model discovers and calls an MCP tool by name through /api/chat', async () => {
    const routes = createDemoRoutes({ model: createScriptedModel(), mcp, threads: createMemoryThreadStore() });
    const input = {
      threadId: 't',
      runId: 'r',
      messages: [{ id: 'u1', role: 'user', content: 'use everything__echo with message: hello from the demo' }],
      tools: [],
      context: [],
      state: {},
      forwardedProps: {},
    };
    const response = await routes(
      new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(input),
      }),
    );
    const events: Event[] = [];
    for await (const data of readServerSentEvents((response as Response).body as ReadableStream<Uint8Array>))
      events.push(JSON.parse(data) as Event);
    const calls = events.flatMap((event) => (event.type === 'TOOL_CALL_START' ? [event.toolCallName] : []));
    expect(calls).toEqual(['__lazy__tool__discovery__', 'everything__echo']);
    const result = events.flatMap((event) => (event.type === 'TOOL_CALL_RESULT' ? [event.content] : [])).at(-1);
    expect(result).toContain('Echo: hello from the demo');
    const catalog = (await ((await routes(new Request('http://localhost/api/tools'))) as Response).json()) as {
      tools: { name: string; lazy: boolean }[];
    };
    expect(catalog.tools.find((tool) => tool.name === 'files__read_text_file')?.lazy).toBe(true);
  });
});
