import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECRET_SAMPLES, chatOverHttp, recordingModel } from '../../server/tests/security/secretSamples.js';
import { connectMcpServers, type McpServers } from '../src/index.js';
import { FAULTY, stdio } from './mcpFixtures.js';

describe("an MCP tool's isError text reaches the model and the browser redacted", () => {
  let mcp: McpServers;
  beforeAll(async () => {
    // A real MCP server (stdio) whose one tool fails with the sample texts, by index.
    const env = { LEAKS: JSON.stringify(SECRET_SAMPLES.map((sample) => sample.text)) };
    mcp = await connectMcpServers({ mcpServers: { leaky: { ...stdio(FAULTY, ['leaky'], { env }), lazy: false } } });
  }, 30_000);
  afterAll(async () => {
    await mcp?.close();
  });

  it.each(SECRET_SAMPLES.map((sample, index) => [sample.pattern, sample, index] as const))('%s', async (_pattern, sample, index) => {
    const { model, requests } = recordingModel({
      rules: [{ name: 'leak', when: 'leak', reply: { toolCalls: [{ name: 'leaky__leak', args: { index } }] } }],
    });
    const { sse, events, modelView } = await chatOverHttp({ model, tools: () => mcp.tools(), secret: 'test-secret' }, requests, 'leak');
    const result = events.find((event) => event.type === 'TOOL_CALL_RESULT');
    expect(result?.content).toContain("MCP tool 'leak' on server 'leaky' reported an error");
    expect(requests).toHaveLength(2);
    for (const view of [sse, modelView]) {
      expect(view).toContain('reported an error');
      expect(view).toContain('***');
      for (const secret of sample.secrets) expect(view).not.toContain(secret);
    }
  });
});
