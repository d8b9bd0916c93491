import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { toolDefinition, type AnyTool, type ChatClient, type ToolCallPart } from '@chatwire/core';
import { toolCallParts } from '@chatwire/core/shared';
import { createChatHandler, createScriptedModel } from '@chatwire/server';
import type { ScriptRule } from '@chatwire/server/testing';
import { clientFor, deferred, whenSnapshot } from './fixtures.js';

const showBanner = toolDefinition({
  name: 'showBanner',
  description: 'Show a banner in the page.',
  inputSchema: z.object({ text: z.string() }),
});
const setTheme = toolDefinition({
  name: 'setTheme',
  description: 'Switch the page theme.',
  inputSchema: z.object({ theme: z.enum(['light', 'dark']) }),
});
const pinNote = toolDefinition({
  name: 'pinNote',
  description: 'Pin a note.',
  inputSchema: z.object({ text: z.string() }),
  needsApproval: true,
});
const fetchPreferences = toolDefinition({
  name: 'fetchPreferences',
  description: 'Load saved preferences.',
  inputSchema: z.object({}),
}).server(async () => ({
  theme: 'dark' as const,
  banner: 'Welcome back!',
}));
const applyPreferences = toolDefinition({
  name: 'applyPreferences',
  description: 'Apply preferences in the page.',
  inputSchema: z.object({ theme: z.enum(['light', 'dark']), banner: z.string() }),
});

const lastCalls = (client: ChatClient): ToolCallPart[] => {
  const messages = client.getSnapshot().messages;
  return toolCallParts(messages[messages.length - 1]!);
};

function setup(options: { rules?: ScriptRule[]; browser?: readonly AnyTool[]; maxSteps?: number } = {}) {
  const handler = createChatHandler({
    model: createScriptedModel({ rules: options.rules ?? [] }),
    tools: [showBanner, setTheme, pinNote, fetchPreferences, applyPreferences],
    secret: 'test',
  });
  return clientFor(handler, { tools: options.browser ?? [], ...(options.maxSteps ? { maxSteps: options.maxSteps } : {}) });
}

describe('browser tools', () => {
  it('run in the browser with the validated input; the result goes back and the conversation continues by itself', async () => {
    const banner = vi.fn(async ({ text }: { text: string }) => ({ shown: text }));
    const { client, bodies } = setup({ browser: [showBanner.client(banner)] });
    await client.sendMessage('use showBanner saying "Sale ends today"');
    expect(banner).toHaveBeenCalledWith({ text: 'Sale ends today' }, expect.objectContaining({ toolCallId: expect.any(String) }));
    const [call] = lastCalls(client);
    expect(call?.state).toBe('output-available');
    expect(call?.result?.output).toEqual({ shown: 'Sale ends today' });
    expect(client.getSnapshot().status).toBe('ready');
    // One request for the question, one continuation carrying the result; the model then summarised it.
    expect(bodies).toHaveLength(2);
    // The result rides the next input's tool messages (AG-UI 1.0), not a resume entry.
    expect(bodies[1]?.['resume']).toBeUndefined();
    const sent = bodies[1]?.['messages'] as { role: string; toolCallId?: string; content?: string }[];
    expect(sent.filter((message) => message.role === 'tool')).toEqual([
      expect.objectContaining({ toolCallId: call?.toolCallId, content: JSON.stringify({ shown: 'Sale ends today' }) }),
    ]);
    const messages = client.getSnapshot().messages;
    expect(messages[messages.length - 1]?.parts.at(-1)).toMatchObject({
      type: 'text',
      text: expect.stringContaining('showBanner returned'),
    });
  });

  it('run parallel calls concurrently and continue once, after all have settled', async () => {
    let running = 0;
    let maxRunning = 0;
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const track = async <T>(value: T) => {
      running++;
      maxRunning = Math.max(maxRunning, running);
      if (running === 2) release();
      await gate; // deadlocks if the calls ran one after the other
      running--;
      return value;
    };
    const { client, bodies } = setup({
      browser: [showBanner.client(({ text }) => track({ shown: text })), setTheme.client(({ theme }) => track({ theme }))],
    });
    await client.sendMessage('use showBanner and setTheme dark');
    expect(maxRunning).toBe(2);
    expect(lastCalls(client).map((call) => call.state)).toEqual(['output-available', 'output-available']);
    expect(bodies).toHaveLength(2);
    const sent = bodies[1]?.['messages'] as { role: string; toolCallId?: string }[];
    expect(
      sent
        .filter((message) => message.role === 'tool')
        .map((message) => message.toolCallId)
        .sort(),
    ).toEqual(
      lastCalls(client)
        .map((call) => call.toolCallId)
        .sort(),
    );
  });

  it('a browser tool that throws becomes an error result and the conversation continues', async () => {
    const { client, bodies } = setup({
      browser: [
        showBanner.client(async () => {
          throw new Error('no banner slot on this page');
        }),
      ],
    });
    await client.sendMessage('use showBanner saying "x"');
    const [call] = lastCalls(client);
    expect(call?.state).toBe('output-error');
    expect(call?.result?.error).toBe("Tool 'showBanner' failed: no banner slot on this page");
    expect(bodies).toHaveLength(2);
    const text = client.getSnapshot().messages.at(-1)?.parts.at(-1);
    expect(text).toMatchObject({ type: 'text', text: expect.stringContaining('showBanner failed') });
  });

  it('invalid arguments for a browser tool fail the call without running it', async () => {
    const apply = vi.fn();
    const { client } = setup({
      rules: [{ name: 'bad theme', when: 'go', reply: { toolCalls: [{ name: 'setTheme', args: { theme: 'purple' } }] } }],
      browser: [setTheme.client(apply)],
    });
    await client.sendMessage('go');
    expect(apply).not.toHaveBeenCalled();
    const [call] = lastCalls(client);
    expect(call?.state).toBe('output-error');
    expect(call?.result?.error).toMatch(/Invalid arguments for 'setTheme'.*theme/s);
  });

  it('needsApproval on a browser tool: approve runs it, then the conversation continues', async () => {
    const pin = vi.fn(async ({ text }: { text: string }) => ({ pinned: text }));
    const { client, bodies } = setup({ browser: [pinNote.client(pin)] });
    await client.sendMessage('use pinNote saying "call the bank"');
    const [call] = lastCalls(client);
    expect(call?.state).toBe('approval-requested');
    expect(call?.approval?.requestedBy).toBe('client');
    expect(client.getSnapshot().status).toBe('ready');
    expect(pin).not.toHaveBeenCalled();
    expect(bodies).toHaveLength(1);

    client.addToolApprovalResponse({ id: call!.approval!.id, approved: true });
    await whenSnapshot(client, (snapshot) => bodies.length === 2 && snapshot.status === 'ready');
    expect(pin).toHaveBeenCalledTimes(1);
    expect(lastCalls(client)[0]?.state).toBe('output-available');
  });

  it('needsApproval on a browser tool: deny cancels it and tells the model', async () => {
    const pin = vi.fn();
    const { client, bodies } = setup({ browser: [pinNote.client(pin)] });
    await client.sendMessage('use pinNote saying "x"');
    const [call] = lastCalls(client);
    client.addToolApprovalResponse({ id: call!.approval!.id, approved: false, reason: 'not now' });
    await whenSnapshot(client, (snapshot) => bodies.length === 2 && snapshot.status === 'ready');
    expect(pin).not.toHaveBeenCalled();
    expect(lastCalls(client)[0]).toMatchObject({ state: 'cancelled', cancelReason: 'denied' });
    const sent = bodies[1]?.['messages'] as { role: string; content?: string }[];
    expect(sent.find((message) => message.role === 'tool')?.content).toMatch(/declined to run 'pinNote': not now/);
  });

  it('approving an unknown or already answered approval throws a clear error', async () => {
    const { client } = setup({ browser: [pinNote.client(async () => ({}))] });
    await client.sendMessage('use pinNote saying "x"');
    const id = lastCalls(client)[0]!.approval!.id;
    expect(() => client.addToolApprovalResponse({ id: 'nope', approved: true })).toThrow(/no pending approval 'nope'/);
    client.addToolApprovalResponse({ id, approved: false });
    expect(() => client.addToolApprovalResponse({ id, approved: true })).toThrow(/already answered/);
  });

  it('hybrid: a server tool result feeds a browser tool', async () => {
    const applied = vi.fn(async (input: { theme: string; banner: string }) => ({ applied: input }));
    const { client, bodies } = setup({
      rules: [
        {
          name: 'apply loaded preferences',
          when: (context) => context.phase === 'tools' && context.results.some((result) => result.toolName === 'fetchPreferences'),
          reply: (context) => ({
            toolCalls: [{ name: 'applyPreferences', args: JSON.parse(context.results[0]!.content) as unknown }],
          }),
        },
      ],
      browser: [applyPreferences.client(applied)],
    });
    await client.sendMessage('use fetchPreferences');
    expect(applied).toHaveBeenCalledWith({ theme: 'dark', banner: 'Welcome back!' }, expect.anything());
    const parts = client.getSnapshot().messages.at(-1)!.parts;
    expect(
      parts.filter((part) => part.type === 'tool-call').map((part) => (part.type === 'tool-call' ? [part.toolName, part.state] : [])),
    ).toEqual([
      ['fetchPreferences', 'output-available'],
      ['applyPreferences', 'output-available'],
    ]);
    expect(bodies).toHaveLength(2);
  });

  it('tools the app answers itself: onToolCall fires, the chat waits, addToolResult continues it', async () => {
    const onToolCall = vi.fn();
    const { client, bodies } = setup({ browser: [showBanner] });
    client.updateOptions({ onToolCall });
    await client.sendMessage('use showBanner saying "hi"');
    const [call] = lastCalls(client);
    expect(onToolCall).toHaveBeenCalledWith({ toolCall: expect.objectContaining({ toolName: 'showBanner', input: { text: 'hi' } }) });
    expect(call?.state).toBe('input-complete');
    expect(client.getSnapshot().status).toBe('ready');
    expect(bodies).toHaveLength(1);

    expect(() => client.addToolResult({ toolCallId: 'call_unknown', output: 1 })).toThrow(/there is no tool call 'call_unknown'/);
    client.addToolResult({ toolCallId: call!.toolCallId, output: { shown: true } });
    await whenSnapshot(client, (snapshot) => bodies.length === 2 && snapshot.status === 'ready');
    expect(() => client.addToolResult({ toolCallId: call!.toolCallId, output: 2 })).toThrow(/already has its result/);
  });

  it('automatic continuation stops at its step budget', async () => {
    let calls = 0;
    const { client, bodies } = setup({
      rules: [{ name: 'loop', when: () => true, reply: { toolCalls: [{ name: 'setTheme', args: { theme: 'dark' } }] } }],
      browser: [setTheme.client(async () => ({ call: ++calls }))],
      maxSteps: 3,
    });
    await client.sendMessage('loop forever');
    expect(bodies).toHaveLength(4);
    expect(client.getSnapshot().status).toBe('error');
    expect(client.getSnapshot().error?.code).toBe('step-budget');
  });

  it('stop() aborts a running browser tool and cancels its call', async () => {
    let toolSignal: AbortSignal | undefined;
    const running = deferred();
    const { client, bodies } = setup({
      browser: [
        showBanner.client(
          (_input, context) =>
            new Promise(() => {
              toolSignal = context.signal;
              running.settle();
            }),
        ),
      ],
    });
    const done = client.sendMessage('use showBanner saying "x"');
    // The tool itself has started (its part reads executing a little before).
    await running.settled;
    expect(lastCalls(client)[0]?.state).toBe('executing');
    client.stop();
    await done;
    expect(toolSignal?.aborted).toBe(true);
    expect(lastCalls(client)[0]).toMatchObject({ state: 'cancelled', cancelReason: 'aborted' });
    expect(client.getSnapshot().status).toBe('ready');
    expect(bodies).toHaveLength(1);
  });
});
