import { describe, expect, it } from 'vitest';
import { chat, createChatHandler, createScriptedModel } from '@chatwire/server';
import { countTextTokens, jsonToolTokens } from '@chatwire/server/extension';
import { countTokens } from 'gpt-tokenizer';
import { collect, readEvents, runInput, serve, user } from '../fixtures.js';

/** CPU milliseconds this process spent since `since` (user and system; time spent waiting for a core does not count). */
const cpuSince = (since: NodeJS.CpuUsage) => {
  const spent = process.cpuUsage(since);
  return (spent.user + spent.system) / 1_000;
};

/**
 * While `work` runs: polls `url` (counting the answers) and measures the longest stretch between
 * two turns of a 1 ms timer in CPU time, not wall-clock time. A stretch of synchronous work (what a
 * catastrophic regular expression or a quadratic scan would be) shows up whole, and a machine busy
 * with other processes does not lengthen it: waiting for a core costs no CPU time of this process.
 */
async function longestStretchDuring(url: string, work: Promise<unknown>): Promise<{ longestCpuMs: number; answered: number }> {
  let done = false;
  void work.finally(() => (done = true));
  let longestCpuMs = 0;
  let last = process.cpuUsage();
  const timer = setInterval(() => {
    longestCpuMs = Math.max(longestCpuMs, cpuSince(last));
    last = process.cpuUsage();
  }, 1);
  let answered = 0;
  try {
    while (!done) {
      const response = await fetch(url);
      await response.text();
      answered++;
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    await work;
  } finally {
    clearInterval(timer);
  }
  longestCpuMs = Math.max(longestCpuMs, cpuSince(last));
  return { longestCpuMs, answered };
}

describe('client-supplied text never blocks the event loop', () => {
  it('a 98 KiB tool description of one letter: concurrent requests are answered, and no stretch of work takes 200 ms of CPU', async () => {
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
      const { longestCpuMs, answered } = await longestStretchDuring(`${server.url}/health`, work);
      expect(answered).toBeGreaterThan(0);
      expect(longestCpuMs).toBeLessThan(200);
    } finally {
      await server.close();
    }
  });

  it('counts long runs in linear time and ordinary text exactly', () => {
    for (const text of ['a'.repeat(200_000), ' '.repeat(200_000), '!'.repeat(200_000), '漢'.repeat(100_000)]) {
      const started = process.cpuUsage();
      const count = countTextTokens(text);
      expect(cpuSince(started)).toBeLessThan(1_000);
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
    const started = process.cpuUsage();
    // chat() directly, past the handler's name check: the model must be safe on its own.
    const events = await collect(
      chat({
        model: createScriptedModel(),
        messages: [user(`${'a'.repeat(40)}!`)],
        frontendTools: [{ name: '(a+)+c', description: 'evil', parameters: { type: 'object', properties: {} } }],
      }),
    );
    expect(events.at(-1)?.type).toBe('RUN_FINISHED');
    expect(cpuSince(started)).toBeLessThan(2_000);
  });
});
