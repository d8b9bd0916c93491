// The MCP client under test in the conformance suite: Chatwire's own (connectMcpServers), driven the
// way a chat drives it. The suite passes the server URL as the last argument and the scenario in
// MCP_CONFORMANCE_SCENARIO. Run through `npm run test:mcp-conformance` (scripts/mcpConformance.mjs).
import { type ServerTool } from '@chatwire/core';
import { executeTool } from '@chatwire/core/shared';
import { connectMcpServers } from '../../src/index.js';

const url = process.argv.at(-1) ?? '';
const scenario = process.env['MCP_CONFORMANCE_SCENARIO'] ?? '';
const mcp = await connectMcpServers(
  { mcpServers: { conformance: { url, connectTimeoutMs: 10_000 } } },
  { allowedHosts: ['localhost', '127.0.0.1'] },
);
const status = mcp.status()[0];
if (status?.state !== 'connected') {
  console.error(`not connected: ${status?.lastError ?? 'unknown'}`);
  await mcp.close();
  process.exit(1);
}
const context = {
  toolCallId: 'conformance',
  signal: new AbortController().signal,
  // The user accepts the form as shown: the fields keep their defaults.
  requestInput: async () => ({ action: 'accept' as const, content: {} }),
};
const call = async (name: string, input: unknown) => {
  const tool = mcp.tools().find((candidate) => candidate.name === `conformance__${name}`) as ServerTool | undefined;
  if (!tool)
    throw new Error(
      `no tool ${name} (have ${mcp
        .tools()
        .map((candidate) => candidate.name)
        .join(', ')})`,
    );
  const outcome = await executeTool(tool, input, context);
  console.log(JSON.stringify(outcome.ok ? outcome.output : outcome.error).slice(0, 500));
};
try {
  if (scenario === 'tools_call') await call('add_numbers', { a: 2, b: 3 });
  else if (scenario === 'elicitation-sep1034-client-defaults') await call('test_client_elicitation_defaults', {});
  else if (scenario === 'sse-retry') await call('test_reconnection', {});
  console.log(
    `tools: ${mcp
      .tools()
      .map((tool) => tool.name)
      .join(', ')}`,
  );
} finally {
  await mcp.close();
}
