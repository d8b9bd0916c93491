import type { ToolCatalog } from '@chatwire/core/shared';
import { createToolsHandler } from '@chatwire/server';
import { afterEach, describe, expect, it } from 'vitest';
import { connectMcpServers, type McpServers } from '../src/index.js';
import { FAULTY, byName, run, stdio, until } from './mcpFixtures.js';

const opened: McpServers[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((servers) => servers.close()));
});
async function connect(...args: Parameters<typeof connectMcpServers>): Promise<McpServers> {
  const servers = await connectMcpServers(...args);
  opened.push(servers);
  return servers;
}

describe('the status devtools reads (catalogStatus, served as the catalog’s servers)', () => {
  it('records the connection, the first listing, a drift (a changed definition) and a drop with its error, oldest first', async () => {
    const mcp = await connect({ mcpServers: { odd: stdio(FAULTY) } });
    const first = mcp.catalogStatus()[0]!;
    expect(first).toMatchObject({ name: 'odd', transport: 'stdio', state: 'connected', lazy: false });
    expect(first.toolCount).toBe(Object.keys(first.versions ?? {}).length);
    expect(first.tokens).toBeGreaterThan(0);
    // Connected and its first listing (the list is read while connecting), nothing else yet.
    expect(first.events?.map((event) => event.type).sort()).toEqual(['state', 'tools']);
    expect(first.events?.find((event) => event.type === 'state')?.state).toBe('connected');
    expect(first.events?.find((event) => event.type === 'tools')?.count).toBe(first.toolCount);
    const version = first.versions?.['odd__target'];
    expect(version).toMatch(/^[0-9a-f]{16}$/);

    await run(byName(mcp.tools(), 'odd__change_target'), {});
    await until(() => mcp.catalogStatus()[0]?.versions?.['odd__target'] !== version);
    const drift = mcp.catalogStatus()[0]!.events?.at(-1);
    // The exposed names, as the catalog and the conversation know them (the fixture changes target's
    // schema and delete_all's description); nothing added or removed.
    expect(drift).toMatchObject({ type: 'tools', changed: ['odd__target', 'odd__delete_all'] });
    expect(drift).not.toHaveProperty('added');
    expect(drift).not.toHaveProperty('removed');

    await expect(run(byName(mcp.tools(), 'odd__die'), {})).rejects.toThrow(/MCP server 'odd'/);
    await until(() => mcp.catalogStatus()[0]?.events?.some((event) => event.type === 'state' && event.state === 'reconnecting') === true);
    const dropped = mcp.catalogStatus()[0]!.events?.find((event) => event.state === 'reconnecting');
    expect(typeof dropped?.error).toBe('string');
    const times = mcp.catalogStatus()[0]!.events?.map((event) => event.at) ?? [];
    expect([...times].sort((a, b) => a - b)).toEqual(times);
  }, 30_000);

  it("redacts credentials in a server's error text and cuts it to 500 characters", async () => {
    const script = `process.stderr.write('cannot reach postgres://admin:hunter2@db.internal/app?token=abc123 ' + 'x'.repeat(400) + '\\n'); process.exit(1);`;
    let failures = 0;
    const mcp = await connect(
      { mcpServers: { broken: { command: process.execPath, args: ['-e', script], connectTimeoutMs: 5_000 } } },
      { onEvent: (event) => void (event.type === 'state' && event.state === 'failed' && failures++) },
    );
    const status = mcp.catalogStatus()[0]!;
    expect(status.state).toBe('failed');
    // The raw status (server side) has the whole text; what reaches the browser has none of the secrets.
    expect(mcp.status()[0]?.lastError).toContain('hunter2');
    expect(status.lastError).toContain('postgres://***@db.internal');
    expect(status.lastError).not.toContain('hunter2');
    expect(status.lastError).not.toContain('abc123');
    expect(mcp.status()[0]!.lastError!.length).toBeGreaterThan(500);
    expect(status.lastError?.length).toBe(500);
    for (const event of status.events ?? []) expect(event.error ?? '').not.toContain('hunter2');

    // Retries with backoff fail the same way: the log records a state only when it or its (redacted) error changes.
    await until(() => failures >= 4, 20_000);
    const states = (mcp.catalogStatus()[0]!.events ?? []).filter((event) => event.type === 'state');
    expect(states.length).toBeLessThan(failures);
    states
      .slice(1)
      .forEach((event, index) => expect(`${event.state} ${event.error}`).not.toBe(`${states[index]!.state} ${states[index]!.error}`));
  }, 30_000);

  it('createToolsHandler serves it as the catalog’s servers, each tool with its group', async () => {
    const mcp = await connect({ mcpServers: { odd: stdio(FAULTY) } });
    const handler = createToolsHandler(() => mcp.tools(), { servers: () => mcp.catalogStatus() });
    const body = (await (await handler(new Request('http://localhost/api/tools'))).json()) as ToolCatalog;
    expect(body.servers?.map((server) => server.name)).toEqual(['odd']);
    expect(body.servers?.[0]?.toolCount).toBe(body.tools.length);
    expect(body.tools.every((tool) => tool.group === 'odd')).toBe(true);
    // The server's count is the tokens of the same definitions the catalog lists.
    expect(body.servers?.[0]?.tokens).toBe(body.tools.reduce((sum, tool) => sum + tool.tokens, 0));
  }, 30_000);
});
