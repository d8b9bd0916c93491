import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { messageText, type ChatClient, type ToolCallPart } from '@chatwire/core';
import { toolCallParts } from '@chatwire/core/shared';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { clientFor, whenSnapshot } from './fixtures.js';
import { POST } from './readme/server.js';
import { getWeather } from './readme/tools.js';

const readme = readFileSync(new URL('../../../README.md', import.meta.url), 'utf8');
const snippet = (file: string) => readFileSync(new URL(`./readme/${file}`, import.meta.url), 'utf8').trim();

function weatherCall(client: ChatClient): ToolCallPart | undefined {
  return client
    .getSnapshot()
    .messages.flatMap((message) => toolCallParts(message))
    .find((part) => part.toolName === 'getWeather');
}

describe("the README's server snippet", () => {
  it('is in the README exactly as this test runs it', () => {
    expect(readme).toContain(snippet('tools.ts'));
    expect(readme).toContain(snippet('server.ts'));
  });

  it('works as written: "use getWeather for Paris" runs the server tool and the turn ends ready', async () => {
    const { client } = clientFor(POST);
    expect(await client.sendMessage('use getWeather for Paris')).toEqual({ sent: true });
    const call = weatherCall(client);
    expect(call?.state).toBe('output-available');
    expect(call?.input).toEqual({ city: 'Paris' });
    expect(call?.result?.output).toEqual({ city: 'Paris', celsius: 21 });
    const snapshot = client.getSnapshot();
    expect(snapshot.status).toBe('ready');
    expect(snapshot.error).toBeUndefined();
    const answer = snapshot.messages[snapshot.messages.length - 1];
    expect(answer?.role).toBe('assistant');
    expect(messageText(answer!)).not.toBe('');
  });
});

describe('a definition nobody implements', () => {
  it('fails the call with an error naming the tool (never stuck at input-complete with status ready)', async () => {
    // The README's old snippet: the bare definition registered on the server.
    const handler = createChatHandler({ model: createScriptedModel(), tools: [getWeather] });
    const { client } = clientFor(handler);
    await client.sendMessage('use getWeather for Paris');
    const call = weatherCall(client);
    expect(call?.state).toBe('output-error');
    expect(call?.result?.error).toMatch(/Tool 'getWeather' has no implementation/);
    expect(call?.result?.error).toMatch(/getWeather\.server\(impl\).*getWeather\.client\(impl\)/);
    expect(client.getSnapshot().status).toBe('ready');
    const stuck = client
      .getSnapshot()
      .messages.flatMap((message) => toolCallParts(message))
      .filter((part) => part.state === 'input-complete');
    expect(stuck).toEqual([]);
  });

  it('is handed to the browser when the browser announces it (answered with addToolResult)', async () => {
    const handler = createChatHandler({ model: createScriptedModel(), tools: [getWeather] });
    const { client } = clientFor(handler, { tools: [getWeather] });
    await client.sendMessage('use getWeather for Paris');
    const call = weatherCall(client);
    expect(call?.state).toBe('input-complete');
    expect(call?.owner).toBe('client');
    client.addToolResult({ toolCallId: call!.toolCallId, output: { city: 'Paris', celsius: 19 } });
    await new Promise<void>((resolve) => {
      const stop = client.subscribe(() => {
        if (client.getSnapshot().status === 'ready') {
          stop();
          resolve();
        }
      });
    });
    expect(weatherCall(client)?.state).toBe('output-available');
    expect(weatherCall(client)?.result?.output).toEqual({ city: 'Paris', celsius: 19 });
  });

  it('runs in the browser when the browser implements it with .client(impl)', async () => {
    const handler = createChatHandler({ model: createScriptedModel(), tools: [getWeather] });
    const { client } = clientFor(handler, { tools: [getWeather.client(({ city }) => ({ city, celsius: 5 }))] });
    await client.sendMessage('use getWeather for Oslo');
    await whenSnapshot(client, (snapshot) => snapshot.status === 'ready');
    expect(weatherCall(client)?.state).toBe('output-available');
    expect(weatherCall(client)?.result?.output).toEqual({ city: 'Oslo', celsius: 5 });
  });
});
