import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ChatClient, fetchServerSentEvents, messageText, type ChatClientOptions, type ChatMessage } from '@chatwire/core';
import {
  createChatHandler,
  createMemoryStore,
  createMemoryThreadStore,
  createPgliteThreadStore,
  createScriptedModel,
  type ThreadStore,
} from '@chatwire/server';
import { answerOf, savedChat, until } from '../resumable/resumeHarness.js';

/**
 * Every ChatClient command against the real chat handler as the demo configures it (resumable
 * runs, a store), without a thread store and with each one: edit, regenerate, stop, resume. Each
 * must work the same with a thread store as without one; there, an edit and a regenerate become
 * branches beside what they replace.
 */

// One PGlite store for the file, started (its WebAssembly, initdb) before the tests and not in their time: about
// 1 s on a quiet machine, 20 to 30 s at a load average of 13 to 18 on this 2-core machine. Each test has its own
// chat, so it starts from an empty store all the same.
const folder = mkdtempSync(join(tmpdir(), 'chatwire-client-commands-'));
let pglite: ThreadStore;
beforeAll(async () => {
  pglite = createPgliteThreadStore({ dataDir: join(folder, 'pglite') });
  await pglite.list('nobody', { limit: 1 });
}, 120_000);
afterAll(async () => {
  await pglite.close();
  rmSync(folder, { recursive: true, force: true });
});

const STORES: Record<string, (() => ThreadStore) | undefined> = {
  'no thread store': undefined,
  'the memory thread store': () => createMemoryThreadStore(),
  'the PGlite thread store': () => pglite,
};

const OWNER = 'ann';

/** The handler and a client of chat `chatId` (in-process fetch); `connect` makes another client of the same chat (a reload). */
function setUp(threads: ThreadStore | undefined, chatId: string) {
  const handler = createChatHandler({
    model: createScriptedModel({ delayMs: 2 }),
    secret: 'client-commands-secret',
    store: createMemoryStore(),
    resumable: true,
    userOf: () => OWNER,
    ...(threads ? { threads } : {}),
  });
  const fetch = (async (url: string | URL | Request, init?: RequestInit) => handler(new Request(url, init))) as typeof globalThis.fetch;
  const warnings: string[] = [];
  const connect = (options: Partial<ChatClientOptions> = {}) =>
    new ChatClient({
      id: chatId,
      connection: fetchServerSentEvents({ url: 'http://chatwire.test/api/chat', fetch }),
      onWarning: (message) => warnings.push(message),
      ...options,
    });
  return { connect, warnings };
}

/** Roles and texts: what a person sees of the chat. */
const visible = (messages: readonly ChatMessage[]) => messages.map((message) => `${message.role}: ${messageText(message)}`);

/** The turn ended as it should: ready, no error. */
function expectAtRest(client: ChatClient): void {
  const { status, error } = client.getSnapshot();
  expect(error?.message).toBeUndefined();
  expect(status).toBe('ready');
}

/** Sends and checks the turn ended well. */
async function send(client: ChatClient, message: Parameters<ChatClient['sendMessage']>[0]): Promise<void> {
  expect(await client.sendMessage(message)).toEqual({ sent: true });
  expectAtRest(client);
}

describe('ChatClient commands on a server with and without a thread store', () => {
  const seen: Record<string, string[]> = {};

  for (const [label, makeStore] of Object.entries(STORES)) {
    it(`edit and regenerate (${label}): the same conversation; with a store, siblings beside what they replaced`, async () => {
      const threads = makeStore?.();
      const { connect, warnings } = setUp(threads, 'chat_commands');
      const client = connect();
      await send(client, 'hello there');
      await send(client, 'tell me about lamps');
      await send(client, 'and about chairs');
      const [first, , second] = client.getSnapshot().messages;

      // Edit a message in the middle, then the very first one (the documented edit: `messageId`).
      await send(client, { text: 'tell me about tables', messageId: second!.id });
      expect(visible(client.getSnapshot().messages).slice(-2)).toEqual([
        'user: tell me about tables',
        expect.stringMatching(/^assistant: /),
      ]);
      await send(client, { text: 'good morning', messageId: first!.id });
      await send(client, 'what next?');
      expect(await client.regenerate()).toEqual({ sent: true });
      expectAtRest(client);
      await send(client, 'thanks');

      const messages = client.getSnapshot().messages;
      expect(visible(messages).filter((line) => line.startsWith('user: '))).toEqual([
        'user: good morning',
        'user: what next?',
        'user: thanks',
      ]);
      expect(warnings).toEqual([]);
      seen[label] = visible(messages);

      if (threads) {
        const stored = await threads.open(OWNER, 'chat_commands');
        // The active branch is the chat as the client shows it: its messages, the user's under the same ids.
        expect(stored?.messages.map((message) => message.role)).toEqual(messages.map((message) => message.role));
        const userIds = (list: readonly { role: string; id: string }[]) =>
          list.filter((message) => message.role === 'user').map((message) => message.id);
        expect(userIds(stored?.messages ?? [])).toEqual(userIds(messages));
        // Three branch points: the first message edited (two roots), and the answer regenerated. The edit
        // in the middle lies on the branch the first edit left.
        expect(stored?.branches.map((branch) => branch.siblings.length)).toEqual([2, 2]);
        expect(stored?.branches[0]?.siblings).toContain(first!.id);
      }
    });
  }

  it('the three conversations are the same', () => {
    expect(Object.keys(seen)).toEqual(Object.keys(STORES));
    const [without, ...withStores] = Object.values(seen);
    for (const conversation of withStores) expect(conversation).toEqual(without);
  });

  for (const [label, makeStore] of Object.entries(STORES)) {
    it(`stop, then go on; resume after a reload, then go on (${label})`, async () => {
      const threads = makeStore?.();
      const { connect, warnings } = setUp(threads, 'chat_stop');
      const client = connect();
      await send(client, 'hello there');

      // Stop in the middle of an answer, then send again.
      const stopped = client.sendMessage('write a long story');
      await until(() => answerOf(client.getSnapshot().messages).includes('Part 2:'));
      client.stop();
      expect(await stopped).toEqual({ sent: true });
      expect(answerOf(client.getSnapshot().messages)).not.toContain('The end');
      await send(client, 'hello again');

      // A reload in the middle of an answer: a new client from the saved chat resumes the run, then goes on.
      void client.sendMessage('write a long story');
      await until(() => answerOf(client.getSnapshot().messages).includes('Part 2:'));
      const saved = savedChat(client);
      client.dispose();
      const reloaded = connect({
        initialMessages: saved.messages,
        initialActiveRun: saved.activeRun,
        initialResumeToken: saved.resumeToken,
      });
      await reloaded.resumeStream();
      expectAtRest(reloaded);
      expect(answerOf(reloaded.getSnapshot().messages)).toMatch(/Part 12:/);
      await send(reloaded, 'one more thing');
      // And an edit of the message the stopped answer followed, on the reloaded chat.
      const stoppedQuestion = reloaded.getSnapshot().messages.find((message) => messageText(message) === 'hello again');
      await send(reloaded, { text: 'hello once more', messageId: stoppedQuestion!.id });
      expect(warnings).toEqual([]);
    }, 60_000);
  }
});
