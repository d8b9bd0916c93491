import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { toolDefinition, type ChatClient, type ToolCallPart } from '@chatwire/core';
import { callOf, runOf, startAgUiServer, textOf, type Script } from './agUiServer.js';

/**
 * The browser tool runtime is a lazy chunk (see BrowserTools): a chat without browser tools never
 * imports it; one with browser tools imports it, and what happens while it loads keeps its order
 * and honours a stop. The module is mocked with its real exports behind a counter and a gate: the
 * factory runs when something imports the module (a browser fetching its chunk), and the import
 * completes only when the test opens the gate. The tests run in order: the module loads once.
 */

const runtime = vi.hoisted(() => {
  let open!: () => void;
  const gate = new Promise<void>((resolve) => (open = resolve));
  return { imported: 0, gate, open };
});
vi.mock('../src/runtime/browserToolRuntime.ts', async (original) => {
  runtime.imported++;
  await runtime.gate;
  return original();
});

const stops: (() => Promise<void>)[] = [];
afterEach(async () => {
  for (const stop of stops.splice(0)) await stop();
});

async function serve(script: Script) {
  const server = await startAgUiServer(script);
  stops.push(server.close);
  return server;
}

const calls = (client: ChatClient): ToolCallPart[] =>
  client
    .getSnapshot()
    .messages.flatMap((message) => message.parts)
    .filter((part): part is ToolCallPart => part.type === 'tool-call');

/** Resolves once `test` holds for the client's snapshot (checked at every change). */
const until = (client: ChatClient, test: () => boolean) =>
  new Promise<void>((resolve) => {
    if (test()) return resolve();
    const unsubscribe = client.subscribe(() => {
      if (!test()) return;
      unsubscribe();
      resolve();
    });
  });

describe('the browser tool runtime, a lazy chunk', () => {
  it('is never imported by a chat without browser tools', async () => {
    const server = await serve((input) => runOf(input, textOf('a1', 'Hello.')));
    const client = server.client();
    expect(await client.sendMessage('one')).toEqual({ sent: true });
    expect(await client.sendMessage('two')).toEqual({ sent: true });
    expect(client.getSnapshot().status).toBe('ready');
    expect(runtime.imported).toBe(0);
  });

  it('while it loads, a stop drops the waiting effects (the tool never runs); another chat runs its calls in order once it loaded', async () => {
    const ran: string[] = [];
    const tool = (name: string) =>
      toolDefinition({ name, description: name, inputSchema: z.object({ n: z.number() }) }).client(({ n }) => {
        ran.push(`${name} ${n}`);
        return { ok: n };
      });
    const tools = [tool('first'), tool('second')];
    // Each chat's first request gets both calls and a text after them; the request with their results a text.
    const server = await serve((input) =>
      runOf(
        input,
        input.messages.some((message) => message.role === 'tool')
          ? textOf('a2', 'Both ran.')
          : [...callOf('c1', 'first', { n: 1 }), ...callOf('c2', 'second', { n: 2 }), ...textOf('t1', 'Calling.')],
      ),
    );
    const responded = (client: ChatClient) =>
      calls(client).length === 2 &&
      client
        .getSnapshot()
        .messages.at(-1)
        ?.parts.some((part) => part.type === 'text' && part.state === 'done');
    const stopped = server.client({ tools });
    const running = server.client({ tools });
    const stoppedSent = stopped.sendMessage('stop me');
    const runningSent = running.sendMessage('run both');
    // Both responses arrived; the calls' effects wait for the chunk.
    await until(stopped, () => responded(stopped) === true);
    await until(running, () => responded(running) === true);
    expect(calls(stopped).map((call) => call.state)).toEqual(['input-complete', 'input-complete']);
    expect(ran).toEqual([]);
    stopped.stop();
    expect(await stoppedSent).toEqual({ sent: true });
    runtime.open();
    // The turn rests only after both tools ran and the request with their results was answered.
    expect(await runningSent).toEqual({ sent: true });
    expect(ran).toEqual(['first 1', 'second 2']);
    expect(calls(running).map((call) => [call.toolCallId, call.state, call.result?.output])).toEqual([
      ['c1', 'output-available', { ok: 1 }],
      ['c2', 'output-available', { ok: 2 }],
    ]);
    expect(server.inputs).toHaveLength(3);
    // The stopped chat's calls never ran, and nothing decided them after the runtime loaded.
    expect(calls(stopped).map((call) => call.state)).toEqual(['cancelled', 'cancelled']);
    expect(runtime.imported).toBe(1);
  });
});
