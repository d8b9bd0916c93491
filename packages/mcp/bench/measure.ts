// Measures what docs/mcp.md states: each demo server's start (spawn + initialize + tools/list) alone,
// five times, median; its tool count and token cost; and the 600-tool server's first model call under
// lazy 'auto'. Run: node --conditions=@chatwire/source --import tsx packages/mcp/bench/measure.ts
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ModelCallUsage } from '@chatwire/core';
import { chat, createScriptedModel } from '@chatwire/server';
import { connectMcpServers, type McpServerConfig } from '../src/index.js';
import { FAULTY, SERVERS, stdio } from '../tests/mcpFixtures.js';

const folder = mkdtempSync(join(tmpdir(), 'chatwire-mcp-measure-'));
const servers: Record<string, McpServerConfig> = {
  files: stdio(SERVERS.filesystem, [folder]),
  memory: stdio(SERVERS.memory, [], { env: { MEMORY_FILE_PATH: join(folder, 'memory.jsonl') } }),
  everything: stdio(SERVERS.everything, ['stdio']),
};
for (const [name, config] of Object.entries(servers)) {
  const times: number[] = [];
  let line = '';
  for (let run = 0; run < 5; run++) {
    const started = performance.now();
    const mcp = await connectMcpServers({ mcpServers: { [name]: config } });
    times.push(performance.now() - started);
    const status = mcp.status()[0];
    line = `${status?.toolCount} tools, ${status?.lazy.tokens} tokens (${status?.lazy.reason})`;
    await mcp.close();
  }
  times.sort((a, b) => a - b);
  console.log(
    `${name}: start median ${Math.round(times[2] ?? 0)} ms (min ${Math.round(times[0] ?? 0)}, max ${Math.round(times[4] ?? 0)}); ${line}`,
  );
}
const big = await connectMcpServers({ mcpServers: { big: stdio(FAULTY, ['many', '600']) } });
const usage: ModelCallUsage[] = [];
for await (const event of chat({
  model: createScriptedModel(),
  messages: [{ id: 'u', role: 'user', content: 'use big__generated_tool_421 with value: hello' }],
  tools: big.tools(),
  secret: 's',
})) {
  if (event.type === 'CUSTOM' && event.name === 'chatwire.model_call_usage') usage.push(event.value as ModelCallUsage);
}
console.log(
  `600 tools, lazy auto (${big.status()[0]?.lazy.reason}): first call sends ${usage[0]?.tokens.sent} tool tokens, all eager ${usage[0]?.tokens.allEager}; calls: ${usage.map((call) => call.toolsSent.join('+')).join(' | ')}`,
);
await big.close();
rmSync(folder, { recursive: true, force: true });
