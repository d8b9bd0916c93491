import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { Event, Message } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME, MCP_APP_EVENT, type AnyTool, type McpAppView } from '@chatwire/core';
import { chat, createScriptedModel, type ChatModel, type ModelRequest } from '@chatwire/server';
import { extensionOf } from '@chatwire/server/extension';
import type { ScriptRule } from '@chatwire/server/testing';
import { connectMcpServers, type McpServers } from '../src/index.js';
import { applyEvents, collect } from '../../server/tests/fixtures.js';
import { byName, run, stdio, until } from './mcpFixtures.js';

/**
 * MCP Apps from a real MCP server (tests/fixtures/appServer.mjs, built with the MCP SDK): what
 * Chatwire advertises, reads of `_meta.ui`, the app resources read from the declaring server only and
 * bounded in size, and the tools only apps may call, end to end through `chat()`.
 */
const APP_SERVER = fileURLToPath(new URL('./fixtures/appServer.mjs', import.meta.url));

let mcp: McpServers | undefined;
afterEach(async () => {
  await mcp?.close();
  mcp = undefined;
});

const appOf = (tool: AnyTool | undefined) => (tool ? extensionOf(tool)?.app?.(tool) : undefined);
const viewOf = async (tool: AnyTool | undefined) =>
  (await appOf(tool)?.view?.(new AbortController().signal)) as Omit<McpAppView, 'toolCallId'> | undefined;
const stats = async (servers: McpServers, server = 'fixture') =>
  (
    (await run(byName(servers.tools(), `${server}__stats`), {})) as {
      structuredContent: { calls: Record<string, number>; reads: Record<string, number>; clientExtensions: unknown };
    }
  ).structuredContent;

describe('what Chatwire tells an MCP App server, and what it reads of its tools', () => {
  it('advertises io.modelcontextprotocol/ui with the MCP App MIME type, and splits the tools by visibility', async () => {
    mcp = await connectMcpServers({ mcpServers: { fixture: stdio(APP_SERVER, ['stdio']) } });
    expect((await stats(mcp)).clientExtensions).toEqual({ 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } });
    const modelTools = mcp.tools().map((tool) => tool.name);
    expect(modelTools).toContain('fixture__show_clock');
    expect(modelTools).toContain('fixture__model_only_report');
    expect(modelTools).not.toContain('fixture__app_refresh');
    expect(mcp.appTools().map((tool) => tool.name)).toEqual(['fixture__app_refresh']);
    expect(mcp.status()[0]).toMatchObject({ appToolCount: 1 });
    expect(appOf(byName(mcp.tools(), 'fixture__show_clock'))).toMatchObject({
      server: 'fixture',
      name: 'show_clock',
      visibility: ['model', 'app'],
      resourceUri: 'ui://fixture/clock.html',
    });
    expect(appOf(byName(mcp.tools(), 'fixture__model_only_report'))?.visibility).toEqual(['model']);
  });

  it('with apps off for a server: no extension advertised, no app, no app-only tool', async () => {
    mcp = await connectMcpServers({ mcpServers: { fixture: stdio(APP_SERVER, ['stdio'], { apps: false }) } });
    expect((await stats(mcp)).clientExtensions).toBeNull();
    expect(mcp.appTools()).toEqual([]);
    expect(mcp.tools().map((tool) => tool.name)).not.toContain('fixture__app_refresh');
    expect(appOf(byName(mcp.tools(), 'fixture__show_clock'))).toBeUndefined();
    expect((await stats(mcp)).reads).toEqual({});
  });
});

describe('app resources', () => {
  it('are read from the declaring server once, checked, and carried with their hash, size and declared CSP', async () => {
    mcp = await connectMcpServers({ mcpServers: { fixture: stdio(APP_SERVER, ['stdio']) } });
    const clock = await viewOf(byName(mcp.tools(), 'fixture__show_clock'));
    expect(clock).toMatchObject({ server: 'fixture', tool: 'show_clock', resourceUri: 'ui://fixture/clock.html', prefersBorder: true });
    expect(clock?.html).toContain('<h1>Fixture clock</h1>');
    expect(clock?.bytes).toBe(Buffer.byteLength(clock?.html ?? ''));
    expect(clock?.sha256).toBe(
      createHash('sha256')
        .update(clock?.html ?? '')
        .digest('hex'),
    );
    expect(clock?.toolDefinition).toMatchObject({ name: 'show_clock', inputSchema: { type: 'object' } });
    await viewOf(byName(mcp.tools(), 'fixture__show_clock'));
    expect((await stats(mcp)).reads).toEqual({ 'ui://fixture/clock.html': 1 });
    // What the server asked for is carried as it is: the browser narrows it ('*' refused there).
    expect((await viewOf(byName(mcp.tools(), 'fixture__show_wide_csp')))?.csp).toEqual({
      connectDomains: ['*', 'https://api.example.com'],
      resourceDomains: ['https:'],
    });
  });

  it('named by one server but served by another are not read from the other: the card says the declaring server has none', async () => {
    mcp = await connectMcpServers({
      mcpServers: { fixture: stdio(APP_SERVER, ['stdio', 'fixture']), weather: stdio(APP_SERVER, ['stdio', 'weather']) },
    });
    const borrowed = await viewOf(byName(mcp.tools(), 'fixture__show_borrowed'));
    expect(borrowed?.html).toBe('');
    expect(borrowed?.error).toMatch(/^ui:\/\/weather\/clock\.html could not be read: .*Resource not found: ui:\/\/weather\/clock\.html/);
    expect((await stats(mcp, 'fixture')).reads).toEqual({ 'ui://weather/clock.html': 1 });
    expect((await stats(mcp, 'weather')).reads).toEqual({});
  });
});

/** The fixture over Streamable HTTP on 127.0.0.1 (any free port); resolves with its URL once it listens. */
async function startHttpFixture(): Promise<{ child: ChildProcess; url: string }> {
  const child = spawn(process.execPath, [APP_SERVER, 'http', '0'], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('the app fixture did not start')), 20_000);
    child.stdout?.on('data', (chunk: Buffer) => {
      const match = /listening (\d+)/.exec(chunk.toString());
      if (match) {
        clearTimeout(timer);
        resolve(match[1] as string);
      }
    });
  });
  return { child, url: `http://127.0.0.1:${port}/mcp` };
}

describe('a 20 MB app resource', () => {
  let server: { child: ChildProcess; url: string };
  beforeAll(async () => {
    server = await startHttpFixture();
  }, 30_000);
  afterAll(() => {
    server?.child.kill('SIGTERM');
  });

  it('over HTTP: refused by its size (maxAppBytes, 5 MiB), read once, and the server goes on', async () => {
    mcp = await connectMcpServers({ mcpServers: { fixture: { url: server.url } } });
    const huge = await viewOf(byName(mcp.tools(), 'fixture__show_huge'));
    expect(huge?.html).toBe('');
    expect(huge?.error).toMatch(/^ui:\/\/fixture\/huge\.html is 20\.0 MB, over the 5\.0 MB an app may weigh \(maxAppBytes\)$/);
    await viewOf(byName(mcp.tools(), 'fixture__show_huge'));
    expect((await stats(mcp)).reads['ui://fixture/huge.html']).toBe(1);
    expect(await run(byName(mcp.tools(), 'fixture__show_clock'), { zone: 'CET' })).toMatchObject({ structuredContent: { zone: 'CET' } });
  }, 60_000);

  it('over stdio: over the SDK’s 10 MiB message limit, which closes the connection; refused with that reason, and the server reconnects', async () => {
    mcp = await connectMcpServers({ mcpServers: { fixture: stdio(APP_SERVER, ['stdio']) } });
    const huge = await viewOf(byName(mcp.tools(), 'fixture__show_huge'));
    expect(huge?.error).toBe(
      'ui://fixture/huge.html could not be read: the connection closed (ReadBuffer exceeded maximum size of 10485760 bytes)',
    );
    await until(() => mcp?.status()[0]?.state === 'connected', 20_000);
    expect(await run(byName(mcp.tools(), 'fixture__show_clock'), {})).toMatchObject({ structuredContent: { zone: 'UTC' } });
    // Not read again (it would close the connection again).
    expect((await viewOf(byName(mcp.tools(), 'fixture__show_huge')))?.error).toBe(huge?.error);
    expect((await stats(mcp)).reads['ui://fixture/huge.html']).toBeUndefined();
  }, 60_000);
});

describe('apps through chat()', () => {
  /** A scripted model that records what it is sent. */
  function recording(rules: ScriptRule[]) {
    const requests: ModelRequest[] = [];
    const scripted = createScriptedModel({ rules, catalogCalls: 'direct' });
    const model: ChatModel = { ...scripted, stream: (request) => (requests.push(request), scripted.stream(request)) };
    return { model, requests };
  }
  const calling = (when: string, name: string): ScriptRule => ({ name: when, when, reply: { toolCalls: [{ name, args: {} }] } });
  const resultsOf = (events: readonly Event[]) => events.flatMap((event) => (event.type === 'TOOL_CALL_RESULT' ? [event] : []));

  it('the app comes with the model’s call; app-only tools never reach the model; app calls follow its rules', async () => {
    mcp = await connectMcpServers({ mcpServers: { fixture: stdio(APP_SERVER, ['stdio'], { lazy: true }) } });
    const { model, requests } = recording([
      calling('use fixture__show_clock', 'fixture__show_clock'),
      calling('use fixture__app_refresh', 'fixture__app_refresh'),
      {
        name: 'load',
        when: 'load the note tool',
        reply: { toolCalls: [{ name: DISCOVERY_TOOL_NAME, args: { toolNames: ['fixture__delete_note'] } }] },
      },
    ]);
    const servers = mcp;
    const base = { model, tools: servers.tools(), appTools: servers.appTools(), threadId: 't', secret: 's' };
    const history: Message[] = [{ id: 'u1', role: 'user', content: 'use fixture__show_clock' }];
    const first = await collect(chat({ ...base, messages: history }));
    const app = first.find((event) => event.type === 'CUSTOM' && event.name === MCP_APP_EVENT) as
      { value: { id: string; data: McpAppView } } | undefined;
    expect(app?.value.data.html).toContain('Fixture clock');
    const via = app?.value.id as string;
    const afterFirst = applyEvents(history, first);

    // The model asks for the app-only tool: it is an unknown tool, and the server never ran it.
    const attempt = await collect(
      chat({ ...base, messages: [...afterFirst, { id: 'u2', role: 'user', content: 'use fixture__app_refresh' }] }),
    );
    expect(
      resultsOf(attempt)
        .map((result) => result.content)
        .join(),
    ).toContain("Unknown tool 'fixture__app_refresh'");
    expect((await stats(servers)).calls['app_refresh']).toBeUndefined();
    for (const request of requests) expect(JSON.stringify(request.tools)).not.toContain('app_refresh');

    const appCall = (name: string, args: Record<string, unknown> = {}, messages = afterFirst) =>
      collect(chat({ ...base, messages, appCall: { toolCallId: `appcall_${name.replace(/_/g, '')}`, via, name, arguments: args } }));
    // Its app calls it: it runs.
    expect(
      resultsOf(await appCall('app_refresh'))
        .map((result) => result.content)
        .join(),
    ).toContain('refreshed 1');
    // A destructive tool (the model discovered it) asks first.
    const loadMessages: Message[] = [...afterFirst, { id: 'u3', role: 'user', content: 'load the note tool' }];
    const loaded = applyEvents(loadMessages, await collect(chat({ ...base, messages: loadMessages })));
    const destructive = await appCall('delete_note', { title: 'groceries' }, loaded);
    expect((destructive.at(-1) as { outcome?: { type: string } }).outcome?.type).toBe('interrupt');
    // A lazy tool the model has not discovered is refused.
    expect(
      resultsOf(await appCall('lazy_lookup'))
        .map((result) => result.content)
        .join(),
    ).toContain('has not discovered');
    expect((await stats(servers)).calls).toMatchObject({ show_clock: 1, app_refresh: 1 });
    expect((await stats(servers)).calls['delete_note']).toBeUndefined();
    expect((await stats(servers)).calls['lazy_lookup']).toBeUndefined();
  }, 60_000);
});
