import { dehydrate, hydrate, QueryClient, QueryClientProvider, useQuery } from '@tanstack/react-query';
import { act, screen, waitFor } from '@testing-library/react';
import { hydrateRoot, type Root } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@chatwire/core';
import { ChatProvider, useChat } from '@chatwire/react';
import { cleanupAfterEach, freshRegistry, MessageItems, scriptedConnection, textAnswer } from './helpers.tsx';

cleanupAfterEach();

const saved: ChatMessage[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'where is my order?', state: 'done' }], createdAt: 1 },
  { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'on its way', state: 'done' }], createdAt: 2 },
];

describe("server rendering, then hydration with the app's own React Query cache", () => {
  it('dehydrate -> JSON -> hydrate of the QueryClient renders the chat fine, and the chat keeps working', async () => {
    const { connection, runs } = scriptedConnection((input) => textAnswer(input, ['hydrated ', 'answer']));
    function App() {
      // The app's own server state, in React Query next to the chat.
      const user = useQuery({ queryKey: ['user'], queryFn: async () => ({ name: 'Alice' }), staleTime: Infinity });
      const chat = useChat({ id: 'support', connection, initialMessages: saved });
      return (
        <main>
          <p data-testid="user">{user.data?.name ?? '...'}</p>
          <span data-testid="status">{chat.status}</span>
          <MessageItems messages={chat.messages} />
          <button onClick={() => void chat.sendMessage('thanks')}>send</button>
        </main>
      );
    }

    // The server: prefetch, render with a request-scoped registry, dehydrate the cache to JSON.
    const serverQueries = new QueryClient();
    await serverQueries.prefetchQuery({ queryKey: ['user'], queryFn: async () => ({ name: 'Alice' }) });
    const html = renderToString(
      <QueryClientProvider client={serverQueries}>
        <ChatProvider registry={freshRegistry()}>
          <App />
        </ChatProvider>
      </QueryClientProvider>,
    );
    const wire = JSON.stringify(dehydrate(serverQueries));
    expect(wire).not.toContain('chatwire');
    expect(wire).not.toContain('support');

    // The browser: hydrate the cache from the JSON and hydrate the markup.
    const browserQueries = new QueryClient();
    hydrate(browserQueries, JSON.parse(wire));
    const container = document.createElement('div');
    container.innerHTML = html;
    document.body.append(container);
    const errors = vi.spyOn(console, 'error');
    let root: Root | undefined;
    await act(async () => {
      root = hydrateRoot(
        container,
        <QueryClientProvider client={browserQueries}>
          <ChatProvider registry={freshRegistry()}>
            <App />
          </ChatProvider>
        </QueryClientProvider>,
        { onRecoverableError: (error) => errors(error) },
      );
    });
    expect(errors).not.toHaveBeenCalled();
    expect(screen.getByTestId('user').textContent).toBe('Alice');
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['where is my order?', 'on its way']);

    await act(async () => {
      screen.getByText('send').click();
    });
    await waitFor(() => expect(screen.getByTestId('status').textContent).toBe('ready'));
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual([
      'where is my order?',
      'on its way',
      'thanks',
      'hydrated answer',
    ]);
    expect(runs).toHaveLength(1);
    act(() => root?.unmount());
    container.remove();
    browserQueries.clear();
    serverQueries.clear();
  });
});
