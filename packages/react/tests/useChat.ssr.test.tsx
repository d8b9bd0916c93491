// @vitest-environment node
import { Suspense, use } from 'react';
import { renderToPipeableStream, renderToString } from 'react-dom/server';
import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { messageText, type ChatConnection, type ChatMessage } from '@chatwire/core';
import { ChatProvider, createChatRegistry, useChat, useChatSelector } from '@chatwire/react';

const saved: ChatMessage[] = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'server question', state: 'done' }], createdAt: 1 },
  { id: 'a1', role: 'assistant', parts: [{ type: 'text', text: 'server answer', state: 'done' }], createdAt: 2 },
];

/** A user's saved support conversation. */
const conversationOf = (user: string): ChatMessage[] => [
  { id: `${user}-q`, role: 'user', parts: [{ type: 'text', text: `${user}'s private question`, state: 'done' }], createdAt: 1 },
  { id: `${user}-a`, role: 'assistant', parts: [{ type: 'text', text: `answer for ${user}`, state: 'done' }], createdAt: 2 },
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

function Chat({ id, initialMessages }: { readonly id: string; readonly initialMessages: readonly ChatMessage[] }) {
  const chat = useChat({ id, connection, initialMessages });
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

/** Renders `element` as a server would stream it, resolving with the whole HTML. */
function streamToHtml(element: React.ReactNode): Promise<string> {
  return new Promise((resolve, reject) => {
    const sink = new PassThrough();
    let html = '';
    sink.on('data', (chunk: Buffer) => (html += chunk.toString('utf8')));
    sink.on('end', () => resolve(html));
    const stream = renderToPipeableStream(element, { onAllReady: () => stream.pipe(sink), onError: reject });
  });
}

describe('useChat on the server', () => {
  it('imports without a window and renders the initial markup with renderToString', async () => {
    expect(typeof window).toBe('undefined');
    expect(typeof document).toBe('undefined');
    const errors = vi.spyOn(console, 'error');
    const warnings = vi.spyOn(console, 'warn');

    // Without a provider...
    let html = '';
    expect(() => {
      html = renderToString(<Chat id="ssr-default" initialMessages={saved} />);
    }).not.toThrow();
    expect(html).toContain('<span id="status">ready</span>');
    expect(html).toContain('<li data-role="user">server question</li>');
    expect(html).toContain('<li data-role="assistant">server answer</li>');
    expect(html).toContain('<span id="loading">false</span>');

    // ...and inside a ChatProvider.
    html = renderToString(
      <ChatProvider>
        <Chat id="ssr-provider" initialMessages={saved} />
      </ChatProvider>,
    );
    expect(html).toContain('<span id="status">ready</span>');
    expect(html).toContain('server answer');

    expect(errors).not.toHaveBeenCalled();
    expect(warnings).not.toHaveBeenCalled();
  });

  it('renders a chat with no messages yet (loader pending) on the server', () => {
    function Empty() {
      const chat = useChat({ id: 'ssr-loader', connection, initialMessages: () => new Promise<readonly ChatMessage[]>(() => {}) });
      const status = useChatSelector('ssr-loader', (snapshot) => snapshot.status);
      return (
        <p>
          {chat.messages.length} messages, {status}, {String(chat.isLoadingMessages)}
        </p>
      );
    }
    const html = renderToString(
      <ChatProvider>
        <Empty />
      </ChatProvider>,
    );
    expect(html).toBe('<p>0<!-- --> messages, <!-- -->ready<!-- -->, <!-- -->true</p>');
  });

  describe.each([
    { setup: 'each request in its own ChatProvider', wrap: (node: React.ReactNode) => <ChatProvider>{node}</ChatProvider> },
    { setup: 'without a provider', wrap: (node: React.ReactNode) => node },
  ])('two requests for the same chat id, $setup', ({ wrap }) => {
    it("one after the other: the second never sees the first one's messages", () => {
      const alice = renderToString(wrap(<Chat id="support" initialMessages={conversationOf('Alice')} />));
      const bob = renderToString(wrap(<Chat id="support" initialMessages={conversationOf('Bob')} />));
      expect(alice).toContain('Alice&#x27;s private question');
      expect(bob).toContain('Bob&#x27;s private question');
      expect(bob).not.toContain('Alice');
      expect(alice).not.toContain('Bob');
    });

    it("interleaved (streaming with Suspense): neither sees the other's messages", async () => {
      // Alice's request suspends before its chat renders; Bob's renders completely in between.
      let releaseAlice!: () => void;
      const aliceData = new Promise<void>((resolve) => (releaseAlice = resolve));
      function AfterData({ data, children }: { readonly data: Promise<void>; readonly children: React.ReactNode }) {
        use(data);
        return <>{children}</>;
      }
      const aliceHtml = streamToHtml(
        wrap(
          <Suspense fallback={<p>loading</p>}>
            <AfterData data={aliceData}>
              <Chat id="support" initialMessages={conversationOf('Alice')} />
            </AfterData>
          </Suspense>,
        ),
      );
      const bobHtml = await streamToHtml(wrap(<Chat id="support" initialMessages={conversationOf('Bob')} />));
      releaseAlice();
      const alice = await aliceHtml;
      expect(bobHtml).toContain('Bob&#x27;s private question');
      expect(bobHtml).not.toContain('Alice');
      expect(alice).toContain('Alice&#x27;s private question');
      expect(alice).not.toContain('Bob');
    });
  });

  it('an app can pass its own per-request registry and read what was rendered', () => {
    const registry = createChatRegistry();
    renderToString(
      <ChatProvider registry={registry}>
        <Chat id="support" initialMessages={conversationOf('Carol')} />
      </ChatProvider>,
    );
    expect(registry.ids()).toEqual(['support']);
    expect(registry.get('support')?.getSnapshot().messages.map(messageText)).toEqual(["Carol's private question", 'answer for Carol']);
  });
});
