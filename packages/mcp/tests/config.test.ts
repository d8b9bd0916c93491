import { describe, expect, it } from 'vitest';
import {
  McpConfigError,
  approvalFromAnnotations,
  assignToolNames,
  checkJsonSchema,
  decideApproval,
  decideLazy,
  isAllowedHost,
  parseMcpConfig,
} from '../src/index.js';

describe('parseMcpConfig: the mcpServers shape, with errors naming the problem', () => {
  it('accepts stdio and HTTP entries as Claude Desktop, Cursor and VS Code write them', () => {
    const config = parseMcpConfig(
      JSON.stringify({
        mcpServers: {
          files: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', '/tmp'], env: { DEBUG: '1' } },
          remote: { type: 'http', url: 'http://localhost:3001/mcp', headers: { Authorization: 'Bearer x' }, lazy: 'auto', trusted: true },
          off: { command: 'nothing', disabled: true },
        },
      }),
    );
    expect(Object.keys(config.mcpServers)).toEqual(['files', 'remote']);
    expect(config.mcpServers['remote']).not.toHaveProperty('type');
  });

  it.each([
    ['{ not json', /is not valid JSON/],
    ['[]', /must be a JSON object with an `mcpServers` object/],
    ['{"servers":{}}', /needs an `mcpServers` object/],
    ['{"mcpServers":{"a":{}}}', /MCP server 'a': needs `command` \(stdio\) or `url` \(HTTP\)/],
    ['{"mcpServers":{"a":{"command":"x","url":"http://localhost"}}}', /MCP server 'a': give either/],
    ['{"mcpServers":{"a":{"command":"x","args":"--flag"}}}', /MCP server 'a': args: /],
    ['{"mcpServers":{"a":{"command":"x","env":{"K":1}}}}', /MCP server 'a': env\.K: /],
    ['{"mcpServers":{"a":{"url":"file:///etc/passwd"}}}', /url must be http: or https:/],
    ['{"mcpServers":{"a":{"url":"not a url"}}}', /is not a URL/],
    ['{"mcpServers":{"a":{"command":"x","lazy":"sometimes"}}}', /MCP server 'a': lazy: /],
    ['{"mcpServers":{"a":{"command":"x","surprise":1}}}', /MCP server 'a': .*surprise/],
    ['{"mcpServers":{"a b":{"command":"x"}}}', /MCP server name "a b" is not allowed/],
  ])('refuses %s', (text, message) => {
    expect(() => parseMcpConfig(text, 'mcp.json')).toThrow(McpConfigError);
    expect(() => parseMcpConfig(text, 'mcp.json')).toThrow(message);
  });
});

describe('tool names', () => {
  it('prefixes, sanitises and cuts to 64, resolving collisions the same way in any order', () => {
    const requests = [
      { server: 'b', prefix: 'x', tool: 'same' },
      { server: 'a', prefix: 'x', tool: 'same' },
      { server: 'a', prefix: 'x', tool: 'sa.me' },
      { server: 'c', prefix: '', tool: 'ünïcode tool' },
    ];
    const forward = assignToolNames(requests);
    const backward = assignToolNames([...requests].reverse());
    expect([...forward.entries()].sort()).toEqual([...backward.entries()].sort());
    expect(forward.get('a\u0000same')).toBe('x__same');
    expect(forward.get('b\u0000same')).toMatch(/^x__same_[0-9a-f]{8}$/);
    expect(forward.get('a\u0000sa.me')).toMatch(/^x__sa_me(_[0-9a-f]{8})?$/);
    expect(forward.get('c\u0000ünïcode tool')).toBe('_n_code_tool');
    expect(new Set(forward.values()).size).toBe(4);
    const long = assignToolNames([{ server: 's', prefix: 'p'.repeat(40), tool: 't'.repeat(40) }]).get(`s\u0000${'t'.repeat(40)}`);
    expect(long).toMatch(/^[a-zA-Z0-9_-]{64}$/);
  });

  it("never takes a reserved name (the app's own tools)", () => {
    expect(assignToolNames([{ server: 's', prefix: '', tool: 'getWeather' }], new Set(['getWeather'])).get('s\u0000getWeather')).not.toBe(
      'getWeather',
    );
  });
});

describe('the lazy rule', () => {
  it('auto defers above the count or the token share; true and false decide alone', () => {
    expect(decideLazy('auto', 16, 100).lazy).toBe(true);
    expect(decideLazy('auto', 15, 2_560).lazy).toBe(false);
    expect(decideLazy('auto', 3, 2_561).lazy).toBe(true);
    expect(decideLazy('auto', 3, 2_561, { contextWindow: 200_000 }).lazy).toBe(false);
    expect(decideLazy(true, 1, 1).lazy).toBe(true);
    expect(decideLazy(false, 5_000, 900_000).lazy).toBe(false);
  });
});

describe('approvals from annotations', () => {
  it('asks for destructive or open-world tools of untrusted servers, reading absent hints as the spec defaults', () => {
    expect(approvalFromAnnotations({}, false)).toBe(true);
    expect(approvalFromAnnotations({ readOnlyHint: true }, false)).toBe(false);
    expect(approvalFromAnnotations({ destructiveHint: false }, false)).toBe(true);
    expect(approvalFromAnnotations({ destructiveHint: false, openWorldHint: false }, false)).toBe(false);
    expect(approvalFromAnnotations({ destructiveHint: true }, true)).toBe(false);
  });

  it('an app policy decides where it answers; a throwing policy asks', () => {
    const question = { server: 's', trusted: false, tool: 't', exposedName: 's__t', annotations: { readOnlyHint: true } };
    expect(decideApproval(question, () => true)).toBe(true);
    expect(decideApproval(question, () => undefined)).toBe(false);
    expect(
      decideApproval(question, () => {
        throw new Error('policy broke');
      }),
    ).toBe(true);
  });
});

describe('hosts and schemas', () => {
  it('allowed hosts match exactly or as subdomains of a *.domain entry, without patterns', () => {
    expect(isAllowedHost('localhost', ['localhost'])).toBe(true);
    expect(isAllowedHost('mcp.example.com', ['*.example.com'])).toBe(true);
    expect(isAllowedHost('example.com', ['*.example.com'])).toBe(false);
    expect(isAllowedHost('evilexample.com', ['*.example.com'])).toBe(false);
    expect(isAllowedHost('a.b', ['a.*'])).toBe(false);
  });

  it('checkJsonSchema names what is not JSON Schema, and limits depth', () => {
    expect(checkJsonSchema({ type: 'object', properties: { a: { type: 'string' } } })).toBeUndefined();
    expect(checkJsonSchema({ type: 'object', properties: 5 })).toMatch(/properties must be an object/);
    expect(checkJsonSchema({ type: 'object', required: 'a' })).toMatch(/required must be an array/);
    let deep: Record<string, unknown> = { type: 'string' };
    for (let i = 0; i < 40; i++) deep = { type: 'array', items: deep };
    expect(checkJsonSchema(deep)).toMatch(/deeper than 32/);
  });
});
