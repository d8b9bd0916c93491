import { describe, expect, it } from 'vitest';
import type { Message } from '@ag-ui/core';
import { createScriptedModel, type ModelChunk, type ModelRequest, type ModelTool } from '@chatwire/server';

/**
 * The scripted model's Code Mode scenario, read from hand-written requests in the shape
 * `@chatwire/code-mode` sends (its own tests run the scenario against the real package).
 */

const tools: ModelTool[] = [
  {
    name: 'execute_typescript',
    description: 'Runs TypeScript.',
    parameters: { type: 'object', properties: { typescriptCode: { type: 'string' } }, required: ['typescriptCode'] },
  },
  {
    name: 'discover_tools',
    description: 'Returns signatures.',
    parameters: { type: 'object', properties: { toolNames: { type: 'array', items: { type: 'string' } } }, required: ['toolNames'] },
  },
];

const system = [
  '## Code execution (execute_typescript)',
  '',
  'You can write TypeScript.',
  '',
  '### APIs',
  '',
  '```typescript',
  'interface GetTimeInput {',
  '  /** IANA zone, e.g. "Europe/Paris" */',
  '  zone: string;',
  '}',
  '/** The local time in a zone. */',
  'declare function external_getTime(input: GetTimeInput): Promise<unknown>;',
  '```',
  '',
  '### Discoverable APIs',
  '',
  'These APIs exist, but their signatures are not shown here.',
  '',
  'Tools you can load: external_getWeather, external_convertCurrency.',
].join('\n');

const weatherStub = [
  'interface GetWeatherInput {',
  '  /**',
  '   * City name',
  '   * @minLength 1',
  '   */',
  '  city: string;',
  '  units?: "metric" | "imperial";',
  '}',
  '/** Current weather for a city. */',
  'declare function external_getWeather(input: GetWeatherInput): Promise<unknown>;',
].join('\n');

async function reply(messages: readonly Message[], sentTools = tools): Promise<{ text: string; calls: { name: string; args: unknown }[] }> {
  const request: ModelRequest = { system, messages, tools: sentTools, signal: new AbortController().signal };
  let text = '';
  const calls: { name: string; args: string }[] = [];
  for await (const chunk of createScriptedModel().stream(request) as AsyncIterable<ModelChunk>) {
    if (chunk.type === 'text-delta') text += chunk.delta;
    if (chunk.type === 'tool-call-start') calls.push({ name: chunk.name, args: '' });
    if (chunk.type === 'tool-call-delta') (calls.at(-1) as { args: string }).args += chunk.delta;
  }
  return { text, calls: calls.map((call) => ({ name: call.name, args: JSON.parse(call.args) as unknown })) };
}

const user = (content: string): Message => ({ id: 'u1', role: 'user', content });

describe('the scripted model’s Code Mode scenario', () => {
  it('discovers a lazy API the message is about, by its name only', async () => {
    expect((await reply([user('use code to compare the weather in Paris and Tokyo')])).calls).toEqual([
      { name: 'discover_tools', args: { toolNames: ['getWeather'] } },
    ]);
  });

  it('writes code from the discovered stub: one call per value the message lists, in parallel', async () => {
    const history: Message[] = [
      user('use code to compare the weather in Paris, Tokyo and New York'),
      {
        id: 'a1',
        role: 'assistant',
        toolCalls: [{ id: 'd1', type: 'function', function: { name: 'discover_tools', arguments: '{"toolNames":["getWeather"]}' } }],
      },
      {
        id: 't1',
        role: 'tool',
        toolCallId: 'd1',
        content: JSON.stringify({
          discovered: ['getWeather'],
          tools: [{ name: 'external_getWeather', description: 'Current weather for a city.', typeStub: weatherStub }],
        }),
      },
    ];
    const { calls } = await reply(history);
    expect(calls).toHaveLength(1);
    expect(calls[0]?.name).toBe('execute_typescript');
    expect((calls[0]?.args as { typescriptCode: string }).typescriptCode).toBe(
      [
        '// 3 calls, run in parallel.',
        'const labels = ["Paris","Tokyo","New York"];',
        'const results = await Promise.all([',
        '  external_getWeather({"city":"Paris"}),',
        '  external_getWeather({"city":"Tokyo"}),',
        '  external_getWeather({"city":"New York"}),',
        ']);',
        'console.log(`${results.length} result(s) received`);',
        'return Object.fromEntries(labels.map((label, i) => [label, results[i]]));',
      ].join('\n'),
    );
  });

  it('uses an eager API at once, with its signature from the prompt', async () => {
    const { calls } = await reply([user('use code to get the time in "Europe/Paris" with getTime')]);
    expect(calls.map((call) => call.name)).toEqual(['execute_typescript']);
    expect((calls[0]?.args as { typescriptCode: string }).typescriptCode).toContain('external_getTime({"zone":"Europe/Paris"})');
  });

  it('says what the code returned, or why it failed', async () => {
    const ran = (content: unknown): Message[] => [
      user('use code to compare the weather in Paris and Tokyo'),
      {
        id: 'a2',
        role: 'assistant',
        toolCalls: [{ id: 'x1', type: 'function', function: { name: 'execute_typescript', arguments: '{"typescriptCode":"return 1"}' } }],
      },
      { id: 't2', role: 'tool', toolCallId: 'x1', content: JSON.stringify(content) },
    ];
    expect((await reply(ran({ success: true, result: { Paris: { celsius: 18 }, Tokyo: { celsius: 22 } } }))).text).toBe(
      'The code ran 2 calls in one execution. Paris: celsius 18. Tokyo: celsius 22.',
    );
    expect((await reply(ran({ success: true, result: 42 }))).text).toBe('The code returned 42.');
    expect((await reply(ran({ success: false, error: { code: 'timeout', name: 'TimeoutError', message: 'Out of time.' } }))).text).toBe(
      'The code failed (TimeoutError): Out of time.',
    );
  });

  it('stays out of chats without execute_typescript, and of messages that do not ask for code', async () => {
    const plainTools: ModelTool[] = [
      {
        name: 'getWeather',
        description: 'Current weather for a city.',
        parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      },
    ];
    const withoutCodeMode = await reply([user('use code to compare the weather in Paris')], plainTools);
    expect(withoutCodeMode.calls.map((call) => call.name)).not.toContain('execute_typescript');
    expect(withoutCodeMode.calls.map((call) => call.name)).not.toContain('discover_tools');
    const notAsked = await reply([user('hello there')]);
    expect(notAsked.calls).toEqual([]);
  });
});
