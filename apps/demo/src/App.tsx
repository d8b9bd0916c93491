import { useChat } from '@chatwire/react';
import { Composer } from './components/Composer.tsx';
import { MessageList } from './components/MessageList.tsx';

/** The demo page: a conversation with the scripted model (or a real one when keys are set). */
export function App() {
  const chat = useChat({ api: '/api/chat' });
  const busy = chat.status === 'submitted' || chat.status === 'streaming';
  return (
    <div className="app">
      <header className="app-header">
        <h1>Chatwire</h1>
        <span className="status" data-testid="status" data-status={chat.status}>
          {chat.status}
        </span>
      </header>
      <main className="conversation">
        <MessageList messages={chat.messages} onApproval={(id, approved) => chat.client.addToolApprovalResponse({ id, approved })} />
        {chat.error ? (
          <div role="alert" className="error">
            <strong>Something went wrong.</strong> {chat.error.message}
          </div>
        ) : null}
      </main>
      <Composer busy={busy} onSend={(text) => chat.sendMessage(text).catch(() => {})} onStop={chat.stop} />
    </div>
  );
}
