import { afterEach, describe, expect, it, vi } from 'vitest';
import { HttpAgent, type AgentSubscriber } from '@ag-ui/client';
import type { Event, Interrupt, Message, Tool } from '@ag-ui/core';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { toWireTool } from '@chatwire/core/shared';
import { createChatHandler, createMemoryStore, createScriptedModel } from '@chatwire/server';
import { assertValidEventStream } from './eventStream.js';
import { serve } from './fixtures.js';

/**
 * The reference AG-UI client, `@ag-ui/client`'s HttpAgent, drives a Chatwire server over real HTTP
 * (node:http on 127.0.0.1) the way the 1.0 spec says: frontend tools are answered by tool messages in
 * the next input, approvals by spec-minimal resume entries. Nothing Chatwire-specific is copied from
 * one run to the next: the agent keeps its own messages (metadata included) and sends them back.
 */
const getWeather = toolDefinition({
  name: 'getWeather',
  description: 'Current weather for a city.',
  inputSchema: z.object({ city: z.string() }),
}).server(async ({ city }) => ({ city, celsius: 21 }));
const refund = vi.fn(async ({ orderId }: { orderId: string }) => ({ refunded: orderId }));
const refundOrder = toolDefinition({
  name: 'refundOrder',
  description: 'Refund an order.',
  inputSchema: z.object({ orderId: z.string() }),
  needsApproval: true,
}).server(refund);
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
/** The frontend tools, as any AG-UI app advertises them (plain `Tool` objects). */
const frontendTools: Tool[] = [showBanner, setTheme].map(toWireTool);

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/** One thread on a fresh server; every run's events are recorded and checked against AG-UI 1.0. */
async function thread(threadId = 'thread_ag_ui') {
  refund.mockClear();
  const server = await serve(
    createChatHandler({
      model: createScriptedModel(),
      tools: [getWeather, refundOrder],
      secret: 'ag-ui-client',
      store: createMemoryStore(),
    }),
  );
  close = server.close;
  const agent = new HttpAgent({ url: `${server.url}/api/chat`, threadId });
  const runs: { events: Event[]; pending: string[]; interrupts: Interrupt[]; outcome: string | undefined }[] = [];
  const run = async (parameters: Parameters<HttpAgent['runAgent']>[0] = {}) => {
    const record = {
      events: [] as Event[],
      pending: [] as string[],
      interrupts: [] as Interrupt[],
      outcome: undefined as string | undefined,
    };
    const subscriber: AgentSubscriber = {
      onEvent: ({ event }) => void record.events.push(event as Event),
      onRunFinishedEvent: (params) => {
        record.outcome = params.outcome;
        if (params.outcome === 'success') record.pending = params.pendingToolCallIds;
        if (params.outcome === 'interrupt') record.interrupts = params.interrupts;
      },
    };
    await agent.runAgent({ tools: frontendTools, ...parameters }, subscriber);
    await assertValidEventStream(record.events);
    runs.push(record);
    return record;
  };
  const say = (content: string) => agent.addMessage({ id: `u${agent.messages.length}`, role: 'user', content });
  const lastAssistant = () => [...agent.messages].reverse().find((message) => message.role === 'assistant');
  const callsOf = (message: Message | undefined) => (message?.role === 'assistant' ? (message.toolCalls ?? []) : []);
  return { agent, run, say, runs, lastAssistant, callsOf };
}

describe('a real AG-UI client (@ag-ui/client HttpAgent) against the Chatwire server, the 1.0 way', () => {
  it('streams text, declares protocol 1.0 and finishes as success', async () => {
    const { agent, run, say } = await thread();
    say('hello from HttpAgent');
    const first = await run();
    expect(first.events[0]).toMatchObject({ type: 'RUN_STARTED', threadId: 'thread_ag_ui', protocolVersion: '1.0' });
    expect(first.events.filter((event) => event.type === 'TEXT_MESSAGE_CONTENT').length).toBeGreaterThan(1);
    expect(first.outcome).toBe('success');
    expect(first.pending).toEqual([]);
    expect(agent.messages.map((message) => message.role)).toEqual(['user', 'assistant']);
    expect(agent.messages[1]?.content).toContain('hello from HttpAgent');
  });

  it('runs a server tool in the run: its signed result comes back in the next input and is accepted', async () => {
    const { agent, run, say, callsOf, lastAssistant } = await thread();
    say('use getWeather for Oslo');
    const first = await run();
    expect(first.outcome).toBe('success');
    expect(first.pending).toEqual([]);
    const result = agent.messages.find((message) => message.role === 'tool');
    expect(result && JSON.parse(result.content as string)).toEqual({ city: 'Oslo', celsius: 21 });
    expect(callsOf(agent.messages.find((message) => message.role === 'assistant'))[0]?.function.name).toBe('getWeather');
    expect(lastAssistant()?.content).toMatch(/getWeather/);
    // The agent kept the result's metadata (the server's signature), so the next turn is accepted.
    say('thanks');
    const second = await run();
    expect(second.events.at(-1)).toMatchObject({ type: 'RUN_FINISHED', outcome: { type: 'success' } });
  });

  it('leaves a browser tool pending (success, pendingToolCallIds), and a tool message answers it without any resume', async () => {
    const { agent, run, say, callsOf } = await thread();
    say('use showBanner saying "Sale ends today"');
    const first = await run();
    const call = callsOf(agent.messages.find((message) => message.role === 'assistant'))[0];
    expect(call?.function.name).toBe('showBanner');
    expect(JSON.parse(call!.function.arguments)).toEqual({ text: 'Sale ends today' });
    expect(first.outcome).toBe('success');
    expect(first.pending).toEqual([call!.id]);
    expect(first.events.at(-1)).toMatchObject({ outcome: { type: 'success', pendingToolCallIds: [call!.id] } });
    expect(first.events.some((event) => event.type === 'TOOL_CALL_RESULT')).toBe(false);
    expect(agent.pendingInterrupts).toEqual([]);

    agent.addMessage({ id: 'banner-result', role: 'tool', toolCallId: call!.id, content: JSON.stringify({ shown: true }) });
    const second = await run();
    expect(second.outcome).toBe('success');
    expect(second.pending).toEqual([]);
    expect(agent.messages.at(-1)).toMatchObject({ role: 'assistant', content: expect.stringContaining('showBanner returned') });
  });

  it('leaves parallel browser tools pending in the order made; one input answers both', async () => {
    const { agent, run, say, callsOf } = await thread();
    say('use showBanner and setTheme dark');
    const first = await run();
    const calls = callsOf(agent.messages.find((message) => message.role === 'assistant'));
    expect(calls.map((call) => call.function.name)).toEqual(['showBanner', 'setTheme']);
    expect(first.pending).toEqual(calls.map((call) => call.id));
    for (const call of calls) agent.addMessage({ id: `${call.id}-r`, role: 'tool', toolCallId: call.id, content: '{"ok":true}' });
    const second = await run();
    expect(second.outcome).toBe('success');
    expect(agent.messages.at(-1)?.role).toBe('assistant');
  });

  it('asks for an approval with a spec-shaped interrupt; a spec-minimal resume entry approves it and the tool runs once', async () => {
    const { agent, run, say, callsOf } = await thread();
    say('use refundOrder for ORD-1234');
    const first = await run();
    const call = callsOf(agent.messages.find((message) => message.role === 'assistant'))[0];
    expect(first.outcome).toBe('interrupt');
    const [interrupt] = first.interrupts;
    expect(interrupt).toMatchObject({
      reason: 'tool_call',
      toolCallId: call!.id,
      message: 'Allow \'refundOrder\' to run with {"orderId":"ORD-1234"}?',
      responseSchema: { type: 'object', required: ['approved'] },
    });
    expect(Date.parse(interrupt!.expiresAt!)).toBeGreaterThan(Date.now());
    expect(agent.pendingInterrupts.map((pending) => pending.id)).toEqual([interrupt!.id]);
    expect(refund).not.toHaveBeenCalled();

    // The reference client refuses to continue the thread without answering it...
    say('what now?');
    await expect(agent.runAgent({ tools: frontendTools })).rejects.toThrow(/pending interrupt/);
    agent.setMessages(agent.messages.slice(0, -1));
    // ...and the spec's minimal answer is all the server needs.
    const second = await run({ resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: true } }] });
    expect(refund).toHaveBeenCalledTimes(1);
    expect(refund.mock.calls[0]?.[0]).toEqual({ orderId: 'ORD-1234' });
    expect(second.outcome).toBe('success');
    const result = second.events.find((event) => event.type === 'TOOL_CALL_RESULT');
    expect(result).toMatchObject({ toolCallId: call!.id });
    expect(JSON.parse((result as { content: string }).content)).toEqual({ refunded: 'ORD-1234' });
    expect(agent.pendingInterrupts).toEqual([]);
  });

  it('a spec-minimal resume entry denies an approval: nothing runs and the model reads the refusal', async () => {
    const { agent, run, say } = await thread();
    say('use refundOrder for ORD-1234');
    const first = await run();
    const [interrupt] = first.interrupts;
    const second = await run({ resume: [{ interruptId: interrupt!.id, status: 'resolved', payload: { approved: false } }] });
    expect(refund).not.toHaveBeenCalled();
    expect(second.outcome).toBe('success');
    const result = agent.messages.find((message) => message.role === 'tool');
    expect(result?.content).toMatch(/declined to run 'refundOrder'/);
    expect(agent.messages.at(-1)?.role).toBe('assistant');

    // Cancelled (the other spec status) also declines, and the thread carries on.
    say('use refundOrder for ORD-5678');
    const third = await run();
    const fourth = await run({ resume: [{ interruptId: third.interrupts[0]!.id, status: 'cancelled' }] });
    expect(refund).not.toHaveBeenCalled();
    expect(fourth.outcome).toBe('success');
  });

  it('holds a multi-turn conversation mixing text, server tools, browser tools and approvals', async () => {
    const { agent, run, say, runs, callsOf, lastAssistant } = await thread('thread_multi');
    say('hello');
    await run();
    say('use getWeather for Zürich');
    await run();
    say('use showBanner saying "hi"');
    const banner = await run();
    const bannerCall = callsOf(lastAssistant())[0]!;
    expect(banner.pending).toEqual([bannerCall.id]);
    agent.addMessage({ id: 'b-r', role: 'tool', toolCallId: bannerCall.id, content: '{"shown":true}' });
    await run();
    say('use refundOrder for ORD-9');
    const approval = await run();
    await run({ resume: [{ interruptId: approval.interrupts[0]!.id, status: 'resolved', payload: { approved: true } }] });
    say('and a last one');
    const last = await run();
    expect(last.outcome).toBe('success');
    expect(runs).toHaveLength(7);
    expect(refund).toHaveBeenCalledTimes(1);
    expect(agent.messages.filter((message) => message.role === 'user')).toHaveLength(5);
    expect(new Set(runs.map((record) => (record.events[0] as { runId: string }).runId)).size).toBe(7);
  });
});
