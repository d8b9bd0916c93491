import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import type { Message, Tool as WireTool } from '@ag-ui/core';
import {
  DISCOVERY_TOOL_NAME,
  clientDiscovery,
  toolDefinition,
  type ChatClient,
  type ModelCallUsage,
  type ToolCallPart,
  type ToolContext,
} from '@chatwire/core';
import { discoveredToolsInWire, loadingFailure, selfCorrectionError, toolCallParts } from '@chatwire/core/shared';
import { createChatHandler, createScriptedModel, type ChatModel, type DiscoveryOptions, type ModelTool } from '@chatwire/server';
import type { ScriptRule } from '@chatwire/server/testing';
import { clientFor } from './fixtures.js';
import { sentToolTokens } from './sentTokens.js';
import { createPlainAgUiServer } from './plainAgUiServer.js';

// ---------------------------------------------------------------------------------------------
// Tools

/** A lazy browser tool: withheld from the model until discovered, run by the ChatClient. */
const showBanner = toolDefinition({
  name: 'showBanner',
  description: 'Show a banner at the top of the page.',
  inputSchema: z.object({ text: z.string() }),
  lazy: true,
});
/** A second lazy browser tool with a larger schema (so deferring it saves tokens). */
const fillAddress = toolDefinition({
  name: 'fillAddress',
  description: 'Fill the shipping address form on the checkout page with a street, a city, a postcode and a country.',
  inputSchema: z.object({
    street: z.string().describe('Street and house number, as printed on the label.'),
    city: z.string().describe('City or town of the recipient.'),
    postcode: z.string().describe('Postal code in the format of the destination country.'),
    country: z.string().describe('ISO 3166-1 alpha-2 country code, for example DE or FR.'),
  }),
  lazy: true,
});
/** An eager browser tool. */
const setTheme = toolDefinition({
  name: 'setTheme',
  description: 'Switch the page theme.',
  inputSchema: z.object({ theme: z.enum(['light', 'dark']) }),
});

/** Server tools of the Chatwire handler: one eager, one lazy. */
const getTime = toolDefinition({ name: 'getTime', description: 'The current server time.', inputSchema: z.object({}) }).server(
  async () => ({ time: '12:00' }),
);
const convertCurrency = toolDefinition({
  name: 'convertCurrency',
  description: 'Convert an amount between currencies.',
  inputSchema: z.object({ amount: z.number(), from: z.string(), to: z.string() }),
  lazy: true,
}).server(async ({ amount }) => ({ amount: amount * 2 }));
const listOrders = toolDefinition({
  name: 'listOrders',
  description: 'List the customer orders. Newest first.',
  inputSchema: z.object({}),
  lazy: true,
}).server(async () => ({ orders: ['ORD-1', 'ORD-2'] }));

// ---------------------------------------------------------------------------------------------
// Helpers

/** The scripted model, wrapped to record the request of every call it receives. */
function recordingModel(rules: ScriptRule[] = []) {
  const requests: { system: string | undefined; tools: ModelTool[]; messages: readonly Message[] }[] = [];
  const scripted = createScriptedModel({ rules });
  const model: ChatModel = {
    ...scripted,
    stream: (request) => {
      requests.push({ system: request.system, tools: [...request.tools], messages: request.messages });
      return scripted.stream(request);
    },
  };
  return { model, requests, toolNames: () => requests.map((request) => request.tools.map((tool) => tool.name)) };
}

/** A page the browser tools act on. */
function page() {
  const state = { banner: undefined as string | undefined, theme: 'light' };
  const banner = vi.fn(async ({ text }: { text: string }, _context: ToolContext) => {
    state.banner = text;
    return { shown: text };
  });
  const address = vi.fn(async (input: { street: string; city: string; postcode: string; country: string }) => ({ filled: input.city }));
  const switchTheme = vi.fn(async ({ theme }: { theme: 'light' | 'dark' }) => {
    state.theme = theme;
    return { theme };
  });
  return { state, banner, address, tools: [setTheme.client(switchTheme), showBanner.client(banner), fillAddress.client(address)] };
}

/** A ChatClient against the Chatwire handler, which manages discovery on the server. */
function chatwireSetup(rules: ScriptRule[] = [], discovery: DiscoveryOptions = {}) {
  const recorded = recordingModel(rules);
  const handler = createChatHandler({ model: recorded.model, tools: [getTime, convertCurrency], secret: 'test', discovery });
  const browser = page();
  const { client, bodies } = clientFor(handler, { tools: browser.tools });
  return { ...recorded, ...browser, client, bodies };
}

/** A ChatClient against a plain AG-UI server (no Chatwire on the server side). */
function plainSetup(options: { rules?: ScriptRule[]; manageDiscovery?: boolean } = {}) {
  const recorded = recordingModel(options.rules ?? []);
  const server = createPlainAgUiServer(recorded.model);
  const browser = page();
  const { client, bodies } = clientFor(server.handler, {
    tools: browser.tools,
    ...(options.manageDiscovery ? { manageDiscovery: clientDiscovery() } : {}),
  });
  return { ...recorded, ...browser, client, bodies, inputs: server.inputs };
}

const allCalls = (client: ChatClient): ToolCallPart[] => client.getSnapshot().messages.flatMap((message) => toolCallParts(message));
const callsTo = (client: ChatClient, name: string) => allCalls(client).filter((call) => call.toolName === name);
const wireTools = (body: { readonly tools?: unknown } | undefined) => (body?.tools ?? []) as WireTool[];
const toolNamesOf = (body: { readonly tools?: unknown } | undefined) => wireTools(body).map((tool) => tool.name);
const names = (tools: readonly { name: string }[]) => tools.map((tool) => tool.name);
const lastText = (client: ChatClient) =>
  client
    .getSnapshot()
    .messages.at(-1)
    ?.parts.filter((part) => part.type === 'text')
    .at(-1);
const discoveryToolOf = (tools: readonly { name: string; description: string }[]) =>
  tools.find((tool) => tool.name === DISCOVERY_TOOL_NAME);

// ---------------------------------------------------------------------------------------------

describe('server-managed discovery of lazy browser tools', () => {
  it('the run input carries a lazy browser tool with metadata.chatwire.lazy, eager ones without', async () => {
    const { client, bodies } = chatwireSetup();
    await client.sendMessage('hello');
    const tools = wireTools(bodies[0]);
    expect(names(tools)).toEqual(['setTheme', 'showBanner', 'fillAddress']);
    expect(tools.find((tool) => tool.name === 'showBanner')).toEqual({
      name: 'showBanner',
      description: showBanner.description,
      parameters: showBanner.parameters,
      metadata: { chatwire: { lazy: true } },
    });
    expect(tools.find((tool) => tool.name === 'fillAddress')?.metadata).toEqual({ chatwire: { lazy: true } });
    expect(tools.find((tool) => tool.name === 'setTheme')).not.toHaveProperty('metadata');
  });

  it('the model never receives a lazy browser tool before its discovery: it is only named in the catalog', async () => {
    const { client, requests } = chatwireSetup();
    await client.sendMessage('hello');
    await client.sendMessage('use showBanner saying "Hi"');
    expect(requests.length).toBeGreaterThanOrEqual(3);
    const before = requests.filter((request) => !discoveredToolsInWire(request.messages).includes('showBanner'));
    const after = requests.filter((request) => discoveredToolsInWire(request.messages).includes('showBanner'));
    expect(before).toHaveLength(2); // the 'hello' call and the call that discovers
    expect(after.length).toBeGreaterThan(0);
    for (const request of before) {
      expect(names(request.tools)).toEqual(['getTime', 'setTheme', DISCOVERY_TOOL_NAME]);
      expect(discoveryToolOf(request.tools)?.description).toContain('Tools you can load: convertCurrency, showBanner, fillAddress.');
      // Neither the definition nor the description travels: only the name, in the catalog.
      expect(JSON.stringify(request.tools)).not.toContain(showBanner.description);
    }
    for (const request of after) expect(names(request.tools)).toContain('showBanner');
  });

  it('a message naming the tool: the model discovers it, calls it, and the browser runs it once with the validated input', async () => {
    const { client, bodies, requests, toolNames, banner, state } = chatwireSetup();
    await client.sendMessage('use showBanner saying "Sale ends today"');

    expect(banner).toHaveBeenCalledTimes(1);
    expect(banner).toHaveBeenCalledWith({ text: 'Sale ends today' }, expect.objectContaining({ toolCallId: expect.any(String) }));
    expect(state.banner).toBe('Sale ends today');
    const [discovery] = callsTo(client, DISCOVERY_TOOL_NAME);
    expect(discovery).toMatchObject({ state: 'output-available', result: { output: { discovered: ['showBanner'] } } });
    const [call] = callsTo(client, 'showBanner');
    expect(callsTo(client, 'showBanner')).toHaveLength(1);
    expect(call).toMatchObject({ state: 'output-available', owner: 'client', result: { output: { shown: 'Sale ends today' } } });
    expect(banner.mock.calls[0]?.[1]?.toolCallId).toBe(call?.toolCallId);
    expect(client.getSnapshot().status).toBe('ready');

    // Call 1 discovers, call 2 calls the tool (then the run waits for the browser), call 3 summarises.
    expect(requests).toHaveLength(3);
    expect(bodies).toHaveLength(2);
    expect(toolNames()).toEqual([
      ['getTime', 'setTheme', DISCOVERY_TOOL_NAME],
      ['getTime', 'setTheme', DISCOVERY_TOOL_NAME, 'showBanner'],
      ['getTime', 'setTheme', DISCOVERY_TOOL_NAME, 'showBanner'],
    ]);
    for (const request of requests.slice(1)) {
      expect(request.tools.filter((tool) => tool.name === 'showBanner')).toEqual([
        { name: 'showBanner', description: showBanner.description, parameters: showBanner.parameters },
      ]);
    }
    expect(lastText(client)).toMatchObject({ text: expect.stringContaining('showBanner returned') });
  });

  it("a call before discovery does not run, but the server's answer loads the tool: the model calls it again in the next request and the browser runs it", async () => {
    const jumpTheGun: ScriptRule = {
      name: 'call before discovering',
      when: (context) => context.phase === 'user' && context.userText.startsWith('sneak'),
      reply: { toolCalls: [{ name: 'showBanner', args: { text: 'early' } }] },
    };
    const { client, requests, banner, state } = chatwireSetup([jumpTheGun]);
    await client.sendMessage('sneak showBanner saying "early"');

    const [refused, retried] = callsTo(client, 'showBanner');
    expect(callsTo(client, 'showBanner')).toHaveLength(2);
    expect(refused).toMatchObject({ state: 'output-error', owner: 'server', result: { error: loadingFailure('showBanner').error } });
    expect(refused?.result?.metadata).toMatchObject({ chatwire: { discoveredTools: ['showBanner'], undiscovered: true } });
    expect(retried).toMatchObject({ state: 'output-available', owner: 'client', result: { output: { shown: 'early' } } });
    expect(banner).toHaveBeenCalledTimes(1);
    expect(banner.mock.calls[0]?.[1]?.toolCallId).toBe(retried?.toolCallId);
    expect(state.banner).toBe('early');
    // No discovery call: the refused call, then the call again.
    expect(allCalls(client).map((call) => call.toolName)).toEqual(['showBanner', 'showBanner']);
    expect(names(requests[0]!.tools)).not.toContain('showBanner');
    expect(names(requests[1]!.tools)).toContain('showBanner');
    // Call, retry, summary: the retry is one request.
    expect(requests).toHaveLength(3);
    expect(client.getSnapshot().status).toBe('ready');
  });

  it("with undiscoveredCalls: 'self-correct', a call before discovery gets the self-correction error; the model discovers and calls it again", async () => {
    const jumpTheGun: ScriptRule = {
      name: 'call before discovering',
      when: (context) => context.phase === 'user' && context.userText.startsWith('sneak'),
      reply: { toolCalls: [{ name: 'showBanner', args: { text: 'early' } }] },
    };
    const { client, requests, banner } = chatwireSetup([jumpTheGun], { undiscoveredCalls: 'self-correct' });
    await client.sendMessage('sneak showBanner saying "early"');

    const [refused, retried] = callsTo(client, 'showBanner');
    expect(refused).toMatchObject({ state: 'output-error', owner: 'server', result: { error: selfCorrectionError('showBanner') } });
    expect(retried).toMatchObject({ state: 'output-available', owner: 'client', result: { output: { shown: 'early' } } });
    expect(banner).toHaveBeenCalledTimes(1);
    expect(allCalls(client).map((call) => call.toolName)).toEqual(['showBanner', DISCOVERY_TOOL_NAME, 'showBanner']);
    expect(requests).toHaveLength(4);
    expect(client.getSnapshot().status).toBe('ready');
  });

  it('discovery and the call in the same response: the call is accepted and runs once', async () => {
    const together: ScriptRule = {
      name: 'discover and call at once',
      when: 'both at once',
      reply: {
        toolCalls: [
          { name: DISCOVERY_TOOL_NAME, args: { toolNames: ['showBanner'] } },
          { name: 'showBanner', args: { text: 'together' } },
        ],
      },
    };
    const { client, bodies, requests, banner, state } = chatwireSetup([together]);
    await client.sendMessage('both at once');

    expect(banner).toHaveBeenCalledTimes(1);
    expect(banner).toHaveBeenCalledWith({ text: 'together' }, expect.anything());
    expect(state.banner).toBe('together');
    expect(allCalls(client).map((call) => [call.toolName, call.state])).toEqual([
      [DISCOVERY_TOOL_NAME, 'output-available'],
      ['showBanner', 'output-available'],
    ]);
    expect(JSON.stringify(client.getSnapshot().messages)).not.toContain('must be discovered first');
    expect(bodies).toHaveLength(2);
    // The browser's result rides the next input's tool messages.
    const sent = bodies[1]?.['messages'] as { role: string; content?: string }[];
    expect(sent.filter((message) => message.role === 'tool').map((message) => message.content)).toContain(
      JSON.stringify({ shown: 'together' }),
    );
    expect(requests).toHaveLength(2); // no self-correction round trip
    expect(client.getSnapshot().status).toBe('ready');
  });
});

describe('lazy browser tools against a plain AG-UI server (the browser gates)', () => {
  it('a lazy tool called where nobody manages discovery does not run; the error names manageDiscovery (no self-correction toward a tool the server lacks) and the chat continues', async () => {
    const { client, inputs, requests, banner, state } = plainSetup();
    await client.sendMessage('use showBanner saying "hi"');

    // Sent normally: the plain server hands it to the model, which calls it directly.
    expect(toolNamesOf(inputs[0])).toEqual(['setTheme', 'showBanner', 'fillAddress']);
    expect(names(requests[0]!.tools)).toContain('showBanner');
    expect(banner).not.toHaveBeenCalled();
    expect(state.banner).toBeUndefined();
    const [call] = callsTo(client, 'showBanner');
    expect(call).toMatchObject({ state: 'output-error', owner: 'client' });
    const error = call!.result!.error!;
    expect(error).toContain('manageDiscovery');
    expect(error).toContain('showBanner');
    expect(error).not.toContain(DISCOVERY_TOOL_NAME);
    expect(error).not.toContain(selfCorrectionError('showBanner'));

    // The conversation continues: the next request carries the error as the tool message.
    expect(inputs).toHaveLength(2);
    const toolMessage = inputs[1]!.messages.find((message) => message.role === 'tool');
    expect(toolMessage).toMatchObject({ toolCallId: call!.toolCallId, error, content: JSON.stringify({ error }) });
    expect(lastText(client)).toMatchObject({ text: expect.stringContaining('showBanner failed') });
    expect(client.getSnapshot().status).toBe('ready');
  });
});

describe('client-managed discovery (manageDiscovery) against a plain AG-UI server', () => {
  it('the first run sends eager tools plus the discovery tool listing the lazy ones; lazy schemas stay in the browser', async () => {
    const { client, inputs, requests } = plainSetup({ manageDiscovery: true });
    await client.sendMessage('hello');
    const tools = wireTools(inputs[0]);
    expect(names(tools)).toEqual(['setTheme', DISCOVERY_TOOL_NAME]);
    expect(tools[0]).toEqual({ name: 'setTheme', description: setTheme.description, parameters: setTheme.parameters });
    expect(tools[1]?.description).toContain('Tools you can load: showBanner, fillAddress.');
    expect(tools[1]?.parameters).toMatchObject({ properties: { toolNames: { type: 'array' } }, required: ['toolNames'] });
    const sent = JSON.stringify(tools);
    expect(sent).not.toContain(showBanner.description);
    expect(sent).not.toContain(fillAddress.description);
    expect(sent).not.toContain('postcode');
    expect(names(requests[0]!.tools)).toEqual(['setTheme', DISCOVERY_TOOL_NAME]);
  });

  it('discovery is answered in the browser, the next run carries the definition, the model calls it and the browser runs it', async () => {
    const { client, inputs, banner, state } = plainSetup({ manageDiscovery: true });
    await client.sendMessage('use showBanner saying "Hi there"');

    const [discovery] = callsTo(client, DISCOVERY_TOOL_NAME);
    expect(discovery).toMatchObject({ state: 'output-available', owner: 'client', input: { toolNames: ['showBanner'] } });
    expect(discovery?.result?.output).toMatchObject({ discovered: ['showBanner'] });
    expect(discovery?.result?.output).not.toHaveProperty('errors');

    // Run 1 discovers, run 2 calls the tool, run 3 summarises: the client continued by itself.
    expect(inputs).toHaveLength(3);
    expect(toolNamesOf(inputs[0])).toEqual(['setTheme', DISCOVERY_TOOL_NAME]);
    expect(toolNamesOf(inputs[1])).toEqual(['setTheme', DISCOVERY_TOOL_NAME, 'showBanner']);
    expect(toolNamesOf(inputs[2])).toEqual(['setTheme', DISCOVERY_TOOL_NAME, 'showBanner']);
    expect(wireTools(inputs[1]).at(-1)).toEqual({
      name: 'showBanner',
      description: showBanner.description,
      parameters: showBanner.parameters,
    });
    expect(inputs[1]!.messages.find((message) => message.role === 'tool')).toMatchObject({
      toolCallId: discovery!.toolCallId,
      content: expect.stringContaining('"discovered":["showBanner"]'),
    });

    expect(banner).toHaveBeenCalledTimes(1);
    expect(banner).toHaveBeenCalledWith({ text: 'Hi there' }, expect.anything());
    expect(state.banner).toBe('Hi there');
    expect(callsTo(client, 'showBanner')).toEqual([
      expect.objectContaining({ state: 'output-available', result: expect.objectContaining({ output: { shown: 'Hi there' } }) }),
    ]);
    expect(lastText(client)).toMatchObject({ text: expect.stringContaining('showBanner returned') });
    expect(client.getSnapshot().status).toBe('ready');
  });

  it('unknown names in a discovery call are per-name errors, not a failed call', async () => {
    const discoverSome: ScriptRule = {
      name: 'discover a known and an unknown name',
      when: 'load gadgets',
      reply: { toolCalls: [{ name: DISCOVERY_TOOL_NAME, args: { toolNames: ['teleport', 'showBanner'] } }] },
    };
    const { client, inputs } = plainSetup({ rules: [discoverSome], manageDiscovery: true });
    await client.sendMessage('load gadgets');

    const [discovery] = callsTo(client, DISCOVERY_TOOL_NAME);
    expect(discovery?.state).toBe('output-available');
    expect(discovery?.result?.output).toEqual({
      discovered: ['showBanner'],
      errors: { teleport: "Unknown tool 'teleport'." },
      note: expect.any(String),
    });
    expect(inputs).toHaveLength(2);
    expect(inputs[1]!.messages.find((message) => message.role === 'tool')).not.toHaveProperty('error');
    expect(toolNamesOf(inputs[1])).toEqual(['setTheme', DISCOVERY_TOOL_NAME, 'showBanner']);
    expect(client.getSnapshot().status).toBe('ready');
  });

  it('a discovery call naming only unknown tools still succeeds, loading nothing', async () => {
    const discoverNothing: ScriptRule = {
      name: 'discover an unknown name',
      when: 'load teleport',
      reply: { toolCalls: [{ name: DISCOVERY_TOOL_NAME, args: { toolNames: ['teleport'] } }] },
    };
    const { client, inputs } = plainSetup({ rules: [discoverNothing], manageDiscovery: true });
    await client.sendMessage('load teleport');
    const [discovery] = callsTo(client, DISCOVERY_TOOL_NAME);
    expect(discovery?.state).toBe('output-available');
    expect(discovery?.result?.output).toMatchObject({ discovered: [], errors: { teleport: "Unknown tool 'teleport'." } });
    expect(toolNamesOf(inputs[1])).toEqual(['setTheme', DISCOVERY_TOOL_NAME]);
  });

  it('later discoveries append in order, and once every lazy tool is discovered the discovery tool is no longer sent', async () => {
    const { client, inputs, requests, banner, address } = plainSetup({ manageDiscovery: true });
    await client.sendMessage('use showBanner saying "one"');
    expect(toolNamesOf(inputs.at(-1))).toEqual(['setTheme', DISCOVERY_TOOL_NAME, 'showBanner']);
    const firstTurn = inputs.length;

    await client.sendMessage('use fillAddress for {"street":"1 Main St","city":"Lyon","postcode":"69001","country":"FR"}');
    expect(toolNamesOf(inputs[firstTurn])).toEqual(['setTheme', DISCOVERY_TOOL_NAME, 'showBanner']);
    for (const input of inputs.slice(firstTurn + 1)) expect(toolNamesOf(input)).toEqual(['setTheme', 'showBanner', 'fillAddress']);
    expect(inputs.length).toBeGreaterThan(firstTurn + 1);
    expect(names(requests.at(-1)!.tools)).toEqual(['setTheme', 'showBanner', 'fillAddress']);
    expect(wireTools(inputs.at(-1)).every((tool) => tool.metadata === undefined)).toBe(true);

    expect(banner).toHaveBeenCalledTimes(1);
    expect(address).toHaveBeenCalledTimes(1);
    expect(address).toHaveBeenCalledWith({ street: '1 Main St', city: 'Lyon', postcode: '69001', country: 'FR' }, expect.anything());
    expect(client.getSnapshot().status).toBe('ready');
  });

  it('a lazy tool called before its discovery is refused in the browser, and the refusal loads it: the retry runs once, with no discovery call', async () => {
    const rush: ScriptRule = {
      name: 'call before discovering',
      when: (context) => context.phase === 'user' && context.userText.startsWith('rush'),
      reply: (context) => ({ toolCalls: [{ name: 'fillAddress', argsText: context.userText.slice(context.userText.indexOf('{')) }] }),
    };
    const { client, inputs, address } = plainSetup({ rules: [rush], manageDiscovery: true });
    await client.sendMessage('rush fillAddress {"street":"1 Main St","city":"Lyon","postcode":"69001","country":"FR"}');

    expect(allCalls(client).map((call) => [call.toolName, call.state])).toEqual([
      ['fillAddress', 'output-error'],
      ['fillAddress', 'output-available'],
    ]);
    const [refused, retried] = callsTo(client, 'fillAddress');
    expect(refused?.result?.error).toBe(loadingFailure('fillAddress').error);
    expect(address).toHaveBeenCalledTimes(1);
    expect(address.mock.calls[0]?.[0]).toEqual({ street: '1 Main St', city: 'Lyon', postcode: '69001', country: 'FR' });
    expect(retried?.result?.output).toEqual({ filled: 'Lyon' });
    // The refusal travels back with its metadata, so the very next run carries the definition.
    const refusal = inputs[1]!.messages.find((message) => message.role === 'tool');
    expect(refusal).toMatchObject({
      toolCallId: refused?.toolCallId,
      metadata: { chatwire: { discoveredTools: ['fillAddress'], undiscovered: true } },
    });
    expect(toolNamesOf(inputs[0])).toEqual(['setTheme', DISCOVERY_TOOL_NAME]);
    expect(toolNamesOf(inputs[1])).toEqual(['setTheme', DISCOVERY_TOOL_NAME, 'fillAddress']);
    // Call, retry, summary.
    expect(inputs).toHaveLength(3);
    expect(client.getSnapshot().status).toBe('ready');
  });

  it('records one client-side token estimate per run in the turn', async () => {
    const { client, inputs } = plainSetup({ manageDiscovery: true });
    await client.sendMessage('hello');
    const afterHello = inputs.length;
    await client.sendMessage('use showBanner saying "x"');

    const { turns, messages } = client.getSnapshot();
    expect(turns).toHaveLength(2);
    expect(turns.map((turn) => turn.id)).toEqual(messages.filter((message) => message.role === 'user').map((message) => message.id));
    expect(turns[0]!.modelCalls).toHaveLength(afterHello);
    const records = turns.at(-1)!.modelCalls;
    const runs = inputs.slice(afterHello);
    expect(runs).toHaveLength(3);
    expect(records).toHaveLength(runs.length);
    records.forEach((record: ModelCallUsage, index) => {
      expect(record.source).toBe('client');
      expect(record.runId).toBe(runs[index]!.runId);
      expect(record.toolsSent).toEqual(toolNamesOf(runs[index]));
      expect(record.counting.estimate).toBe(true);
      expect(record.counting.errorBound).toBeGreaterThan(0);
      expect(record.tokens.saved).toBe(record.tokens.allEager - record.tokens.sent);
      expect(record.tokens.allEager).toBe(records[0]!.tokens.allEager);
    });
    const [before, discovered, after] = records;
    expect(before!.tokens.sent).toBeLessThan(before!.tokens.allEager);
    expect(before!.toolsDeferred).toEqual(['showBanner', 'fillAddress']);
    expect(before!.tokens.discoveryTool).toBeGreaterThan(0);
    expect(before!.tokens.discoveryRoundTrips).toBe(0);
    expect(discovered!.newlyDiscovered).toEqual(['showBanner']);
    expect(discovered!.toolsDeferred).toEqual(['fillAddress']);
    expect(discovered!.tokens.sent).toBeGreaterThan(before!.tokens.sent);
    expect(discovered!.tokens.discoveryRoundTrips).toBeGreaterThan(0);
    expect(after!.newlyDiscovered).toEqual([]);
  });
});

describe('client-managed discovery (manageDiscovery) against the Chatwire server', () => {
  it('works with nothing, some and every lazy browser tool discovered: each runs once, nothing is refused as forged, a server tool still runs after', async () => {
    const banner = vi.fn(async ({ text }: { text: string }) => ({ shown: text }));
    const address = vi.fn(async ({ city }: { city: string }) => ({ filled: city }));
    const handler = createChatHandler({ model: createScriptedModel(), tools: [getTime], secret: 'test' });
    const { client, bodies } = clientFor(handler, {
      tools: [setTheme.client(async ({ theme }) => ({ theme })), showBanner.client(banner), fillAddress.client(address)],
      manageDiscovery: clientDiscovery(),
    });
    const toolNames = (body: Record<string, unknown> | undefined) => ((body?.['tools'] ?? []) as WireTool[]).map((tool) => tool.name);
    const turn = async (text: string) => {
      const from = bodies.length;
      await client.sendMessage(text);
      expect(client.getSnapshot().error, text).toBeUndefined();
      expect(client.getSnapshot().status, text).toBe('ready');
      return bodies.slice(from);
    };

    // Nothing discovered: the browser offers its discovery tool, never a lazy definition.
    const first = await turn('use showBanner saying "one"');
    expect(toolNames(first[0])).toEqual(['setTheme', DISCOVERY_TOOL_NAME]);
    expect(banner).toHaveBeenCalledTimes(1);
    // Some discovered: showBanner is sent, fillAddress still only in the catalog.
    const second = await turn('use fillAddress for {"street":"1 Main St","city":"Lyon","postcode":"69001","country":"FR"}');
    expect(toolNames(second[0])).toEqual(['setTheme', DISCOVERY_TOOL_NAME, 'showBanner']);
    expect(address).toHaveBeenCalledTimes(1);
    expect(address.mock.calls[0]?.[0]).toMatchObject({ city: 'Lyon' });
    // Every lazy tool discovered: no discovery tool any more, and the earlier browser-answered
    // discovery results in the history are still accepted by the server.
    const third = await turn('use showBanner saying "two"');
    expect(toolNames(third[0])).toEqual(['setTheme', 'showBanner', 'fillAddress']);
    expect(banner).toHaveBeenCalledTimes(2);
    await turn('use getTime');
    const times = client
      .getSnapshot()
      .messages.flatMap((message) => toolCallParts(message))
      .filter((part) => part.toolName === 'getTime');
    expect(times.map((part) => part.state)).toEqual(['output-available']);
  });
});

describe('server-managed token records reach the client', () => {
  it('one turn record per user message, one entry per model call, matching what the model received', async () => {
    const recorded = recordingModel();
    const handler = createChatHandler({ model: recorded.model, tools: [getTime, convertCurrency, listOrders], secret: 'test' });
    const browser = page();
    const { client } = clientFor(handler, { tools: browser.tools });
    const perTurn: number[] = [];
    for (const text of ['hello', 'use listOrders', 'use showBanner saying "tokens"', 'use getTime']) {
      const before = recorded.requests.length;
      await client.sendMessage(text);
      perTurn.push(recorded.requests.length - before);
    }
    expect(perTurn).toEqual([1, 3, 3, 2]);
    expect(browser.banner).toHaveBeenCalledTimes(1);

    const { turns, messages } = client.getSnapshot();
    expect(turns.map((turn) => turn.id)).toEqual(messages.filter((message) => message.role === 'user').map((message) => message.id));
    expect(turns.map((turn) => turn.modelCalls.length)).toEqual(perTurn);
    const entries = turns.flatMap((turn) => turn.modelCalls);
    expect(entries).toHaveLength(recorded.requests.length);
    entries.forEach((entry, index) => {
      const received = recorded.requests[index]!;
      expect(entry.source ?? 'server').toBe('server');
      expect(entry.toolsSent).toEqual(names(received.tools));
      // The tool list's tokens where it sits in the request the model received.
      expect(entry.tokens.sent).toBe(sentToolTokens(received));
      expect(entry.tokens.saved).toBe(entry.tokens.allEager - entry.tokens.sent);
      expect(entry.counting.estimate).toBe(false);
      expect(entry.providerUsage?.inputTokens).toEqual(expect.any(Number));
      expect(entry.providerUsage!.inputTokens!).toBeGreaterThan(0);
    });
  });
});
