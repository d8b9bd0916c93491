import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { toolDefinition } from '@chatwire/core';
import { readResultMetadata } from '@chatwire/core/wire';
import type { ApprovalPolicyContext } from '@chatwire/server';
import { extendTools } from '@chatwire/server/extension';
import { approvalServer, decisionsOf, interruptsOf, say } from './approvalFlows.js';
import { user } from './fixtures.js';

const refundImpl = vi.fn(async ({ orderId }: { orderId: string }) => ({ refunded: orderId }));
const refundOrder = toolDefinition({
  name: 'refundOrder',
  description: 'Refund an order.',
  inputSchema: z.object({ orderId: z.string() }),
  needsApproval: true,
}).server(refundImpl);
const weatherImpl = vi.fn(async ({ city }: { city: string }) => ({ city, celsius: 20 }));
const getWeather = toolDefinition({ name: 'getWeather', description: 'Weather.', inputSchema: z.object({ city: z.string() }) }).server(
  weatherImpl,
);

const refundText = 'use refundOrder for ORD-1234';
const resultOf = (events: readonly { type: string }[]) =>
  events.find((event) => event.type === 'TOOL_CALL_RESULT') as { content: string; metadata?: Record<string, unknown> } | undefined;

describe('approval policy', () => {
  it('a per-tool policy approves a call that needs approval: it runs without asking, and the stream says the policy decided', async () => {
    refundImpl.mockClear();
    const { send } = approvalServer({
      tools: [refundOrder],
      toolApprovalPolicies: {
        refundOrder: ({ input }) => ((input as { orderId: string }).orderId.startsWith('ORD-') ? { decision: 'approve' } : undefined),
      },
    });
    const run = await send('t_policy_1', [user(refundText)]);
    expect(interruptsOf(run.events)).toEqual([]);
    expect(refundImpl).toHaveBeenCalledTimes(1);
    expect(decisionsOf(run.events)).toEqual([expect.objectContaining({ toolName: 'refundOrder', by: 'policy', decision: 'approve' })]);
    // The decision comes before the call executes.
    const names = run.events.map((event) => (event.type === 'CUSTOM' ? event.name : event.type));
    expect(names.indexOf('chatwire.approval_decision')).toBeLessThan(names.indexOf('chatwire.tool_executing'));
  });

  it('a handler-wide policy denies with a reason: nothing runs, the model reads the reason, and the next model request is valid', async () => {
    weatherImpl.mockClear();
    const { send, received } = approvalServer({
      tools: [getWeather],
      approvalPolicy: ({ tool }) =>
        tool.name === 'getWeather' ? { decision: 'deny', reason: 'Weather lookups are off on weekends.' } : undefined,
    });
    const run = await send('t_policy_2', [user('use getWeather for Paris')]);
    expect(weatherImpl).not.toHaveBeenCalled();
    const result = resultOf(run.events);
    expect(readResultMetadata(result?.metadata)).toMatchObject({ outcome: 'cancelled', reason: 'denied' });
    expect(JSON.parse(result!.content)).toEqual({ error: 'Weather lookups are off on weekends.' });
    expect(decisionsOf(run.events)).toEqual([
      expect.objectContaining({ by: 'policy', decision: 'deny', reason: 'Weather lookups are off on weekends.' }),
    ]);
    const seen = received.at(-1)!;
    const call = seen.flatMap((message) => (message.role === 'assistant' ? (message.toolCalls ?? []) : []))[0]!;
    expect(
      seen.some((message) => message.role === 'tool' && message.toolCallId === call.id && /weekends/.test(String(message.content))),
    ).toBe(true);
    // The denial is a signed result: the next turn on this history is accepted.
    expect((await send('t_policy_2', say(run.messages, 'ok'))).status).toBe(200);
  });

  it('ask carries the message the user sees; a tool that needs no approval is asked about when the policy says so', async () => {
    weatherImpl.mockClear();
    const { send } = approvalServer({
      tools: [getWeather],
      approvalPolicy: () => ({ decision: 'ask', message: 'Look up the weather for this city?' }),
    });
    const run = await send('t_policy_3', [user('use getWeather for Paris')]);
    const [interrupt] = interruptsOf(run.events);
    expect(interrupt?.message).toBe('Look up the weather for this city?');
    expect(weatherImpl).not.toHaveBeenCalled();
    expect(decisionsOf(run.events)).toEqual([expect.objectContaining({ by: 'policy', decision: 'ask' })]);
  });

  it('no opinion (undefined) leaves it to needsApproval; a tool policy comes before the handler-wide one', async () => {
    weatherImpl.mockClear();
    refundImpl.mockClear();
    const handlerWide = vi.fn(() => ({ decision: 'deny' as const, reason: 'handler says no' }));
    const { send } = approvalServer({
      tools: [refundOrder, getWeather],
      toolApprovalPolicies: { getWeather: () => ({ decision: 'approve' }) },
      approvalPolicy: (context) => (context.tool.name === 'refundOrder' ? undefined : handlerWide()),
    });
    const weather = await send('t_policy_4', [user('use getWeather for Oslo')]);
    expect(weatherImpl).toHaveBeenCalledTimes(1);
    expect(handlerWide).not.toHaveBeenCalled();
    expect(decisionsOf(weather.events)[0]).toMatchObject({ by: 'policy', decision: 'approve' });
    const refund = await send('t_policy_4b', [user(refundText)]);
    expect(interruptsOf(refund.events)).toHaveLength(1);
    expect(decisionsOf(refund.events)).toEqual([]);
  });

  it('a policy that throws asks (even for a tool that needs no approval), and says why', async () => {
    weatherImpl.mockClear();
    const { send } = approvalServer({
      tools: [getWeather],
      approvalPolicy: () => {
        throw new Error('policy service down');
      },
    });
    const run = await send('t_policy_5', [user('use getWeather for Paris')]);
    expect(weatherImpl).not.toHaveBeenCalled();
    expect(interruptsOf(run.events)).toHaveLength(1);
    expect(decisionsOf(run.events)[0]).toMatchObject({
      by: 'policy',
      decision: 'ask',
      reason: expect.stringMatching(/failed \(policy service down\)/),
    });
  });

  it('a policy that never resolves asks after approvalPolicyTimeoutMs, and its signal is aborted', async () => {
    weatherImpl.mockClear();
    let seen: AbortSignal | undefined;
    const { send } = approvalServer({
      tools: [getWeather],
      approvalPolicyTimeoutMs: 50,
      approvalPolicy: ({ signal }) => ((seen = signal), new Promise(() => {})),
    });
    const run = await send('t_policy_6', [user('use getWeather for Paris')]);
    expect(weatherImpl).not.toHaveBeenCalled();
    expect(interruptsOf(run.events)).toHaveLength(1);
    expect(decisionsOf(run.events)[0]).toMatchObject({ decision: 'ask', reason: expect.stringMatching(/did not answer within 50 ms/) });
    expect(seen?.aborted).toBe(true);
  });

  it('an answer that is no verdict asks', async () => {
    const { send } = approvalServer({ tools: [getWeather], approvalPolicy: () => ({ decision: 'sure' }) as never });
    const run = await send('t_policy_7', [user('use getWeather for Paris')]);
    expect(interruptsOf(run.events)).toHaveLength(1);
  });

  it('sees the tool, its validated input, the request, the user, and for an MCP tool the server and its annotations', async () => {
    const contexts: ApprovalPolicyContext[] = [];
    const lookup = toolDefinition({
      name: 'docs__lookup',
      description: 'Look up docs.',
      inputSchema: z.object({ topic: z.string() }),
    }).server(async ({ topic }) => ({ topic }));
    const [mcpTool] = extendTools({ namespace: 'mcp', approvalFacts: () => ({ server: 'docs', annotations: { readOnlyHint: true } }) }, [
      lookup,
    ]);
    const { send } = approvalServer({ tools: [mcpTool!, refundOrder], approvalPolicy: (context) => (contexts.push(context), undefined) });
    await send('t_policy_8', [user('use docs__lookup for approvals')], undefined, 'ada');
    await send('t_policy_8b', [user(refundText)]);
    const [mcp, refund] = contexts;
    expect(mcp).toMatchObject({
      tool: { name: 'docs__lookup', needsApproval: false, mcp: { server: 'docs', annotations: { readOnlyHint: true } } },
      threadId: 't_policy_8',
      user: 'ada',
    });
    expect(mcp?.request?.headers.get('x-user')).toBe('ada');
    expect(Object.keys(mcp?.input as object)).toEqual(['topic']);
    expect(refund).toMatchObject({
      tool: { name: 'refundOrder', needsApproval: true, parameters: { type: 'object' } },
      input: { orderId: 'ORD-1234' },
      user: undefined,
    });
    expect(refund?.tool.mcp).toBeUndefined();
    expect(refund?.messages.some((message) => message.role === 'user')).toBe(true);
  });
});
