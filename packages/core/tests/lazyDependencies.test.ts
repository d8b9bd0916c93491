import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { clientDiscovery, DISCOVERY_TOOL_NAME, toolDefinition, type ChatClient, type ChatMessage, type MessagePart } from '@chatwire/core';
import { callOf, runOf, startAgUiServer, textOf, type Script } from './agUiServer.js';

/**
 * The client's optional dependencies are imported only by the chats that use them: the JSON Schema
 * validator by a browser tool declared with plain JSON Schema, the JSON Patch library by a state or
 * activity delta, the search index by a client-side discovery search. Each module is mocked with
 * its real exports behind a counter: the factory runs when, and only when, something imports it,
 * which is what a browser fetching the module's chunk amounts to (browserBundle.test.ts and
 * `npm run size` check the chunks themselves).
 */

const imported = vi.hoisted(() => ({ jsonSchema: 0, jsonPatch: 0, searchEngine: 0 }));
vi.mock('@cfworker/json-schema', async (original) => {
  imported.jsonSchema++;
  return original();
});
vi.mock('rfc6902', async (original) => {
  imported.jsonPatch++;
  return original();
});
vi.mock('../src/discovery/toolSearchEngine.ts', async (original) => {
  imported.searchEngine++;
  return original();
});

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

async function serve(script: Script) {
  const server = await startAgUiServer(script);
  stop = server.close;
  return server;
}

const turn = (client: ChatClient): readonly MessagePart[] => {
  const { messages } = client.getSnapshot();
  return (messages.at(-1) as ChatMessage | undefined)?.parts ?? [];
};

/** Sends `text` and resolves once every follow-up run (a browser tool's answer) has finished. */
async function send(client: ChatClient, text: string): Promise<void> {
  const finished = new Promise<void>((resolve) => client.updateOptions({ onFinish: () => resolve() }));
  await client.sendMessage(text);
  await finished;
}

describe("the client's optional dependencies", () => {
  it('the JSON Patch library: not for text, reasoning, state and activity snapshots; imported by the first delta', async () => {
    const server = await serve((input, request) =>
      runOf(
        input,
        request === 0
          ? [
              ...textOf('a1', 'Hello.'),
              { type: 'REASONING_MESSAGE_START', messageId: 'r1', role: 'reasoning' },
              { type: 'REASONING_MESSAGE_CONTENT', messageId: 'r1', delta: 'thinking' },
              { type: 'REASONING_MESSAGE_END', messageId: 'r1' },
              { type: 'STATE_SNAPSHOT', snapshot: { count: 1 } },
              { type: 'ACTIVITY_SNAPSHOT', messageId: 'act-1', activityType: 'plan', content: { done: 0 } },
            ]
          : [
              { type: 'STATE_DELTA', delta: [{ op: 'replace', path: '/count', value: 2 }] },
              { type: 'ACTIVITY_SNAPSHOT', messageId: 'act-2', activityType: 'plan', content: { done: 0 } },
              { type: 'ACTIVITY_DELTA', messageId: 'act-2', activityType: 'plan', patch: [{ op: 'replace', path: '/done', value: 1 }] },
              ...textOf('a2', 'Again.'),
            ],
      ),
    );
    const client = server.client();
    await client.sendMessage('one');
    expect(client.getSnapshot().agentState).toEqual({ count: 1 });
    expect(turn(client).map((part) => part.type)).toEqual(['text', 'reasoning', 'activity']);
    expect(imported.jsonPatch).toBe(0);

    await client.sendMessage('two');
    expect(client.getSnapshot().agentState).toEqual({ count: 2 });
    expect(turn(client)).toContainEqual(expect.objectContaining({ type: 'activity', messageId: 'act-2', content: { done: 1 } }));
    expect(imported.jsonPatch).toBe(1);
  });

  it('the JSON Schema validator: not for a Standard Schema browser tool; imported by the first call of a plain JSON Schema one', async () => {
    const withZod = toolDefinition({ name: 'withZod', description: 'Zod input.', inputSchema: z.object({ city: z.string() }) });
    const plain = toolDefinition({
      name: 'plain',
      description: 'Plain JSON Schema input.',
      inputSchema: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
    });
    const server = await serve((input, request) =>
      runOf(
        input,
        request === 0
          ? callOf('c1', 'withZod', { city: 'Lyon' })
          : request === 2
            ? callOf('c2', 'plain', { city: 'Nice' }, 'a3')
            : textOf(`t${request}`, 'Done.'),
      ),
    );
    const ran: string[] = [];
    const client = server.client({
      tools: [withZod.client(({ city }) => ran.push(city)), plain.client((input) => ran.push((input as { city: string }).city))],
    });
    await send(client, 'zod');
    expect(ran).toEqual(['Lyon']);
    expect(imported.jsonSchema).toBe(0);

    await send(client, 'plain');
    expect(ran).toEqual(['Lyon', 'Nice']);
    expect(imported.jsonSchema).toBe(1);
  });

  it('the search index: not for a chat with client discovery by name, nor before the first search; imported by it', async () => {
    const lazyTool = (name: string, description: string) =>
      toolDefinition({ name, description, inputSchema: { type: 'object' }, lazy: true }).client(() => ({ ok: true }));
    const tools = [lazyTool('getForecast', 'The weather forecast for a city.'), lazyTool('sendEmail', 'Send an email.')];
    const byName = clientDiscovery();
    expect((await byName.answer({ toolNames: ['getForecast'] }, tools, new Set())).loaded).toEqual(['getForecast']);
    const bySearch = clientDiscovery({ mode: 'search' });
    expect(bySearch.wireTools(tools, []).find((tool) => tool.name === DISCOVERY_TOOL_NAME)?.parameters).toMatchObject({
      required: ['query'],
    });
    expect(imported.searchEngine).toBe(0);

    const answer = await bySearch.answer({ query: 'weather forecast' }, tools, new Set());
    expect(answer.result?.matches?.[0]).toMatchObject({ name: 'getForecast' });
    expect(imported.searchEngine).toBe(1);
  });
});
