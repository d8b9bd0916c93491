// @vitest-environment node
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messageText, type ChatConnection, type ChatMessage } from '@chatwire/core';

const saved: ChatMessage[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'server question', state: 'done' }], createdAt: 1 },
  { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'server answer', state: 'done' }], createdAt: 2 },
];

/** Never called while rendering on the server. */
const connection: ChatConnection = {
  run() {
    throw new Error('no run during server rendering');
  },
};

afterEach(() => {
  vi.restoreAllMocks();
});

describe('useChat on the server', () => {
  it('imports without a window and renders the initial markup with renderToString', async () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    const errors = vi.spyOn(console, 'error');
    const warnings = vi.spyOn(console, 'warn');

    const { useChat } = await import('@chatwire/react');
    function Chat({ id }: { readonly id: string }) {
      const chat = useChat({ id, connection, initialMessages: saved });
      return (
        <main>
          <span id="status">{chat.status}</span>
          <ul>
            {chat.messages.map((message) => (
              <li key={message.id} data-role={message.role}>
                {messageText(message)}
              </li>
            ))}
          </ul>
          <span id="loading">{String(chat.isLoadingMessages)}</span>
        </main>
      );
    }

    // Without a provider (Chatwire's default QueryClient)...
    let html = '';
    expect(() => {
      html = renderToString(<Chat id="ssr-default" />);
    }).not.toThrow();
    expect(html).toContain('<span id="status">ready</span>');
    expect(html).toContain('<li data-role="user">server question</li>');
    expect(html).toContain('<li data-role="assistant">server answer</li>');
    expect(html).toContain('<span id="loading">false</span>');

    // ...and inside the app's QueryClientProvider.
    const queryClient = new QueryClient();
    html = renderToString(
      <QueryClientProvider client={queryClient}>
        <Chat id="ssr-provider" />
      </QueryClientProvider>,
    );
    expect(html).toContain('<span id="status">ready</span>');
    expect(html).toContain('server answer');
    queryClient.clear();

    expect(errors).not.toHaveBeenCalled();
    expect(warnings).not.toHaveBeenCalled();
  });

  it('renders a chat with no messages yet (loader pending) on the server', async () => {
    const { useChat, useChatSelector } = await import('@chatwire/react');
    function Empty() {
      const chat = useChat({ id: 'ssr-loader', connection, initialMessages: () => new Promise<readonly ChatMessage[]>(() => {}) });
      const status = useChatSelector('ssr-loader', (snapshot) => snapshot.status);
      return (
        <p>
          {chat.messages.length} messages, {status}
        </p>
      );
    }
    const queryClient = new QueryClient();
    const html = renderToString(
      <QueryClientProvider client={queryClient}>
        <Empty />
      </QueryClientProvider>,
    );
    expect(html).toBe('<p>0<!-- --> messages, <!-- -->ready</p>');
    queryClient.clear();
  });
});
