import type { ToolCatalog } from '@chatwire/core/shared';
import { createToolsHandler } from '@chatwire/server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatOverHttp, recordingModel } from '../../server/tests/security/secretSamples.js';
import { connectMcpServers, type McpServers } from '../src/index.js';
import { exceedsJsonChars } from '../src/tools/checkJsonSchema.js';
import { FAULTY, stdio } from './mcpFixtures.js';

const SKIPPED = {
  name: 'pick_sku',
  reason: expect.stringMatching(/^its description and inputSchema take more than 64,000 characters of JSON/),
};

describe('a tool whose schema has a 200,000-value enum (an eager server, lazy: false)', () => {
  let mcp: McpServers;
  beforeAll(async () => {
    // A real MCP server (stdio): pick_sku's input schema enumerates 200,000 SKUs (2.4 MB of JSON), beside a small tool.
    mcp = await connectMcpServers({ mcpServers: { shop: { ...stdio(FAULTY, ['enum', '200000']), lazy: false } } });
  }, 30_000);
  afterAll(async () => {
    await mcp?.close();
  });

  it('is skipped with its reason in the MCP status; its small sibling stays', () => {
    const status = mcp.status()[0];
    expect(status?.state).toBe('connected');
    expect(status?.skipped).toContainEqual(SKIPPED);
    expect(mcp.tools().map((tool) => tool.name)).toEqual(['shop__generated_tool_0']);
  });

  it('is listed as skipped, with the reason, in the catalog devtools reads', async () => {
    const handler = createToolsHandler(() => mcp.tools(), { servers: () => mcp.catalogStatus() });
    const body = (await (await handler(new Request('http://localhost/api/tools'))).json()) as ToolCatalog;
    expect(body.servers?.[0]?.skipped).toContainEqual(SKIPPED);
    expect(body.tools.map((tool) => tool.name)).toEqual(['shop__generated_tool_0']);
  });

  it('is never sent to the model: three chats, every model call gets the small tool only', async () => {
    const { model, requests } = recordingModel();
    for (const text of ['hello', 'use shop__generated_tool_0 with value: a', 'pick a sku please']) {
      const { events } = await chatOverHttp({ model, tools: () => mcp.tools(), secret: 'test-secret' }, requests, text);
      expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    }
    expect(requests.length).toBeGreaterThanOrEqual(3);
    for (const request of requests) {
      expect(request.tools.map((tool) => tool.name)).toEqual(['shop__generated_tool_0']);
      expect(JSON.stringify(request.tools).length).toBeLessThan(1_000);
    }
  });
});

describe('exceedsJsonChars', () => {
  it('counts every string, enum and const value, key and nested value, and stops at the limit', () => {
    const schema = { type: 'object', properties: { a: { const: 'x'.repeat(100) }, b: { enum: [1, 2, 3] } } };
    const chars = JSON.stringify(schema).length;
    expect(exceedsJsonChars(schema, chars)).toBe(false);
    expect(exceedsJsonChars(schema, chars - 1)).toBe(true);
    // A value nested 100,000 deep (in a default) is counted without recursion.
    let deep: unknown = 'end';
    for (let depth = 0; depth < 100_000; depth++) deep = [deep];
    expect(exceedsJsonChars({ default: deep }, 1_000_000)).toBe(false);
    expect(exceedsJsonChars({ default: deep }, 1_000)).toBe(true);
  });
});
