import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { useChat } from '@chatwire/react';
import { cleanupAfterEach, freshRegistry, jsonResponse, scriptedConnection, withRegistry } from './helpers.tsx';

cleanupAfterEach();

const offer = {
  type: 'object',
  properties: { approved: { type: 'boolean' }, editedArgs: { type: 'object' }, grant: { type: 'string' } },
  required: ['approved'],
};

describe('useChat: grant options, approve all, and the grants list', () => {
  it('each pending approval carries what the server offers; answerAllApprovals answers them in one request', async () => {
    const { connection, runs } = scriptedConnection(async function* (input, run) {
      yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
      if (run === 0) {
        for (const id of ['c1', 'c2']) {
          yield { type: 'TOOL_CALL_START', toolCallId: id, toolCallName: 'refundOrder', parentMessageId: 'a1' };
          yield { type: 'TOOL_CALL_ARGS', toolCallId: id, delta: `{"orderId":"${id}"}` };
          yield { type: 'TOOL_CALL_END', toolCallId: id };
        }
        const interrupts = ['c1', 'c2'].map((id) => ({
          id: `apr-${id}`,
          reason: 'tool_call',
          toolCallId: id,
          responseSchema: offer,
          metadata: { chatwire: { grantOptions: ['once', 'thread', 'always'] } },
        }));
        yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId, outcome: { type: 'interrupt', interrupts } };
        return;
      }
      yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
    });
    const { result } = renderHook(() => useChat({ id: 'grants-1', connection, batching: 'none' }), {
      wrapper: withRegistry(freshRegistry()),
    });
    await act(async () => {
      await result.current.sendMessage('refund both');
    });
    expect(result.current.pendingApprovals.map((part) => part.approval)).toEqual([
      expect.objectContaining({ id: 'apr-c1', grantOptions: ['once', 'thread', 'always'], editable: true }),
      expect.objectContaining({ id: 'apr-c2', grantOptions: ['once', 'thread', 'always'], editable: true }),
    ]);
    await act(async () => {
      result.current.answerAllApprovals(false, 'not today');
    });
    await waitFor(() => expect(runs).toHaveLength(2));
    expect(runs[1]?.resume?.map((entry) => [entry.interruptId, entry.payload])).toEqual([
      ['apr-c1', { approved: false, reason: 'not today' }],
      ['apr-c2', { approved: false, reason: 'not today' }],
    ]);
    expect(result.current.pendingApprovals).toEqual([]);
  });

  it('lists the grants from the grants endpoint, and revoke posts the id then lists again', async () => {
    let grants = [
      { id: 'grt_1', toolName: 'refundOrder', effect: 'allow', scope: 'thread', createdAt: '2026-01-01T00:00:00.000Z' },
      { id: 'grt_2', toolName: 'getWeather', effect: 'allow', scope: 'always', createdAt: '2026-01-01T00:00:01.000Z' },
    ];
    const calls: { url: string; method: string; body: unknown }[] = [];
    const fetch = (async (url: string | URL | Request, init?: RequestInit) => {
      calls.push({ url: String(url), method: init?.method ?? 'GET', body: init?.body ? JSON.parse(String(init.body)) : undefined });
      if (init?.method === 'POST') {
        const { revoke } = JSON.parse(String(init.body)) as { revoke: string };
        if (!grants.some((grant) => grant.id === revoke)) return jsonResponse({ error: 'no such grant', code: 'unknown-grant' });
        grants = grants.filter((grant) => grant.id !== revoke);
        return jsonResponse({ revoked: revoke });
      }
      return jsonResponse({ grants });
    }) as typeof globalThis.fetch;
    const { connection } = scriptedConnection(async function* () {});
    const { result } = renderHook(() => useChat({ id: 'chat-g', connection, grants: '/api/grants', fetch, batching: 'none' }), {
      wrapper: withRegistry(freshRegistry()),
    });
    await waitFor(() => expect(result.current.grants.list.map((grant) => grant.id)).toEqual(['grt_1', 'grt_2']));
    expect(calls[0]).toMatchObject({ url: '/api/grants?threadId=chat-g', method: 'GET' });
    await act(async () => {
      await result.current.grants.revoke('grt_1');
    });
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({ threadId: 'chat-g', revoke: 'grt_1' });
    expect(result.current.grants.list.map((grant) => grant.id)).toEqual(['grt_2']);
  });

  it("a refused revoke rejects with the server's message; without the option the list is empty and nothing is fetched", async () => {
    const fetch = (async (_url: string | URL | Request, init?: RequestInit) =>
      init?.method === 'POST'
        ? new Response(JSON.stringify({ error: "This chat and user have no grant 'grt_x'.", code: 'unknown-grant' }), { status: 404 })
        : jsonResponse({ grants: [] })) as typeof globalThis.fetch;
    const { connection } = scriptedConnection(async function* () {});
    const { result } = renderHook(() => useChat({ id: 'chat-r', connection, grants: '/api/grants', fetch, batching: 'none' }), {
      wrapper: withRegistry(freshRegistry()),
    });
    await waitFor(() => expect(result.current.grants.isLoading).toBe(false));
    await expect(result.current.grants.revoke('grt_x')).rejects.toThrow(/no grant 'grt_x'/);
    const none = renderHook(() => useChat({ id: 'chat-n', connection, batching: 'none' }), { wrapper: withRegistry(freshRegistry()) });
    expect(none.result.current.grants).toMatchObject({ list: [], isLoading: false, error: null });
  });
});
