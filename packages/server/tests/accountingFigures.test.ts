import { describe, expect, it } from 'vitest';
import { encode } from 'gpt-tokenizer';
import { z } from 'zod';
import type { LanguageModelV3 } from '@ai-sdk/provider';
import type { Message } from '@ag-ui/core';
import { DISCOVERY_TOOL_NAME, toolDefinition, type ModelCallUsage } from '@chatwire/core';
import {
  aiSdkModel,
  createChatHandler,
  createScriptedModel,
  type AiSdkCallOptions,
  type ChatModel,
  type DiscoveryOptions,
  type ModelRequest,
  type ModelTool,
} from '@chatwire/server';
import { toAiSdkPrompt, toAiSdkTools, toModelTool, type AiSdkFunctionTool, type AiSdkPromptMessage } from '@chatwire/server/extension';
import { asLanguageModelV3 } from './aiSdk/scriptedLanguageModel.js';
import { clientFor } from './fixtures.js';
import { JsonText, addTools, scriptedSerialisation, tokensOf, within, type Serialised } from './sentTokens.js';

/*
 * Every token figure of `chatwire.model_call_usage`, checked from outside against gpt-tokenizer's
 * count of what the adapter actually sent: a 40-tool catalog (6 eager, 34 lazy), a 3-turn script on
 * the scripted model (two lazy tools discovered and called, then a plain answer), every catalog mode
 * (name and search, each with no descriptions, first sentences and full descriptions), through two
 * adapters: the scripted model itself (it receives the request as JSON) and the AI SDK bridge (the
 * scripted model behind a `LanguageModelV3`: what was sent is the prompt and tools the bridge handed
 * the provider package).
 *
 * The counts here are plain: the request's text is encoded whole, each token's place found by
 * decoding it, and a part of the request holds the tokens that start in it:
 * - input: every token of the request; system: the tokens in the system prompt's JSON string;
 * - sent: the tokens in the tool list (the definitions and the commas between them), discoveryTool
 *   the discovery tool's definition (with the comma before it);
 * - allEager: the tool list's tokens in the same request with every tool sent;
 * - discoveryRoundTrips: the request's tokens minus those of the same request with its discovery
 *   calls and their results taken out (an assistant message keeps its other calls and text);
 * - saved = allEager - sent, net = saved - discoveryRoundTrips.
 */

const topics = ['weather', 'orders', 'shipments', 'currency', 'invoices', 'calendar', 'contacts', 'notes', 'files', 'photos'];
const more = ['music', 'maps', 'flights', 'hotels', 'recipes', 'news', 'stocks', 'tasks', 'email', 'reminders'];
const title = (word: string) => `${word[0]!.toUpperCase()}${word.slice(1)}`;
const catalog = [...topics, ...more].flatMap((topic, index) => [
  toolDefinition({
    name: `get${title(topic)}`,
    description: `Reads the user's ${topic}. Returns each of the ${topic} found with its details, newest first. Use it when the user asks about ${topic}.`,
    inputSchema: z.object({ query: z.string().describe(`Which ${topic} to look for`), limit: z.number().int().optional() }),
    lazy: index >= 3,
  }).server(async ({ query }) => ({ topic, query, items: [`${topic} one`, `${topic} two`] })),
  toolDefinition({
    name: `update${title(topic)}`,
    description: `Changes one of the user's ${topic}. Takes its id and the new value; returns the ${topic} as saved.`,
    inputSchema: z.object({ id: z.string(), value: z.string() }),
    lazy: index >= 3 || index === 0,
  }).server(async ({ id, value }) => ({ id, value, saved: true })),
]);
const SYSTEM = 'You are the assistant of a small shop. Use the tools when they help; answer briefly.';
const SCRIPT = ['use getFlights for Paris', 'use updateOrders {"id":"ORD-1","value":"shipped"}', 'thanks, that is all'];
const MODES: DiscoveryOptions[] = (['name', 'search'] as const).flatMap((mode) =>
  (['none', 'first-sentence', 'full'] as const).map((includeDescription) => ({ mode, includeDescription })),
);

/** The bridge hands the provider package the specification's prompt and tools; as sent, their JSON. */
function bridgeSerialisation(options: Pick<AiSdkCallOptions, 'prompt' | 'tools'>): Serialised {
  const call = options as { readonly prompt: readonly AiSdkPromptMessage[]; readonly tools?: readonly AiSdkFunctionTool[] };
  const json = new JsonText();
  json.add('{"prompt":[');
  let system: readonly [number, number] | undefined;
  call.prompt.forEach((message, index) => {
    if (message.role !== 'system') return void json.add(`${index > 0 ? ',' : ''}${JSON.stringify(message)}`);
    json.add(`${index > 0 ? ',' : ''}{"role":"system","content":`);
    system = json.add(JSON.stringify(message.content));
    json.add('}');
  });
  json.add('],"tools":[');
  const tools = addTools(json, call.tools ?? []);
  json.add(']}');
  expect(json.text).toBe(JSON.stringify({ prompt: call.prompt, tools: call.tools ?? [] }));
  return { text: json.text, ...(system ? { system } : {}), ...tools };
}

/** The history without its discovery calls and results (the counts' own, independent of the server's). */
function withoutDiscovery(messages: readonly Message[]): Message[] {
  const calls = new Set<string>();
  for (const message of messages)
    if (message.role === 'assistant')
      for (const call of message.toolCalls ?? []) if (call.function.name === DISCOVERY_TOOL_NAME) calls.add(call.id);
  return messages.flatMap((message): Message[] => {
    if (message.role === 'tool') return calls.has(message.toolCallId) ? [] : [message];
    if (message.role !== 'assistant' || !message.toolCalls?.some((call) => calls.has(call.id))) return [message];
    const { toolCalls, ...rest } = message;
    const kept = toolCalls.filter((call) => !calls.has(call.id));
    return kept.length ? [{ ...rest, toolCalls: kept }] : rest.content ? [rest] : [];
  });
}

interface Figure {
  readonly where: string;
  readonly name: string;
  readonly said: number;
  readonly counted: number;
}

/** Every token figure of each model call against the count of what was sent. */
function compare(
  where: string,
  usage: ModelCallUsage,
  serialise: (request: Pick<ModelRequest, 'system' | 'messages' | 'tools'>) => Serialised,
  request: ModelRequest,
  sent: Serialised,
): Figure[] {
  const starts = tokensOf(sent.text);
  const all = catalog.map(toModelTool);
  const eager = serialise({ ...request, tools: all });
  const allEager = within(tokensOf(eager.text), eager.tools);
  const discoveryRoundTrips = starts.length - encode(serialise({ ...request, messages: withoutDiscovery(request.messages) }).text).length;
  const toolTokens = within(starts, sent.tools);
  const counted: Record<string, number> = {
    input: starts.length,
    system: within(starts, sent.system),
    sent: toolTokens,
    discoveryTool: within(starts, sent.discoveryTool),
    allEager,
    saved: allEager - toolTokens,
    discoveryRoundTrips,
    net: allEager - toolTokens - discoveryRoundTrips,
  };
  return Object.entries(counted).map(([name, value]) => {
    const said = (usage.tokens as Readonly<Record<string, number | undefined>>)[name];
    if (said === undefined) throw new Error(`${where}: the record has no tokens.${name}`);
    return { where, name, said, counted: value };
  });
}

const offBy = (figure: Figure) =>
  figure.counted === 0 ? (figure.said === 0 ? 0 : 1) : Math.abs(figure.said - figure.counted) / Math.abs(figure.counted);

/** Runs the script through the handler and a ChatClient in one catalog mode; returns the records and what each model call was sent. */
async function runScript(model: ChatModel, discovery: DiscoveryOptions) {
  const requests: ModelRequest[] = [];
  const recording: ChatModel = { ...model, stream: (request) => (requests.push(request), model.stream(request)) };
  const handler = createChatHandler({ model: recording, tools: catalog, discovery, system: SYSTEM, secret: 'accounting-figures' });
  const { client } = clientFor(handler);
  for (const text of SCRIPT) await client.sendMessage(text);
  const usages = client.getSnapshot().turns.flatMap((turn) => turn.modelCalls);
  expect(usages).toHaveLength(requests.length);
  return { usages, requests };
}

async function scriptedFigures(): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const discovery of MODES) {
    const { usages, requests } = await runScript(createScriptedModel(), discovery);
    usages.forEach((usage, index) => {
      const request = requests[index] as ModelRequest;
      const where = `scripted, ${discovery.mode}/${discovery.includeDescription}, call ${index + 1}`;
      figures.push(...compare(where, usage, scriptedSerialisation, request, scriptedSerialisation(request)));
    });
  }
  return figures;
}

async function bridgeFigures(): Promise<Figure[]> {
  const figures: Figure[] = [];
  for (const discovery of MODES) {
    const calls: AiSdkCallOptions[] = [];
    const inner = asLanguageModelV3(createScriptedModel());
    const provider: LanguageModelV3 = {
      ...inner,
      doStream: (options) => (calls.push(options as unknown as AiSdkCallOptions), inner.doStream(options)),
    };
    const { usages, requests } = await runScript(aiSdkModel(provider), discovery);
    const context = { version: 'v3' as const, provider: provider.provider };
    const serialise = (request: Pick<ModelRequest, 'system' | 'messages' | 'tools'>) =>
      bridgeSerialisation({
        prompt: toAiSdkPrompt(request.system, request.messages, context),
        tools: toAiSdkTools(request.tools as ModelTool[], {}, 'v3'),
      });
    usages.forEach((usage, index) => {
      const where = `AI SDK bridge, ${discovery.mode}/${discovery.includeDescription}, call ${index + 1}`;
      figures.push(
        ...compare(where, usage, serialise, requests[index] as ModelRequest, bridgeSerialisation(calls[index] as AiSdkCallOptions)),
      );
    });
  }
  return figures;
}

describe('every accounting figure agrees with a tokenizer count of what was sent', () => {
  it('the scripted model: 8 figures of every call, in every catalog mode, within 1%', async () => {
    const figures = await scriptedFigures();
    expect(figures.length).toBeGreaterThanOrEqual(6 * 6 * 8);
    expect(figures.filter((figure) => offBy(figure) > 0.01)).toEqual([]);
  });

  it('the AI SDK bridge: 8 figures of every call, in every catalog mode, within 1%', async () => {
    const figures = await bridgeFigures();
    expect(figures.length).toBeGreaterThanOrEqual(6 * 6 * 8);
    expect(figures.filter((figure) => offBy(figure) > 0.01)).toEqual([]);
  });
});
