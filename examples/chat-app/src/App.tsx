import { ChatwireDevtools } from '@chatwire/devtools';
import { useChat } from '@chatwire/react';
import { ChatError, Composer, makeToolUI, MessageList } from '@chatwire/ui';
import { useCallback, useMemo, useState } from 'react';
import { getForecast, getWeather, setTheme, type Theme } from '../shared/tools.ts';

/**
 * Renderers for this app's tools, typed by their definitions: `output` has the type of the tool's
 * output schema. Tools without one (refundOrder, setTheme) get @chatwire/ui's generic card.
 */
const toolUIs = [
  makeToolUI(getWeather, ({ output }) => (
    <p className="weather">{output ? `${output.celsius} °C and ${output.sky} in ${output.city}` : null}</p>
  )),
  makeToolUI(getForecast, ({ output }) => (
    <ul className="forecast">
      {output?.days.map((day) => (
        <li key={day.date}>
          <span>{day.date}</span>
          <strong>{`${day.high}° / ${day.low}°`}</strong>
        </li>
      ))}
    </ul>
  )),
];

/** A chat page: streamed Markdown answers, readable tool cards, Approve / Deny, a lazy tool's discovery step. */
export function App() {
  const [theme, applyTheme] = useState<Theme>('light');
  // The browser tool's implementation: the model calls it, the page runs it. Created once.
  const [tools] = useState(() => [
    setTheme.client(({ theme }) => {
      applyTheme(theme);
      return { theme };
    }),
  ]);
  const chat = useChat({ api: '/api/chat', tools });
  const { client } = chat;
  const busy = chat.status === 'submitted' || chat.status === 'streaming';
  const onApproval = useCallback((id: string, approved: boolean) => client.addToolApprovalResponse({ id, approved }), [client]);
  const onRegenerate = useCallback(() => void client.regenerate(), [client]);
  const pendingApprovals = useMemo(() => chat.pendingApprovals.map((part) => part.toolName), [chat.pendingApprovals]);

  return (
    <div className="app" data-theme={theme}>
      <header className="header">
        <h1>Chat</h1>
        <span className="status">
          Status: <span data-testid="status">{chat.status}</span>
        </span>
      </header>
      <main className="conversation">
        <MessageList
          messages={chat.messages}
          busy={busy}
          tools={toolUIs}
          onApproval={onApproval}
          onRegenerate={onRegenerate}
          empty={
            <p className="empty">
              Try “use getWeather for Paris”, “use getForecast for Paris” (a lazy tool), “use refundOrder for ORD-1234” or “use setTheme
              dark”.
            </p>
          }
        />
        {chat.error ? <ChatError error={chat.error} onRetry={onRegenerate} onDismiss={chat.clearError} /> : null}
      </main>
      <Composer
        busy={busy}
        accept={false}
        pendingApprovals={pendingApprovals}
        placeholder='Try "use getForecast for Paris"'
        onSend={(text) => chat.sendMessage(text)}
        onStop={chat.stop}
      />
      {/* The devtools panel in development (the catalog is served by `npm run dev`); renders nothing (and ships no panel code) in production builds. */}
      <ChatwireDevtools client={client} catalogUrl="/api/tools" />
    </div>
  );
}
