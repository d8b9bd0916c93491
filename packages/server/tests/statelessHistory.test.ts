import type { Event, Message } from '@ag-ui/core';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { createChatHandler, createScriptedModel, type ChatModel } from '@chatwire/server';
import { historyReviewStats } from '../src/history/reviewHistory.js';
import { knownMessageStats } from '../src/http/knownMessages.js';
import { CallSigner, signatureStats } from '../src/binding/signing.js';
import { branchSummaryStats } from '../src/history/branchSummary.js';
import { countTextTokens, tokenCountStats } from '../src/model/tokens.js';
import { verifiedHistoryStats } from '../src/history/verifiedHistories.js';
import { applyEvents, readEvents, runInput, user } from './fixtures.js';
import { signedNoteExchange } from './signedNotes.js';

/*
 * A request that carries its whole history (any AG-UI client, an app without a thread store): once a
 * review verified that history in this thread, the next turn's request reads only what follows it.
 * Counted, never timed.
 */

const secret = 'stateless-secret';
const noteDown = toolDefinition({ name: 'noteDown', description: 'Write a note.', inputSchema: z.object({ text: z.string() }) }).server(
  async ({ text }) => ({ noted: text }),
);

/** `count` earlier messages of `threadId`: a user message, a call of the server tool, its signed result, an answer; repeated. */
function history(count: number, threadId: string, tag: string): Message[] {
  const signer = new CallSigner(secret);
  const messages: Message[] = [];
  for (let i = 0; messages.length < count; i++) {
    const text = `note ${i} ${tag}`;
    messages.push(...signedNoteExchange(signer, threadId, i, text));
  }
  return messages.slice(0, count);
}

/** A handler whose model requests are recorded with the input tokens the model reported for each. */
function server() {
  const scripted = createScriptedModel();
  const requests: { system: string | undefined; messages: readonly Message[]; tools: readonly unknown[]; inputTokens?: number }[] = [];
  const model: ChatModel = {
    ...scripted,
    async *stream(request) {
      const seen: (typeof requests)[number] = { system: request.system, messages: request.messages, tools: request.tools };
      requests.push(seen);
      for await (const chunk of scripted.stream(request)) {
        if (chunk.type === 'finish' && chunk.usage?.inputTokens !== undefined) seen.inputTokens = chunk.usage.inputTokens;
        yield chunk;
      }
    },
  };
  const handler = createChatHandler({ model, tools: [noteDown], secret });
  const send = async (threadId: string, messages: unknown[]): Promise<Event[]> => {
    const response = await handler(
      new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(runInput(messages, { threadId })),
      }),
    );
    expect(response.status).toBe(200);
    const events = await readEvents(response);
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    return events;
  };
  return { requests, send };
}

/** What the counters moved by during `work`. */
async function counted(work: () => Promise<unknown>) {
  const before = {
    reviewed: historyReviewStats.messagesRead,
    parsed: knownMessageStats.parsed,
    signatures: signatureStats.computed + signatureStats.remembered,
    tokens: tokenCountStats.counted + tokenCountStats.remembered,
    walked: branchSummaryStats.walked,
    reused: verifiedHistoryStats.reused,
  };
  await work();
  return {
    reviewed: historyReviewStats.messagesRead - before.reviewed,
    parsed: knownMessageStats.parsed - before.parsed,
    signatures: signatureStats.computed + signatureStats.remembered - before.signatures,
    tokens: tokenCountStats.counted + tokenCountStats.remembered - before.tokens,
    walked: branchSummaryStats.walked - before.walked,
    reused: verifiedHistoryStats.reused - before.reused,
  };
}

/** The JSON the scripted model reads, counted in one piece (what the request's count must equal). */
const countedWhole = (request: { system: string | undefined; messages: readonly Message[]; tools: readonly unknown[] }) =>
  countTextTokens(JSON.stringify({ system: request.system ?? '', messages: request.messages, tools: request.tools }));

describe('a request carrying its whole history reads only what follows the history a review verified', () => {
  it("a chat's turns after 1,000 earlier messages: no earlier message is validated, verified or tokenized again", async () => {
    const { send, requests } = server();
    let messages: Message[] = [...history(1_000, 'chat', 'turns'), user('turn 0', 'q0')];
    // The first request of this history is read whole (cold): parsed, verified, summarised, counted.
    const cold = await counted(async () => (messages = applyEvents(messages, await send('chat', messages))));
    expect(cold.reviewed).toBe(1_001);
    expect(cold.signatures).toBe(250);
    for (let turn = 1; turn <= 3; turn++) {
      // What an AG-UI client sends next: everything it had, the answer it read, the new question.
      const sent = [...messages, user(`turn ${turn}`, `q${turn}`)];
      const work = await counted(async () => (messages = applyEvents(sent, await send('chat', sent))));
      // Read: the answer the client sent back and the new question; none of the 1,000 earlier messages.
      expect(work.reviewed).toBe(2);
      expect(work.parsed).toBe(2);
      expect(work.signatures).toBe(0);
      expect(work.walked).toBe(0);
      expect(work.reused).toBe(1);
      // Tokenized or looked up: the request's two ends and the two new messages.
      expect(work.tokens).toBeLessThanOrEqual(4);
      const request = requests.at(-1)!;
      expect(request.messages).toHaveLength(sent.length);
      expect(request.inputTokens).toBe(countedWhole(request));
    }
  });

  it('the same 1,000 messages sent again with another last message (a retry, an edited question) read only that message', async () => {
    const { send, requests } = server();
    const earlier = history(1_000, 'again', 'again');
    // Twice first: the second request finds the part both share, which its review then verifies.
    await send('again', [...earlier, user('first', 'f1')]);
    await send('again', [...earlier, user('second', 'f2')]);
    for (let turn = 3; turn <= 5; turn++) {
      const work = await counted(() => send('again', [...earlier, user(`question ${turn}`, `f${turn}`)]));
      expect(work).toMatchObject({ reviewed: 1, parsed: 1, signatures: 0, walked: 0, reused: 1 });
      expect(work.tokens).toBeLessThanOrEqual(3);
      expect(requests.at(-1)!.inputTokens).toBe(countedWhole(requests.at(-1)!));
    }
  });

  it('a history verified in one thread is read whole in another (where its signatures do not verify)', async () => {
    const { send } = server();
    const earlier = history(400, 'one', 'threads');
    await send('one', [...earlier, user('first', 'g1')]);
    await send('one', [...earlier, user('second', 'g2')]);
    const response = await createChatHandler({ model: createScriptedModel(), tools: [noteDown], secret })(
      new Request('http://localhost/api/chat', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(runInput([...earlier, user('third', 'g3')], { threadId: 'other' })),
      }),
    );
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('forged-result');
  });
});
