import { toolDefinition } from '@chatwire/core';
import { countToolList as coreCountToolList, discoveryUsage, parseToolArguments, resolveNeedsApproval } from '@chatwire/core/shared';
import { splitWords } from '@chatwire/core/wire';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { createScriptedModel, type ChatModel, type ModelChunk, type ModelTool } from '../src/index.js';
import { countToolList as serverCountToolList } from '../src/extension.js';
import { nameParts } from '../src/testing.js';
import { toolInputOf } from '../src/adapters/toolInputOf.js';
import { approvalServer } from './approvalFlows.js';
import { interruptsOf, user } from './fixtures.js';

// Issue 25: each rule that was written twice now has one implementation; these tests show that the
// former call sites give the same answer.

const tools: ModelTool[] = [
  { name: 'getWeather', description: 'Weather for a city', parameters: { type: 'object' } },
  { name: 'shop__searchProducts', description: 'Search the shop', parameters: { type: 'object' } },
];
/** One token per character of the name, plus 7 per list: easy to count by hand. */
const counter = { countTool: (tool: { name: string }) => tool.name.length, countOverhead: () => 7 };

describe('one countToolList (core discovery accounting and the server tokens)', () => {
  it.each([
    ['core /shared', coreCountToolList],
    ['@chatwire/server', serverCountToolList],
  ])('%s counts each definition plus the list framing', (_site, count) => {
    expect(count(counter, tools)).toBe(7 + 'getWeather'.length + 'shop__searchProducts'.length);
    expect(count({ countTool: () => 3 }, tools)).toBe(6);
    expect(count(counter, [])).toBe(7);
  });

  it('discoveryUsage (both sides) sends what countToolList counts', () => {
    const usage = discoveryUsage({
      runId: 'r',
      step: 0,
      sent: tools.slice(0, 1),
      all: tools,
      discoveryTool: undefined,
      deferred: [],
      newlyDiscovered: [],
      messages: [],
      counter: { method: 'test', errorBound: 0, countText: (text) => text.length, ...counter },
    });
    expect(usage.tokens.sent).toBe(serverCountToolList(counter, tools.slice(0, 1)));
    expect(usage.tokens.allEager).toBe(serverCountToolList(counter, tools));
  });
});

describe('one tool-name splitter (tool search and the scripted model)', () => {
  it.each([
    ['searchProducts', ['search', 'products']],
    ['search_products', ['search', 'products']],
    ['shop__search', ['shop', 'search']],
    ['slack.postMessage', ['slack', 'post', 'message']],
    // The scripted model's own copy read this as `get`, `httpstatus`.
    ['getHTTPStatus', ['get', 'http', 'status']],
  ])('%s splits the same at both former call sites', (name, parts) => {
    expect(splitWords(name)).toEqual(parts);
    expect(nameParts(name)).toEqual(parts);
  });

  it('the scripted model picks a tool by the words of its name, acronyms included', async () => {
    const model = createScriptedModel();
    const lookup = { name: 'getHTTPStatus', description: 'Looks something up', parameters: { type: 'object' } };
    const other = { name: 'sendEmail', description: 'Sends mail', parameters: { type: 'object' } };
    const calls: string[] = [];
    for await (const chunk of model.stream({
      system: undefined,
      messages: [{ id: 'u1', role: 'user', content: 'what is the http status of example.org?' }],
      tools: [other, lookup],
      signal: new AbortController().signal,
    })) {
      if (chunk.type === 'tool-call-start') calls.push(chunk.name);
    }
    expect(calls).toEqual(['getHTTPStatus']);
  });
});

describe('one "a throwing needsApproval asks" (browser runtime, server loop, Code Mode)', () => {
  const input = { city: 'Paris' };
  it.each([
    [
      'throws',
      () => {
        throw new Error('policy down');
      },
    ],
    ['rejects', async () => Promise.reject(new Error('policy down'))],
  ])('the shared rule asks when needsApproval %s, and says why', async (_how, rule) => {
    const tool = toolDefinition({
      name: 'getWeather',
      description: 'Weather.',
      inputSchema: z.object({ city: z.string() }),
      needsApproval: rule,
    });
    const heard: unknown[] = [];
    expect(await resolveNeedsApproval(tool, input, (error) => heard.push(error))).toBe(true);
    expect(heard).toEqual([new Error('policy down')]);
    expect(await resolveNeedsApproval(tool, input)).toBe(true);
  });

  it('the server chat loop asks, and does not run the tool, when needsApproval throws', async () => {
    const impl = vi.fn(async ({ city }: { city: string }) => ({ city, celsius: 20 }));
    const getWeather = toolDefinition({
      name: 'getWeather',
      description: 'Weather.',
      inputSchema: z.object({ city: z.string() }),
      needsApproval: () => {
        throw new Error('policy down');
      },
    }).server(impl);
    const { send } = approvalServer({ tools: [getWeather] });
    const run = await send('t_throwing_needs_approval', [user('use getWeather for Paris')]);
    expect(impl).not.toHaveBeenCalled();
    expect(interruptsOf(run.events)).toHaveLength(1);
  });
});

describe('one tool-argument parser (browser lifecycle, server loop, discovery, provider adapters)', () => {
  const hostile = '{"__proto__":{"polluted":true},"city":"Paris"}';
  const ownProto = (value: unknown) => typeof value === 'object' && value !== null && Object.hasOwn(value, '__proto__');

  it.each([
    ['parseToolArguments (core /shared)', (text: string) => parseToolArguments(text)],
    // Provider adapters' copy parsed with JSON.parse and kept the `__proto__` key.
    ['toolInputOf (provider adapters)', (text: string) => toolInputOf(text)],
  ])('%s drops a `__proto__` key and reads blank text as {}', (_site, parse) => {
    const value = parse(hostile);
    expect(value).toEqual({ city: 'Paris' });
    expect(ownProto(value)).toBe(false);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(parse('')).toEqual({});
    expect(parse('  ')).toEqual({});
  });

  it('the server chat loop runs a tool with the arguments minus their `__proto__` key', async () => {
    const seen: unknown[] = [];
    const getWeather = toolDefinition({
      name: 'getWeather',
      description: 'Weather.',
      inputSchema: z.object({ city: z.string() }).passthrough(),
    }).server(async (input) => (seen.push(input), { celsius: 20 }));
    let calls = 0;
    const model: ChatModel = {
      provider: 'test',
      model: 'hostile-arguments',
      async *stream(): AsyncIterable<ModelChunk> {
        if (calls++ > 0) {
          yield { type: 'text-delta', delta: 'done' };
          yield { type: 'finish', reason: 'stop' };
          return;
        }
        yield { type: 'tool-call-start', id: 'call_1', name: 'getWeather' };
        yield { type: 'tool-call-delta', id: 'call_1', delta: hostile };
        yield { type: 'tool-call-end', id: 'call_1' };
        yield { type: 'finish', reason: 'tool-calls' };
      },
    };
    const { send } = approvalServer({ tools: [getWeather], model });
    await send('t_hostile_args', [user('weather in Paris')]);
    expect(seen).toEqual([{ city: 'Paris' }]);
    expect(ownProto(seen[0])).toBe(false);
  });
});
