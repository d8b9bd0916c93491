import { describe, expect, it } from 'vitest';
import { countTokens } from 'gpt-tokenizer';
import { z } from 'zod';
import type { Message } from '@ag-ui/core';
import { toolDefinition } from '@chatwire/core';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import { countRequestTokens, countableMessage } from '@chatwire/server/extension';
import { CallSigner, signatureStats } from '../src/binding/signing.js';
import { tokenCountStats } from '../src/model/tokens.js';
import { readEvents, runInput, user } from './fixtures.js';
import { signedNoteExchange } from './signedNotes.js';

const secret = 'history-cost-secret';
const threadId = 'thread_test';
const noteDown = toolDefinition({ name: 'noteDown', description: 'Write a note.', inputSchema: z.object({ text: z.string() }) }).server(
  async ({ text }) => ({ noted: text }),
);

/** `count` earlier messages: a user message, a call of the server tool, its signed result, an answer; repeated. */
function history(count: number, tag = 'a'): Message[] {
  const signer = new CallSigner(secret);
  const messages: Message[] = [];
  for (let i = 0; messages.length < count; i++) {
    const text = `note ${i} ${tag}`;
    messages.push(...signedNoteExchange(signer, threadId, i, text));
  }
  return messages.slice(0, count);
}

const post = (handler: (request: Request) => Promise<Response>, messages: unknown[]) =>
  handler(
    new Request('http://localhost/api/chat', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(runInput(messages)),
    }),
  );

describe("a request's server cost is flat in the history it carries", () => {
  it('a request after 1,000 earlier messages the server saw before tokenizes and verifies only what is new', async () => {
    const handler = createChatHandler({ model: createScriptedModel(), tools: [noteDown], secret });
    const earlier = history(1_000);
    // The turn before: the server sees the history once.
    expect((await readEvents(await post(handler, [...earlier, user('first', 'q1')]))).at(-1)?.type).toBe('RUN_FINISHED');
    const tokens = { ...tokenCountStats };
    const signatures = { ...signatureStats };
    const events = await readEvents(await post(handler, [...earlier, user('second', 'q2')]));
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    // Tokenized: the new message and the request's ends (system, tools), not the 1,000 earlier messages.
    expect(tokenCountStats.counted - tokens.counted).toBeLessThanOrEqual(5);
    expect(tokenCountStats.remembered - tokens.remembered).toBeGreaterThanOrEqual(1_000);
    // The 250 signed results were verified last time: no HMAC computed again.
    expect(signatureStats.computed - signatures.computed).toBe(0);
    expect(signatureStats.remembered - signatures.remembered).toBe(250);
  });

  it('never trusts an id: an earlier result edited under the same id and signature is refused', async () => {
    const handler = createChatHandler({ model: createScriptedModel(), tools: [noteDown], secret });
    const earlier = history(40, 'b');
    expect((await post(handler, [...earlier, user('first', 'q1')])).status).toBe(200);
    const edited = earlier.map((message) =>
      message.id === 't3' ? ({ ...message, content: JSON.stringify({ noted: 'something else' }) } as Message) : message,
    );
    const computed = signatureStats.computed;
    const response = await post(handler, [...edited, user('second', 'q2')]);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { code: string }).code).toBe('forged-result');
    // The edited result was verified afresh (and failed); the others before it were remembered.
    expect(signatureStats.computed - computed).toBe(1);
  });

  it('counts a request exactly as tokenizing its whole JSON, whatever the messages hold, and a changed message anew', () => {
    const texts = [
      'hello',
      ' world ',
      '"quoted"',
      '{"a":1}',
      '  spaced  ',
      'Ünïcödé',
      '日本語',
      '😀',
      '123456',
      '\n',
      'end "',
      ' "}',
      "it's",
      '\u2028',
      '/',
    ];
    let seed = 11;
    const pick = (n: number) => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    const text = () => Array.from({ length: pick(10) }, () => texts[pick(texts.length)]).join('');
    for (let round = 0; round < 200; round++) {
      const messages: Message[] = Array.from({ length: pick(8) }, (_, i): Message => {
        const kind = pick(4);
        if (kind === 0) return { id: `u${i}`, role: 'user', content: text() };
        if (kind === 1)
          return {
            id: `a${i}`,
            role: 'assistant',
            content: text(),
            toolCalls: [{ id: `c${i}`, type: 'function', function: { name: 'x', arguments: JSON.stringify({ v: text(), n: pick(999) }) } }],
          };
        if (kind === 2) return { id: `t${i}`, role: 'tool', toolCallId: `c${i}`, content: text() };
        return { id: `${pick(99)}`, role: 'assistant', content: `${text()}${pick(2) ? ' ' : ''}` };
      });
      const request = {
        system: pick(2) ? text() : undefined,
        messages,
        tools: pick(2) ? [] : [{ name: 'x', description: text(), parameters: { type: 'object' } }],
      };
      const whole = countTokens(
        JSON.stringify({ system: request.system ?? '', messages: messages.map(countableMessage), tools: request.tools }),
      );
      expect(countRequestTokens(request)).toBe(whole);
      // Again, from what was remembered: the same figure.
      expect(countRequestTokens(request)).toBe(whole);
    }
    // Same id, other content: counted anew, never taken from the remembered count.
    const first = countRequestTokens({ system: undefined, messages: [{ id: 'same', role: 'user', content: 'short' }], tools: [] });
    const counted = tokenCountStats.counted;
    const second = countRequestTokens({
      system: undefined,
      messages: [{ id: 'same', role: 'user', content: 'a much longer message than before' }],
      tools: [],
    });
    expect(tokenCountStats.counted - counted).toBe(1);
    expect(second).toBeGreaterThan(first);
  });
});
