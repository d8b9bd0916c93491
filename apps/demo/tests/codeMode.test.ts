import { describe, expect, it } from 'vitest';
import { ChatClient, fetchServerSentEvents, messageText, type ToolCallPart } from '@chatwire/core';
import { codeModeEvents, readCodeModeUsage } from '@chatwire/code-mode/client';
import { createDemoRoutes } from '../server/routes.ts';
import { createMemoryThreadStore } from '@chatwire/server';

/** The demo's Code Mode turn, through its own routes and a ChatClient, as the page runs it. */
function demoClient() {
  const routes = createDemoRoutes({ delayMs: 0, threads: createMemoryThreadStore() });
  const warnings: string[] = [];
  const client = new ChatClient({
    connection: fetchServerSentEvents({
      url: 'http://demo.test/api/chat',
      fetch: (async (url: string, init?: RequestInit) => (await routes(new Request(url, init))) as Response) as typeof fetch,
    }),
    // As the page turns Code Mode on (src/main.tsx).
    customEvents: [codeModeEvents],
    onWarning: (message) => warnings.push(message),
  });
  const calls = () =>
    client
      .getSnapshot()
      .messages.at(-1)
      ?.parts.filter((part): part is ToolCallPart => part.type === 'tool-call') ?? [];
  return { client, warnings, calls };
}

describe('Code Mode in the demo', () => {
  it('"use code to compare the weather in Paris and Tokyo": discovers getWeather, runs two calls in parallel, answers', async () => {
    const { client, warnings, calls } = demoClient();
    await client.sendMessage('use code to compare the weather in Paris and Tokyo');
    const [discovery, execution] = calls();
    expect(discovery).toMatchObject({ toolName: 'discover_tools', state: 'output-available', input: { toolNames: ['getWeather'] } });
    expect(execution?.toolName).toBe('execute_typescript');
    expect(execution?.state).toBe('output-available');
    expect(execution?.extensions?.codeMode).toMatchObject({
      state: 'succeeded',
      logs: [{ level: 'log', text: '2 result(s) received' }],
      calls: [
        { toolName: 'getWeather', state: 'output-available', input: { city: 'Paris' } },
        { toolName: 'getWeather', state: 'output-available', input: { city: 'Tokyo' } },
      ],
    });
    expect(execution?.extensions?.codeMode?.code).toContain('Promise.all');
    const result = execution?.result?.output as { success: boolean; result: Record<string, { city: string; celsius: number }> };
    expect(result.success).toBe(true);
    expect(Object.keys(result.result)).toEqual(['Paris', 'Tokyo']);
    const answer = messageText(client.getSnapshot().messages.at(-1)!);
    expect(answer).toContain(`Paris: city Paris, celsius ${result.result['Paris']?.celsius}`);
    expect(answer).toContain(`Tokyo: city Tokyo, celsius ${result.result['Tokyo']?.celsius}`);
    // Accounting: getWeather was undiscovered for the first model call, discovered from the second on.
    const shares = client.getSnapshot().turns[0]?.modelCalls.map(readCodeModeUsage);
    expect(shares?.map((share) => share?.apis.discovered)).toEqual([[], ['getWeather'], ['getWeather']]);
    expect(shares?.[0]?.apis.eager).toEqual(['searchProducts', 'getExchangeRates']);
    expect(shares?.[0]?.apis.undiscovered).toContain('getWeather');
    expect(shares?.[0]?.tokens.saved).toBeGreaterThan(0);
    expect(warnings).toEqual([]);
  }, 30_000);

  it('leaves the other scenarios alone: "use getWeather for Paris" still calls the chat tool', async () => {
    const { client, calls } = demoClient();
    await client.sendMessage('use getWeather for Paris');
    expect(calls().map((call) => call.toolName)).toEqual(['getWeather']);
    expect(calls()[0]?.extensions?.codeMode).toBeUndefined();
  });
});
