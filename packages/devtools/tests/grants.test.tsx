import { act, cleanup, fireEvent, render, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ChatClient, type ChatConnection, type GrantView } from '@chatwire/core';
import { ChatwireDevtools } from '@chatwire/devtools/production';

/**
 * The Timeline lists the chat's grants from the server's grants endpoint and revokes one, against a
 * fake endpoint that answers like `createGrantsHandler` (GET ?threadId= lists, POST { threadId, revoke }).
 */
const connection: ChatConnection = {
  async *run(input) {
    yield { type: 'RUN_STARTED', threadId: input.threadId, runId: input.runId };
    yield { type: 'RUN_FINISHED', threadId: input.threadId, runId: input.runId };
  },
};

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  window.localStorage.clear();
});

const shadow = () => (document.querySelector('[data-chatwire-devtools]') as HTMLElement | null)?.shadowRoot ?? null;

/** A grants endpoint for one thread: lists its grants, revokes the ones it holds, refuses the rest. */
function fakeGrantsEndpoint(threadId: string, grants: GrantView[]) {
  const requests: { method: string; url: string; body?: unknown }[] = [];
  const held = [...grants];
  const fetch = vi.fn(async (url: string, init: RequestInit = {}) => {
    const method = init.method ?? 'GET';
    const body = typeof init.body === 'string' ? (JSON.parse(init.body) as { threadId?: string; revoke?: string }) : undefined;
    requests.push({ method, url, ...(body ? { body } : {}) });
    if (method === 'GET') {
      const asked = new URL(url, 'http://app.test').searchParams.get('threadId');
      return Response.json({ grants: asked === threadId ? held : [] });
    }
    const at = held.findIndex((grant) => grant.id === body?.revoke);
    if (body?.threadId !== threadId || at < 0) return Response.json({ error: 'no such grant for this chat' }, { status: 404 });
    held.splice(at, 1);
    return Response.json({ revoked: body.revoke });
  });
  return { fetch, requests, held };
}

const grant = (id: string, toolName: string, scope: GrantView['scope'], extra: Partial<GrantView> = {}): GrantView => ({
  id,
  toolName,
  effect: 'allow',
  scope,
  createdAt: '2026-01-01T10:00:00.000Z',
  ...extra,
});

async function openTimeline(client: ChatClient, grantsUrl: string | undefined) {
  render(<ChatwireDevtools client={client} initialOpen {...(grantsUrl ? { grantsUrl } : {})} />);
  await waitFor(() => expect(shadow()?.querySelector('[role="tab"]')).toBeTruthy());
  const root = shadow() as ShadowRoot;
  await act(async () => {
    fireEvent.click([...root.querySelectorAll('[role="tab"]')].find((tab) => tab.textContent === 'Timeline') as HTMLElement);
  });
  return root;
}

describe('grants in the devtools Timeline', () => {
  it('lists the chat’s grants from the endpoint and revokes one; the list is read again after it', async () => {
    const client = new ChatClient({ connection, id: 'chat_1' });
    const endpoint = fakeGrantsEndpoint('chat_1', [
      grant('g_chat', 'refundOrder', 'thread', { arguments: '{"orderId":"ORD-1"}' }),
      grant('g_always', '<img src=x onerror="window.hacked=1">', 'always', { effect: 'deny' }),
    ]);
    vi.stubGlobal('fetch', endpoint.fetch);
    const root = await openTimeline(client, '/api/grants');
    const rows = () => [...root.querySelectorAll('[data-testid="devtools-server-grant"]')];
    await waitFor(() => expect(rows()).toHaveLength(2));
    expect(endpoint.requests[0]).toEqual({ method: 'GET', url: '/api/grants?threadId=chat_1' });
    expect(rows()[0]?.textContent).toContain('allow · this chat');
    expect(rows()[0]?.textContent).toContain('refundOrder {"orderId":"ORD-1"}');
    // Text from the server stays text.
    expect(rows()[1]?.textContent).toContain('deny · always');
    expect(rows()[1]?.querySelector('img')).toBeNull();
    expect((window as { hacked?: number }).hacked).toBeUndefined();

    await act(async () => {
      fireEvent.click(root.querySelector('[aria-label="Revoke g_chat"]') as HTMLElement);
    });
    await waitFor(() => expect(rows().map((row) => row.getAttribute('data-grant'))).toEqual(['g_always']));
    expect(endpoint.requests.find((request) => request.method === 'POST')).toEqual({
      method: 'POST',
      url: '/api/grants',
      body: { threadId: 'chat_1', revoke: 'g_chat' },
    });
    expect(endpoint.held.map((held) => held.id)).toEqual(['g_always']);
    expect(endpoint.requests.filter((request) => request.method === 'GET').length).toBeGreaterThanOrEqual(2);
    expect(root.querySelector('[data-testid="devtools-server-grants-error"]')).toBeNull();
  });

  it('a refused revoke shows the server’s message, and the list is read again', async () => {
    const client = new ChatClient({ connection, id: 'chat_2' });
    const endpoint = fakeGrantsEndpoint('chat_2', [grant('g_1', 'refundOrder', 'thread')]);
    vi.stubGlobal('fetch', endpoint.fetch);
    const root = await openTimeline(client, '/api/grants');
    await waitFor(() => expect(root.querySelectorAll('[data-testid="devtools-server-grant"]')).toHaveLength(1));
    // Someone else revoked it meanwhile: the endpoint refuses, the panel says so and lists again.
    endpoint.held.splice(0, 1);
    await act(async () => {
      fireEvent.click(root.querySelector('[aria-label="Revoke g_1"]') as HTMLElement);
    });
    await waitFor(() =>
      expect(root.querySelector('[data-testid="devtools-server-grants-error"]')?.textContent).toBe(
        'Could not revoke g_1: no such grant for this chat',
      ),
    );
    await waitFor(() => expect(root.querySelectorAll('[data-testid="devtools-server-grant"]')).toHaveLength(0));
  });

  it('an endpoint that fails to list is reported, and without grantsUrl nothing is fetched', async () => {
    const failing = vi.fn(async () => new Response('oops', { status: 500 }));
    vi.stubGlobal('fetch', failing);
    const root = await openTimeline(new ChatClient({ connection, id: 'chat_3' }), '/api/grants');
    await waitFor(() =>
      expect(root.querySelector('[data-testid="devtools-server-grants-error"]')?.textContent).toBe(
        'Could not list the grants: the grants endpoint answered 500',
      ),
    );
    cleanup();
    failing.mockClear();
    const plain = await openTimeline(new ChatClient({ connection, id: 'chat_4' }), undefined);
    expect(plain.querySelector('[aria-label="Grants on the server"]')).toBeNull();
    expect(failing).not.toHaveBeenCalled();
  });
});
