import { ChatwireDevtools } from '@chatwire/devtools';
import { useChat } from '@chatwire/react';
import { lazy, Suspense, useEffect, useRef, useState } from 'react';
import { Composer } from './components/Composer.tsx';
import { MessageList } from './components/MessageList.tsx';
import { PagePanel } from './components/PagePanel.tsx';
import { createBrowserTools, type AccentColor, type Banner, type Theme } from './tools/browserTools.ts';

/**
 * The devtools panel: in development from the main entry (nothing in production builds); a build
 * made with VITE_CHATWIRE_DEVTOOLS=on opts in through the `/production` subpath (the e2e tests use it).
 */
const Devtools =
  import.meta.env.VITE_CHATWIRE_DEVTOOLS === 'on'
    ? lazy(() => import('@chatwire/devtools/production').then((module) => ({ default: module.ChatwireDevtools })))
    : ChatwireDevtools;

/** The demo page: a conversation, plus the page state that browser tools change. */
export function App() {
  const [theme, setTheme] = useState<Theme>('light');
  const [accent, setAccent] = useState<AccentColor>('indigo');
  const [banner, setBanner] = useState<Banner | undefined>(undefined);
  const [notes, setNotes] = useState<string[]>([]);
  const [todos, setTodos] = useState<string[]>([]);
  const conversation = useRef<HTMLElement>(null);
  // State setters are stable, so the tools are created once.
  const [tools] = useState(() =>
    createBrowserTools({
      setTheme,
      showBanner: setBanner,
      addPinnedNote: (text) => setNotes((current) => [...current, text]),
      addTodo: (title) => setTodos((current) => [...current, title]),
      setAccentColor: setAccent,
      scrollToTop: () => conversation.current?.scrollTo({ top: 0 }),
    }),
  );
  const chat = useChat({ id: 'demo', api: '/api/chat', tools, catalog: '/api/tools' });
  const { discovered, undiscovered } = chat.discovery;
  const busy = chat.status === 'submitted' || chat.status === 'streaming';

  // Follow the conversation while it grows, unless the reader scrolled up.
  const pinned = useRef(true);
  useEffect(() => {
    const element = conversation.current;
    if (element && pinned.current) element.scrollTop = element.scrollHeight;
  }, [chat.messages]);

  return (
    <div className="app" data-theme={theme} data-accent={accent} data-testid="app">
      {banner ? (
        <div className={`banner banner-${banner.tone}`} role="status" data-testid="banner">
          {banner.text}
        </div>
      ) : null}
      <header className="app-header">
        <h1>Chatwire</h1>
        <span className="status" title="Lazy tools the model has discovered" data-testid="discovery-count">
          {`${discovered.length}/${discovered.length + undiscovered.length} lazy tools discovered`}
        </span>
        <span className="status" data-testid="status" data-status={chat.status}>
          {chat.status}
        </span>
      </header>
      <div className="layout">
        <div className="chat-column">
          <main
            className="conversation"
            ref={conversation}
            onScroll={(event) => {
              const element = event.currentTarget;
              pinned.current = element.scrollHeight - element.scrollTop - element.clientHeight < 48;
            }}
          >
            <MessageList
              messages={chat.messages}
              onApproval={(id, approved) => chat.client.addToolApprovalResponse({ id, approved })}
            />
            {chat.error ? (
              <div role="alert" className="error">
                <strong>Something went wrong.</strong> {chat.error.message}
              </div>
            ) : null}
          </main>
          <Composer busy={busy} onSend={(text) => void chat.sendMessage(text).catch(() => {})} onStop={chat.stop} />
        </div>
        <PagePanel notes={notes} todos={todos} />
      </div>
      <Suspense fallback={null}>
        <Devtools client={chat.client} catalogUrl="/api/tools" />
      </Suspense>
    </div>
  );
}
