import { act, cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatClient, type ChatConnection, type ChatMessage } from '@chatwire/core';
import type { ToolCatalog, ToolServerStatus } from '@chatwire/core/shared';
import { ChatwireDevtools, buildMcpRows, buildMcpTimeline, buildToolRows, groupToolRows } from '@chatwire/devtools/production';

/**
 * A status as a server with three MCP servers reports it (`mcp.catalogStatus()` in the catalog's
 * `servers`), written by hand: files connected and lazy, memory dropped and reconnecting with an
 * error whose text carries markup, everything eager. `files__read_text_file` changed its definition
 * at 10:00:05 (drift).
 */
const T0 = Date.UTC(2026, 0, 1, 10, 0, 0);
const servers: ToolServerStatus[] = [
  {
    name: 'files',
    transport: 'stdio',
    state: 'connected',
    description: 'Secure filesystem server',
    trusted: false,
    toolCount: 3,
    tokens: 412,
    lazy: true,
    lazyReason: 'lazy: true in the configuration',
    skipped: [{ name: 'bad tool', reason: "inputSchema: 'type' must be a JSON type" }],
    versions: {
      files__read_text_file: 'bbbb000000000002',
      files__list_directory: 'cccc000000000003',
      files__write_file: 'dddd000000000004',
    },
    events: [
      { at: T0, type: 'state', state: 'connected' },
      { at: T0 + 1, type: 'tools', count: 3 },
      { at: T0 + 5_000, type: 'tools', count: 3, changed: ['files__read_text_file'] },
    ],
  },
  {
    name: 'memory',
    transport: 'stdio',
    state: 'reconnecting',
    lastError: '<img src=x onerror="window.hacked=1"> the connection closed',
    toolCount: 2,
    tokens: 230,
    lazy: true,
    versions: { memory__read_graph: 'eeee000000000005', memory__create_entities: 'ffff000000000006' },
    events: [
      { at: T0, type: 'state', state: 'connected' },
      { at: T0 + 7_000, type: 'state', state: 'reconnecting', error: '<img src=x onerror="window.hacked=1"> the connection closed' },
      { at: T0 + 8_000, type: 'tools', count: 2, added: ['memory__create_entities'], removed: ['memory__old_tool'] },
    ],
  },
  {
    name: 'everything',
    transport: 'streamable-http',
    state: 'connected',
    protocolVersion: '2026-07-28',
    signIn: 'expired',
    resources: [
      { uri: 'demo://one', name: 'one', mimeType: 'text/plain' },
      { uri: 'demo://two', name: '<img src=x onerror="window.hacked=2">' },
    ],
    prompts: [{ name: 'summarize', arguments: ['topic'] }],
    toolCount: 1,
    tokens: 61,
    lazy: false,
    lazyReason: '1 tools, 61 tokens: within 15 tools and 2560 tokens',
    versions: { everything__echo: '1111000000000007' },
    events: [],
  },
];

const catalog: ToolCatalog = {
  tools: [
    { name: 'getWeather', description: 'Weather', kind: 'server', lazy: false, needsApproval: false, tokens: 50 },
    { name: 'files__read_text_file', description: 'Read', kind: 'server', lazy: true, needsApproval: false, tokens: 150, group: 'files' },
    { name: 'files__list_directory', description: 'List', kind: 'server', lazy: true, needsApproval: false, tokens: 120, group: 'files' },
    { name: 'files__write_file', description: 'Write', kind: 'server', lazy: true, needsApproval: true, tokens: 142, group: 'files' },
    { name: 'memory__read_graph', description: 'Graph', kind: 'server', lazy: true, needsApproval: false, tokens: 100, group: 'memory' },
    {
      name: 'memory__create_entities',
      description: 'Create',
      kind: 'server',
      lazy: true,
      needsApproval: true,
      tokens: 130,
      group: 'memory',
    },
    { name: 'everything__echo', description: 'Echo', kind: 'server', lazy: false, needsApproval: true, tokens: 61, group: 'everything' },
  ],
  counting: { method: 'o200k tokenizer on the tool JSON', errorBound: 0 },
  servers,
};

/** Turn 1 discovers two files tools (recording versions); turn 2 discovers read_text_file again with its new version. */
const connection: ChatConnection = {
  async *run({ threadId, runId, messages }) {
    const turn = messages.filter((message) => message.role === 'user').length;
    yield { type: 'RUN_STARTED', threadId, runId };
    const id = `d${turn}`;
    const found = turn === 1 ? ['files__read_text_file', 'files__list_directory'] : ['files__read_text_file'];
    const versions =
      turn === 1
        ? { files__read_text_file: 'aaaa000000000001', files__list_directory: 'cccc000000000003' }
        : { files__read_text_file: 'bbbb000000000002' };
    yield { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: '__lazy__tool__discovery__', parentMessageId: `a${turn}` };
    yield { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: JSON.stringify({ toolNames: found }) };
    yield { type: 'TOOL_CALL_END', toolCallId: id };
    yield { type: 'TOOL_CALL_RESULT', messageId: `t${turn}`, toolCallId: id, content: JSON.stringify({ discovered: found, versions }) };
    yield { type: 'RUN_FINISHED', threadId, runId };
  },
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

const shadow = () => (document.querySelector('[data-chatwire-devtools]') as HTMLElement | null)?.shadowRoot ?? null;

/** The messages of a chat after `turns` turns with the connection above. */
async function chatAfter(turns: number): Promise<readonly ChatMessage[]> {
  const client = new ChatClient({ connection });
  for (let turn = 1; turn <= turns; turn++) await client.sendMessage(`turn ${turn}`);
  return client.getSnapshot().messages;
}

describe('MCP in the devtools view model', () => {
  it('counts per server the tools the conversation discovered, and the ones that drifted since', async () => {
    const afterOne = buildMcpRows(servers, await chatAfter(1));
    const files = afterOne.find((row) => row.name === 'files');
    // read_text_file was discovered at aaaa…, the server now has bbbb…: it must be discovered again.
    expect(files).toMatchObject({
      transport: 'stdio',
      state: 'connected',
      toolCount: 3,
      tokens: 412,
      lazy: true,
      discovered: 1,
      drifted: ['files__read_text_file'],
    });
    expect(afterOne.find((row) => row.name === 'memory')).toMatchObject({ state: 'reconnecting', discovered: 0, drifted: [] });
    expect(afterOne.find((row) => row.name === 'memory')?.lastError).toContain('the connection closed');
    // An eager server's tools are not discovered: they are sent.
    expect(afterOne.find((row) => row.name === 'everything')?.discovered).toBe(0);

    const afterTwo = buildMcpRows(servers, await chatAfter(2));
    expect(afterTwo.find((row) => row.name === 'files')).toMatchObject({ discovered: 2, drifted: [] });
  });

  it('puts connection states, list changes and drift on one timeline, oldest first', async () => {
    const rows = buildMcpTimeline(servers, await chatAfter(2));
    const kinds = rows.map((row) => `${row.server}:${row.kind}`);
    expect(kinds.slice(0, 4)).toEqual(['files:state', 'memory:state', 'files:tools', 'files:tools']);
    const listChange = rows.find((row) => row.server === 'memory' && row.kind === 'tools');
    expect(listChange).toMatchObject({ added: ['memory__create_entities'], removed: ['memory__old_tool'] });
    expect(listChange?.summary).toBe('tool list changed: 1 added, 1 removed; 2 tools');
    const serverDrift = rows.find((row) => row.kind === 'tools' && row.changed.length > 0);
    expect(serverDrift?.summary).toContain('1 changed (drift)');
    // The conversation met the drift: turn 2 discovered the tool again under its new version.
    const met = rows.filter((row) => row.kind === 'drift');
    expect(met).toHaveLength(1);
    expect(met[0]).toMatchObject({ server: 'files', changed: ['files__read_text_file'] });
    expect(met[0]?.summary).toContain('aaaa000000000001 → bbbb000000000002');

    // After turn 1 only, the drift is still ahead: the tool is withheld until discovered again.
    const pending = buildMcpTimeline(servers, await chatAfter(1)).filter((row) => row.kind === 'drift');
    expect(pending).toHaveLength(1);
    expect(pending[0]?.summary).toContain('withheld until discovered again');
    expect(pending[0]?.at).toBe(T0 + 5_000);
  });

  it('groups the Tools view by server: the app’s own tools first, then each server', async () => {
    const rows = buildToolRows({ catalog: catalog.tools, messages: await chatAfter(1), turns: [] });
    const groups = groupToolRows(rows);
    expect(groups.map((group) => group.group)).toEqual([undefined, 'files', 'memory', 'everything']);
    expect(groups[1]?.rows.map((row) => row.name)).toEqual(['files__read_text_file', 'files__list_directory', 'files__write_file']);
    expect(groups[0]?.rows.map((row) => row.name)).toEqual(['getWeather']);
  });

  it('counts a drifted tool as not discovered (withheld until discovered again)', async () => {
    const messages = await chatAfter(1);
    const drifted = new Set(buildMcpRows(servers, messages).flatMap((server) => server.drifted));
    expect([...drifted]).toEqual(['files__read_text_file']);
    const row = (turn?: number) =>
      buildToolRows({ catalog: catalog.tools, messages, turns: [], drifted, ...(turn === undefined ? {} : { turn }) }).find(
        (item) => item.name === 'files__read_text_file',
      );
    expect(row()).toMatchObject({ status: 'undiscovered', drifted: true, discoveredIn: undefined });
    // Without drift information it reads as discovered, as before.
    expect(
      buildToolRows({ catalog: catalog.tools, messages, turns: [] }).find((item) => item.name === 'files__read_text_file'),
    ).toMatchObject({ status: 'discovered', drifted: false });
  });

  it('ignores malformed server entries and events instead of failing', () => {
    const odd = [
      {
        name: 'odd',
        transport: 'stdio',
        state: 'connected',
        toolCount: 0,
        tokens: 0,
        lazy: false,
        versions: { a: 5 },
        signIn: 'maybe',
        protocolVersion: 7,
        resources: 'many',
        prompts: { name: 'x' },
        events: [
          { at: 'soon', type: 'tools' },
          { at: 3, type: 'tools', added: 'x' },
        ],
      },
    ] as unknown as ToolServerStatus[];
    expect(buildMcpRows(odd, [])[0]).toMatchObject({
      name: 'odd',
      discovered: 0,
      drifted: [],
      signIn: undefined,
      protocolVersion: undefined,
      resources: [],
      prompts: [],
    });
    const rows = buildMcpTimeline(odd, []);
    expect(rows).toHaveLength(1);
    expect(rows[0]?.added).toEqual([]);
  });
});

describe('the MCP view in the panel', () => {
  it('shows each server from the catalog, the Tools view grouped by server, and drift in the Timeline; server text is text', async () => {
    const fetches: string[] = [];
    vi.stubGlobal(
      'fetch',
      vi.fn(async (url: string) => {
        fetches.push(url);
        return Response.json(catalog);
      }),
    );
    const client = new ChatClient({ connection });
    render(<ChatwireDevtools client={client} catalogUrl="/api/tools" initialOpen />);
    await act(async () => {
      await client.sendMessage('turn 1');
    });
    await waitFor(() => expect([...(shadow()?.querySelectorAll('[role="tab"]') ?? [])].map((tab) => tab.textContent)).toContain('MCP'));
    const root = shadow() as ShadowRoot;

    // Tools view: a header row per server with its totals, the app's own tools first.
    const groups = [...root.querySelectorAll('[data-testid="devtools-tool-group"]')];
    expect(groups.map((row) => row.getAttribute('data-group'))).toEqual(['', 'files', 'memory', 'everything']);
    // read_text_file was discovered, but its definition changed since: withheld, so not counted as discovered.
    expect(groups[1]?.textContent).toBe('files (MCP server) · 3 tools · 412 tokens · 1 discovered');
    const changed = root.querySelector('[data-testid="devtools-tool-row"][data-tool="files__read_text_file"]');
    expect(changed?.getAttribute('data-status')).toBe('undiscovered');
    expect(changed?.getAttribute('data-drifted')).toBe('true');
    expect(changed?.textContent).toContain('changed since discovery, must be discovered again');
    expect(root.querySelector('[data-testid="devtools-tool-row"][data-tool="files__write_file"]')?.getAttribute('data-group')).toBe(
      'files',
    );

    const openTab = async (name: string) => {
      await act(async () => {
        fireEvent.click([...root.querySelectorAll('[role="tab"]')].find((tab) => tab.textContent === name) as HTMLElement);
      });
    };
    await openTab('MCP');
    const row = (name: string) => root.querySelector(`[data-testid="mcp-server-row"][data-server="${name}"]`) as HTMLElement;
    expect(root.querySelector('[data-testid="mcp-server-count"]')?.textContent).toBe('3 MCP servers');
    expect(row('files').querySelector('[data-testid="mcp-tool-count"]')?.textContent).toBe('3');
    expect(row('files').querySelector('[data-testid="mcp-skipped"]')?.textContent).toBe('1 skipped');
    expect(row('files').querySelector('[data-testid="mcp-tokens"]')?.textContent).toBe('412');
    expect(row('files').querySelector('[data-testid="mcp-discovered"]')?.textContent).toBe('1 of 3');
    expect(row('files').querySelector('[data-testid="mcp-drifted"]')?.textContent).toBe('1 changed since discovery');
    expect(row('files').textContent).toContain('lazy (on discovery)');
    expect(row('everything').textContent).toContain('streamable-http');
    // Protocol revision, the current user's sign-in, and what it lists beside tools.
    expect(row('everything').querySelector('[data-testid="mcp-protocol"]')?.textContent).toBe('2026-07-28');
    expect(row('everything').querySelector('[data-testid="mcp-sign-in"]')?.textContent).toBe(
      'your sign-in expired (refreshed at the next use)',
    );
    expect(row('everything').querySelector('[data-testid="mcp-offers"]')?.textContent).toBe('2 resources, 1 prompt');
    expect(row('everything').querySelector('[data-testid="mcp-resources"]')?.getAttribute('title')).toBe(
      'one\n<img src=x onerror="window.hacked=2">',
    );
    // A server with the app's own credentials has no sign-in line; one that lists nothing says so.
    expect(row('files').querySelector('[data-testid="mcp-sign-in"]')).toBeNull();
    expect(row('files').querySelector('[data-testid="mcp-protocol"]')).toBeNull();
    expect(row('files').querySelector('[data-testid="mcp-offers"]')?.textContent).toBe('0 resources, 0 prompts');
    expect(row('everything').textContent).toContain('eager (every call)');
    expect(row('memory').getAttribute('data-state')).toBe('reconnecting');
    expect(row('memory').querySelector('[data-testid="mcp-state"]')?.textContent).toBe('reconnecting (dropped)');
    expect(row('memory').querySelector('[data-testid="mcp-last-error"]')?.textContent).toBe(
      '<img src=x onerror="window.hacked=1"> the connection closed',
    );

    await openTab('Timeline');
    const mcpRows = [...root.querySelectorAll('[data-testid="timeline-mcp-row"]')];
    // Newest first: memory's list change, its drop, then files' drift still ahead above the list change that caused it...
    expect(mcpRows.map((element) => `${element.getAttribute('data-server')}:${element.getAttribute('data-kind')}`)).toEqual([
      'memory:tools',
      'memory:state',
      'files:drift',
      'files:tools',
      'files:tools',
      'memory:state',
      'files:state',
    ]);
    expect(mcpRows[2]?.textContent).toContain('files__read_text_file changed since the conversation discovered it');
    expect(mcpRows[3]?.textContent).toContain('changed: files__read_text_file');

    // Nothing the server sent became markup.
    expect(root.querySelector('img')).toBeNull();
    expect((window as { hacked?: number }).hacked).toBeUndefined();

    // The catalog is read again when a turn settles, and on Refresh.
    const before = fetches.length;
    await act(async () => {
      await client.sendMessage('turn 2');
    });
    await waitFor(() => expect(fetches.length).toBeGreaterThan(before));
    await openTab('MCP');
    const afterTurn = fetches.length;
    await act(async () => {
      fireEvent.click([...root.querySelectorAll('button')].find((button) => button.textContent === 'Refresh') as HTMLElement);
    });
    await waitFor(() => expect(fetches.length).toBe(afterTurn + 1));
    expect(fetches.every((url) => url === '/api/tools')).toBe(true);
    await waitFor(() => expect(row('files').querySelector('[data-testid="mcp-discovered"]')?.textContent).toBe('2 of 3'));
  });

  it('has no MCP tab when the catalog reports no servers', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => Response.json({ tools: catalog.tools.filter((tool) => !tool.group) })),
    );
    const client = new ChatClient({ connection });
    render(<ChatwireDevtools client={client} catalogUrl="/api/tools" initialOpen />);
    await waitFor(() => expect(shadow()?.querySelector('[data-testid="devtools-tool-row"]')).toBeTruthy());
    expect([...(shadow()?.querySelectorAll('[role="tab"]') ?? [])].map((tab) => tab.textContent)).toEqual([
      'Tools',
      'Tokens',
      'Requests',
      'Timeline',
      'Events',
      'Search',
      'Health',
      'Unused',
      'Time travel',
    ]);
    expect(shadow()?.querySelector('[data-testid="devtools-tool-group"]')).toBeNull();
  });
});
