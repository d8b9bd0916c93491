import { describe, expect, it } from 'vitest';
import type { Event } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME, toolDefinition, type AnyTool } from '@chatwire/core';
import { chat, createScriptedModel, type ChatModel, type DiscoveryOptions, type ModelTool } from '@chatwire/server';
import { jsonToolTokens } from '@chatwire/server/extension';
import { collect, user } from './fixtures.js';

/**
 * The scale rule through chat(): generated catalogs (not the public data set), one group per
 * "server", every eleventh tool in no group. Token counts are o200k on the discovery tool's JSON,
 * what the scripted model receives.
 */
const VERBS = ['get', 'list', 'create', 'update', 'delete', 'search', 'send', 'read', 'export', 'sync'];
const NOUNS = ['issue', 'message', 'file', 'event', 'invoice', 'ticket', 'record', 'report', 'image', 'page', 'order', 'contact'];

function generated(count: number, groups: number): AnyTool[] {
  return Array.from({ length: count }, (_, index) => {
    const group = `server${index % groups}`;
    const name = `${group}__${VERBS[index % VERBS.length]}_${NOUNS[Math.floor(index / VERBS.length) % NOUNS.length]}_${index}`;
    return toolDefinition({
      name,
      description: `${VERBS[index % VERBS.length]} a ${NOUNS[index % NOUNS.length]} in ${group}. Returns the result as JSON with every field the API gives.`,
      inputSchema: { type: 'object', properties: { id: { type: 'string', description: 'The id.' } } },
      lazy: true,
      ...(index % 11 === 10 ? {} : { group }),
    }).server(async () => ({ ok: true }));
  });
}

const groupDescriptions = (groups: number): DiscoveryOptions['groups'] =>
  Object.fromEntries(
    Array.from({ length: groups }, (_, index) => [
      `server${index}`,
      { description: `The MCP server number ${index}, with tools for its own service and account. It needs a token.` },
    ]),
  );

async function firstCall(
  tools: AnyTool[],
  discovery: DiscoveryOptions,
  reply: (request: { tools: readonly ModelTool[] }) => object = () => ({ text: 'hi' }),
) {
  const received: ModelTool[][] = [];
  const scripted = createScriptedModel({ rules: [{ name: 'r', when: () => true, reply: (context) => reply(context.request) as never }] });
  const model: ChatModel = { ...scripted, stream: (request) => (received.push([...request.tools]), scripted.stream(request)) };
  const events: Event[] = await collect(chat({ model, messages: [user('hello')], tools, discovery, threadId: 't', secret: 'scale-test' }));
  return { received, events, discovery: received[0]?.find((tool) => tool.name === DISCOVERY_TOOL_NAME) as ModelTool };
}

describe('the scale rule', () => {
  it('at 1,254 tools in 70 groups the discovery tool costs at most 1,500 o200k tokens, and stays under at 10,000', async () => {
    const at1254 = await firstCall(generated(1_254, 70), { groups: groupDescriptions(70) });
    const tokens1254 = jsonToolTokens.countTool(at1254.discovery);
    expect(tokens1254).toBeLessThanOrEqual(1_500);
    expect(at1254.discovery.description).toContain('1254 tools in 70 groups');
    // Above the threshold the tool searches, in name mode too.
    expect(at1254.discovery.parameters).toMatchObject({ required: ['query'] });

    const at10k = await firstCall(generated(10_000, 400), { groups: groupDescriptions(400) });
    expect(jsonToolTokens.countTool(at10k.discovery)).toBeLessThanOrEqual(1_500);
    expect(at10k.discovery.description).toMatch(/\d+ more groups/);
  });

  it('lists every name at and below the threshold, as before', async () => {
    const tools = generated(100, 5);
    const { discovery } = await firstCall(tools, {});
    expect(discovery.parameters).toMatchObject({ required: ['toolNames'] });
    for (const tool of tools) expect(discovery.description).toContain(tool.name);
  });

  it("lets the model list a group's tools, then load one", async () => {
    const tools = generated(300, 10);
    const wanted = tools.find((tool) => tool.group === 'server3')!.name;
    let step = 0;
    const { received } = await firstCall(tools, { groupAbove: 100 }, (request) => {
      step++;
      if (step === 1) return { toolCalls: [{ name: DISCOVERY_TOOL_NAME, args: { query: 'group:server3' } }] };
      if (step === 2) return { toolCalls: [{ name: DISCOVERY_TOOL_NAME, args: { query: `select:${wanted}` } }] };
      return { text: request.tools.some((tool) => tool.name === wanted) ? 'loaded' : 'missing' };
    });
    expect(received).toHaveLength(3);
    expect(received[2]!.map((tool) => tool.name)).toContain(wanted);
  });
});
