import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { McpConfigError, mcpServers } from '../src/index.js';
import { SERVERS, byName, processesOf, run, stdio, until } from './mcpFixtures.js';

const folder = mkdtempSync(join(tmpdir(), 'chatwire-mcp-lazy-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
const memory = () => stdio(SERVERS.memory, [], { env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') } });

describe('mcpServers: connected on first use', () => {
  it('starts no process until the tools are read, one when they are, and again after close()', async () => {
    const mcp = mcpServers({ mcpServers: { memory: memory() } });
    try {
      expect(mcp.status()[0]?.state).toBe('idle');
      expect(processesOf(SERVERS.memory)).toEqual([]);
      const tools = await mcp.loadTools();
      expect(byName(tools, 'memory__read_graph')).toBeDefined();
      expect(processesOf(SERVERS.memory)).toHaveLength(1);
      // Concurrent first uses share one connection.
      await Promise.all([mcp.loadTools(), mcp.loadTools(), mcp.connect()]);
      expect(processesOf(SERVERS.memory)).toHaveLength(1);
      expect(await run(byName(mcp.tools(), 'memory__read_graph'), {})).toHaveProperty('content');

      const [first] = processesOf(SERVERS.memory);
      await mcp.close();
      await until(() => processesOf(SERVERS.memory).length === 0);
      expect(mcp.status()[0]?.state).toBe('closed');

      // Used again after close(): a new connection, one new process.
      expect(byName(await mcp.loadTools(), 'memory__read_graph')).toBeDefined();
      expect(processesOf(SERVERS.memory)).toHaveLength(1);
      expect(processesOf(SERVERS.memory)).not.toContain(first);
    } finally {
      await mcp.close();
    }
    await until(() => processesOf(SERVERS.memory).length === 0);
  });

  it('refuses a bad configuration at once, before anything connects', () => {
    expect(() => mcpServers({ mcpServers: { files: { command: 'npx', args: 'not a list' } } } as never)).toThrow(McpConfigError);
    expect(() => mcpServers({ mcpServers: { remote: { url: 'https://example.com/mcp' } } })).toThrow(/not in allowedHosts/);
    expect(processesOf(SERVERS.memory)).toEqual([]);
  });
});

describe('a script that uses an MCP server and closes it', () => {
  it('runs to its end: close() holds the process until the child is stopped (an idle child no longer does)', () => {
    const script = [
      "import { mcpServers } from '@chatwire/mcp';",
      `const mcp = mcpServers({ mcpServers: { memory: ${JSON.stringify(memory())} } });`,
      'const tools = await mcp.loadTools();',
      "console.log(tools.some((tool) => tool.name === 'memory__read_graph'));",
      'await mcp.close();',
      "console.log('closed', mcp.status()[0].state);",
    ].join('\n');
    const child = spawnSync(process.execPath, ['--conditions=@chatwire/source', '--import', 'tsx', '--input-type=module', '-e', script], {
      cwd: fileURLToPath(new URL('..', import.meta.url)),
      encoding: 'utf8',
      timeout: 60_000,
    });
    // Exit code 13 is Node's "unsettled top-level await": the process ran out of work inside close().
    expect({ status: child.status, stdout: child.stdout.trim().split('\n') }).toEqual({ status: 0, stdout: ['true', 'closed closed'] });
  });
});
