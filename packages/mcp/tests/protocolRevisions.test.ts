import { afterEach, describe, expect, it } from 'vitest';
import { connectMcpServers, type McpServers } from '../src/index.js';
import { headerDeclarationProblem } from '../src/connection/toolList.js';
import { SERVERS, byName, run, stdio } from './mcpFixtures.js';

/**
 * The MCP SDK v2 client meets each server in its own revision: a 2025-era server (the npm servers
 * are built on SDK 1.x) answers the 2026-07-28 probe with an error and is met with `initialize`.
 * The 2026-07-28 side is the conformance suite's (`npm run test:mcp-conformance`).
 */
let mcp: McpServers | undefined;
afterEach(async () => {
  await mcp?.close();
  mcp = undefined;
});

describe('protocol revisions', () => {
  it.each(['auto', 'legacy'] as const)('a 2025-11-25 server over stdio works with versionNegotiation %s', async (versionNegotiation) => {
    mcp = await connectMcpServers({ mcpServers: { memory: stdio(SERVERS.memory, [], { versionNegotiation }) } });
    const [status] = mcp.status();
    expect(status).toMatchObject({ state: 'connected', protocolVersion: '2025-11-25' });
    expect(await run(byName(mcp.tools(), 'memory__read_graph'), {})).toBeDefined();
  });

  it('refuses a versionNegotiation it does not know, naming the server', async () => {
    await expect(
      connectMcpServers({ mcpServers: { memory: stdio(SERVERS.memory, [], { versionNegotiation: 'modern' }) } }),
    ).rejects.toThrow(/MCP server 'memory': versionNegotiation/);
  });
});

describe('x-mcp-header declarations (SEP-2243)', () => {
  const schema = (properties: Record<string, unknown>) => ({ type: 'object', properties });
  it('are fine on strings, integers and booleans with distinct header names, or absent', () => {
    expect(
      headerDeclarationProblem(
        schema({
          region: { type: 'string', 'x-mcp-header': 'Region' },
          priority: { type: 'integer', 'x-mcp-header': 'Priority' },
          verbose: { type: 'boolean', 'x-mcp-header': 'Verbose' },
          query: { type: 'string' },
        }),
      ),
    ).toBeUndefined();
    expect(headerDeclarationProblem({ type: 'object' })).toBeUndefined();
  });

  it('are refused when empty, not a header token, repeated in any case, or on a value that is not one primitive', () => {
    const cases = [
      schema({ a: { type: 'string', 'x-mcp-header': '' } }),
      schema({ a: { type: 'string', 'x-mcp-header': 'Has Space' } }),
      schema({ a: { type: 'string', 'x-mcp-header': 'Has:Colon' } }),
      schema({ a: { type: 'string', 'x-mcp-header': 'Zürich' } }),
      schema({ a: { type: 'string', 'x-mcp-header': 'Same' }, b: { type: 'string', 'x-mcp-header': 'same' } }),
      schema({ a: { type: 'object', 'x-mcp-header': 'Obj' } }),
      schema({ a: { type: 'array', 'x-mcp-header': 'Arr' } }),
      schema({ a: { type: 'number', 'x-mcp-header': 'Num' } }),
      schema({ a: { type: 'null', 'x-mcp-header': 'Nul' } }),
    ];
    expect(cases.map((value) => headerDeclarationProblem(value) !== undefined)).toEqual(cases.map(() => true));
  });
});
