import { describe, expect, it } from 'vitest';
import { chat, countTextTokens, createChatHandler, createScriptedModel, jsonToolTokens } from '@chatwire/server';
import { countTokens } from 'gpt-tokenizer';
import { collect, readEvents, runInput, serve, user } from '../fixtures.js';

/** Polls `url` every few ms while `work` runs; returns the slowest answer. */
async function slowestAnswerDuring(url: string, work: Promise<unknown>): Promise<{ slowest: number; answered: number }> {
  let done = false;
  void work.finally(() => (done = true));
  let slowest = 0;
  let answered = 0;
  while (!done) {
    const started = performance.now();
    const response = await fetch(url);
    await response.text();
    slowest = Math.max(slowest, performance.now() - started);
    answered++;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  await work;
  return { slowest, answered };
}

describe('client-supplied text never blocks the event loop', () => {
  it('a 98 KiB tool description of one letter: a concurrent request is answered in under 200 ms', async () => {
    const handleChat = createChatHandler({ model: createScriptedModel() });
    const server = await serve((request) => (new URL(request.url).pathname === '/health' ? new Response('ok') : handleChat(request)));
    try {
      const hostile = runInput([user('hello')], {
        tools: [{ name: 'lookup', description: 'a'.repeat(98 * 1024), parameters: { type: 'object', properties: {} } }],
      });
      const work = (async () => {
        const response = await fetch(`${server.url}/api/chat`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify(hostile),
        });
        const events = await readEvents(response);
        expect(events.at(-1)?.type).toBe('RUN_FINISHED');
      })();
      const { slowest, answered } = await slowestAnswerDuring(`${server.url}/health`, work);
      expect(answered).toBeGreaterThan(0);
      expect(slowest).toBeLessThan(200);
    } finally {
      await server.close();
    }
  });

  it('counts long runs in linear time and ordinary text exactly', () => {
    for (const text of ['a'.repeat(200_000), ' '.repeat(200_000), '!'.repeat(200_000), '漢'.repeat(100_000)]) {
      const started = performance.now();
      const count = countTextTokens(text);
      expect(performance.now() - started).toBeLessThan(1_000);
      expect(count).toBeGreaterThan(0);
    }
    const prose = 'Tool calls move through clear states; approvals wait for a person, and lazy tools stay out of the prompt. '.repeat(300);
    expect(countTextTokens(prose)).toBe(countTokens(prose));
    const tool = {
      name: 'getWeather',
      description: 'Current weather for a city.',
      parameters: { type: 'object', properties: { city: { type: 'string', description: 'City name, e.g. Paris' } }, required: ['city'] },
    };
    expect(jsonToolTokens.countTool(tool)).toBe(countTokens(JSON.stringify(tool)));
  });

  it('a tool named like a catastrophic regular expression does not stall the scripted model', async () => {
    const started = performance.now();
    // chat() directly, past the handler's name check: the model must be safe on its own.
    const events = await collect(
      chat({
        model: createScriptedModel(),
        messages: [user(`${'a'.repeat(40)}!`)],
        frontendTools: [{ name: '(a+)+c', description: 'evil', parameters: { type: 'object', properties: {} } }],
      }),
    );
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    expect(performance.now() - started).toBeLessThan(2_000);
  });
});
