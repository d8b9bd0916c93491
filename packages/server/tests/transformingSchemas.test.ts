import { toStandardJsonSchema } from '@valibot/to-json-schema';
import * as v from 'valibot';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { toolDefinition, type AnyTool, type ChatClient } from '@chatwire/core';
import { toolCallParts } from '@chatwire/core/shared';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { clientFor, whenSnapshot } from './fixtures.js';

/**
 * Schemas that transform their input: the validator's output (a number) is not valid input (a
 * string). A tool must be validated once, so its implementation receives the output and the call
 * never fails on "expected string, received number".
 */
const zodWordLength = z.object({ word: z.string().transform((word) => word.length) });
const valibotWordLength = toStandardJsonSchema(
  v.object({
    word: v.pipe(
      v.string(),
      v.transform((word) => word.length),
    ),
  }),
);

const countZod = toolDefinition({ name: 'countLetters', description: 'Count the letters of a word.', inputSchema: zodWordLength });
const countValibot = toolDefinition({ name: 'countLetters', description: 'Count the letters of a word.', inputSchema: valibotWordLength });
const countApproved = toolDefinition({
  name: 'countLetters',
  description: 'Count the letters of a word.',
  inputSchema: zodWordLength,
  needsApproval: true,
});

const lastCall = (client: ChatClient) => {
  const messages = client.getSnapshot().messages;
  return toolCallParts(messages[messages.length - 1]!)[0];
};

function setup(server: readonly AnyTool[], browser: readonly AnyTool[]) {
  const handler = createChatHandler({ model: createScriptedModel({ rules: [] }), tools: server, secret: 'test' });
  return clientFor(handler, { tools: browser });
}

describe('a tool whose input schema transforms its input is validated once', () => {
  it.each([
    ['zod', countZod],
    ['valibot', countValibot],
  ] as const)('browser tool (%s): runs with the transformed input', async (_library, tool) => {
    const impl = vi.fn(async ({ word }: { word: number }) => ({ letters: word }));
    const { client } = setup([tool], [tool.client(impl as never)]);
    await client.sendMessage('use countLetters with word "banana"');
    await whenSnapshot(client, (snapshot) => snapshot.status === 'ready');
    expect(impl).toHaveBeenCalledTimes(1);
    expect(impl.mock.calls[0]?.[0]).toEqual({ word: 6 });
    expect(lastCall(client)?.state).toBe('output-available');
  });

  it('browser tool after approval: runs once with the transformed input', async () => {
    const impl = vi.fn(async ({ word }: { word: number }) => ({ letters: word }));
    const { client } = setup([countApproved], [countApproved.client(impl as never)]);
    await client.sendMessage('use countLetters with word "kiwi"');
    const call = lastCall(client);
    expect(call?.state).toBe('approval-requested');
    client.addToolApprovalResponse({ id: call!.approval!.id, approved: true });
    await whenSnapshot(client, (snapshot) => impl.mock.calls.length === 1 && snapshot.status === 'ready');
    expect(impl.mock.calls[0]?.[0]).toEqual({ word: 4 });
    expect(lastCall(client)?.state).toBe('output-available');
  });

  it.each([
    ['zod', countZod],
    ['valibot', countValibot],
  ] as const)('server tool (%s): runs with the transformed input', async (_library, tool) => {
    const impl = vi.fn(async ({ word }: { word: number }) => ({ letters: word }));
    const { client } = setup([tool.server(impl as never)], []);
    await client.sendMessage('use countLetters with word "cherry"');
    await whenSnapshot(client, (snapshot) => snapshot.status === 'ready');
    expect(impl).toHaveBeenCalledTimes(1);
    expect(impl.mock.calls[0]?.[0]).toEqual({ word: 6 });
    expect(lastCall(client)?.state).toBe('output-available');
  });
});
