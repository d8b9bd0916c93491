import { EventType, type Event } from '@ag-ui/core';
import { toolDefinition } from '@chatwire/core';
import { chat, createScriptedModel, type ModelRequest } from '@chatwire/server';
import { afterAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createCodeMode, createQuickJsDriver } from '../src/index.js';

/**
 * The scripted model's built-in Code Mode scenario (no rules given): asked to use code, it
 * discovers the lazy API it needs, then runs TypeScript that calls it in parallel, then answers.
 */

const driver = createQuickJsDriver();
afterAll(() => driver.dispose());

/** The tools; each getWeather call is held until `together` calls have arrived, so parallel calls overlap however slow the machine. */
function weatherTools(lazy: boolean, together: number) {
  const seen = { inFlight: 0, maxInFlight: 0, inputs: [] as unknown[] };
  let arrived!: () => void;
  const all = new Promise<void>((resolve) => (arrived = resolve));
  const getWeather = toolDefinition({
    name: 'getWeather',
    description: 'Current weather for a city: temperature in Celsius and the sky.',
    inputSchema: z.object({ city: z.string().describe('City name'), units: z.enum(['metric', 'imperial']).default('metric') }),
    outputSchema: z.object({ city: z.string(), celsius: z.number(), sky: z.string() }),
    lazy,
  }).server(async ({ city }) => {
    seen.inputs.push(city);
    seen.inFlight++;
    seen.maxInFlight = Math.max(seen.maxInFlight, seen.inFlight);
    if (seen.inputs.length >= together) arrived();
    await all;
    seen.inFlight--;
    return { city, celsius: city.length * 3, sky: city === 'Paris' ? 'sunny' : 'rain' };
  });
  const convertCurrency = toolDefinition({
    name: 'convertCurrency',
    description: 'Converts an amount between currencies.',
    inputSchema: z.object({ amount: z.number(), from: z.string(), to: z.string() }),
    lazy: true,
  }).server(({ amount }) => ({ amount }));
  return { tools: [getWeather, convertCurrency], seen };
}

async function converse(
  text: string,
  options: { lazy: boolean; together?: number; includeDescription?: 'none' | 'first-sentence' | 'full' },
) {
  const { tools, seen } = weatherTools(options.lazy, options.together ?? 1);
  const codeMode = createCodeMode({ tools, driver, lazyToolsConfig: { includeDescription: options.includeDescription ?? 'none' } });
  const requests: ModelRequest[] = [];
  const scripted = createScriptedModel();
  const model = { ...scripted, stream: (request: ModelRequest) => (requests.push(request), scripted.stream(request)) };
  const events: Event[] = [];
  for await (const event of chat({
    model,
    messages: [{ id: 'u1', role: 'user', content: text }],
    tools: [...codeMode.tools],
    system: `You help.\n\n${codeMode.systemPrompt}`,
    secret: 's',
  })) {
    events.push(event);
  }
  const calls = events.flatMap((event) => (event.type === EventType.TOOL_CALL_START ? [event.toolCallName] : []));
  const args = new Map<string, string>();
  for (const event of events)
    if (event.type === EventType.TOOL_CALL_ARGS) args.set(event.toolCallId, (args.get(event.toolCallId) ?? '') + event.delta);
  const argsOf = (name: string) => {
    const start = events.find((event) => event.type === EventType.TOOL_CALL_START && event.toolCallName === name);
    return JSON.parse(args.get(start?.type === EventType.TOOL_CALL_START ? start.toolCallId : '') ?? '{}') as Record<string, unknown>;
  };
  const text_ = events.flatMap((event) => (event.type === EventType.TEXT_MESSAGE_CONTENT ? [event.delta] : [])).join('');
  const results = events.flatMap((event) =>
    event.type === EventType.TOOL_CALL_RESULT ? [JSON.parse(String(event.content)) as unknown] : [],
  );
  return { calls, argsOf, text: text_, results, seen, requests };
}

describe('the scripted model in Code Mode', () => {
  it('discovers a lazy API, runs code calling it twice in parallel, and says what came back', async () => {
    const run = await converse('use code to compare the weather in Paris and Tokyo', { lazy: true, together: 2 });
    expect(run.calls).toEqual(['discover_tools', 'execute_typescript']);
    expect(run.argsOf('discover_tools')).toEqual({ toolNames: ['getWeather'] });
    const code = run.argsOf('execute_typescript')['typescriptCode'] as string;
    expect(code).toContain('await Promise.all([');
    expect(code).toContain('external_getWeather({"city":"Paris"})');
    expect(code).toContain('external_getWeather({"city":"Tokyo"})');
    expect(run.seen.inputs.sort()).toEqual(['Paris', 'Tokyo']);
    expect(run.seen.maxInFlight).toBe(2);
    expect(run.results[1]).toEqual({
      success: true,
      result: { Paris: { city: 'Paris', celsius: 15, sky: 'sunny' }, Tokyo: { city: 'Tokyo', celsius: 15, sky: 'rain' } },
      logs: ['2 result(s) received'],
    });
    expect(run.text).toBe(
      'The code ran 2 calls in one execution. Paris: city Paris, celsius 15 and sky sunny. Tokyo: city Tokyo, celsius 15 and sky rain.',
    );
    // What it read: the prompt listed getWeather by name only; the code came after the stub arrived.
    expect(run.requests[0]?.system).toContain('Tools you can load: external_getWeather, external_convertCurrency.');
    expect(run.requests).toHaveLength(3);
  });

  it('writes code at once for an eager API, reading its signature from the prompt', async () => {
    const run = await converse('use code to get the weather in Lisbon', { lazy: false });
    expect(run.calls).toEqual(['execute_typescript']);
    expect(run.argsOf('execute_typescript')['typescriptCode']).toContain('external_getWeather({"city":"Lisbon"})');
    expect(run.text).toBe('The code ran 1 call in one execution. Lisbon: city Lisbon, celsius 18 and sky rain.');
  });

  it('reads a catalog that lists descriptions too', async () => {
    const run = await converse('use code to compare the weather in Oslo and Rome', {
      lazy: true,
      together: 2,
      includeDescription: 'first-sentence',
    });
    expect(run.calls).toEqual(['discover_tools', 'execute_typescript']);
    expect(run.seen.inputs.sort()).toEqual(['Oslo', 'Rome']);
  });

  it('leaves messages that do not ask for code to the other behaviour', async () => {
    const run = await converse('what is the weather in Paris?', { lazy: true });
    expect(run.calls).not.toContain('execute_typescript');
  });
});
